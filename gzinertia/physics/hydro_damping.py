"""Damping coefficients for Gazebo's Hydrodynamics system from MuJoCo's ellipsoid drag model.

What the plugin applies (gz-sim ``src/systems/hydrodynamics/Hydrodynamics.cc``, ``PreUpdate``,
with the parameter names of gazebosim/gz-sim#1784 and #1888, merged into the Fortress branch:
``<xUabsU>`` is the ``|u|·u`` term; ``<xUU>``, which was that term before, now multiplies
``u·u``). With the link's state
``s = [R_WBᵀ(v_WBo_W - current_W); R_WBᵀ·w_WB_W]`` (linear-first ``[u v w p q r]``, link axes,
velocity of the link **origin** Bo relative to the current),

    ``D_ij = -L_ij - Σ_k (Q|·|_ijk·|s_k| + Q_ijk·s_k)``,  wrench ``= -D·s``,

i.e. ``wrench_i = Σ_j (L_ij + Σ_k Q|·|_ijk·|s_k|)·s_j`` (without the non-abs ``Q`` terms), with
``L_ij`` the parameter ``<ij>`` (``xU``, ``kP``, ``kU`` ...) and ``Q|·|_ijk`` the parameter
``<ijabsk>`` (``xUabsU`` ...), ``i`` in ``xyzkmn`` (force x y z, moment k m n), ``j, k`` in
``UVWPQR``. The force and moment are rotated to the world and passed to
``Link::AddWorldWrench`` with no offset, i.e. applied **at the link origin** (the
``ExternalWorldWrenchCmd`` component is a wrench at the link origin). So a damping term must be
**negative** to oppose the motion (Fossen's sign convention: ``X_u < 0``).

What MuJoCo applies (:mod:`gzinertia.physics.fluid_forces`): on an ellipsoid E moving with velocity
``v`` relative to the fluid and angular velocity ``ω``, the dissipative part is

    ``f = -(β·6π r_D + ρ·A(v̂)·|v|)·v``,  ``τ = -(β·8π r_D³ + ρ·‖c∘ω‖)·ω``,
    ``A(û) = C_blunt·A_proj(û) + C_slender·(A_max - A_proj(û))``

both exactly along the motion. Projected on a link axis ``e_b`` (``a = R_BEᵀ·e_b`` in E):

* translation ``v_WBo = u·e_b``: ``xU = -β·6π r_D``, ``xUabsU = -ρ·A(a)``;
* rotation ``w_WB = ω_b·e_b`` about an axis through the centre: ``kP = -β·8π r_D³``,
  ``kPabsP = -ρ·‖c∘a‖``.

When the ellipsoid's principal axes are the link's axes and its centre is Bo, that is all: for
translation along or rotation about one link axis, MuJoCo's other terms (added-mass gyroscopic,
Magnus, Kutta) vanish and the plugin applies MuJoCo's whole wrench. Otherwise the damping is a
projection. Along a link axis that is not a principal axis the drag keeps its direction, but
MuJoCo's Kutta lift (normal to the motion) and Munk moment (``(m_A∘v)×v``) have no counterpart.
An ellipsoid centred at ``p = p_BoEo_B ≠ 0`` adds lever arms, because the plugin's wrench acts at
Bo:

* translation along ``e_b`` also makes the moment ``p × f`` about Bo (translation→moment
  coupling, parameters ``kU, mU, nU`` and ``kUabsU, ...``);
* rotation about ``e_b`` through Bo moves the centre with velocity ``ω_b·d``, ``d = e_b × p``:
  the drag ``f = -(β·6π r_D + ρ·A(d̂)·|ω_b|·|d|)·ω_b·d`` at Eo gives forces (``xP, yP, zP``,
  ``xPabsP, ...``) and the moment ``p × f`` about Bo, whose component along ``e_b`` is
  ``-(…)·ω_b·|d|²`` and whose other components are couplings (``mP, nP, ...``).

:func:`hydrodynamics_damping` always puts that lever-arm contribution into the diagonal rotational
terms (``kP += -β·6π r_D·|d|²``, ``kPabsP += -ρ·A(d̂)·|d|³``). Then each diagonal term is exact
for motion along that single link axis, for any pose of the ellipsoid, and not only against the
drag but against MuJoCo's **whole** wrench: the wrench component along a single-axis motion ``ŝ``
is the power divided by the speed, and the added-mass, Magnus and Kutta terms do no work. The
off-diagonal couplings are returned only with ``couplings=True``; with them the plugin reproduces
MuJoCo's whole dissipative wrench about Bo (drag and viscous terms, all six components) for any
single-axis motion. Combined motions are not exact in either case: MuJoCo's drag scales with
``|v|`` (the norm), the plugin's with per-axis ``|s_k|``.

Not mapped: the added-mass terms (the plugin's ``<iDotJ>`` parameters and its Coriolis matrix
cover them; see :mod:`gzinertia.spatial.tuckerman`), Magnus and Kutta lift (no plugin equivalent).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.hydrodynamics_terms import (
    FORCE_AXES,
    VELOCITY_AXES,
    linear_term,
    quadratic_term,
)
from gzinertia.physics.fluid_forces import (
    MJ_MINVAL,
    EllipsoidFluidCoefficients,
    angular_drag_moments,
    max_projected_area,
    stokes_coefficients,
    translational_drag_area,
)
from gzinertia.spatial.rotation import Pose

__all__ = [
    "CROSS_TERM_DIRECTIONS",
    "DIAGONAL_DAMPING_NAMES",
    "ERROR_DIRECTIONS",
    "CombinedMotionError",
    "combined_motion_error",
    "drag_wrench_on_link",
    "fibonacci_directions",
    "hydrodynamics_damping",
    "plugin_wrench",
    "quadratic_cross_terms",
    "sum_damping",
]


#: The 12 diagonal parameters, linear then quadratic: ``xU ... nR``, ``xUabsU ... nRabsR``.
DIAGONAL_DAMPING_NAMES: Final[tuple[str, ...]] = tuple(
    linear_term(i, i) for i in range(6)
) + tuple(quadratic_term(i, i) for i in range(6))


def hydrodynamics_damping(
    semi_axes: ArrayLike,
    X_BE: Pose,
    density: float,
    viscosity: float,
    coefs: EllipsoidFluidCoefficients | None = None,
    *,
    couplings: bool = False,
) -> dict[str, float]:
    """Gazebo Hydrodynamics damping parameters equivalent to MuJoCo's drag on one ellipsoid.

    :param semi_axes: ``(r_x, r_y, r_z)`` along the ellipsoid's axes E (e.g.
        :func:`gzinertia.physics.fluid_forces.fluid_semi_axes` of a collision geometry).
    :param X_BE: the ellipsoid's pose in the link frame B (``p_BoEo_B``, ``R_BE``), e.g. the
        collision's ``X_BC``.
    :param density: fluid density ``ρ`` (kg/m³). The plugin's own ``<water_density>`` does not
        enter its damping: the coefficients carry ``ρ``.
    :param viscosity: MuJoCo's ``β`` (a dynamic viscosity, Pa·s; 0 disables the linear terms).
    :param coefs: MuJoCo's five ellipsoid coefficients (its defaults when ``None``; the lift
        coefficients do not enter).
    :param couplings: also return the off-diagonal terms created by an offset centre (see module
        docstring); only non-zero ones are included.

    :returns: ``{name: value}`` with the 12 names of :data:`DIAGONAL_DAMPING_NAMES` (all ``<= 0``:
        linear ``xU yV zW kP mQ nR`` in N·s/m and N·m·s, quadratic ``xUabsU ... nRabsR`` in
        N·s²/m² and N·m·s²), then any couplings. Link axes, about the link origin, Gazebo's
        sign convention. Terms of several ellipsoids on one link add up (:func:`sum_damping`).
    """
    c = EllipsoidFluidCoefficients() if coefs is None else coefs
    rho, beta = float(density), float(viscosity)
    if not (np.isfinite(rho) and rho >= 0.0 and np.isfinite(beta) and beta >= 0.0):
        raise ValueError(f"density and viscosity must be finite and >= 0, got {rho}, {beta}")
    r = np.asarray(semi_axes, dtype=float)
    R_BE, p = X_BE.R, X_BE.p
    force_per_visc, torque_per_visc = stokes_coefficients(r)
    c_ang = angular_drag_moments(r, c)
    lin_force = -beta * force_per_visc  # f = lin_force·v at Eo (all directions)

    diagonal: dict[str, float] = {}
    coupled: dict[str, float] = {}
    for b in range(3):
        e_b = np.eye(3)[b]
        a_E = R_BE.T @ e_b

        # Translation along e_b: Eo moves with the link origin.
        quad_force = -rho * translational_drag_area(r, a_E, c)
        diagonal[linear_term(b, b)] = lin_force
        diagonal[quadratic_term(b, b)] = quad_force
        lever = np.cross(p, e_b)  # moment about Bo per unit force along e_b at Eo
        for i in range(3):
            if lever[i] != 0.0:
                coupled[linear_term(3 + i, b)] = lin_force * lever[i]
                coupled[quadratic_term(3 + i, b)] = quad_force * lever[i]

        # Rotation about e_b through Bo: E spins about a_E and Eo moves at rate·d.
        rot_lin = -beta * torque_per_visc
        rot_quad = -rho * float(np.linalg.norm(c_ang * a_E))
        d = np.cross(e_b, p)
        d_norm = float(np.linalg.norm(d))
        if d_norm > 0.0:
            # f = (lin_force + quad_d·|rate|)·rate·d at Eo, quad_d per unit |rate|.
            quad_d = -rho * translational_drag_area(r, R_BE.T @ d, c) * d_norm
            rot_lin += lin_force * d_norm**2
            rot_quad += quad_d * d_norm**2
            moment = np.cross(p, d)  # its e_b component is |d|² (added above)
            for i in range(3):
                if d[i] != 0.0:
                    coupled[linear_term(i, 3 + b)] = lin_force * d[i]
                    coupled[quadratic_term(i, 3 + b)] = quad_d * d[i]
                if i != b and moment[i] != 0.0:
                    coupled[linear_term(3 + i, 3 + b)] = lin_force * moment[i]
                    coupled[quadratic_term(3 + i, 3 + b)] = quad_d * moment[i]
        diagonal[linear_term(3 + b, 3 + b)] = rot_lin
        diagonal[quadratic_term(3 + b, 3 + b)] = rot_quad

    result = {name: float(diagonal[name]) for name in DIAGONAL_DAMPING_NAMES}
    if couplings:
        result.update({k: float(v) for k, v in coupled.items() if v != 0.0})
    return result


def sum_damping(terms: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Adds damping dictionaries key by key (several ellipsoids on one link).

    Exact for single-axis motion: each ellipsoid's contribution is linear in its coefficients.
    """
    total: dict[str, float] = {}
    for t in terms:
        for k, v in t.items():
            total[k] = total.get(k, 0.0) + float(v)
    return total


