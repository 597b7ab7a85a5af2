"""Ellipsoid added mass (gzinertia.spatial.tuckerman) against independent oracles (DESIGN §5, §9).

Oracles, none of them our code:

* MuJoCo's compiler, which integrates Tuckerman's κ with a 15-point Gauss–Kronrod rule and stores
  ``geom_fluid[g, 6:12] = (m_A, I_A) / ρ`` (volume folded in, density not; checked below).
* Closed forms: sphere; Lamb's prolate spheroid (Hydrodynamics §§114, 373; Newman, Marine
  Hydrodynamics §4.13); the thin-disk limits with their first-order corrections in ``ε = c/a``.
* The κ integral itself, by mpmath tanh-sinh quadrature at 40 significant digits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import oracle_module

from gzinertia.spatial.tuckerman import (
    FLUID_DENSITIES,
    MAX_AXIS_RATIO,
    ellipsoid_added_mass,
    ellipsoid_added_mass_matrix,
    tuckerman_kappa,
)

mujoco = oracle_module("mujoco")

RHO = FLUID_DENSITIES["seawater"]
SEED = 20250514


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def displaced_mass(semi_axes: np.ndarray, rho: float = RHO) -> np.ndarray:
    """ρV of each ellipsoid, shape (...,)."""
    return rho * 4.0 / 3.0 * np.pi * np.prod(semi_axes, axis=-1)


def random_ellipsoids(rng: np.random.Generator, n: int, min_ratio: float, max_ratio: float):
    """n ellipsoids whose longest/shortest semi-axis ratio is log-uniform in [min, max].

    The middle axis is log-uniform between the two; axis order and overall size (1 cm to 10 m)
    are random too.
    """
    ratio = np.exp(rng.uniform(np.log(min_ratio), np.log(max_ratio), n))
    middle = ratio ** rng.uniform(0.0, 1.0, n)
    axes = np.stack([np.ones(n), middle, ratio], axis=-1)
    axes = rng.permuted(axes, axis=1)
    size = np.exp(rng.uniform(np.log(0.01), np.log(10.0), n))
    return axes * (size / ratio)[:, None]


def extreme_shapes(ratio: float) -> np.ndarray:
    """The worst cases of a band: oblate, prolate and evenly triaxial, in every axis order."""
    base = [(1.0, 1.0, 1.0 / ratio), (1.0, 1.0 / ratio, 1.0 / ratio), (1.0, ratio**-0.5, 1 / ratio)]
    perms = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    return np.array([[b[p[0]], b[p[1]], b[p[2]]] for b in base for p in perms])


def mujoco_fluid(semi_axes: np.ndarray, rho: float) -> np.ndarray:
    """MuJoCo's compiled ``geom_fluid`` rows, one free body per ellipsoid, all in one model."""
    bodies = "".join(
        f'<body><freejoint/><geom type="ellipsoid" size="{a!r} {b!r} {c!r}" '
        'fluidshape="ellipsoid"/></body>'
        for a, b, c in np.asarray(semi_axes, dtype=float).tolist()
    )
    xml = (
        f'<mujoco><option density="{rho!r}" viscosity="0"/><worldbody>{bodies}</worldbody></mujoco>'
    )
    model = mujoco.MjModel.from_xml_string(xml)
    assert model.ngeom == len(semi_axes)
    return np.array(model.geom_fluid)


def mujoco_added_mass(semi_axes: np.ndarray, rho: float) -> tuple[np.ndarray, np.ndarray]:
    """(m_A, I_A) as MuJoCo computes them: ``geom_fluid[6:12]`` times ρ."""
    fluid = mujoco_fluid(semi_axes, rho)
    return rho * fluid[:, 6:9], rho * fluid[:, 9:12]


def moment_scale(semi_axes: np.ndarray, m_A: np.ndarray) -> np.ndarray:
    """max(m_A)·max(r)² per ellipsoid: the natural size of its added moments, shape (..., 1)."""
    return (m_A.max(axis=-1) * semi_axes.max(axis=-1) ** 2)[..., None]


