"""``gzinertia fix`` on URDF and xacro, against libsdformat, Drake and Drake's fix_inertia.

* After ``fix`` the audit (of the links Gazebo builds, lumped) reports none of the repaired
  codes; libsdformat (the compiled oracle, which converts the URDF itself) reports no invalid
  inertia, and Drake's URDF parser loads every body with the file's inertia.
* ``--method geometry --move-com`` writes what Drake's ``fix_inertia`` computes from the same
  URDF (each link's own collisions and mass: Drake does not lump) to 1e-9.
* Only the ``<inertia>`` attributes (``<mass value>``, ``<origin xyz>``) that change are
  rewritten; comments stay; ``--check`` after ``--in-place`` exits 0.
* xacro: literal values are edited in the xacro itself; a ``${property}`` or a macro-made link
  is left as written, the value printed with where to put it, exit status 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import codes_by_link
from conftest import run_cli
from fix_oracles import drake_fix_inertia as _drake_fix_inertia
from fix_oracles import libsdformat_inertia_errors as _libsdformat_inertia_errors
from urdfgen import random_urdf, with_invalid_inertias

from gzinertia.urdf import read_urdf_file

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROBOT = """<?xml version="1.0"?>
<!-- a comment the fix must keep -->
<robot name="r">
  <link name="base">
    <inertial>
      <origin xyz="0.01 0 0" rpy="0 0 0.3"/>
      <mass value="24"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.3"/>
    </inertial>
    <collision><geometry><box size="0.4 0.3 0.2"/></geometry></collision>
  </link>
  <link name="cam">
    <inertial>
      <mass value="0.5"/>
      <inertia ixx="0.0002" ixy="0" ixz="0" iyy="0.0002" iyz="0" izz="0.00045"/>
    </inertial>
    <collision><geometry><box size="0.05 0.05 0.05"/></geometry></collision>
  </link>
  <link name="arm">
    <inertial>
      <origin xyz="0 0 0.2"/>
      <mass value="2"/>
      <inertia ixx="0.0279" ixy="0" ixz="0.0085" iyy="0.0279" iyz="0" izz="0.0025"/>
    </inertial>
    <collision><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision>
  </link>
  <joint name="cam_joint" type="fixed"><parent link="base"/><child link="cam"/><origin xyz="0.2 0 0"/></joint>
  <joint name="arm_joint" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


_codes = codes_by_link


def _drake_invalid(path: Path) -> set[str]:
    """The links whose inertia Drake's URDF parser calls invalid (its warning names the line
    of the ``<inertial>``)."""
    pytest.importorskip("pydrake")
    from oracles.drake_oracle import load_in_drake

    load = load_in_drake(path)
    assert load.ok, load.error
    lines = {int(w.split(":")[1]) for w in load.warnings if "CouldBePhysicallyValid" in w}
    own = read_urdf_file(path, lump=False).links
    return {r.name for r in own if r.inertial.source is not None
            and r.inertial.source.line in lines}


@pytest.mark.parametrize("method", ["nearest", "balance", "geometry"])
def test_fixed_urdf_passes_audit_libsdformat_and_drake(
    method: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    before = _codes(path)
    # Gazebo sees base+cam lumped (GZI104 from both) and arm (GZI103)
    assert "GZI104" in before["r::base"] and "GZI103" in before["r::arm"]
    assert _libsdformat_inertia_errors(path) and _drake_invalid(path)
    code, _, err = run_cli(["fix", str(path), "--method", method, "--in-place"], capsys)
    assert code == 0, err
    after = _codes(path)
    repaired = {"nearest": {"GZI103", "GZI104"}, "balance": {"GZI104"},
                "geometry": {"GZI103", "GZI104", "GZI105"}}[method]
    assert not after.get("r::base", set()) & repaired, err
    for link, codes in after.items():
        assert codes <= before.get(link, set()), (link, codes, err)
    # both contributing links of the lumped body were repaired in their own <inertial>
    assert "r::base: " in err and "r::cam: " in err
    text = path.read_text()
    assert "a comment the fix must keep" in text
    code, _, err2 = run_cli(["fix", str(path), "--method", method, "--check"], capsys)
    assert code == 0, err2
    # balance refuses a negative moment (MuJoCo's rule): r::arm stays invalid, and says why
    left = {"arm"} if method == "balance" else set()
    errors = _libsdformat_inertia_errors(path)
    assert {e.split("A link named ")[1].split()[0] for e in errors} == left
    assert _drake_invalid(path) == {f"r::{n}" for n in left}


def test_only_changed_attributes_are_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    code, out, err = run_cli(["fix", str(path), "--link", "r::cam", "--diff"], capsys)
    assert code == 0, err
    minus = [ln for ln in out.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln for ln in out.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert minus == ['-      <inertia ixx="0.0002" ixy="0" ixz="0" iyy="0.0002" iyz="0" izz="0.00045"/>']
    assert len(plus) == 1 and 'ixy="0" ixz="0"' in plus[0] and 'iyz="0"' in plus[0]


def test_move_com_writes_the_origin_xyz_and_keeps_rpy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--move-com",
                            "--link", "r::base", "--in-place"], capsys)
    assert code == 0, err
    assert '<origin xyz="0 0 0" rpy="0 0 0.3"/>' in path.read_text()
    own = {r.name: r for r in read_urdf_file(path, lump=False).links}
    assert np.array_equal(own["r::base"].inertial.p_BoBcm_B, np.zeros(3))