# ------------------------------------------------------------------ quadratic cross terms

#: Directions per octant the cross terms are fitted on (times 8 sign flips: 400 per block).
CROSS_TERM_DIRECTIONS: Final[int] = 50


def fibonacci_directions(n: int) -> np.ndarray:
    """``8·n`` unit vectors spread evenly over the sphere, shape ``(8n, 3)``: a Fibonacci
    lattice of ``n`` points in the octant ``x, y, z ≥ 0`` and its 8 sign flips, so that the set is
    symmetric under every reflection of the axes (fits then respect the ellipsoid's symmetry)."""
    k = np.arange(n) + 0.5
    z = 1.0 - k / n  # uniform in (0, 1): the upper half
    phi = 0.5 * np.pi * ((k * (np.sqrt(5.0) - 1.0) / 2.0) % 1.0)  # golden-ratio spread in 0..π/2
    rho = np.sqrt(1.0 - z * z)
    octant = np.column_stack([rho * np.cos(phi), rho * np.sin(phi), z])
    signs = np.array([[sx, sy, sz] for sx in (1, -1) for sy in (1, -1) for sz in (1, -1)])
    return np.concatenate([octant * sgn for sgn in signs])


def drag_wrench_on_link(
    semi_axes: ArrayLike,
    X_BE: Pose,
    density: float,
    coefs: EllipsoidFluidCoefficients,
    states: ArrayLike,
) -> np.ndarray:
    """MuJoCo's quadratic drag on one ellipsoid for each link state ``s = [v_WBo_B; w_WB_B]``
    (rows, **linear-first**, the plugin's state), about Bo in link axes, linear-first ``[f; τ]``.

    ``f = -ρ·A(v̂)·|v|·v`` and ``τ = -ρ·‖c∘ω‖·ω`` at the centre Eo
    (:mod:`gzinertia.physics.fluid_forces`,
    MuJoCo 4's scaled projected area and guards), moved to Bo.
    """
    r = np.asarray(semi_axes, dtype=float)
    S = np.atleast_2d(np.asarray(states, dtype=float))
    R, p = X_BE.R, X_BE.p
    v_B = S[:, :3] + np.cross(S[:, 3:], p)  # velocity of Eo
    v, w = v_B @ R, S[:, 3:] @ R  # in E axes (rows: Rᵀ·x)
    speed = np.linalg.norm(v, axis=1)
    moving = speed > MJ_MINVAL
    u = np.zeros_like(v)
    u[moving] = v[moving] / speed[moving, None]
    r_max = float(np.max(r))
    sjsk2 = (np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]]) / r_max**2) ** 2
    num = (u**2) @ sjsk2
    den = (u**2) @ sjsk2**2
    seen = moving & (num > MJ_MINVAL)  # MuJoCo 4's two guards (fluid_forces)
    A_proj = np.zeros(len(S))
    A_proj[seen] = np.pi * r_max**2 * np.sqrt(den[seen] / num[seen])
    A_max = max_projected_area(r)
    area = coefs.blunt_drag * A_proj + coefs.slender_drag * (A_max - A_proj)
    f_E = -density * (area * speed)[:, None] * v
    c_ang = angular_drag_moments(r, coefs)
    tau_E = -density * np.linalg.norm(w * c_ang, axis=1)[:, None] * w
    f_B, tau_B = f_E @ R.T, tau_E @ R.T
    return np.hstack([f_B, tau_B + np.cross(p, f_B)])


