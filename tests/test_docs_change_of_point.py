"""The docs' claims about seed 001 (a "missing ``cx·M·cxᵀ`` term" in gz-physics) and about the
change of point (GZI204's page), recomputed here and compared with the numbers the docs state.

* The note's term ``CM·M⁻¹·CMᵀ`` (CM the bottom-left, angular-by-linear block of the added mass,
  M its top-left linear block) is built from the matrix alone: it is the same whatever the
  centre-of-mass offset, while the change of point from Bcm to Bo depends on that offset (DART's
  ``Inertia.transformed`` is the oracle); for a matrix about the CoM with no coupling it is zero.
* Applying it to matrices that follow the spec changes the kinetic energy of body plus fluid by
  the median and maximum factors ``docs/conventions.md`` and ``docs/added_mass.md`` state, on
  the random cases they describe (drawn here with the seed they give).
* The change of point's rotational block is the general congruence
  ``J + [d]×C + ([d]×C)ᵀ + [d]×L[d]×ᵀ``; "L·d²" is the isotropic special case only, and even
  then only across ``d`` (``λ·(|d|²·1 - d dᵀ)``).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import scipy.linalg
from conftest import REPO, random_rotation, random_spd6, rel_err

from gzinertia.spatial.added_mass import AddedMass, ellipsoid_added_mass
from gzinertia.spatial.algebra import block_swap
from gzinertia.spatial.inertia import spatial_inertia_about_origin
from gzinertia.spatial.rotation import Pose, skew

DOCS = REPO / "docs"


def note_term(A: np.ndarray) -> np.ndarray:
    """Seed 001's ``CMCT = CM·(CM·M⁻¹)ᵀ`` added to the rotational block (linear-first 6x6)."""
    M, CM = A[:3, :3], A[3:, :3]
    C = CM @ np.linalg.inv(M)
    D = np.zeros((6, 6))
    D[3:, 3:] = CM @ C.T
    return D


def energy_factor(T: np.ndarray, D: np.ndarray) -> float:
    """``max_ν νᵀ(T + D)ν / νᵀTν``: by how much adding ``D`` multiplies the kinetic energy of the
    worst motion (the largest generalized eigenvalue, scipy; T positive definite)."""
    return float(np.max(scipy.linalg.eigh(T + D, T, eigvals_only=True)))


def documented_factors(page: str) -> tuple[int, int, float, float]:
    """(cases, seed, median, largest) from the page's sentence about the random cases."""
    text = (DOCS / page).read_text(encoding="utf-8")
    match = re.search(
        r"over (\d+) random cases \(seed (\d+)\).*?median ([\d.]+)x.*?largest ([\d.]+)x",
        text.replace("\n", " "),
        re.IGNORECASE,
    )
    assert match, f"{page}: no sentence with the cases, seed, median and largest factor"
    return int(match[1]), int(match[2]), float(match[3]), float(match[4])


