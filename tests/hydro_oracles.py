"""Oracles of the hydrodynamics tests: what gz-sim's Hydrodynamics plugin applies (a
transcription, :func:`gz_hydrodynamics_wrench`) and MuJoCo's ``qfrc_fluid`` on a free body
(:func:`mujoco_F_BBo_B`), with the motions and ellipsoids the tests feed them."""

from __future__ import annotations

import numpy as np
from conftest import oracle_module, random_rotation

from gzinertia.hydrodynamics_terms import FORCE_AXES as WRENCH_AXES
from gzinertia.hydrodynamics_terms import VELOCITY_AXES
from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.spatial.rotation import Pose

mujoco = oracle_module("mujoco")


def gz_hydrodynamics_wrench(
    params: dict[str, float],
    R_WB: np.ndarray,
    v_WBo_W: np.ndarray,
    w_WB_W: np.ndarray,
    current_W: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Force and torque (world axes, at the link origin) that gz-sim's Hydrodynamics applies.

    Transcribed from gz-sim ``src/systems/hydrodynamics/Hydrodynamics.cc`` (gz-sim 8 and later,
    after gazebosim/gz-sim#1888), ``Configure`` and ``PreUpdate``:

    * ``stabilityLinearTerms[i*6+j]`` = parameter ``<{xyzkmn[i]}{UVWPQR[j]}>``,
      ``stabilityQuadraticAbsDerivative[i*36+j*6+k]`` = ``<..abs{UVWPQR[k]}>``,
      ``stabilityQuadraticDerivative[i*36+j*6+k]`` = ``<{..}{UVWPQR[k]}>``; all default 0.
    * ``state = [R⁻¹·(WorldLinearVelocity - current); R⁻¹·WorldAngularVelocity]`` with R the
      link's world rotation; ``WorldLinearVelocity`` is the link frame's (origin) velocity.
    * ``Dmat(i,j) = -L_ij - Σ_k (Qabs_ijk·|state_k| + Q_ijk·state_k)``, ``kDvec = Dmat·state``.
    * Added mass ``-Ma·stateDot`` and Coriolis ``-Cmat·state`` use ``Ma`` from ``<iDotJ>``: no such
      parameter here, so ``Ma = 0`` and both vanish (asserted).
    * ``AddWorldWrench(R·(-kTotal[0:3]), R·(-kTotal[3:6]))`` without offset: the wrench acts at
      the link origin (``ExternalWorldWrenchCmd`` is "applied at the link origin").
    """
    assert not any("Dot" in name for name in params)
    L = np.zeros((6, 6))
    Qabs = np.zeros((6, 6, 6))
    Q = np.zeros((6, 6, 6))
    for i in range(6):
        for j in range(6):
            prefix = WRENCH_AXES[i] + VELOCITY_AXES[j]
            L[i, j] = params.get(prefix, 0.0)
            for k in range(6):
                Q[i, j, k] = params.get(prefix + VELOCITY_AXES[k], 0.0)
                Qabs[i, j, k] = params.get(prefix + "abs" + VELOCITY_AXES[k], 0.0)
    current = np.zeros(3) if current_W is None else current_W
    state = np.concatenate([R_WB.T @ (v_WBo_W - current), R_WB.T @ w_WB_W])
    D = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            coeff = -L[i, j]
            for k in range(6):
                coeff -= Qabs[i, j, k] * abs(state[k])
                coeff -= Q[i, j, k] * state[k]
            D[i, j] = coeff
    total = D @ state
    return R_WB @ -total[:3], R_WB @ -total[3:]


def plugin_F_BBo_B(
    params: dict[str, float], V_WB_B: np.ndarray, current_B: np.ndarray
) -> np.ndarray:
    """The plugin's wrench as an angular-first ``F_BBo_B`` (link posed arbitrarily in the world:
    the result does not depend on it)."""
    R_WB = random_rotation(np.random.default_rng(3))
    f_W, tau_W = gz_hydrodynamics_wrench(
        params, R_WB, R_WB @ V_WB_B[3:], R_WB @ V_WB_B[:3], R_WB @ current_B
    )
    return np.concatenate([R_WB.T @ tau_W, R_WB.T @ f_W])


def quat_wxyz(R: np.ndarray) -> np.ndarray:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, R.reshape(9))
    return q


def fmt(values: np.ndarray | tuple[float, ...]) -> str:
    return " ".join(f"{x:.17g}" for x in np.ravel(values))


def mujoco_F_BBo_B(
    geoms: list[tuple[str, np.ndarray, Pose, EllipsoidFluidCoefficients]],
    V_WB_B: np.ndarray,
    density: float,
    viscosity: float,
    wind_B: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """MuJoCo's ``qfrc_fluid`` on a free body with these geoms (type, MJCF size, ``X_BG``,
    coefficients) moving with ``V_WB_B``, as ``F_BBo_B``; the body gets a random world pose.

    Free joint: ``qvel = [v_WBo_W; w_WB_B]`` and ``qfrc = [f_W; τ_BBo_B]`` (see
    tests/test_fluid_forces.py)."""
    X_WB = Pose(rng.normal(size=3), random_rotation(rng))
    geom_xml = "".join(
        f'<geom type="{kind}" size="{fmt(size)}" pos="{fmt(X.p)}" quat="{fmt(quat_wxyz(X.R))}" '
        f'fluidshape="ellipsoid" fluidcoef="{fmt(c.as_mujoco())}"/>'
        for kind, size, X, c in geoms
    )
    xml = (
        f'<mujoco><option density="{density:.17g}" viscosity="{viscosity:.17g}" '
        f'wind="{fmt(X_WB.R @ wind_B)}"/><worldbody><body><freejoint/>{geom_xml}</body>'
        "</worldbody></mujoco>"
    )
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qpos[:3], data.qpos[3:7] = X_WB.p, quat_wxyz(X_WB.R)
    data.qvel[:3], data.qvel[3:] = X_WB.R @ V_WB_B[3:], V_WB_B[:3]
    mujoco.mj_forward(model, data)
    return np.concatenate([data.qfrc_fluid[3:], X_WB.R.T @ data.qfrc_fluid[:3]])


def single_axis_motions(speeds: tuple[float, ...] = (-2.1, -0.3, 0.4, 1.7)) -> list[np.ndarray]:
    """``V_WB_B`` (angular-first) for translation along and rotation about each link axis."""
    motions = []
    for axis in range(6):
        for s in speeds:
            V = np.zeros(6)
            V[(axis + 3) % 6] = s  # axis 0..2: translation (v slots 3..5); 3..5: rotation
            motions.append(V)
    return motions


def rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def random_posed_ellipsoid(
    rng: np.random.Generator,
) -> tuple[np.ndarray, Pose, EllipsoidFluidCoefficients]:
    r = rng.uniform(0.03, 0.5, size=3)
    X_BE = Pose(rng.uniform(-0.5, 0.5, size=3), random_rotation(rng))
    return r, X_BE, EllipsoidFluidCoefficients(*rng.uniform(0.1, 2.0, size=5))
