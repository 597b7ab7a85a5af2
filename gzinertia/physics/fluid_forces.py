"""MuJoCo's two stateless fluid-force models, as the engine computes them (``engine_passive.c``).

* **Inertia-box model** (``mj_inertiaBoxFluidModel``): the body is its equivalent inertia box;
  quadratic drag per box axis and Stokes viscous resistance of the equivalent sphere. Computed at
  the centre of mass ``Bcm`` in the principal axes ``P`` of the rotational inertia.
* **Ellipsoid model** (``mj_ellipsoidFluidModel``, ``mj_addedMassForces``, ``mj_viscousForces``):
  each geom is an ellipsoid ``E`` (semi-axes from :func:`fluid_semi_axes`); added-mass gyroscopic
  terms, projected-area quadratic drag, angular drag, Magnus and Kutta lift, Stokes resistance.
  Computed at the geom centre ``Eo`` in the geom axes ``E``.

Where MuJoCo's documentation (shared seed 000) and its C source differ, this module follows the
source; ``docs/fluid_forces.md`` lists every difference.

Conventions (``docs/conventions.md``, Drake's monogram notation and orderings):

* Spatial velocities are **angular-first** 6-vectors, like MuJoCo's ``mj_objectVelocity`` and
  Drake's ``SpatialVelocity``: ``V_WE_E = [w_WE_E; v_WEo_E]`` is the velocity of frame E in the
  world W (angular velocity, then the translational velocity of E's origin Eo), expressed in E.
* Wrenches are **angular-first** 6-vectors, like MuJoCo's local force and Drake's
  ``SpatialForce``: ``F_EEo_E = [τ; f]`` is the fluid's force on the body, applied at Eo, moment
  about Eo, both expressed in E. ``F_BBo_B`` is the same about the link origin Bo in link axes.
* The wind is the fluid's (uniform) velocity in the world. MuJoCo takes it in world axes
  (``mjOption.wind``) and rotates it into the local frame; here it is passed **already expressed
  in the local frame** (``v_wind_E = R_WEᵀ·wind_W``). It changes only the translational velocity
  (a uniform flow has no vorticity).
* Density ``ρ`` in kg/m³; ``viscosity`` ``β`` is used as MuJoCo uses it, as a dynamic viscosity
  (Pa·s) in Stokes' law ``f = -6π·β·r·v``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.physics.ellipsoid import PosedEllipsoid, primitive_semi_axes, validated_semi_axes
from gzinertia.record_base import ValueRecord
from gzinertia.records import Geometry
from gzinertia.spatial.algebra import shift_operator
from gzinertia.spatial.inertia import (
    drake_tolerance,
    equivalent_box_half_sizes,
    principal_axes,
    triangle_margin,
)
from gzinertia.spatial.rotation import Mat3, Vec3
from gzinertia.spatial.tuckerman import ellipsoid_added_mass

__all__ = [
    "MJ_MINVAL",
    "EllipsoidFluidCoefficients",
    "EllipsoidFluidWrench",
    "FluidGeom",
    "angular_drag_moments",
    "ellipsoid_fluid_wrench",
    "ellipsoid_fluid_wrench_on_link",
    "ellipsoid_fluid_wrench_terms",
    "fluid_semi_axes",
    "inertia_box_fluid_wrench",
    "inertia_box_fluid_wrench_on_link",
    "inertia_box_half_sizes",
    "max_projected_area",
    "projected_area",
    "shadow_area",
    "shift_spatial_force",
    "shift_velocity",
    "stokes_coefficients",
    "translational_drag_area",
]

Vec6 = NDArray[np.float64]

#: MuJoCo's ``mjMINVAL``: the engine's guard against division by zero, kept where it guards.
MJ_MINVAL: Final[float] = 1e-15


@dataclass(frozen=True, repr=False, eq=False)
class EllipsoidFluidCoefficients(ValueRecord):
    """The five per-geom coefficients of MuJoCo's ellipsoid model (MJCF ``fluidcoef`` order).

    Defaults are MuJoCo's: blunt drag 0.5, slender drag 0.25, angular drag 1.5, Kutta lift 1.0,
    Magnus lift 1.0 (``model.geom_fluid[g, 1:6]``).
    """

    blunt_drag: float = 0.5
    slender_drag: float = 0.25
    angular_drag: float = 1.5
    kutta_lift: float = 1.0
    magnus_lift: float = 1.0

    @classmethod
    def from_mujoco(cls, fluidcoef: ArrayLike) -> EllipsoidFluidCoefficients:
        """From MJCF ``fluidcoef`` / ``model.geom_fluid[g, 1:6]`` (5 numbers, that order)."""
        c = np.asarray(fluidcoef, dtype=float).reshape(5)
        return cls(float(c[0]), float(c[1]), float(c[2]), float(c[3]), float(c[4]))

    def as_mujoco(self) -> tuple[float, float, float, float, float]:
        """The 5 numbers in MJCF ``fluidcoef`` order."""
        return (
            self.blunt_drag,
            self.slender_drag,
            self.angular_drag,
            self.kutta_lift,
            self.magnus_lift,
        )


class EllipsoidFluidWrench(NamedTuple):
    """``F_EEo_E`` of the ellipsoid model, term by term.

    Each field is an angular-first wrench ``[τ; f]`` on the body, at the ellipsoid centre Eo, in
    ellipsoid axes E. ``drag`` is the quadratic (density) part of the linear and angular drag,
    ``viscous`` the Stokes (viscosity) part; MuJoCo adds the two into one coefficient.
    """

    added_mass: Vec6
    magnus: Vec6
    kutta: Vec6
    drag: Vec6
    viscous: Vec6

    @property
    def total(self) -> Vec6:
        """The sum of all terms: what MuJoCo applies (``F_EEo_E``)."""
        return self.added_mass + self.magnus + self.kutta + self.drag + self.viscous

    @property
    def dissipative(self) -> Vec6:
        """Quadratic drag plus viscous resistance (the terms that oppose the relative motion)."""
        return self.drag + self.viscous


def _vec(a: ArrayLike, n: int, name: str) -> NDArray[np.float64]:
    v = np.asarray(a, dtype=float)
    if v.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be finite")
    return v


def _semi_axes(semi_axes: ArrayLike) -> Vec3:
    return validated_semi_axes(semi_axes)


def _medium(density: float, viscosity: float) -> tuple[float, float]:
    rho, beta = float(density), float(viscosity)
    if not (np.isfinite(rho) and rho >= 0.0 and np.isfinite(beta) and beta >= 0.0):
        raise ValueError(f"density and viscosity must be finite and >= 0, got {rho}, {beta}")
    return rho, beta


# ------------------------------------------------------------------------- geometry helpers


def fluid_semi_axes(geometry: Geometry) -> Vec3:
    """Semi-axes MuJoCo gives the ellipsoid of a primitive geom (``mju_geomSemiAxes``).

    In the geom's own frame, from SDFormat dimensions: sphere ``(r, r, r)``; capsule
    ``(r, r, L/2 + r)`` (SDF ``length`` L excludes the caps); cylinder ``(r, r, L/2)``; box its
    half-sizes (the inscribed ellipsoid, not one of equal volume); ellipsoid its radii.

    :raises ValueError: for meshes and other shapes. MuJoCo uses a mesh's bounding-box half-extents,
        but measured in the frame MuJoCo moves every mesh to (its own centre of mass and
        principal axes), not in the mesh file's frame; that is not reproduced here.
    """
    r = primitive_semi_axes(geometry)
    if r is None:
        raise ValueError(f"no fluid ellipsoid for geometry kind {geometry.kind!r}")
    return _semi_axes(r)


def _unit_direction(direction: ArrayLike) -> Vec3:
    u = _vec(direction, 3, "direction")
    norm = float(np.linalg.norm(u))
    if norm == 0.0:
        raise ValueError("direction must be non-zero")
    return u / norm


def projected_area(semi_axes: ArrayLike, direction: ArrayLike) -> float:
    """What MuJoCo calls the projected area ``A_proj`` for motion along ``direction``.

    ``A_proj = π·sqrt(Σ (r_j r_k)⁴ u_i² / Σ (r_j r_k)² u_i²)`` (seed 000's lemma, and the engine),
    in ellipsoid axes; ``direction`` need not be unit but must be non-zero. Without the engine's
    guard for needles moving along their axis (see :func:`ellipsoid_fluid_wrench_terms`).

    This is the area of the ellipsoid's central section normal to ``n ∝ (u_i / r_i²)``: the rim
    whose shadow is the ellipsoid's projection along ``u``. It is **not** the shadow's area
    (:func:`shadow_area`), which is smaller by the factor ``n̂·û``: the lemma's derivation
    identifies the shadow with the rim and leaves out that cosine. The two agree only along a
    principal axis (or for a sphere); otherwise ``A_proj`` exceeds the shadow by ``1/(n̂·û)``,
    a factor that grows with the aspect ratio, and stays at most ``π·r_max·r_mid`` (the largest
    central section).
    """
    r = _semi_axes(semi_axes)
    u = _unit_direction(direction)
    rjrk2 = np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]]) ** 2
    return float(np.pi * np.sqrt(np.sum(rjrk2**2 * u**2) / np.sum(rjrk2 * u**2)))


def shadow_area(semi_axes: ArrayLike, direction: ArrayLike) -> float:
    """Area of the ellipsoid's orthogonal projection on the plane normal to ``direction``.

    ``π·sqrt(Σ (r_j r_k)² û_i²) = π·r_x r_y r_z·sqrt(Σ û_i² / r_i²)``. For comparison with
    :func:`projected_area` (MuJoCo uses that one, not this).
    """
    r = _semi_axes(semi_axes)
    u = _unit_direction(direction)
    rjrk = np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]])
    return float(np.pi * np.sqrt(np.sum(rjrk**2 * u**2)))


def max_projected_area(semi_axes: ArrayLike) -> float:
    """``A_max = π·r_max·r_mid`` as the engine defines it (the seed says ``4π·r_max·r_min``)."""
    r = np.sort(_semi_axes(semi_axes))
    return float(np.pi * r[2] * r[1])


def translational_drag_area(
    semi_axes: ArrayLike, direction: ArrayLike, coefs: EllipsoidFluidCoefficients
) -> float:
    """``C_blunt·A_proj + C_slender·(A_max - A_proj)`` for motion along ``direction`` (m²).

    MuJoCo's quadratic drag force is ``-ρ·(this)·|v|·v``, exactly along ``v``.
    """
    a_proj = projected_area(semi_axes, direction)
    return coefs.blunt_drag * a_proj + coefs.slender_drag * (max_projected_area(semi_axes) - a_proj)


def angular_drag_moments(semi_axes: ArrayLike, coefs: EllipsoidFluidCoefficients) -> Vec3:
    """Per-axis ``c_i = C_angular·I_D,i + C_slender·(I_max - I_D,i)`` in ellipsoid axes (m⁵).

    ``I_D,i = 8π/15·r_i·max(r_j, r_k)⁴`` and ``I_max = 8π/15·r_mid·r_max⁴`` (= ``max_i I_D,i``).
    MuJoCo's quadratic angular drag torque is ``-ρ·‖c∘ω‖·ω``, exactly along ``ω``.
    """
    r = _semi_axes(semi_axes)
    return _angular_drag_moments(r, coefs)


def _angular_drag_moments(r: Vec3, coefs: EllipsoidFluidCoefficients) -> Vec3:
    d_max, d_min = max(r), min(r)
    d_mid = r[0] + r[1] + r[2] - d_max - d_min
    I_max = 8.0 / 15.0 * np.pi * d_mid * d_max**4
    II = np.array(
        [8.0 / 15.0 * np.pi * r[i] * max(r[(i + 1) % 3], r[(i + 2) % 3]) ** 4 for i in range(3)]
    )
    return coefs.angular_drag * II + coefs.slender_drag * (I_max - II)


def stokes_coefficients(semi_axes: ArrayLike) -> tuple[float, float]:
    """``(6π·r_D, 8π·r_D³)`` with ``r_D = (r_x + r_y + r_z)/3``: Stokes' force and torque per
    unit viscosity of the equivalent sphere (``f = -β·6π r_D·v``, ``τ = -β·8π r_D³·ω``)."""
    r = _semi_axes(semi_axes)
    D = 2.0 / 3.0 * (r[0] + r[1] + r[2])
    return float(3.0 * np.pi * D), float(np.pi * D * D * D)


# ----------------------------------------------------------------------- change of point


def shift_velocity(V_WB_B: ArrayLike, p_BoQ_B: ArrayLike) -> Vec6:
    """``V_WBq_B``: the spatial velocity (angular-first) of the frame B shifted to point Q.

    ``v_WQ = v_WBo + w_WB × p_BoQ`` (same axes B), via
    :func:`gzinertia.spatial.algebra.shift_operator`.
    """
    return shift_operator(p_BoQ_B, "angular-first") @ _vec(V_WB_B, 6, "V_WB_B")


def shift_spatial_force(F_BP_B: ArrayLike, p_PQ_B: ArrayLike) -> Vec6:
    """``F_BQ_B``: a wrench (angular-first) applied at point P moved to point Q (same axes B).

    ``p_PQ_B`` runs **from the old point P to the new point Q** (Drake's
    ``SpatialForce.Shift(p_PQ_E)``, the direction of :func:`shift_velocity`):
    ``τ_Q = τ_P - p_PQ × f``, ``f`` unchanged. Power ``F·V`` is invariant.
    """
    return shift_operator(-_vec(p_PQ_B, 3, "p_PQ_B"), "angular-first").T @ _vec(
        F_BP_B, 6, "F_BP_B"
    )


def _rotate6(R: Mat3, X: Vec6) -> Vec6:
    return np.concatenate([R @ X[:3], R @ X[3:]])


# ------------------------------------------------------------------------ inertia-box model


def inertia_box_half_sizes(mass: float, principal_moments: ArrayLike) -> Vec3:
    """Half-sizes of MuJoCo's equivalent inertia box, ``r_i² = 3/(2m)·(I_j + I_k - I_i)``.

    As the engine does, ``I_j + I_k - I_i`` is floored at ``mjMINVAL`` (so a flat body keeps a
    tiny, non-zero thickness) — :func:`gzinertia.spatial.inertia.equivalent_box_half_sizes`
    otherwise.

    :raises ValueError: mass not positive, or moments that are negative or violate the triangle
        inequality beyond Drake's tolerance (MuJoCo's compiler rejects those bodies).
    """
    m = float(mass)
    moments = _vec(principal_moments, 3, "principal_moments")
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
    rho, beta = _medium(density, viscosity)
    V = _vec(V_WP_P, 6, "V_WP_P")
    wind = np.zeros(3) if v_wind_P is None else _vec(v_wind_P, 3, "v_wind_P")
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
    p = _vec(p_BoBcm_B, 3, "p_BoBcm_B")
    moments, R_BP = principal_axes(I)
    V_WP_P = _rotate6(R_BP.T, shift_velocity(V_WB_B, p))
    wind_P = None if v_wind_B is None else R_BP.T @ _vec(v_wind_B, 3, "v_wind_B")
    F_BBcm_P = inertia_box_fluid_wrench(mass, moments, V_WP_P, density, viscosity, wind_P)
    return shift_spatial_force(_rotate6(R_BP, F_BBcm_P), -p)


# -------------------------------------------------------------------------- ellipsoid model


def ellipsoid_fluid_wrench_terms(
    semi_axes: ArrayLike,
    V_WE_E: ArrayLike,
    density: float,
    viscosity: float,
    v_wind_E: ArrayLike | None = None,
    coefs: EllipsoidFluidCoefficients | None = None,
    virtual_mass: ArrayLike | None = None,
    virtual_inertia: ArrayLike | None = None,
) -> EllipsoidFluidWrench:
    """MuJoCo's ellipsoid-model wrench on one geom, ``F_EEo_E``, split by term.

    :param semi_axes: ``(r_x, r_y, r_z)`` of the ellipsoid along E's axes (see
        :func:`fluid_semi_axes`).
    :param V_WE_E: angular-first ``[w_WE_E; v_WEo_E]``, velocity of the geom frame E (origin at the
        ellipsoid centre Eo) in the world, expressed in E.
    :param density: fluid density ``ρ``.
    :param viscosity: fluid viscosity ``β``.
    :param v_wind_E: the fluid's velocity in the world, expressed in E (default 0).
    :param coefs: the five coefficients (MuJoCo's defaults when ``None``).
    :param virtual_mass: translational added-mass coefficients per unit density along E's axes, in
        MuJoCo's units (m³, volume folded in, ρ not: ``model.geom_fluid[g, 6:9]``). When
        ``None`` they come from
        :func:`gzinertia.spatial.tuckerman.ellipsoid_added_mass` (closed form), which
        differs from MuJoCo's 15-point quadrature of κ by its quadrature error.
    :param virtual_inertia: the rotational ones about E's axes (m⁵,
        ``model.geom_fluid[g, 9:12]``; ``None`` as for ``virtual_mass``).

    :returns: The terms, each angular-first ``[τ; f]`` at Eo in E. With ``v`` the velocity
        relative to the fluid and ``ω`` the angular velocity, ``m_A = ρ·virtual_mass``,
        ``I_A = ρ·virtual_inertia``, ``V`` the ellipsoid volume:

        * ``added_mass``: ``f = (m_A∘v)×ω``, ``τ = (m_A∘v)×v + (I_A∘ω)×ω`` (no ``-m_A∘v̇``);
        * ``magnus``: ``f = C_M·ρV·ω×v``;
        * ``kutta``: ``f = C_K·ρ·A_proj·(v̂·n̂)·(n̂×v)×v``, ``n ∝ (r_y²r_z²v_x, r_z²r_x²v_y,
          r_x²r_y²v_z)`` (``A_proj·(v̂·n̂)`` is the true shadow area, :func:`shadow_area`);
        * ``drag``: ``f = -ρ·(C_blunt·A_proj + C_slender·(A_max - A_proj))·|v|·v``,
          ``τ = -ρ·‖c∘ω‖·ω`` (see :func:`angular_drag_moments`);
        * ``viscous``: ``f = -β·6π r_D·v``, ``τ = -β·8π r_D³·ω``.

        As MuJoCo 4 does, ``A_proj`` and ``v̂·n̂`` are evaluated in the unit direction of ``v``
        with the semi-axes scaled by the largest, so no guard trips for small or slow bodies;
        at ``|v| ≤ mjMINVAL`` (and for needles beyond an aspect ratio of about 5600 moving along
        their axis) ``A_proj`` is 0 and there is no Kutta lift. (MuJoCo up to 3.12 divided by
        ``max(mjMINVAL, ·)`` of the unscaled products instead, which shrank the lift and area of
        centimetre geoms at low speed; see ``docs/fluid_forces.md``.)
    """
    r = _semi_axes(semi_axes)
    rho, beta = _medium(density, viscosity)
    c = EllipsoidFluidCoefficients() if coefs is None else coefs
    V = _vec(V_WE_E, 6, "V_WE_E")
    wind = np.zeros(3) if v_wind_E is None else _vec(v_wind_E, 3, "v_wind_E")
    if (virtual_mass is None) != (virtual_inertia is None):
        raise ValueError("give both virtual_mass and virtual_inertia, or neither")
    if virtual_mass is None or virtual_inertia is None:
        vm, vi = ellipsoid_added_mass(r, 1.0)
    else:
        vm = _vec(virtual_mass, 3, "virtual_mass")
        vi = _vec(virtual_inertia, 3, "virtual_inertia")

    w = V[:3]
    v = V[3:] - wind
    zero = np.zeros(3)

    # Added mass (mj_addedMassForces, accelerations disabled).
    lin_mom = rho * vm * v
    ang_mom = rho * vi * w
    added_mass = np.concatenate([np.cross(lin_mom, v) + np.cross(ang_mom, w), np.cross(lin_mom, w)])

    # mj_viscousForces
    volume = 4.0 / 3.0 * np.pi * r[0] * r[1] * r[2]
    d_max, d_min = max(r), min(r)
    d_mid = r[0] + r[1] + r[2] - d_max - d_min
    A_max = np.pi * d_max * d_mid

    magnus = np.concatenate([zero, np.cross(w, v) * (c.magnus_lift * rho * volume)])

    speed = float(np.linalg.norm(v))
    A_proj, kutta_circ = _projected_area_and_kutta_circulation(r, v, speed)
    kutta_circ = kutta_circ * (c.kutta_lift * rho)
    kutta = np.concatenate([zero, np.cross(kutta_circ, v)])

    lin_visc, ang_visc = stokes_coefficients(r)
    mom_visc = w * _angular_drag_moments(r, c)
    quad_lin = rho * speed * (A_proj * c.blunt_drag + c.slender_drag * (A_max - A_proj))
    quad_ang = rho * float(np.linalg.norm(mom_visc))
    drag = np.concatenate([-quad_ang * w, -quad_lin * v])
    viscous = np.concatenate([-(beta * ang_visc) * w, -(beta * lin_visc) * v])
    return EllipsoidFluidWrench(added_mass, magnus, kutta, drag, viscous)


def _projected_area_and_kutta_circulation(r: Vec3, v: Vec3, speed: float) -> tuple[float, Vec3]:
    """``A_proj`` and ``A_proj·(v̂·n̂)·(n̂×v)`` (the Kutta circulation per unit ``C_K·ρ``), as
    MuJoCo 4 evaluates them: in the unit direction ``û = v/|v|`` and the semi-axes scaled by
    their largest, ``ŝ = r/r_max``, so that no product of small numbers underflows a guard.

    The two guards are MuJoCo's (measured on the installed engine, ``docs/fluid_forces.md``):
    for ``|v| ≤ mjMINVAL``, or when ``Σ (ŝ_j ŝ_k û_i)² ≤ mjMINVAL`` (a needle moving along its
    axis, aspect ratio beyond about 5600), ``A_proj = 0`` and there is no Kutta lift.
    """
    zero = np.zeros(3)
    if not speed > MJ_MINVAL:
        return 0.0, zero
    r_max = float(np.max(r))
    s = r / r_max
    u = v / speed
    sjsk2 = np.array([s[1] * s[2], s[2] * s[0], s[0] * s[1]]) ** 2
    proj_num = float(np.sum(sjsk2 * u**2))  # n·û, with n = sjsk2∘û (not unit)
    if not proj_num > MJ_MINVAL:
        return 0.0, zero
    proj_denom = float(np.sum(sjsk2**2 * u**2))  # |n|²
    A_proj = np.pi * r_max * r_max * np.sqrt(proj_denom / proj_num)
    normal = sjsk2 * u
    cos_alpha = proj_num / proj_denom  # (û·n̂)/|n|
    return float(A_proj), np.cross(normal, v) * (cos_alpha * A_proj)


# duplicates: the public total spells out the signature of the terms function it wraps
def ellipsoid_fluid_wrench(
    semi_axes: ArrayLike,
    V_WE_E: ArrayLike,
    density: float,
    viscosity: float,
    v_wind_E: ArrayLike | None = None,
    coefs: EllipsoidFluidCoefficients | None = None,
    virtual_mass: ArrayLike | None = None,
    virtual_inertia: ArrayLike | None = None,
) -> Vec6:
    """``F_EEo_E``: the total of :func:`ellipsoid_fluid_wrench_terms` (same arguments).

    Angular-first ``[τ; f]`` on the body, at the ellipsoid centre Eo, in ellipsoid axes E.
    """
    return ellipsoid_fluid_wrench_terms(
        semi_axes, V_WE_E, density, viscosity, v_wind_E, coefs, virtual_mass, virtual_inertia
    ).total


@dataclass(frozen=True, repr=False, eq=False)
class FluidGeom(ValueRecord):
    """One geom of a link under the ellipsoid model.

    ``ellipsoid`` is the geom's ellipsoid E posed in the link frame B (its ``X_FE`` is ``X_BE``:
    centre ``p_BoEo_B`` and axes ``R_BE``); ``virtual_mass``/``virtual_inertia`` optionally
    override the closed-form added mass (MuJoCo's units, see
    :func:`ellipsoid_fluid_wrench_terms`).
    """

    ellipsoid: PosedEllipsoid
    coefs: EllipsoidFluidCoefficients = field(default_factory=EllipsoidFluidCoefficients)
    virtual_mass: tuple[float, float, float] | None = None
    virtual_inertia: tuple[float, float, float] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.ellipsoid, PosedEllipsoid):
            raise TypeError(
                f"FluidGeom takes a PosedEllipsoid, not {type(self.ellipsoid).__name__}"
            )


def ellipsoid_fluid_wrench_on_link(
    ellipsoids: Sequence[FluidGeom],
    V_WB_B: ArrayLike,
    density: float,
    viscosity: float,
    v_wind_B: ArrayLike | None = None,
) -> Vec6:
    """``F_BBo_B``: the summed ellipsoid-model wrench of a link's geoms, about Bo, in link axes.

    Each geom sees the link's velocity shifted to its centre and re-expressed in its axes; its
    wrench ``F_EEo_E`` is rotated to B and moved to Bo. (MuJoCo uses this model for a body as soon
    as one of its geoms has ``fluidshape="ellipsoid"``, and then only those geoms feel the fluid;
    pass only those.)

    :param V_WB_B: angular-first ``[w_WB_B; v_WBo_B]``.
    :param v_wind_B: the fluid's velocity in the world, expressed in B (default 0).
    """
    V = _vec(V_WB_B, 6, "V_WB_B")
    wind_B = np.zeros(3) if v_wind_B is None else _vec(v_wind_B, 3, "v_wind_B")
    F_BBo_B = np.zeros(6)
    for e in ellipsoids:
        R_BE, p_BoEo_B = e.ellipsoid.X_FE.R, e.ellipsoid.X_FE.p
        V_WE_E = _rotate6(R_BE.T, shift_velocity(V, p_BoEo_B))
        F_EEo_E = ellipsoid_fluid_wrench(
            e.ellipsoid.semi_axes,
            V_WE_E,
            density,
            viscosity,
            R_BE.T @ wind_B,
            e.coefs,
            e.virtual_mass,
            e.virtual_inertia,
        )
        F_BBo_B += shift_spatial_force(_rotate6(R_BE, F_EEo_E), -p_BoEo_B)
    return F_BBo_B
