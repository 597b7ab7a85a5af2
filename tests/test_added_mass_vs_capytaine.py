"""Ellipsoid added mass about a link origin: gzinertia against Capytaine's potential-flow BEM.

`gzinertia addmass` computes the ellipsoid's added mass in closed form about its centre in its own
axes (Tuckerman) and writes it moved to the link origin Bo in link axes; the tests compare what it
writes, read back from the file, with the BEM. The oracle (``oracles/capytaine_oracle.py``) meshes the ellipsoid where it
sits in the link and lets the BEM's rigid-body rotations turn about Bo, so the BEM does the change
of point and axes by itself. Unbounded fluid, direct BEM; the flat-panel error falls about as
``N_panels^-0.9``.
"""

from __future__ import annotations

import functools
import itertools
import tempfile
from pathlib import Path

import numpy as np
import pytest
from oracles.capytaine_oracle import (
    bem_added_mass,
    bem_added_mass_of_mesh,
    ellipsoid_mesh,
    ellipsoid_mesh_resolution,
)
from scipy.spatial.transform import Rotation
from sdf_builders import ellipsoid, inertial, link, model, pose_of

from gzinertia.edit.addmass import FitChooser, add_mass
from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.algebra import transform_spatial
from gzinertia.spatial.tuckerman import FLUID_DENSITIES, ellipsoid_added_mass_matrix

DENSITY = FLUID_DENSITIES["seawater"]
# Three distinct semi-axes (m): every diagonal entry of A_EEo_E differs, every angular one is > 0.
SEMI_AXES = (0.6, 0.25, 0.15)
# The ellipsoid E posed in the link B: centre offset on all three axes, axes turned about all three.
R_BE = Rotation.from_euler("xyz", [0.4, -0.7, 1.1]).as_matrix()
p_BoEo_B = np.array([0.3, -0.2, 0.12])

# Default run: 3200 panels (40 x 80), ≈ 5 s on a 2-core machine; its largest block error
# (the angular one) is ≈ 2.6e-3, half the 0.5 % tolerance. Slow run: 8192 panels (64 x 128).
FAST_PANELS = 3200
CENTRE_PANELS = 2048
REFINED_PANELS = 8192
CONVERGENCE_PANELS = (1152, FAST_PANELS, REFINED_PANELS)
TOLERANCE = 5e-3  # 0.5 %

BLOCKS = {
    "linear": (np.s_[:3, :3],),
    "coupling": (np.s_[:3, 3:], np.s_[3:, :3]),
    "angular": (np.s_[3:, 3:],),
}


@functools.lru_cache(maxsize=1)
def _written_by_addmass() -> bytes:
    """What `gzinertia addmass --ellipsoid --fluid seawater` writes for a link whose collision is
    the posed ellipsoid (the default volume fit returns that ellipsoid itself)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "float.sdf"
        hull = ellipsoid(SEMI_AXES, pose=pose_of(p_BoEo_B, R_BE), name="hull")
        body = link("body", inertial(50.0, np.diag([2.0, 3.0, 4.0])), hull)
        path.write_text(model(body, name="float"))
        result = add_mass(path, fit_for=FitChooser("volume"), density=DENSITY, pattern=None,
                          upgrade_version=False, model_paths=[])
        return result.new


def gzinertia_A_BBo_B() -> np.ndarray:
    """gzinertia's answer: the `<fluid_added_mass>` that `addmass` writes, read back."""
    A = read_sdf_bytes(_written_by_addmass(), "float.sdf").link("float::body").inertial.A_BBo_B
    assert A is not None
    return A.linear_first()


def test_addmass_writes_tuckerman_moved_to_the_link_origin() -> None:
    """The written matrix is the closed form moved by the exact congruence (to the 10 digits
    written), so the BEM comparisons below test both the physics and the file."""
    A_EEo_E = ellipsoid_added_mass_matrix(SEMI_AXES, DENSITY)
    expected = transform_spatial(A_EEo_E, R_BE, p_BoEo_B, "linear-first")
    assert np.max(np.abs(gzinertia_A_BBo_B() - expected)) <= 1e-9 * np.max(np.abs(expected))


