"""Rigid-body inertia: rotational inertias, 6x6 spatial inertias, principal axes, equivalent shapes.

Names follow Drake's monogram notation (``docs/conventions.md`` §1): ``I_BBcm_I`` is the rotational
inertia of body B about its centre of mass Bcm expressed in the inertial frame I of
``<inertial><pose>``; ``I_BBcm_B`` the same in the link frame B; ``I_BBo_B`` about the link origin
Bo; ``M_BBcm_B`` and ``M_BBo_B`` the 6x6 spatial inertias. ``p_BoBcm_B`` is the centre of mass
position in the link frame.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.spatial.algebra import Mat6, Ordering, reorder
from gzinertia.spatial.rotation import Mat3, Vec3, skew

__all__ = [
    "DBL_EPSILON",
    "drake_tolerance",
    "equivalent_box_half_sizes",
    "equivalent_ellipsoid_semi_axes",
    "gz_tolerance",
    "parallel_axis",
    "principal_axes",
    "reexpress_inertia",
    "reverses_orientation",
    "spatial_inertia_about_com",
    "spatial_inertia_about_origin",
    "triangle_margin",
]

DBL_EPSILON = float(np.finfo(float).eps)


def reexpress_inertia(I_BBcm_I: ArrayLike, R_BI: ArrayLike) -> Mat3:
    """``I_BBcm_B = R_BI · I_BBcm_I · R_BIᵀ`` (same point, axes I → B)."""
    R = np.asarray(R_BI, dtype=float)
    return R @ np.asarray(I_BBcm_I, dtype=float) @ R.T


def parallel_axis(I_BBcm_B: ArrayLike, mass: float, p_BoBcm_B: ArrayLike) -> Mat3:
    """``I_BBo_B = I_BBcm_B + m·[c]×[c]×ᵀ`` with ``c = p_BoBcm_B``."""
    c = skew(p_BoBcm_B)
    return np.asarray(I_BBcm_B, dtype=float) + mass * (c @ c.T)


def spatial_inertia_about_com(
    mass: float, I_BBcm_B: ArrayLike, ordering: Ordering = "angular-first"
) -> Mat6:
    """``M_BBcm_B = blkdiag(I_BBcm_B, m·1)`` (angular-first) or its block swap."""
    M = np.zeros((6, 6))
    M[:3, :3] = np.asarray(I_BBcm_B, dtype=float)
    M[3:, 3:] = mass * np.eye(3)
    return reorder(M, "angular-first", ordering)


def spatial_inertia_about_origin(
    mass: float, I_BBcm_B: ArrayLike, p_BoBcm_B: ArrayLike, ordering: Ordering = "angular-first"
) -> Mat6:
    """``M_BBo_B = [[I_BBo_B, m·[c]×], [m·[c]×ᵀ, m·1]]`` (angular-first) or its block swap."""
    c = skew(p_BoBcm_B)
    M = np.zeros((6, 6))
    M[:3, :3] = parallel_axis(I_BBcm_B, mass, p_BoBcm_B)
    M[:3, 3:] = mass * c
    M[3:, :3] = mass * c.T
    M[3:, 3:] = mass * np.eye(3)
    return reorder(M, "angular-first", ordering)


def principal_axes(I_BBcm_B: ArrayLike) -> tuple[Vec3, Mat3]:
    """Principal moments (ascending) and ``R_BP``, whose columns are the principal axes in B.

    ``R_BP`` is a proper rotation (det +1), so ``I_BBcm_B = R_BP · diag(moments) · R_BPᵀ``.
    """
    I_sym = np.asarray(I_BBcm_B, dtype=float)
    moments, R_BP = np.linalg.eigh(0.5 * (I_sym + I_sym.T))
    if reverses_orientation(R_BP):
        R_BP[:, 2] = -R_BP[:, 2]
    return moments, R_BP


def reverses_orientation(R: ArrayLike) -> bool:
    """``det R < 0`` for a 3x3 ``R`` whose determinant is ±1 up to rounding (a rotation or a
    reflection, e.g. eigenvectors): the cofactor expansion in plain floats, whose sign then
    cannot differ from LAPACK's; LAPACK's determinant when it is not near ±1 (or not finite)."""
    R_array = np.asarray(R, dtype=float)
    (a, b, c), (d, e, f), (g, h, i) = R_array.tolist()
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if 0.5 < abs(det) < 2.0:
        return det < 0.0
    return bool(np.linalg.det(R_array) < 0.0)


def equivalent_ellipsoid_semi_axes(mass: float, principal_moments: ArrayLike) -> Vec3:
    """Semi-axes of the uniform solid ellipsoid with this mass and these principal moments.

    ``a_i² = (5 / 2m)·(I_j + I_k - I_i)``, in the order of ``principal_moments``. A negative
    square (an inertia violating the triangle inequality) or a non-positive mass gives NaN.
    """
    return _equivalent_half_sizes(mass, principal_moments, 5.0)


def equivalent_box_half_sizes(mass: float, principal_moments: ArrayLike) -> Vec3:
    """Half-sizes of the uniform solid box with this mass and these principal moments.

    ``h_i² = (3 / 2m)·(I_j + I_k - I_i)`` (MuJoCo's equivalent inertia box).
    """
    return _equivalent_half_sizes(mass, principal_moments, 3.0)


def _equivalent_half_sizes(mass: float, principal_moments: ArrayLike, factor: float) -> Vec3:
    moments = np.asarray(principal_moments, dtype=float)
    if not mass > 0.0:
        return np.full(3, np.nan)
    total = moments.sum()
    squares = factor / (2.0 * mass) * (total - 2.0 * moments)
    with np.errstate(invalid="ignore"):
        return np.where(squares >= 0.0, np.sqrt(np.maximum(squares, 0.0)), np.nan)


def triangle_margin(principal_moments: ArrayLike) -> float:
    """``λ₁ + λ₂ - λ₃`` for ascending moments (negative when the triangle inequality fails)."""
    m = np.sort(np.asarray(principal_moments, dtype=float))
    return float(m[0] + m[1] - m[2])


def drake_tolerance(principal_moments: ArrayLike) -> float:
    """Drake's ε: ``16·DBL_EPSILON·max(1, ½·trace)``.

    The one definition of Drake's inertia validity tolerance in gzinertia. Source: Drake's
    ``RotationalInertia::CouldBePhysicallyValid()`` (``multibody/tree/rotational_inertia.h``),
    which accepts principal moments ``λ_i ≥ -ε`` with ``λ₁ + λ₂ + ε ≥ λ₃`` for
    ``ε = 16·DBL_EPSILON·max(1, I_max)``, ``I_max = ½·trace`` the largest moment a body with
    this trace can have (shared DESIGN.md §7; the audit's ``--tolerance drake`` and the MuJoCo
    inertia-box checks use it; ``tests/test_audit_rules.py`` compares with
    ``CouldBePhysicallyValid`` itself)."""
    trace = float(np.sum(principal_moments))
    return 16.0 * DBL_EPSILON * max(1.0, 0.5 * trace)


def gz_tolerance(principal_moments: ArrayLike) -> float:
    """gz-math/libsdformat's ε: ``10·DBL_EPSILON·½·trace`` (no floor).

    The one definition of gz-math's inertia validity tolerance in gzinertia. Source: gz-math's
    ``MassMatrix3::Epsilon(moments, tolerance = GZ_MASSMATRIX3_DEFAULT_TOLERANCE = 10)``
    (``gz/math/MassMatrix3.hh``), ``tolerance·DBL_EPSILON·½·|trace|``, which
    ``MassMatrix3::IsValid()`` (what libsdformat reports as "invalid inertia") applies to the
    positive semi-definiteness and triangle-inequality checks (shared DESIGN.md §7; the audit's
    default ``--tolerance gz``)."""
    trace = float(np.sum(principal_moments))
    return 10.0 * DBL_EPSILON * 0.5 * trace
