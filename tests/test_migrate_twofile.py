"""RexROV's two-file xacro layout, as UUV Simulator lays it out (uuvsimulator/uuv_simulator
@ bfb40cb1): ``robots/rexrov_default.xacro`` writes the underwater-object ``<plugin>`` and, inside
it, calls ``<xacro:rexrov_hydro_model namespace="$(arg namespace)"/>``, a macro of
``urdf/rexrov.gazebo.xacro`` that writes the ``<link name="${namespace}/base_link">`` block
(volume and centre of buoyancy as properties); ``urdf/rexrov_base.xacro``'s macro writes the
link (here its mass, inertia and a box collision; the meshes and thrusters left out).

``migrate --in-place`` on the robot file rewrites the plugin where it is written, its link
named as the macro names it with the call's argument (``$(arg namespace)/base_link``), leaves
the macro file as it is (said), and the result reads back, expands under another namespace,
passes the audit and is up to date (``--check``)."""

from __future__ import annotations

import re
from pathlib import Path

import classic_vehicles as vehicles
import pytest
from conftest import run_cli

import gzinertia

#: The hydro model macro file: the published block (tests/classic_vehicles.py) with the
#: published properties for its volume and centre of buoyancy, in the published macro.
GAZEBO_XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="cob" value="0.0 0.0 0.3"/>
  <xacro:property name="volume" value="1.83826"/>
  <xacro:macro name="rexrov_hydro_model" params="namespace">
{block}
  </xacro:macro>
</robot>
"""
BASE_XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="mass" value="{mass}"/>
  <xacro:macro name="rexrov_base" params="namespace inertial_reference_frame *gazebo">
    <link name="${{namespace}}/base_link">
      <inertial>
        <mass value="${{mass}}"/>
        <origin xyz="0 0 0" rpy="0 0 0"/>
        <inertia ixx="525.39" ixy="0" ixz="0" iyy="794.20" iyz="0" izz="691.23"/>
      </inertial>
      <collision><geometry><box size="2.6 1.5 1.6"/></geometry></collision>
    </link>
    <xacro:insert_block name="gazebo"/>
  </xacro:macro>
</robot>
"""
ROBOT_XACRO = """<?xml version="1.0"?>
<robot name="rexrov" xmlns:xacro="http://www.ros.org/wiki/xacro" >
  <xacro:arg name="debug" default="0"/>
  <xacro:arg name="namespace" default="rexrov"/>
  <xacro:arg name="inertial_reference_frame" default="world"/>
  <xacro:include filename="$(find uuv_descriptions)/urdf/rexrov_base.xacro"/>
  <xacro:include filename="$(find uuv_descriptions)/urdf/rexrov.gazebo.xacro"/>
  <xacro:rexrov_base
    namespace="$(arg namespace)"
    inertial_reference_frame="$(arg inertial_reference_frame)">
    <gazebo>
      <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
        <fluid_density>1028.0</fluid_density>
        <flow_velocity_topic>hydrodynamics/current_velocity</flow_velocity_topic>
        <debug>$(arg debug)</debug>
        <xacro:rexrov_hydro_model namespace="$(arg namespace)"/>
      </plugin>
    </gazebo>
  </xacro:rexrov_base>
</robot>
"""


def _rexrov(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The package ``uuv_descriptions`` in a workspace: (robot file, macro file, workspace)."""
    package = tmp_path / "ws" / "uuv_descriptions"
    (package / "urdf").mkdir(parents=True)
    (package / "robots").mkdir()
    (package / "package.xml").write_text("<package><name>uuv_descriptions</name></package>")
    block = vehicles.REXROV_LINK.replace('<link name="base_link">',
                                         '<link name="${namespace}/base_link">')
    block = block.replace("<volume>1.83826</volume>", "<volume>${volume}</volume>")
    block = block.replace("<center_of_buoyancy>0.0 0.0 0.3</center_of_buoyancy>",
                          "<center_of_buoyancy>${cob}</center_of_buoyancy>")
    macro = package / "urdf" / "rexrov.gazebo.xacro"
    macro.write_text(GAZEBO_XACRO.format(block=block))
    (package / "urdf" / "rexrov_base.xacro").write_text(BASE_XACRO.format(
        mass=vehicles.REXROV_MASS))
    robot = package / "robots" / "rexrov_default.xacro"
    robot.write_text(ROBOT_XACRO)
    return robot, macro, tmp_path / "ws"


def test_the_plugin_is_rewritten_where_it_is_written_named_by_the_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robot, macro, ws = _rexrov(tmp_path)
    macro_before = macro.read_bytes()
    source = ["--package-path", str(ws)]
    before = {(f.code, f.link) for f in gzinertia.audit_paths(robot, package_paths=[ws])}
    assert "GZI506" in {code for code, _link in before}  # the explicit added mass diverges
    status, _out, err = run_cli(["migrate", str(robot), "--in-place", *source], capsys)
    assert status == 0, err
    text = robot.read_text()
    assert "underwater_object" not in text and "rexrov_hydro_model" not in text
    assert "<link_name>$(arg namespace)/base_link</link_name>" in text
    assert "no longer used (left as written)" in err and macro.read_bytes() == macro_before
    # the damping written is the published block's, gz-sim's sign (diagonal: the centre of
    # mass at the origin); the added mass is beyond the explicit bound: skipped, and said
    (link,) = gzinertia.read(robot, package_paths=[ws]).links
    (plugin,) = link.hydrodynamics
    published = re.search(r"<linear_damping>(.*)</linear_damping>", vehicles.REXROV_LINK)
    assert published is not None
    wanted = [float(v) for v in published.group(1).split()]
    assert [plugin.terms[n] for n in ("xU", "yV", "zW", "kP", "mQ", "nR")] == wanted
    assert "added mass not migrated" in err
    # another namespace names another link, as before the edit
    (other,) = gzinertia.read(robot, package_paths=[ws], xacro_args={"namespace": "rov2"}).links
    assert other.name.endswith("rov2/base_link") and other.hydrodynamics
    after = {(f.code, f.link) for f in gzinertia.audit_paths(robot, package_paths=[ws])}
    assert {code for code, _link in after - before} <= {"GZI207"}  # said by migrate
    assert run_cli(["migrate", str(robot), "--check", *source], capsys)[0] == 0


def test_a_macro_link_block_that_is_not_literal_stays_pending(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The damping written as a property in the macro: not guessed; the plugin is left, and
    the pending line names the macro file and what to write."""
    robot, macro, ws = _rexrov(tmp_path)
    macro.write_text(macro.read_text().replace(
        "<linear_damping>-74.82", '<linear_damping>${-74.82}'))
    before = robot.read_bytes()
    status, _out, err = run_cli(["migrate", str(robot), "--in-place", "--package-path",
                                 str(ws)], capsys)
    assert status == 1, err  # something pending
    assert robot.read_bytes() == before
    assert "rexrov.gazebo.xacro" in err and "not literal numbers" in err
