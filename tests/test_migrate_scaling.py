"""``gzinertia migrate`` stays linear in the links of a URDF and a xacro (issue 27): lines of
gzinertia run, counted as :mod:`test_urdf_scaling` counts them, on ``N`` and ``4N`` links, each
link with its own UUV Simulator block (added mass and damping) in one plugin."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_urdf_scaling import _assert_linear, _cli, _growth

_INERTIAL = ('<inertial><mass value="18"/><inertia ixx="0.1" iyy="1.7" izz="1.7" ixy="0" '
             'ixz="0" iyz="0"/></inertial>')
_BLOCK = ('<link name="l{i}"><volume>0.0175</volume><hydrodynamic_model><type>fossen</type>'
          "<added_mass>1 0 0 0 0 0  0 16 0 0 0 0  0 0 16 0 0 0  0 0 0 0.005 0 0  "
          "0 0 0 0 1.3 0  0 0 0 0 0 1.3</added_mass>"
          "<linear_damping>-2.4 -23 -23 -0.3 -9.7 -9.7</linear_damping>"
          "</hydrodynamic_model></link>")


def chain_with_blocks(links: int, xacro: bool = False) -> str:
    """A chain of ``links`` revolute-jointed links 3 m apart (their hulls never overlap), one
    UUV Simulator plugin holding a block for each."""
    ns = ' xmlns:xacro="http://www.ros.org/wiki/xacro"' if xacro else ""
    parts = [f'<robot name="chain"{ns}>']
    for i in range(links):
        parts.append(f'<link name="l{i}">{_INERTIAL}<collision><geometry><sphere radius="0.2"/>'
                     "</geometry></collision></link>")
        if i:
            parts.append(f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                         f'<child link="l{i}"/><origin xyz="3 0 0"/><axis xyz="0 0 1"/>'
                         '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    parts.append('<gazebo><plugin name="uuv" filename="libuuv_underwater_object_plugin.so">')
    parts += [_BLOCK.format(i=i) for i in range(links)]
    parts.append("</plugin></gazebo></robot>")
    return "\n".join(parts) + "\n"


@pytest.mark.parametrize("suffix", [".urdf", ".urdf.xacro"])
def test_migrate_grows_linearly(suffix: str, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    def write(links: int) -> Path:
        path = tmp_path / f"r{links}{suffix}"
        path.write_text(chain_with_blocks(links, xacro=suffix != ".urdf"))
        return path

    _assert_linear(f"migrate ({suffix})", _growth(write, _cli("migrate", "{}", "-o", "OUT")))