def relative_errors(A: np.ndarray, expected: np.ndarray) -> dict[str, float]:
    """``max|ΔA|`` over the matrix and over each block, each divided by that region's
    largest expected entry (the coupling block counts both off-diagonal 3x3 blocks)."""
    errors = {"matrix": float(np.max(np.abs(A - expected)) / np.max(np.abs(expected)))}
    for name, slices in BLOCKS.items():
        scale = max(float(np.max(np.abs(expected[s]))) for s in slices)
        errors[name] = max(float(np.max(np.abs(A[s] - expected[s]))) for s in slices) / scale
    return errors


def bem_about_link_origin(n_panels: int) -> np.ndarray:
    return bem_added_mass(SEMI_AXES, R_BE, p_BoEo_B, DENSITY, n_panels)


@pytest.mark.oracle("capytaine")
def test_mesh_resolution_gives_the_panel_count() -> None:
    for n_panels in (32, 512, 1152, 2048):
        n_theta, n_phi = ellipsoid_mesh_resolution(n_panels)
        mesh = ellipsoid_mesh(SEMI_AXES, R_BE, p_BoEo_B, n_panels)
        assert mesh.nb_faces == n_theta * n_phi == n_panels


@pytest.mark.oracle("capytaine")
def test_mesh_is_the_posed_ellipsoid() -> None:
    """Every vertex lies on E (in E's coordinates ``R_BEᵀ(p_B - p_BoEo_B)``), normals point out."""
    mesh = ellipsoid_mesh(SEMI_AXES, R_BE, p_BoEo_B, 512)
    p_E = (np.asarray(mesh.vertices) - p_BoEo_B) @ R_BE
    np.testing.assert_allclose(np.sum((p_E / SEMI_AXES) ** 2, axis=1), 1.0, atol=1e-12)
    outward = np.asarray(mesh.faces_centers) - p_BoEo_B
    assert np.all(np.sum(np.asarray(mesh.faces_normals) * outward, axis=1) > 0.0)


@pytest.mark.oracle("capytaine")
def test_bem_about_link_origin_matches_gzinertia() -> None:
    """The BEM about Bo in B axes equals Tuckerman moved to Bo, to 0.5 % overall and per block."""
    expected = gzinertia_A_BBo_B()
    A = bem_about_link_origin(FAST_PANELS)
    errors = relative_errors(A, expected)
    assert all(e <= TOLERANCE for e in errors.values()), errors
    assert np.max(np.abs(A - A.T)) <= 1e-5 * np.max(np.abs(A))


@pytest.mark.oracle("capytaine")
def test_bem_about_centre_in_own_axes_is_diagonal_tuckerman() -> None:
    """About Eo in E axes the BEM matrix is diagonal and its diagonal is Tuckerman's.

    Measured at 2048 panels: off-diagonal ≈ 1.6e-6 of the largest entry; diagonal entries low by
    0.14-0.25 % (translations) and 0.57-0.66 % (rotations: small, shape-sensitive quantities).
    """
    A_EEo_E = ellipsoid_added_mass_matrix(SEMI_AXES, DENSITY)
    A = bem_added_mass(SEMI_AXES, np.eye(3), np.zeros(3), DENSITY, CENTRE_PANELS)
    off_diagonal = A - np.diag(np.diag(A))
    assert np.max(np.abs(off_diagonal)) <= 1e-5 * np.max(np.abs(A))
    assert np.max(np.abs(A - A_EEo_E)) <= TOLERANCE * np.max(np.abs(A_EEo_E))
    np.testing.assert_allclose(np.diag(A)[:3], np.diag(A_EEo_E)[:3], rtol=TOLERANCE)
    np.testing.assert_allclose(np.diag(A)[3:], np.diag(A_EEo_E)[3:], rtol=2 * TOLERANCE)


