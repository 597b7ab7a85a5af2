"""gz-sim Hydrodynamics' added-mass Coriolis term (gzinertia.gazebo.hydro_coriolis) and what
``convert --sdf-to-hydro`` says about it.

Oracles: the plugin's two Coriolis builders transcribed here from gz-sim's
``src/systems/hydrodynamics/HydrodynamicsUtils.hh`` (main, after gazebosim/gz-sim#3456):
``buildCoriolisMatrix`` (diagonal of ``Ma`` only; ``PreUpdate`` applies ``-(-Cmat·state)``) and
``buildFullCoriolisMatrix`` (Fossen 2011 eq. 6.43 for a full positive matrix); MuJoCo's
``qfrc_fluid`` (its gyroscopic added-mass terms are Kirchhoff's for a diagonal matrix); the
physical sign of the Munk moment.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import oracle_module, random_rotation, run_cli
from sdf_builders import hydro_plugin, inertial, link, model, write

from gzinertia.gazebo.hydro_coriolis import (
    coriolis_coupling_loss,
    kirchhoff_coriolis_wrench,
    plugin_coriolis_wrench,
    representative_velocities,
)
from gzinertia.sdf import read_sdf_file
from gzinertia.spatial.algebra import transform_spatial
from gzinertia.spatial.tuckerman import ellipsoid_added_mass

mujoco = oracle_module("mujoco")


def gz_build_coriolis_matrix(Ma: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``hydro::buildCoriolisMatrix(_Ma, _state)``, entry by entry as in the source."""
    C = np.zeros((6, 6))
    C[0, 4] = -Ma[2, 2] * s[2]
    C[0, 5] = Ma[1, 1] * s[1]
    C[1, 3] = Ma[2, 2] * s[2]
    C[1, 5] = -Ma[0, 0] * s[0]
    C[2, 3] = -Ma[1, 1] * s[1]
    C[2, 4] = Ma[0, 0] * s[0]
    C[3, 1] = -Ma[2, 2] * s[2]
    C[3, 2] = Ma[1, 1] * s[1]
    C[3, 4] = -Ma[5, 5] * s[5]
    C[3, 5] = Ma[4, 4] * s[4]
    C[4, 0] = Ma[2, 2] * s[2]
    C[4, 2] = -Ma[0, 0] * s[0]
    C[4, 3] = Ma[5, 5] * s[5]
    C[4, 5] = -Ma[3, 3] * s[3]
    C[5, 0] = -Ma[1, 1] * s[1]
    C[5, 1] = Ma[0, 0] * s[0]
    C[5, 3] = -Ma[4, 4] * s[4]
    C[5, 4] = Ma[3, 3] * s[3]
    return C


