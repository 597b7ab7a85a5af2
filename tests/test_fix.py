"""``gzinertia fix`` against the audit, libsdformat, Drake and Drake's own ``fix_inertia``.

* After a fix the audit reports none of the repaired codes on those links; libsdformat (the
  compiled oracle) reports no invalid inertia and Drake loads every body with the file's
  inertia (it replaces invalid ones by a water sphere, with a warning we capture).
* ``--method geometry --move-com`` equals what Drake's ``fix_inertia`` computes
  (``pydrake.multibody._inertia_fixer.InertiaProcessor``, before it rounds to 5 digits) to
  1e-9, on the examples, generated models of every primitive, and a mesh.
* The edit is minimal (comments and untouched values kept byte for byte), idempotent
  (``--check`` after ``--in-place`` exits 0), and the per-link report names what changed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import codes_by_link
from conftest import EXAMPLES, run_cli
from fix_oracles import drake_fix_inertia as _drake_fix_inertia
from fix_oracles import libsdformat_inertia_errors as _libsdformat_inertia_errors
from union_oracle import summed_volume, united_fix

from gzinertia.sdf import read_sdf_file

sys.path.insert(0, str(Path(__file__).resolve().parent))


# Inline: the fix must keep this file's comment and layout (minimal diff), and tests edit its
# exact text.
BROKEN = """<?xml version="1.0"?>
<sdf version="1.10">
  <model name="m">
    <link name="body">
      <!-- a comment the fix must keep -->
      <inertial>
        <pose>0.01 0 0 0 0 0.3</pose>
        <mass>24</mass>
        <inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.3</izz></inertia>
      </inertial>
      <collision name="hull"><geometry><box><size>0.4 0.3 0.2</size></box></geometry></collision>
    </link>
    <link name="rounded">
      <pose>1 0 0 0 0 0</pose>
      <inertial>
        <mass>24</mass>
        <inertia>
          <ixx>0.26</ixx>
          <ixy>0.0001</ixy>
          <iyy>0.4</iyy>
          <izz>0.66001</izz>
        </inertia>
      </inertial>
      <collision name="hull"><geometry><box><size>0.4 0.3 0.2</size></box></geometry></collision>
    </link>
    <link name="negative">
      <pose>2 0 0 0 0 0</pose>
      <inertial>
        <mass>3</mass>
        <inertia><ixx>0.02</ixx><ixy>0.0145</ixy><iyy>0.01</iyy><izz>0.03</izz></inertia>
      </inertial>
    </link>
    <link name="bare">
      <pose>3 0 0 0 0 0</pose>
      <collision name="c"><geometry><cylinder><radius>0.1</radius><length>0.5</length></cylinder></geometry></collision>
    </link>
  </model>
