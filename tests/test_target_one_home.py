"""One home for the target of a command other than the audit (issue 28: "each release and engine
... used by ... the editing commands (write what the target release reads)").

Every command and library function that reads or edits one file resolves its target as the audit
resolves it for that file (:func:`gzinertia.audit.target_choice.file_target`): the names given,
else the nearest settings file's ``gazebo``/``engine``, the engine else the world's Physics
system, else the default. So the library's edits and ``convert`` read the settings as the
command line's ``addmass`` and ``hydro`` did, and an edit of a world writes for that world's
engine. Oracle: the audit's own findings on the edited file (the edit adds none).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from audit_helpers import run
from conftest import run_cli
from sdf_builders import hydro_plugin, inertial, link, model, nested_model, sphere, world

import gzinertia
from gzinertia.audit.target_choice import file_target, shown_target
from gzinertia.errors import SettingError

PHYSICS = ('<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics">'
           "<engine><filename>gz-physics-bullet-featherstone-plugin</filename></engine>"
           "</plugin>")


def _auv(tmp_path: Path, name: str = "auv.sdf") -> Path:
    """A 30 kg sphere with no added mass yet (``addmass`` writes ``<fluid_added_mass>``)."""
    path = tmp_path / name
    path.write_text(model(link("hull", inertial(30.0, np.eye(3)), sphere(0.2))))
    return path


def _codes(path: Path) -> set[str]:
    """The audit's codes on ``path``, under the settings beside it (as a user runs it)."""
    return {f.code for f in run([path]).findings}


def test_the_library_edit_reads_the_settings_as_the_audit_does(tmp_path: Path) -> None:
    path = _auv(tmp_path)
    (tmp_path / ".gzinertia.toml").write_text('engine = "bullet-featherstone"\n')
    with pytest.raises(SettingError) as refused:
        gzinertia.addmass(path)
    assert refused.value.key == "engine" and "bullet-featherstone" in str(refused.value)
    # named in the call, the keyword wins over the settings
    edit = gzinertia.addmass(path, engine="dartsim")
    assert edit.links and edit.changed


def test_convert_reads_the_settings_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``convert --hydro-to-sdf`` under a settings file that names bullet-featherstone is
    refused (the element it writes is ignored there: GZI601), as it is with ``--engine``."""
    path = tmp_path / "auv.sdf"
    path.write_text(model(link("hull", inertial(30.0, np.eye(3)), sphere(0.2)),
                          hydro_plugin("hull", {"xDotU": -5.0, "xU": -5.0})))
    before = path.read_bytes()
    (tmp_path / ".gzinertia.toml").write_text('engine = "bullet-featherstone"\n')
    status, _, err = run_cli(["convert", str(path), "--hydro-to-sdf", "--in-place"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "bullet-featherstone" in err and path.read_bytes() == before


def test_an_edit_of_a_world_writes_for_the_world_s_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A world whose Physics system loads bullet-featherstone ignores ``<fluid_added_mass>``:
    the audit reports GZI601 on it, so ``addmass`` of that world refuses to write it."""
    path = tmp_path / "pool.sdf"
    path.write_text(world(PHYSICS, nested_model("auv", link("hull", inertial(30.0, np.eye(3)),
                                                             sphere(0.2)))))
    before = path.read_bytes()
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert status == 2 and "bullet-featherstone" in err, err
    assert path.read_bytes() == before
    target = file_target(path, None, None)
    assert target.engine == "bullet-featherstone" and "pool.sdf" in target.engine_origin


def test_an_edit_then_the_audit_under_the_same_settings_adds_nothing(tmp_path: Path) -> None:
    path = _auv(tmp_path)
    (tmp_path / ".gzinertia.toml").write_text('gazebo = "harmonic"\n')
    before = _codes(path)
    gzinertia.addmass(path).write()
    assert _codes(path) - before == set()


def test_shown_only_when_named(tmp_path: Path) -> None:
    """``hydrostatics`` and ``show`` show a target only when a name or the settings give one;
    the target of an edit is always resolved (the default when nothing names one)."""
    path = _auv(tmp_path)
    assert shown_target(path, None, None) is None
    assert file_target(path, None, None).release_origin == "default"
    (tmp_path / ".gzinertia.toml").write_text('gazebo = "ionic"\n')
    shown = shown_target(path, None, None)
    assert shown is not None and shown == file_target(path, None, None)
    assert ".gzinertia.toml" in shown.release_origin
