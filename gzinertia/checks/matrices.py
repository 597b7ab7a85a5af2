"""Predicates on matrices (plain NumPy, no link): how a rigid inertia's radii of gyration compare
with a solid's (:func:`gyration_factors`, screened cheaply by :func:`gyration_factors_within`), and
the point about which an added-mass matrix's coupling is symmetric (:func:`implied_centre`)."""

from __future__ import annotations

import numpy as np

from gzinertia.spatial.rotation import Mat3, Vec3

__all__ = ["gyration_factors", "gyration_factors_within", "implied_centre"]


def gyration_factors(I_over_m: Mat3, G_over_V: Mat3) -> tuple[float, float]:
    """``(f_min, f_max)``: square roots of the extreme generalized eigenvalues of ``I/m`` with
    respect to ``G/V``, i.e. the smallest and largest ratio of the rigid body's radius of
    gyration to that of the uniform solid, over all axes through the respective centres."""
    L = np.linalg.cholesky(0.5 * (G_over_V + G_over_V.T))
    Linv = np.linalg.inv(L)
    w = np.linalg.eigvalsh(Linv @ (0.5 * (I_over_m + I_over_m.T)) @ Linv.T)
    return float(np.sqrt(max(w[0], 0.0))), float(np.sqrt(max(w[-1], 0.0)))


#: :func:`gyration_factors_within`'s relative margin on the squared factors: decisions within
#: it of a threshold are left to :func:`gyration_factors` (LAPACK), whose rounding is far
#: smaller for the conditioning the screen accepts.
_GYRATION_SCREEN_MARGIN = 1e-3


#: The screen accepts ``G_over_V`` with ``det/trace³`` above this (condition number below
#: 1e8), so that neither its rounding nor LAPACK's can reach the margin.
_GYRATION_SCREEN_CONDITIONING = 1e-8


def _pivots_positive(a00: float, a01: float, a02: float,
                     a11: float, a12: float, a22: float) -> bool:
    """Whether the symmetric matrix ``[[a00, a01, a02], [., a11, a12], [., ., a22]]`` is
    positive definite: every pivot of its LDLᵀ factorisation positive (NaN: not)."""
    if not a00 > 0.0:
        return False
    l10, l20 = a01 / a00, a02 / a00
    d1 = a11 - l10 * a01
    if not d1 > 0.0:
        return False
    r21 = a12 - l20 * a01
    return bool(a22 - l20 * a02 - (r21 / d1) * r21 > 0.0)


def gyration_factors_within(I_over_m: Mat3, G_over_V: Mat3, factor: float) -> bool:
    """A cheap screen for :func:`gyration_factors` (same arguments: ``I_BBcm_B/m`` and
    ``G_BBc_B/V``, m², each about its own centre, in the link axes B): True only when certainly
    ``1/factor ≤ f_min`` and ``f_max ≤ factor``, i.e. ``I/m - G/V/factor²`` and
    ``factor²·G/V - I/m`` are positive definite with a relative margin of
    :data:`_GYRATION_SCREEN_MARGIN` and ``G/V`` is well conditioned. False means "not
    certain": compute the factors. Plain floats (both matrices symmetrised as there)."""
    i = I_over_m.tolist() if isinstance(I_over_m, np.ndarray) else I_over_m
    g = G_over_V.tolist() if isinstance(G_over_V, np.ndarray) else G_over_V
    i00, i11, i22 = i[0][0], i[1][1], i[2][2]
    i01, i02, i12 = 0.5 * (i[0][1] + i[1][0]), 0.5 * (i[0][2] + i[2][0]), 0.5 * (i[1][2] + i[2][1])
    g00, g11, g22 = g[0][0], g[1][1], g[2][2]
    g01, g02, g12 = 0.5 * (g[0][1] + g[1][0]), 0.5 * (g[0][2] + g[2][0]), 0.5 * (g[1][2] + g[2][1])
    trace = g00 + g11 + g22
    det = (g00 * (g11 * g22 - g12 * g12) - g01 * (g01 * g22 - g12 * g02)
           + g02 * (g01 * g12 - g11 * g02))
    if not (trace > 0.0 and det > _GYRATION_SCREEN_CONDITIONING * trace * trace * trace):
        return False  # (NaN and infinity too)
    lo = (1.0 + _GYRATION_SCREEN_MARGIN) / (factor * factor)
    hi = (1.0 - _GYRATION_SCREEN_MARGIN) * factor * factor
    return _pivots_positive(i00 - lo * g00, i01 - lo * g01, i02 - lo * g02,
                            i11 - lo * g11, i12 - lo * g12, i22 - lo * g22) and _pivots_positive(
        hi * g00 - i00, hi * g01 - i01, hi * g02 - i02,
        hi * g11 - i11, hi * g12 - i12, hi * g22 - i22)



def implied_centre(A_BBo_B: np.ndarray) -> Vec3 | None:
    """``p_BoQ_B``: the point Q about which the matrix's linear/angular coupling block is
    symmetric (zero for a body symmetric about Q, such as an ellipsoid about its centre), for
    ``A_BBo_B`` about Bo in link axes, linear-first (``L`` its top-left, ``C`` its top-right
    block).

    With ``A_P = Tᵀ·A_Q·T`` (DESIGN.md §4) the coupling block at Bo is ``C_Bo = C_Q - L·[r]×``,
    ``r = p_BoQ``, and ``L·[r]× + [r]×·L = [(tr L·1 - L)·r]×``; so ``skew(C_Q) = 0`` gives
    ``(tr L·1 - L)·r = -2·s`` with ``[s]× = skew(C_Bo)``. Directions the linear block cannot
    see (moving along them changes nothing) get no component (least squares); ``None`` when
    the linear block is zero.
    """
    L = A_BBo_B[:3, :3]
    C = A_BBo_B[:3, 3:]
    if not np.any(L):
        return None
    S = 0.5 * (C - C.T)
    s = np.array([S[2, 1], S[0, 2], S[1, 0]])
    K = np.trace(L) * np.eye(3) - L
    r, *_ = np.linalg.lstsq(K, -2.0 * s, rcond=1e-10)
    return np.asarray(r, dtype=float)

