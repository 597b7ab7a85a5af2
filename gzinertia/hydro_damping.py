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

What MuJoCo applies (:mod:`gzinertia.fluid_forces`): on an ellipsoid E moving with velocity ``v``
relative to the fluid and angular velocity ``ω``, the dissipative part is

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
cover them; see :mod:`gzinertia.tuckerman`), Magnus and Kutta lift (no plugin equivalent).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.fluid_forces import (
    EllipsoidFluidCoefficients,
    angular_drag_moments,
    stokes_coefficients,
    translational_drag_area,
)
from gzinertia.records import HYDRO_FORCE_AXES, HYDRO_VELOCITY_AXES
from gzinertia.rotation import Pose

__all__ = [
    "DIAGONAL_DAMPING_NAMES",
    "hydrodynamics_damping",
    "sum_damping",
]


#: The 12 diagonal parameters, linear then quadratic: ``xU ... nR``, ``xUabsU ... nRabsR``.
_DIAGONAL = [(HYDRO_FORCE_AXES[i], HYDRO_VELOCITY_AXES[i]) for i in range(6)]
DIAGONAL_DAMPING_NAMES: Final[tuple[str, ...]] = tuple(f"{f}{v}" for f, v in _DIAGONAL) + tuple(
    f"{f}{v}abs{v}" for f, v in _DIAGONAL
)


def _linear(i: int, j: int) -> str:
    return f"{HYDRO_FORCE_AXES[i]}{HYDRO_VELOCITY_AXES[j]}"


def _quadratic(i: int, j: int) -> str:
    return f"{HYDRO_FORCE_AXES[i]}{HYDRO_VELOCITY_AXES[j]}abs{HYDRO_VELOCITY_AXES[j]}"


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

    Args:
        semi_axes: ``(r_x, r_y, r_z)`` along the ellipsoid's axes E (e.g.
            :func:`gzinertia.fluid_forces.fluid_semi_axes` of a collision geometry).
        X_BE: the ellipsoid's pose in the link frame B (``p_BoEo_B``, ``R_BE``), e.g. the
            collision's ``X_BC``.
        density: fluid density ``ρ`` (kg/m³). The plugin's own ``<water_density>`` does not
            enter its damping: the coefficients carry ``ρ``.
        viscosity: MuJoCo's ``β`` (a dynamic viscosity, Pa·s; 0 disables the linear terms).
        coefs: MuJoCo's five ellipsoid coefficients (its defaults when ``None``; the lift
            coefficients do not enter).
        couplings: also return the off-diagonal terms created by an offset centre (see module
            docstring); only non-zero ones are included.

    Returns:
        ``{name: value}`` with the 12 names of :data:`DIAGONAL_DAMPING_NAMES` (all ``<= 0``:
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
        diagonal[_linear(b, b)] = lin_force
        diagonal[_quadratic(b, b)] = quad_force
        lever = np.cross(p, e_b)  # moment about Bo per unit force along e_b at Eo
        for i in range(3):
            if lever[i] != 0.0:
                coupled[_linear(3 + i, b)] = lin_force * lever[i]
                coupled[_quadratic(3 + i, b)] = quad_force * lever[i]

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
                    coupled[_linear(i, 3 + b)] = lin_force * d[i]
                    coupled[_quadratic(i, 3 + b)] = quad_d * d[i]
                if i != b and moment[i] != 0.0:
                    coupled[_linear(3 + i, 3 + b)] = lin_force * moment[i]
                    coupled[_quadratic(3 + i, 3 + b)] = quad_d * moment[i]
        diagonal[_linear(3 + b, 3 + b)] = rot_lin
        diagonal[_quadratic(3 + b, 3 + b)] = rot_quad

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
