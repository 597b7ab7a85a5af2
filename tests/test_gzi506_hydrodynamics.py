"""GZI506 judges gz-sim's Hydrodynamics plugin too (issue 28: "plugin added mass ... where it
exceeds the stability bound"), and the edits that write plugin added mass refuse the links
beyond the bound, so that an edit followed by an audit adds no finding.

Oracle: the plugin's added-mass step re-implemented from gz-sim's source
(``src/systems/hydrodynamics/Hydrodynamics.cc``, ``PreUpdate``: ``stateDot = (state -
prevState)/dt``, ``kAmassVec = -Ma·stateDot``, the wrench ``-kTotalWrench`` applied at the link
origin by ``Link::AddWorldWrench``), integrated with a rigid body about its origin: the motion
diverges exactly on the axes the rule names.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from audit_helpers import findings_of, run
from conftest import run_cli
from sdf_builders import hydro_plugin, inertial, link, model, sphere

import gzinertia
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.runner import audit
from gzinertia.gazebo.target import named_target

#: gz-sim's plugin terms on the diagonal, linear-first.
DIAGONAL = ("xDotU", "yDotV", "zDotW", "kDotP", "mDotQ", "nDotR")


def _explicit_growth(M: np.ndarray, D: np.ndarray, steps: int = 400) -> float:
    """The plugin's explicit added mass (force ``+D·(ν_n - ν_{n-1})/dt``, ``D`` its ``<iDotJ>``
    matrix) on a rigid body ``M`` (about the origin, link axes, linear-first), integrated
    under a constant unit force from rest: the largest velocity change of the last step over
    the first (>> 1: divergence; the plugin's Coriolis and damping left out, at rest they
    vanish)."""
    dt = 1e-3
    f = np.ones(6)
    prev = state = np.zeros(6)
    first = last = 0.0
    for n in range(steps):
        state_dot = (state - prev) / dt
        force = f + D @ state_dot  # -kTotalWrench, kTotalWrench = -Ma·stateDot
        nxt = state + dt * np.linalg.solve(M, force)
        change = float(np.max(np.abs(nxt - state)))
        first = change if n == 0 else first
        last = change
        prev, state = state, nxt
    return last / first


def _auv(terms: dict[str, float], mass: float = 10.0, moments: float = 1.0,
         version: str = "1.9", extra: str = "") -> str:
    body = link("body", inertial(mass, np.eye(3) * moments), sphere(0.1), extra)
    return model(body, hydro_plugin("body", terms), version=version)


@pytest.mark.parametrize("diagonal", [(-12.0, -5.0, 0.0, 0.0, 0.0, 0.0),
                                      (-3.0, -3.0, -30.0, -0.5, -2.0, -0.1),
                                      (-9.0, -9.0, -9.0, -0.9, -0.9, -0.9)])
def test_the_rule_names_the_axes_on_which_gz_sim_s_step_diverges(
    tmp_path: Path, diagonal: tuple[float, ...]
) -> None:
    mass, moment = 10.0, 1.0
    M = np.diag([mass] * 3 + [moment] * 3)
    D = np.diag(diagonal)
    diverging = [axis for axis, k in zip("uvwpqr", range(6), strict=True)
                 if _explicit_growth(M, np.diag(np.eye(6)[k] * np.diag(D))) > 1e3]
    found = findings_of(tmp_path, _auv(dict(zip(DIAGONAL, diagonal, strict=True))), "GZI506")
    named = [axis for axis in "uvwpqr" if f"{axis}: added" in (found[0].message if found else "")]
    assert named == diverging
    if found:
        assert "gz-sim's Hydrodynamics plugin" in found[0].message
        np.testing.assert_allclose(found[0].values["rigid_diagonal"], np.diag(M))


def test_the_angular_bound_is_the_inertia_about_the_link_origin(tmp_path: Path) -> None:
    """A centre of mass 0.5 m off the origin along x: the pitch inertia about Bo is
    1 + 10·0.25 = 3.5, the bound gz-sim's wrench (applied at the origin) meets."""
    body = link("body", inertial(10.0, np.eye(3), com=(0.5, 0.0, 0.0)), sphere(0.1))
    text = model(body, hydro_plugin("body", {"mDotQ": -3.0, "nDotR": -4.0}), version="1.9")
    (found,) = findings_of(tmp_path, text, "GZI506")
    assert "r: added 4 > rigid 3.5" in found.message and "q:" not in found.message