</sdf>
"""


_codes = codes_by_link


def _drake_replaced(path: Path) -> dict[str, str]:
    pytest.importorskip("pydrake")
    from oracles.drake_oracle import load_in_drake

    load = load_in_drake(path)
    assert load.ok, load.error
    return load.excluded


@pytest.mark.parametrize("method", ["nearest", "balance", "geometry"])
def test_fixed_file_passes_audit_libsdformat_and_drake(
    method: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    before = _codes(path)
    assert before["m::body"] >= {"GZI104"} and "GZI103" in before["m::negative"]
    assert _libsdformat_inertia_errors(path) and _drake_replaced(path)
    extra = ["--density", "500"] if method == "geometry" else []
    code, _, err = run_cli(["fix", str(path), "--method", method, *extra, "--in-place"], capsys)
    assert code == 0, err
    _last_err = err
    after = _codes(path)
    repaired = {"nearest": {"GZI103", "GZI104"}, "balance": {"GZI104"},
                "geometry": {"GZI102", "GZI103", "GZI104", "GZI105"}}[method]
    for link in ("m::body", "m::rounded"):
        assert not after.get(link, set()) & repaired, (link, after, err)
    for link, codes in after.items():  # nothing new anywhere
        assert codes <= before.get(link, set()), (link, codes, err)
    code, _, err = run_cli(["fix", str(path), "--method", method, *extra, "--check"], capsys)
    assert code == 0, err
    assert b"a comment the fix must keep" in path.read_bytes()
    # MuJoCo's rule refuses a negative moment, and geometry needs a <collision>: those two
    # methods leave m::negative as it was, and say why
    left = set() if method == "nearest" else {"negative"}
    if left:
        assert "m::negative: " in _last_err and "not repaired" in _last_err
    errors = _libsdformat_inertia_errors(path)
    assert {e.split("A link named ")[1].split()[0] for e in errors} == left
    assert set(_drake_replaced(path)) == {f"m::{n}" for n in left}


def test_nearest_changes_only_the_inertia_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    code, out, err = run_cli(["fix", str(path), "--link", "m::rounded", "--diff"], capsys)
    assert code == 0, err
    changed = [ln for ln in out.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
    # ixx, iyy, izz move; the product and every other line stay as written
    assert len(changed) == 6 and all("<i" in ln for ln in changed), out
    assert "m::rounded: nearest (GZI104)" in err and "of each moment" in err


def test_report_names_relative_change_and_com_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--link", "m::body"], capsys)
    assert code == 0, err
    assert "centre of mass kept, 0.01 m from the collisions' centroid" in err
    code, _, err = run_cli(
        ["fix", str(path), "--method", "geometry", "--link", "m::body", "--move-com", "--in-place"],
        capsys,
    )
    assert code == 0, err
    assert "centre of mass moved 0.01 m" in err
    link = read_sdf_file(path).link("m::body")
    assert np.array_equal(link.inertial.p_BoBcm_B, np.zeros(3))
    assert "<pose>0 0 0 0 0 0.3</pose>" in path.read_text()  # rotation kept as written


def test_missing_inertial_needs_density_or_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--link", "m::bare"], capsys)
    assert code == 0 and "give --density or --mass" in err
    code, _, err = run_cli(
        ["fix", str(path), "--method", "geometry", "--link", "m::bare", "--mass", "7",
         "--in-place"], capsys,
    )
    assert code == 0, err
    inertial = read_sdf_file(path).link("m::bare").inertial
    assert inertial.mass == 7.0 and not inertial.defaulted
    # a uniform solid cylinder: I_zz = m r²/2, I_xx = m (3r² + L²)/12
    r, L = 0.1, 0.5
    assert np.allclose(np.diag(inertial.I_BBcm_I), [7 * (3 * r * r + L * L) / 12] * 2
                       + [7 * r * r / 2], rtol=1e-12)
    assert "GZI102" not in _codes(path).get("m::bare", set())


def test_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    for args in (["--method", "magic"], ["--density", "5"], ["--method", "geometry",
                 "--density", "-1"], ["--geometry", "mesh", "--method", "geometry"],
                 ["--geometry", "visual"],
                 ["--select", "GZI201"]):
        code, _, err = run_cli(["fix", str(path), *args], capsys)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (args, err)


# --- geometry against Drake's fix_inertia -------------------------------------------------


def _assert_union_of(M: np.ndarray, ref: np.ndarray, shapes: Any, name: str) -> None:
    """``M`` is the summing oracle's ``ref`` (Drake's fix_inertia, libsdformat's auto inertia)
    re-spread over the union of the link's shapes (``fix --method geometry`` counts an overlap
    once, issue 24): equal to rounding where the shapes are apart, to the overlap's
    measurement (``tests/union_oracle.py``) where they overlap."""
    expected, allowed = united_fix(ref, summed_volume(shapes), shapes)
    scale = max(1.0, float(np.max(np.abs(ref))))
    assert np.max(np.abs(M - expected)) <= 1e-9 * scale + allowed, name


def _compare_with_drake(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], visual: bool = False
) -> int:
    out = tmp_path / "fixed.sdf"
    run = ["fix", str(path), "--method", "geometry", "--move-com", "--all-links"]
    if visual:
        run += ["--geometry", "visual"]
    code, _, err = run_cli([*run, "-o", str(out)], capsys)
    assert code == 0, err
    drake = _drake_fix_inertia(path, "illustration" if visual else "proximity")
    ours = read_sdf_file(out)
    compared = 0
    # A repair whose result the audit would flag (e.g. GZI301: the geometry's centroid puts G
    # above Gazebo's B) is withdrawn, with the reason: nothing to compare for that link.
    withdrawn = {line.split(": ")[1] for line in err.splitlines() if ": not repaired: " in line}
    assert all("would report GZI" in line for line in err.splitlines() if ": not repaired: " in line)
    given = read_sdf_file(path)
    for link in ours.links:
        if link.name not in drake or not link.inertial.mass > 0 or link.name in withdrawn:
            continue
        M = link.M_BBo_B.angular_first()
        shapes = given.link(link.name)
        _assert_union_of(M, drake[link.name], shapes.visuals if visual else shapes.collisions,
                         link.name)
        compared += 1
    assert _drake_replaced(out) == {}
    assert _libsdformat_inertia_errors(out) == []
    run[1] = str(out)
    code, _, err = run_cli([*run, "--check"], capsys)  # a re-run on the result: nothing to do
    assert code == 0 and ("no link to repair" in err or (withdrawn and "up to date" in err)), err
    return compared


def _random_primitive_model(seed: int) -> str:
    from sdfgen import geometry_xml, pose_xml

    rng = np.random.default_rng(seed)
    links = []
    for i, kind in enumerate(("box", "sphere", "cylinder", "capsule", "ellipsoid")):
        collisions = "".join(
            f'<collision name="c{j}">{pose_xml(rng, "")}{geometry_xml(rng, kind, "")}</collision>'
            for j in range(1 + int(rng.integers(0, 3)))
        )
        I = np.diag(rng.uniform(0.1, 1.0, 3))  # often invalid: ignored by geometry
        com = rng.uniform(-0.2, 0.2, 3)
        inertial = sdf.inertial(rng.uniform(0.5, 50.0), I, com, rpy=(0.1, 0.2, 0.3))
        links.append(sdf.link(f"l{i}", inertial, collisions, pose=(i, 0, 0, 0, 0, 0)))
    return sdf.model(*links, version="1.11", name=f"g{seed}")


@pytest.mark.parametrize("seed", range(4))
def test_geometry_equals_drake_fix_inertia_on_generated_models(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pydrake")
    path = tmp_path / "g.sdf"
    path.write_text(_random_primitive_model(seed))
    assert _compare_with_drake(path, tmp_path, capsys) == 5


@pytest.mark.parametrize("example", ["box_rov/model.sdf", "torpedo_auv/model.sdf", "arm/model.sdf"])
def test_geometry_equals_drake_fix_inertia_on_examples(
    example: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The examples, as Drake can load them (``drake_compatible_copy``)."""
    pytest.importorskip("pydrake")
    from oracles.drake_oracle import drake_compatible_copy

    src = EXAMPLES / example
    copy = drake_compatible_copy(src, tmp_path / "copy")
    for item in src.parent.iterdir():  # meshes next to the copy, for relative URIs
        if item.is_dir() and not (copy.parent / item.name).exists():
            (copy.parent / item.name).symlink_to(item)
    assert _compare_with_drake(copy, tmp_path, capsys) >= 1


