"""Which entries of a written 6x6 are round-off: a rule that compares like with like.

A linear-first 6x6 (``[x y z p q r]`` rows and columns) mixes units: for added mass the
translational block is in kg, the coupling in kg·m, the rotational block in kg·m²; the
Hydrodynamics plugin's damping has the same structure with a power of the velocity (linear
``xU`` in kg/s, ``kP`` in kg·m²/s; quadratic ``xUabsU`` in kg/m, ``kPabsP`` in kg·m²). Comparing
an entry in kg·m² with one in kg says nothing (the answer changes with the length unit).

**What negligible means.** An entry matters through what it contributes: to the kinetic energy
``½νᵀAν`` (added mass) or to the wrench ``Σ_j D_ij·|s_j|^(p-1)·s_j`` (damping, power ``p`` = 1 or
2). Take motions in which the link turns at ``ω = v/ℓ``, ``ℓ`` the length at which the matrix's
own rotational and translational parts are equally large:
``ℓ^(1+p) = max|rotational block| / max|translational block|`` (for added mass, ``p = 1``, this
is the radius of gyration of the added mass). Measured in those units (moments divided by
``ℓ``, rates multiplied by it), entry ``(i, j)`` becomes ``M_ij / ℓ^(r_i + p·r_j)`` with
``r = 1`` on rotational rows and columns, all in one unit. An entry is negligible when that is at
most :data:`RELATIVE_ZERO` times the largest such value: it then changes no energy or force by
more than that fraction of the largest one, whatever unit of length the file uses (the rule is
invariant under a change of length unit, which a test checks).

When one of the two diagonal blocks is entirely zero there is no such ``ℓ`` and the entries of
each unit are judged against their own largest.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "RELATIVE_ZERO",
    "entry_scales",
    "exponent_scales",
]

#: Entries below this fraction of the largest (in the common unit above) are written as 0:
#: round-off of rotations and changes of point is a few ``1e-16`` of the largest entry.
RELATIVE_ZERO = 1e-12

_ROTATIONAL = np.array([0, 0, 0, 1, 1, 1])


def exponent_scales(values: ArrayLike, exponents: ArrayLike, top: int) -> NDArray[np.float64]:
    """Reference magnitudes for values whose units differ by powers of length: value ``k`` is in
    ``unit₀·m^e_k`` (``exponents``), ``0 ≤ e_k ≤ top``. The length ``ℓ`` is where the largest
    value of exponent ``top`` and the largest of exponent 0 are equal
    (``ℓ^top = max_top / max_0``); value ``k``'s scale is ``ℓ^e_k`` times the largest
    ``|v|/ℓ^e`` of all. Without both extremes there is no ``ℓ``: each exponent's values are
    judged against their own largest. Same shape as ``values``."""
    v = np.abs(np.asarray(values, dtype=float))
    e = np.asarray(exponents, dtype=float)
    if v.shape != e.shape:
        raise ValueError(f"values {v.shape} and exponents {e.shape} differ in shape")
    low = float(np.max(v[e == 0], initial=0.0))
    high = float(np.max(v[e == top], initial=0.0))
    if low > 0.0 and high > 0.0:
        # in logarithms: ℓ can be far from 1 m (1e-9 kg links, 1e4 m ships)
        log_ell = (np.log(high) - np.log(low)) / top
        with np.errstate(divide="ignore"):
            log_normalized = np.log(v) - e * log_ell
        return np.asarray(np.exp(np.max(log_normalized) + e * log_ell), dtype=float)
    scales = np.zeros_like(v)
    for exponent in np.unique(e):
        group = e == exponent
        scales[group] = np.max(v[group])
    return scales


def entry_scales(M: ArrayLike, power: int = 1) -> NDArray[np.float64]:
    """Per-entry reference magnitudes ``s_ij`` of a linear-first 6x6 ``M`` (same units as
    ``M_ij``): ``|M_ij| ≤ RELATIVE_ZERO·s_ij`` means entry ``(i, j)`` is negligible.

    ``power`` is how the entry multiplies the column's velocity: 1 for added mass and linear
    damping, 2 for quadratic damping (``|s_j|·s_j``). Rows and columns 0-2 are translational,
    3-5 rotational: entry ``(i, j)`` has length exponent ``r_i + power·r_j``
    (:func:`exponent_scales`). Zero matrix: all scales 0.
    """
    A = np.abs(np.asarray(M, dtype=float))
    if A.shape != (6, 6):
        raise ValueError(f"expected a 6x6 matrix, got shape {A.shape}")
    if power not in (1, 2):
        raise ValueError(f"power must be 1 or 2, got {power}")
    exponent = _ROTATIONAL[:, None] + power * _ROTATIONAL[None, :]
    return exponent_scales(A, exponent, 1 + power)
