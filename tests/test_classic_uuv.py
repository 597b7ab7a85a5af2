"""UUV Simulator's underwater-object plugin: reading and the wrench it applies, against the
re-implementation of its source in :mod:`tests.classic_oracles` (every model type, random
states: velocity, filtered acceleration, orientation, current)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import classic_oracles as oracle
import numpy as np
import pytest
from classic_vehicles import (
    ECA_A9_LINK,
    ECA_A9_MASS,
    LAUV_LINK,
    LAUV_MASS,
    REXROV_LINK,
    REXROV_MASS,
    uuv_model,
)
from sdfgen import random_rotation

from gzinertia.classic.blocks import classic_plugins_of_file
from gzinertia.classic.uuv import (
    added_mass_Bo_B,
    buoyancy_force_W,
    filter_acceleration,
    hydrodynamic_wrench,
    hydrodynamic_wrench_Bo,
    is_uuv_underwater_object,
)
from gzinertia.errors import SdfError

MASS = 25.0
SHAPES = {
    "sphere": "<radius>0.3</radius>",
    "cylinder_i": "<radius>0.1</radius><length>1.2</length><axis>i</axis>",
    "cylinder_j": "<radius>0.2</radius><length>0.5</length><axis>j</axis>",
    "cylinder_k": "<radius>0.2</radius><length>1.0</length><axis>k</axis>",
    "spheroid": "<radius>0.15</radius><length>0.9</length>",
    "box": "<length>1</length><width>0.5</width><height>0.4</height>",
}


def _shape_link(name: str, params: str, rng: np.random.Generator) -> str:
    kind = name.split("_")[0]
    added = " ".join(f"{x:.6g}" for x in rng.normal(0, 5, 36))
    lin = " ".join(f"{x:.6g}" for x in -rng.uniform(1, 50, 6))
    quad = " ".join(f"{x:.6g}" for x in -rng.uniform(1, 50, 36))
    fwd = " ".join(f"{x:.6g}" for x in rng.normal(0, 3, 6))
    return f"""<link name="base_link"><volume>0.05</volume>
      <center_of_buoyancy>0.01 -0.02 0.1</center_of_buoyancy>
      <hydrodynamic_model><type>{kind}</type>{params}<added_mass>{added}</added_mass>
      <linear_damping>{lin}</linear_damping><quadratic_damping>{quad}</quadratic_damping>
      <linear_damping_forward_speed>{fwd}</linear_damping_forward_speed>
      </hydrodynamic_model></link>"""


CASES = {
    "rexrov": (REXROV_LINK, REXROV_MASS),
    "eca_a9": (ECA_A9_LINK, ECA_A9_MASS),
    "lauv": (LAUV_LINK, LAUV_MASS),
    **{k: (_shape_link(k, v, np.random.default_rng(i)), MASS)
       for i, (k, v) in enumerate(SHAPES.items())},
}


def _read(tmp_path: Path, block: str, mass: float):  # type: ignore[no-untyped-def]
    path = tmp_path / "m.sdf"
    path.write_text(uuv_model(block, mass, "<sphere><radius>0.2</radius></sphere>"))
    plugins = classic_plugins_of_file(str(path), masses={"base_link": mass})
    assert len(plugins.uuv) == 1 and len(plugins.uuv[0].links) == 1
    return plugins.uuv[0], ET.fromstring(block)


@pytest.mark.parametrize("case", sorted(CASES))
def test_wrench_equals_the_source_force_law(case: str, tmp_path: Path) -> None:
    block, mass = CASES[case]
    plugin, link_xml = _read(tmp_path, block, mass)
    link = plugin.links[0]
    mats = oracle.uuv_link_matrices(link_xml, mass)
    np.testing.assert_allclose(link.Ma, mats["Ma"], rtol=1e-14, atol=0)
    rng = np.random.default_rng(27)
    for _ in range(50):
        v, w, flow = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 0.5, 3)
        a = rng.normal(0, 2, 6)
        R = random_rotation(rng)
        got = hydrodynamic_wrench(link, v, w, a, R, flow)
        f, t = oracle.uuv_tau(mats, v, w, a, R, flow)
        want = np.concatenate([f, t])
        assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, np.max(np.abs(want)))


def test_wrench_about_the_origin_adds_the_moment_of_the_force_at_the_centre_of_mass() -> None:
    rng = np.random.default_rng(3)
    wrench, p = rng.normal(size=6), rng.normal(size=3)
    about_origin = hydrodynamic_wrench_Bo(wrench, p)
    # the same wrench: equal moments about any point Q
    q = rng.normal(size=3)
    at_cm = wrench[3:] + np.cross(p - q, wrench[:3])
    np.testing.assert_allclose(about_origin[3:] + np.cross(-q, wrench[:3]), at_cm, atol=1e-12)


def test_the_acceleration_filter_follows_the_source() -> None:
    rng = np.random.default_rng(5)
    ours = theirs = np.zeros(6)
    last = np.zeros(6)
    for step in range(20):
        nu = rng.normal(size=6)
        dt = 0.0 if step == 7 else 0.002
        ours = filter_acceleration(ours, nu, last, dt)
        theirs = oracle.uuv_filtered_acc(theirs, nu, last, dt)
        if dt > 0:
            last = nu
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@pytest.mark.parametrize("neutral", ["0", "1"])
def test_buoyancy_follows_the_source(neutral: str, tmp_path: Path) -> None:
    block = REXROV_LINK.replace("<neutrally_buoyant>0", f"<neutrally_buoyant>{neutral}")
    plugin, link_xml = _read(tmp_path, block, REXROV_MASS)
    link = plugin.links[0]
    assert link.neutrally_buoyant is (neutral == "1")
    for z in (-5.0, -0.9, -0.3, 0.5):
        got = buoyancy_force_W(link, z, REXROV_MASS, 9.81, plugin.fluid_density, 1.6)
        want = oracle.uuv_buoyancy(link_xml, z, REXROV_MASS, 9.81, plugin.fluid_density, 1.6)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_plugin_settings_and_defaults(tmp_path: Path) -> None:
    plugin, _ = _read(tmp_path, LAUV_LINK, LAUV_MASS)
    assert plugin.fluid_density == 1028.0  # absent: the plugin's default
    assert plugin.flow_velocity_topic == "hydrodynamics/current_velocity"
    assert plugin.use_global_current  # absent: true (UnderwaterObjectPlugin.cc:34)
    link = plugin.links[0]
    assert link.p_BcmC_B == (0.0, 0.0, 0.01) and link.box == (0.15, 1.08, 0.15)
    # LAUV's 36 quadratic values: the plugin keeps the diagonal only, and says so
    assert link.D_quad[1, 5] == 0.0
    assert any("diagonal" in n for n in link.notes)


def test_recognised_by_file_name() -> None:
    assert is_uuv_underwater_object("libuuv_underwater_object_ros_plugin.so")
    assert is_uuv_underwater_object("uuv_underwater_object_plugin")
    assert not is_uuv_underwater_object("libuuv_thruster_ros_plugin.so")


def test_read_from_a_urdf_gazebo_block_and_from_xacro(tmp_path: Path) -> None:
    plugin_xml = (f'<plugin name="p" filename="libuuv_underwater_object_ros_plugin.so">'
                  f"<fluid_density>1027</fluid_density>{ECA_A9_LINK}</plugin>")
    urdf = (f'<robot name="r"><link name="base_link"><inertial><mass value="{ECA_A9_MASS}"/>'
            '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
            f"<gazebo>{plugin_xml}</gazebo></robot>")
    (tmp_path / "r.urdf").write_text(urdf)
    got = classic_plugins_of_file(str(tmp_path / "r.urdf"))
    assert got.uuv[0].fluid_density == 1027.0
    assert got.uuv[0].links[0].volume == pytest.approx(0.06799987704121499)
    xacro = urdf.replace('<robot name="r">',
                         '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                         '<xacro:property name="rho" value="1027.0"/>').replace(
                             "<fluid_density>1027</", "<fluid_density>${rho}</")
    (tmp_path / "r.urdf.xacro").write_text(xacro)
    got = classic_plugins_of_file(str(tmp_path / "r.urdf.xacro"))
    assert got.uuv[0].fluid_density == 1027.0


def test_a_block_the_plugin_refuses_names_file_and_line(tmp_path: Path) -> None:
    block = LAUV_LINK.replace("<type>fossen</type>", "<type>torpedo</type>")
    path = tmp_path / "m.sdf"
    path.write_text(uuv_model(block, LAUV_MASS, "<sphere><radius>0.2</radius></sphere>"))
    with pytest.raises(SdfError) as err:
        classic_plugins_of_file(str(path))
    assert err.value.file == str(path) and err.value.line is not None


@pytest.mark.parametrize("case", ["rexrov", "lauv", "cylinder_j"])
def test_added_mass_about_the_origin_is_the_added_mass_part_of_the_wrench(
    case: str, tmp_path: Path
) -> None:
    """At rest in still water only ``-Ma·a`` acts: the oracle's force at Bcm, moved to Bo,
    is ``-A·a`` for the package's ``A`` (about Bo, link axes); ``A`` is not symmetric when
    the centre of mass is off the origin, though ``Ma`` is."""
    block, mass = CASES[case]
    plugin, link_xml = _read(tmp_path, block, mass)
    mats = oracle.uuv_link_matrices(link_xml, mass)
    rng = np.random.default_rng(8)
    p = rng.normal(0, 0.2, 3)
    A = added_mass_Bo_B(plugin.links[0], p)
    zero = np.zeros(3)
    for _ in range(20):
        a_B = rng.normal(0, 2, 6)
        a_flipped = np.concatenate([a_B[:3] * [1, -1, -1], a_B[3:] * [1, -1, -1]])
        f, t = oracle.uuv_tau(mats, zero, zero, a_flipped, np.eye(3), zero)
        want = np.concatenate([f, t + np.cross(p, f)])
        np.testing.assert_allclose(-A @ a_B, want, rtol=1e-12, atol=1e-9)
    if case == "lauv":  # symmetric Ma, off-origin centre of mass
        assert np.allclose(mats["Ma"], mats["Ma"].T) and not np.allclose(A, A.T)
