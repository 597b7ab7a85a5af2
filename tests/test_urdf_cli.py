"""Every command reads URDF and xacro: show, plot, audit (findings with file, line, link),
``--xacro-arg``, ``--package-path``; bad input is one line and exit status 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import run_cli

HULL = (
    '<link name="hull"><inertial><origin xyz="0.1 0 0"/><mass value="20"/>'
    '<inertia ixx="2" ixy="0" ixz="0" iyy="4" iyz="0" izz="4"/></inertial>'
    '<collision><geometry><box size="2 0.5 0.5"/></geometry></collision></link>'
)


def _auv(tmp_path: Path, sonar_izz: str = "0.025") -> Path:
    path = tmp_path / "auv.urdf"
    path.write_text(
        '<robot name="auv">\n'
        f"  {HULL}\n"
        '  <link name="sonar">\n'
        '    <inertial><mass value="1"/>\n'
        f'      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="{sonar_izz}"/>\n'
        "    </inertial>\n"
        "  </link>\n"
        '  <joint name="mount" type="fixed"><parent link="hull"/><child link="sonar"/>\n'
        '    <origin xyz="0.5 0 -0.1"/></joint>\n'
        "</robot>\n"
    )
    return path


def test_show_prints_the_lumped_link_gazebo_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["show", str(_auv(tmp_path)), "--json"], capsys)
    assert status == 0, err
    data = json.loads(out)
    [link] = data["links"]
    assert link["name"] == "auv::hull"
    # masses add; the centre of mass is their mean (kinematics: 20·0.1 + 1·0.5 over 21 kg)
    assert link["mass"] == pytest.approx(21.0, rel=1e-15)
    com = np.array(link["p_BoBcm_B"])
    assert com == pytest.approx([(20 * 0.1 + 0.5) / 21, 0.0, -0.1 / 21], abs=1e-15)


def test_audit_names_the_urdf_file_line_and_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _auv(tmp_path, sonar_izz="0.5")  # 0.01 + 0.02 < 0.5: no rigid body
    status, out, err = run_cli(["audit", str(tmp_path), "--format", "json", "--no-cache"],
                               capsys)
    data = json.loads(out)
    [f] = [f for f in data["findings"] if f["code"] == "GZI401"]
    assert (f["file"], f["line"], f["link"]) == (str(path), 5, "auv::hull")
    assert status == 1, err


def test_xacro_args_and_package_paths_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pkg = tmp_path / "ws" / "auv_description"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package><name>auv_description</name></package>")
    (pkg / "urdf" / "hull.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:macro name="hull" params="m">'
        '<link name="hull"><inertial><mass value="${m}"/>'
        '<inertia ixx="2" ixy="0" ixz="0" iyy="4" iyz="0" izz="4"/></inertial></link>'
        "</xacro:macro></robot>"
    )
    main = tmp_path / "auv.urdf.xacro"
    main.write_text(
        '<robot name="auv" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:arg name="m" default="1"/>\n'
        '  <xacro:include filename="$(find auv_description)/urdf/hull.xacro"/>\n'
        '  <xacro:hull m="$(arg m)"/>\n</robot>\n'
    )
    status, out, err = run_cli(
        ["show", str(main), "--json", "--xacro-arg", "m:=33.5", "--package-path",
         str(tmp_path / "ws")], capsys,
    )
    assert status == 0, err
    assert json.loads(out)["links"][0]["mass"] == 33.5
    # without the package path: one line, file and line, exit 2
    status, out, err = run_cli(["show", str(main)], capsys)
    assert status == 2
    assert err.startswith(f"gzinertia: error: {main}:3: xacro:") and err.count("\n") == 1
    status, _, err = run_cli(["show", str(main), "--xacro-arg", "m=3"], capsys)
    assert status == 2 and "name:=value" in err


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('<robot name="r"><link name="a"><inertial><mass value="x"/>'
         '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>',
         ":1: <mass> attribute value='x' is not 1 finite number"),
        ('<robot name="r"><link name="a"><inertial><mass value="1"/>'
         '<inertia ixx="1" iyy="1" izz="1"/></inertial></link></robot>', "has no ixy attribute"),
        ('<robot name="r"><link name="a"/><link name="b"/></robot>', "exactly one root link"),
        ('<robot name="r"><link name="a"/><joint name="j" type="hinge"><parent link="a"/>'
         '<child link="a"/></joint></robot>', "type 'hinge'"),
        ('<robot name="r">\n<link name="a"/>\n<link name="b"/>\n'
         '<joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>\n'
         '<joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint></robot>',
         "exactly one root link, found none"),
        ('<sdf version="1.9"/>', "not <robot>"),  # inline, as every bad text of this table
    ],
)
def test_bad_urdf_is_one_line_and_exit_2(
    text: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.urdf"
    path.write_text(text)
    status, _, err = run_cli(["show", str(path)], capsys)
    assert status == 2 and err.count("\n") == 1 and str(path) in err and words in err, err


def test_plot_takes_urdf_and_parser_sdformat_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _auv(tmp_path)
    status, _, err = run_cli(["plot", str(path), "-o", str(tmp_path / "auv.png")], capsys)
    assert status == 0, err
    assert (tmp_path / "auv.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    status, _, err = run_cli(["show", str(path), "--parser", "sdformat"], capsys)
    assert status == 2 and "gz sdf -p" in err and err.count("\n") == 1


def test_audit_cache_follows_xacro_includes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cached xacro result is dropped when a file it includes changes (the includes are
    the document's dependencies); the included macro file itself is skipped with why."""
    m = tmp_path / "m"
    m.mkdir()
    inc = m / "inc.xacro"
    inc.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<xacro:property name="izz" value="0.025"/></robot>\n')
    (m / "auv.urdf.xacro").write_text(
        '<robot name="auv" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="inc.xacro"/>\n'
        f"  {HULL}\n"
        '  <link name="sonar"><inertial><mass value="1"/>'
        '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="${izz}"/></inertial></link>\n'
        '  <joint name="j" type="fixed"><parent link="hull"/><child link="sonar"/></joint>\n'
        "</robot>\n"
    )
    args = ["audit", str(m), "--cache-dir", str(tmp_path / "cache"), "--format", "json"]
    status, out, _ = run_cli(args, capsys)
    data = json.loads(out)
    assert status == 0 and not data["findings"]
    assert [f["status"] for f in data["files"]] == ["ok", "skipped"]
    inc.write_text(inc.read_text().replace("0.025", "0.5"))
    status, out, _ = run_cli(args, capsys)
    assert status == 1 and [f["code"] for f in json.loads(out)["findings"]] == ["GZI401"]
