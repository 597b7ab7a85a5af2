"""``addmass --bem`` and ``addmass --from`` on URDF/xacro: the matrix is that of the link as
Gazebo builds it (libsdformat's fixed-joint lumping), written as a ``<gazebo>`` Hydrodynamics
block (``D = -A``, URDF has no ``<fluid_added_mass>``) with the provenance comment inside it,
which the audit reads (GZI212 stale, GZI204's deference to a current BEM).

Oracles: libsdformat (``ign sdf -p``) converts the URDF into the SDF Gazebo loads; the same
command on that SDF writes ``<fluid_added_mass>``. The link geometry is the same and the mesher
deterministic, so the two solves give the same matrix to round-off, and the Hydrodynamics block
libsdformat carries into its conversion of the edited URDF reads back as ``-A`` of it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from urdfgen import with_macro_named_link

from gzinertia.physics.bem_provenance import parse_provenance
from gzinertia.sdf import read_sdf_bytes, read_sdf_file
from gzinertia.urdf.reader import read_urdf_file

cpt = pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

#: A hull with a rotated collision and a fin lumped into it through a fixed joint (its
#: collision moves into the hull, as libsdformat moves it), and a visual hull. Every pose of the
#: lumped link is written exactly by ``ign sdf -p`` (which prints 6 significant digits): the
#: SDF it writes is the same geometry, so the two solves agree to round-off. The hull is
#: heavier than its added mass on every axis (the plugin's explicit bound, GZI506).
AUV = """<robot name="auv">
  <link name="hull">
    <inertial><mass value="400"/><inertia ixx="40" ixy="0" ixz="0" iyy="60" iyz="0" izz="60"/>
    </inertial>
    <collision><origin xyz="0.1 0 0.02" rpy="0 0 0.3"/>
      <geometry><box size="1.2 0.4 0.3"/></geometry></collision>
    <visual><origin xyz="0.1 0 0" rpy="0 0.5 0"/>
      <geometry><cylinder radius="0.2" length="1.3"/></geometry></visual>
  </link>
  <link name="fin">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
    <collision><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.04 0.2"/></geometry></collision>
    <visual><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.04 0.2"/></geometry></visual>
  </link>
  <joint name="f" type="fixed"><parent link="hull"/><child link="fin"/>
    <origin xyz="-0.5 0 0.1"/></joint>
</robot>
"""
#: The fin's joint turned: the lumped poses are no longer 6-digit numbers, and ``ign sdf -p``
#: rounds them (relative 5e-7): the two solves then agree to that rounding, not to round-off.
AUV_TURNED = AUV.replace('<origin xyz="-0.5 0 0.1"/></joint>',
                         '<origin xyz="-0.5 0 0.1" rpy="0.2 0 0"/></joint>')
assert AUV_TURNED != AUV

FAST = ("--quality", "fast", "--no-cache")


def _ign() -> str:
    ign = shutil.which("ign") or shutil.which("gz")
    if ign is None:
        pytest.skip("ign/gz sdf (libsdformat) not installed")
    return ign


def _convert(ign: str, urdf: Path, out: Path) -> Path:
    """libsdformat's SDF of ``urdf`` (what Gazebo loads)."""
    out.write_bytes(subprocess.run([ign, "sdf", "-p", str(urdf)], capture_output=True,
                                   check=True, timeout=120).stdout)
    return out


def _plugin_A(ign: str, urdf: Path) -> np.ndarray:
    """``-sym(D)`` of the Hydrodynamics plugin libsdformat carries into its conversion."""
    [hull] = read_sdf_bytes(subprocess.run([ign, "sdf", "-p", str(urdf)], capture_output=True,
                                           check=True, timeout=120).stdout, "edited.sdf").links
    [plugin] = hull.hydrodynamics
    D = plugin.D_BBo_B
    return np.asarray(-(D + D.T) / 2)


def _native_A(sdf: Path) -> np.ndarray:
    [link] = read_sdf_file(sdf).links
    assert link.inertial.A_BBo_B is not None
    return np.asarray(link.inertial.A_BBo_B.linear_first())