def random_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The docs' random case: a uniform solid ellipsoid hull (semi-axes 0.05-1 m, random
    orientation, centre anywhere in a 2 m cube around the link origin, density 500-2000
    kg/m³) in water; returns ``(M_BBo_B + A_BBo_B, A_BBo_B)`` linear-first, about Bo."""
    a = rng.uniform(0.05, 1.0, size=3)
    R = random_rotation(rng)
    p = rng.uniform(-1.0, 1.0, size=3)
    density = rng.uniform(500.0, 2000.0)
    _, A = ellipsoid_added_mass(a, 1000.0, Pose(p, R))
    m = density * 4.0 / 3.0 * np.pi * float(np.prod(a))
    I = m / 5.0 * np.diag([a[1] ** 2 + a[2] ** 2, a[0] ** 2 + a[2] ** 2, a[0] ** 2 + a[1] ** 2])
    M = spatial_inertia_about_origin(m, R @ I @ R.T, p, "linear-first")
    return M + A.linear_first(), A.linear_first()


@pytest.mark.parametrize("page", ["conventions.md", "added_mass.md"])
def test_the_notes_term_changes_the_energy_by_the_documented_factors(page: str) -> None:
    cases, seed, median, largest = documented_factors(page)
    rng = np.random.default_rng(seed)
    factors = []
    for _ in range(cases):
        total, A = random_case(rng)
        factors.append(energy_factor(total, note_term(A)))
    # the docs round to 3 significant digits
    assert float(np.median(factors)) == pytest.approx(median, rel=5e-3)
    assert float(np.max(factors)) == pytest.approx(largest, rel=5e-3)


@pytest.mark.oracle("dartpy")
def test_the_notes_term_is_not_a_change_of_point(rng: np.random.Generator) -> None:
    """A matrix about the CoM: the note's term is the same for two CoM offsets, the true change
    of point to Bo (DART) is not, and neither result is the note's; for a matrix about the CoM
    without coupling (an ellipsoid centred there) the note's term is exactly zero."""
    dart = pytest.importorskip("dartpy")

    def moved_to_origin(A_Bcm: np.ndarray, c: np.ndarray) -> np.ndarray:
        T = dart.math.Isometry3()
        T.set_translation(c)
        S = dart.dynamics.Inertia(block_swap(A_Bcm)).transformed(T).getSpatialTensor()
        return block_swap(np.asarray(S))

    for _ in range(20):
        A_Bcm = random_spd6(rng)
        c1, c2 = rng.normal(size=3), rng.normal(size=3)
        assert np.array_equal(note_term(A_Bcm), note_term(A_Bcm))  # no c in it at all
        true1, true2 = moved_to_origin(A_Bcm, c1), moved_to_origin(A_Bcm, c2)
        assert rel_err(true1, true2) > 1e-3
        assert rel_err(A_Bcm + note_term(A_Bcm), true1) > 1e-3
        _, centred = ellipsoid_added_mass(rng.uniform(0.05, 1.0, size=3), 1000.0)
        assert not np.any(note_term(centred.linear_first()))
        assert rel_err(moved_to_origin(centred.linear_first(), c1), centred.linear_first()) > 1e-3


@pytest.mark.oracle("dartpy")
def test_the_rotational_block_of_a_change_of_point_is_the_general_congruence(
    rng: np.random.Generator,
) -> None:
    """GZI204's page: moving a matrix [[L, C], [Cᵀ, J]] from Q to Bo, ``d = p_BoQ``, gives
    coupling ``C - L·[d]×`` and rotational block ``J + [d]×C + ([d]×C)ᵀ + [d]×L[d]×ᵀ`` (checked
    against ``AddedMass.shift`` and DART); for ``L = λ·1``, ``C = 0`` that is
    ``λ·(|d|²·1 - d dᵀ)``, and "L·d²" added to the whole rotational block is wrong even then."""
    text = (DOCS / "rules" / "GZI204.md").read_text(encoding="utf-8")
    for formula in ("C - L·[d]×", "J + [d]×C + ([d]×C)ᵀ + [d]×L·[d]×ᵀ", "λ·(|d|²·1 - d·dᵀ)"):
        assert formula in text, formula
    dart = pytest.importorskip("dartpy")
    for _ in range(20):
        A_Q = random_spd6(rng)
        L, C, J = A_Q[:3, :3], A_Q[:3, 3:], A_Q[3:, 3:]
        d = rng.normal(size=3)
        D = skew(d)
        A_Bo = AddedMass(A_Q, ordering="linear-first", point="Q").shift(-d, "Bo").linear_first()
        T = dart.math.Isometry3()
        T.set_translation(d)
        oracle = block_swap(
            np.asarray(dart.dynamics.Inertia(block_swap(A_Q)).transformed(T).getSpatialTensor())
        )
        assert rel_err(A_Bo, oracle) < 1e-13
        assert rel_err(A_Bo[:3, 3:], C - L @ D) < 1e-13
        assert rel_err(A_Bo[3:, 3:], J + D @ C + (D @ C).T + D @ L @ D.T) < 1e-13
        lam = float(rng.uniform(1.0, 10.0))
        iso = np.zeros((6, 6))
        iso[:3, :3] = lam * np.eye(3)
        iso[3:, 3:] = J
        moved = AddedMass(iso, ordering="linear-first", point="Q").shift(-d, "Bo").linear_first()
        parallel_axis = lam * (float(d @ d) * np.eye(3) - np.outer(d, d))
        assert rel_err(moved[3:, 3:], J + parallel_axis) < 1e-13
        assert rel_err(moved[3:, 3:], J + lam * float(d @ d) * np.eye(3)) > 1e-3
        # an anisotropic L: no scalar times d² gives the block
        L2 = np.diag(rng.uniform(1.0, 10.0, size=3))
        shifted = D @ L2 @ D.T
        assert rel_err(shifted, L2 * float(d @ d)) > 1e-3