def gz_applied_coriolis(Ma: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``PreUpdate``: ``kCmatVec = -Cmat·state`` enters ``kTotalWrench``; the link receives
    ``-kTotalWrench``."""
    kTotalWrench = -gz_build_coriolis_matrix(Ma, s) @ s
    return -kTotalWrench


def gz_skew3(v: np.ndarray) -> np.ndarray:
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


def gz_build_full_coriolis_matrix(Ma: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``hydro::buildFullCoriolisMatrix``: ``C_A(ν)`` of a full positive matrix."""
    a1 = Ma[:3, :3] @ s[:3] + Ma[:3, 3:] @ s[3:]
    a2 = Ma[3:, :3] @ s[:3] + Ma[3:, 3:] @ s[3:]
    C = np.zeros((6, 6))
    C[:3, 3:] = -gz_skew3(a1)
    C[3:, :3] = -gz_skew3(a1)
    C[3:, 3:] = -gz_skew3(a2)
    return C


def coupled_added_mass(rng: np.random.Generator) -> np.ndarray:
    """A Tuckerman ellipsoid's added mass, turned and moved off the link origin (what
    ``addmass`` writes for such a link): a full matrix about Bo, linear-first."""
    r = rng.uniform(0.1, 0.6, size=3)
    m_A, I_A = ellipsoid_added_mass(r, 1025.0)
    A_EEo_E = np.diag(np.concatenate([m_A, I_A]))
    return transform_spatial(
        A_EEo_E, random_rotation(rng), rng.uniform(-0.3, 0.3, size=3), "linear-first"
    )


def test_module_is_the_plugins_formula(rng: np.random.Generator) -> None:
    for _ in range(20):
        Ma, s = rng.normal(size=(6, 6)), rng.normal(size=6)
        np.testing.assert_allclose(
            plugin_coriolis_wrench(Ma, s), gz_applied_coriolis(Ma, s), rtol=0, atol=1e-13
        )
        A = coupled_added_mass(rng)
        np.testing.assert_allclose(
            kirchhoff_coriolis_wrench(A, s),
            -gz_build_full_coriolis_matrix(A, s) @ s,
            rtol=0,
            atol=1e-12 * np.max(np.abs(A)),
        )


def test_plugin_reads_only_the_diagonal(rng: np.random.Generator) -> None:
    """The couplings of a full matrix change nothing in the plugin's Coriolis term, but they
    change Kirchhoff's."""
    A = coupled_added_mass(rng)
    s = rng.normal(size=6)
    diag = np.diag(np.diag(A))
    assert np.array_equal(gz_applied_coriolis(A, s), gz_applied_coriolis(diag, s))
    full, only_diag = -gz_build_full_coriolis_matrix(A, s) @ s, gz_applied_coriolis(diag, s)
    assert np.max(np.abs(full - only_diag)) > 1e-3 * np.max(np.abs(full))


@pytest.mark.oracle("mujoco")
def test_sign_follows_the_parameters_against_mujoco(rng: np.random.Generator) -> None:
    """An ellipsoid with only MuJoCo's added-mass terms (drag and lift coefficients 0): its
    ``qfrc_fluid`` is Kirchhoff's gyroscopic wrench of ``diag(m_A, I_A)``. The plugin gives it
    with positive parameters and its negative with Fossen's negative ones."""
    r, rho = np.array([0.4, 0.15, 0.08]), 1025.0
    xml = (
        f'<mujoco><option density="{rho}" viscosity="0"/><worldbody><body><freejoint/>'
        f'<geom type="ellipsoid" size="{r[0]} {r[1]} {r[2]}" fluidshape="ellipsoid" '
        'fluidcoef="0 0 0 0 0"/></body></worldbody></mujoco>'
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    A = rho * np.diag(model.geom_fluid[0, 6:12])  # [m_A; I_A] per unit density, times ρ
    for _ in range(10):
        nu = rng.normal(size=6)  # [v; ω] in body axes; the body sits at the world origin
        data.qvel[:3], data.qvel[3:] = nu[:3], nu[3:]
        mujoco.mj_forward(model, data)
        mj = np.array(data.qfrc_fluid)  # [f_W; τ_B] with R_WB = 1
        scale = np.max(np.abs(mj))
        np.testing.assert_allclose(gz_applied_coriolis(A, nu), mj, rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(gz_applied_coriolis(-A, nu), -mj, rtol=0, atol=1e-12 * scale)


def test_fossen_negative_values_reverse_the_munk_moment() -> None:
    """A body long in x moving forward with a small downward (+z) velocity: the Munk moment
    ``τ_y = (A_w - A_u)·u·w`` of potential flow pitches it to a larger angle of attack
    (destabilising; turning the body by +θ about y raises the body-frame w). With Fossen's
    negative ``<iDotJ>`` the plugin pitches it the other way."""
    m_A, I_A = ellipsoid_added_mass([0.5, 0.1, 0.1], 1025.0)
    A = np.diag(np.concatenate([m_A, I_A]))
    nu = np.array([1.0, 0.0, 0.1, 0.0, 0.0, 0.0])
    physical = (A[2, 2] - A[0, 0]) * 1.0 * 0.1
    assert physical > 0.0
    assert gz_applied_coriolis(A, nu)[4] == pytest.approx(physical, rel=1e-14)
    assert gz_applied_coriolis(-A, nu)[4] == pytest.approx(-physical, rel=1e-14)


def _model(tmp_path: Path, A: np.ndarray) -> Path:
    """Model ``auv``: link ``hull`` (60 kg, or twice the largest linear added mass; moments
    likewise, so that the plugin may carry ``A``: GZI506's bound) with ``A`` as its
    ``<fluid_added_mass>`` and a Hydrodynamics plugin with one damping term (SDFormat 1.11)."""
    mass = max(60.0, 2.0 * float(np.max(np.diag(A)[:3])))
    moments = np.maximum([1.5, 9.0, 9.0], 2.0 * float(np.max(np.diag(A)[3:])))
    hull = link("hull", inertial(mass, np.diag(moments), A=A))
    text = model(hull, hydro_plugin("hull", {"xUabsU": -6.0}), version="1.11", name="auv")
    return write(tmp_path, text, "auv.sdf")


def test_convert_states_what_the_coriolis_term_loses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rng: np.random.Generator
) -> None:
    """``convert --sdf-to-hydro`` on a coupled matrix: the median and maximum it prints are the
    relative difference, in the kinetic-energy norm ``‖W‖² = Wᵀ(M + A)⁻¹W``, between the
    plugin's ``Cmat·ν`` (transcribed above, positive parameters so that only the lost couplings
    differ) and the full matrix's ``-C_A(ν)·ν`` (the plugin's own ``buildFullCoriolisMatrix``),
    over the representative velocities."""
    A = coupled_added_mass(rng)
    path = _model(tmp_path, A)
    status, _, err = run_cli(
        ["convert", str(path), "--sdf-to-hydro", "--sign", "fossen", "-o", str(tmp_path / "o.sdf"),
         "--engine", "bullet-featherstone"],
        capsys,
    )
    assert status == 0, err
    found = re.search(r"by a median ([0-9.e+-]+) % and up to ([0-9.e+-]+) %", err)
    assert found is not None, err
    median, maximum = float(found.group(1)), float(found.group(2))
    assert "opposite sign of Kirchhoff" in err

    link = read_sdf_file(path).link("auv::hull")
    total = link.M_BBo_B.linear_first() + A
    inv = np.linalg.inv(total)
    ratios = []
    for nu in representative_velocities(total):
        plugin = gz_applied_coriolis(A, nu)
        full = -gz_build_full_coriolis_matrix(A, nu) @ nu
        d = plugin - full
        ratios.append(np.sqrt((d @ inv @ d) / (full @ inv @ full)))
    assert median == pytest.approx(100 * np.median(ratios), rel=5e-3)
    assert maximum == pytest.approx(100 * np.max(ratios), rel=5e-3)
    assert coriolis_coupling_loss(A, link.M_BBo_B.linear_first()).median == pytest.approx(
        np.median(ratios), rel=1e-12
    )


def test_convert_is_quiet_about_couplings_for_a_diagonal_matrix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m_A, I_A = ellipsoid_added_mass([0.5, 0.1, 0.1], 1025.0)
    path = _model(tmp_path, np.diag(np.concatenate([m_A, I_A])))
    out = str(tmp_path / "o.sdf")
    status, _, err = run_cli(
        ["convert", str(path), "--sdf-to-hydro", "--sign", "physical", "-o", out, "--engine", "tpe"], capsys
    )
    assert status == 0, err
    assert "couplings" not in err and "Kirchhoff" not in err


def test_docs_numbers_for_box_rov_are_what_convert_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/added_mass.md quotes the median and maximum ``convert`` prints for the example
    made 20 kg (as it is, its heave added mass exceeds its mass: the link is left, GZI506)."""
    from conftest import EXAMPLES, REPO

    docs = (REPO / "docs" / "added_mass.md").read_text()
    quoted = re.search(r"report a median of ([0-9.]+) % and a maximum of ([0-9.]+) %", docs)
    assert quoted is not None
    example = EXAMPLES / "box_rov" / "model.sdf"
    args = ["--sdf-to-hydro", "--sign", "fossen", "-o", str(tmp_path / "out.sdf"), "--engine",
            "bullet-featherstone"]
    status, _, err = run_cli(["convert", str(example), *args], capsys)
    assert status == 0 and "w: added 17.1248 > rigid 10.9029" in err, err
    heavier = tmp_path / "model.sdf"
    heavier.write_text(example.read_text().replace("<mass>10.9029</mass>", "<mass>20</mass>", 1))
    status, _, err = run_cli(["convert", str(heavier), *args], capsys)
    assert status == 0, err
    printed = re.search(r"by a median ([0-9.e+-]+) % and up to ([0-9.e+-]+) %", err)
    assert printed is not None, err
    assert printed.groups() == quoted.groups()