@pytest.fixture(scope="module")
def mp() -> Any:
    """mpmath at 40 significant digits."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    return mpmath


def kappa_by_quadrature(mp: Any, semi_axes) -> list[Any]:
    """κ_i = r_x r_y r_z ∫₀^∞ dλ / ((r_i² + λ)·sqrt((r_x²+λ)(r_y²+λ)(r_z²+λ))), 40 digits.

    The interval is split at the r² (where the integrand changes scale), so that very flat or
    very long ellipsoids integrate as accurately as round ones.
    """
    r = [mp.mpf(float(v)) for v in semi_axes]
    x = [v * v for v in r]
    abc = r[0] * r[1] * r[2]
    points = [mp.mpf(0), *sorted(set(x)), mp.inf]

    def integrand(i: int) -> Callable[[Any], Any]:
        return lambda lam: (
            abc / ((x[i] + lam) * mp.sqrt((x[0] + lam) * (x[1] + lam) * (x[2] + lam)))
        )

    return [mp.quad(integrand(i), points) for i in range(3)]


def added_mass_by_quadrature(mp: Any, semi_axes, rho: float) -> tuple[list[Any], list[Any]]:
    """(m_A, I_A) from the literal textbook formulas with 40-digit κ (DESIGN §5).

    m_A,i = ρV κ_i / (2 - κ_i);
    I_A,i = (ρV/5)(r_j² - r_k²)²(κ_k - κ_j) / (2(r_j² - r_k²) + (r_j² + r_k²)(κ_j - κ_k)).
    At 40 digits the cancellations of these forms still leave > 25 correct digits here.
    """
    kappa = kappa_by_quadrature(mp, semi_axes)
    r = [mp.mpf(float(v)) for v in semi_axes]
    x = [v * v for v in r]
    rho_v = mp.mpf(rho) * 4 * mp.pi / 3 * r[0] * r[1] * r[2]
    m_A, I_A = [], []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        m_A.append(rho_v * kappa[i] / (2 - kappa[i]))
        if x[j] == x[k]:
            I_A.append(mp.mpf(0))
        else:
            denominator = 2 * (x[j] - x[k]) + (x[j] + x[k]) * (kappa[j] - kappa[k])
            I_A.append(rho_v / 5 * (x[j] - x[k]) ** 2 * (kappa[k] - kappa[j]) / denominator)
    return m_A, I_A


def relative_errors(ours: np.ndarray, reference: list[Any]) -> np.ndarray:
    return np.array([abs(float((a - b) / b)) for a, b in zip(ours, reference, strict=True)])


# --------------------------------------------------------------------------------------------
# MuJoCo
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def band_1_to_20() -> np.ndarray:
    rng = np.random.default_rng(SEED)
    return np.concatenate([random_ellipsoids(rng, 150, 1.0, 20.0), extreme_shapes(20.0)])


@pytest.fixture(scope="module")
def band_1_to_100() -> np.ndarray:
    rng = np.random.default_rng(SEED + 1)
    return np.concatenate([random_ellipsoids(rng, 150, 20.0, 100.0), extreme_shapes(100.0)])


@pytest.mark.oracle("mujoco")
def test_mujoco_stores_added_mass_per_unit_density_with_volume_folded_in() -> None:
    # Same ellipsoids in water and in air: MuJoCo's geom_fluid does not change with ρ ...
    axes = np.array([[0.3, 0.2, 0.1], [1.0, 1.0, 1.0], [0.05, 0.4, 0.4]])
    in_water = mujoco_fluid(axes, FLUID_DENSITIES["freshwater"])
    in_air = mujoco_fluid(axes, FLUID_DENSITIES["air"])
    np.testing.assert_array_equal(in_water[:, 6:12], in_air[:, 6:12])
    # ... and holds the volume: a sphere's m_A/ρ is V/2 (to MuJoCo's quadrature, ~6e-7), and the
    # ratios to ours are ρ whatever the fluid.
    sphere_volume = 4.0 / 3.0 * np.pi
    np.testing.assert_allclose(in_water[1, 6:9], sphere_volume / 2, rtol=1e-6)
    for rho in (FLUID_DENSITIES["freshwater"], FLUID_DENSITIES["air"]):
        m_A, _ = ellipsoid_added_mass(axes, rho)
        np.testing.assert_allclose(m_A / in_water[:, 6:9], rho, rtol=1e-5)


@pytest.mark.oracle("mujoco")
def test_matches_mujoco_up_to_aspect_ratio_20(band_1_to_20: np.ndarray) -> None:
    axes = band_1_to_20
    m_mj, I_mj = mujoco_added_mass(axes, RHO)
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    assert np.max(np.abs(m_A - m_mj) / m_A) <= 1e-5
    # MuJoCo's quadrature error in κ is absolute, not relative to each (possibly tiny) moment.
    assert np.max(np.abs(I_A - I_mj) / moment_scale(axes, m_A)) <= 1e-5


@pytest.mark.oracle("mujoco")
def test_kappa_matches_mujoco_up_to_aspect_ratio_100(band_1_to_100: np.ndarray) -> None:
    # κ is what MuJoCo's quadrature computes; recover it from m/(ρV) = κ/(2-κ).
    axes = band_1_to_100
    m_mj, _ = mujoco_added_mass(axes, RHO)
    ratio = m_mj / displaced_mass(axes)[:, None]
    kappa_mj = 2.0 * ratio / (1.0 + ratio)
    kappa = tuckerman_kappa(axes)
    assert np.max(np.abs(kappa - kappa_mj) / kappa) <= 1e-4


@pytest.mark.oracle("mujoco")
def test_moments_match_mujoco_up_to_aspect_ratio_100(band_1_to_100: np.ndarray) -> None:
    axes = band_1_to_100
    _, I_mj = mujoco_added_mass(axes, RHO)
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    assert np.max(np.abs(I_A - I_mj) / moment_scale(axes, m_A)) <= 1e-4


@pytest.mark.oracle("mujoco")
@pytest.mark.xfail(
    strict=True,
    reason="MuJoCo's 15-point κ quadrature is ~5e-6 off at 1:100, and m_A = ρVκ/(2-κ) "
    "amplifies that by 2/(2-κ) ≈ 60 on the normal axis of a 1:100 oblate: 3e-4 in m_A. "
    "test_mujoco_disagreement_at_1_to_100_is_its_quadrature pins the cause.",
)
def test_translational_added_mass_matches_mujoco_up_to_aspect_ratio_100(
    band_1_to_100: np.ndarray,
) -> None:
    axes = band_1_to_100
    m_mj, _ = mujoco_added_mass(axes, RHO)
    m_A, _ = ellipsoid_added_mass(axes, RHO)
    assert np.max(np.abs(m_A - m_mj) / m_A) <= 1e-4


@pytest.mark.oracle("mujoco")
def test_mujoco_disagreement_at_1_to_100_is_its_quadrature(mp: Any) -> None:
    # A 1:100 oblate spheroid, the worst case of the band, both ways against the exact integral.
    axes = np.array([[1.0, 1.0, 0.01]])
    m_mj, _ = mujoco_added_mass(axes, RHO)
    m_exact, _ = added_mass_by_quadrature(mp, axes[0], RHO)
    m_A, _ = ellipsoid_added_mass(axes, RHO)
    assert np.max(relative_errors(m_A[0], m_exact)) <= 1e-13
    assert relative_errors(m_mj[0], m_exact)[2] > 1e-4  # MuJoCo's normal axis
    kappa_exact = kappa_by_quadrature(mp, axes[0])
    ratio = m_mj[0] / displaced_mass(axes[0])
    assert np.max(relative_errors(2.0 * ratio / (1.0 + ratio), kappa_exact)) <= 1e-5


# --------------------------------------------------------------------------------------------
# closed forms
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [1e-3, 0.5, 1.0, 7.0, 1e3])
def test_sphere_has_half_its_displaced_mass_and_no_added_moment(radius: float) -> None:
    axes = np.full(3, radius)
    np.testing.assert_allclose(tuckerman_kappa(axes), 2.0 / 3.0, rtol=1e-14)
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    np.testing.assert_allclose(m_A, displaced_mass(axes) / 2.0, rtol=1e-10)
    np.testing.assert_array_equal(I_A, 0.0)


def lamb_prolate(a: float, b: float, rho: float) -> tuple[float, float, float]:
    """Lamb's prolate spheroid, semi-major a along its axis, b = c across (§§114, 373).

    With e² = 1 - b²/a² and L = ln((1+e)/(1-e)):
    α₀ = 2(1-e²)/e³·(L/2 - e),  β₀ = 1/e² - (1-e²)/(2e³)·L;
    m_axial = α₀/(2-α₀)·ρV, m_transverse = β₀/(2-β₀)·ρV, and about a transverse axis
    I' = (ρV/5)·(b²-a²)²(α₀-β₀) / (2(b²-a²) + (b²+a²)(β₀-α₀)).
    Returns (m_axial, m_transverse, I_transverse).
    """
    one_minus_e2 = (b / a) ** 2
    e = math.sqrt(1.0 - one_minus_e2)
    # ln((1+e)/(1-e)) = 2·ln((1+e)·a/b) exactly, as (1+e)(1-e) = b²/a²; unlike 1 - e, this keeps
    # its digits for slender bodies (e → 1).
    log_term = 2.0 * math.log((1.0 + e) * a / b)
    alpha0 = 2.0 * one_minus_e2 / e**3 * (log_term / 2.0 - e)
    beta0 = 1.0 / e**2 - one_minus_e2 / (2.0 * e**3) * log_term
    rho_v = rho * 4.0 / 3.0 * math.pi * a * b * b
    m_axial = alpha0 / (2.0 - alpha0) * rho_v
    m_transverse = beta0 / (2.0 - beta0) * rho_v
    diff = b * b - a * a
    I_transverse = (
        rho_v / 5.0 * diff**2 * (alpha0 - beta0) / (2.0 * diff + (b * b + a * a) * (beta0 - alpha0))
    )
    return m_axial, m_transverse, I_transverse


@pytest.mark.parametrize("slenderness", [1.5, 2.0, 5.0, 10.0, 100.0, 1000.0])
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_prolate_spheroid_matches_lamb(slenderness: float, axis: int) -> None:
    b = 0.3
    a = slenderness * b
    m_axial, m_transverse, I_transverse = lamb_prolate(a, b, RHO)
    axes = np.full(3, b)
    axes[axis] = a
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    transverse = [i for i in range(3) if i != axis]
    assert m_A[axis] == pytest.approx(m_axial, rel=1e-10)
    np.testing.assert_allclose(m_A[transverse], m_transverse, rtol=1e-10)
    np.testing.assert_allclose(I_A[transverse], I_transverse, rtol=1e-10)
    assert I_A[axis] == 0.0  # spinning about its axis of symmetry moves no fluid


@pytest.mark.parametrize("normal", [0, 1, 2])
def test_thin_disk_limits(normal: int) -> None:
    # Oblate spheroid of radius a and half-thickness c = εa, ε → 0 (Lamb §373 for the disk).
    # Expanding the oblate closed form κ_n = 2/e²·(1 - sqrt(1-e²)·asin(e)/e) with sqrt(1-e²) = ε
    # gives κ_n = 2 - πε + 4ε² + O(ε³), κ_in-plane = (2 - κ_n)/2, hence
    #   m_A,normal   = 8/3·ρa³·(1 - (π/2 - 4/π)·ε + O(ε²))        (π/2 - 4/π ≈ 0.2976)
    #   I_A,in-plane = 16/45·ρa⁵·(1 + (20/(3π) - 3π/4)·ε + O(ε²)).
    a, eps = 0.8, 1e-9
    axes = np.full(3, a)
    axes[normal] = eps * a
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    in_plane = [i for i in range(3) if i != normal]

    m_disk = 8.0 / 3.0 * RHO * a**3
    I_disk = 16.0 / 45.0 * RHO * a**5
    assert abs(m_A[normal] / m_disk - 1.0) <= eps  # the bare limit, to O(ε)
    np.testing.assert_allclose(I_A[in_plane], I_disk, rtol=3 * eps)
    # with the first-order terms, to O(ε²) = 1e-18 in exact arithmetic
    assert m_A[normal] == pytest.approx(m_disk * (1 - (math.pi / 2 - 4 / math.pi) * eps), rel=1e-12)
    I_first_order = I_disk * (1 + (20 / (3 * math.pi) - 3 * math.pi / 4) * eps)
    np.testing.assert_allclose(I_A[in_plane], I_first_order, rtol=1e-12)
    assert I_A[normal] == 0.0  # spinning in its own plane moves no (inviscid) fluid


def test_first_order_disk_corrections_against_quadrature(mp: Any) -> None:
    # The O(ε) coefficients used above, confirmed on the exact κ integral at ε = 1e-4.
    eps = 1e-4
    m_exact, I_exact = added_mass_by_quadrature(mp, (1.0, 1.0, eps), 1.0)
    m_first_order = 8 / 3 * (1 - (mp.pi / 2 - 4 / mp.pi) * eps)
    I_first_order = 16 / 45 * (1 + (20 / (3 * mp.pi) - 3 * mp.pi / 4) * eps)
    assert abs(float(m_exact[2] / m_first_order - 1)) <= 10 * eps**2
    assert abs(float(I_exact[0] / I_first_order - 1)) <= 10 * eps**2


# --------------------------------------------------------------------------------------------
# identities, extreme shapes, near-equal axes
# --------------------------------------------------------------------------------------------


def test_kappas_sum_to_two_up_to_aspect_ratio_1e4_both_ways() -> None:
    rng = np.random.default_rng(SEED + 2)
    axes = np.concatenate(
        [
            random_ellipsoids(rng, 2000, 1.0, 1e4),
            extreme_shapes(1e4),
            1e-6 * extreme_shapes(1e4),
            1e6 * extreme_shapes(1e4),
        ]
    )
    kappa = tuckerman_kappa(axes)
    assert np.all(kappa > 0.0)
    assert np.max(np.abs(kappa.sum(axis=-1) - 2.0)) <= 1e-14


@pytest.mark.parametrize(
    "axes",
    [
        (1.0, 1e-4, 1e-4),  # needle
        (1.0, 1.0, 1e-4),  # disk
        (1.0, 1e-2, 1e-4),  # blade
        (1e-4, 1.0, 0.5),
        (3e4, 2.0, 1.0),
    ],
)
def test_extreme_aspect_ratios_against_quadrature(mp: Any, axes: tuple[float, ...]) -> None:
    kappa_exact = kappa_by_quadrature(mp, axes)
    m_exact, I_exact = added_mass_by_quadrature(mp, axes, RHO)
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    assert np.max(relative_errors(tuckerman_kappa(axes), kappa_exact)) <= 1e-14
    assert np.max(relative_errors(m_A, m_exact)) <= 1e-13
    nonzero = [i for i in range(3) if I_exact[i] != 0]
    assert np.max(relative_errors(I_A[nonzero], [I_exact[i] for i in nonzero])) <= 1e-12


def test_difference_integral_against_quadrature(mp: Any) -> None:
    # D = (κ_k - κ_j)/(r_j² - r_k²) = r_x r_y r_z·J(r_i², r_j², r_k²) with
    # J(x, y, z) = ∫₀^∞ dt / ((t+x)^½ (t+y)^{3/2} (t+z)^{3/2}), evaluated by gzinertia without
    # any difference (duplication plus a fifth-order series); here against the integral itself,
    # both inside the series' range (arguments within 1e-3) and far from it.
    from gzinertia.spatial.tuckerman import _carlson_j

    rng = np.random.default_rng(SEED + 6)
    close = 1.0 + 9.9e-4 * rng.uniform(-1.0, 1.0, size=(6, 3))
    spread = np.exp(rng.uniform(np.log(1e-8), 0.0, size=(6, 3)))
    spread[0] = (1e-8, 1.0, 1.0)
    spread[1] = (1.0, 1e-8, 1e-8 * (1 + 1e-12))
    for x, y, z in np.concatenate([close, spread]).tolist():
        ours = float(_carlson_j(np.array(x), np.array(y), np.array(z)))
        X, Y, Z = mp.mpf(x), mp.mpf(y), mp.mpf(z)
        exact = mp.quad(
            lambda t, X=X, Y=Y, Z=Z: 1 / (mp.sqrt(t + X) * (t + Y) ** 1.5 * (t + Z) ** 1.5),
            [mp.mpf(0), *sorted({X, Y, Z}), mp.inf],
        )
        assert abs(float(ours / exact - 1)) <= 1e-14, (x, y, z)


RELATIVE_DIFFERENCES = [10.0**-p for p in range(4, 13)]


@pytest.mark.parametrize(
    "shape",
    [(3.0, 1.0), (0.2, 1.0), (1e-4, 1.0), (1.0, 1e-4)],
    ids=["prolate", "oblate", "disk-like", "needle-like"],
)
def test_moment_vanishes_smoothly_as_two_axes_become_equal(
    mp: Any, shape: tuple[float, float]
) -> None:
    # Semi-axes (r_i, b, b(1+δ)): the moment about axis i is ∝ δ² and 0 at δ = 0; its literal
    # formula is 0/0 there. Compare with the 40-digit evaluation of that literal formula.
    r_i, b = shape
    exactly_equal = np.array([r_i, b, b])
    assert ellipsoid_added_mass(exactly_equal, RHO)[1][0] == 0.0
    for delta in RELATIVE_DIFFERENCES:
        axes = np.array([r_i, b, b * (1.0 + delta)])
        m_A, I_A = ellipsoid_added_mass(axes, RHO)
        _, I_exact = added_mass_by_quadrature(mp, axes, RHO)
        error = abs(float(I_A[0] - I_exact[0]))
        assert error <= 1e-8 * moment_scale(axes, m_A)[0], delta
        assert error <= 1e-12 * abs(float(I_exact[0])), delta  # and to its own size
        # the other two moments are well conditioned here
        np.testing.assert_allclose(I_A[1:], [float(v) for v in I_exact[1:]], rtol=1e-12)


@pytest.mark.parametrize("delta", [10.0**-p for p in range(3, 11)])
def test_nearly_round_ellipsoid_has_small_moments_to_full_precision(mp: Any, delta: float) -> None:
    # Semi-axes (1, 1+δ, 1+3δ): every added moment is O(δ²) and every pair of axes is nearly
    # equal at once. Each moment must keep its own relative precision, not just be small.
    axes = np.array([1.0, 1.0 + delta, 1.0 + 3.0 * delta])
    _, I_A = ellipsoid_added_mass(axes, RHO)
    _, I_exact = added_mass_by_quadrature(mp, axes, RHO)
    assert np.max(relative_errors(I_A, I_exact)) <= 1e-14


def test_added_mass_scales_with_density_and_size() -> None:
    rng = np.random.default_rng(SEED + 3)
    axes = random_ellipsoids(rng, 100, 1.0, 50.0)
    m_A, I_A = ellipsoid_added_mass(axes, 1.0)
    m_big, I_big = ellipsoid_added_mass(2.0 * axes, FLUID_DENSITIES["air"])
    np.testing.assert_allclose(m_big, FLUID_DENSITIES["air"] * 8.0 * m_A, rtol=1e-14)
    np.testing.assert_allclose(I_big, FLUID_DENSITIES["air"] * 32.0 * I_A, rtol=1e-13)
    np.testing.assert_allclose(tuckerman_kappa(2.0 * axes), tuckerman_kappa(axes), rtol=1e-14)


def test_relabelling_axes_relabels_results() -> None:
    rng = np.random.default_rng(SEED + 4)
    axes = random_ellipsoids(rng, 100, 1.0, 50.0)
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    for perm in ([1, 2, 0], [0, 2, 1], [2, 1, 0]):
        m_p, I_p = ellipsoid_added_mass(axes[:, perm], RHO)
        np.testing.assert_allclose(m_p, m_A[:, perm], rtol=1e-14)
        np.testing.assert_allclose(I_p, I_A[:, perm], rtol=1e-13)


# --------------------------------------------------------------------------------------------
# shapes of arrays and the 6x6
# --------------------------------------------------------------------------------------------


def test_vectorised_over_leading_dimensions_equals_elementwise() -> None:
    rng = np.random.default_rng(SEED + 5)
    grid = random_ellipsoids(rng, 4 * 5, 1.0, 1e3).reshape(4, 5, 3)
    grid[0, 0] = (1.0, 1.0, 1.0)
    grid[1, 1] = (2.0, 1.0, 1.0)

    m_grid, I_grid = ellipsoid_added_mass(grid, RHO)
    kappa_grid = tuckerman_kappa(grid)
    A_grid = ellipsoid_added_mass_matrix(grid, RHO)
    assert m_grid.shape == I_grid.shape == kappa_grid.shape == (4, 5, 3)
    assert A_grid.shape == (4, 5, 6, 6)

    m_rows, I_rows = ellipsoid_added_mass(grid.reshape(-1, 3), RHO)
    assert m_rows.shape == (20, 3)
    np.testing.assert_allclose(m_rows, m_grid.reshape(-1, 3), rtol=1e-15)
    np.testing.assert_allclose(I_rows, I_grid.reshape(-1, 3), rtol=1e-15)

    for index in np.ndindex(4, 5):
        one = grid[index]
        m_one, I_one = ellipsoid_added_mass(one, RHO)
        assert m_one.shape == I_one.shape == (3,)
        np.testing.assert_allclose(m_one, m_grid[index], rtol=1e-14)
        np.testing.assert_allclose(I_one, I_grid[index], rtol=1e-14)
        np.testing.assert_allclose(tuckerman_kappa(one), kappa_grid[index], rtol=1e-14)
        np.testing.assert_allclose(ellipsoid_added_mass_matrix(one, RHO), A_grid[index], rtol=1e-14)
    # plain sequences work too
    np.testing.assert_allclose(
        ellipsoid_added_mass([1.0, 2.0, 3.0], RHO)[0],
        ellipsoid_added_mass(np.array([1.0, 2.0, 3.0]), RHO)[0],
        rtol=0,
    )


def test_matrix_is_diagonal_linear_first() -> None:
    axes = np.array([[0.5, 0.2, 0.1], [1.0, 1.0, 1.0]])
    A = ellipsoid_added_mass_matrix(axes, RHO)
    m_A, I_A = ellipsoid_added_mass(axes, RHO)
    for n in range(2):
        np.testing.assert_array_equal(A[n], np.diag(np.concatenate([m_A[n], I_A[n]])))
        assert np.all(np.linalg.eigvalsh(A[n]) >= 0.0)  # kinetic energy ½νᵀAν ≥ 0


# --------------------------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("semi_axes", "message"),
    [
        (1.0, "shape"),
        ([1.0, 2.0], "shape"),
        ([[1.0, 2.0, 3.0, 4.0]], "shape"),
        ([1.0, 0.0, 1.0], "positive"),
        ([1.0, -2.0, 1.0], "positive"),
        ([1.0, np.nan, 1.0], "finite"),
        ([[1.0, 1.0, 1.0], [1.0, np.inf, 1.0]], "finite"),
        ([1.0, 1.0, 1.0 / (10 * MAX_AXIS_RATIO)], "ratio"),
    ],
)
def test_invalid_semi_axes_are_rejected(semi_axes: Any, message: str) -> None:
    for function in (
        tuckerman_kappa,
        lambda r: ellipsoid_added_mass(r, RHO),
        lambda r: ellipsoid_added_mass_matrix(r, RHO),
    ):
        with pytest.raises(ValueError, match=message):
            function(semi_axes)


def test_semi_axes_whose_added_mass_overflows_are_rejected() -> None:
    with pytest.raises(ValueError, match="overflow"):
        ellipsoid_added_mass([1e200, 1e200, 1e200], RHO)
    np.testing.assert_allclose(tuckerman_kappa([1e200, 1e200, 1e200]), 2.0 / 3.0, rtol=1e-14)


@pytest.mark.parametrize("density", [-1.0, np.nan, np.inf])
def test_invalid_density_is_rejected(density: float) -> None:
    with pytest.raises(ValueError, match="density"):
        ellipsoid_added_mass([1.0, 2.0, 3.0], density)
