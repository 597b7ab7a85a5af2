"""The repair numerics against independent minimisers and engines.

``nearest`` claims to be the Frobenius-nearest valid inertia among all symmetric matrices: a
brute-force minimiser over every valid matrix ``Q·diag(μ)·Qᵀ`` (rotation Q and moments μ free,
many starts) must never find a closer one, and the variational inequality of a projection onto
a convex set must hold against valid matrices. ``balance`` is MuJoCo's compiler itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from fix_oracles import near_valid_inertia as _near_valid
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.spatial.transform import Rotation

from gzinertia.physics.inertia_repair import (
    CONSTRAINTS,
    RepairError,
    balanced_inertia,
    moments_margin,
    nearest_valid_inertia,
    project_moments,
    validity_margin,
)
from gzinertia.spatial.inertia import drake_tolerance, gz_tolerance, principal_axes


def _brute_force_distance(I: np.ndarray, eps: float, starts: int = 12) -> float:
    """The smallest ``‖X - I‖_F`` found over valid ``X = Q·diag(μ)·Qᵀ`` (``A·μ ≥ ε``), by SLSQP
    on (rotation vector, μ) from several rotations and moment guesses."""
    rng = np.random.default_rng(7)
    lam, R_FP = principal_axes(I)
    best = np.inf

    def cost(z: np.ndarray) -> float:
        Q = Rotation.from_rotvec(z[:3]).as_matrix()
        X = Q @ np.diag(z[3:]) @ Q.T
        return float(np.sum((X - I) ** 2))

    constraints = [{"type": "ineq", "fun": lambda z: CONSTRAINTS @ z[3:] - eps,
                    "jac": lambda z: np.hstack([np.zeros((6, 3)), CONSTRAINTS])}]
    guesses = [Rotation.from_matrix(R_FP).as_rotvec()] + [
        Rotation.random(random_state=int(rng.integers(1 << 30))).as_rotvec()
        for _ in range(starts - 1)
    ]
    for rotvec in guesses:
        mu0 = np.full(3, max(float(np.mean(lam)), 1.0))
        res = minimize(cost, np.concatenate([rotvec, mu0]), method="SLSQP",
                       constraints=constraints, options={"ftol": 1e-16, "maxiter": 500})
        if np.min(CONSTRAINTS @ res.x[3:]) >= eps - 1e-12:
            best = min(best, float(np.sqrt(res.fun)))
    return best


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
@example(0)
@example(1)
@example(2)
def test_nearest_is_no_farther_than_a_brute_force_minimiser(seed: int) -> None:
    I = _near_valid(seed)
    repair = nearest_valid_inertia(I)
    eps = validity_margin(np.linalg.eigvalsh(I))
    ours = float(np.linalg.norm(repair.I_after - I))
    assert moments_margin(np.linalg.eigvalsh(repair.I_after)) >= eps * (1 - 1e-6) - 1e-15
    brute = _brute_force_distance(I, eps)
    assert ours <= brute + 1e-9 * float(np.linalg.norm(I))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_nearest_satisfies_the_projection_inequality(seed: int) -> None:
    """P is the projection of I onto the convex set C iff ⟨I - P, Y - P⟩ ≤ 0 for every Y in C:
    checked on random valid Y (solid boxes, rods, plates and spheres in random axes)."""
    I = _near_valid(seed)
    P = nearest_valid_inertia(I).I_after
    eps = validity_margin(np.linalg.eigvalsh(I))
    rng = np.random.default_rng(seed + 1)
    scale = float(np.linalg.norm(I))
    for _ in range(50):
        mu = np.sort(rng.uniform(0.0, 1.0, size=3)) * scale
        mu[2] = rng.uniform(mu[1], mu[0] + mu[1])  # inside the triangle inequality
        mu = mu + eps
        Q = Rotation.random(random_state=int(rng.integers(1 << 30))).as_matrix()
        Y = Q @ np.diag(mu) @ Q.T
        assert float(np.sum((I - P) * (Y - P))) <= 1e-12 * scale * scale


def test_nearest_keeps_principal_axes_and_valid_inertia() -> None:
    I = _near_valid(3)
    repair = nearest_valid_inertia(I)
    R = repair.R_FP
    assert np.allclose(R.T @ repair.I_after @ R, np.diag(repair.moments_after), atol=1e-14)
    valid = np.diag([1.0, 2.0, 2.5])
    assert np.array_equal(nearest_valid_inertia(valid).I_after, valid)


def test_repaired_moments_pass_drake_and_gz_checks() -> None:
    for seed in range(30):
        lam_after = np.linalg.eigvalsh(nearest_valid_inertia(_near_valid(seed)).I_after)
        for tol in (drake_tolerance(lam_after), gz_tolerance(lam_after)):
            assert lam_after[0] >= -tol
            assert lam_after[0] + lam_after[1] + tol >= lam_after[2]


def test_projection_of_sorted_moments_is_analytic_on_the_triangle_face() -> None:
    """Only λ₁ + λ₂ ≥ λ₃ active: the projection moves each moment by the same d along
    (1, 1, -1), d = (ε - margin)/3."""
    lam = np.array([0.1, 0.1, 0.3])
    x = project_moments(lam, 0.0)
    assert np.allclose(x, lam + (0.1 / 3.0) * np.array([1.0, 1.0, -1.0]), rtol=0, atol=1e-16)


def test_nearest_refuses_an_inertia_with_nothing_to_keep() -> None:
    with pytest.raises(RepairError):
        nearest_valid_inertia(-np.eye(3))
    with pytest.raises(RepairError):
        nearest_valid_inertia(np.full((3, 3), np.nan))


mujoco = pytest.importorskip("mujoco")


@pytest.mark.parametrize(
    "diag", [(0.1, 0.1, 0.3), (0.5, 2.0, 1.0), (1e-3, 4e-3, 2e-3), (0.2, 0.3, 0.4)]
)
def test_balance_is_mujocos_balanceinertia(diag: tuple[float, float, float]) -> None:
    """MuJoCo compiles ``fullinertia`` in random axes with ``balanceinertia="true"``: its
    ``body_inertia`` (principal moments) equals ours."""
    R = Rotation.from_euler("xyz", [0.3, -0.7, 1.1]).as_matrix()
    I = R @ np.diag(diag) @ R.T
    full = " ".join(repr(float(v)) for v in (I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]))
    xml = f"""<mujoco><compiler balanceinertia="true"/><worldbody><body>
      <freejoint/><inertial pos="0 0 0" mass="2" fullinertia="{full}"/>
    </body></worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    ours = np.sort(np.linalg.eigvalsh(balanced_inertia(I).I_after))
    assert np.allclose(np.sort(model.body_inertia[1]), ours, rtol=1e-9, atol=0)
