"""A world's engine applies to that world's models only (issue 28: "read from the world ... where
the audited files include one"), and the report says which target each file was judged under.

Two worlds include the same model (with ``<fluid_added_mass>``): one's Physics system loads
bullet-featherstone, the other's names no engine (gz-sim's default, dartsim:
``src/systems/physics/Physics.cc``). The model's added mass is ignored in the first world only
(GZI601, whose message names that world); the model file audited beside them is judged under
the run's target; the report lists the run's target and the world's, each with its origin.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from sdf_builders import include, inertial, link, model, sphere, world, write

PHYSICS = ('<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics">'
           "{engine}</plugin>")
BULLET = "<engine><filename>gz-physics-bullet-featherstone-plugin</filename></engine>"


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The model (``auv/model.sdf``), the bullet world and the default world (each including
    it by a relative URI)."""
    A = np.diag([2.0, 2.0, 3.0, 0.1, 0.1, 0.1])
    body = link("hull", inertial(30.0, np.eye(3), A=A), sphere(0.2))
    auv = write(tmp_path / "auv", model(body, name="auv"), "model.sdf")
    bullet = write(tmp_path, world(PHYSICS.format(engine=BULLET), include("auv/model.sdf")),
                   "bullet.sdf")
    default = write(tmp_path, world(PHYSICS.format(engine=""), include("auv/model.sdf")),
                    "default.sdf")
    return auv, bullet, default


def _audit(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    status, out, err = run_cli(["audit", "--isolated", "--no-cache", "--select", "GZI6",
                                "--format", "json", *args], capsys)
    assert status in (0, 1), err
    data: dict[str, object] = json.loads(out)
    return data


def test_each_world_s_engine_judges_its_own_models(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    auv, bullet, default = _files(tmp_path)
    data = _audit([str(bullet), str(default), str(auv)], capsys)
    findings = data["findings"]
    assert isinstance(findings, list)
    assert [f["code"] for f in findings] == ["GZI601"]
    (found,) = findings
    assert found["file"] == str(auv) and f"world {bullet}:4" in found["message"]
    assert found["values"]["target"]["engine"] == "bullet-featherstone"
    # the default world alone, and the model alone: nothing (dartsim applies the element)
    assert _audit([str(default), str(auv)], capsys)["findings"] == []


def test_the_report_says_each_target_files_were_judged_under(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    auv, bullet, default = _files(tmp_path)
    targets = _audit([str(bullet), str(default), str(auv)], capsys)["targets"]
    assert isinstance(targets, list)
    assert [(t["engine"], t["engine_origin"]) for t in targets] == [
        ("dartsim", "default"), ("bullet-featherstone", f"world {bullet}:4")]
    status, out, err = run_cli(["audit", "--isolated", "--no-cache", "--select", "GZI6",
                                str(bullet), str(default), str(auv)], capsys)
    assert status == 0, err  # GZI601 (on the model in the bullet world) is a warning
    lines = [line for line in out.splitlines() if line.startswith("target:")]
    assert len(lines) == 2 and "bullet-featherstone" in lines[1] and str(bullet) in lines[1]
    assert "dartsim (default)" in lines[0]
    # a world naming no engine, or the run's own, adds no line
    targets = _audit([str(default), str(auv)], capsys)["targets"]
    assert isinstance(targets, list) and len(targets) == 1
