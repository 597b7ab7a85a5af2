"""GZI601-GZI603: what the target Gazebo release and engine do with the file, each rule with a
planted case and a clean twin, and the table's rows they use checked against the code the rows
cite (the Hydrodynamics damping law before and after gazebosim/gz-sim#1784, transcribed)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hydro_oracles import gz_hydrodynamics_wrench
from sdf_builders import hydro_plugin, inertial, link, model, write

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import Finding
from gzinertia.audit.rules import RULES
from gzinertia.audit.runner import audit
from gzinertia.gazebo.releases import CHANGES, RELEASES
from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.hydrodynamics_terms import FORCE_AXES, VELOCITY_AXES
from gzinertia.wording import number

I_HULL = np.diag([0.1, 1.0, 1.0])
A_HULL = np.diag([1.0, 9.0, 9.0, 0.01, 0.5, 0.5])


def _found(path: Path, code: str, target: Target = DEFAULT_TARGET) -> list[Finding]:
    config = AuditConfig(known_codes=frozenset(RULES), target=target)
    result = audit([str(path)], config)
    assert not result.files_with("error"), result.files
    return [f for f in result.findings if f.code == code]


def _with_added_mass(tmp_path: Path) -> Path:
    return write(tmp_path, model(link("hull", inertial(10.0, I_HULL, A=A_HULL)), version="1.11"))


def _world(engine_file: str | None, body: str) -> str:
    engine = "" if engine_file is None else f"<engine><filename>{engine_file}</filename></engine>"
    return (
        '<?xml version="1.0"?>\n<sdf version="1.11">\n<world name="w">\n'
        '<plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics">'
        f"{engine}</plugin>\n<model name=\"auv\">{body}</model>\n</world>\n</sdf>\n"
    )


# ------------------------------------------------------------------------------------- GZI601
@pytest.mark.parametrize("engine", ["bullet", "bullet-featherstone", "tpe"])
def test_gzi601_an_engine_other_than_dartsim_loses_the_added_mass(tmp_path: Path,
                                                                   engine: str) -> None:
    target = Target(engine=engine, engine_origin="command line")
    (found,) = _found(_with_added_mass(tmp_path), "GZI601", target)
    assert found.values["lost_kg"] == A_HULL[1, 1]  # the largest translational term
    assert f"{number(90.0)} % of its {number(10.0)} kg" in found.message
    assert f"engine {engine} (command line)" in found.message
    assert found.values["target"]["engine"] == engine


def test_gzi601_fortress_never_passes_it_on_even_to_dartsim(tmp_path: Path) -> None:
    target = Target(release="fortress", release_origin="command line")
    (found,) = _found(_with_added_mass(tmp_path), "GZI601", target)
    assert "ignition-gazebo6 does not pass it" in found.message
    assert not CHANGES["fluid-added-mass-read"].in_release("fortress")


@pytest.mark.parametrize("release", ["garden", "harmonic", "ionic", "jetty"])
def test_gzi601_clean_twin_dartsim_from_garden(tmp_path: Path, release: str) -> None:
    assert _found(_with_added_mass(tmp_path), "GZI601", Target(release=release)) == []


def test_gzi601_the_world_names_the_engine_and_the_command_line_wins(tmp_path: Path) -> None:
    body = link("hull", inertial(10.0, I_HULL, A=A_HULL))
    world = write(tmp_path, _world("gz-physics-bullet-featherstone-plugin", body), "w.sdf")
    (found,) = _found(world, "GZI601")
    assert f"engine bullet-featherstone (world {world}:4)" in found.message
    chosen = Target(engine="dartsim", engine_origin="command line")
    assert _found(world, "GZI601", chosen) == []
    # a Physics system naming no engine: gz-sim's default, dartsim
    default = write(tmp_path, _world(None, body), "d.sdf")
    assert _found(default, "GZI601") == []
    assert _found(default, "GZI601", Target(engine="tpe", engine_origin="command line"))


# ------------------------------------------------------------------------------------- GZI602
def _plugin_added_mass(tmp_path: Path) -> Path:
    terms = {"xDotU": -1.0, "yDotV": -9.0, "zDotW": -9.0}
    return write(tmp_path, model(link("hull", inertial(10.0, I_HULL)),
                                 hydro_plugin("hull", terms), version="1.11"))


@pytest.mark.parametrize("release", list(RELEASES))
def test_gzi602_from_the_release_that_deprecates_it(tmp_path: Path, release: str) -> None:
    found = _found(_plugin_added_mass(tmp_path), "GZI602", Target(release=release))
    deprecated = CHANGES["hydro-added-mass-deprecated"].in_release(release)
    assert bool(found) == deprecated == (release in ("ionic", "jetty"))
    if found:
        assert found[0].values["added_mass_diagonal"] == [1.0, 9.0, 9.0, 0.0, 0.0, 0.0]
        assert "gazebosim/gz-sim#2493" in found[0].message


def test_gzi602_other_engines_have_only_the_plugin(tmp_path: Path) -> None:
    target = Target(engine="bullet-featherstone", engine_origin="settings")
    assert _found(_plugin_added_mass(tmp_path), "GZI602", target) == []


def test_gzi602_clean_twin_disabled_or_moved(tmp_path: Path) -> None:
    terms = {"xDotU": -1.0}
    off = model(link("hull", inertial(10.0, I_HULL)), hydro_plugin("hull", terms, disable=True))
    assert _found(write(tmp_path, off), "GZI602") == []
    moved = model(link("hull", inertial(10.0, I_HULL, A=A_HULL)), version="1.11")
    assert _found(write(tmp_path, moved), "GZI602") == []


# ------------------------------------------------------------------------------------- GZI603
def _gz_wrench_before_1784(params: dict[str, float], state: np.ndarray) -> np.ndarray:
    """The damping wrench of gz-sim's Hydrodynamics before gazebosim/gz-sim#1784 (parent of
    713516dfe, ``PreUpdate``): ``Dmat(i,i) = -param_i - param_ii·|state_i|`` for the six
    diagonal pairs (``xU``/``xUU`` ... ``nR``/``nRR``, defaults 20 and 0 then: here 0 and
    given), ``kDvec = Dmat·state``, the wrench ``-kDvec``."""
    D = np.zeros((6, 6))
    for i in range(6):
        name = FORCE_AXES[i] + VELOCITY_AXES[i]
        D[i, i] = -params.get(name, 0.0) - params.get(name + VELOCITY_AXES[i], 0.0) * abs(state[i])
    return -(D @ state)


def test_gzi603_rows_as_the_cited_code_computes_them() -> None:
    """``<xUU>`` drags both ways before #1784 and only one way after; ``<xUabsU>`` after is
    the old ``<xUU>`` exactly (the rename GZI603 asks for)."""
    old = {"xUU": -6.2}
    renamed = {"xUabsU": -6.2}
    for u in (-1.5, 0.7):
        state = np.array([u, 0, 0, 0, 0, 0.0])
        before = _gz_wrench_before_1784(old, state)
        after, _ = gz_hydrodynamics_wrench(old, np.eye(3), state[:3], state[3:])
        fixed, _ = gz_hydrodynamics_wrench(renamed, np.eye(3), state[:3], state[3:])
        assert before[0] * u < 0  # drag: opposes the motion
        assert after[0] == pytest.approx(-6.2 * u * u)  # one sign whichever way
        assert fixed[0] == pytest.approx(before[0], rel=1e-15)


def _xuu(tmp_path: Path, terms: dict[str, float]) -> Path:
    return write(tmp_path, model(link("hull", inertial(10.0, I_HULL)),
                                 hydro_plugin("hull", terms, disable=True)))


@pytest.mark.parametrize("release", list(RELEASES))
def test_gzi603_planted(tmp_path: Path, release: str) -> None:
    path = _xuu(tmp_path, {"xUU": -6.2, "nRR": -1.0})
    (found,) = _found(path, "GZI603", Target(release=release))
    assert found.values["terms"] == {"xUU": -6.2, "nRR": -1.0}
    assert "rename it <xUabsU> (and likewise <nRR>)" in found.message
    lines = path.read_text().splitlines()
    assert "<xUU>" in lines[found.line - 1]  # the line of the <xUU> element


@pytest.mark.parametrize("terms", [{"xUabsU": -6.2}, {"xUU": -6.2, "xUabsU": -1.0},
                                   {"xUV": -1.0}, {"xUU": 0.0}])
def test_gzi603_clean_twins(tmp_path: Path, terms: dict[str, float]) -> None:
    assert _found(_xuu(tmp_path, terms), "GZI603") == []


def test_every_release_has_1784_so_a_release_without_it_stays_silent(tmp_path: Path) -> None:
    assert all(CHANGES["hydro-signed-quadratic"].in_release(r) for r in RELEASES)
    stripped = replace(CHANGES["hydro-signed-quadratic"], first={})
    assert not stripped.in_release("jetty")


def test_gzi602_not_in_urdf_which_cannot_carry_fluid_added_mass(tmp_path: Path) -> None:
    urdf = (
        '<robot name="auv"><link name="hull"><inertial><mass value="10"/>'
        '<inertia ixx="0.1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'
        '<gazebo><plugin filename="gz-sim-hydrodynamics-system" '
        'name="gz::sim::systems::Hydrodynamics"><link_name>hull</link_name>'
        "<xDotU>-1</xDotU></plugin></gazebo></robot>\n"
    )
    path = write(tmp_path, urdf, "auv.urdf")
    config = AuditConfig(known_codes=frozenset(RULES))
    result = audit([str(path)], config)
    assert not result.files_with("error"), result.files
    assert "GZI602" not in {f.code for f in result.findings}
    sdf = write(tmp_path, model(link("hull", inertial(10.0, I_HULL)),
                                hydro_plugin("hull", {"xDotU": -1.0})))
    assert _found(sdf, "GZI602")  # the same plugin in SDFormat


def test_gzi205_only_where_the_engine_applies_fluid_added_mass(tmp_path: Path) -> None:
    both = write(tmp_path, model(link("hull", inertial(10.0, I_HULL, A=A_HULL)),
                                 hydro_plugin("hull", {"xDotU": -1.0}), version="1.11"))
    assert _found(both, "GZI205")
    bullet = Target(engine="bullet", engine_origin="command line")
    assert _found(both, "GZI205", bullet) == []  # counted once: by the plugin
    assert _found(both, "GZI601", bullet)  # and the element is said to be ignored
