"""The mathematics of ``gzinertia migrate`` (:mod:`gzinertia.classic.migrate`) against the
oracles: the classic plugins' force laws re-implemented from their source
(:mod:`classic_oracles`), gz-sim's Hydrodynamics transcribed from its source
(:func:`hydro_oracles.gz_hydrodynamics_wrench`), and DART's equations of motion with the
added mass in the spatial inertia, ``(M + A)·V̇ + crf(V)·(M + A)·V = F`` (Featherstone's
spatial cross product, written here), so that the fluid's share is
``-(A·V̇ + crf(V)·A·V)``. Random states: velocity, acceleration, orientation, current."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import classic_oracles as oracle
import numpy as np
import pytest
from classic_vehicles import uuv_model
from hydro_oracles import gz_hydrodynamics_wrench
from sdfgen import random_rotation
from test_classic_uuv import CASES
from test_classic_vrx import DEFAULTS_ONLY, RANDOM, WAMV

from gzinertia.classic.blocks import classic_plugins_of_file
from gzinertia.classic.migrate import GzEquivalent, uuv_equivalent, vrx_equivalent
from gzinertia.classic.uuv import UuvLink
from gzinertia.classic.vrx import VrxDynamics

FLIP = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])


def _uuv(tmp_path: Path, block: str, mass: float) -> UuvLink:
    path = tmp_path / "m.sdf"
    path.write_text(uuv_model(block, mass, "<sphere><radius>0.2</radius></sphere>"))
    return classic_plugins_of_file(str(path), masses={"base_link": mass}).uuv[0].links[0]


def _vrx(tmp_path: Path, block: str) -> VrxDynamics:
    (tmp_path / "b.sdf").write_text(f'<sdf version="1.9"><model name="boat"><link '
                                    f'name="base_link"/>{block}</model></sdf>')
    return classic_plugins_of_file(str(tmp_path / "b.sdf")).vrx[0]


def _crf(V: np.ndarray) -> np.ndarray:
    """Featherstone's spatial force cross product ``V×*`` (angular-first)."""
    def sk(a: np.ndarray) -> np.ndarray:
        return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    w, v = V[:3], V[3:]
    out = np.zeros((6, 6))
    out[:3, :3], out[:3, 3:], out[3:, 3:] = sk(w), sk(v), sk(w)
    return out


def dart_fluid_wrench(A_lf: np.ndarray, s: np.ndarray, a: np.ndarray) -> np.ndarray:
    """DART's share of the wrench for added mass ``A_lf`` (linear-first, about Bo) in the
    spatial inertia: ``-(A·V̇ + crf(V)·A·V)``, returned linear-first ``[f; t]``."""
    P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
    A, V, Vd = P @ A_lf @ P, P @ s, P @ a
    return P @ -(A @ Vd + _crf(V) @ A @ V)


def _hydro(terms: dict[str, float], R: np.ndarray, v_B: np.ndarray, w_B: np.ndarray,
           flow_W: np.ndarray) -> np.ndarray:
    f_W, t_W = gz_hydrodynamics_wrench(terms, R, R @ v_B, R @ w_B, flow_W)
    return np.concatenate([R.T @ f_W, R.T @ t_W])


def _close(got: np.ndarray, want: np.ndarray) -> None:
    assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, float(np.max(np.abs(want))))


def _uuv_source(link_xml: ET.Element, mass: float, p: np.ndarray, v: np.ndarray,
                w: np.ndarray, a_B: np.ndarray, R: np.ndarray, flow: np.ndarray) -> np.ndarray:
    f, t = oracle.uuv_tau(oracle.uuv_link_matrices(link_xml, mass), v, w, FLIP * a_B, R, flow)
    return np.concatenate([f, t + np.cross(p, f)])


@pytest.mark.parametrize("case", sorted(CASES))
def test_uuv_damping_and_added_mass_are_exact_about_the_origin(case: str,
                                                               tmp_path: Path) -> None:
    """Hydrodynamics terms + the exact added mass + the plugin's own Coriolis, about Bo,
    equal the plugin's wrench (moved from Bcm) on random states with a current."""
    block, mass = CASES[case]
    link = _uuv(tmp_path, block, mass)
    rng = np.random.default_rng(271)
    p = rng.normal(0, 0.2, 3)
    eq = uuv_equivalent(link, p)
    terms = {**eq.damping, **eq.forward_speed}
    for _ in range(30):
        v, w, flow = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 0.5, 3)
        a_B, R = rng.normal(0, 2, 6), random_rotation(rng)
        s = np.concatenate([v - R.T @ flow, w])
        want = _uuv_source(ET.fromstring(block), mass, p, v, w, a_B, R, flow)
        got = _hydro(terms, R, v, w, flow) - eq.A_BBo_B_exact @ a_B + eq.source_coriolis_wrench(s)
        _close(got, want)


