"""One format backend (issue 26, item 2, third wave): the format of a file is asked in one place,
:func:`gzinertia.edit.backends.model_format`, and each added-mass edit and the repair is one
call to the backend it gives; nothing else in ``gzinertia/edit`` asks a suffix or reaches the
URDF reader or writers. Each added-mass mode gives the same :class:`~gzinertia.edit.edit_result.
Edit` shape on an SDFormat model and on the URDF it was written as: the same outcome type per
link, the same link, and the same matrix (the two writers differ in where they put it, not in
what they compute: checked here against each other, each one read back by its own format's
reader).
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sb
from conftest import REPO
from test_edit_backend import _wamit

from gzinertia.edit.added_mass_edits import (
    AddedMassRequest,
    ResultFile,
    bem_edit,
    ellipsoid_edit,
    import_edit,
)
from gzinertia.edit.addmass import FitChooser, LinkAddedMass
from gzinertia.edit.addmass_bem import BemSettings, LinkBem
from gzinertia.edit.backends import model_format
from gzinertia.edit.bem_import import ImportedLink
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.model_file import ModelFormat
from gzinertia.edit.sdf_file import SdfModelFile
from gzinertia.edit.urdf_file import UrdfModelFile
from gzinertia.model_reader import read_model_file

EDIT = REPO / "gzinertia" / "edit"

#: The modules of the URDF/xacro backend: they alone reach the URDF reader and its writers
#: (``migrate_urdf.py`` and ``migrate_xacro.py``: ``migrate``'s URDF and xacro writers, as
#: ``urdf_addmass.py`` is addmass's).
URDF_BACKEND = {"urdf_file.py", "urdf_addmass.py", "urdf_fix.py", "migrate_urdf.py",
                "migrate_xacro.py"}

#: The one place a file's format is decided.
REGISTRY = "backends.py"

#: The SDF session refuses a xacro fragment handed to an SDF-only edit (shift, convert, hydro)
#: before reading it as SDFormat: a refusal naming the file, not a choice of writer.
FRAGMENT_REFUSAL = "session.py"


def _runtime_imports(tree: ast.Module) -> set[str]:
    """The modules a module imports when it runs (not those under ``if TYPE_CHECKING``)."""
    typing_only = {
        id(node) for stmt in tree.body if isinstance(stmt, ast.If)
        and isinstance(stmt.test, ast.Name) and stmt.test.id == "TYPE_CHECKING"
        for node in ast.walk(stmt)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _names_used(tree: ast.Module) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {
        node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}


def _modules() -> dict[str, ast.Module]:
    return {path.name: ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(EDIT.glob("*.py"))}


def test_only_the_registry_asks_whether_a_file_is_urdf() -> None:
    """``is_urdf_path`` is called in ``gzinertia/edit`` by the registry alone (before: the
    added-mass request, the repair's dispatch and the registry each asked it); ``is_xacro_path``
    only by the URDF backend, which expands xacro, and by the SDF session's fragment refusal."""
    modules = _modules()
    urdf = {name for name, tree in modules.items() if "is_urdf_path" in _names_used(tree)}
    xacro = {name for name, tree in modules.items() if "is_xacro_path" in _names_used(tree)}
    assert urdf == {REGISTRY}
    assert xacro <= URDF_BACKEND | {FRAGMENT_REFUSAL}, xacro


def test_only_the_urdf_backend_reaches_the_urdf_reader_and_writers() -> None:
    """At run time, only the URDF backend's modules import ``gzinertia.urdf`` (the session's
    fragment refusal aside), and only the URDF backend imports its own writers
    (``edit.urdf_addmass``, ``edit.urdf_fix``): the mode modules (``addmass``, ``addmass_bem``,
    ``bem_import``) and the dispatchers (``added_mass_edits``, ``fix_file``) do not."""
    reach = {}
    for name, tree in _modules().items():
        imports = _runtime_imports(tree)
        urdf = {m for m in imports if m == "gzinertia.urdf" or m.startswith("gzinertia.urdf.")}
        writers = imports & {"gzinertia.edit.urdf_addmass", "gzinertia.edit.urdf_fix"}
        if urdf or writers:
            reach[name] = urdf | writers
    assert set(reach) <= URDF_BACKEND | {FRAGMENT_REFUSAL}, reach
    assert reach.get(FRAGMENT_REFUSAL, {"gzinertia.urdf.fragments"}) == {
        "gzinertia.urdf.fragments"}


def test_the_dispatchers_make_one_call_to_the_backend() -> None:
    """Each added-mass edit and the repair is one call through :func:`model_format` (no
    branch on the format: no ``if`` in their bodies)."""
    modules = _modules()
    for module, functions in (("added_mass_edits.py", ("ellipsoid_edit", "bem_edit",
                                                       "import_edit")),
                              ("fix_file.py", ("fix_file",))):
        defs = {node.name: node for node in ast.walk(modules[module])
                if isinstance(node, ast.FunctionDef)}
        for function in functions:
            body = defs[function]
            assert not [n for n in ast.walk(body) if isinstance(n, (ast.If, ast.IfExp))], function
            assert "model_format" in _names_used(ast.Module(body=[body], type_ignores=[]))


@pytest.mark.parametrize(("name", "backend"), [
    ("model.sdf", SdfModelFile), ("model.world", SdfModelFile), ("<stdin>", SdfModelFile),
    ("model.urdf", UrdfModelFile), ("robot.xacro", UrdfModelFile),
    ("robot.URDF.XACRO", UrdfModelFile),
])
def test_the_registry_gives_each_file_its_backend(name: str, backend: ModelFormat) -> None:
    """By suffix, case-insensitively (the vocabulary's answer); standard input's bytes are
    SDFormat whatever the name."""
    assert model_format(Path(name)) is backend
    assert model_format(Path(name), data=b"<sdf/>") is SdfModelFile


# --- the same Edit shape on both formats -------------------------------------------------------

SIZE = (1.3416407865, 0.7745966692, 0.7745966692)  # the uniform box of I = diag(2, 4, 4)/20 kg
#: 2500 times that box's mass and inertia (the same box): heavier than every added mass the
#: tests write (the imported one's 40000 kg), which URDF's explicit plugin path refuses beyond
#: (gz-sim#1923, GZI506).
MASS = 20.0 * 2500
INERTIA = np.diag([2.0, 4.0, 4.0]) * 2500


def _twins(tmp_path: Path) -> dict[str, Path]:
    """One link ``hull`` (a box, its mass and inertia) written as SDFormat and as URDF."""
    sdf = sb.write(tmp_path / "sdf", sb.model(
        sb.link("hull", sb.inertial(MASS, INERTIA), sb.box(SIZE, name="hull_collision")),
        name="auv"))
    urdf = tmp_path / "urdf" / "model.urdf"
    urdf.parent.mkdir()
    urdf.write_text(
        '<?xml version="1.0"?>\n<robot name="auv">\n  <link name="hull">\n    <inertial>\n'
        f'      <mass value="{MASS}"/>\n      <inertia ixx="{INERTIA[0, 0]}" ixy="0" ixz="0" '
        f'iyy="{INERTIA[1, 1]}" iyz="0" izz="{INERTIA[2, 2]}"/>\n    </inertial>\n    <collision name="hull_collision">\n      <geometry>'
        f'<box size="{" ".join(map(str, SIZE))}"/></geometry>\n    </collision>\n  </link>\n'
        '</robot>\n', encoding="utf-8")
    return {"sdf": sdf, "urdf": urdf}


def _read_back(edit: Edit[object], path: Path) -> np.ndarray:
    """The added mass the written file gives its one link, read by its own format's reader
    (``<fluid_added_mass>`` on SDF, the Hydrodynamics plugin's ``-sym(D)`` on URDF)."""
    written = path.with_name("written" + "".join(path.suffixes))
    written.write_bytes(edit.new)
    (link,) = read_model_file(written).links
    if link.A_BBo_B is not None:
        return link.A_BBo_B.linear_first()
    (plugin,) = link.hydrodynamics
    D = np.asarray(plugin.D_BBo_B, dtype=float)
    return -(D + D.T) / 2.0


def _same_shape(edits: dict[str, Edit[object]], paths: dict[str, Path], kind: type,
                ) -> list[np.ndarray]:
    """Both edits are :class:`Edit`s of one ``kind`` outcome naming the link ``hull``, with
    nothing skipped, each changing its file; the matrices each file reads back."""
    for fmt, edit in edits.items():
        assert isinstance(edit, Edit), fmt
        assert [type(o) for o in edit.links] == [kind], (fmt, edit.links)
        (outcome,) = edit.links
        name = outcome.name if isinstance(outcome, ImportedLink) else outcome.link.name
        assert name.split("::")[-1] == "hull", (fmt, name)
        assert edit.skipped == () and edit.new != edit.old, (fmt, edit.skipped)
    return [_read_back(edits[fmt], paths[fmt]) for fmt in ("sdf", "urdf")]


def _outcome_matrix(outcome: object) -> np.ndarray:
    """The symmetric part of an outcome's ``A_BBo_B`` (what both writers write)."""
    if isinstance(outcome, LinkBem):
        A = outcome.result.A_BBo_B  # type: ignore[attr-defined]
    else:
        assert isinstance(outcome, (LinkAddedMass, ImportedLink))
        A = outcome.A_BBo_B
    return np.asarray(A.symmetric().linear_first())


def _agree(edits: dict[str, Edit[object]], paths: dict[str, Path], kind: type) -> None:
    sdf, urdf = _same_shape(edits, paths, kind)
    scale = float(np.max(np.abs(sdf)))
    assert scale > 0.0
    # The two writers print ten significant digits: the same matrix to that.
    assert np.max(np.abs(sdf - urdf)) <= 1e-9 * scale, (sdf, urdf)
    for fmt, edit in edits.items():
        A = _outcome_matrix(edit.links[0])
        assert np.max(np.abs(A - sdf)) <= 1e-9 * scale, fmt


def test_the_ellipsoid_edit_has_one_shape_on_both_formats(tmp_path: Path) -> None:
    """The volume fit of the same box gives the same :class:`LinkAddedMass` and matrix through
    either backend."""
    paths = _twins(tmp_path)
    edits = {fmt: ellipsoid_edit(AddedMassRequest(path), FitChooser("volume"), 1025.0)
             for fmt, path in paths.items()}
    _agree(edits, paths, LinkAddedMass)


def test_the_import_edit_has_one_shape_on_both_formats(tmp_path: Path) -> None:
    """A WAMIT result about a point off the link origin, moved to Bo, gives the same
    :class:`ImportedLink` and matrix through either backend."""
    paths = _twins(tmp_path)
    result = ResultFile(_wamit(tmp_path, (3.0, 40.0, 40.0, 0.5, 2.0, 2.0)), "zero",
                        (0.2, 0.0, -0.1), density=1000.0)
    edits = {fmt: import_edit(AddedMassRequest(path, "hull"), result)
             for fmt, path in paths.items()}
    _agree(edits, paths, ImportedLink)


def test_the_bem_edit_has_one_shape_on_both_formats(tmp_path: Path) -> None:
    """A boundary-element solve of the same box (coarse panels, no cache) gives the same
    :class:`LinkBem` and matrix through either backend: the same mesh, the same solve."""
    pytest.importorskip("capytaine")
    pytest.importorskip("manifold3d")
    paths = _twins(tmp_path)
    settings = BemSettings(1000.0, panel_size=0.3, use_cache=False)
    edits = {fmt: bem_edit(AddedMassRequest(path), settings) for fmt, path in paths.items()}
    _agree(edits, paths, LinkBem)