@pytest.mark.parametrize("seed", range(6))
def test_geometry_equals_drake_fix_inertia_on_generated_urdf(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Drake reads URDF without lumping: its fix_inertia recomputes each link from its own
    collisions with its own mass; so does ``fix --method geometry --all-links --move-com``
    (links libsdformat drops, without mass, are left as they are by both)."""
    pytest.importorskip("pydrake")
    path = tmp_path / "g.urdf"
    path.write_text(with_invalid_inertias(random_urdf(seed).text, seed))
    out = tmp_path / "fixed.urdf"
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--move-com",
                            "--all-links", "-o", str(out)], capsys)
    assert code == 0, err
    withdrawn = _withdrawn(err)
    left = {r.name for r in read_urdf_file(out, lump=False).links if not r.collisions} | withdrawn
    compared = _equal_to_drake(out, _drake_fix_inertia(path), withdrawn, "collisions")
    assert compared > 0 or not any(r.collisions for r in read_urdf_file(path, lump=False).links)
    # what is still invalid is a link with no collision to compute from (or a withdrawn
    # repair), in Drake's reading, and in libsdformat's the body holding it
    assert _drake_invalid(out) <= left
    holders = _holders(out)
    named = {e.split("A link named ")[1].split()[0] for e in _libsdformat_inertia_errors(out)}
    assert named <= {holders.get(n.split("::", 1)[1], n.split("::", 1)[1]) for n in left}
    code, _, err = run_cli(["fix", str(out), "--method", "geometry", "--move-com",
                            "--all-links", "--check"], capsys)
    assert code == 0, err


@pytest.mark.parametrize("seed", range(3))
def test_geometry_visual_equals_drake_fix_inertia_on_illustration_geometry(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The generated robots with their collisions written as visuals: ``fix --method geometry
    --geometry visual`` computes each link from its own visuals (posed by their ``<origin>``)
    as Drake's fix_inertia does from the illustration geometry."""
    pytest.importorskip("pydrake")
    text = with_invalid_inertias(random_urdf(seed).text, seed)
    path = tmp_path / "v.urdf"
    path.write_text(text.replace("<collision", "<visual").replace("</collision>", "</visual>"))
    out = tmp_path / "fixed.urdf"
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--geometry", "visual",
                            "--move-com", "--all-links", "-o", str(out)], capsys)
    assert code == 0, err
    drake = _drake_fix_inertia(path, role="illustration")
    assert _equal_to_drake(out, drake, _withdrawn(err), "visuals") > 0


def _withdrawn(err: str) -> set[str]:
    """The links ``fix`` reports as not repaired (their repair withdrawn)."""
    return {ln.split(": ")[1] for ln in err.splitlines() if ": not repaired: " in ln}


def _equal_to_drake(
    out: Path, drake: dict[str, np.ndarray], withdrawn: set[str], shapes: str
) -> int:
    """Asserts that every repaired link with ``shapes`` ("collisions" or "visuals") has Drake's
    ``M_BBo_B`` (angular-first) to 1e-9; returns how many links were compared."""
    compared = 0
    for link in read_urdf_file(out, lump=False).links:
        if link.name not in drake or not link.inertial.mass > 0 or link.name in withdrawn:
            continue
        if not getattr(link, shapes):
            continue
        M, ref = link.M_BBo_B.angular_first(), drake[link.name]
        assert np.max(np.abs(M - ref)) <= 1e-9 * max(1.0, float(np.max(np.abs(ref)))), link.name
        compared += 1
    return compared


def _holders(path: Path) -> dict[str, str]:
    """Link -> the link libsdformat lumps it into (unqualified names)."""
    from gzinertia.sdf.xml import parse_xml_file
    from gzinertia.urdf.lumping import convert
    from gzinertia.urdf.model import parse_robot

    return dict(convert(parse_robot(parse_xml_file(path), str(path))).lumped_into)


