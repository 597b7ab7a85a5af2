"""The ellipsoid of MuJoCo's ellipsoid fluid model and the areas and moments its forces are
built from (``engine_passive.c``, ``mju_geomSemiAxes``), all in the ellipsoid's axes E, and
the model's five per-geom coefficients. ``docs/fluid_forces.md`` lists where the engine and
its documentation differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.physics.ellipsoid import primitive_semi_axes, validated_semi_axes
from gzinertia.physics.fluid_inputs import checked_vector
from gzinertia.record_base import ValueRecord
from gzinertia.records import Geometry
from gzinertia.spatial.rotation import Vec3

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
    return validated_semi_axes(r)


def _unit_direction(direction: ArrayLike) -> Vec3:
    u = checked_vector(direction, 3, "direction")
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
    r = validated_semi_axes(semi_axes)
    u = _unit_direction(direction)
    rjrk2 = np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]]) ** 2
    return float(np.pi * np.sqrt(np.sum(rjrk2**2 * u**2) / np.sum(rjrk2 * u**2)))


def shadow_area(semi_axes: ArrayLike, direction: ArrayLike) -> float:
    """Area of the ellipsoid's orthogonal projection on the plane normal to ``direction``.

    ``π·sqrt(Σ (r_j r_k)² û_i²) = π·r_x r_y r_z·sqrt(Σ û_i² / r_i²)``. For comparison with
    :func:`projected_area` (MuJoCo uses that one, not this).
    """
    r = validated_semi_axes(semi_axes)
    u = _unit_direction(direction)
    rjrk = np.array([r[1] * r[2], r[2] * r[0], r[0] * r[1]])
    return float(np.pi * np.sqrt(np.sum(rjrk**2 * u**2)))


def max_projected_area(semi_axes: ArrayLike) -> float:
    """``A_max = π·r_max·r_mid`` as the engine defines it (the seed says ``4π·r_max·r_min``)."""
    r = np.sort(validated_semi_axes(semi_axes))
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
    r = validated_semi_axes(semi_axes)
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
    r = validated_semi_axes(semi_axes)
    D = 2.0 / 3.0 * (r[0] + r[1] + r[2])
    return float(3.0 * np.pi * D), float(np.pi * D * D * D)

