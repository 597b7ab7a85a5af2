"""The project's words have one home (issue 26 item 6): :mod:`gzinertia.vocabulary`.

Each word is tested for its meaning (the SDF version's three questions, whether a
Hydrodynamics plugin applies added mass against a re-implementation of gz-sim's reading of its
parameters, the fluids' densities and their resolution, scoped names, the geometry element),
for its call sites agreeing on it (a mixed-sign plugin counts as added mass everywhere), and
for having no second definition left in the library (source scans).
"""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import numpy as np
import pytest
from audit_helpers import findings_of
from sdf_builders import (
    box,
    box_inertia,
    hydro_plugin,
    inertial,
    link,
    model,
    write,
)

import gzinertia
from gzinertia.arguments import fluid_density
from gzinertia.audit.rules.added_mass import added_mass_not_psd
from gzinertia.checks.added_mass import applied_added_mass, has_added_mass
from gzinertia.checks.context import DocumentContext
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.hydrodynamics_terms import FORCE_AXES, VELOCITY_AXES, added_mass_active
from gzinertia.sdf.reader import read_sdf_file
from gzinertia.vocabulary.added_mass import applies_added_mass
from gzinertia.vocabulary.fluids import FLUID_DENSITIES, density_of
from gzinertia.vocabulary.geometry import GEOMETRY_ELEMENTS, GeometryElement
from gzinertia.vocabulary.scoped_names import (
    enclosing_scopes,
    join_scoped,
    leaf_name,
    split_scoped,
    top_scope,
    within_top,
)
from gzinertia.vocabulary.sdf_version import (
    FLUID_ADDED_MASS_VERSION,
    KNOWN_VERSIONS,
    NEWEST_KNOWN_VERSION,
    SdfVersion,
)

LIBRARY = Path(gzinertia.__file__).parent
VOCABULARY = LIBRARY / "vocabulary"


def _library_sources() -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in sorted(LIBRARY.rglob("*.py"))
            if VOCABULARY not in p.parents]


# --- the SDF version ---------------------------------------------------------------------------


def test_sdf_version_reads_dotted_ascii_integers_only() -> None:
    assert SdfVersion("1.10").numbers == (1, 10)
    assert SdfVersion(" 1.9 ").numbers == (1, 9)
    for text in ("1.1_0", "abc", "", "1.", "１.１０", "1.10a"):
        assert SdfVersion(text).numbers is None, text
        assert not SdfVersion(text).readable


def test_sdf_version_unreadable_answers_each_question_as_its_caller_needs() -> None:
    unreadable = SdfVersion("1.1_0")
    assert unreadable.read_as == NEWEST_KNOWN_VERSION  # the reader: the newest it knows
    assert not unreadable.known_before(FLUID_ADDED_MASS_VERSION)  # the audit: not "old"
    assert not unreadable.known_at_least(FLUID_ADDED_MASS_VERSION)  # an edit: not "new enough"
    old, new = SdfVersion("1.9"), SdfVersion("1.10")
    assert old.known_before(FLUID_ADDED_MASS_VERSION) and not old.known_at_least((1, 10))
    assert new.known_at_least(FLUID_ADDED_MASS_VERSION) and not new.known_before((1, 10))
    assert new.read_as == (1, 10) and str(new) == "1.10"


def test_known_versions_are_every_minor_up_to_the_newest() -> None:
    assert KNOWN_VERSIONS[0] == "1.0"
    assert [SdfVersion(v).numbers for v in KNOWN_VERSIONS] == [
        (1, minor) for minor in range(NEWEST_KNOWN_VERSION[1] + 1)
    ]


def _one_box(version: str, A: np.ndarray | None = None) -> str:
    I = box_inertia(2.0, (0.4, 0.2, 0.2))
    return model(link("hull", inertial(2.0, I, A=A), box((0.4, 0.2, 0.2))), version=version)


