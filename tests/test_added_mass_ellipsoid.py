"""The equivalent added-mass ellipsoid (issue 30: "the BEM surface with its added-mass
ellipsoid"): the solid ellipsoid whose Tuckerman translational added mass is a link's, drawn in
the HTML report at the matrix's implied centre.

Oracles: the sphere's closed form ``m = ρ·(2/3)·π·r³`` (Lamb); Tuckerman's added masses of
random ellipsoids in random orientations, recovered from their matrix (the forward formula is
checked against closed forms in tests/test_tuckerman*.py); and the collision an ellipsoid fit
was made from: ``addmass --ellipsoid`` on a link whose one collision is an ellipsoid writes that
ellipsoid's added mass, so the page's ellipsoid is the collision, posed in the world.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from scipy.spatial.transform import Rotation

import gzinertia
from gzinertia.physics.added_mass_ellipsoid import equivalent_added_mass_ellipsoid
from gzinertia.report.scene import model_scene
from gzinertia.spatial.tuckerman import ellipsoid_added_mass

RHO = 1025.0


def test_a_sphere_s_radius_from_its_added_mass() -> None:
    r = 0.37
    m = RHO * 2.0 / 3.0 * math.pi * r**3
    semi_axes, R_BE = equivalent_added_mass_ellipsoid(m * np.eye(3), RHO)
    assert np.allclose(semi_axes, r, rtol=1e-12)
    assert np.allclose(R_BE @ R_BE.T, np.eye(3)) and np.linalg.det(R_BE) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(40))
def test_random_ellipsoids_are_recovered_from_their_matrix(seed: int) -> None:
    rng = np.random.default_rng(seed)
    r = np.exp(rng.uniform(math.log(0.005), math.log(3.0), 3))
    R = Rotation.random(random_state=seed).as_matrix()
    m, _ = ellipsoid_added_mass(r, RHO)
    semi_axes, R_BE = equivalent_added_mass_ellipsoid(R @ np.diag(m) @ R.T, RHO)
    assert np.allclose(np.sort(semi_axes), np.sort(r), rtol=1e-9)
    # the same solid: the quadrics r⁻² in their axes agree
    Q_true = R @ np.diag(1.0 / r**2) @ R.T
    Q_found = R_BE @ np.diag(1.0 / semi_axes**2) @ R_BE.T
    assert np.allclose(Q_found, Q_true, rtol=1e-8, atol=1e-8 * np.abs(Q_true).max())


def test_a_matrix_that_is_no_body_s_has_no_ellipsoid() -> None:
    with pytest.raises(ValueError, match="not positive definite"):
        equivalent_added_mass_ellipsoid(np.diag([10.0, -1.0, 3.0]), RHO)
    with pytest.raises(ValueError, match="density"):
        equivalent_added_mass_ellipsoid(np.eye(3), 0.0)


def _page_link(doc: gzinertia.Document, name: str) -> dict[str, object]:
    scene = model_scene(doc, [])
    return next(lk for lk in scene["links"] if lk["name"] == name), scene["not_drawn"]


def test_the_page_draws_the_fitted_collision(tmp_path: Path) -> None:
    radii = (0.9, 0.25, 0.3)
    X = (0.4, -0.2, 0.1, 0.3, -0.2, 0.5)  # the collision in the link
    text = sdf.model(sdf.link("hull", sdf.inertial(300.0, np.diag([8.0, 30.0, 30.0])),
                              sdf.ellipsoid(radii, pose=X),
                              pose=(1.0, 2.0, -3.0, 0.0, 0.1, 0.7)), name="auv")
    path = sdf.write(tmp_path, text)
    path.write_text(gzinertia.addmass(path, density=1000.0).text, encoding="utf-8")
    doc = gzinertia.read(path)
    link = doc.link("auv::hull")
    drawn, not_drawn = _page_link(doc, "auv::hull")
    a = drawn["added_mass_ellipsoid"]
    assert isinstance(a, dict) and a["source"] == "<fluid_added_mass>" and a["density"] == 1000.0
    X_WC = link.X_WB @ link.collisions[0].X_BC
    assert np.allclose(a["centre"], X_WC.p, atol=1e-9)
    assert np.allclose(np.sort(a["semi_axes"]), np.sort(radii), rtol=1e-8)
    R_WP, semi = np.array(a["R_WP"]), np.array(a["semi_axes"])
    Q_true = X_WC.R @ np.diag(1.0 / np.array(radii) ** 2) @ X_WC.R.T
    assert np.allclose(R_WP @ np.diag(semi**-2.0) @ R_WP.T, Q_true, rtol=1e-7, atol=1e-7)
    assert not any("added-mass ellipsoid" in line for line in not_drawn)


def test_the_plugin_s_added_mass_is_drawn_when_no_element_holds_one(tmp_path: Path) -> None:
    r = 0.5
    m = 1000.0 * 2.0 / 3.0 * math.pi * r**3
    text = sdf.model(sdf.link("ball", sdf.inertial(500.0, np.eye(3) * 50.0), sdf.sphere(r)),
                     sdf.hydro_plugin("ball", {"xDotU": -m, "yDotV": -m, "zDotW": -m}),
                     name="buoy")
    drawn, _ = _page_link(gzinertia.read(sdf.write(tmp_path, text)), "buoy::ball")
    a = drawn["added_mass_ellipsoid"]
    assert isinstance(a, dict) and "Hydrodynamics" in str(a["source"])
    assert np.allclose(a["semi_axes"], r, rtol=1e-9)


def test_a_link_without_added_mass_has_none_and_a_bad_one_is_said(tmp_path: Path) -> None:
    A = np.zeros((6, 6))
    A[:3, :3] = np.diag([10.0, -2.0, 5.0])
    A[3:, 3:] = np.eye(3)
    text = sdf.model(sdf.link("hull", sdf.inertial(80.0, np.eye(3) * 5.0, A=A), sdf.box((1, 1, 1))),
                     sdf.link("mast", sdf.inertial(1.0, np.eye(3) * 0.1), sdf.box((0.1,) * 3)),
                     name="boat")
    doc = gzinertia.read(sdf.write(tmp_path, text))
    hull, not_drawn = _page_link(doc, "boat::hull")
    mast, _ = _page_link(doc, "boat::mast")
    assert hull["added_mass_ellipsoid"] is None and mast["added_mass_ellipsoid"] is None
    said = [line for line in not_drawn if "added-mass ellipsoid" in line]
    assert len(said) == 1 and "boat::hull" in said[0] and "not positive definite" in said[0]