def test_geometry_equals_drake_fix_inertia_on_meshes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Closed meshes (a non-convex annulus, a box), scaled and posed, beside a primitive:
    Drake integrates OBJ meshes itself (it refuses STL here)."""
    pytest.importorskip("pydrake")
    import trimesh

    trimesh.creation.annulus(r_min=0.2, r_max=0.5, height=0.3).export(tmp_path / "ring.obj")
    trimesh.creation.box(extents=(0.3, 0.6, 0.2)).export(tmp_path / "box.obj")
    path = tmp_path / "mesh.sdf"
    ring = sdf.link(
        "ring", sdf.inertial(12.0, np.diag([1.0, 1.0, 3.0]), com=(0.1, 0, 0)),
        sdf.mesh("ring.obj", scale=(1.5, 1, 0.5), pose=(0.2, -0.1, 0.05, 0.3, 0.2, 0.1)),
        sdf.sphere(0.1, pose=(0, 0, 0.6, 0, 0, 0), name="s"),
    )
    block = sdf.link(
        "block", sdf.inertial(4.0, np.diag([0.1, 0.1, 0.3]), posed=False),
        sdf.mesh("box.obj", pose=(0, 0, 0, 0, 0.4, 0)), pose=(2, 0, 0, 0, 0, 0),
    )
    path.write_text(sdf.model(ring, block, version="1.10", name="mm"))
    assert _compare_with_drake(path, tmp_path, capsys) == 2


# --- audit --fix -----------------------------------------------------------------------------


def test_audit_fix_applies_only_the_safe_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """m::rounded (0.0015 % off) is a safe fix; m::body (11 % off) is not and stays reported."""
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    code, _, err = run_cli(["audit", "--fix", "--no-cache", "--format", "json", str(path)], capsys)
    assert code == 1, err
    assert "fixed" in err and "m::rounded" in err
    after = _codes(path)
    assert "GZI104" not in after.get("m::rounded", set())
    assert "GZI104" in after["m::body"]
    once = path.read_bytes()
    code, _, err = run_cli(["audit", "--fix", "--no-cache", "--format", "json", str(path)], capsys)
    assert path.read_bytes() == once  # nothing more to do
    code, _, err = run_cli(["audit", "--fix", "-"], capsys)
    assert code == 2


def test_safe_fixes_are_the_ones_the_rule_pages_call_safe() -> None:
    """ruff's convention: each rule page says whether its fix is safe; audit --fix applies
    exactly those."""
    import re

    from conftest import REPO

    from gzinertia.cli.audit_fix import SAFE_CODES

    safe = set()
    for page in sorted((REPO / "docs" / "rules").glob("GZI*.md")):
        fix_section = page.read_text().split("## Fix", 1)[-1].split("## Suppress", 1)[0]
        if re.search(r"\*\*Safe\*\*", fix_section):
            safe.add(page.stem)
    assert safe == set(SAFE_CODES)


@pytest.mark.parametrize("seed", range(3))
def test_geometry_equals_libsdformat_auto_inertia(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the file can say it (SDF 1.11 ``<inertial auto="true">``, one density per link):
    libsdformat's auto inertia, as Drake loads it, with the mass it computes written out, is
    what ``fix --method geometry --move-com`` computes from that mass."""
    pytest.importorskip("pydrake")
    import re

    from oracles.drake_oracle import load_in_drake

    explicit = _random_primitive_model(seed)
    auto = re.sub(
        r"<inertial>.*?</inertial>",
        lambda m: f'<inertial auto="true"><density>{700 + 100 * seed}</density></inertial>',
        explicit,
    )
    auto_path = tmp_path / "auto.sdf"
    auto_path.write_text(auto)
    load = load_in_drake(auto_path)
    assert load.ok and load.links, load.error
    masses = iter(float(M[3, 3]) for _, M in load.links.values())
    with_mass = re.sub(r"<mass>[^<]*</mass>", lambda m: f"<mass>{next(masses)!r}</mass>",
                       explicit)
    path = tmp_path / "explicit.sdf"
    path.write_text(with_mass)
    out = tmp_path / "fixed.sdf"
    code, _, err = run_cli(
        ["fix", str(path), "--method", "geometry", "--move-com", "--all-links", "-o", str(out)],
        capsys,
    )
    assert code == 0, err
    ours = {lk.name: lk.M_BBo_B.angular_first() for lk in read_sdf_file(out).links}
    assert set(ours) == set(load.links)
    given = read_sdf_file(path)
    for name, (_, ref) in load.links.items():
        _assert_union_of(ours[name], ref, given.link(name).collisions, name)