def plugin_wrench(params: Mapping[str, float], states: ArrayLike) -> np.ndarray:
    """The damping wrench gz-sim's Hydrodynamics applies for these parameters, linear-first
    ``[f; τ]`` in link axes at Bo: ``W_i = Σ_j (<ij> + Σ_k (<ijabsk>·|s_k| + <ijk>·s_k))·s_j``
    for the state ``s = [u v w p q r]`` (one state, or one per row)."""
    S = np.asarray(states, dtype=float)
    L = np.zeros((6, 6))
    Qabs = np.zeros((6, 6, 6))
    Q = np.zeros((6, 6, 6))
    for i, f in enumerate(FORCE_AXES):
        for j, v in enumerate(VELOCITY_AXES):
            L[i, j] = params.get(f"{f}{v}", 0.0)
            for k, w in enumerate(VELOCITY_AXES):
                Qabs[i, j, k] = params.get(f"{f}{v}abs{w}", 0.0)
                Q[i, j, k] = params.get(f"{f}{v}{w}", 0.0)
    S2 = np.atleast_2d(S)
    W = (
        S2 @ L.T
        + np.einsum("ijk,nk,nj->ni", Qabs, np.abs(S2), S2)
        + np.einsum("ijk,nk,nj->ni", Q, S2, S2)
    )
    return W if S.ndim == 2 else W[0]


