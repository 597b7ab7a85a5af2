"""The 6x6 change of point and of axes, checked against DART and against physics."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import oracle_module, random_rotation, random_spd6, rel_err

from gzinertia.spatial.algebra import (
    block_swap,
    change_axes,
    kinetic_energy,
    shift,
    shift_operator,
    transform_spatial,
)
from gzinertia.spatial.inertia import spatial_inertia_about_com, spatial_inertia_about_origin
from gzinertia.spatial.rotation import skew

dart = oracle_module("dartpy")


def _dart_transformed(S: np.ndarray, R_AB: np.ndarray, p_AoBo_A: np.ndarray) -> np.ndarray:
    T = dart.math.Isometry3()
    T.set_rotation(R_AB)
    T.set_translation(p_AoBo_A)
    return np.asarray(dart.dynamics.Inertia(S).transformed(T).getSpatialTensor())


@pytest.mark.oracle("dartpy")
def test_point_and_axes_change_equals_dart_on_random_spd_matrices(rng: np.random.Generator) -> None:
    worst = 0.0
    for _ in range(250):
        S = random_spd6(rng)
        R, p = random_rotation(rng), rng.normal(scale=2.0, size=3)
        ours = transform_spatial(S, R, p, "angular-first")
        worst = max(worst, rel_err(ours, _dart_transformed(S, R, p)) / max(1.0, np.abs(S).max()))
        # The same physics in SDF's linear-first ordering is the block swap of it.
        swapped = transform_spatial(block_swap(S), R, p, "linear-first")
        assert rel_err(block_swap(swapped), ours) < 1e-14
    assert worst < 1e-14


def test_change_of_point_keeps_kinetic_energy(rng: np.random.Generator) -> None:
    """½νᵀMν is the same whichever point the velocity and the matrix refer to."""
    for ordering in ("angular-first", "linear-first"):
        for _ in range(50):
            M_SP = random_spd6(rng)
            p_PQ = rng.normal(size=3)
            w, v_P = rng.normal(size=3), rng.normal(size=3)
            v_Q = v_P + np.cross(w, p_PQ)
            nu_P = np.r_[w, v_P] if ordering == "angular-first" else np.r_[v_P, w]
            nu_Q = np.r_[w, v_Q] if ordering == "angular-first" else np.r_[v_Q, w]
            assert np.allclose(shift_operator(p_PQ, ordering) @ nu_P, nu_Q, atol=1e-14)
            M_SQ = shift(M_SP, p_PQ, ordering)  # from the old point P to the new point Q
            assert kinetic_energy(M_SQ, nu_Q) == pytest.approx(kinetic_energy(M_SP, nu_P), rel=1e-13)
            assert np.allclose(shift(M_SQ, -p_PQ, ordering), M_SP, rtol=1e-12, atol=1e-12)


def test_rigid_body_moved_from_com_to_origin_is_the_parallel_axis_theorem(
    rng: np.random.Generator,
) -> None:
    for _ in range(50):
        m = rng.uniform(0.1, 50)
        R = random_rotation(rng)
        I_cm = R @ np.diag(rng.uniform(0.5, 1.0, 3)) @ R.T
        c = rng.normal(size=3)
        # from Bcm to Bo: p_BcmBo = -p_BoBcm = -c
        moved = shift(spatial_inertia_about_com(m, I_cm), -c, "angular-first")
        assert rel_err(moved, spatial_inertia_about_origin(m, I_cm, c)) < 1e-14
        # and the rotational block is I + m[c]×[c]×ᵀ
        assert np.allclose(moved[:3, :3], I_cm + m * skew(c) @ skew(c).T, atol=1e-12)


def test_shift_goes_in_drakes_direction(rng: np.random.Generator) -> None:
    """``shift(M_SP, p_PQ)`` is Drake's ``SpatialInertia.Shift(p_PQ_E)``: from the old point P
    to the new point Q."""
    mbp = pytest.importorskip("pydrake.multibody.tree")
    for _ in range(20):
        m = rng.uniform(0.1, 50)
        R = random_rotation(rng)
        I_cm = R @ np.diag(rng.uniform(0.5, 1.0, 3)) @ R.T
        c, p_PQ = rng.normal(size=3), rng.normal(size=3)
        M_SP = mbp.SpatialInertia.MakeFromCentralInertia(
            m, c, mbp.RotationalInertia(I_cm[0, 0], I_cm[1, 1], I_cm[2, 2],
                                        I_cm[0, 1], I_cm[0, 2], I_cm[1, 2]))
        drake = M_SP.Shift(p_PQ).CopyToFullMatrix6()
        ours = shift(M_SP.CopyToFullMatrix6(), p_PQ, "angular-first")
        assert rel_err(ours, drake) < 1e-13


def test_orderings_are_a_block_swap_and_axes_changes_compose(rng: np.random.Generator) -> None:
    S = random_spd6(rng)
    P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
    assert np.array_equal(block_swap(S), P @ S @ P)
    assert np.array_equal(block_swap(block_swap(S)), S)
    assert not np.shares_memory(block_swap(S), S)
    R1, R2 = random_rotation(rng), random_rotation(rng)
    assert rel_err(change_axes(change_axes(S, R1), R2), change_axes(S, R2 @ R1)) < 1e-14
