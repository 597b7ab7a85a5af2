"""Repairing a rigid body's rotational inertia about its centre of mass: the nearest valid one,
MuJoCo's ``balanceinertia`` rule, and the uniform solid of the link's geometry.

All three work on ``I_BBcm_I`` (about the centre of mass Bcm, in the axes of the inertial frame
I) or ``I_BBcm_B``; they never move the centre of mass themselves (see
:func:`inertia_from_geometry` for the centroid it reports).

**Nearest.** The valid set is spectral: whether a symmetric matrix is a valid inertia depends
on its eigenvalues only, and the set of valid eigenvalue triples ``{λ : λ_i ≥ ε,
λ_i + λ_j ≥ λ_k + ε}`` is convex and symmetric under permutations. For such sets the nearest
matrix in the Frobenius norm keeps the eigenvectors and projects the eigenvalues (Lewis 1996,
"Convex analysis on the Hermitian matrices"): so :func:`nearest_valid_inertia` is the
Frobenius-nearest valid matrix among *all* symmetric matrices, and it keeps the principal axes.
The eigenvalue projection is a small quadratic programme solved exactly by enumerating its
active sets (:func:`project_moments`).

**Margin.** ``ε`` is the largest of Drake's and gz-math's tolerances for the written moments
(shared DESIGN.md §7) and :data:`RELATIVE_MARGIN` of ``½·trace``. The tolerances alone are not
enough: gz-math (``MassMatrix3::PrincipalMoments``, which libsdformat's validity check calls)
computes the moments in closed form through ``acos``, which is accurate only to about
``√DBL_EPSILON·λ ≈ 1e-8·λ`` when two moments are (nearly) equal, exactly where a projection onto
the triangle face lands; a repair sitting within 1e-15 of the boundary reads back as invalid in
libsdformat (checked by ``tests/test_fix.py``). Measured (4,000 rotated inertias with a double
moment on a triangle face, against mpmath's eigenvalues): gz-math's moments are off by up to
2.6e-8·½·trace, so a triangle margin ``λ_i + λ_j - λ_k`` by up to about 8e-8·½·trace; on 3,000
random invalid inertias projected with a relative margin of 1e-8, 3e-8 and 5e-8 libsdformat
(:func:`~gzinertia.physics.gz_math_inertia.gz_is_valid`, which agrees with the compiled
libsdformat on every case of ``tests/test_gz_math_inertia.py``) rejects 442, 106 and 0 of the
repairs; 1e-7 and 1e-6 none. 1e-6 is kept: about 13 times the worst triangle error, a change of
one part per million (far below any inertia's real uncertainty), and room to round the written
values to 10 significant digits; ``fix`` also checks each written matrix with ``gz_is_valid``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.record_base import ValueRecord
from gzinertia.spatial.inertia import drake_tolerance, gz_tolerance, principal_axes
from gzinertia.spatial.rotation import Mat3, Vec3

#: Rows ``a`` of the constraints ``a·λ ≥ ε`` on principal moments: positive definite
#: (``λ_i ≥ ε``) and the three triangle inequalities (``λ_i + λ_j - λ_k ≥ ε``).
CONSTRAINTS: np.ndarray = np.array(
    [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [-1.0, 1.0, 1.0],
        [1.0, -1.0, 1.0],
        [1.0, 1.0, -1.0],
    ]
)


class RepairError(ValueError):
    """An inertia that a method cannot repair (e.g. nothing positive to keep)."""


#: The repaired inertia's margin from the boundary of the valid set, relative to ``½·trace``.
RELATIVE_MARGIN = 1e-6


def validity_margin(principal_moments: ArrayLike) -> float:
    """``ε`` of the repaired inertia (kg·m²): the largest of Drake's and gz-math's tolerances
    and ``RELATIVE_MARGIN·½·Σ|λ|`` for the magnitudes of ``principal_moments``."""
    magnitudes = np.abs(np.asarray(principal_moments, dtype=float))
    relative = RELATIVE_MARGIN * 0.5 * float(np.sum(magnitudes))
    return max(drake_tolerance(magnitudes), gz_tolerance(magnitudes), relative)


def moments_margin(principal_moments: ArrayLike) -> float:
    """``min(λ_i, λ_i + λ_j - λ_k)`` over all i, j, k: negative when invalid (kg·m²)."""
    lam = np.asarray(principal_moments, dtype=float)
    return float(np.min(CONSTRAINTS @ lam))


def project_moments(principal_moments: ArrayLike, eps: float) -> Vec3:
    """The Euclidean projection of ``principal_moments`` onto ``{λ : λ_i ≥ ε, λ_i + λ_j - λ_k
    ≥ ε}`` (any order of the moments; the result keeps it).

    Exact: every subset of the six constraints is tried as the active set; the minimiser is
    the unique point satisfying the KKT conditions (feasible, non-negative multipliers) of the
    strictly convex programme ``min ½‖x - λ‖²``.
    """
    lam = np.asarray(principal_moments, dtype=float).reshape(3)
    if not (np.all(np.isfinite(lam)) and np.isfinite(eps) and eps >= 0.0):
        raise RepairError(f"cannot project moments {lam.tolist()} with margin {eps!r}")
    scale = max(float(np.max(np.abs(lam))), eps, 1e-300)
    tol = 64.0 * np.finfo(float).eps * scale
    if moments_margin(lam) >= eps:
        return lam.copy()
    best: Vec3 | None = None
    best_distance = np.inf
    for size in range(1, 4):
        for active in itertools.combinations(range(len(CONSTRAINTS)), size):
            A = CONSTRAINTS[list(active)]
            gram = A @ A.T
            if abs(np.linalg.det(gram)) < 1e-12:
                continue
            mu = np.linalg.solve(gram, eps - A @ lam)
            if np.any(mu < -1e-12 * max(1.0, float(np.max(np.abs(mu))))):
                continue
            x = lam + A.T @ mu
            if np.min(CONSTRAINTS @ x) < eps - tol:
                continue
            distance = float(np.linalg.norm(x - lam))
            if distance < best_distance:
                best, best_distance = x, distance
    if best is None:  # pragma: no cover - the programme is always feasible
        raise RepairError(f"no projection found for moments {lam.tolist()}")
    return best


#: The two faces of the valid set a moment triple can sit on: a moment of 0 (all mass on a line
#: through the centre of mass: a rod) or ``λ_i + λ_j = λ_k`` (all mass in a plane: a flat plate).
Boundary = Literal["rod", "flat plate"]

#: How close to a face, in units of :func:`validity_margin`, counts as on it: a repair lands at
#: one margin from the face; written values are rounded within half of it
#: (:func:`gzinertia.edit.fix.written_inertia`).
BOUNDARY_MARGINS = 4.0


def validity_boundary(principal_moments: ArrayLike) -> Boundary | None:
    """``"rod"`` when the smallest moment, ``"flat plate"`` when ``λ_i + λ_j - λ_k`` (some
    order), is within :data:`BOUNDARY_MARGINS` validity margins of 0: a valid inertia that only a
    degenerate body (no extent along one axis, or none out of one plane) has; ``None`` otherwise
    (any order of the moments, about the centre of mass)."""
    lam = np.asarray(principal_moments, dtype=float).reshape(3)
    if not np.all(np.isfinite(lam)):
        return None
    limit = BOUNDARY_MARGINS * validity_margin(lam)
    sides = CONSTRAINTS @ lam
    if float(np.min(sides[:3])) <= limit:
        return "rod"
    if float(np.min(sides[3:])) <= limit:
        return "flat plate"
    return None


@dataclass(frozen=True, repr=False, eq=False)
class InertiaRepair(ValueRecord):
    """A repaired rotational inertia about Bcm and what changed.

    ``I_before`` and ``I_after`` are in the same axes (those of the input); ``moments_before``
    and ``moments_after`` are the principal moments about the same principal axes (column ``i``
    of ``R_FP``, F the input's axes), so ``relative_change[i]`` compares like with like.
    """

    I_before: Mat3
    I_after: Mat3
    moments_before: Vec3
    moments_after: Vec3
    R_FP: Mat3
    method: str

    @property
    def relative_change(self) -> Vec3:
        """``(λ'_i - λ_i) / max|λ|`` per principal axis (relative to the largest written
        moment, so a moment written as 0 has a finite change)."""
        scale = max(float(np.max(np.abs(self.moments_before))), 1e-300)
        return (self.moments_after - self.moments_before) / scale

    @property
    def moment_change(self) -> Vec3:
        """``(λ'_i - λ_i) / |λ_i|`` per principal axis: each moment's change relative to its own
        written value (NaN for a moment written as 0, whose change has no relative size)."""
        scale = np.abs(self.moments_before)
        with np.errstate(divide="ignore", invalid="ignore"):
            change = (self.moments_after - self.moments_before) / scale
        return np.where(scale > 0.0, change, np.nan)

    @property
    def boundary(self) -> Boundary | None:
        """Where the repaired inertia sits on the boundary of validity
        (:func:`validity_boundary` of ``moments_after``), ``None`` inside it."""
        return validity_boundary(self.moments_after)

    @property
    def frobenius_change(self) -> float:
        """``‖I_after - I_before‖_F`` (kg·m²)."""
        return float(np.linalg.norm(self.I_after - self.I_before))


def nearest_valid_inertia(I_BBcm_F: ArrayLike, eps: float | None = None) -> InertiaRepair:
    """The valid rotational inertia nearest to ``I_BBcm_F`` in the Frobenius norm, in the same
    axes F: principal axes kept, principal moments projected by :func:`project_moments` with
    margin ``eps`` (default :func:`validity_margin` of the written moments).

    Refuses (:class:`RepairError`) a non-finite inertia or one whose trace is not positive:
    there is nothing to keep, only a degenerate ``ε·1`` to return; recompute it from geometry.
    """
    I = np.asarray(I_BBcm_F, dtype=float)
    I = 0.5 * (I + I.T)
    if not np.all(np.isfinite(I)):
        raise RepairError("the inertia holds a value that is not a finite number")
    moments, R_FP = principal_axes(I)
    if not float(np.sum(moments)) > 0.0:
        raise RepairError(
            f"principal moments {moments.tolist()} have no positive trace: the nearest valid "
            "inertia is degenerate; recompute it from geometry (--method geometry)"
        )
    margin = validity_margin(moments) if eps is None else eps
    after = project_moments(moments, margin)
    I_after = R_FP @ np.diag(after) @ R_FP.T
    return InertiaRepair(I, 0.5 * (I_after + I_after.T), moments, after, R_FP, "nearest")


def balanced_inertia(I_BBcm_F: ArrayLike) -> InertiaRepair:
    """MuJoCo's ``<compiler balanceinertia="true">``: when the principal moments violate
    ``A + B ≥ C`` (no tolerance), all three become their mean, ``(A + B + C)/3``, an isotropic
    inertia (the same in any axes); otherwise the inertia is returned unchanged. A negative
    moment is an error in MuJoCo (:class:`RepairError` here)."""
    I = np.asarray(I_BBcm_F, dtype=float)
    I = 0.5 * (I + I.T)
    if not np.all(np.isfinite(I)):
        raise RepairError("the inertia holds a value that is not a finite number")
    moments, R_FP = principal_axes(I)
    if np.any(moments < 0.0):
        raise RepairError(
            f"principal moments {moments.tolist()}: MuJoCo refuses negative moments "
            "('mass and inertia cannot be negative') and balanceinertia does not apply"
        )
    a, b, c = (float(v) for v in moments)
    if a + b < c or a + c < b or b + c < a:
        mean = (a + b + c) / 3.0
        return InertiaRepair(I, mean * np.eye(3), moments, np.full(3, mean), R_FP, "balance")
    return InertiaRepair(I, I.copy(), moments, moments.copy(), R_FP, "balance")


def geometry_inertia_change(I_before_F: ArrayLike, I_after_F: ArrayLike) -> InertiaRepair:
    """The change from ``I_before_F`` to ``I_after_F`` (same axes F) reported on the written
    inertia's principal axes (``moments_after[i] = pᵢᵀ·I_after·pᵢ``: the new inertia about
    the old principal axis ``pᵢ``)."""
    I_before = 0.5 * (np.asarray(I_before_F, dtype=float) + np.asarray(I_before_F).T)
    I_after = 0.5 * (np.asarray(I_after_F, dtype=float) + np.asarray(I_after_F).T)
    if np.all(np.isfinite(I_before)):
        moments, R_FP = principal_axes(I_before)
    else:
        moments, R_FP = np.full(3, np.nan), np.eye(3)
    after = np.einsum("ji,jk,ki->i", R_FP, I_after, R_FP)
    return InertiaRepair(I_before, I_after, moments, after, R_FP, "geometry")


def solid_inertia(mass: float, volume: float, G_BBc_B: ArrayLike) -> Mat3:
    """``I_BBcm_B = (m / V)·G_BBc_B``: the uniform solid of the given mass filling a volume
    ``V`` (m³) whose unit-density inertia about its centroid is ``G_BBc_B`` (m⁵)."""
    if not (np.isfinite(mass) and mass > 0.0 and np.isfinite(volume) and volume > 0.0):
        raise RepairError(f"a uniform solid needs a positive mass and volume, not {mass}, {volume}")
    G = np.asarray(G_BBc_B, dtype=float)
    return (mass / volume) * 0.5 * (G + G.T)


def is_valid(principal_moments: Sequence[float] | np.ndarray, eps: float) -> bool:
    """``min(λ_i, λ_i + λ_j - λ_k) ≥ -ε``."""
    return moments_margin(principal_moments) >= -eps