def quadratic_cross_terms(
    semi_axes: ArrayLike,
    X_BE: Pose,
    density: float,
    coefs: EllipsoidFluidCoefficients | None = None,
) -> dict[str, float]:
    """Cross terms ``<ijabsk>`` (``j ≠ k``: ``xUabsV``, ``kPabsQ``, ...) fitted by least squares
    to MuJoCo's drag for translation in any direction and rotation about any axis.

    MuJoCo's drag scales with ``|v|`` and the direction-dependent area ``A(v̂)``; the diagonal
    terms scale each component with its own ``|s_j|``. The plugin's wrench
    ``W_i = Σ_j Σ_k <ijabsk>·|s_k|·s_j`` can also weigh ``s_j`` by the other components' sizes.
    With the terms ``k = j`` fixed to :func:`hydrodynamics_damping`'s (so single-axis motion
    stays exact, couplings included), the terms ``j ≠ k`` with ``j, k`` both translational or
    both rotational are fitted, per wrench component, to the rest of MuJoCo's drag wrench
    about Bo over the :func:`fibonacci_directions` of translation and as many of rotation.
    Mixed terms (``j`` translational, ``k`` rotational) are not fitted. The fit is linear in the
    drag, so the terms of several ellipsoids add up. Terms whose contribution stays below 1e-9
    of that wrench component are left out. Measured accuracy: docs/fluid_forces.md ("Combined
    motion", ``benchmarks/hydro_combined_motion.py``).

    :returns: ``{name: value}`` of the fitted cross terms only (Gazebo's sign: drag terms mostly
        negative); add them to :func:`hydrodynamics_damping`'s ``couplings=True`` terms.
    """
    c = EllipsoidFluidCoefficients() if coefs is None else coefs
    r = np.asarray(semi_axes, dtype=float)
    base = hydrodynamics_damping(r, X_BE, density, 0.0, c, couplings=True)
    dirs = fibonacci_directions(CROSS_TERM_DIRECTIONS)
    result: dict[str, float] = {}
    for block in (0, 3):  # translation (U V W), rotation (P Q R)
        states = np.zeros((len(dirs), 6))
        states[:, block : block + 3] = dirs
        drag = drag_wrench_on_link(r, X_BE, density, c, states)
        residual = drag - plugin_wrench(base, states)
        pairs = [(j, k) for j in range(block, block + 3) for k in range(block, block + 3) if j != k]
        features = np.column_stack([states[:, j] * np.abs(states[:, k]) for j, k in pairs])
        fitted, *_ = np.linalg.lstsq(features, residual, rcond=None)  # (pairs, 6)
        for i in range(6):
            size = float(np.max(np.abs(drag[:, i])))
            for (j, k), value in zip(pairs, fitted[:, i], strict=True):
                if abs(value) > 1e-9 * size:
                    name = (
                        f"{FORCE_AXES[i]}{VELOCITY_AXES[j]}abs{VELOCITY_AXES[k]}"
                    )
                    result[name] = float(value)
    return result