XACRO = """<?xml version="1.0"?>
<robot name="x" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <!-- a comment the fix must keep -->
  <xacro:property name="hull_izz" value="0.3"/>
  <xacro:macro name="fin" params="name">
    <link name="${name}">
      <inertial>
        <mass value="0.5"/>
        <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.003"/>
      </inertial>
    </link>
  </xacro:macro>
  <link name="hull">
    <inertial>
      <mass value="24"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="${hull_izz}"/>
    </inertial>
  </link>
  <link name="mast">
    <inertial>
      <mass value="2"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.03"/>
    </inertial>
  </link>
  <xacro:fin name="fin1"/>
  <joint name="m" type="revolute"><parent link="hull"/><child link="mast"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="f" type="revolute"><parent link="hull"/><child link="fin1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


def test_xacro_literal_values_are_edited_and_the_rest_is_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("xacro")
    path = tmp_path / "x.urdf.xacro"
    path.write_text(XACRO)
    code, _, err = run_cli(["fix", str(path), "--in-place"], capsys)
    assert code == 1, err  # repairs remain to be written by hand
    text = path.read_text()
    # mast: literal, edited in the xacro; the comment and the property stay
    assert 'izz="0.03"' not in text and "a comment the fix must keep" in text
    assert 'izz="${hull_izz}"' in text
    # hull's izz is a property: where it is used and where it is defined, and the value
    assert f"{path}:16: <inertia> izz=\"${{hull_izz}}\" is not a literal number (property " \
           f"'hull_izz' at {path}:4): set it to " in err
    # fin1 is made by a macro: the block to write
    assert "link 'fin1' is not written literally" in err and "<inertia ixx=" in err
    after = _codes(path)
    assert "GZI104" not in after.get("x::mast", set())
    assert "GZI104" in after["x::hull"] and "GZI104" in after["x::fin1"]


def test_audit_fix_repairs_a_urdf_near_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``audit --fix`` applies the safe fix (a near miss: izz written 1e-5 over ixx + iyy) in
    the URDF, and the audit that follows, libsdformat and Drake find nothing left."""
    path = tmp_path / "n.urdf"
    path.write_text(
        '<robot name="n"><link name="b"><inertial><mass value="3"/>'
        '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.30001"/></inertial>'
        '<collision><geometry><box size="0.5 0.4 0.3"/></geometry></collision></link></robot>\n'
    )
    assert "GZI104" in _codes(path)["n::b"]
    code, _, err = run_cli(["audit", "--fix", str(path)], capsys)
    assert code == 0, err  # nothing left that fails the audit
    assert "fixed " in err and "n::b: nearest (GZI104)" in err
    assert "GZI104" not in _codes(path).get("n::b", set())
    assert _libsdformat_inertia_errors(path) == [] and _drake_invalid(path) == set()


def _lumped_pair() -> str:
    """Two links libsdformat lumps into one body, each accepted by libsdformat on its own but
    not their sum: ``base`` has a product of inertia below gz-math's ``1e-6·max(diagonal)``
    (so gz-math judges its diagonal, ``1 + 1 ≥ 2``, while its eigenvalues break the triangle
    inequality by 7e-12); ``rod``, a thin rod (moments 0, k, k), lumped at the same point,
    brings products that switch gz-math's closed form on for the sum."""
    t, k = 0.26, 1e-3
    u = np.array([np.cos(t), np.sin(t), 0.0])
    B = k * (np.eye(3) - np.outer(u, u))

    def attrs(I: np.ndarray) -> str:
        return " ".join(f'{n}="{float(I[i, j])!r}"' for n, i, j in (
            ("ixx", 0, 0), ("ixy", 0, 1), ("ixz", 0, 2), ("iyy", 1, 1), ("iyz", 1, 2),
            ("izz", 2, 2)))

    A = np.array([[1.0, 0.0, 1.9e-6], [0.0, 1.0, 0.0], [1.9e-6, 0.0, 2.0]])
    return (
        '<robot name="p">\n'
        f'  <link name="base"><inertial><mass value="10"/><inertia {attrs(A)}/></inertial></link>\n'
        f'  <link name="rod"><inertial><mass value="1"/><inertia {attrs(B)}/></inertial></link>\n'
        '  <joint name="j" type="fixed"><parent link="base"/><child link="rod"/></joint>\n'
        "</robot>\n"
    )


@pytest.mark.oracle("sdformat")
def test_lumped_finding_that_no_written_inertial_explains_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """libsdformat rejects the lumped body and accepts each link: the audit (gz) agrees, and
    fix names the links that make the body instead of editing either; with ``--tolerance
    drake`` (Drake reads the URDF unlumped and rejects ``base``) ``base`` is repaired, and
    libsdformat then accepts the body too."""
    from gzinertia.physics.gz_math_inertia import gz_is_valid

    path = tmp_path / "p.urdf"
    path.write_text(_lumped_pair())
    own = {r.name: r.inertial for r in read_urdf_file(path, lump=False).links}
    assert all(gz_is_valid(i.mass, i.I_BBcm_I) for i in own.values())
    assert [e.split()[3] for e in _libsdformat_inertia_errors(path)] == ["base"]
    assert "GZI104" in _codes(path)["p::base"]
    code, out, err = run_cli(["fix", str(path), "--diff"], capsys)
    assert code == 0 and out == "", err
    assert "p::base: GZI104 on the body libsdformat lumps from links base, rod" in err
    assert "cannot be attributed" in err
    code, _, err = run_cli(["fix", str(path), "--tolerance", "drake", "--in-place"], capsys)
    assert code == 0 and "p::base: nearest (GZI104)" in err, err
    assert _libsdformat_inertia_errors(path) == [] and _drake_invalid(path) == set()