def test_an_unreadable_version_reads_as_newest_is_not_flagged_old_and_is_not_upgraded(
    tmp_path: Path,
) -> None:
    A = np.diag([1.0, 2.0, 3.0, 0.1, 0.2, 0.3])
    path = write(tmp_path, _one_box("1.1_0", A))
    doc = read_sdf_file(path)
    assert any(n.code == "sdf-version" and "read as 1.12" in n.message for n in doc.notes)
    assert not [f for f in findings_of(tmp_path, path.read_text(), "GZI201")]
    bare = write(tmp_path, _one_box("1.1_0"), "bare.sdf")
    with pytest.raises(GzInertiaError, match=r"declares SDF 1\.1_0"):
        gzinertia.addmass(bare)


def test_an_old_version_is_flagged_and_upgraded(tmp_path: Path) -> None:
    A = np.diag([1.0, 2.0, 3.0, 0.1, 0.2, 0.3])
    path = write(tmp_path, _one_box("1.9", A))
    assert findings_of(tmp_path, path.read_text(), "GZI201")
    bare = write(tmp_path, _one_box("1.9"), "bare.sdf")
    assert '<sdf version="1.10">' in gzinertia.addmass(bare).text


# --- whether a Hydrodynamics plugin applies added mass -----------------------------------------


def _gz_sim_applies(terms: dict[str, float], disabled: bool) -> bool:
    """gz-sim's Hydrodynamics (``Hydrodynamics.cc``, Configure): each ``<iDotJ>`` it knows is
    read into ``Ma`` (0 when absent), whatever its sign; ``<disable_added_mass>`` leaves ``Ma``
    zero; the added-mass wrench is ``Ma·ν̇``, so added mass is applied iff ``Ma ≠ 0``."""
    Ma = np.zeros((6, 6))
    if not disabled:
        for i, row in enumerate(FORCE_AXES):
            for j, column in enumerate(VELOCITY_AXES):
                Ma[i, j] = terms.get(f"{row}Dot{column}", 0.0)
    return bool(np.any(Ma != 0.0))


def test_applies_added_mass_is_gz_sims_reading_of_the_parameters() -> None:
    rng = random.Random(26)
    names = [f"{r}Dot{c}" for r in FORCE_AXES for c in VELOCITY_AXES]
    names += ["xU", "xUabsU", "nRabsR", "yV"]  # damping terms: never added mass
    for _ in range(2000):
        terms = {n: rng.choice((0.0, -3.0, 2.5, -0.0)) for n in rng.sample(names, rng.randint(0, 6))}
        disabled = rng.random() < 0.3
        assert applies_added_mass(terms, disabled) == _gz_sim_applies(terms, disabled), terms


def test_a_mixed_sign_plugin_applies_added_mass() -> None:
    mixed = {"xDotU": -5.0, "yDotV": 3.0, "zDotW": -5.0}
    assert applies_added_mass(mixed, disabled=False)
    assert not applies_added_mass(mixed, disabled=True)
    assert not applies_added_mass({"xU": -4.0, "xUabsU": -2.0}, disabled=False)


def _mixed_sign_model(A: np.ndarray | None = None) -> str:
    I = box_inertia(2.0, (0.4, 0.2, 0.2))
    return model(
        link("hull", inertial(2.0, I, A=A), box((0.4, 0.2, 0.2))),
        hydro_plugin("hull", {"xDotU": -5.0, "yDotV": 3.0, "zDotW": -5.0}),
    )


def test_every_site_counts_a_mixed_sign_plugin_as_added_mass(tmp_path: Path) -> None:
    path = write(tmp_path, _mixed_sign_model())
    doc = DocumentContext(read_sdf_file(path))
    (ctx,) = doc.links
    (plugin,) = ctx.link.hydrodynamics
    assert added_mass_active(plugin)
    assert has_added_mass(ctx)  # GZI210's overlap count, addmass's overlap guard
    # its matrix has no telling convention: judged by GZI208 (signs), not GZI202 (PSD)
    assert applied_added_mass(ctx) is None
    assert list(added_mass_not_psd(ctx)) == []
    assert findings_of(tmp_path, path.read_text(), "GZI208")
    # addmass refuses to add a second added mass beside the plugin's
    with pytest.raises(GzInertiaError, match=r"replace_plugin_added_mass=True"):
        gzinertia.addmass(path, links="hull")


