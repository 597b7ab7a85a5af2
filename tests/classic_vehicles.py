"""Published plugin blocks of public vehicles, as minimal SDF models (data with their source).

The numbers are copied from the vehicles' descriptions (path and commit beside each); the
models around them are minimal (one link, its mass and a collision standing for the hull).
"""

from __future__ import annotations

#: uuvsimulator/uuv_simulator@bfb40cb1 uuv_descriptions/urdf/rexrov.gazebo.xacro (the same
#: block in uuvsimulator/rexrov2@15466816 rexrov2_description/urdf/rexrov2.gazebo.xacro:27-57).
REXROV_LINK = """
<link name="base_link">
  <neutrally_buoyant>0</neutrally_buoyant>
  <volume>1.83826</volume>
  <box><width>1.5</width><length>2.6</length><height>1.6</height></box>
  <center_of_buoyancy>0.0 0.0 0.3</center_of_buoyancy>
  <hydrodynamic_model>
    <type>fossen</type>
    <added_mass>
      779.79 -6.8773 -103.32  8.5426 -165.54 -7.8033
     -6.8773    1222   51.29  409.44 -5.8488  62.726
     -103.32   51.29  3659.9  6.1112 -386.42  10.774
      8.5426  409.44  6.1112   534.9 -10.027  21.019
     -165.54 -5.8488 -386.42 -10.027  842.69 -1.1162
     -7.8033  62.726  10.775  21.019 -1.1162  224.32
    </added_mass>
    <linear_damping>-74.82 -69.48 -728.4 -268.8 -309.77 -105</linear_damping>
    <quadratic_damping>-748.22 -992.53 -1821.01 -672 -774.44 -523.27</quadratic_damping>
  </hydrodynamic_model>
</link>"""
#: RexROV's mass and principal inertia (uuv_simulator@bfb40cb1
#: uuv_descriptions/urdf/rexrov_base.xacro:39-47; products of inertia left out here); RexROV2
#: has the same mass (rexrov2_description/urdf/rexrov2_base.xacro:27).
REXROV_MASS = 1862.87
REXROV_INERTIA = (525.39, 794.20, 691.23)

#: uuvsimulator/eca_a9@5c7e3572 eca_a9_description/urdf/eca_a9_base.xacro:24-30 and its
#: <link> block (mass 69.7 kg, length 1.98 m, diameter 0.23 m).
ECA_A9_LINK = """
<link name="base_link">
  <volume>0.06799987704121499</volume>
  <center_of_buoyancy>0 0 0.06</center_of_buoyancy>
  <neutrally_buoyant>0</neutrally_buoyant>
  <hydrodynamic_model>
    <type>fossen</type>
    <added_mass>
      4 0 0 0 0 0  0 95 0 0 0 0  0 0 75 0 0 0  0 0 0 0.4 0 0  0 0 0 0 27 0  0 0 0 0 0 32
    </added_mass>
    <linear_damping_forward_speed>
      -8 0 0 0 0 0  0 -162 0 0 0 150  0 0 -108 0 -100 0
      0 0 0 -13 0 0  0 0 37 0 -20 0  0 -34 0 0 0 -32
    </linear_damping_forward_speed>
  </hydrodynamic_model>
</link>"""
ECA_A9_MASS = 69.7
ECA_A9_INERTIA = (0.6, 30.0, 35.0)  # the same file's <inertia>

#: uuvsimulator/lauv_gazebo@3529e028 lauv_description/urdf/gazebo.xacro:5-14 and its <link>
#: block; mass 18 kg (base.xacro:16).
LAUV_LINK = """
<link name="base_link">
  <neutrally_buoyant>0</neutrally_buoyant>
  <volume>0.017551374956865266</volume>
  <box><width>0.15</width><length>1.08</length><height>0.15</height></box>
  <center_of_buoyancy>0 0 0.01</center_of_buoyancy>
  <hydrodynamic_model>
    <type>fossen</type>
    <added_mass>
      1 0 0 0 0 0  0 16 0 0 0 0  0 0 16 0 0 0  0 0 0 0.005 0 0  0 0 0 0 1.3 0  0 0 0 0 0 1.3
    </added_mass>
    <linear_damping>
      -2.4 0 0 0 0 0  0 -23 0 0 0 11.5  0 0 -23 0 -11.5 0
      0 0 0 -0.3 0 0  0 0 3.1 0 -9.7 0  0 -3.1 0 0 0 -9.7
    </linear_damping>
    <linear_damping_forward_speed>0 0 0 0 0 0</linear_damping_forward_speed>
    <quadratic_damping>
      -2.4 0 0 0 0 0  0 -80 0 0 0 0.3  0 0 -80 0 -0.3 0
      0 0 0 -0.0006 0 0  0 0 1.5 0 -9.1 0  0 -1.5 0 0 0 -9.1
    </quadratic_damping>
  </hydrodynamic_model>
</link>"""
LAUV_MASS = 18.0


def uuv_model(link_block: str, mass: float, collision: str,
              inertia: tuple[float, float, float] = (1.0, 1.0, 1.0),
              pose: str = "0 0 0 0 0 0", density: str = "", collision_pose: str = "") -> str:
    """A one-link SDF model holding ``link_block`` in an underwater-object plugin."""
    fluid = f"<fluid_density>{density}</fluid_density>" if density else ""
    return f"""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="vehicle">
    <link name="base_link">
      <inertial>
        <pose>{pose}</pose>
        <mass>{mass}</mass>
        <inertia><ixx>{inertia[0]}</ixx><iyy>{inertia[1]}</iyy><izz>{inertia[2]}</izz>
          <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>
      </inertial>
      <collision name="hull"><pose>{collision_pose or "0 0 0 0 0 0"}</pose><geometry>{collision}</geometry></collision>
    </link>
    <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
      {fluid}
      <flow_velocity_topic>hydrodynamics/current_velocity</flow_velocity_topic>
      {link_block}
    </plugin>
  </model>
</sdf>
"""
