"""``gzinertia.audit_paths`` expands xacro files as ``gzinertia.read`` does: the same
``xacro_args`` make a file readable for both, and without them both refuse it (the audit as a
GZI001 finding, ``read`` as an error: the default length is not a number)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gzinertia
from gzinertia.errors import GzInertiaError

XACRO = """<?xml version="1.0"?>
<robot name="bar" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="length" default="not-a-number"/>
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision><geometry><box size="$(arg length) 0.2 0.2"/></geometry></collision>
  </link>
</robot>
"""


def test_the_audit_takes_the_xacro_arguments_read_takes(tmp_path: Path) -> None:
    path = tmp_path / "bar.urdf.xacro"
    path.write_text(XACRO)
    with pytest.raises(GzInertiaError):
        gzinertia.read(path)
    assert [f.code for f in gzinertia.audit_paths(path)] == ["GZI001"]
    doc = gzinertia.read(path, xacro_args={"length": "1.5"})
    assert [lk.name for lk in doc.links] == ["bar::base"]
    codes = [f.code for f in gzinertia.audit_paths(path, xacro_args={"length": "1.5"})]
    assert "GZI001" not in codes
