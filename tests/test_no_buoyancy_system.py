"""A world without gz-sim's Buoyancy system gets no buoyancy (issue 24 item 7): gz-sim's
default server configuration (``include/gz/sim/server.config``: Physics, UserCommands,
SceneBroadcaster) loads none. ``hydrostatics`` and the audit say so, and show the floating
result only as "if a Buoyancy system were added"; a model file states its fluid as assumed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import sdf_builders as sdf
from audit_helpers import findings_of
from test_hostile_files import run_cli_limited

HULL = sdf.box_geometry((0.5, 0.5, 0.4))  # 0.1 m^3: 100 kg hovers in water


def vehicle(mass: float = 100.0, com_z: float = 0.05) -> str:
    """The link ``body``: G ``com_z`` above the centre of its 0.1 m^3 box hull."""
    return sdf.link("body", sdf.inertial(mass, np.eye(3), com=(0, 0, com_z)),
                    sdf.collision(HULL, sdf.ORIGIN, "hull"))


def a_world(*plugins: str, body: str | None = None) -> str:
    return sdf.world(*plugins, sdf.nested_model("rov", body or vehicle(),
                                                pose=(0, 0, -5, 0, 0, 0)))


def hydrostatics_json(path: Path, *args: str) -> dict[str, object]:
    proc = run_cli_limited(["hydrostatics", "--json", str(path), *args], cwd=path.parent)
    assert proc.returncode == 0, proc.stderr
    summary: dict[str, object] = json.loads(proc.stdout)
    return summary


def hydrostatics_text(path: Path, *args: str) -> str:
    proc = run_cli_limited(["hydrostatics", str(path), *args], cwd=path.parent)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_a_world_without_the_plugin_says_gazebo_applies_no_buoyancy(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, a_world(), "world.sdf")
    fluid = hydrostatics_json(path)["fluid"]
    assert isinstance(fluid, dict)
    assert fluid["buoyancy_system"] == "absent"
    assert fluid["caveat"] == ("no Buoyancy system: Gazebo applies no buoyancy; floating result "
                               "shown as if a Buoyancy system with rho=1000 kg/m^3 were added")
    text = hydrostatics_text(path)
    assert fluid["caveat"] in text
    assert "(if a Buoyancy system were added)" in text
    assert "Gazebo's default" not in text


def test_the_twin_with_the_plugin_has_no_caveat(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, a_world(sdf.buoyancy_plugin(1000.0)), "world.sdf")
    fluid = hydrostatics_json(path)["fluid"]
    assert isinstance(fluid, dict)
    assert fluid["buoyancy_system"] == "loaded" and fluid["caveat"] is None
    text = hydrostatics_text(path)
    assert "if a Buoyancy system" not in text and "assumed" not in text


def test_a_density_override_in_a_world_without_the_plugin_keeps_the_caveat(
    tmp_path: Path,
) -> None:
    path = sdf.write(tmp_path, a_world(), "world.sdf")
    fluid = hydrostatics_json(path, "--density", "1025")["fluid"]
    assert isinstance(fluid, dict)
    assert fluid["buoyancy_system"] == "absent" and "rho=1025 kg/m^3" in str(fluid["caveat"])


def test_a_model_file_states_its_fluid_as_assumed(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, sdf.model(vehicle(), name="rov"))
    fluid = hydrostatics_json(path)["fluid"]
    assert isinstance(fluid, dict)
    assert fluid["buoyancy_system"] == "unknown"
    assert "a model file does not name its world" in str(fluid["caveat"])
    # the world given apart decides: without the plugin, no buoyancy
    world = sdf.write(tmp_path, sdf.world(), "empty_world.sdf")
    fluid = hydrostatics_json(path, "--world", str(world))["fluid"]
    assert isinstance(fluid, dict)
    assert fluid["buoyancy_system"] == "absent"
    plugged = sdf.write(tmp_path, sdf.world(sdf.buoyancy_plugin(1025.0)), "sea.sdf")
    fluid = hydrostatics_json(path, "--world", str(plugged))["fluid"]
    assert isinstance(fluid, dict)
    assert fluid["buoyancy_system"] == "loaded" and fluid["density"] == 1025.0


def test_the_audit_says_gazebo_applies_no_buoyancy_in_a_world_without_the_plugin(
    tmp_path: Path,
) -> None:
    """GZI301 judges the near-neutral vehicle as before, saying the fluid is as if a Buoyancy
    system were added; GZI302 stays silent (a world without water: a crate, a person)."""
    text = a_world()
    (unstable,) = findings_of(tmp_path / "w", text, "GZI301")
    assert "as if a Buoyancy system of 1000 kg/m^3 were added" in unstable.message
    assert "Gazebo applies no buoyancy here" in unstable.message
    assert findings_of(tmp_path / "w", text, "GZI302") == []
    # the twin: the world loads the plugin; GZI301 names the world's fluid
    (unstable,) = findings_of(tmp_path / "p", a_world(sdf.buoyancy_plugin(1000.0)), "GZI301")
    assert "uniform fluid (1000 kg/m^3)" in unstable.message and "as if" not in unstable.message


def test_a_model_file_states_the_assumed_fluid_in_the_audit(tmp_path: Path) -> None:
    (unstable,) = findings_of(tmp_path, sdf.model(vehicle(), name="rov"), "GZI301")
    assert "in an assumed fluid of 1000 kg/m^3" in unstable.message
    assert findings_of(tmp_path, sdf.model(vehicle(), name="rov"), "GZI302") == []
