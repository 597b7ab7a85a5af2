"""``convert`` writes what its target applies (issue 28: "the editing commands write what the
target release reads; refuse with a reason what it would ignore"), so the audit under the same
target never contradicts it.

* ``--sdf-to-hydro`` under the default target (Jetty with dartsim, which applies
  ``<fluid_added_mass>`` and deprecates the plugin's added mass: gz-sim#2493) is refused in one
  line naming ``--engine`` and ``--gazebo``; for an engine that ignores the element, or an
  older release, it converts, and the audit under that target adds no finding.
* ``--hydro-to-sdf`` for an engine that ignores ``<fluid_added_mass>`` is refused (GZI601).
* The library refuses alike, with the setting's key.

Oracle: the audit's own findings under the same target (the table's rows are tested against
the repositories' history in tests/test_releases_target.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

import gzinertia
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.runner import audit
from gzinertia.errors import SettingError
from gzinertia.gazebo.target import named_target

BOX_ROV = EXAMPLES / "box_rov" / "model.sdf"


def _codes(path: Path, gazebo: str | None, engine: str | None) -> set[tuple[str, str | None]]:
    config = AuditConfig(known_codes=frozenset(RULE_INFOS), target=named_target(gazebo, engine))
    return {(f.code, f.link) for f in audit([str(path)], config).findings}


def test_sdf_to_hydro_is_refused_where_dart_applies_the_element(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.sdf"
    status, _, err = run_cli(["convert", str(BOX_ROV), "--sdf-to-hydro", "--sign", "fossen",
                              "-o", str(out)], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "GZI602" in err and "--engine bullet-featherstone" in err and not out.exists()
    assert "--gazebo harmonic" in err


@pytest.mark.parametrize(("gazebo", "engine"), [(None, "bullet-featherstone"), (None, "tpe"),
                                                ("harmonic", None), ("ionic", "bullet")])
def test_sdf_to_hydro_for_its_target_adds_no_finding_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gazebo: str | None, engine: str | None
) -> None:
    path = tmp_path / "model.sdf"
    path.write_bytes(BOX_ROV.read_bytes())
    target = [*(["--gazebo", gazebo] if gazebo else []), *(["--engine", engine] if engine else [])]
    before = _codes(path, gazebo, engine)
    status, _, err = run_cli(["convert", str(path), "--sdf-to-hydro", "--sign", "fossen",
                              "--in-place", *target], capsys)
    assert status == 0, err
    assert _codes(path, gazebo, engine) - before == set()


def test_hydro_to_sdf_is_refused_for_an_engine_that_ignores_the_element(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(["convert", str(BOX_ROV), "--hydro-to-sdf", "--engine", "tpe",
                              "--diff"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1 and "GZI601" in err, err


def test_the_library_refuses_with_the_setting_s_key() -> None:
    with pytest.raises(SettingError) as caught:
        gzinertia.convert(BOX_ROV, to="hydro", sign="fossen")
    assert caught.value.key == "engine" and 'engine="bullet-featherstone"' in str(caught.value)
    with pytest.raises(SettingError) as unknown:
        gzinertia.convert(BOX_ROV, to="hydro", sign="fossen", gazebo="kilted")
    assert unknown.value.key == "gazebo" and "jetty" in str(unknown.value)
    # The target's refusal lifts; box_rov's heave added mass (17.1 kg) exceeds its mass
    # (10.9 kg), beyond the plugin's explicit bound (GZI506): the link is left, said.
    with pytest.warns(gzinertia.GzInertiaWarning, match=r"w: added 17\.1248 > rigid 10\.9029"):
        edit = gzinertia.convert(BOX_ROV, to="hydro", sign="fossen", engine="bullet-featherstone")
    assert not edit.links
