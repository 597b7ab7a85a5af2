"""6x6 algebra: orderings, change of point and change of axes of symmetric spatial matrices.

Two orderings are in use (``docs/conventions.md`` §2):

* ``"angular-first"``: ``[ω; v]`` (Featherstone, Drake's ``CopyToFullMatrix6()``, DART's
  ``getSpatialTensor()``).
* ``"linear-first"``: ``[v; ω]`` = SDFormat's ``[x y z p q r]`` (``<fluid_added_mass>``, Fossen,
  gz-math, Capytaine, WAMIT).

They differ by the block swap ``P·M·P`` with ``P = [[0, 1], [1, 0]]``.

Change of point follows Drake's direction everywhere: :func:`shift` takes ``M_SP`` (about the
old point P) and ``p_PQ`` (from the old point to the new one) and returns ``M_SQ``, like
Drake's ``SpatialInertia.Shift(p_PQ_E)``. The congruence keeps the kinetic energy
``½ νᵀ M ν`` invariant under ``v_Q = v_P + ω × p_PQ``; for a rigid body about its centre of mass
this is exactly the parallel-axis theorem.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.spatial.rotation import skew
from gzinertia.vocabulary.choices import Ordering as Ordering

__all__ = [
    "ORDERINGS",
    "Mat6",
    "Ordering",
    "as_6x6",
    "block_swap",
    "change_axes",
    "kinetic_energy",
    "reorder",
    "shift",
    "shift_operator",
    "transform_spatial",
]

ORDERINGS: tuple[Ordering, ...] = ("angular-first", "linear-first")

Mat6 = NDArray[np.float64]


def as_6x6(M: ArrayLike) -> Mat6:
    """``M`` as a float 6x6 array (a ValueError otherwise): same point, axes and ordering."""
    arr = np.asarray(M, dtype=float)
    if arr.shape != (6, 6):
        raise ValueError(f"expected a 6x6 matrix, got shape {arr.shape}")
    return arr


# Rows and columns of ``P·M·P`` taken from ``M``: one fancy index, a copy (not ``np.block``, ten
# times as slow for a 6x6).
_SWAPPED_ROWS = np.array([3, 4, 5, 0, 1, 2])[:, None]
_SWAPPED_COLUMNS = np.array([3, 4, 5, 0, 1, 2])[None, :]


def block_swap(M: ArrayLike) -> Mat6:
    """``P·M·P``: converts angular-first to linear-first and back (an involution); the point
    and axes stay."""
    m = as_6x6(M)
    return m[_SWAPPED_ROWS, _SWAPPED_COLUMNS]


def reorder(M: ArrayLike, source: Ordering, target: Ordering) -> Mat6:
    """``M`` given in ``source`` ordering, returned in ``target`` ordering (a copy; the point
    and axes stay)."""
    m = as_6x6(M)
    return m.copy() if source == target else block_swap(m)


def shift_operator(p_PQ: ArrayLike, ordering: Ordering) -> Mat6:
    """The matrix ``T`` with ``ν_Q = T·ν_P`` for a rigid body (same axes), ``p_PQ`` from P to Q.

    Linear-first ``T = [[1, -[r]×], [0, 1]]``; angular-first ``Φ = [[1, 0], [-[r]×, 1]]``.
    """
    T = np.eye(6)
    block = -skew(p_PQ)
    if ordering == "linear-first":
        T[:3, 3:] = block
    else:
        T[3:, :3] = block
    return T


def shift(M_SP: ArrayLike, p_PQ: ArrayLike, ordering: Ordering) -> Mat6:
    """``M_SQ``: a symmetric spatial matrix about point P moved to point Q (same axes E).

    ``p_PQ`` runs **from the old point P to the new point Q**, expressed in E (Drake's
    ``SpatialInertia.Shift(p_PQ_E)``). ``M_SP`` is given, and ``M_SQ`` returned, in
    ``ordering`` (either). ``M_SQ = Tᵀ·M_SP·T`` with ``T = shift_operator(p_QP)``, which keeps
    ``½ νᵀ M ν`` invariant; shifting back by ``-p_PQ`` undoes it.
    """
    T = shift_operator(-np.asarray(p_PQ, dtype=float), ordering)
    return T.T @ as_6x6(M_SP) @ T


def change_axes(M_F: ArrayLike, R_GF: ArrayLike) -> Mat6:
    """Re-expresses a spatial matrix from axes F in axes G (same point, same ordering: either).

    ``M_G = Rb·M_F·Rbᵀ`` with ``Rb = blkdiag(R_GF, R_GF)``.
    """
    R = np.asarray(R_GF, dtype=float)
    Rb = np.zeros((6, 6))
    Rb[:3, :3] = R
    Rb[3:, 3:] = R
    return Rb @ as_6x6(M_F) @ Rb.T


def kinetic_energy(M: ArrayLike, nu: ArrayLike) -> float:
    """``½ νᵀ M ν`` (``ν`` in the same ordering, point and axes as ``M``)."""
    n = np.asarray(nu, dtype=float)
    return 0.5 * float(n @ as_6x6(M) @ n)


def transform_spatial(
    M_BBo_B: ArrayLike, R_AB: ArrayLike, p_AoBo_A: ArrayLike, ordering: Ordering
) -> Mat6:
    """The spatial matrix ``M_BBo_B`` (about Bo in B axes) about Ao in A axes, where frame B is
    posed in A by ``R_AB`` and ``p_AoBo_A`` (``X_AB``): re-expressed in A, then moved from Bo to
    Ao. Given and returned in ``ordering`` (either).

    This is what DART's ``Inertia(S).transformed(X_AB)`` computes. For an ellipsoid E posed in a
    link B by ``X_BE``, ``A_BBo_B = transform_spatial(A_EEo_E, X_BE.R, X_BE.p, ...)``.
    """
    return shift(change_axes(M_BBo_B, R_AB), -np.asarray(p_AoBo_A, dtype=float), ordering)