def test_inertial_without_inertia_and_included_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An <inertial> with <mass> only (the spec's unit inertia applies) gets an <inertia>; a
    link defined in an included file is left to that file, and the report says so."""
    (tmp_path / "part").mkdir()
    (tmp_path / "part" / "model.sdf").write_text(sdf.model(
        sdf.link("p", sdf.inertial(1.0, np.diag([0.1, 0.1, 0.3]), posed=False)),
        version="1.10", name="part"))
    path = tmp_path / "m.sdf"
    mass_only = sdf.link("a", sdf.inertial(0.1, None, posed=False),
                         sdf.box((0.1, 0.1, 0.1), pose=None))
    path.write_text(sdf.world(sdf.nested_model("m", mass_only), sdf.include("part"),
                              version="1.10"))
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--in-place"], capsys)
    assert code == 0, err
    assert "part::p: defined in" in err
    inertial = read_sdf_file(path).link("m::a").inertial
    assert np.allclose(np.diag(inertial.I_BBcm_I), 0.1 * 0.02 / 12, rtol=1e-9)
    assert "GZI105" not in _codes(path).get("m::a", set())


def test_several_files_and_check_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.sdf", tmp_path / "b.sdf"
    a.write_text(BROKEN)
    b.write_text(BROKEN.replace("<izz>0.3</izz>", "<izz>0.2</izz>"))
    code, _, err = run_cli(["fix", str(a), str(b), "--check"], capsys)
    assert code == 1 and f"{a}: would change" in err and f"{b}: would change" in err
    code, _, err = run_cli(["fix", str(a), str(b), "--in-place"], capsys)
    assert code == 0, err
    code, _, err = run_cli(["fix", str(a), str(b), "--check"], capsys)
    assert code == 0, err


def test_audit_fix_follows_the_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A project that ignores GZI104 (for its path) gets no GZI104 fix from audit --fix."""
    (tmp_path / ".gzinertia.toml").write_text(
        '[per-path-ignores]\n"legacy/*.sdf" = ["GZI104"]\n'
    )
    (tmp_path / "legacy").mkdir()
    legacy, fresh = tmp_path / "legacy" / "m.sdf", tmp_path / "m.sdf"
    legacy.write_text(BROKEN)
    fresh.write_text(BROKEN)
    code, _, err = run_cli(["audit", "--fix", "--no-cache", "--format", "json", str(tmp_path)],
                           capsys)
    assert code == 1, err  # the unsafe GZI104 of m::body is still reported
    assert legacy.read_text() == BROKEN, err
    assert fresh.read_text() != BROKEN, err
    again = tmp_path / "again.sdf"
    again.write_text(BROKEN)
    _, _, err = run_cli(["audit", "--fix", "--no-cache", "--ignore", "GZI1", str(again)], capsys)
    assert again.read_text() == BROKEN and "fixed" not in err


@pytest.mark.parametrize("seed", range(2))
def test_geometry_visual_equals_drake_fix_inertia_from_illustration(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--geometry visual`` on links that have visuals only (posed primitives of every kind
    and one more sphere each): what Drake's fix_inertia computes from illustration geometry."""
    pytest.importorskip("pydrake")
    text = _random_primitive_model(seed)
    text = text.replace("<collision", "<visual").replace("</collision>", "</visual>")
    text = text.replace(
        "</link>", '<visual name="extra"><pose>0 0.3 0 0 0 0</pose><geometry><sphere><radius>'
        "0.2</radius></sphere></geometry></visual></link>"
    )
    path = tmp_path / "v.sdf"
    path.write_text(text)
    assert _compare_with_drake(path, tmp_path, capsys, visual=True) == 5


@pytest.mark.parametrize("seed", range(3))
def test_geometry_visual_posed_relative_to_frames_equals_drake_fix_inertia(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Visuals posed ``relative_to`` a frame attached to the link, to the model frame and to
    another link (placed through the frame graph, as libsdformat resolves them): what Drake's
    fix_inertia computes from the same illustration geometry."""
    pytest.importorskip("pydrake")
    from sdfgen import geometry_xml, pose_xml

    rng = np.random.default_rng(100 + seed)
    links = []
    kinds = ("box", "sphere", "cylinder", "capsule", "ellipsoid")
    for i, kind in enumerate(kinds):
        refs = [f"f{i}", "__model__", f"l{(i + 1) % len(kinds)}", f"l{i}"]
        visuals = "".join(
            f'<visual name="v{j}">{pose_xml(rng, ref, allow_omit=False, scale=0.5)}'
            f"{geometry_xml(rng, kind, '')}</visual>"
            for j, ref in enumerate(refs)
        )
        # Random <pose> elements (sdfgen: every form) as the elements' parts.
        links.append(sdf.link(
            f"l{i}", pose_xml(rng, None, allow_omit=False),
            sdf.inertial(rng.uniform(0.5, 50.0), np.eye(3), posed=False), visuals))
        links.append(sdf.frame(f"f{i}", pose_xml(rng, sdf.MODEL_FRAME, allow_omit=False),
                               attached_to=f"l{i}"))
    path = tmp_path / "r.sdf"
    path.write_text(sdf.model(*links, version="1.9", name=f"r{seed}"))
    assert 'relative_to="f0"' in path.read_text()
    assert _compare_with_drake(path, tmp_path, capsys, visual=True) == len(kinds)


def test_nearest_repairs_read_back_valid_in_libsdformat_and_drake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Forty near-valid inertias in random axes (triangle broken, a negative moment, both; two
    equal moments, where gz-math's closed-form eigenvalues are least accurate), repaired and
    written: libsdformat and Drake accept every one."""
    from fix_oracles import near_valid_inertia as _near_valid
    from scipy.spatial.transform import Rotation

    cases = [_near_valid(seed) for seed in range(34)]
    R = Rotation.from_euler("xyz", [0.4, -0.2, 0.9]).as_matrix()
    for lam in ([0.1, 0.1, 0.3], [0.2, 0.2, 0.4000001], [-1e-9, 0.3, 0.3], [0.1, 0.3, 0.41],
                [1e-6, 1e-6, 3e-6], [2.0, 2.0, 4.5]):
        cases.append(R @ np.diag(lam) @ R.T)
    links = []
    for i, I in enumerate(cases):
        links.append(sdf.link(f"l{i}", sdf.inertial(2.0, I, posed=False),
                              pose=(i, 0, 0, 0, 0, 0)))
    path = tmp_path / "many.sdf"
    path.write_text(sdf.model(*links, version="1.10"))
    assert len(_libsdformat_inertia_errors(path)) == len(cases)
    code, _, err = run_cli(["fix", str(path), "--in-place"], capsys)
    assert code == 0, err
    assert err.count(": nearest (") == len(cases), err
    assert _libsdformat_inertia_errors(path) == []
    assert _drake_replaced(path) == {}
    # nothing left to repair; the links have no geometry, so the audit says (info) that it
    # could not judge their plausibility: one GZI113 for the model
    remaining = _codes(path)
    assert set().union(*remaining.values()) <= {"GZI113"}, remaining


def test_zero_mass_gets_mass_and_inertia_from_geometry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GZI101 (a moving link with <mass>0</mass>): --density writes density x volume and the
    solid's inertia; only <mass> and the <inertia> children change."""
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN.replace("<mass>24</mass>\n        <inertia>\n",
                                   "<mass>0</mass>\n        <inertia>\n"))
    assert "GZI101" in _codes(path)["m::rounded"]
    code, out, err = run_cli(["fix", str(path), "--method", "geometry", "--link", "m::rounded",
                              "--density", "250", "--diff"], capsys)
    assert code == 0 and "<mass> 0 -> 6 kg" in err, err
    changed = [ln for ln in out.splitlines() if ln[:1] == "+" and not ln.startswith("+++")]
    assert changed and all("<mass>" in ln or "<i" in ln for ln in changed), out
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--link", "m::rounded",
                            "--density", "250", "--in-place"], capsys)
    assert code == 0, err
    inertial = read_sdf_file(path).link("m::rounded").inertial
    a, b, c = 0.4, 0.3, 0.2  # a solid box of 0.024 m^3 at 250 kg/m^3
    assert inertial.mass == pytest.approx(6.0, rel=1e-12)
    assert np.allclose(np.diag(inertial.I_BBcm_I),
                       [6 / 12 * (b * b + c * c), 6 / 12 * (a * a + c * c),
                        6 / 12 * (a * a + b * b)], rtol=1e-9)
    assert not _codes(path).get("m::rounded", set()) & {"GZI101", "GZI104", "GZI105"}


