"""``audit --gazebo A --gazebo B``: the findings that differ between two targets (a migration
check), from the library (:func:`gzinertia.audit.migration.target_change`) and the command line,
text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from sdf_builders import hydro_plugin, inertial, link, model, write

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.migration import target_change
from gzinertia.audit.rules import RULES
from gzinertia.audit.runner import audit
from gzinertia.gazebo.target import Target

I_HULL = np.diag([0.1, 1.0, 1.0])


def _files(tmp_path: Path) -> tuple[Path, Path]:
    """A model with plugin added mass (GZI602 from Ionic on, with dartsim) and one with
    ``<fluid_added_mass>`` (GZI601 on Fortress, which never passes it on)."""
    plugin = write(tmp_path, model(link("hull", inertial(10.0, I_HULL)),
                                   hydro_plugin("hull", {"xDotU": -1.0})), "plugin.sdf")
    element = write(tmp_path, model(link("hull", inertial(10.0, I_HULL, A=np.eye(6))),
                                    version="1.11"), "element.sdf")
    return plugin, element


def _audit(paths: list[Path], release: str) -> object:
    config = AuditConfig(known_codes=frozenset(RULES), target=Target(release=release))
    return audit([str(p) for p in paths], config)


def test_the_change_is_the_difference_of_the_two_audits(tmp_path: Path) -> None:
    paths = list(_files(tmp_path))
    fortress, jetty = _audit(paths, "fortress"), _audit(paths, "jetty")
    change = target_change(fortress, jetty)  # type: ignore[arg-type]
    assert [(f.code, Path(f.file).name) for f in change.gone] == [("GZI601", "element.sdf")]
    assert [(f.code, Path(f.file).name) for f in change.new] == [("GZI602", "plugin.sdf")]
    same = target_change(jetty, jetty)  # type: ignore[arg-type]
    assert same.gone == () and same.new == ()
    # what both raise is not listed: the rest of the findings are the same under both
    both = {(f.code, f.file, f.line) for f in fortress.findings} & {  # type: ignore[attr-defined]
        (f.code, f.file, f.line) for f in jetty.findings}  # type: ignore[attr-defined]
    listed = {(f.code, f.file, f.line) for f in (*change.gone, *change.new)}
    assert not both & listed


def test_the_command_line_text_and_json(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    plugin, element = _files(tmp_path)
    args = ["audit", "--isolated", "--no-cache", "--gazebo", "harmonic", "--gazebo", "ionic",
            str(plugin), str(element)]
    status, out, err = run_cli([*args, "--format", "text"], capsys)
    assert status == 0, err  # a warning is below the default fail-on
    lines = out.splitlines()
    assert lines[0] == "from: Gazebo Harmonic (gz-sim8_8.14.0, command line), engine dartsim (default)"
    assert lines[1] == "to: Gazebo Ionic (gz-sim9_9.5.0, command line), engine dartsim (default)"
    assert [line[:2] for line in lines[2:-1]] == ["+ "] and "GZI602" in lines[2]
    assert lines[-1] == "0 findings gone, 1 finding new."
    status, out, _ = run_cli([*args, "--format", "json"], capsys)
    data = json.loads(out)
    assert data["from"]["gazebo"] == "harmonic" and data["to"]["gazebo"] == "ionic"
    assert [f["code"] for f in data["new"]] == ["GZI602"] and data["gone"] == []
    status, _, err = run_cli([*args, "--fail-on", "warning"], capsys)
    assert status == 1  # a new warning fails a run that fails on warnings


def test_three_targets_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin, _ = _files(tmp_path)
    status, out, err = run_cli(["audit", "--isolated", "--gazebo", "garden", "--gazebo",
                                "harmonic", "--gazebo", "jetty", str(plugin)], capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--gazebo" in err