class CombinedMotionError(NamedTuple):
    """Relative error of the plugin's damping against MuJoCo's drag for motion in any
    direction (see :func:`combined_motion_error`), as fractions."""

    translation_median: float
    translation_max: float
    rotation_median: float
    rotation_max: float


#: Directions :func:`combined_motion_error` samples per block (fixed seed, not the fit's).
ERROR_DIRECTIONS: Final[int] = 200


def combined_motion_error(
    ellipsoids: Iterable[tuple[ArrayLike, Pose]],
    density: float,
    coefs: EllipsoidFluidCoefficients,
    params: Mapping[str, float],
) -> CombinedMotionError:
    """How far the plugin's quadratic damping ``params`` is from MuJoCo's drag on these
    ellipsoids (semi-axes, ``X_BE``) for translation in, and rotation about, any direction.

    For :data:`ERROR_DIRECTIONS` random unit translations (no rotation) the error is
    ``‖f_plugin - f_MuJoCo‖ / ‖f_MuJoCo‖`` on the force about Bo; for as many unit rotations, the
    same on the moment. Quadratic terms only (viscous terms are linear and isotropic: exact), and
    MuJoCo's drag only (not its Kutta lift or added-mass terms, which damping cannot represent).
    """
    parts = [(np.asarray(r, dtype=float), X) for r, X in ellipsoids]
    dirs = np.random.default_rng(20261123).normal(size=(ERROR_DIRECTIONS, 3))
    dirs /= np.linalg.norm(dirs, axis=1)[:, None]
    quadratic = {k: v for k, v in params.items() if "abs" in k}
    stats = []
    for block in (0, 3):
        states = np.zeros((len(dirs), 6))
        states[:, block : block + 3] = dirs
        mujoco = sum(
            (drag_wrench_on_link(r, X, density, coefs, states) for r, X in parts),
            np.zeros((len(dirs), 6)),
        )
        plugin = plugin_wrench(quadratic, states)
        sl = slice(block, block + 3)
        ref = np.linalg.norm(mujoco[:, sl], axis=1)
        keep = ref > 0.0
        err = np.linalg.norm(plugin[:, sl] - mujoco[:, sl], axis=1)[keep] / ref[keep]
        stats += [float(np.median(err)), float(np.max(err))] if err.size else [0.0, 0.0]
    return CombinedMotionError(*stats)
