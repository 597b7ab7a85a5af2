"""Fluid added mass: a symmetric 6x6, **linear-first** ``[x y z p q r]``, about a named point in
named axes.

The SDFormat spec (1.10+) puts ``<fluid_added_mass>`` about the link origin Bo in link axes B:
``A_BBo_B``. Matrices computed elsewhere (``A_EEo_E`` about an ellipsoid's centre in its axes,
``A_BBcm_B`` about the centre of mass) are brought there with the exact congruences of
:mod:`gzinertia.physics.spatial` (``docs/conventions.md`` §4), never with ad-hoc terms.

Checks follow ``DESIGN.md`` §7: symmetric, positive semi-definite, and rigid + added positive
definite (DART needs it to invert the articulated inertia).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.physics.rotation import Pose, frozen
from gzinertia.physics.spatial import Mat6, as_6x6, change_axes, change_point, kinetic_energy

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

#: Strict positive definiteness of rigid + added mass (GZI203): the smallest eigenvalue must
#: exceed this fraction of ``max|M + A|``. ``64·DBL_EPSILON`` is the backward error of a
#: symmetric 6x6 eigenvalue solver (LAPACK ``dsyevd``: ``O(n·ε)·‖M‖``, with n = 6 and a factor
#: of safety), so a matrix singular in exact arithmetic never passes by rounding alone.
DEFINITENESS_RTOL = 64.0 * float(np.finfo(float).eps)

#: Axis letters of ``<fluid_added_mass>``: linear x, y, z then angular p, q, r.
SDF_AXES = "xyzpqr"
#: The 21 child elements in spec order: the upper triangle, row by row.
SDF_TAGS: tuple[str, ...] = tuple(SDF_AXES[i] + SDF_AXES[j] for i in range(6) for j in range(i, 6))


@dataclass(frozen=True)
class AddedMass:
    """An added-mass matrix with the point it is about and the axes it is expressed in.

    ``A`` is linear-first; ``point`` and ``axes`` are monogram names used in messages (``"Bo"``
    and ``"B"`` for the spec's ``A_BBo_B``, ``"Eo"`` and ``"E"`` for an ellipsoid's own matrix).
    The matrix is stored as given; :attr:`asymmetry` says how far it is from symmetric.
    """

    A: Mat6
    point: str = "Bo"
    axes: str = "B"

    def __post_init__(self) -> None:
        object.__setattr__(self, "A", frozen(as_6x6(self.A), (6, 6)))

    # --- SDF values -----------------------------------------------------------------------
    @classmethod
    def from_sdf_values(
        cls, values: Mapping[str, float], point: str = "Bo", axes: str = "B"
    ) -> AddedMass:
        """The symmetric matrix from ``<fluid_added_mass>`` entries (missing ones are 0)."""
        unknown = sorted(set(values) - set(SDF_TAGS))
        if unknown:
            raise ValueError(f"not <fluid_added_mass> entries: {', '.join(unknown)}")
        A = np.zeros((6, 6))
        for tag in SDF_TAGS:
            i, j = SDF_AXES.index(tag[0]), SDF_AXES.index(tag[1])
            A[i, j] = A[j, i] = float(values.get(tag, 0.0))
        return cls(A, point, axes)

    def sdf_values(self) -> dict[str, float]:
        """The 21 spec entries (upper triangle of the symmetric part), in spec order."""
        S = self.symmetric().A
        return {tag: float(S[SDF_AXES.index(tag[0]), SDF_AXES.index(tag[1])]) for tag in SDF_TAGS}

    # --- algebra --------------------------------------------------------------------------
    def symmetric(self) -> AddedMass:
        """``(A + Aᵀ)/2`` about the same point in the same axes."""
        return AddedMass(0.5 * (self.A + self.A.T), self.point, self.axes)

    @property
    def asymmetry(self) -> float:
        """``max|A - Aᵀ|`` (0 for a symmetric matrix)."""
        return float(np.max(np.abs(self.A - self.A.T)))

    def moved_to(self, point: str, p_PQ: ArrayLike) -> AddedMass:
        """The same matrix about a new point P (same axes); ``p_PQ`` runs from P to the current
        point Q, expressed in the matrix's axes. Exact congruence ``Tᵀ·A·T``."""
        with np.errstate(over="ignore", invalid="ignore"):
            A = change_point(self.A, p_PQ, "linear-first")
        return AddedMass(_finite(A, f"moving the added mass about {self.point} to {point}"),
                         point, self.axes)

    def reexpressed(self, axes: str, R_GF: ArrayLike) -> AddedMass:
        """The same matrix in axes G, given ``R_GF`` from the current axes F (same point)."""
        with np.errstate(over="ignore", invalid="ignore"):
            A = change_axes(self.A, R_GF)
        return AddedMass(_finite(A, f"re-expressing the added mass in {axes} axes"),
                         self.point, axes)

    def in_link(self, X_BF: Pose, point: str = "Bo", axes: str = "B") -> AddedMass:
        """A matrix about a frame F's origin in F axes, brought to the link origin in link axes,
        where F is posed in the link by ``X_BF``: rotate by ``R_BF``, then move by ``p_BoFo_B``."""
        return self.reexpressed(axes, X_BF.R).moved_to(point, X_BF.p)

    def __add__(self, other: AddedMass) -> AddedMass:
        if (self.point, self.axes) != (other.point, other.axes):
            raise ValueError(
                f"cannot add A about {other.point} in {other.axes} to A about {self.point} in "
                f"{self.axes}: move them to one point and axes first"
            )
        with np.errstate(over="ignore", invalid="ignore"):
            A = self.A + other.A
        return AddedMass(_finite(A, "summing added masses"), self.point, self.axes)

    # --- checks ---------------------------------------------------------------------------
    def eigenvalues(self) -> NDArray[np.float64]:
        """Eigenvalues of the symmetric part, ascending."""
        return np.linalg.eigvalsh(0.5 * (self.A + self.A.T))

    def unit_balanced(self) -> NDArray[np.float64]:
        """The symmetric part in one unit: ``S·A·S`` with ``S = diag(1, 1, 1, 1/ℓ, 1/ℓ, 1/ℓ)``
        and ``ℓ² = max|rotational block| / max|translational block|`` (the added mass's radius
        of gyration; ``ℓ = 1`` when either block is zero). A congruence, so it has the same
        number of negative eigenvalues as ``A``; unlike ``A``'s (kg, kg·m, kg·m² mixed), its
        eigenvalues compare with its entries whatever the unit of length."""
        A = 0.5 * (self.A + self.A.T)
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
        return PSD_RTOL * max(float(np.max(np.abs(self.unit_balanced()))), 1e-300)

    def is_positive_semidefinite(self) -> bool:
        """No eigenvalue of :meth:`unit_balanced` below ``-psd_tolerance()``: positive
        semi-definite up to the precision gzinertia writes (the writer and GZI202 share it)."""
        return bool(np.linalg.eigvalsh(self.unit_balanced())[0] >= -self.psd_tolerance())

    def kinetic_energy(self, nu: ArrayLike) -> float:
        """``½ νᵀ A ν`` for a spatial velocity ``ν = [v; ω]`` at this point, in these axes."""
        return kinetic_energy(self.A, nu)


