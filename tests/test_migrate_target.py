"""``migrate`` under a target (issue 28: "the editing commands write what the target release reads;
refuse with a reason what it would ignore"; issue 27: "a migrated file passes the tool's own
audit and the edit→audit invariant").

An SDFormat file's added mass migrates to ``<fluid_added_mass>``, which only dartsim applies
(gz-physics; GZI601): under another engine, or a release before Garden, that is refused in one
line naming the way out, from ``--engine``/``--gazebo``, the settings, or the world's Physics
system. A URDF's added mass goes to the Hydrodynamics plugin, which every engine gets: migrated
under any target. Oracle: the audit's findings under the same target.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from test_migrate_command import VEHICLES, _urdf, _vehicle

import gzinertia
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.runner import audit
from gzinertia.errors import SettingError
from gzinertia.gazebo.target import named_target


def _codes(path: Path, gazebo: str | None, engine: str | None) -> set[tuple[str, str | None]]:
    config = AuditConfig(known_codes=frozenset(RULE_INFOS), target=named_target(gazebo, engine))
    return {(f.code, f.link) for f in audit([str(path)], config).findings}


@pytest.mark.parametrize(("gazebo", "engine"), [(None, "bullet-featherstone"), (None, "tpe"),
                                                ("fortress", None)])
def test_sdf_migration_is_refused_where_the_target_ignores_the_element(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gazebo: str | None, engine: str | None
) -> None:
    path = _vehicle(tmp_path, "lauv")
    before = path.read_bytes()
    named = [*(["--gazebo", gazebo] if gazebo else []), *(["--engine", engine] if engine else [])]
    status, _, err = run_cli(["migrate", str(path), *named, "--in-place"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "GZI601" in err and "--sdf-to-hydro" in err and "--engine dartsim" in err
    assert path.read_bytes() == before
    with pytest.raises(SettingError) as refused:
        gzinertia.migrate(path, gazebo=gazebo, engine=engine)
    assert refused.value.key == "engine" and 'to="hydro"' in str(refused.value)


@pytest.mark.parametrize("name", ["lauv", "tethys"])
def test_sdf_migration_for_a_target_that_applies_it_adds_no_finding_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = _vehicle(tmp_path, name)
    before = _codes(path, "harmonic", "dartsim")
    status, _, err = run_cli(["migrate", str(path), "--gazebo", "harmonic", "--engine",
                              "dartsim", "--in-place"], capsys)
    assert status == 0, err
    assert _codes(path, "harmonic", "dartsim") - before == set()


def test_the_settings_name_the_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _vehicle(tmp_path, "lauv")
    (tmp_path / ".gzinertia.toml").write_text('engine = "bullet-featherstone"\n')
    status, _, err = run_cli(["migrate", str(path), "--diff"], capsys)
    assert status == 2 and "bullet-featherstone" in err and ".gzinertia.toml" in err, err
    status, _, err = run_cli(["migrate", str(path), "--engine", "dartsim", "--diff"], capsys)
    assert status == 0, err  # the command line wins


def test_urdf_migrates_under_any_engine_and_the_audit_there_adds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    block, mass, _collision, inertia, _pose = VEHICLES["lauv"]
    path = _urdf(tmp_path, block, mass, inertia, "0 0 0")
    before = _codes(path, None, "bullet-featherstone")
    status, _, err = run_cli(["migrate", str(path), "--engine", "bullet-featherstone",
                              "--in-place"], capsys)
    assert status == 0, err
    assert _codes(path, None, "bullet-featherstone") - before == set()
