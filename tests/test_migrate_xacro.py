"""``gzinertia migrate`` on xacro (issue 27): each classic block rewritten where it is written,
through includes and macros, with the same gz-sim terms the URDF path writes on the expansion
(the oracle: ``migrate`` of the expanded URDF, itself checked against the plugins' force laws in
``tests/test_migrate_command.py``); a block whose numbers are properties or expressions is not
guessed (per block, file:line and the numbers to write, in text and ``--json``); the audit of
the migrated xacro adds no finding and ``--check`` after ``--in-place`` exits 0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import classic_vehicles as vehicles
import pytest
from conftest import run_cli
from test_classic_vrx import WAMV

import gzinertia
from gzinertia.audit.runner import audit
from gzinertia.urdf.xacro_expand import expand_xacro

XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _macro_file(block: str) -> str:
    """An included file holding a macro with the UUV plugin block, its link named
    ``${namespace}/base_link`` and its ``<debug>`` a parameter (as UUV Simulator's
    ``*.gazebo.xacro`` do: a value that enters nothing written may be an expression)."""
    link = block.replace('<link name="base_link">', '<link name="${namespace}/base_link">')
    return (f'<?xml version="1.0"?>\n<robot {XACRO_NS}>\n'
            '  <xacro:macro name="hydro_model" params="namespace debug:=0">\n'
            "    <gazebo>\n"
            '      <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">\n'
            "        <fluid_density>1028.0</fluid_density><debug>${debug}</debug>"
            f"{link}\n"
            "      </plugin>\n"
            "    </gazebo>\n"
            "  </xacro:macro>\n</robot>\n")


def _robot(name: str, links: list[tuple[str, float, str]], body: str, include: bool = True,
           properties: str = "") -> str:
    """A robot file: ``links`` (name, mass, inertial origin xyz) with a hull collision each,
    the macro file included, then ``body`` (its calls)."""
    parts = [f'<?xml version="1.0"?>\n<robot name="{name}" {XACRO_NS}>',
             '  <xacro:property name="namespace" value="auv"/>', properties]
    if include:
        parts.append('  <xacro:include filename="hydro.xacro"/>')
    hull = ('<collision><origin xyz="0 0 0" rpy="0 1.5707963267948966 0"/><geometry>'
            '<cylinder radius="0.075" length="1.08"/></geometry></collision>')
    inertia = '<inertia ixx="0.1" iyy="1.7" izz="1.7" ixy="0" ixz="0" iyz="0"/>'
    parts += [f'  <link name="{link}"><inertial><origin xyz="{com}" rpy="0 0 0"/><mass '
              f'value="{mass}"/>{inertia}</inertial>{hull}</link>' for link, mass, com in links]
    parts += [body, "</robot>\n"]
    return "\n".join(parts)


def _joint(parent: str, child: str) -> str:
    return (f'  <joint name="{child}_joint" type="revolute"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="3 0 0"/><axis xyz="0 0 1"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')


def _keys(path: Path) -> set[tuple[str, str | None]]:
    return {(f.code, f.link) for f in audit([str(path)]).findings}


def _migrated_expansion_by_the_urdf_path(top: Path, tmp: Path) -> str:
    """The oracle: the expansion of ``top`` as it is, written as a URDF and migrated by the
    URDF path, its bytes."""
    urdf = tmp / "oracle" / "expanded.urdf"
    urdf.parent.mkdir()
    urdf.write_text(expand_xacro(top))
    gzinertia.migrate(urdf).write()
    return urdf.read_text()


@pytest.mark.parametrize("name", ["lauv", "rexrov"])
def test_macro_in_an_included_file_is_migrated_there_as_the_urdf_path_writes_it(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The block sits in a macro of an included file, its link named ``${namespace}/...``:
    the included file is rewritten (the expression kept), and the expansion afterwards is, byte
    for byte, what ``migrate`` of the expansion gives; the audit adds no finding; ``--check``
    after ``--in-place`` exits 0."""
    block, mass = {"lauv": (vehicles.LAUV_LINK, vehicles.LAUV_MASS),
                   "rexrov": (vehicles.REXROV_LINK, vehicles.REXROV_MASS)}[name]
    (tmp_path / "hydro.xacro").write_text(_macro_file(block))
    top = tmp_path / "vehicle.urdf.xacro"
    top.write_text(_robot("vehicle", [("${namespace}/base_link", mass, "0.01 0 -0.02")],
                          '  <xacro:hydro_model namespace="${namespace}"/>'))
    top_before = top.read_bytes()
    want = _migrated_expansion_by_the_urdf_path(top, tmp_path)
    before = _keys(top)
    status, _out, err = run_cli(["migrate", str(top), "--in-place"], capsys)
    assert status == 0, err
    assert f"updated {tmp_path / 'hydro.xacro'}" in err
    assert top.read_bytes() == top_before
    written = (tmp_path / "hydro.xacro").read_text()
    assert "<link_name>${namespace}/base_link</link_name>" in written
    assert "underwater_object" not in written
    assert expand_xacro(top) == want.replace("expanded.urdf", "vehicle.urdf.xacro") or \
        _without_banner(expand_xacro(top)) == _without_banner(want)
    # the plugin's numbers now meet the added-mass rules (RexROV's on this small hull are
    # implausible, GZI207): any new finding is said, as on SDF and URDF
    new = _keys(top) - {k for k in before if not k[0].startswith("GZI5")}
    said = {code for line in re.findall(r"the audit now reports (.*?) on it", err)
            for code in line.split(", ")}
    assert {code for code, _link in new} <= said, err
    # RexROV's added mass exceeds its mass: not migrated to the plugin's explicit added mass
    # (it would diverge, GZI506), so no GZI506 after the edit
    assert {code for code, _link in new} <= ({"GZI207"} if name == "rexrov" else set())
    status, _out, err = run_cli(["migrate", str(top), "--check"], capsys)
    assert status == 0, err