@pytest.mark.oracle("capytaine")
def test_change_of_point_is_exact_on_one_mesh() -> None:
    """Same mesh, two poses: the BEM about Bo of the posed ellipsoid equals the BEM about Eo in E
    axes carried to Bo by ``transform_spatial``, to rounding (discretisation error cancels)."""
    n_panels = 512
    A_EEo_E = bem_added_mass_of_mesh(
        ellipsoid_mesh(SEMI_AXES, np.eye(3), np.zeros(3), n_panels), np.zeros(3), DENSITY
    )
    A_BBo_B = bem_added_mass_of_mesh(
        ellipsoid_mesh(SEMI_AXES, R_BE, p_BoEo_B, n_panels), np.zeros(3), DENSITY
    )
    moved = transform_spatial(A_EEo_E, R_BE, p_BoEo_B, "linear-first")
    assert np.max(np.abs(A_BBo_B - moved)) <= 1e-10 * np.max(np.abs(A_BBo_B))


@pytest.mark.oracle("capytaine")
def test_added_mass_does_not_depend_on_frequency_without_free_surface() -> None:
    """With ``free_surface=inf`` the kernel is Rankine: ω = 0, finite ω and ω = ∞ agree."""
    mesh = ellipsoid_mesh(SEMI_AXES, R_BE, p_BoEo_B, 512)
    at_infinity = bem_added_mass_of_mesh(mesh, np.zeros(3), DENSITY, omega=np.inf)
    for omega in (0.0, 2.0):
        A = bem_added_mass_of_mesh(mesh, np.zeros(3), DENSITY, omega=omega)
        assert np.max(np.abs(A - at_infinity)) <= 1e-12 * np.max(np.abs(at_infinity))


@pytest.mark.oracle("capytaine")
def test_oracle_returns_a_fresh_array_from_its_cache() -> None:
    A = bem_added_mass(SEMI_AXES, np.eye(3), np.zeros(3), DENSITY, CENTRE_PANELS)
    A[0, 0] = -1.0
    again = bem_added_mass(SEMI_AXES, np.eye(3), np.zeros(3), DENSITY, CENTRE_PANELS)
    assert again[0, 0] > 0.0


@pytest.mark.oracle("capytaine")
@pytest.mark.slow
def test_refined_bem_about_link_origin_matches_gzinertia() -> None:
    errors = relative_errors(bem_about_link_origin(REFINED_PANELS), gzinertia_A_BBo_B())
    assert all(e <= TOLERANCE for e in errors.values()), errors


@pytest.mark.oracle("capytaine")
@pytest.mark.slow
def test_bem_error_falls_with_panel_count() -> None:
    """Overall and per block, the error decreases at each refinement, at least as N^-0.7
    (flat panels give about N^-1; measured ≈ N^-0.87 from 1152 to 8192 panels)."""
    expected = gzinertia_A_BBo_B()
    errors = [relative_errors(bem_about_link_origin(n), expected) for n in CONVERGENCE_PANELS]
    for key in errors[0]:
        series = [e[key] for e in errors]
        assert all(b < a for a, b in itertools.pairwise(series)), (key, series)
        order = np.log(series[0] / series[-1]) / np.log(CONVERGENCE_PANELS[-1] / CONVERGENCE_PANELS[0])
        assert order >= 0.7, (key, series, order)


@pytest.mark.oracle("capytaine")
@pytest.mark.slow
def test_refined_bem_about_centre_matches_tuckerman_entrywise() -> None:
    """At 8192 panels every diagonal entry, rotations included, is within 0.5 % of Tuckerman."""
    A_EEo_E = ellipsoid_added_mass_matrix(SEMI_AXES, DENSITY)
    A = bem_added_mass(SEMI_AXES, np.eye(3), np.zeros(3), DENSITY, REFINED_PANELS)
    assert np.max(np.abs(A - np.diag(np.diag(A)))) <= 1e-5 * np.max(np.abs(A))
    np.testing.assert_allclose(np.diag(A), np.diag(A_EEo_E), rtol=TOLERANCE)
