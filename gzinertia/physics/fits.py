"""Ellipsoid fits of a link's fluid-displacing shape, for Tuckerman added mass.

A fit gives one or more ellipsoids E posed in the link frame B by ``X_BE`` (origin ``Eo`` at the
ellipsoid's centre, E's axes along its semi-axes). The added mass ``A_EEo_E`` of each
(:func:`gzinertia.spatial.tuckerman.ellipsoid_added_mass_matrix`, linear-first, diagonal in E)
moves to the link origin with ``transform_spatial(A_EEo_E, X_BE.R, X_BE.p, "linear-first")``.

Methods (``FIT_METHODS``):

* ``volume`` (default): one ellipsoid per separate body of the link. Collisions that touch or
  overlap form one body (:mod:`gzinertia.physics.contact_groups`); a body's ellipsoid has the volume
  ``V``, centroid and principal axes of the union of its collision solids
  (:mod:`gzinertia.physics.shapes`, meshes after ``<scale>``). Its axis ratios come from the solids'
  second moments about the centroid ``S = ½·tr(G)·1 - G`` (``G = G_BBc_B``, the unit-density
  inertia; ``S = ∫ r rᵀ dV``): a solid ellipsoid has ``S = V/5·diag(a², b², c²)``, so
  ``a_i ∝ √s_i``, scaled so ``4/3·π·abc = V``. A single ellipsoid collision fits itself exactly.
  Separate bodies (a catamaran's hulls, a pontoon pair, an ROV's floats) each get their own
  ellipsoid and the matrices are summed at Bo: one ellipsoid around all of them puts fluid where
  there is none (two spheres of radius r at ±5r: sway added mass 29x too small), while the
  interaction neglected by the sum falls as (size/distance)³ (Capytaine, in the tests).
* ``mujoco``: MuJoCo's rule (``fluidshape="ellipsoid"``), one ellipsoid per collision at the
  collision frame: sphere ``(r, r, r)``, capsule ``(r, r, L/2 + r)``, cylinder ``(r, r, L/2)``
  (SDF ``<length>`` is the full length), box half-sizes, ellipsoid radii. MuJoCo has no cone:
  a cone gets the mesh rule below on its exact extent: semi-axes ``r``, ``r`` and ``3L/4`` (the
  apex's distance) about its centroid, its axes in MuJoCo's mesh order. A mesh geom is
  re-centred at its centroid and turned to its principal axes (largest principal moment on x,
  smallest on z, as MuJoCo does), and its semi-axes are ``max(|min|, |max|)`` of the vertex
  coordinates along each of those axes (MuJoCo's mesh ``geom_size``: the half-sizes of the
  smallest centroid-centred box around the vertices, not of the bounding box). The centroid and
  axes are those of the exact solid: MuJoCo's mesh ``inertia="exact"``; its default
  ``"legacy"`` agrees for convex meshes only.
* ``inertia``: the uniform solid ellipsoid with the link's mass and rotational inertia about the
  centre of mass (``a_i² = 5/(2m)·(I_j + I_k - I_i)``), centred at Bcm on the principal axes.
* ``explicit``: semi-axes, centre and roll-pitch-yaw given by the user (:func:`explicit_fit`).

For ``volume`` and ``inertia`` the principal axes are ordered and signed so that E is as close to
B as possible (E = B when the link's shape is aligned with its axes).

Each method has its module (:mod:`gzinertia.physics.volume_fit`,
:mod:`gzinertia.physics.mujoco_fit`; ``inertia`` and ``explicit`` here); the record a fit
gives and its error are in :mod:`gzinertia.physics.ellipsoid_fit`, all importable from here.

Mistakes a user can make (no usable collision, a plane or heightmap, an unresolved mesh, a
degenerate shape, a defaulted or invalid inertia) raise :class:`FitError` naming the link, its
source and another fit to try.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.options import option
from gzinertia.physics.ellipsoid import PosedEllipsoid
from gzinertia.physics.ellipsoid_fit import (
    DEFAULT_FIT,
    FIT_METHODS,
    EllipsoidFit,
    FitError,
    FitMethod,
    check_semi_axes,
    fmt,
    unfit,
)
from gzinertia.physics.fit_collisions import where
from gzinertia.physics.mujoco_fit import mujoco_fit, mujoco_semi_axes_and_frame
from gzinertia.physics.principal_frame import nearest_to_link, principal_frame
from gzinertia.physics.volume_fit import SEPARATE_BODIES_REASON, ellipsoid_of_solid, volume_fit
from gzinertia.records import LinkRecord
from gzinertia.spatial.inertia import (
    DBL_EPSILON,
    equivalent_ellipsoid_semi_axes,
    triangle_margin,
)
from gzinertia.spatial.rotation import Pose, Vec3

__all__ = [
    "DEFAULT_FIT",
    "FIT_METHODS",
    "SEPARATE_BODIES_REASON",
    "EllipsoidFit",
    "FitError",
    "FitMethod",
    "ellipsoid_of_solid",
    "explicit_fit",
    "fit_link",
    "mujoco_semi_axes_and_frame",
]

def _inertia_fit(link: LinkRecord) -> EllipsoidFit:
    inertial = link.inertial
    problem = None
    if inertial.defaulted:
        problem = "has no <inertial> (libsdformat's default 1 kg and unit inertia)"
    elif inertial.auto:
        problem = (
            'has <inertial auto="true">: its inertia is computed from the collisions, so fit '
            "the collisions themselves (the volume or mujoco fit)"
        )
    elif inertial.inertia_defaulted or (
        inertial.source is not None and inertial.inertia_source is None
    ):
        problem = "has no <ixx>..<izz> in its <inertial> (the spec's default unit inertia)"
    elif not (np.isfinite(inertial.mass) and inertial.mass > 0.0):
        problem = f"has mass {inertial.mass:g} kg; the inertia fit needs a positive mass"
    if problem:
        raise unfit(f"{where(link)} {problem}", "volume")
    I_BBcm_B = inertial.I_BBcm_B
    if not np.all(np.isfinite(I_BBcm_B)):
        raise unfit(f"{where(link)} has a non-finite inertia", "volume")
    moments, R_BP = principal_frame(I_BBcm_B)
    # λ₁ + λ₂ - λ₃ is 2m/5·c² for the smallest semi-axis c: below rounding it is a flat disk
    margin, noise = triangle_margin(moments), 16.0 * DBL_EPSILON * float(np.sum(moments))
    if margin < -noise:
        raise unfit(
            f"{where(link)}: its principal moments {fmt(moments)} kg·m² violate the triangle "
            "inequality, so no solid ellipsoid has them", "volume",
        )
    if margin <= noise:
        raise unfit(
            f"{where(link)}: the equivalent solid ellipsoid of its inertia is degenerate: "
            f"principal moments {fmt(moments)} kg·m² give a flat disk (λ₁ + λ₂ = λ₃)", "volume",
        )
    semi_axes = equivalent_ellipsoid_semi_axes(inertial.mass, moments)
    problem = check_semi_axes(semi_axes, "the equivalent solid ellipsoid of its inertia")
    if problem:
        raise unfit(f"{where(link)}: {problem}", "volume")
    semi_axes, R_BE = nearest_to_link(semi_axes, R_BP)
    return EllipsoidFit(
        "inertia",
        (PosedEllipsoid(semi_axes, Pose(inertial.p_BoBcm_B, R_BE)),),
        f"inertia fit: the uniform solid ellipsoid of the link's {inertial.mass:g} kg and its "
        "inertia, centred at the centre of mass",
        None,
    )


def fit_link(link: LinkRecord, method: FitMethod) -> EllipsoidFit:
    """The ellipsoid fit ``method`` of the link's fluid-displacing shape, posed in the link frame.

    ``mujoco`` and ``volume`` use the collisions, ``inertia`` the ``<inertial>``; ``explicit``
    needs values: use :func:`explicit_fit`. Raises :class:`FitError` (naming the link and its
    source, suggesting another fit) when the link cannot be fitted that way.
    """
    if method == "volume":
        return volume_fit(link)
    if method == "mujoco":
        return mujoco_fit(link)
    if method == "inertia":
        return _inertia_fit(link)
    if method == "explicit":
        raise ValueError("the explicit fit takes its values from the user: call explicit_fit()")
    raise ValueError(f"unknown fit method {method!r} (known: {', '.join(FIT_METHODS)})")


def _three(values: ArrayLike, what: str) -> Vec3:
    try:
        v = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise FitError(f"{what} must be three numbers, got {values!r}") from exc
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise FitError(f"{what} must be three finite numbers, got {values!r}")
    return v


def explicit_fit(
    semi_axes: ArrayLike, center: ArrayLike = (0.0, 0.0, 0.0), rpy: ArrayLike = (0.0, 0.0, 0.0)
) -> EllipsoidFit:
    """An ellipsoid given by the user: ``semi_axes`` (m) along E's axes, its centre
    ``p_BoEo_B = center`` (m) and ``R_BE`` from SDFormat roll-pitch-yaw ``rpy`` (rad), both in
    the link frame B. Raises :class:`FitError` for anything but three finite positive lengths,
    or a non-finite centre or angle."""
    r = _three(semi_axes, option("semi_axes"))
    problem = check_semi_axes(r, f"the {option('semi_axes')} ellipsoid")
    if problem:
        raise FitError(f"{problem}: give three positive lengths a,b,c in metres")
    p = _three(center, option("center"))
    angles = _three(rpy, option("rpy"))
    return EllipsoidFit(
        "explicit",
        (PosedEllipsoid(r, Pose.from_xyz_rpy(p, angles)),),
        f"explicit ellipsoid: semi-axes {fmt(r)} m, centre {fmt(p)} m, rpy {fmt(angles)} rad "
        "in the link frame",
        None,
    )