def test_urdf_style_attributes_become_child_elements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GZI109: libsdformat reads the transcribed values (its loaded inertia equals the
    attributes), the audit no longer reports GZI109, and an invalid transcription is refused."""
    from oracles.sdformat_oracle import build_sdformat_dump, read_with_sdformat

    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    values = {"ixx": 0.02, "iyy": 0.03, "izz": 0.04, "ixy": 0.001, "ixz": -0.002, "iyz": 0.0}
    attrs = " ".join(f'{k}="{v}"' for k, v in values.items())
    body = (
        '<link name="a"><inertial><mass>2</mass><inertia ' + attrs + "/></inertial>"
        '<collision name="c"><geometry><box><size>0.3 0.25 0.2</size></box></geometry>'
        "</collision></link>"
        '<link name="b"><pose>1 0 0 0 0 0</pose><inertial><mass>2</mass>'
        '<inertia ixx="0.01" iyy="0.01" izz="0.05"/></inertial></link>'
    )
    path = tmp_path / "m.sdf"
    # Inline: the URDF-style <inertia> attributes (what GZI109 finds) are the point.
    path.write_text(f'<sdf version="1.10"><model name="m">{body}</model></sdf>')
    assert "GZI109" in _codes(path)["m::a"]
    code, _, err = run_cli(["fix", str(path), "--in-place"], capsys)
    assert code == 0, err
    assert "m::a: transcribed (GZI109)" in err
    assert "m::b: not repaired" in err and "GZI104" in err  # 0.01 + 0.01 < 0.05: refused
    [loaded] = read_with_sdformat([path])
    link = next(lk for lk in loaded["links"] if lk["name"].endswith("a"))
    assert link["I"] == [values[t] for t in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")]
    assert "GZI109" not in _codes(path).get("m::a", set())


def test_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json: per link what changed; the numbers are those the file now holds."""
    import json

    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    code, out, err = run_cli(["fix", str(path), "--json", "--in-place"], capsys)
    assert code == 0, err
    [report] = json.loads(out)
    assert report["changed"] is True and report["file"] == str(path)
    by_name = {lk["name"]: lk for lk in report["links"]}
    assert set(by_name) == {"m::body", "m::rounded", "m::negative"}
    doc = read_sdf_file(path)
    for name, entry in by_name.items():
        written = doc.link(name).inertial.I_BBcm_I
        assert np.allclose(entry["I_BBcm_I"]["after"], written, rtol=1e-9, atol=1e-15)
        lam = np.array(entry["principal_moments"]["before"])
        change = np.array(entry["principal_moments"]["after"]) - lam
        assert np.allclose(entry["relative_change"], change / np.max(np.abs(lam)))
    code, out, err = run_cli(["fix", str(path), "--json", "--diff"], capsys)
    assert code == 2


