"""VRX's classic USV dynamics plugin: reading (with its defaults) and the wrench it applies,
against the re-implementation of its source in :mod:`classic_oracles`."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import classic_oracles as oracle
import numpy as np
import pytest

from gzinertia.classic.blocks import classic_plugins_of_file
from gzinertia.classic.vrx import is_vrx_usv_dynamics, vrx_wrench

#: osrf/vrx@c9b93883 (gazebo_classic) wamv_gazebo/urdf/dynamics/wamv_gazebo_dynamics_plugin.xacro
#: lines 6-33, the WAM-V's terms (zDotW, kDotP, mDotQ and the other quadratic terms left to the
#: plugin's defaults, as there); boatWidth and boatLength are that macro's arguments, set here.
WAMV = """<plugin name="wamv_dynamics" filename="libusv_gazebo_dynamics_plugin.so">
  <bodyName>base_link</bodyName>
  <waterLevel>0</waterLevel>
  <waterDensity>997.8</waterDensity>
  <xDotU>0.0</xDotU><yDotV>0.0</yDotV><nDotR>0.0</nDotR>
  <xU>51.3</xU><xUU>72.4</xUU><yV>40.0</yV><yVV>0.0</yVV><zW>500.0</zW>
  <kP>50.0</kP><mQ>50.0</mQ><nR>400.0</nR><nRR>0.0</nRR>
  <hullRadius>0.213</hullRadius><boatWidth>2.4</boatWidth><boatLength>4.9</boatLength>
  <length_n>2</length_n>
</plugin>"""
DEFAULTS_ONLY = '<plugin name="d" filename="usv_gazebo_dynamics_plugin"/>'
RANDOM = ('<plugin name="r" filename="libusv_gazebo_dynamics_plugin.so">'
          + "".join(f"<{k}>{v:.5g}</{k}>" for k, v in zip(
              oracle.VRX_DEFAULTS, np.random.default_rng(1).uniform(0, 90, 18), strict=True))
          + "</plugin>")


def _model(plugin: str) -> str:
    return (f'<sdf version="1.9"><model name="boat"><link name="base_link"/>{plugin}'
            "</model></sdf>")


@pytest.mark.parametrize("block", [WAMV, DEFAULTS_ONLY, RANDOM], ids=["wamv", "defaults", "random"])
def test_wrench_equals_the_source_force_law(block: str, tmp_path: Path) -> None:
    (tmp_path / "b.sdf").write_text(_model(block))
    plugins = classic_plugins_of_file(str(tmp_path / "b.sdf"))
    assert len(plugins.vrx) == 1
    plugin = plugins.vrx[0]
    xml = ET.fromstring(block)
    rng = np.random.default_rng(11)
    for _ in range(50):
        lin, ang, la, aa = (rng.normal(0, 2, 3) for _ in range(4))
        got = vrx_wrench(plugin, np.concatenate([lin, ang]), np.concatenate([la, aa]))
        want = oracle.vrx_force(xml, lin, ang, la, aa)
        assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, np.max(np.abs(want)))


def test_defaults_are_reported(tmp_path: Path) -> None:
    (tmp_path / "b.sdf").write_text(_model(WAMV))
    plugin = classic_plugins_of_file(str(tmp_path / "b.sdf")).vrx[0]
    assert plugin.link == "base_link"
    assert "zDotW" in plugin.defaulted and "xU" not in plugin.defaulted
    assert plugin.terms["zDotW"] == float(oracle.VRX_DEFAULTS["zDotW"])


def test_recognised_by_file_name() -> None:
    assert is_vrx_usv_dynamics("libusv_gazebo_dynamics_plugin.so")
    assert not is_vrx_usv_dynamics("libusv_gazebo_thrust_plugin.so")
