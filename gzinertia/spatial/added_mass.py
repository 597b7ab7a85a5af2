"""Fluid added mass: a symmetric 6x6 about a named point in named axes (:class:`AddedMass`, a
:class:`~gzinertia.spatial.matrix.SpatialMatrix`: it knows its ordering; SDFormat,
Fossen and Capytaine write it linear-first ``[x y z p q r]``).

The SDFormat spec (1.10+) puts ``<fluid_added_mass>`` about the link origin Bo in link axes B:
``A_BBo_B``. Matrices computed elsewhere (``A_EEo_E`` about an ellipsoid's centre in its axes,
``A_BBcm_B`` about the centre of mass) are brought there with the exact congruences of
:mod:`gzinertia.spatial.algebra` (``docs/conventions.md`` §4), never with ad-hoc terms.

Checks follow ``DESIGN.md`` §7: symmetric, positive semi-definite, and rigid + added positive
definite (DART needs it to invert the articulated inertia).
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.errors import Float64OverflowError
from gzinertia.spatial.algebra import Ordering
from gzinertia.spatial.matrix import SpatialInertia, SpatialMatrix
from gzinertia.spatial.rotation import Pose
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

#: Significant digits of every added-mass value gzinertia writes
#: (:func:`gzinertia.edit.links.format_value`).
WRITTEN_DIGITS = 10
#: The semi-definiteness allowance, relative to ``max|A|``, shared by the writer and the audit
#: (GZI202). Rounding each entry of a symmetric 6x6 to ``WRITTEN_DIGITS`` significant digits
#: moves it by at most half a unit of the last digit, ``0.5·10^(1-WRITTEN_DIGITS)·max|A|``, so
#: its eigenvalues by at most 6 times that (``‖E‖₂ ≤ 6·max|E_ij|``); the allowance doubles it
#: to cover entries written as 0 below the writer's zeroing threshold too. A matrix computed
#: positive semi-definite therefore reads back positive semi-definite (a singular one, such as a
#: sphere's, no longer reads back as an error), while a negative eigenvalue any larger is real.
PSD_RTOL = 6.0 * 10.0 ** (1 - WRITTEN_DIGITS)

__all__ = [
    "DEFINITENESS_RTOL",
    "PSD_RTOL",
    "WRITTEN_DIGITS",
    "AddedMass",
    "ellipsoid_added_mass",
    "kinetic_energy_error",
    "total_is_positive_definite",
]

#: Strict positive definiteness of rigid + added mass (GZI203): the smallest eigenvalue must
#: exceed this fraction of ``max|M + A|``. ``64·DBL_EPSILON`` is the backward error of a
#: symmetric 6x6 eigenvalue solver (LAPACK ``dsyevd``: ``O(n·ε)·‖M‖``, with n = 6 and a factor
#: of safety), so a matrix singular in exact arithmetic never passes by rounding alone.
DEFINITENESS_RTOL = 64.0 * float(np.finfo(float).eps)


class AddedMass(SpatialMatrix):
    """A fluid added-mass matrix with the point it is about and the axes it is expressed in.

    ``AddedMass(matrix, ordering="linear-first", point="Bo", axes="B")``: ``ordering`` is
    required (SDFormat's ``<fluid_added_mass>``, Fossen and Capytaine are linear-first); the
    numbers come out through :meth:`linear_first` / :meth:`angular_first`. ``point`` and ``axes``
    are monogram names (``"Bo"`` and ``"B"`` for the spec's ``A_BBo_B``, ``"Eo"`` and ``"E"`` for
    an ellipsoid's own matrix). Stored as given; :attr:`asymmetry` says how far from symmetric.
    Adding it to a rigid :class:`~gzinertia.spatial.matrix.SpatialInertia` about the same
    point in the same axes gives the total; adding a bare array raises.
    """

    __slots__ = ()

    def __init__(
        self, matrix: ArrayLike, *, ordering: Ordering, point: str = "Bo", axes: str = "B"
    ) -> None:
        super().__init__(matrix, ordering=ordering, point=point, axes=axes)

    # --- algebra (overflow-checked) ---------------------------------------------------------
    def shift(self, p_PQ: ArrayLike, point: str) -> AddedMass:
        """The same matrix about a new point Q (same axes), named ``point``: ``p_PQ`` runs
        **from the current point P to the new point Q**, expressed in the matrix's axes
        (Drake's ``Shift`` direction). Exact congruence, :func:`gzinertia.spatial.algebra.shift`.
        A :class:`~gzinertia.errors.Float64OverflowError` when the result overflows."""
        with np.errstate(over="ignore", invalid="ignore"):
            A = super().shift(p_PQ, point)
        _finite(A._lf, f"moving the added mass about {self.point} to {point}")
        return A

    def reexpressed(self, axes: str, R_GF: ArrayLike) -> AddedMass:
        """The same matrix in axes G named ``axes``, given ``R_GF`` from the current axes F
        (about the same point)."""
        with np.errstate(over="ignore", invalid="ignore"):
            A = super().reexpressed(axes, R_GF)
        _finite(A._lf, f"re-expressing the added mass in {axes} axes")
        return A

    def in_link(self, X_BF: Pose, point: str = "Bo", axes: str = "B") -> AddedMass:
        """A matrix about a frame F's origin in F axes, brought to the link origin in link axes,
        where F is posed in the link by ``X_BF``: rotate by ``R_BF``, then shift by
        ``p_FoBo_B = -p_BoFo_B``."""
        return self.reexpressed(axes, X_BF.R).shift(-X_BF.p, point)

    @overload
    def __add__(self, other: AddedMass) -> AddedMass: ...
    @overload
    def __add__(self, other: object) -> SpatialMatrix: ...
    def __add__(self, other: object) -> SpatialMatrix:
        """The sum about the same point in the same axes (an :class:`AddedMass` when ``other``
        is one); see :meth:`SpatialMatrix.__add__`."""
        total = super().__add__(other)
        _finite(total._lf, "summing added masses")
        return total

    # --- checks ---------------------------------------------------------------------------
    def eigenvalues(self) -> NDArray[np.float64]:
        """Eigenvalues of the symmetric part, ascending (the same in either ordering)."""
        return np.linalg.eigvalsh(0.5 * (self._lf + self._lf.T))

    def unit_balanced(self) -> NDArray[np.float64]:
        """The symmetric part in one unit, **linear-first**: ``S·A·S`` with
        ``S = diag(1, 1, 1, 1/ℓ, 1/ℓ, 1/ℓ)``
        and ``ℓ² = max|rotational block| / max|translational block|`` (the added mass's radius
        of gyration; ``ℓ = 1`` when either block is zero). A congruence, so it has the same
        number of negative eigenvalues as ``A``; unlike ``A``'s (kg, kg·m, kg·m² mixed), its
        eigenvalues compare with its entries whatever the unit of length."""
        A = 0.5 * (self._lf + self._lf.T)
        lin = float(np.max(np.abs(A[:3, :3])))
        rot = float(np.max(np.abs(A[3:, 3:])))
        if lin > 0.0 and rot > 0.0 and np.isfinite(lin) and np.isfinite(rot):
            s = np.array([1.0, 1.0, 1.0, *([1.0 / np.sqrt(rot / lin)] * 3)])
            return np.asarray(A * s[:, None] * s[None, :], dtype=float)
        return np.asarray(A, dtype=float)

    def psd_tolerance(self) -> float:
        """Allowance for the semi-definiteness check, on :meth:`unit_balanced`'s eigenvalues:
        what writing the matrix at ``WRITTEN_DIGITS`` significant digits can cost,
        ``PSD_RTOL·max|S·A·S|``."""
        return _psd_tolerance_of(self.unit_balanced())

    def is_positive_semidefinite(self) -> bool:
        """No eigenvalue of :meth:`unit_balanced` below ``-psd_tolerance()``: positive
        semi-definite up to the precision gzinertia writes (the writer and GZI202 share it)."""
        S = self.unit_balanced()  # once: it is both the checked matrix and the tolerance's scale
        return bool(np.linalg.eigvalsh(S)[0] >= -_psd_tolerance_of(S))


def _psd_tolerance_of(S: NDArray[np.float64]) -> float:
    """:meth:`AddedMass.psd_tolerance` of the matrix whose :meth:`AddedMass.unit_balanced` is
    ``S``."""
    return PSD_RTOL * max(float(np.max(np.abs(S))), 1e-300)


def total_is_positive_definite(
    M_BBo_B: SpatialInertia, A_BBo_B: AddedMass
) -> tuple[bool, float]:
    """Whether rigid + added mass about Bo in B axes is positive definite, and its smallest
    eigenvalue (the same in either ordering)."""
    if (A_BBo_B.point, A_BBo_B.axes) != ("Bo", "B"):
        raise ValueError("added mass must be about Bo in B axes")
    total = (M_BBo_B + A_BBo_B.symmetric()).linear_first()
    smallest = float(np.linalg.eigvalsh(total)[0])
    scale = float(np.max(np.abs(total)))
    return smallest > DEFINITENESS_RTOL * scale, smallest


def ellipsoid_added_mass(
    semi_axes: ArrayLike, density: float, X_BE: Pose | None = None
) -> tuple[AddedMass, AddedMass]:
    """Tuckerman added mass of an ellipsoid E posed in link B by ``X_BE`` (identity if None):
    ``(A_EEo_E, A_BBo_B)``.

    ``A_EEo_E`` is diagonal ``diag(m_A, I_A)`` about the centre in the ellipsoid's axes;
    ``A_BBo_B`` is the same matrix about the link origin in link axes.
    """
    A_EEo_E = AddedMass(
        ellipsoid_added_mass_matrix(semi_axes, density), ordering="linear-first", point="Eo",
        axes="E",
    )
    return A_EEo_E, A_EEo_E.in_link(Pose() if X_BE is None else X_BE)


def kinetic_energy_error(A_true: AddedMass, A_used: AddedMass) -> float:
    """Worst relative kinetic-energy error of using ``A_used`` for ``A_true`` (same point, axes):
    ``max_ν |νᵀ(A_used - A_true)ν| / νᵀ(A_true)ν`` over velocities where ``A_true`` is definite
    (the largest generalized eigenvalue in magnitude; ``inf`` if ``A_true`` is singular along a
    direction where they differ)."""
    if (A_true.point, A_true.axes) != (A_used.point, A_used.axes):
        raise ValueError("compare matrices about the same point in the same axes")
    T = A_true.symmetric().linear_first()
    D = A_used.symmetric().linear_first() - T
    w, V = np.linalg.eigh(T)
    tol = 1e-12 * max(float(np.max(np.abs(T))), 1e-300)
    if w[0] <= tol:
        null = V[:, w <= tol]
        if np.max(np.abs(null.T @ D @ null), initial=0.0) > tol:
            return float("inf")
        V, w = V[:, w > tol], w[w > tol]
    W = V / np.sqrt(w)
    return float(np.max(np.abs(np.linalg.eigvalsh(W.T @ D @ W)), initial=0.0))


def _finite(A: NDArray[np.float64], what: str) -> NDArray[np.float64]:
    """``A`` when every entry is finite; a :class:`Float64OverflowError` saying ``what``
    overflowed otherwise (an added mass beyond float64 is no added mass)."""
    if not np.all(np.isfinite(A)):
        raise Float64OverflowError(f"{what} overflows float64 (the point is too far or the "
                                   "matrix too large)")
    return A
