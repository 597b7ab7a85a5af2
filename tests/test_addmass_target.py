"""``addmass`` writes what its target applies (issue 28: "the editing commands write what the
target release reads; refuse with a reason what it would ignore"), so the audit under the same
target adds no finding.

* SDFormat: ``<fluid_added_mass>`` is refused, in one line naming the way out, where the target
  ignores it (an engine other than dartsim, a release before Garden: GZI601); naming
  ``--engine dartsim`` is how to write it anyway.
* URDF/xacro: the Hydrodynamics plugin's added mass, which every engine gets (GZI602 is not for
  URDF, which cannot carry the element): written whatever the target.
* The target comes from ``--gazebo``/``--engine``, else the settings' ``gazebo``/``engine``
  (as the audit reads them), else the default (Jetty with dartsim).

Oracle: the audit's own findings under the same target.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sb
from conftest import EXAMPLES, run_cli

import gzinertia
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.runner import audit
from gzinertia.errors import SettingError
from gzinertia.gazebo.target import named_target

BOX_ROV = EXAMPLES / "box_rov" / "model.sdf"

URDF = """<robot name="auv">
  <link name="hull">
    <inertial><mass value="500"/><inertia ixx="30" ixy="0" ixz="0" iyy="200" iyz="0" izz="200"/>
    </inertial>
    <collision><geometry><box size="2 0.5 0.4"/></geometry></collision>
  </link>
</robot>
"""


def _codes(path: Path, gazebo: str | None, engine: str | None) -> set[tuple[str, str | None]]:
    config = AuditConfig(known_codes=frozenset(RULE_INFOS), target=named_target(gazebo, engine))
    return {(f.code, f.link) for f in audit([str(path)], config).findings}


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "model.sdf"
    path.write_bytes(BOX_ROV.read_bytes())
    return path


@pytest.mark.parametrize(("gazebo", "engine"), [(None, "bullet-featherstone"), (None, "tpe"),
                                                ("fortress", None), ("harmonic", "bullet")])
def test_sdf_addmass_is_refused_where_the_target_ignores_the_element(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gazebo: str | None, engine: str | None
) -> None:
    path = _copy(tmp_path)
    target = [*(["--gazebo", gazebo] if gazebo else []), *(["--engine", engine] if engine else [])]
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place", *target],
                             capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "GZI601" in err and "--engine dartsim" in err and "--sdf-to-hydro" in err
    assert path.read_bytes() == BOX_ROV.read_bytes()


@pytest.mark.parametrize(("gazebo", "engine"), [(None, None), ("garden", "dartsim"),
                                                ("harmonic", "dart")])
def test_sdf_addmass_for_a_target_that_applies_it_adds_no_finding_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gazebo: str | None, engine: str | None
) -> None:
    path = _copy(tmp_path)
    target = [*(["--gazebo", gazebo] if gazebo else []), *(["--engine", engine] if engine else [])]
    before = _codes(path, gazebo, engine)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place", "--link",
                              "box_rov::base_link", *target], capsys)
    assert status == 0, err
    assert path.read_bytes() != BOX_ROV.read_bytes()
    assert _codes(path, gazebo, engine) - before == set()


@pytest.mark.parametrize("engine", ["bullet-featherstone", "tpe", "dartsim"])
def test_urdf_addmass_writes_the_plugin_for_every_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    path = tmp_path / "auv.urdf"
    path.write_text(URDF)
    before = _codes(path, None, engine)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place", "--engine",
                              engine], capsys)
    assert status == 0, err
    assert "<link_name>hull</link_name>" in path.read_text()
    assert _codes(path, None, engine) - before == set()


def test_the_settings_name_the_target_and_the_command_line_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _copy(tmp_path)
    (tmp_path / ".gzinertia.toml").write_text('engine = "bullet-featherstone"\n')
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--diff"], capsys)
    assert status == 2 and "bullet-featherstone" in err and "GZI601" in err, err
    status, out, err = run_cli(["addmass", str(path), "--ellipsoid", "--diff", "--engine",
                                "dartsim"], capsys)
    assert status == 0 and "<fluid_added_mass>" in out, err
    # a name the table does not hold: one line naming the settings file
    (tmp_path / ".gzinertia.toml").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.gzinertia]\ngazebo = "kilted"\n')
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--diff"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "pyproject.toml" in err and "jetty" in err


def test_the_library_refuses_with_the_setting_s_key(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    for function in (gzinertia.addmass, gzinertia.addmass_bem):
        with pytest.raises(SettingError) as caught:
            function(path, engine="tpe")
        assert caught.value.key == "engine" and 'engine="dartsim"' in str(caught.value)
        assert 'convert(to="hydro")' in str(caught.value)
    with pytest.raises(SettingError) as refused:
        gzinertia.addmass_from(path, tmp_path / "none.nc", link="*base_link", gazebo="fortress")
    assert refused.value.key == "engine" and "Fortress" in str(refused.value)
    with pytest.raises(SettingError) as unknown:
        gzinertia.addmass(path, gazebo="kilted")
    assert unknown.value.key == "gazebo"


def _element_and_plugin_added_mass(tmp_path: Path) -> Path:
    """A 40 kg link with <fluid_added_mass> and a Hydrodynamics plugin applying added mass of
    its own (within GZI506's bound)."""
    A = np.diag([5.0, 5.0, 8.0, 0.1, 0.1, 0.1])
    body = sb.link("hull", sb.inertial(40.0, np.eye(3) * 2.0, A=A), sb.sphere(0.2))
    plugin = sb.hydro_plugin("hull", {"xDotU": -5.0, "yDotV": -5.0, "zDotW": -8.0})
    return sb.write(tmp_path, sb.model(body, plugin, name="auv"), "auv.sdf")


def test_hydro_leaves_the_plugin_s_added_mass_on_where_the_element_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _element_and_plugin_added_mass(tmp_path)
    before = _codes(path, None, "bullet-featherstone")
    status, _, err = run_cli(["hydro", str(path), "--link", "*hull", "--engine",
                              "bullet-featherstone", "--in-place"], capsys)
    assert status == 0, err
    assert "disable_added_mass" not in path.read_text()
    assert "GZI601" in err and "--sdf-to-hydro" in err
    (plugin,) = gzinertia.read(path).links[0].hydrodynamics
    assert not plugin.disable_added_mass and plugin.terms["zDotW"] == -8.0
    assert _codes(path, None, "bullet-featherstone") - before == set()
    # under the default (dartsim applies the element) the plugin's own is turned off, as before
    again = _element_and_plugin_added_mass(tmp_path)
    status, _, err = run_cli(["hydro", str(again), "--link", "*hull", "--in-place"], capsys)
    assert status == 0 and "<disable_added_mass>true</disable_added_mass>" in again.read_text()