def _without_banner(text: str) -> str:
    """The expansion without xacro's banner (it names the file expanded)."""
    return re.sub(r"<!-- =+ -->\n(<!--.*-->\n)+<!-- =+ -->\n", "", text)


def test_a_property_valued_matrix_is_refused_per_block_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``<added_mass>${added}</added_mass>``: nothing of that plugin is written; the output
    names the file and line of the block and the plugin to write there, with its numbers
    computed (the same as the URDF path writes), in text and in ``--json``; exit 1."""
    added = " ".join("16" if i == j and i in (1, 2) else ("1" if i == j else "0")
                     for i in range(6) for j in range(6))
    block = vehicles.LAUV_LINK
    literal = re.search(r"<added_mass>(.*?)</added_mass>", block, flags=re.S)
    assert literal is not None
    top = tmp_path / "vehicle.urdf.xacro"
    top.write_text(_robot(
        "vehicle", [("base_link", vehicles.LAUV_MASS, "0 0 0")],
        "  <gazebo>\n    <plugin name=\"uuv\" filename=\"libuuv_underwater_object_plugin.so\">"
        + block.replace(literal.group(1), "${added}") + "\n    </plugin>\n  </gazebo>",
        include=False, properties=f'  <xacro:property name="added" value="{added}"/>'))
    original = top.read_bytes()
    want = _migrated_expansion_by_the_urdf_path(top, tmp_path)
    plugin = re.search(r"( *<!-- gzinertia migrate.*?</plugin>)", want, flags=re.S)
    assert plugin is not None
    status, out, err = run_cli(["migrate", str(top), "--in-place", "--json"], capsys)
    assert status == 1, err
    assert top.read_bytes() == original
    block_line = original.decode().splitlines().index('<link name="base_link">') + 1
    [said] = [line for line in err.splitlines() if line.startswith("not written: ")]
    assert f"{top}:{block_line}: the classic block of link 'base_link'" in said
    assert "<added_mass>" in said and "not literal numbers" in said
    report = json.loads(out)
    [pending] = report["not_written"]
    assert report["changed"] is False and report["links"] == []
    by_hand = [ln.strip() for ln in pending.splitlines()[1:]]
    assert by_hand == [ln.strip() for ln in plugin.group(1).splitlines()]


def _two_calls(tmp_path: Path, com_b: str) -> Path:
    """Two links made alike but for the second's centre of mass (``com_b``), one macro called
    for each."""
    (tmp_path / "hydro.xacro").write_text(_macro_file(vehicles.LAUV_LINK))
    top = tmp_path / "two.urdf.xacro"
    top.write_text(_robot("two", [("a/base_link", 18.0, "0 0 0"), ("b/base_link", 18.0, com_b)],
                          _joint("a/base_link", "b/base_link")
                          + '\n  <xacro:hydro_model namespace="a"/>'
                          + '\n  <xacro:hydro_model namespace="b"/>'))
    return top


def test_a_macro_called_for_links_of_different_mass_is_not_guessed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One macro, two calls, two links whose centres of mass differ: the migrated numbers
    differ per call and one text cannot hold both; each block is said, nothing written."""
    top = _two_calls(tmp_path, "0.1 0 0")
    status, _out, err = run_cli(["migrate", str(top), "--in-place"], capsys)
    assert status == 1, err
    said = [line for line in err.splitlines() if line.startswith("not written: ")]
    assert len(said) == 2 and all("called 2 times" in line for line in said), err
    assert "underwater_object" in (tmp_path / "hydro.xacro").read_text()


