"""``fix`` finds URDF links where URDF defines them (issue 25 item 8).

UUV Simulator's underwater-object plugin (and every vehicle description derived from it)
repeats each link inside ``<gazebo><plugin>`` as ``<link name="X">`` holding its hydrodynamic
parameters. Those are plugin parameters, not links: ``fix`` must edit the ``<link>`` that is a
child of ``<robot>`` (directly or through xacro's own elements), and the audit after it, and
``fix --check`` after ``fix --in-place``, must agree that the repair is done.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from audit_helpers import codes_by_link
from conftest import run_cli

#: The plugin block as UUV Simulator's vehicles write it (uuv_descriptions, rexrov's
#: ``gazebo.xacro`` after expansion): a ``<link>`` per vehicle link inside the plugin.
PLUGIN = """
  <gazebo>
    <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
      <fluid_density>1028.0</fluid_density>
      <flow_velocity_topic>hydrodynamics/current_velocity</flow_velocity_topic>
      <link name="base_link">
        <neutrally_buoyant>0</neutrally_buoyant>
        <volume>0.04</volume>
        <box><width>0.4</width><length>0.5</length><height>0.2</height></box>
        <center_of_buoyancy>0 0 0.01</center_of_buoyancy>
        <hydrodynamic_model>
          <type>fossen</type>
          <added_mass>1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1 0 0 0 0 0 0 1</added_mass>
          <linear_damping>-1 -1 -1 -1 -1 -1</linear_damping>
        </hydrodynamic_model>
      </link>
    </plugin>
  </gazebo>
"""

#: The link, with an inertia 1 + 1 < 3 (GZI104) that ``fix`` repairs.
LINK = """
  <link name="base_link">
    <inertial>
      <origin xyz="0 0 0" rpy="0 0 0"/>
      <mass value="20"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/>
    </inertial>
    <collision><geometry><box size="0.5 0.4 0.2"/></geometry></collision>
  </link>
"""

FILES = {
    # flat URDF: the plugin block after the link, and before it
    "plugin-after.urdf": f'<robot name="rov">{LINK}{PLUGIN}</robot>\n',
    "plugin-before.urdf": f'<robot name="rov">{PLUGIN}{LINK}</robot>\n',
    # xacro: the link inside a condition (still where URDF defines it)
    "conditional.urdf.xacro": (
        '<robot name="rov" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:arg name="hull" default="true"/>\n'
        f'  <xacro:if value="$(arg hull)">{LINK}</xacro:if>{PLUGIN}</robot>\n'
    ),
}


@pytest.mark.parametrize("name", FILES)
def test_fix_edits_the_robot_link_not_the_plugin_parameters(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(FILES[name])
    before = codes_by_link(path)
    assert "GZI104" in before["rov::base_link"]
    code, _, err = run_cli(["fix", str(path), "--in-place"], capsys)
    assert code == 0, err
    assert "not written literally" not in err and "rov::base_link: nearest (GZI104)" in err
    old, new = FILES[name].splitlines(), path.read_text().splitlines()
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert len(changed) == 1 and "<inertia " in changed[0][0], changed
    assert PLUGIN in path.read_text()  # the plugin's parameters, byte for byte
    after = codes_by_link(path)
    assert "GZI104" not in after.get("rov::base_link", set())
    for link, codes in after.items():  # the audit after the fix adds no finding
        assert codes <= before.get(link, set()), (link, codes)
    code, _, err = run_cli(["fix", str(path), "--check"], capsys)
    assert code == 0, err


def test_a_link_only_a_plugin_names_is_still_not_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A xacro link made by a macro stays pending, with the block to write, even when a plugin
    repeats its literal name: the plugin's ``<link>`` is not taken for it."""
    path = tmp_path / "macro.urdf.xacro"
    path.write_text(
        '<robot name="rov" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:macro name="body" params="name">'
        + LINK.replace('"base_link"', '"${name}"')
        + '  </xacro:macro>\n  <xacro:body name="base_link"/>'
        + PLUGIN + "</robot>\n"
    )
    data = path.read_bytes()
    code, _, err = run_cli(["fix", str(path), "--in-place"], capsys)
    assert code == 1, err
    assert "link 'base_link' is not written literally" in err
    assert path.read_bytes() == data