def test_a_mesh_with_2d_vertices_is_one_line_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by the long mutation run through fix: an OBJ whose first vertex has two numbers
    made trimesh read 2-D points, and the audit's GZI105 failed inside trimesh."""
    (tmp_path / "tet.obj").write_text(
        "v 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
    )
    path = tmp_path / "m.sdf"
    path.write_text(sdf.model(sdf.link(
        "fin", sdf.inertial(1.0, np.diag([2.0, 3.0, 4.0]), posed=False),
        sdf.mesh("tet.obj", pose=None, name="tet")), version="1.10"))
    for args in (["audit", "--no-cache", "--format", "text"], ["fix", "--method", "geometry",
                                                                "--all-links"]):
        code, out, err = run_cli([*args, str(path)], capsys)
        assert "internal error" not in out + err and "Traceback" not in err, (args, out, err)
        assert code in (0, 1, 2)


def _piped(args: list[str], data: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """``gzinertia ARGS < data`` with a real standard input."""
    import gzinertia

    root = str(Path(gzinertia.__file__).resolve().parents[1])
    return subprocess.run(
        [sys.executable, "-c", "from gzinertia.cli import main; main()", *args],
        input=data, cwd=cwd, env={**os.environ, "PYTHONPATH": root}, capture_output=True,
        timeout=120, check=False,
    )


def test_fix_reads_standard_input_and_writes_the_same_as_for_the_file(tmp_path: Path) -> None:
    """``fix -`` is a filter: the repaired text on stdout is byte for byte what ``fix FILE -o``
    writes; ``--check`` and ``--diff`` mean what they mean for a file; ``--in-place`` is
    refused in one line (there is no file to rewrite)."""
    path = tmp_path / "m.sdf"
    path.write_text(BROKEN)
    data = path.read_bytes()
    out = tmp_path / "out.sdf"
    from_file = _piped(["fix", str(path), "-o", str(out)], b"", tmp_path)
    assert from_file.returncode == 0, from_file.stderr
    piped = _piped(["fix", "-"], data, tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == out.read_bytes() != data
    assert b"m::body: nearest (GZI104)" in piped.stderr
    check = _piped(["fix", "-", "--check"], data, tmp_path)
    assert (check.returncode, check.stdout) == (1, b"")
    assert b"<stdin>: would change" in check.stderr
    assert _piped(["fix", "-", "--check"], piped.stdout, tmp_path).returncode == 0
    diff = _piped(["fix", "-", "--diff"], data, tmp_path)
    assert diff.returncode == 0 and diff.stdout.startswith(b"--- a/<stdin>\n+++ b/<stdin>\n")
    refused = _piped(["fix", "-", "--in-place"], data, tmp_path)
    assert refused.returncode == 2 and refused.stdout == b""
    assert refused.stderr.decode().count("\n") == 1 and "standard input" in refused.stderr.decode()
    bad = _piped(["fix", "-"], b"<sdf", tmp_path)
    assert bad.returncode == 2 and bad.stderr.decode().startswith("gzinertia: error: <stdin>:")
    assert "Traceback" not in bad.stderr.decode()
