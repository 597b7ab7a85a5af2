"""Added mass of a solid ellipsoid in an unbounded ideal fluid (Tuckerman 1925; Lamb §§114, 373).

This is the model MuJoCo's ellipsoid fluid model uses (shared DESIGN.md §5), evaluated in closed
form with Carlson's symmetric elliptic integrals instead of MuJoCo's 15-point quadrature.

Notation: semi-axes ``(r_x, r_y, r_z)``, ``x_m = r_m²``, ``(i, j, k)`` a cyclic permutation of
``(x, y, z)``, ``Δ(t) = sqrt((x_i + t)(x_j + t)(x_k + t))``, ``V = 4/3·π·r_x r_y r_z``, fluid
density ``ρ``.

* Shape factors ``κ_i = r_x r_y r_z ∫₀^∞ dt / ((x_i + t)·Δ(t)) = (2/3)·r_x r_y r_z·R_D(x_j, x_k,
  x_i)``, ``Σκ = 2``, with Carlson's ``R_D`` (DLMF §19.16; the same function as
  ``scipy.special.elliprd``, evaluated here together with the moment integrals, see
  :func:`_carlson_integrals`).
* Translational added mass along axis i: ``m_A,i = ρV·κ_i / (2 - κ_i) = ρV·κ_i / (κ_j + κ_k)``
  (the second form keeps every digit for thin disks, where ``κ_i → 2``).
* Rotational added moment about axis i, about the centre::

      I_A,i = (ρV/5)·(x_j - x_k)²·(κ_k - κ_j) / (2(x_j - x_k) + (x_j + x_k)(κ_j - κ_k)).

  See :func:`ellipsoid_added_mass` for the form evaluated here and why.

All results are in the ellipsoid's own axes, about its centre ``Eo``; the 6x6 is linear-first
``[x y z p q r]`` (SDFormat ``<fluid_added_mass>`` order), diagonal in those axes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.errors import Float64OverflowError
from gzinertia.vocabulary.fluids import FLUID_DENSITIES

__all__ = [
    "FLUID_DENSITIES",
    "MAX_AXIS_RATIO",
    "ellipsoid_added_mass",
    "ellipsoid_added_mass_matrix",
    "tuckerman_kappa",
]

FloatArray = NDArray[np.float64]

# FLUID_DENSITIES: defined in gzinertia.vocabulary.fluids, re-exported here (its first home).

#: Largest supported ratio of the longest to the shortest semi-axis. Results stay accurate to a
#: few ulps up to it (checked against 100-digit mpmath); intermediate terms of the Carlson
#: recurrence under/overflow beyond about 1e60. No physical body gets near either.
MAX_AXIS_RATIO: Final[float] = 1e30

# Duplication steps of `_carlson_integrals` stop once every argument is within this relative
# distance ε of the smallest; the series after it is taken to fifth order, so the neglected terms
# are O(ε⁶) ≈ 1e-18 relative (and shrink by a further 4⁶ per duplication step already taken).
_SERIES_TOL: Final[float] = 1e-3
_MAX_STEPS: Final[int] = 100

# Many ellipsoids are processed as NumPy rows in blocks of `_BLOCK`, so that the two dozen
# temporaries of the duplication loop stay in the CPU caches (about twice the throughput of
# whole-array operations on a million ellipsoids; benchmarks/bench_tuckerman.py). Up to
# `_SCALAR_MAX` ellipsoids are done one by one on Python floats, the same operations in the same
# order: one ellipsoid then costs tens of microseconds instead of hundreds in NumPy call overhead.
_BLOCK: Final[int] = 8192
_SCALAR_MAX: Final[int] = 8

# Cyclic index triples (i, j, k).
_CYCLIC: Final = ((0, 1, 2), (1, 2, 0), (2, 0, 1))

#: One row of values: a Python float (one ellipsoid) or a float64 array (one per ellipsoid).
Row = Any
Rows = list[Row]


class _Ops(NamedTuple):
    """The few operations whose spelling differs between Python floats and NumPy arrays."""

    sqrt: Callable[[Row], Row]
    minimum: Callable[[Row, Row], Row]
    maximum: Callable[[Row, Row], Row]
    where: Callable[[Row, Row, Row], Row]
    any: Callable[[Row], bool]


_FLOAT_OPS: Final = _Ops(math.sqrt, min, max, lambda c, a, b: a if c else b, bool)
_ARRAY_OPS: Final = _Ops(np.sqrt, np.minimum, np.maximum, np.where, lambda c: bool(np.any(c)))


def _validated_semi_axes(semi_axes: ArrayLike) -> FloatArray:
    """``semi_axes`` as a float array of shape (..., 3) with finite, positive entries.

    Deliberately not :func:`gzinertia.physics.ellipsoid.validated_semi_axes` (the one home of
    the rules for one ellipsoid): this checks a batch in one vectorised pass, the closed form's
    hot path; the rules (finite, positive, ``MAX_AXIS_RATIO``) are the same."""
    r = np.asarray(semi_axes, dtype=np.float64)
    if r.ndim == 0 or r.shape[-1] != 3:
        raise ValueError(f"semi_axes must have shape (..., 3), got shape {r.shape}")
    # One pass for the common case (NaN fails both comparisons); the messages need two.
    if not np.all((r > 0.0) & (r < np.inf)):
        if not np.all(np.isfinite(r)):
            raise ValueError("semi_axes must be finite (found NaN or infinity)")
        raise ValueError("semi_axes must be strictly positive (found a value <= 0)")
    with np.errstate(over="ignore"):  # MAX_AXIS_RATIO·min = inf compares as it should
        too_thin = bool(r.size and np.any(r.max(axis=-1) > MAX_AXIS_RATIO * r.min(axis=-1)))
    if too_thin:
        raise ValueError(
            f"semi-axis ratio longest/shortest exceeds the supported {MAX_AXIS_RATIO:g}"
        )
    return r


def _validated_density(density: float) -> float:
    rho = float(density)
    if not np.isfinite(rho) or rho < 0.0:
        raise ValueError(f"density must be finite and >= 0, got {density!r}")
    return rho


def _map_rows(
    function: Callable[[Rows, _Ops], tuple[Rows, ...]], r: FloatArray, outputs: int
) -> list[FloatArray]:
    """Applies ``function`` (three rows of semi-axes → rows of results) to ``r`` (..., 3).

    A few ellipsoids go one by one as Python floats, many in blocks of NumPy rows (see
    :data:`_BLOCK`). Returns ``outputs`` arrays shaped like ``r``.
    """
    flat = r.reshape(-1, 3)
    results = [np.empty_like(flat) for _ in range(outputs)]
    if len(flat) <= _SCALAR_MAX:
        for n, axes in enumerate(flat.tolist()):
            for result, rows in zip(results, function(axes, _FLOAT_OPS), strict=True):
                result[n] = rows
    else:
        for start in range(0, len(flat), _BLOCK):
            block = np.ascontiguousarray(flat[start : start + _BLOCK].T)
            for result, rows in zip(results, function(list(block), _ARRAY_OPS), strict=True):
                result[start : start + _BLOCK] = np.stack(rows, axis=-1)
    return [result.reshape(r.shape) for result in results]


def _carlson_integrals(x: Rows, ops: _Ops, with_j: bool = True) -> tuple[Rows, Rows]:
    """Carlson's ``R_D`` and the moment integral ``J`` for all three axes at once.

    :param x: three rows (floats, or float arrays of one shape), positive: the squared semi-axes
        ``(x_x, x_y, x_z)``.
    :param ops: :data:`_FLOAT_OPS` or :data:`_ARRAY_OPS`, to match the rows.
    :param with_j: also compute ``J`` (else the second result is empty).

    :returns: ``(RD, J)``, three rows each, with ``(i, j, k)`` cyclic:

        * ``RD[i] = R_D(x_j, x_k, x_i) = (3/2)∫₀^∞ dt / ((x_i + t)·Δ(t))`` (DLMF 19.16.5;
          ``scipy.special.elliprd(x_j, x_k, x_i)``), so that ``κ_i = (2/3)·r_x r_y r_z·RD[i]``;
        * ``J[i] = J(x_i, x_j, x_k) = ∫₀^∞ dt / ((t + x_i)^½ (t + x_j)^{3/2} (t + x_k)^{3/2})``
          ``= (2/5)·R_{-5/2}(½, 3/2, 3/2; x_i, x_j, x_k)`` (DLMF §19.16(ii)), symmetric in ``j,
          k``.

    Both are Carlson's hypergeometric ``R_{-a}(b; x)`` with weights ``b`` on the same three
    arguments, so one duplication sequence serves all six: each step replaces every argument by
    ``u ← (u + λ)/4`` with the symmetric ``λ = √x_x√x_y + √x_y√x_z + √x_z√x_x``, which divides
    every difference between arguments by exactly 4 and leaves each integral a known positive
    term plus a scaled copy of itself:

    * ``R_D(x_j, x_k, x_i) = 3/(√x_i (x_i + λ)) + R_D(x_j', x_k', x_i')/4``;
    * ``J(x_i, x_j, x_k) = 2·(x_j + √(x_j x_k) + x_k + λ) / ((√x_j + √x_k)·√x_j√x_k·(x_j + λ)
      (x_k + λ)) + J(x_i', x_j', x_k')/16`` (subtract the ``R_D`` identities for ``κ_k`` and
      ``κ_j`` and divide by ``x_j - x_k = 4(x_j' - x_k')``: exact, and no cancellation, also at
      ``x_j = x_k``).

    Once the arguments agree to a relative :data:`_SERIES_TOL`, Carlson's expansion (DLMF
    19.19.7) about the weighted mean ``μ = Σ b_m x_m / c`` (``c = Σ b``) finishes each: with
    ``Z_m = 1 - x_m/μ``, ``P_n = Σ b_m Z_mⁿ`` (``P_1 = 0``), ``T_2 = P_2/2``, ``T_3 = P_3/3``,
    ``T_4 = P_4/4 + P_2²/8``, ``T_5 = P_5/5 + P_2 P_3/6``,
    ``R_{-a}(b; x) = μ^{-a}·Σₙ (a)ₙ/(c)ₙ·T_n`` with error ``O(Z⁶)``; ``(a)ₙ/(c)ₙ = 3/(3 + 2n)``
    for ``R_D`` (``a = 3/2``, ``c = 5/2``) and ``5/(5 + 2n)`` for ``R_{-5/2}`` (``c = 7/2``).

    The loop runs over duplication steps (about 5 to 10 at aspect ratios up to 1e4), never over
    array elements.
    """
    x, sum_d, sum_j, factor = _duplicated(x, ops, with_j)
    rd: Rows = []
    moment: Rows = []
    for i, j, k in _CYCLIC:
        # R_D(x_j, x_k, x_i): weights (½, ½, 3/2).
        mu = (x[j] + x[k] + 3.0 * x[i]) / 5.0
        p2, p3, p4, p5 = _power_sums(mu, x[i], (x[j], x[k]), (1.5, 0.5))
        series = (
            1.0
            + p2 * (3.0 / 14.0)
            + p3 / 9.0
            + (p4 / 4.0 + p2 * p2 / 8.0) * (3.0 / 11.0)
            + (p5 / 5.0 + p2 * p3 / 6.0) * (3.0 / 13.0)
        )
        rd.append(3.0 * sum_d[i] + factor * series / (mu * ops.sqrt(mu)))
        if not with_j:
            continue
        # J(x_i, x_j, x_k): weights (½, 3/2, 3/2).
        mu = (x[i] + 3.0 * (x[j] + x[k])) / 7.0
        p2, p3, p4, p5 = _power_sums(mu, x[i], (x[j], x[k]), (0.5, 1.5))
        series = (
            0.4
            + p2 / 9.0
            + p3 * (2.0 / 33.0)
            + (p4 / 4.0 + p2 * p2 / 8.0) * (2.0 / 13.0)
            + (p5 / 5.0 + p2 * p3 / 6.0) * (2.0 / 15.0)
        )
        moment.append(2.0 * sum_j[i] + (factor * factor) * series / (mu * mu * ops.sqrt(mu)))
    return rd, moment


def _duplicated(x: Rows, ops: _Ops, with_j: bool) -> tuple[Rows, Rows, Rows, float]:
    """Carlson's duplication steps of :func:`_carlson_integrals` on the three rows ``x``, until
    they agree to a relative :data:`_SERIES_TOL`: the arguments then, the sums of the known
    terms of ``R_D`` and (with ``with_j``) of ``J`` per axis, and the factor ``4⁻ⁿ`` after the
    ``n`` steps taken."""
    lo = ops.minimum(ops.minimum(x[0], x[1]), x[2])
    # Differences shrink by exactly 4 per step, so the initial spread decides when to stop.
    spread = ops.maximum(ops.maximum(x[0], x[1]), x[2]) - lo
    sum_d: Rows = [0.0, 0.0, 0.0]
    sum_j: Rows = [0.0, 0.0, 0.0]
    factor = 1.0
    for step in range(_MAX_STEPS):
        if not ops.any(spread > (_SERIES_TOL * 4.0**step) * lo):
            break
        s = [ops.sqrt(x_m) for x_m in x]
        q = [s[1] * s[2], s[2] * s[0], s[0] * s[1]]  # q[i] = √x_j √x_k
        lam = q[0] + q[1] + q[2]
        t = [x_m + lam for x_m in x]
        inv_p = [1.0 / (s_m * t_m) for s_m, t_m in zip(s, t, strict=True)]  # 1/(√x (x + λ))
        sum_d = [sum_m + factor * p_m for sum_m, p_m in zip(sum_d, inv_p, strict=True)]
        if with_j:
            factor2 = factor * factor
            sum_j = [
                sum_j[i] + (t[j] + x[k] + q[i]) * inv_p[j] * inv_p[k] / (s[j] + s[k]) * factor2
                for i, j, k in _CYCLIC
            ]
        x = [t_m * 0.25 for t_m in t]
        factor *= 0.25
        lo = ops.minimum(ops.minimum(x[0], x[1]), x[2])
    else:  # pragma: no cover - unreachable for validated inputs (ratios <= MAX_AXIS_RATIO)
        raise RuntimeError("Carlson duplication did not converge")
    return x, sum_d, sum_j, factor


def _power_sums(
    mu: Row, single: Row, pair: tuple[Row, Row], weights: tuple[float, float]
) -> tuple[Row, Row, Row, Row]:
    """``P_2 .. P_5`` of Carlson's expansion about ``μ`` (:func:`_carlson_integrals`):
    ``P_n = Σ b_m Z_mⁿ``, ``Z_m = 1 - x_m/μ``, with weight ``weights[0]`` on ``single`` and
    ``weights[1]`` on each argument of ``pair``."""
    z_i, z_j, z_k = (mu - single) / mu, (mu - pair[0]) / mu, (mu - pair[1]) / mu
    z_i2, z_j2, z_k2 = z_i * z_i, z_j * z_j, z_k * z_k
    w_i, w_jk = weights
    p2 = w_jk * (z_j2 + z_k2) + w_i * z_i2
    p3 = w_jk * (z_j2 * z_j + z_k2 * z_k) + w_i * z_i2 * z_i
    p4 = w_jk * (z_j2 * z_j2 + z_k2 * z_k2) + w_i * z_i2 * z_i2
    p5 = w_jk * (z_j2 * z_j2 * z_j + z_k2 * z_k2 * z_k) + w_i * z_i2 * z_i2 * z_i
    return p2, p3, p4, p5


def _carlson_j(x: ArrayLike, y: ArrayLike, z: ArrayLike) -> FloatArray:
    """``J(x, y, z) = ∫₀^∞ dt / ((t + x)^½ (t + y)^{3/2} (t + z)^{3/2})`` for ``x, y, z > 0``.

    ``J = (2/3)·(R_D(x, y, z) - R_D(x, z, y)) / (y - z)``, computed without that difference by
    :func:`_carlson_integrals` (which see).
    """
    rows = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, y, z)))
    _, moment = _carlson_integrals([row.ravel() for row in rows], _ARRAY_OPS)
    result: FloatArray = moment[0].reshape(rows[0].shape)
    return result


def _scaled(r: Rows, ops: _Ops) -> tuple[Row, Rows]:
    """``(L, r / L)``: the longest semi-axis and the semi-axes scaled to a longest of 1 (so that
    their squares neither overflow nor underflow)."""
    scale = ops.maximum(ops.maximum(r[0], r[1]), r[2])
    return scale, [r_m / scale for r_m in r]


def _kappa_rows(r: Rows, ops: _Ops) -> tuple[Rows]:
    """``(κ,)`` as rows, for three rows of valid semi-axes; see :func:`tuckerman_kappa`."""
    _, s = _scaled(r, ops)
    rd, _ = _carlson_integrals([s_m * s_m for s_m in s], ops, with_j=False)
    abc = s[0] * s[1] * s[2]
    return ([(2.0 / 3.0) * abc * rd_i for rd_i in rd],)


def tuckerman_kappa(semi_axes: ArrayLike) -> FloatArray:
    """Tuckerman's shape factors ``κ`` of ellipsoids with the given semi-axes.

    ``κ_i = (2/3)·r_x r_y r_z·R_D(r_j², r_k², r_i²)`` with Carlson's ``R_D`` (the function of
    ``scipy.special.elliprd``); ``κ_x + κ_y + κ_z = 2`` (a sphere has 2/3 each, the normal axis of
    a thin disk tends to 2, the long axis of a needle to 0).

    :param semi_axes: shape (..., 3), semi-axes ``(r_x, r_y, r_z)``, finite and positive (any unit:
        ``κ`` is scale-invariant; the axes are scaled by their maximum before the squares are
        taken, so neither overflow nor underflow occurs).

    :returns: ``κ`` with the same shape (..., 3).

    :raises ValueError: wrong shape, a non-finite or non-positive semi-axis, or a ratio of
        longest to shortest semi-axis above :data:`MAX_AXIS_RATIO`.
    """
    (kappa,) = _map_rows(_kappa_rows, _validated_semi_axes(semi_axes), 1)
    return kappa


def ellipsoid_added_mass(semi_axes: ArrayLike, density: float) -> tuple[FloatArray, FloatArray]:
    """Translational added masses and rotational added moments of ellipsoids in a fluid.

    How the moment is evaluated. With ``d = x_j - x_k`` the literal formula is 0/0 as ``d → 0``.
    Subtracting the integrals for ``κ_k`` and ``κ_j`` gives, exactly,

        ``κ_k - κ_j = d·D``,  ``D = r_x r_y r_z ∫₀^∞ dt / ((x_j + t)(x_k + t)·Δ(t)) > 0``,

    and ``D = r_x r_y r_z·J(x_i, x_j, x_k)`` is computed by :func:`_carlson_integrals` without
    any difference, in the same duplication loop as the three ``κ``. Using ``Σκ = 2``, the
    literal denominator is ``d·Q`` where

        ``Q = 2 - (x_j + x_k)·D = κ_i + 2κ_j - 2x_k·D
            = r_x r_y r_z ∫₀^∞ (1/(x_i + t) + 2t/((x_j + t)(x_k + t))) dt / Δ(t) > 0``

    (``2(x_j - x_k) + (x_j + x_k)(κ_j - κ_k) = x_j(κ_i + 2κ_j) - x_k(κ_i + 2κ_k)``, the
    "numerically better" denominator of DESIGN §5, is the same ``d·Q``). Hence

        ``I_A,i = (ρV/5)·d²·D / Q``,

    which is exactly 0 at ``d = 0`` and smooth through it. ``Q`` is formed as
    ``κ_i + 2κ_j - 2x_k·D`` with ``x_k = min(x_j, x_k)``: the subtracted part is then at most a
    bounded fraction of ``κ_i + 2κ_j`` (its integrand carries the factor ``x_k/(x_k + t)``), so
    only a few bits are lost, where ``2 - (x_j + x_k)·D`` would cancel completely for thin disks.
    ``d`` itself is taken as ``(r_j - r_k)(r_j + r_k)`` from the given semi-axes, so that
    near-equal axes keep their full relative accuracy. ``m_A,i = ρV·κ_i/(κ_j + κ_k)`` needs no
    such care. Semi-axes are scaled by their maximum ``L`` first (``κ`` and ``Q`` are
    scale-invariant, ``d²D`` scales as ``L²``).

    :param semi_axes: shape (..., 3), semi-axes ``(r_x, r_y, r_z)`` in metres, finite and
        positive.
    :param density: fluid density ``ρ`` in kg/m³ (finite, ``>= 0``), e.g.
        ``FLUID_DENSITIES["seawater"]``.
    :returns: ``(m_A, I_A)``, each shape (..., 3): ``m_A`` in kg along the ellipsoid's axes,
        ``I_A`` in kg·m² about the ellipsoid's axes through its centre. Both are ``>= 0``.
    :raises ValueError: invalid semi-axes (see :func:`tuckerman_kappa`) or density.
    """
    r = _validated_semi_axes(semi_axes)
    rho = _validated_density(density)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
        m_A, I_A = _map_rows(lambda rows, ops: _added_mass_rows(rows, rho, ops), r, 2)
    if not (np.all(np.isfinite(m_A)) and np.all(np.isfinite(I_A))):
        raise Float64OverflowError("semi_axes too large: the added mass overflows float64")
    return m_A, I_A


def _added_mass_rows(r: Rows, rho: float, ops: _Ops) -> tuple[Rows, Rows]:
    """``(m_A, I_A)`` as rows, for three rows of valid semi-axes; see
    :func:`ellipsoid_added_mass` (Python floats overflow to inf here, as arrays do)."""
    scale, s = _scaled(r, ops)
    x = [s_m * s_m for s_m in s]
    rd, J = _carlson_integrals(x, ops)
    abc = s[0] * s[1] * s[2]
    kappa = [(2.0 / 3.0) * abc * rd_i for rd_i in rd]
    rho_volume = rho * ((4.0 / 3.0) * math.pi * (r[0] * r[1] * r[2]))
    m_A: Rows = []
    I_A: Rows = []
    for i, j, k in _CYCLIC:
        m_A.append(rho_volume * kappa[i] / (kappa[j] + kappa[k]))
        # Order the pair (j, k) so that x_hi >= x_lo; I_A is symmetric in j and k (J is too).
        j_is_hi = x[j] >= x[k]
        x_lo = ops.where(j_is_hi, x[k], x[j])
        kappa_hi = ops.where(j_is_hi, kappa[j], kappa[k])
        D = abc * J[i]
        Q = kappa[i] + 2.0 * kappa_hi - 2.0 * x_lo * D
        # d = x_hi - x_lo from the unscaled semi-axes: r_j - r_k is exact when they are close
        # (Sterbenz), whereas rounding in r/L and its square would dominate d at r_j ≈ r_k.
        d = abs((r[j] - r[k]) / scale) * ((r[j] + r[k]) / scale)
        I_A.append((rho_volume / 5.0) * (scale * scale) * d * d * D / Q)
    return m_A, I_A


def ellipsoid_added_mass_matrix(semi_axes: ArrayLike, density: float) -> FloatArray:
    """``A_EEo_E``: the 6x6 added-mass matrix of ellipsoids about their centre, in their own axes.

    Linear-first ``[x y z p q r]`` (SDFormat ``<fluid_added_mass>`` order), diagonal
    ``diag(m_A,x, m_A,y, m_A,z, I_A,x, I_A,y, I_A,z)``; see :func:`ellipsoid_added_mass`.

    :returns: Shape (..., 6, 6) for ``semi_axes`` of shape (..., 3).
    """
    m_A, I_A = ellipsoid_added_mass(semi_axes, density)
    diagonal = np.concatenate([m_A, I_A], axis=-1)
    A = np.zeros((*diagonal.shape, 6), dtype=np.float64)
    idx = np.arange(6)
    A[..., idx, idx] = diagonal
    return A