def test_a_mixed_sign_plugin_beside_fluid_added_mass_counts_twice(tmp_path: Path) -> None:
    A = np.diag([1.0, 2.0, 3.0, 0.1, 0.2, 0.3])
    found = findings_of(tmp_path, _mixed_sign_model(A), "GZI205")
    assert len(found) == 1 and found[0].link.endswith("hull")


# --- fluids ------------------------------------------------------------------------------------


def test_density_of_a_name_a_number_or_nothing() -> None:
    assert density_of(None, "seawater") == FLUID_DENSITIES["seawater"]
    assert density_of(998.2, None) == 998.2
    assert density_of(None, None) == FLUID_DENSITIES["freshwater"]  # Gazebo's Buoyancy default
    with pytest.raises(SettingError):
        fluid_density(1000.0, "air")


def _density_literals(tree: ast.AST) -> list[int]:
    """Lines where a name or parameter saying density gets a number written in the code."""
    lines = []
    for node in ast.walk(tree):
        pairs: list[tuple[str, ast.expr | None]] = []
        if isinstance(node, ast.Assign):
            pairs = [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            pairs = [(node.target.id, node.value)]
        elif isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args]
            pairs = [(a.arg, d) for a, d in zip(named[len(named) - len(node.defaults):],
                                                 node.defaults, strict=True)]
            pairs += [(a.arg, d) for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True)]
        lines += [getattr(value, "lineno", 0) for name, value in pairs
                  if "density" in name.lower() and isinstance(value, ast.Constant)
                  and isinstance(value.value, (int, float))]
    return lines


def test_the_library_writes_no_fluid_density_as_a_number() -> None:
    """A density is a name of the fluids' table, never a number typed in elsewhere."""
    found = [f"{path.relative_to(LIBRARY)}:{line}" for path, text in _library_sources()
             for line in _density_literals(ast.parse(text))]
    assert found == []
    assert _density_literals(ast.parse("def f(density=1000.0): pass\nWATER_DENSITY = 998.0"))


# --- scoped names ------------------------------------------------------------------------------


def test_scoped_names_split_and_join() -> None:
    name = "outer::inner::hull"
    assert split_scoped(name) == ("outer", "inner", "hull")
    assert join_scoped(*split_scoped(name)) == name
    assert (leaf_name(name), top_scope(name), within_top(name)) == ("hull", "outer", "inner::hull")
    assert enclosing_scopes(name) == ("outer", "outer::inner")
    assert (leaf_name("hull"), top_scope("hull"), within_top("hull")) == ("hull",) * 3
    assert enclosing_scopes("hull") == ()


def test_the_library_splits_and_joins_scoped_names_in_one_place() -> None:
    pattern = re.compile(r"""(r?split|r?partition)\(\s*["']::["']|["']::["']\.join""")
    found = [f"{p.relative_to(LIBRARY)}:{text.count(chr(10), 0, m.start()) + 1}"
             for p, text in _library_sources() for m in pattern.finditer(text)]
    assert found == []


# --- geometry element, and the vocabulary's floor ----------------------------------------------


def test_collision_or_visual_is_one_alias() -> None:
    assert get_args(GeometryElement) == GEOMETRY_ELEMENTS == ("collision", "visual")
    spelled = re.compile(r"""Literal\[\s*["'](collision|visual)["']\s*,\s*["'](collision|visual)""")
    assert [str(p.relative_to(LIBRARY)) for p, text in _library_sources()
            if spelled.search(text)] == []


def test_the_vocabulary_imports_no_numpy() -> None:
    code = ("import sys, gzinertia.vocabulary; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'lxml')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