def test_disabled_added_mass_is_not_judged(tmp_path: Path) -> None:
    body = link("body", inertial(10.0, np.eye(3)), sphere(0.1))
    text = model(body, hydro_plugin("body", {"xDotU": -50.0}, disable=True), version="1.9")
    assert findings_of(tmp_path, text, "GZI506") == []


def test_a_urdf_hydrodynamics_block_is_judged(tmp_path: Path) -> None:
    path = tmp_path / "rov.urdf"
    path.write_text(
        '<robot name="rov"><link name="body"><inertial><mass value="2"/>'
        '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>'
        '<gazebo><plugin filename="gz-sim-hydrodynamics-system" '
        'name="gz::sim::systems::Hydrodynamics"><link_name>body</link_name>'
        "<zDotW>-3</zDotW></plugin></gazebo></robot>")
    (found,) = [f for f in run([path]).findings if f.code == "GZI506"]
    assert "w: added 3 > rigid 2" in found.message and found.link == "rov::body"


def _codes(path: Path, engine: str | None = None) -> set[tuple[str, str | None]]:
    config = AuditConfig(known_codes=frozenset(RULE_INFOS), target=named_target(None, engine))
    return {(f.code, f.link) for f in audit([str(path)], config).findings}


def _sdf_with_large_added_mass(tmp_path: Path) -> Path:
    """Two 10 kg floats with <fluid_added_mass> and a Hydrodynamics plugin each: ``big``'s
    heave added mass (30 kg) exceeds its mass, ``small``'s (5 kg) does not."""
    parts = []
    for name, heave, x in (("big", 30.0, 0.0), ("small", 5.0, 2.0)):
        A = np.diag([1.0, 1.0, heave, 0.1, 0.1, 0.1])
        parts += [link(name, inertial(10.0, np.eye(3), A=A), sphere(0.2), pose=(x, 0, 0, 0, 0, 0)),
                  hydro_plugin(name, {"xU": -5.0})]
    path = tmp_path / "float.sdf"
    path.write_text(model(*parts))
    return path


def test_sdf_to_hydro_refuses_a_link_beyond_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _sdf_with_large_added_mass(tmp_path)
    before = _codes(path, "bullet-featherstone")
    status, _, err = run_cli(["convert", str(path), "--sdf-to-hydro", "--sign", "fossen",
                              "--engine", "bullet-featherstone", "--in-place"], capsys)
    assert status == 0, err
    assert "big" in err and "w: added 30 > rigid 10" in err and "gz-sim#1923" in err
    after = gzinertia_read(path)
    assert after["big"] is not None and after["small"] is None  # small moved to the plugin
    assert _codes(path, "bullet-featherstone") - before == set()


def gzinertia_read(path: Path) -> dict[str, object]:
    """Each link's <fluid_added_mass> as read back (``None``: none)."""
    return {lk.name.split("::")[-1]: lk.inertial.A_BBo_B for lk in gzinertia.read(path).links}


URDF_FLOAT = (
    '<robot name="float"><link name="body"><inertial><mass value="1"/>'
    '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
    '<collision><geometry><sphere radius="0.2"/></geometry></collision></link>'
    '<link name="heavy"><inertial><mass value="200"/>'
    '<inertia ixx="5" ixy="0" ixz="0" iyy="5" iyz="0" izz="5"/></inertial>'
    '<collision><geometry><sphere radius="0.2"/></geometry></collision></link>'
    '<joint name="j" type="revolute"><parent link="heavy"/><child link="body"/>'
    '<origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
    "</robot>"
)


def test_urdf_addmass_refuses_a_link_beyond_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1 kg float of radius 0.2 m displaces 34 kg of water: its sphere's added mass (17 kg)
    exceeds its mass; the 200 kg link beside it gets its block. Asked for by name, the float
    is refused."""
    path = tmp_path / "float.urdf"
    path.write_text(URDF_FLOAT)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert status == 0, err
    assert "body:" in err and "gz-sim#1923" in err and "u: added" in err
    text = path.read_text()
    assert text.count("<gazebo>") == 1 and "<link_name>heavy</link_name>" in text
    assert [f for f in run([path]).findings if f.code == "GZI506"] == []
    # named on the command line: refused in one line, nothing written
    path.write_text(URDF_FLOAT)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "body",
                              "--in-place"], capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "float.urdf" in err and "gz-sim#1923" in err and path.read_text() == URDF_FLOAT
