"""`gzinertia hydro`: the plugin block it writes makes Gazebo's Hydrodynamics apply MuJoCo's
ellipsoid drag along each link axis; updates are in place, minimal, and idempotent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from editing import changed_lines
from test_hydro_damping import mujoco_F_BBo_B, plugin_F_BBo_B, rel, single_axis_motions

from gzinertia.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.rotation import Pose
from gzinertia.sdf import read_sdf_file

DENSITY, VISCOSITY = 1025.0, 0.02
RADII = (0.4, 0.15, 0.08)

MODEL = """<?xml version="1.0"?>
<sdf version="1.10">
  <model name="glider">
    <link name="wing">
      <inertial>
        <mass>3</mass>
        <inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.3</izz></inertia>{added}
      </inertial>
      <collision name="c">
        <geometry><ellipsoid><radii>{r}</radii></ellipsoid></geometry>
      </collision>
    </link>
  </model>
</sdf>
"""


def _model(tmp_path: Path, added: str = "") -> Path:
    path = tmp_path / "glider.sdf"
    path.write_text(MODEL.format(added=added, r=" ".join(map(str, RADII))))
    return path


def test_written_plugin_reproduces_mujoco_along_each_axis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rng: np.random.Generator
) -> None:
    path = _model(tmp_path)
    status, _, err = run_cli(
        ["hydro", str(path), "--link", "wing", "--fit", "mujoco", "--density", str(DENSITY),
         "--viscosity", str(VISCOSITY), "--in-place"],
        capsys,
    )
    assert status == 0, err
    (plugin,) = read_sdf_file(path).link("glider::wing").hydrodynamics
    coefs = EllipsoidFluidCoefficients()
    for V in single_axis_motions():
        mj = mujoco_F_BBo_B(
            [("ellipsoid", np.array(RADII), Pose(), coefs)], V, DENSITY, VISCOSITY,
            np.zeros(3), rng,
        )
        assert rel(plugin_F_BBo_B(plugin.terms, V, np.zeros(3)), mj) < 1e-9


def test_second_run_changes_nothing_and_updates_stay_in_the_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _model(tmp_path)
    args = ["hydro", str(path), "--link", "wing", "--in-place"]
    assert run_cli(args, capsys)[0] == 0
    first = path.read_bytes()
    assert run_cli(args, capsys)[0] == 0
    assert path.read_bytes() == first
    assert run_cli([*args, "--density", "1025"], capsys)[0] == 0
    removed, added = changed_lines(first, path.read_bytes())
    lines = first.decode().splitlines()
    assert removed and all("abs" in lines[i] or lines[i].strip().startswith(("<x", "<y", "<z",
                           "<k", "<m", "<n")) for i in removed)
    assert len(added) == len(removed)


def test_added_mass_in_the_link_turns_the_plugins_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _model(tmp_path, "\n        <fluid_added_mass><xx>1</xx></fluid_added_mass>")
    assert run_cli(["hydro", str(path), "--link", "wing", "--in-place"], capsys)[0] == 0
    (plugin,) = read_sdf_file(path).link("glider::wing").hydrodynamics
    assert plugin.disable_added_mass


@pytest.mark.parametrize(
    "args", [["--coefs", "1,2,3"], ["--viscosity", "-1"], ["--fit", "explicit"]]
)
def test_bad_options_are_usage_errors(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(["hydro", str(_model(tmp_path)), "--link", "wing", *args], capsys)
    assert status == 2 and err.startswith("gzinertia: error:")
