"""Rigid spatial inertia and equivalent shapes, checked against Drake."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import oracle_module, random_rotation, random_valid_inertia, rel_err

from gzinertia.records import Inertial
from gzinertia.spatial.algebra import block_swap
from gzinertia.spatial.inertia import (
    equivalent_box_half_sizes,
    equivalent_ellipsoid_semi_axes,
    principal_axes,
    spatial_inertia_about_origin,
)
from gzinertia.spatial.rotation import Pose

tree = oracle_module("pydrake.multibody.tree")


def _drake_M_BBo_B(mass: float, p_BoBcm_B: np.ndarray, I_BBcm_B: np.ndarray) -> np.ndarray:
    I = tree.RotationalInertia(*np.diag(I_BBcm_B), I_BBcm_B[0, 1], I_BBcm_B[0, 2], I_BBcm_B[1, 2])
    M = tree.SpatialInertia.MakeFromCentralInertia(mass, p_BoBcm_B, I)
    return np.asarray(M.CopyToFullMatrix6())


@pytest.mark.oracle("pydrake")
def test_spatial_inertia_about_link_origin_equals_drake(rng: np.random.Generator) -> None:
    for _ in range(200):
        m = rng.uniform(0.01, 100.0)
        R_BI = random_rotation(rng)
        I_BBcm_I = random_valid_inertia(rng, m)
        X_BI = Pose(rng.normal(size=3), R_BI)
        inertial = Inertial(mass=m, X_BI=X_BI, I_BBcm_I=I_BBcm_I)
        drake = _drake_M_BBo_B(m, X_BI.p, R_BI @ I_BBcm_I @ R_BI.T)
        assert rel_err(inertial.M_BBo_B.angular_first(), drake) < 1e-12
        assert rel_err(inertial.M_BBo_B.linear_first(), block_swap(drake)) < 1e-12
        assert rel_err(spatial_inertia_about_origin(m, inertial.I_BBcm_B, X_BI.p), drake) < 1e-12


@pytest.mark.oracle("pydrake")
def test_equivalent_solid_ellipsoid_equals_drake(rng: np.random.Generator) -> None:
    for _ in range(100):
        m = rng.uniform(0.1, 20.0)
        I = random_valid_inertia(rng, m)
        moments, R_BP = principal_axes(I)
        assert np.allclose(R_BP @ np.diag(moments) @ R_BP.T, I, atol=1e-12 * np.abs(I).max())
        assert np.linalg.det(R_BP) == pytest.approx(1.0)
        ours = equivalent_ellipsoid_semi_axes(m, moments)
        M = tree.SpatialInertia.MakeFromCentralInertia(
            m, np.zeros(3), tree.RotationalInertia(*np.diag(I), I[0, 1], I[0, 2], I[1, 2])
        )
        abc, _X = M.CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
        assert np.allclose(np.sort(ours), np.sort(np.asarray(abc)), rtol=1e-10)


def test_equivalent_box_of_a_box_is_the_box(rng: np.random.Generator) -> None:
    """A uniform box's inertia gives back its half-sizes (the MuJoCo inertia-box rule)."""
    for _ in range(20):
        m = rng.uniform(0.1, 10)
        h = rng.uniform(0.1, 2.0, size=3)
        moments = (
            m
            / 3.0
            * np.array([h[1] ** 2 + h[2] ** 2, h[0] ** 2 + h[2] ** 2, h[0] ** 2 + h[1] ** 2])
        )
        assert np.allclose(equivalent_box_half_sizes(m, moments), h, rtol=1e-12)


def test_equivalent_shapes_of_an_impossible_inertia_are_nan() -> None:
    assert np.isnan(equivalent_ellipsoid_semi_axes(1.0, [1.0, 1.0, 3.0])).any()
    assert np.isnan(equivalent_ellipsoid_semi_axes(0.0, [1.0, 1.0, 1.0])).all()
