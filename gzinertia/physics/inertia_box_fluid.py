"""MuJoCo's inertia-box fluid model (``mj_inertiaBoxFluidModel``, ``engine_passive.c``): the
body is its equivalent inertia box, with quadratic drag per box axis and the Stokes resistance
of the equivalent sphere. Computed at the centre of mass Bcm in the principal axes P of the
rotational inertia; :func:`inertia_box_fluid_wrench_on_link` moves it to the link origin Bo in
link axes B. Velocities and wrenches are angular-first (:mod:`gzinertia.physics.fluid_forces`).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.physics.fluid_geometry import MJ_MINVAL
from gzinertia.physics.fluid_inputs import checked_medium, checked_vector
from gzinertia.physics.wrench_shift import rotate6, shift_spatial_force, shift_velocity
from gzinertia.spatial.inertia import (
    drake_tolerance,
    equivalent_box_half_sizes,
    principal_axes,
    triangle_margin,
)
from gzinertia.spatial.rotation import Vec3

Vec6 = NDArray[np.float64]


def inertia_box_half_sizes(mass: float, principal_moments: ArrayLike) -> Vec3:
    """Half-sizes of MuJoCo's equivalent inertia box, ``r_i² = 3/(2m)·(I_j + I_k - I_i)``.

    As the engine does, ``I_j + I_k - I_i`` is floored at ``mjMINVAL`` (so a flat body keeps a
    tiny, non-zero thickness) — :func:`gzinertia.spatial.inertia.equivalent_box_half_sizes`
    otherwise.

    :raises ValueError: mass not positive, or moments that are negative or violate the triangle
        inequality beyond Drake's tolerance (MuJoCo's compiler rejects those bodies).
    """
    m = float(mass)
    moments = checked_vector(principal_moments, 3, "principal_moments")
    if not m > 0.0:
        raise ValueError(f"mass must be positive, got {mass}")
    tol = drake_tolerance(moments)
    if np.any(moments < -tol) or triangle_margin(moments) < -tol:
        raise ValueError(f"principal moments {moments} are not those of a physical body")
    half = equivalent_box_half_sizes(m, moments)
    floor = np.sqrt(1.5 / m * MJ_MINVAL)
    return np.where(np.isnan(half) | (half < floor), floor, half)


def inertia_box_fluid_wrench(
    mass: float,
    principal_moments: ArrayLike,
    V_WP_P: ArrayLike,
    density: float,
    viscosity: float,
    v_wind_P: ArrayLike | None = None,
) -> Vec6:
    """``F_BBcm_P``: MuJoCo's inertia-box fluid wrench on a body (``mj_inertiaBoxFluidModel``).

    :param mass: body mass ``m`` (kg), positive.
    :param principal_moments: the principal moments ``(I_x, I_y, I_z)`` about the centre of
        mass Bcm, along the axes of frame P (MuJoCo's ``body_inertia``, P being ``body_iquat``).
    :param V_WP_P: angular-first spatial velocity of P (origin Bcm) in the world, in P axes.
    :param density: fluid density ``ρ``.
    :param viscosity: fluid viscosity ``β`` (see module docstring).
    :param v_wind_P: the fluid's velocity in the world, expressed in P (default 0).

    :returns: Angular-first ``[τ; f]`` at Bcm in P axes, the sum of (r = box half-sizes, v and ω the
        velocity relative to the fluid)

        * quadratic drag ``f_i = -2ρ·r_j r_k·|v_i|v_i``, ``τ_i = -½ρ·r_i(r_j⁴ + r_k⁴)·|ω_i|ω_i``;
        * Stokes resistance of the sphere of radius ``r_eq = (r_x + r_y + r_z)/3``:
          ``f = -6πβ·r_eq·v``, ``τ = -8πβ·r_eq³·ω``.
    """
    rho, beta = checked_medium(density, viscosity)
    V = checked_vector(V_WP_P, 6, "V_WP_P")
    wind = np.zeros(3) if v_wind_P is None else checked_vector(v_wind_P, 3, "v_wind_P")
    box = 2.0 * inertia_box_half_sizes(mass, principal_moments)  # MuJoCo works with full sizes
    w = V[:3]
    v = V[3:] - wind
    F = np.zeros(6)
    if beta > 0.0:
        diam = (box[0] + box[1] + box[2]) / 3.0
        F[:3] = w * (-np.pi * diam * diam * diam * beta)
        F[3:] = v * (-3.0 * np.pi * diam * beta)
    if rho > 0.0:
        for i in range(3):
            j, k = (i + 1) % 3, (i + 2) % 3
            F[3 + i] -= 0.5 * rho * box[j] * box[k] * abs(v[i]) * v[i]
            F[i] -= rho * box[i] * (box[j] ** 4 + box[k] ** 4) * abs(w[i]) * w[i] / 64.0
    return F


def inertia_box_fluid_wrench_on_link(
    mass: float,
    I_BBcm_B: ArrayLike,
    p_BoBcm_B: ArrayLike,
    V_WB_B: ArrayLike,
    density: float,
    viscosity: float,
    v_wind_B: ArrayLike | None = None,
) -> Vec6:
    """``F_BBo_B``: the inertia-box wrench of a link, about its origin Bo, in link axes.

    The principal axes P of ``I_BBcm_B`` come from
    :func:`gzinertia.spatial.inertia.principal_axes`; the
    model is invariant to their order and signs, but **not** to the choice of axes inside a
    degenerate plane (two equal moments): the box then has two equal sides, yet ``|v_i|·v_i`` is
    not isotropic in that plane, so MuJoCo's result depends on the axes its own eigensolver
    picked (``body_iquat``) and may differ from this one for such bodies.

    :param V_WB_B: angular-first ``[w_WB_B; v_WBo_B]``.
    :param v_wind_B: the fluid's velocity in the world, expressed in B (default 0).
    """
    I = np.asarray(I_BBcm_B, dtype=float)
    p = checked_vector(p_BoBcm_B, 3, "p_BoBcm_B")
    moments, R_BP = principal_axes(I)
    V_WP_P = rotate6(R_BP.T, shift_velocity(V_WB_B, p))
    wind_P = None if v_wind_B is None else R_BP.T @ checked_vector(v_wind_B, 3, "v_wind_B")
    F_BBcm_P = inertia_box_fluid_wrench(mass, moments, V_WP_P, density, viscosity, wind_P)
    return shift_spatial_force(rotate6(R_BP, F_BBcm_P), -p)

