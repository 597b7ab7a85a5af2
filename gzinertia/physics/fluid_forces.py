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

This module is the models' public face and holds the ellipsoid model; the inertia-box model is
in :mod:`gzinertia.physics.inertia_box_fluid`, the ellipsoid's areas, moments and coefficients
in :mod:`gzinertia.physics.fluid_geometry`, the change of point in
:mod:`gzinertia.physics.wrench_shift` (each name listed in ``__all__`` is importable from here).

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
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.physics.ellipsoid import PosedEllipsoid, validated_semi_axes
from gzinertia.physics.fluid_geometry import (
    MJ_MINVAL,
    EllipsoidFluidCoefficients,
    angular_drag_moments,
    fluid_semi_axes,
    max_projected_area,
    projected_area,
    shadow_area,
    stokes_coefficients,
    translational_drag_area,
)
from gzinertia.physics.fluid_inputs import checked_medium, checked_vector
from gzinertia.physics.forwarding import returning_part
from gzinertia.physics.inertia_box_fluid import (
    inertia_box_fluid_wrench,
    inertia_box_fluid_wrench_on_link,
    inertia_box_half_sizes,
)
from gzinertia.physics.wrench_shift import rotate6, shift_spatial_force, shift_velocity
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Vec3
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
    r = validated_semi_axes(semi_axes)
    rho, beta = checked_medium(density, viscosity)
    c = EllipsoidFluidCoefficients() if coefs is None else coefs
    V = checked_vector(V_WE_E, 6, "V_WE_E")
    wind = np.zeros(3) if v_wind_E is None else checked_vector(v_wind_E, 3, "v_wind_E")
    vm, vi = _virtual_mass_and_inertia(r, virtual_mass, virtual_inertia)
    w = V[:3]
    v = V[3:] - wind
    zero = np.zeros(3)

    # Added mass (mj_addedMassForces, accelerations disabled).
    lin_mom = rho * vm * v
    ang_mom = rho * vi * w
    added_mass = np.concatenate([np.cross(lin_mom, v) + np.cross(ang_mom, w), np.cross(lin_mom, w)])

    # mj_viscousForces
    volume = 4.0 / 3.0 * np.pi * r[0] * r[1] * r[2]
    magnus = np.concatenate([zero, np.cross(w, v) * (c.magnus_lift * rho * volume)])

    speed = float(np.linalg.norm(v))
    A_proj, kutta_circ = _projected_area_and_kutta_circulation(r, v, speed)
    kutta_circ = kutta_circ * (c.kutta_lift * rho)
    kutta = np.concatenate([zero, np.cross(kutta_circ, v)])

    drag, viscous = _drag_and_viscous(r, c, (rho, beta), (w, v), A_proj)
    return EllipsoidFluidWrench(added_mass, magnus, kutta, drag, viscous)


def _virtual_mass_and_inertia(
    r: Vec3, virtual_mass: ArrayLike | None, virtual_inertia: ArrayLike | None
) -> tuple[Vec3, Vec3]:
    """The translational and rotational added-mass coefficients per unit density along E's
    axes (m³, m⁵): both given, or both from the closed form
    (:func:`gzinertia.spatial.tuckerman.ellipsoid_added_mass` of the semi-axes ``r``)."""
    if (virtual_mass is None) != (virtual_inertia is None):
        raise ValueError("give both virtual_mass and virtual_inertia, or neither")
    if virtual_mass is None or virtual_inertia is None:
        vm, vi = ellipsoid_added_mass(r, 1.0)
        return vm, vi
    return (checked_vector(virtual_mass, 3, "virtual_mass"),
            checked_vector(virtual_inertia, 3, "virtual_inertia"))


def _drag_and_viscous(
    r: Vec3, c: EllipsoidFluidCoefficients, medium: tuple[float, float],
    w_v: tuple[Vec3, Vec3], A_proj: float,
) -> tuple[Vec6, Vec6]:
    """The quadratic drag and the Stokes resistance (angular-first ``[τ; f]`` at Eo in E) of
    the ellipsoid of semi-axes ``r`` turning at ``ω`` and moving at ``v`` relative to the fluid
    (``w_v``) in a fluid of ``(ρ, β)``, ``A_proj`` the projected area along ``v``
    (``mj_viscousForces``)."""
    rho, beta = medium
    w, v = w_v
    d_max, d_min = max(r), min(r)
    d_mid = r[0] + r[1] + r[2] - d_max - d_min
    A_max = np.pi * d_max * d_mid
    speed = float(np.linalg.norm(v))
    lin_visc, ang_visc = stokes_coefficients(r)
    mom_visc = w * angular_drag_moments(r, c)
    quad_lin = rho * speed * (A_proj * c.blunt_drag + c.slender_drag * (A_max - A_proj))
    quad_ang = rho * float(np.linalg.norm(mom_visc))
    drag = np.concatenate([-quad_ang * w, -quad_lin * v])
    viscous = np.concatenate([-(beta * ang_visc) * w, -(beta * lin_visc) * v])
    return drag, viscous


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


#: ``F_EEo_E``: the total of :func:`ellipsoid_fluid_wrench_terms`, which it takes the
#: arguments of (same names, order and defaults; forwarded:
#: :func:`gzinertia.physics.forwarding.returning_part`). Angular-first ``[τ; f]`` on the body,
#: at the ellipsoid centre Eo, in ellipsoid axes E.
ellipsoid_fluid_wrench = returning_part(
    ellipsoid_fluid_wrench_terms, lambda terms: terms.total, "ellipsoid_fluid_wrench",
    "``F_EEo_E``: the total of :func:`ellipsoid_fluid_wrench_terms` (same arguments).\n\n"
    "Angular-first ``[τ; f]`` on the body, at the ellipsoid centre Eo, in ellipsoid axes E.",
)


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
    V = checked_vector(V_WB_B, 6, "V_WB_B")
    wind_B = np.zeros(3) if v_wind_B is None else checked_vector(v_wind_B, 3, "v_wind_B")
    F_BBo_B = np.zeros(6)
    for e in ellipsoids:
        R_BE, p_BoEo_B = e.ellipsoid.X_FE.R, e.ellipsoid.X_FE.p
        V_WE_E = rotate6(R_BE.T, shift_velocity(V, p_BoEo_B))
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
        F_BBo_B += shift_spatial_force(rotate6(R_BE, F_EEo_E), -p_BoEo_B)
    return F_BBo_B