def test_the_same_macro_for_identical_links_is_written_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two calls whose links migrate to the same numbers: the macro is rewritten once and both
    links carry their plugin; the audit adds nothing, ``--check`` exits 0."""
    top = _two_calls(tmp_path, "0 0 0")
    before = _keys(top)
    status, _out, err = run_cli(["migrate", str(top), "--in-place"], capsys)
    assert status == 0, err
    links = gzinertia.read(top).links
    assert sorted(lk.hydrodynamics[0].terms["yVabsV"] for lk in links) == [-80.0, -80.0]
    assert not _keys(top) - before
    assert run_cli(["migrate", str(top), "--check"], capsys)[0] == 0


def test_vrx_block_in_the_robot_file_and_keep_classic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """VRX's block written in the robot file (WAM-V's description is xacro): rewritten there as
    the URDF path writes it; with ``--keep-classic`` the classic block stays and a re-run finds
    the link migrated already."""
    top = tmp_path / "wamv.urdf.xacro"
    top.write_text(_robot("wamv", [("base_link", 180.0, "0 0 0")],
                          f"  <gazebo>\n{WAMV}\n  </gazebo>", include=False))
    want = _migrated_expansion_by_the_urdf_path(top, tmp_path)
    edit = gzinertia.migrate(top)
    assert edit.path == top and not edit.pending
    copy = tmp_path / "copy.urdf.xacro"
    copy.write_bytes(edit.new)
    assert _without_banner(expand_xacro(copy)) == _without_banner(want)
    status, _out, err = run_cli(["migrate", str(top), "--in-place", "--keep-classic"], capsys)
    assert status == 0, err
    assert "usv_gazebo_dynamics_plugin" in top.read_text()
    status, _out, err = run_cli(["migrate", str(top), "--check"], capsys)
    assert status == 0 and "migrated already" in err, err


def test_a_block_in_a_package_found_through_the_environment_is_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An included file of a package found through ``ROS_PACKAGE_PATH`` (an installation) is
    never written: its blocks are said, with what to write there; named with ``-m`` it is."""
    package = tmp_path / "ws" / "auv_description"
    package.mkdir(parents=True)
    (package / "package.xml").write_text("<package><name>auv_description</name></package>")
    (package / "hydro.xacro").write_text(_macro_file(vehicles.LAUV_LINK))
    robots = tmp_path / "robots"
    robots.mkdir()
    top = robots / "vehicle.urdf.xacro"
    top.write_text(_robot("vehicle", [("auv/base_link", 18.0, "0 0 0")],
                          '  <xacro:hydro_model namespace="auv"/>', include=False).replace(
        "<link ", '<xacro:include filename="$(find auv_description)/hydro.xacro"/>\n  <link ',
        1))
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "ws"))
    original = (package / "hydro.xacro").read_bytes()
    status, _out, err = run_cli(["migrate", str(top), "--in-place"], capsys)
    assert status == 1, err
    assert "where migrate writes" in err and (package / "hydro.xacro").read_bytes() == original
    status, _out, err = run_cli(["migrate", str(top), "--in-place", "-m", str(package)], capsys)
    assert status == 0, err
    assert "underwater_object" not in (package / "hydro.xacro").read_text()