@pytest.mark.parametrize(
    ("text", "tolerance"), [(AUV, 1e-9), (AUV_TURNED, 1e-5)], ids=["exact", "turned"]
)
@pytest.mark.parametrize(
    "geometry",
    [(), ("--geometry", "visual"), ("--waterline", "0.1")],
    ids=["collision", "visual", "waterline"],
)
def test_bem_on_urdf_equals_bem_on_libsdformats_conversion(
    geometry: tuple[str, ...], text: str, tolerance: float, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ign = _ign()
    urdf = tmp_path / "auv.urdf"
    urdf.write_text(text)
    sdf = _convert(ign, urdf, tmp_path / "auv.sdf")
    status, _, err = run_cli(["addmass", str(urdf), "--bem", *FAST, *geometry, "--in-place"],
                             capsys)
    assert status == 0, err
    assert "gz-sim#1462" in err
    status, _, err = run_cli(["addmass", str(sdf), "--bem", *FAST, *geometry, "--in-place"],
                             capsys)
    assert status == 0, err
    A_sdf = _native_A(sdf)
    A_urdf = _plugin_A(ign, urdf)
    assert np.max(np.abs(A_urdf - A_sdf)) <= tolerance * np.max(np.abs(A_sdf))
    # the provenance names the shapes as libsdformat names them (the digests hash the poses to
    # 17 digits: they differ by the conversion's round-off, the audit compares each file's own)
    [hull] = read_urdf_file(urdf).links
    [native] = read_sdf_file(sdf).links
    written = parse_provenance(hull.inertial.added_mass_comment)
    converted = parse_provenance(native.inertial.added_mass_comment)
    assert written is not None and converted is not None
    assert written.collisions == converted.collisions and len(written.collisions) == 2
    assert written.element == converted.element
    # the tool agrees with itself: a re-run changes nothing, the audit finds nothing
    assert run_cli(["addmass", str(urdf), "--bem", *FAST, *geometry, "--check"], capsys)[0] == 0
    status, out, _ = run_cli(["audit", str(urdf), "--no-cache", "--select", "GZI2"], capsys)
    assert status == 0 and "No findings" in out, out


def test_a_bem_block_goes_stale_with_the_hull(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urdf = tmp_path / "auv.urdf"
    urdf.write_text(AUV)
    assert run_cli(["addmass", str(urdf), "--bem", *FAST, "--in-place"], capsys)[0] == 0
    text = urdf.read_text()
    block_line = text.splitlines().index("  <gazebo>") + 1
    urdf.write_text(text.replace('box size="0.2 0.04 0.2"', 'box size="0.3 0.04 0.2"'))
    _, out, _ = run_cli(["audit", str(urdf), "--no-cache", "--format", "json"], capsys)
    stale = [f for f in json.loads(out)["findings"] if f["code"] == "GZI212"]
    assert [f["link"] for f in stale] == ["auv::hull"]
    # reported at the plugin the block holds, with the way to recompute it
    assert stale[0]["line"] == block_line + 2
    assert "remove its <gazebo> block" in stale[0]["message"]


def _dataset(tmp: Path) -> Path:
    """A Capytaine dataset (infinite frequency, under a free surface) of a small box 1 m deep,
    computed about P = (0.2, -0.1, -1) in axes turned 0.4 rad about z."""
    mesh = cpt.mesh_parallelepiped(size=(0.6, 0.3, 0.2), center=(0.1, 0.0, -1.0),
                                   resolution=(4, 2, 2))
    body = cpt.FloatingBody(mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=(0.2, -0.1, -1)),
                            name="hull")
    problems = [cpt.RadiationProblem(body=body, radiating_dof=d, omega=np.inf, free_surface=0.0,
                                     water_depth=np.inf, rho=1025.0) for d in body.dofs]
    results = cpt.BEMSolver(method="direct").solve_all(problems, progress_bar=False)
    path = tmp / "hull.nc"
    cpt.export_dataset(path, cpt.assemble_dataset(results, hydrostatics=False), format="netcdf")
    return path


def test_from_a_dataset_on_urdf_equals_the_sdf_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("xarray")
    ign = _ign()
    dataset = _dataset(tmp_path)
    urdf = tmp_path / "auv.urdf"
    urdf.write_text(AUV)
    sdf = _convert(ign, urdf, tmp_path / "auv.sdf")
    args = ["--from", str(dataset), "--about", "0.3 0.1 -0.2", "--axes", "0 0 0.4"]
    status, _, err = run_cli(["addmass", str(urdf), *args, "--link", "hull", "--in-place"],
                             capsys)
    assert status == 0, err
    status, _, err = run_cli(["addmass", str(sdf), *args, "--link", "hull", "--in-place"],
                             capsys)
    assert status == 0, err
    A_sdf = _native_A(sdf)
    assert np.max(np.abs(_plugin_A(ign, urdf) - A_sdf)) <= 1e-9 * np.max(np.abs(A_sdf))
    [hull] = read_urdf_file(urdf).links
    written = parse_provenance(hull.inertial.added_mass_comment)
    assert written is not None and written.origin == "imported"
    converted = parse_provenance(read_sdf_file(sdf).links[0].inertial.added_mass_comment)
    assert converted is not None and written.collisions == converted.collisions
    assert written.dataset_digest == converted.dataset_digest != ""
    status, out, _ = run_cli(["audit", str(urdf), "--no-cache", "--select", "GZI212"], capsys)
    assert status == 0 and "No findings" in out, out
    # the geometry the result was taken to describe changes: stale
    urdf.write_text(urdf.read_text().replace('size="1.2 0.4 0.3"', 'size="1.4 0.4 0.3"'))
    status, out, _ = run_cli(["audit", str(urdf), "--no-cache", "--select", "GZI212"], capsys)
    assert "GZI212" in out and "imported" in out


def test_together_is_refused_on_urdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    urdf = tmp_path / "auv.urdf"
    urdf.write_text(AUV)
    status, _, err = run_cli(["addmass", str(urdf), "--bem", "--together", "--in-place"], capsys)
    assert status == 2 and "--together" in err and str(urdf) in err
    assert urdf.read_text() == AUV


def test_xacro_macro_link_gets_the_bem_block_to_paste(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "auv.urdf.xacro"
    text = with_macro_named_link(AUV, "auv", "hull")
    path.write_text(text)
    status, _, err = run_cli(["addmass", str(path), "--bem", *FAST, "--in-place"], capsys)
    assert status == 0, err
    assert path.read_text() == text
    assert "not written literally" in err and "BEM" in err and "<link_name>hull</link_name>" in err


def test_xacro_with_literal_link_gets_the_block_and_goes_stale_with_its_properties(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "auv.urdf.xacro"
    path.write_text(AUV.replace('<robot name="auv">', '<robot name="auv" '
                                'xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                                '  <xacro:property name="w" value="0.4"/>')
                    .replace('size="1.2 0.4 0.3"', 'size="1.2 ${w} 0.3"'))
    assert run_cli(["addmass", str(path), "--bem", *FAST, "--in-place"], capsys)[0] == 0
    assert run_cli(["addmass", str(path), "--bem", *FAST, "--check"], capsys)[0] == 0
    status, out, _ = run_cli(["audit", str(path), "--no-cache", "--select", "GZI2"], capsys)
    assert status == 0 and "No findings" in out, out
    path.write_text(path.read_text().replace('name="w" value="0.4"', 'name="w" value="0.5"'))
    _, out, _ = run_cli(["audit", str(path), "--no-cache", "--format", "json"], capsys)
    assert [f["link"] for f in json.loads(out)["findings"] if f["code"] == "GZI212"] == [
        "auv::hull"
    ]


def test_comment_before_the_block_is_read_as_the_links_provenance(tmp_path: Path) -> None:
    """Blocks written by earlier versions hold the comment before ``<gazebo>``, not inside."""
    from gzinertia.edit.urdf_addmass import hydrodynamics_block
    from gzinertia.spatial.added_mass import AddedMass

    block = hydrodynamics_block("hull", AddedMass(np.diag([1.0, 2, 3, 4, 5, 6]),
                                                  ordering="linear-first"), "gzinertia: a note")
    lines = block.splitlines()
    assert lines[0].strip() == "<gazebo>" and lines[1].strip() == "<!-- gzinertia: a note -->"
    old_style = "\n".join([lines[1], lines[0], *lines[2:]]) + "\n"
    for text in (block, old_style):
        path = tmp_path / "auv.urdf"
        path.write_text(AUV.replace("</robot>", text + "</robot>"))
        [hull] = read_urdf_file(path).links
        assert hull.inertial.added_mass_comment == "gzinertia: a note"


def test_from_refuses_several_links_and_a_link_with_plugin_added_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("xarray")
    dataset = _dataset(tmp_path)
    urdf = tmp_path / "auv.urdf"
    text = AUV.replace('<joint name="f" type="fixed">', '<joint name="f" type="revolute">'
                       '<axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>')
    urdf.write_text(text)
    status, _, err = run_cli(["addmass", str(urdf), "--from", str(dataset), "--link", "*",
                              "--in-place"], capsys)
    assert status == 2 and str(urdf) in err and "2 links" in err
    assert urdf.read_text() == text
    args = ["addmass", str(urdf), "--from", str(dataset), "--link", "hull", "--in-place"]
    assert run_cli(args, capsys)[0] == 0
    once = urdf.read_text()
    status, _, err = run_cli(args, capsys)
    assert status == 2 and "remove its <gazebo> block" in err and f"{urdf}:" in err
    assert urdf.read_text() == once


#: gz-sim's hydrodynamics tutorial in URDF: a thin slab collision (a buoyancy proxy) under a
#: cylinder visual, the hull (heavier than the slab's heave added mass: GZI506's bound).
PROXY = """<robot name="tube">
  <link name="body">
    <inertial><mass value="600"/><inertia ixx="80" ixy="0" ixz="0" iyy="80" iyz="0" izz="5"/>
    </inertial>
    <collision><geometry><box size="1 1 0.01"/></geometry></collision>
    <visual><geometry><cylinder radius="0.2" length="2"/></geometry></visual>
  </link>
</robot>
"""


def test_a_bem_of_the_visual_hull_is_not_judged_by_the_proxy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GZI207 estimates added mass from the collisions; a current BEM of the visuals is the
    better estimate, on URDF as on SDF. Without its comment the same block is judged (and
    flagged) against the slab: the comment is what the rule reads."""
    urdf = tmp_path / "tube.urdf"
    urdf.write_text(PROXY)
    args = ["addmass", str(urdf), "--bem", "--geometry", "visual", *FAST]
    assert run_cli([*args, "--in-place"], capsys)[0] == 0
    status, out, _ = run_cli(["audit", str(urdf), "--no-cache", "--select", "GZI2"], capsys)
    assert status == 0 and "No findings" in out, out
    text = urdf.read_text()
    start = text.index("<!-- gzinertia")
    urdf.write_text(text[:start] + text[text.index("-->", start) + 3:])
    _, out, _ = run_cli(["audit", str(urdf), "--no-cache", "--format", "json"], capsys)
    assert "GZI207" in {f["code"] for f in json.loads(out)["findings"]}


def test_the_library_writes_what_the_command_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gzinertia import api_edits as api

    urdf = tmp_path / "auv.urdf"
    urdf.write_text(AUV)
    made = api.addmass_bem(urdf, quality="fast", cache=False)
    assert [item.link.name for item in made.links] == ["auv::hull"]
    assert run_cli(["addmass", str(urdf), "--bem", *FAST, "--in-place"], capsys)[0] == 0
    assert made.text == urdf.read_text()


def test_replacing_plugin_added_mass_is_refused_on_urdf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urdf = tmp_path / "auv.urdf"
    urdf.write_text(AUV)
    status, _, err = run_cli(["addmass", str(urdf), "--bem", "--replace-plugin-added-mass",
                              "--in-place"], capsys)
    assert status == 2 and str(urdf) in err and "remove the link's <gazebo>" in err
    assert len(err.strip().splitlines()) == 1 and urdf.read_text() == AUV
