"""``addmass`` on URDF/xacro: a ``<gazebo>`` Hydrodynamics block with ``D = -A`` (today's
gz-sim sign), which libsdformat carries into the SDF Gazebo loads; the tool never contradicts
itself (audit after the edit: no new finding; ``--check`` after the write: exit 0)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import run_cli
from urdfgen import with_macro_named_link

from gzinertia.sdf import read_sdf_bytes, read_sdf_file

#: A hull heavier than its added mass on every axis (within the plugin's explicit bound,
#: GZI506: gz-sim#1923), as a Hydrodynamics block may carry it.
AUV = """<robot name="auv">
  <link name="hull">
    <inertial><mass value="500"/><inertia ixx="30" ixy="0" ixz="0" iyy="200" iyz="0" izz="200"/>
    </inertial>
    <collision><origin xyz="0.1 0 0" rpy="0 0 0.3"/><geometry><box size="2 0.5 0.4"/></geometry>
    </collision>
  </link>
  <link name="fin">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
  </link>
  <joint name="f" type="fixed"><parent link="hull"/><child link="fin"/><origin xyz="-1 0 0"/>
  </joint>
</robot>
"""


def test_urdf_gets_a_hydrodynamics_block_gazebo_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "auv.urdf"
    src.write_text(AUV)
    status, _, err = run_cli(["addmass", str(src), "--ellipsoid", "--in-place"], capsys)
    assert status == 0, err
    assert "applies this added mass explicitly" in err and "gz-sim#1462" in err
    # the tool agrees with itself
    assert run_cli(["addmass", str(src), "--ellipsoid", "--check"], capsys)[0] == 0
    status, out, _ = run_cli(["audit", str(src), "--no-cache"], capsys)
    assert status == 0 and "No findings" in out
    ign = shutil.which("ign") or shutil.which("gz")
    if ign is None:
        pytest.skip("ign/gz sdf not installed")
    # libsdformat's conversion of the edited URDF carries the plugin; the same added mass as
    # `addmass` writes into <fluid_added_mass> of libsdformat's conversion of the original
    converted = subprocess.run([ign, "sdf", "-p", str(src)], capture_output=True, check=True,
                               timeout=120).stdout
    [hull] = read_sdf_bytes(converted, "edited.sdf").links
    [plugin] = hull.hydrodynamics
    D = plugin.D_BBo_B
    original = tmp_path / "original.urdf"
    original.write_text(AUV)
    sdf = tmp_path / "original.sdf"
    sdf.write_bytes(subprocess.run([ign, "sdf", "-p", str(original)], capture_output=True,
                                   check=True, timeout=120).stdout)
    assert run_cli(["addmass", str(sdf), "--ellipsoid", "--in-place"], capsys)[0] == 0
    [native] = read_sdf_file(sdf).links
    assert native.inertial.A_BBo_B is not None
    A = native.inertial.A_BBo_B.linear_first()
    assert np.max(np.abs(-(D + D.T) / 2 - A)) <= 1e-9 * np.max(np.abs(A))


def test_xacro_link_made_by_a_macro_is_left_alone_with_the_block_to_paste(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "auv.urdf.xacro"
    text = with_macro_named_link(AUV, "auv", "hull")
    path.write_text(text)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert status == 0, err
    assert path.read_text() == text
    assert "not written literally" in err and "<link_name>hull</link_name>" in err
