"""``hydrostatics --gazebo/--engine`` (issue 28): the target in the text and the JSON, and each
collision's buoyancy as the target release computes it beside the exact geometry, against
closed forms (a cone: its volume ``π r² L / 3`` and its centroid a quarter of its length above
its base; a cylinder lying across a graded fluid's surface: half its volume in each layer, the
half below centred ``4r/3π`` under its axis); the settings' ``gazebo`` key; without a target
the output is what it was."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sdf_builders as sdf
from test_hostile_files import run_cli_limited

import gzinertia

R, L = 0.3, 1.2
V_CONE = math.pi * R * R * L / 3
G = 9.8


def _cone_model(tmp_path: Path) -> Path:
    cone = sdf.collision(sdf.cylinder_geometry(R, L, "cone"), (0, 0, 1.0, 0, 0, 0), name="nose")
    capsule = sdf.collision(sdf.cylinder_geometry(0.1, 0.5, "capsule"), (0, 2, 0, 0, 0, 0),
                            name="fin")
    body = sdf.link("hull", sdf.inertial(1000.0 * V_CONE, np.eye(3)), cone, capsule)
    return sdf.write(tmp_path, sdf.model(body, version="1.11", name="auv"))


def _json(tmp_path: Path, *args: str) -> dict[str, Any]:
    proc = run_cli_limited(["hydrostatics", "--json", *args], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_the_target_and_each_collision_beside_the_exact_geometry(tmp_path: Path) -> None:
    path = _cone_model(tmp_path)
    out = _json(tmp_path, str(path), "--gazebo", "jetty", "--engine", "dart")
    assert out["target"] == {"gazebo": "jetty", "gz_sim": "gz-sim10_10.4.0", "engine": "dartsim",
                             "gazebo_origin": "command line", "engine_origin": "command line"}
    release = out["release"]
    assert release["changes"] == {"graded-buoyancy-round-shapes": True,
                                  "gz-common-mesh-volume": False,
                                  "buoyancy-centroid-mesh-scale": False,
                                  "graded-buoyancy-rotated": False}
    assert "without gazebosim/gz-sim#3909" in release["assumption"]
    (link,) = release["links"]
    nose, fin = link["collisions"]
    assert nose["volume"] == pytest.approx(V_CONE, rel=1e-12)
    assert nose["buoyancy"] == pytest.approx(1000.0 * G * V_CONE, rel=1e-12)
    assert nose["p_WB"] == pytest.approx([0, 0, 1.0])  # its origin
    assert nose["p_WB_exact"] == pytest.approx([0, 0, 1.0 - L / 4])
    assert nose["offset"] == pytest.approx(L / 4, rel=1e-12)
    assert nose["with_unknown_changes"]["p_WB"] == pytest.approx([0, 0, 1.0 - L / 4])
    assert nose["causes"] == ["counted at its origin, not its centroid (before "
                              "gazebosim/gz-sim#3909)"]
    V_fin = math.pi * 0.01 * 0.5 + 4 / 3 * math.pi * 0.001
    assert fin["buoyancy"] == pytest.approx(1000.0 * G * V_fin, rel=1e-12)
    assert link["buoyancy"] == pytest.approx(nose["buoyancy"] + fin["buoyancy"], rel=1e-12)
    assert link["buoyancy_exact"] == pytest.approx(out["models"][0]["buoyancy_exact"], rel=1e-12)
    text = run_cli_limited(["hydrostatics", str(path), "--gazebo", "jetty"], cwd=tmp_path).stdout
    assert "target: Gazebo Jetty (gz-sim10_10.4.0, command line), engine dartsim (default)" in text
    assert "nose (cone): volume 0.1131 m^3, Gazebo 1108 N at (0, 0, 1) m, exact 1108 N at " \
           "(0, 0, 0.7) m: +0 %, 0.3 m apart; counted at its origin" in text


def test_garden_gives_the_capsule_nothing(tmp_path: Path) -> None:
    out = _json(tmp_path, str(_cone_model(tmp_path)), "--gazebo", "garden")
    nose, fin = out["release"]["links"][0]["collisions"]
    assert nose["buoyancy"] == fin["buoyancy"] == 0.0
    assert fin["relative"] == -1.0
    assert fin["causes"] == ["no buoyancy for a capsule before gazebosim/gz-sim#3423"]


def test_without_a_target_the_output_is_as_before(tmp_path: Path) -> None:
    path = _cone_model(tmp_path)
    out = _json(tmp_path, str(path))
    assert "target" not in out and "release" not in out
    text = run_cli_limited(["hydrostatics", str(path)], cwd=tmp_path).stdout
    assert "target:" not in text
    assert gzinertia.hydrostatics(path).release is None


def test_the_settings_gazebo_key_applies_as_in_audit(tmp_path: Path) -> None:
    path = _cone_model(tmp_path)
    (tmp_path / ".gzinertia.toml").write_text('gazebo = "ionic"\n')
    out = _json(tmp_path, str(path))
    assert out["target"]["gazebo"] == "ionic"
    assert out["target"]["gazebo_origin"].startswith("settings ")
    assert out["release"]["links"][0]["collisions"][0]["buoyancy"] == 0.0  # no cone in Ionic
    assert _json(tmp_path, str(path), "--gazebo", "jetty")["target"]["gazebo"] == "jetty"
    result = gzinertia.hydrostatics(path, gazebo="harmonic")
    assert result.release is not None and result.release.target.release == "harmonic"
    assert result.release.target.release_origin == "asked for"


def test_a_rotated_cylinder_across_a_graded_surface(tmp_path: Path) -> None:
    r, length = 0.2, 2.0
    V = math.pi * r * r * length
    body = sdf.link("hull", sdf.inertial(500.0 * V, np.eye(3)),
                    sdf.cylinder(r, length, (0, 0, 0, 0, math.pi / 2, 0)))
    plugin = sdf.buoyancy_plugin(default=1000.0, changes=[(0.0, 1.0)])
    path = sdf.write(tmp_path, sdf.world(plugin, sdf.nested_model("auv", body)), "world.sdf")
    out = _json(tmp_path, str(path), "--gazebo", "harmonic")
    (c,) = out["release"]["links"][0]["collisions"]
    assert c["buoyancy"] == pytest.approx(G * 1001.0 * V / 2, rel=1e-12)
    x = (1000.0 * -length / 4 + length / 4) / 1001.0  # sliced in its own axes (gz-sim#3892)
    assert c["p_WB"] == pytest.approx([x, 0, 0], abs=1e-12)
    z = (1000.0 - 1.0) * -4 * r / (3 * math.pi) / 1001.0
    assert c["p_WB_exact"] == pytest.approx([0, 0, z], abs=2e-4 * r)
    assert c["with_unknown_changes"]["p_WB"] == pytest.approx(c["p_WB_exact"], abs=1e-15)


def test_a_bad_target_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = _cone_model(tmp_path)
    for args in (["--gazebo", "nope"], ["--gazebo", "fortress", "--engine", "mujoco"]):
        proc = run_cli_limited(["hydrostatics", str(path), *args], cwd=tmp_path)
        assert proc.returncode == 2
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------------------- show
def _show(tmp_path: Path, *args: str) -> dict[str, Any]:
    proc = run_cli_limited(["show", "--json", *args], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return dict(json.loads(proc.stdout))


def test_show_says_what_the_target_applies(tmp_path: Path) -> None:
    A = np.diag([1.0, 9.0, 9.0, 0.01, 0.5, 0.5])
    cone = sdf.collision(sdf.cylinder_geometry(R, L, "cone"), (0, 0, 1.0, 0, 0, 0), name="nose")
    body = sdf.link("hull", sdf.inertial(10.0, np.eye(3), A=A), cone)
    path = sdf.write(tmp_path, sdf.model(body, version="1.11", name="auv"))
    assert "target" not in _show(tmp_path, str(path))
    (link,) = _show(tmp_path, str(path), "--engine", "bullet")["links"]
    assert link["gazebo"]["fluid_added_mass"].startswith("ignored: only dartsim reads it")
    assert link["gazebo"]["plugin_added_mass"] is None
    buoyancy = link["gazebo"]["buoyancy"]
    assert buoyancy["volume"] == pytest.approx(V_CONE, rel=1e-12)
    assert buoyancy["p_BoBv_B"] == pytest.approx([0, 0, 1.0])
    assert buoyancy["p_BoBv_B_exact"] == pytest.approx([0, 0, 1.0 - L / 4])
    assert buoyancy["causes"] == ["nose: counted at its origin, not its centroid (before "
                                  "gazebosim/gz-sim#3909)"]
    out = _show(tmp_path, str(path), "--gazebo", "ionic")
    assert out["target"]["engine"] == "dartsim" and out["target"]["gazebo"] == "ionic"
    (link,) = out["links"]
    assert link["gazebo"]["fluid_added_mass"].startswith("applied: dartsim")
    assert link["gazebo"]["buoyancy"]["volume"] == 0.0  # no cone in Ionic's newest tag
    text = run_cli_limited(["show", str(path), "--gazebo", "ionic"], cwd=tmp_path).stdout
    assert "target: Gazebo Ionic (gz-sim9_9.5.0, command line), engine dartsim (default)" in text
    assert "nose: no buoyancy for a cone before gazebosim/gz-sim#3423" in text