@pytest.mark.parametrize("case", sorted(CASES))
def test_uuv_migrated_to_dart_differs_by_what_is_reported(case: str, tmp_path: Path) -> None:
    """gz-sim (Hydrodynamics + DART with the symmetric ``<fluid_added_mass>``) against the
    plugin in still water: the added-mass difference is the skew part, bounded by
    :attr:`added_mass_gap` and reaching it; the Coriolis difference is what
    :attr:`coriolis_gap` measures; with the centre of mass at the origin and a symmetric ``Ma``
    both are 0 and the wrenches equal."""
    block, mass = CASES[case]
    link = _uuv(tmp_path, block, mass)
    rng = np.random.default_rng(7)
    for p in (np.zeros(3), rng.normal(0, 0.2, 3)):
        eq = uuv_equivalent(link, p)
        A = eq.A_BBo_B.linear_first()
        zero = np.zeros(3)
        for _ in range(20):
            v, w, a_B, R = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 2, 6), \
                random_rotation(rng)
            s = np.concatenate([v, w])
            want = _uuv_source(ET.fromstring(block), mass, p, v, w, a_B, R, zero)
            got = _hydro({**eq.damping, **eq.forward_speed}, R, v, w, zero) + \
                dart_fluid_wrench(A, s, a_B)
            inertial = got - want - (eq.dart_coriolis_wrench(s) - eq.source_coriolis_wrench(s))
            _close(inertial, -(A - eq.A_BBo_B_exact) @ a_B)
            assert np.linalg.norm((A - eq.A_BBo_B_exact) @ a_B) <= eq.added_mass_gap * \
                np.linalg.norm(a_B) * (1 + 1e-12)
        S = np.linalg.svd(A - eq.A_BBo_B_exact, compute_uv=False)
        assert S[0] == pytest.approx(eq.added_mass_gap, rel=1e-12, abs=1e-12)
        Ma = link.Ma
        if not np.any(p) and np.array_equal(Ma, Ma.T):
            assert eq.added_mass_gap == 0.0
            assert eq.coriolis_gap <= 1e-12
        elif np.any(p) and np.any(Ma):
            assert eq.coriolis_gap > 1e-6  # the plugin's force at Bcm: not a fluid's


def test_the_coriolis_gap_is_the_measured_one(tmp_path: Path) -> None:
    """:attr:`coriolis_gap` recomputed from DART's equations (crf) on the same velocities."""
    from gzinertia.classic.migrate import unit_velocities

    block, mass = CASES["lauv"]
    eq = uuv_equivalent(_uuv(tmp_path, block, mass), np.array([0.05, 0.0, -0.02]))
    A = eq.A_BBo_B.linear_first()
    zero = np.zeros(6)
    diffs, sizes = [], []
    for s in unit_velocities():
        dart = dart_fluid_wrench(A, s, zero)
        diffs.append(np.linalg.norm(eq.source_coriolis_wrench(s) - dart))
        sizes.append(max(np.linalg.norm(eq.source_coriolis_wrench(s)), np.linalg.norm(dart)))
    assert eq.coriolis_gap == pytest.approx(max(diffs) / max(sizes), rel=1e-9)


@pytest.mark.parametrize("block", [WAMV, DEFAULTS_ONLY, RANDOM], ids=["wamv", "defaults", "random"])
def test_vrx_damping_and_added_mass_are_exact_about_the_origin(block: str,
                                                               tmp_path: Path) -> None:
    plugin = _vrx(tmp_path, block)
    rng = np.random.default_rng(13)
    p = rng.normal(0, 0.3, 3)
    eq = vrx_equivalent(plugin, p)
    assert not eq.forward_speed and not eq.source_coriolis
    assert all(v <= 0.0 for v in eq.damping.values() if v != 0.0) or np.any(p)
    for _ in range(30):
        lin, ang, la, aa = (rng.normal(0, 2, 3) for _ in range(4))
        R = random_rotation(rng)
        f = oracle.vrx_force(ET.fromstring(block), lin, ang, la, aa)
        want = np.concatenate([f[:3], f[3:] + np.cross(p, f[:3])])
        s, a = np.concatenate([lin, ang]), np.concatenate([la, aa])
        got = _hydro(eq.damping, R, lin, ang, np.zeros(3)) - eq.A_BBo_B_exact @ a
        _close(got, want)
        # DART with the symmetric part: the skew part and Kirchhoff's Coriolis are the difference
        dart = _hydro(eq.damping, R, lin, ang, np.zeros(3)) + dart_fluid_wrench(
            eq.A_BBo_B.linear_first(), s, a)
        _close(dart - want, (eq.A_BBo_B_exact - eq.A_BBo_B.linear_first()) @ a
               + eq.dart_coriolis_wrench(s))


def test_vrx_at_the_origin_is_symmetric_and_its_terms_negative(tmp_path: Path) -> None:
    eq: GzEquivalent = vrx_equivalent(_vrx(tmp_path, WAMV), np.zeros(3))
    assert eq.added_mass_gap == 0.0
    assert eq.damping["xU"] == -51.3 and eq.damping["xUabsU"] == -72.4
    assert all(v < 0.0 for v in eq.damping.values())
