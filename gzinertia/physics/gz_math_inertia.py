"""Inertia validity exactly as libsdformat judges it: gz-math's ``MassMatrix3::IsValid()``.

libsdformat reports "A link named ... has invalid inertia" (``LINK_INERTIA_INVALID``) when
``gz::math::MassMatrix3d::IsValid()`` (default tolerance ``10``) is false for the link's
``<mass>`` and ``<inertia>`` (about Bcm, in I axes). ``IsValid`` is
``IsNearPositive(tol) && ValidMoments(PrincipalMoments(), tol)``, and ``PrincipalMoments``
computes the eigenvalues in closed form (Kronenburg, arXiv:1306.6291, through ``acos``), which
near a double eigenvalue is accurate only to about ``√DBL_EPSILON`` of the moments, far less
than LAPACK's; it also returns the *diagonal* unchanged when every product of inertia is within
``1e-6·max(ixx, iyy, izz)`` of zero. So near the limits numpy's eigenvalues and libsdformat can
disagree in both directions; this module reproduces gz-math operation by operation (same
expressions, same order, the same libm ``pow``/``acos``/``cos``/``sqrt`` through :mod:`math`) so
the audit's ``--tolerance gz`` says what libsdformat says.

Source: gz-math ``include/gz/math/MassMatrix3.hh`` (``PrincipalMoments``, ``IsNearPositive``,
``ValidMoments``, ``Epsilon``, ``IsValid``) and ``Matrix3.hh`` (``Determinant``), identical in
ignition-math 6 (``ignition/math/MassMatrix3.hh``, the version libsdformat 12 uses) and gz-math
7/8. ``tests/test_gz_math_inertia.py`` checks the verdict against the compiled libsdformat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "DEFAULT_TOLERANCE",
    "gz_epsilon",
    "gz_is_near_positive",
    "gz_is_valid",
    "gz_principal_moments",
    "gz_valid_moments",
]

#: ``GZ_MASSMATRIX3_DEFAULT_TOLERANCE``: the tolerance libsdformat's check uses.
DEFAULT_TOLERANCE = 10.0
_DBL_EPSILON = 2.220446049250313e-16


def _entries(I_BBcm_I: ArrayLike) -> tuple[float, float, float, float, float, float]:
    """``(ixx, iyy, izz, ixy, ixz, iyz)`` as gz-math stores them (upper triangle)."""
    (xx, xy, xz), (_, yy, yz), (_, _, zz) = np.asarray(I_BBcm_I, dtype=float).tolist()
    return (xx, yy, zz, xy, xz, yz)


def gz_epsilon(moments: Sequence[float], tolerance: float = DEFAULT_TOLERANCE) -> float:
    """``MassMatrix3::Epsilon``: ``tolerance·DBL_EPSILON·½·|m0 + m1 + m2|`` (kg·m²)."""
    total = moments[0] + moments[1] + moments[2]
    return tolerance * _DBL_EPSILON * (0.5 * abs(total))


def gz_principal_moments(I_BBcm_I: ArrayLike, tol: float = 1e-6) -> tuple[float, float, float]:
    """``MassMatrix3::PrincipalMoments(tol)`` of the rotational inertia ``I_BBcm_I`` (about
    Bcm, I axes; only its upper triangle is read, as gz-math stores it), kg·m².

    The diagonal itself, unsorted, when every product is within ``tol·max(diagonal)`` of zero;
    otherwise the closed-form eigenvalues, ascending. Not an accurate eigen-solver: use it to
    know what libsdformat concludes, :func:`numpy.linalg.eigvalsh` for the moments."""
    ixx, iyy, izz, ixy, ixz, iyz = _entries(I_BBcm_I)
    t = tol * max(max(ixx, iyy), izz)
    if abs(ixy - 0.0) <= t and abs(ixz - 0.0) <= t and abs(iyz - 0.0) <= t:
        return (ixx, iyy, izz)
    b = ixx + iyy + izz
    c = (ixx * iyy - math.pow(ixy, 2) + ixx * izz - math.pow(ixz, 2)
         + iyy * izz - math.pow(iyz, 2))
    d = (ixx * math.pow(iyz, 2) + iyy * math.pow(ixz, 2) + izz * math.pow(ixy, 2)
         - ixx * iyy * izz - 2 * ixy * ixz * iyz)
    p = math.pow(b, 2) - 3 * c
    if p < math.pow(t, 2):
        return (b / 3.0, b / 3.0, b / 3.0)
    q = 2 * math.pow(b, 3) - 9 * b * c - 27 * d
    delta = math.acos(max(min(0.5 * q / math.pow(p, 1.5), 1.0), -1.0))
    m0 = (b + 2 * math.sqrt(p) * math.cos(delta / 3.0)) / 3.0
    m1 = (b + 2 * math.sqrt(p) * math.cos((delta + 2 * math.pi) / 3.0)) / 3.0
    m2 = (b + 2 * math.sqrt(p) * math.cos((delta - 2 * math.pi) / 3.0)) / 3.0
    a, bb, cc = sorted((m0, m1, m2))
    return (a, bb, cc)


def gz_valid_moments(moments: Sequence[float], tolerance: float = DEFAULT_TOLERANCE) -> bool:
    """``MassMatrix3::ValidMoments``: each moment ``≥ -ε`` and each triangle inequality
    ``m_i + m_j + ε ≥ m_k`` (ε of :func:`gz_epsilon`)."""
    eps = gz_epsilon(moments, tolerance)
    m0, m1, m2 = moments
    return (m0 + eps >= 0 and m1 + eps >= 0 and m2 + eps >= 0
            and m0 + m1 + eps >= m2 and m1 + m2 + eps >= m0 and m2 + m0 + eps >= m1)


def gz_is_near_positive(
    mass: float, I_BBcm_I: ArrayLike, tolerance: float = DEFAULT_TOLERANCE
) -> bool:
    """``MassMatrix3::IsNearPositive``: ``m ≥ 0`` and the leading principal minors of the
    matrix each ``≥ -ε`` (ε from the diagonal; gz-math compares the 2x2 and 3x3 minors, in
    kg²·m⁴ and kg³·m⁶, with the same ε)."""
    ixx, iyy, izz, ixy, ixz, iyz = _entries(I_BBcm_I)
    eps = gz_epsilon((ixx, iyy, izz), tolerance)
    # Matrix3::Determinant of [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
    t0 = izz * iyy - iyz * iyz
    t1 = -(izz * ixy - ixz * iyz)
    t2 = iyz * ixy - ixz * iyy
    det = t0 * ixx + t1 * ixy + t2 * ixz
    return (mass >= 0 and ixx + eps >= 0
            and ixx * iyy - math.pow(ixy, 2) + eps >= 0 and det + eps >= 0)


def gz_is_valid(mass: float, I_BBcm_I: ArrayLike, tolerance: float = DEFAULT_TOLERANCE) -> bool:
    """``MassMatrix3::IsValid``: what libsdformat reports as "has invalid inertia" (false)."""
    return gz_is_near_positive(mass, I_BBcm_I, tolerance) and gz_valid_moments(
        gz_principal_moments(I_BBcm_I), tolerance
    )