def total_is_positive_definite(M_BBo_B: ArrayLike, A_BBo_B: AddedMass) -> tuple[bool, float]:
    """Whether rigid + added mass about Bo is positive definite, and its smallest eigenvalue.

    ``M_BBo_B`` is the rigid spatial inertia, **linear-first**, about Bo in B axes (use
    ``Inertial.M_BBo_B("linear-first")``).
    """
    if (A_BBo_B.point, A_BBo_B.axes) != ("Bo", "B"):
        raise ValueError("added mass must be about Bo in B axes")
    total = as_6x6(M_BBo_B) + A_BBo_B.symmetric().A
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
    from gzinertia.physics.tuckerman import ellipsoid_added_mass_matrix

    A_EEo_E = AddedMass(ellipsoid_added_mass_matrix(semi_axes, density), "Eo", "E")
    return A_EEo_E, A_EEo_E.in_link(Pose() if X_BE is None else X_BE)


def kinetic_energy_error(A_true: AddedMass, A_used: AddedMass) -> float:
    """Worst relative kinetic-energy error of using ``A_used`` for ``A_true`` (same point, axes):
    ``max_ν |νᵀ(A_used - A_true)ν| / νᵀ(A_true)ν`` over velocities where ``A_true`` is definite
    (the largest generalized eigenvalue in magnitude; ``inf`` if ``A_true`` is singular along a
    direction where they differ)."""
    if (A_true.point, A_true.axes) != (A_used.point, A_used.axes):
        raise ValueError("compare matrices about the same point in the same axes")
    T = A_true.symmetric().A
    D = A_used.symmetric().A - T
    w, V = np.linalg.eigh(T)
    tol = 1e-12 * max(float(np.max(np.abs(T))), 1e-300)
    if w[0] <= tol:
        null = V[:, w <= tol]
        if np.max(np.abs(null.T @ D @ null), initial=0.0) > tol:
            return float("inf")
        V, w = V[:, w > tol], w[w > tol]
    W = V / np.sqrt(w)
    return float(np.max(np.abs(np.linalg.eigvalsh(W.T @ D @ W)), initial=0.0))


def plugin_added_mass(D_BBo_B: ArrayLike) -> NDArray[np.float64] | None:
    """The added mass ``A_BBo_B`` (linear-first, symmetric) that a Hydrodynamics plugin's
    ``<iDotJ>`` terms ``D_BBo_B`` stand for, read as ``gzinertia convert --hydro-to-sdf
    --sign auto`` reads them: ``-sym(D)`` when the non-zero diagonal is all negative (Fossen's
    derivatives), ``sym(D)`` when all positive; ``None`` when the signs are mixed or the
    diagonal is zero (the sign convention cannot be told). An exact conversion keeps this
    matrix, so the audit's verdicts on it do not change under the conversion."""
    D = as_6x6(D_BBo_B)
    diag = np.diag(D)
    nonzero = diag[diag != 0.0]
    if not nonzero.size:
        return None
    if np.all(nonzero < 0.0):
        D = -D
    elif not np.all(nonzero > 0.0):
        return None
    return np.asarray(0.5 * (D + D.T), dtype=float)


def _finite(A: NDArray[np.float64], what: str) -> NDArray[np.float64]:
    """``A`` when every entry is finite; a :class:`Float64OverflowError` saying ``what``
    overflowed otherwise (an added mass beyond float64 is no added mass)."""
    if not np.all(np.isfinite(A)):
        from gzinertia.errors import Float64OverflowError

        raise Float64OverflowError(f"{what} overflows float64 (the point is too far or the "
                                   "matrix too large)")
    return A
