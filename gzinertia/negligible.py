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

When one of the two diagonal blocks is entirely zero there is no such ``ℓ`` and each of the four
3x3 blocks is judged against its own largest entry.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

#: Entries below this fraction of the largest (in the common unit above) are written as 0:
#: round-off of rotations and changes of point is a few ``1e-16`` of the largest entry.
RELATIVE_ZERO = 1e-12

_ROTATIONAL = np.array([0, 0, 0, 1, 1, 1])


def entry_scales(M: ArrayLike, power: int = 1) -> NDArray[np.float64]:
    """Per-entry reference magnitudes ``s_ij`` of a linear-first 6x6 ``M`` (same units as
    ``M_ij``): ``|M_ij| ≤ RELATIVE_ZERO·s_ij`` means entry ``(i, j)`` is negligible.

    ``power`` is how the entry multiplies the column's velocity: 1 for added mass and linear
    damping, 2 for quadratic damping (``|s_j|·s_j``). Rows and columns 0-2 are translational,
    3-5 rotational. Zero matrix: all scales 0.
    """
    A = np.abs(np.asarray(M, dtype=float))
    if A.shape != (6, 6):
        raise ValueError(f"expected a 6x6 matrix, got shape {A.shape}")
    if power not in (1, 2):
        raise ValueError(f"power must be 1 or 2, got {power}")
    translational = float(np.max(A[:3, :3]))
    rotational = float(np.max(A[3:, 3:]))
    if translational > 0.0 and rotational > 0.0:
        # work in logarithms: ℓ can be far from 1 m (1e-9 kg links, 1e4 m ships)
        log_ell = (np.log(rotational) - np.log(translational)) / (1.0 + power)
        exponent = _ROTATIONAL[:, None] + power * _ROTATIONAL[None, :]
        with np.errstate(divide="ignore"):
            log_normalized = np.log(A) - exponent * log_ell
        return np.asarray(np.exp(np.max(log_normalized) + exponent * log_ell), dtype=float)
    scales = np.zeros((6, 6))
    for rows in (slice(0, 3), slice(3, 6)):
        for cols in (slice(0, 3), slice(3, 6)):
            scales[rows, cols] = np.max(A[rows, cols])
    return scales


def negligible(M: ArrayLike, power: int = 1) -> NDArray[np.bool_]:
    """``True`` where an entry of the linear-first 6x6 ``M`` is round-off by
    :func:`entry_scales` (zero entries included)."""
    magnitude = np.abs(np.asarray(M, dtype=float))
    threshold = RELATIVE_ZERO * entry_scales(magnitude, power)
    return np.asarray(magnitude <= threshold, dtype=bool)
