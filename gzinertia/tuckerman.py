"""Added mass of a solid ellipsoid in an unbounded ideal fluid (Tuckerman 1925; Lamb §§114, 373).

This is the model MuJoCo's ellipsoid fluid model uses (shared DESIGN.md §5), evaluated in closed
form with Carlson's symmetric elliptic integrals instead of MuJoCo's 15-point quadrature.

Notation: semi-axes ``(r_x, r_y, r_z)``, ``x_m = r_m²``, ``(i, j, k)`` a cyclic permutation of
``(x, y, z)``, ``Δ(t) = sqrt((x_i + t)(x_j + t)(x_k + t))``, ``V = 4/3·π·r_x r_y r_z``, fluid
density ``ρ``.

* Shape factors ``κ_i = r_x r_y r_z ∫₀^∞ dt / ((x_i + t)·Δ(t)) = (2/3)·r_x r_y r_z·R_D(x_j, x_k,
  x_i)``, ``Σκ = 2``.
* Translational added mass along axis i: ``m_A,i = ρV·κ_i / (2 - κ_i) = ρV·κ_i / (κ_j + κ_k)``
  (the second form keeps every digit for thin disks, where ``κ_i → 2``).
* Rotational added moment about axis i, about the centre::

      I_A,i = (ρV/5)·(x_j - x_k)²·(κ_k - κ_j) / (2(x_j - x_k) + (x_j + x_k)(κ_j - κ_k)).

  See :func:`ellipsoid_added_mass` for the form evaluated here and why.

All results are in the ellipsoid's own axes, about its centre ``Eo``; the 6x6 is linear-first
``[x y z p q r]`` (SDFormat ``<fluid_added_mass>`` order), diagonal in those axes.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import elliprd

__all__ = [
    "FLUID_DENSITIES",
    "MAX_AXIS_RATIO",
    "ellipsoid_added_mass",
    "ellipsoid_added_mass_matrix",
    "tuckerman_kappa",
]

FloatArray = NDArray[np.float64]

#: Fluid densities in kg/m³ (standard reference values):
#:
#: * ``freshwater``: 1000.0, the default ``<uniform_fluid_density>`` of Gazebo's Buoyancy system
#:   (fresh water near 4 °C is 999.97 kg/m³).
#: * ``seawater``: 1025.0, the customary mean density of surface sea water (salinity ≈ 35 g/kg,
#:   ~15 °C; the usual value in ocean engineering and marine-robot models).
#: * ``air``: 1.225, dry air at sea level in the ICAO / ISO 2533 International Standard
#:   Atmosphere (15 °C, 101 325 Pa).
FLUID_DENSITIES: Final[dict[str, float]] = {
    "freshwater": 1000.0,
    "seawater": 1025.0,
    "air": 1.225,
}

#: Largest supported ratio of the longest to the shortest semi-axis. Results stay accurate to a
#: few ulps up to it (checked against 100-digit mpmath); intermediate terms of the Carlson
#: recurrence under/overflow beyond about 1e60. No physical body gets near either.
MAX_AXIS_RATIO: Final[float] = 1e30

# Cyclic index permutations: for axis i = (x, y, z), J = (y, z, x) and K = (z, x, y).
_J: Final = np.array([1, 2, 0])
_K: Final = np.array([2, 0, 1])

# Duplication steps of `_carlson_j` stop once every argument is within this relative distance ε of
# the weighted mean; the series after it is taken to fifth order, so the neglected terms are
# O(ε⁶) ≈ 1e-18 relative (and shrink by a further 16 per duplication step already taken).
_J_SERIES_TOL: Final[float] = 1e-3
_J_MAX_STEPS: Final[int] = 100


def _validated_semi_axes(semi_axes: ArrayLike) -> FloatArray:
    """``semi_axes`` as a float array of shape (..., 3) with finite, positive entries."""
    r = np.asarray(semi_axes, dtype=np.float64)
    if r.ndim == 0 or r.shape[-1] != 3:
        raise ValueError(f"semi_axes must have shape (..., 3), got shape {r.shape}")
    if not np.all(np.isfinite(r)):
        raise ValueError("semi_axes must be finite (found NaN or infinity)")
    if not np.all(r > 0.0):
        raise ValueError("semi_axes must be strictly positive (found a value <= 0)")
    if r.size and np.any(r.max(axis=-1) > MAX_AXIS_RATIO * r.min(axis=-1)):
        raise ValueError(
            f"semi-axis ratio longest/shortest exceeds the supported {MAX_AXIS_RATIO:g}"
        )
    return r


def _validated_density(density: float) -> float:
    rho = float(density)
    if not np.isfinite(rho) or rho < 0.0:
        raise ValueError(f"density must be finite and >= 0, got {density!r}")
    return rho


def _kappa_scaled(s: FloatArray) -> FloatArray:
    """κ for semi-axes ``s`` already validated and scaled to max 1 (shape (..., 3))."""
    x = s * s
    abc = np.prod(s, axis=-1, keepdims=True)
    kappa: FloatArray = (2.0 / 3.0) * abc * elliprd(x[..., _J], x[..., _K], x)
    return kappa


def tuckerman_kappa(semi_axes: ArrayLike) -> FloatArray:
    """Tuckerman's shape factors ``κ`` of ellipsoids with the given semi-axes.

    ``κ_i = (2/3)·r_x r_y r_z·R_D(r_j², r_k², r_i²)`` with Carlson's ``R_D``
    (``scipy.special.elliprd``); ``κ_x + κ_y + κ_z = 2`` (a sphere has 2/3 each, the normal axis of
    a thin disk tends to 2, the long axis of a needle to 0).

    Args:
        semi_axes: shape (..., 3), semi-axes ``(r_x, r_y, r_z)``, finite and positive (any unit:
            ``κ`` is scale-invariant; the axes are scaled by their maximum before the squares are
            taken, so neither overflow nor underflow occurs).

    Returns:
        ``κ`` with the same shape (..., 3).

    Raises:
        ValueError: wrong shape, a non-finite or non-positive semi-axis, or a ratio of longest to
            shortest semi-axis above :data:`MAX_AXIS_RATIO`.
    """
    r = _validated_semi_axes(semi_axes)
    return _kappa_scaled(r / r.max(axis=-1, keepdims=True))


def _carlson_j(x: FloatArray, y: FloatArray, z: FloatArray) -> FloatArray:
    """``J(x, y, z) = ∫₀^∞ dt / ((t + x)^½ (t + y)^{3/2} (t + z)^{3/2})`` for ``x, y, z > 0``.

    ``J = (2/5)·R_{-5/2}(½, 3/2, 3/2; x, y, z)`` (Carlson's hypergeometric R; DLMF §19.16(ii)) and
    equals ``(2/3)·(R_D(x, y, z) - R_D(x, z, y)) / (y - z)``, but it is computed without that
    difference. Carlson's duplication step ``u ← (u + λ)/4`` with ``λ = √x√y + √y√z + √z√x`` is the
    same for both ``R_D`` (λ is symmetric), so subtracting the two duplication identities
    ``R_D(x, y, z) = R_D(x₁, y₁, z₁)/4 + 3/(√z (z + λ))`` and dividing by ``y - z = 4(y₁ - z₁)``
    gives the exact recurrence

        ``J(x, y, z) = J(x₁, y₁, z₁)/16 + 2·(y + √(yz) + z + λ) / ((√y + √z)·√y√z·(y + λ)(z + λ))``,

    whose every term is positive (no cancellation, also at ``y = z``). Each step divides the
    differences between the arguments by exactly 4. Once they agree with the weighted mean
    ``μ = (x + 3y + 3z)/7`` to a relative ``ε``, Carlson's expansion (DLMF 19.19.7) finishes it:
    with ``Z_m = 1 - u_m/μ`` and ``P_n = ½Z_x^n + 3/2·Z_y^n + 3/2·Z_z^n`` (``P_1 = 0`` by the choice
    of ``μ``), ``Π(1 - Z_m s)^{-b_m} = exp(Σ P_n sⁿ/n) = Σ T_n sⁿ`` and, because ``c = a + 1``,

        ``J = μ^{-5/2}·Σₙ 2/(5 + 2n)·T_n``,  ``T_2 = P_2/2``, ``T_3 = P_3/3``,
        ``T_4 = P_4/4 + P_2²/8``, ``T_5 = P_5/5 + P_2 P_3/6``, error ``O(ε⁶)``.

    The loop is over duplication steps (about 5 to 10 at aspect ratios up to 1e4), never over
    array elements.
    """
    mu = (x + 3.0 * (y + z)) / 7.0
    # |u - μ| shrinks by exactly 4 per step, so the initial spread decides when to stop.
    spread = np.maximum(np.maximum(np.abs(x - mu), np.abs(y - mu)), np.abs(z - mu))
    total = np.zeros(np.broadcast(x, y, z).shape)
    factor = 1.0
    for step in range(_J_MAX_STEPS):
        if not np.any(spread > (_J_SERIES_TOL * 4.0**step) * mu):
            break
        sx, sy, sz = np.sqrt(x), np.sqrt(y), np.sqrt(z)
        syz = sy * sz
        lam = sx * (sy + sz) + syz
        y_lam, z_lam = y + lam, z + lam
        total += (2.0 * factor) * (y_lam + z + syz) / ((sy + sz) * syz * y_lam * z_lam)
        factor /= 16.0
        x, y, z = (x + lam) / 4.0, y_lam / 4.0, z_lam / 4.0
        mu = (x + 3.0 * (y + z)) / 7.0
    else:  # pragma: no cover - unreachable for validated inputs (ratios <= MAX_AXIS_RATIO)
        raise RuntimeError("Carlson duplication did not converge")
    zx, zy, zz = (mu - x) / mu, (mu - y) / mu, (mu - z) / mu
    zx2, zy2, zz2 = zx * zx, zy * zy, zz * zz
    p2 = 0.5 * zx2 + 1.5 * (zy2 + zz2)
    p3 = 0.5 * zx2 * zx + 1.5 * (zy2 * zy + zz2 * zz)
    p4 = 0.5 * zx2 * zx2 + 1.5 * (zy2 * zy2 + zz2 * zz2)
    p5 = 0.5 * zx2 * zx2 * zx + 1.5 * (zy2 * zy2 * zy + zz2 * zz2 * zz)
    series = (
        0.4
        + p2 / 9.0
        + p3 * (2.0 / 33.0)
        + (p4 / 4.0 + p2 * p2 / 8.0) * (2.0 / 13.0)
        + (p5 / 5.0 + p2 * p3 / 6.0) * (2.0 / 15.0)
    )
    result: FloatArray = total + factor * mu**-2.5 * series
    return result


def ellipsoid_added_mass(semi_axes: ArrayLike, density: float) -> tuple[FloatArray, FloatArray]:
    """Translational added masses and rotational added moments of ellipsoids in a fluid.

    Args:
        semi_axes: shape (..., 3), semi-axes ``(r_x, r_y, r_z)`` in metres, finite and positive.
        density: fluid density ``ρ`` in kg/m³ (finite, ``>= 0``), e.g.
            ``FLUID_DENSITIES["seawater"]``.

    Returns:
        ``(m_A, I_A)``, each shape (..., 3): ``m_A`` in kg along the ellipsoid's axes, ``I_A`` in
        kg·m² about the ellipsoid's axes through its centre. Both are ``>= 0``.

    Raises:
        ValueError: invalid semi-axes (see :func:`tuckerman_kappa`) or density.

    How the moment is evaluated. With ``d = x_j - x_k`` the literal formula is 0/0 as ``d → 0``.
    Subtracting the integrals for ``κ_k`` and ``κ_j`` gives, exactly,

        ``κ_k - κ_j = d·D``,  ``D = r_x r_y r_z ∫₀^∞ dt / ((x_j + t)(x_k + t)·Δ(t)) > 0``,

    and ``D = r_x r_y r_z·J(x_i, x_j, x_k)`` is computed by :func:`_carlson_j` without any
    difference. Using ``Σκ = 2``, the literal denominator is ``d·Q`` where

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
    """
    r = _validated_semi_axes(semi_axes)
    rho = _validated_density(density)
    scale = r.max(axis=-1, keepdims=True)
    s = r / scale
    x = s * s
    kappa = _kappa_scaled(s)
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
        volume = (4.0 / 3.0) * np.pi * np.prod(r, axis=-1, keepdims=True)
        m_A: FloatArray = rho * volume * kappa / (kappa[..., _J] + kappa[..., _K])

    # Order the pair (j, k) so that x_hi >= x_lo; I_A is symmetric in j and k.
    x_j, x_k = x[..., _J], x[..., _K]
    k_j, k_k = kappa[..., _J], kappa[..., _K]
    j_is_hi = x_j >= x_k
    x_hi = np.where(j_is_hi, x_j, x_k)
    x_lo = np.where(j_is_hi, x_k, x_j)
    kappa_hi = np.where(j_is_hi, k_j, k_k)
    D = np.prod(s, axis=-1, keepdims=True) * _carlson_j(x, x_hi, x_lo)
    Q = kappa + 2.0 * kappa_hi - 2.0 * x_lo * D
    # d = x_hi - x_lo from the unscaled semi-axes: r_j - r_k is exact when they are close
    # (Sterbenz), whereas rounding in r/L and its square would dominate d at r_j ≈ r_k.
    r_j, r_k = r[..., _J], r[..., _K]
    d = np.abs((r_j - r_k) / scale) * ((r_j + r_k) / scale)
    with np.errstate(over="ignore", invalid="ignore"):
        I_A: FloatArray = (rho * volume / 5.0) * scale**2 * d * d * D / Q
    if not (np.all(np.isfinite(m_A)) and np.all(np.isfinite(I_A))):
        raise ValueError("semi_axes too large: the added mass overflows float64")
    return m_A, I_A


def ellipsoid_added_mass_matrix(semi_axes: ArrayLike, density: float) -> FloatArray:
    """``A_EEo_E``: the 6x6 added-mass matrix of ellipsoids about their centre, in their own axes.

    Linear-first ``[x y z p q r]`` (SDFormat ``<fluid_added_mass>`` order), diagonal
    ``diag(m_A,x, m_A,y, m_A,z, I_A,x, I_A,y, I_A,z)``; see :func:`ellipsoid_added_mass`.

    Returns:
        Shape (..., 6, 6) for ``semi_axes`` of shape (..., 3).
    """
    m_A, I_A = ellipsoid_added_mass(semi_axes, density)
    diagonal = np.concatenate([m_A, I_A], axis=-1)
    A = np.zeros((*diagonal.shape, 6), dtype=np.float64)
    idx = np.arange(6)
    A[..., idx, idx] = diagonal
    return A
