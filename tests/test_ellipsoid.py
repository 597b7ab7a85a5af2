"""The one home of the semi-axes rules (``gzinertia.physics.ellipsoid``), checked on geometry:
surface points, the two quadric matrices, and MuJoCo's sizing of primitives."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import random_rotation

from gzinertia.physics.ellipsoid import (
    inverse_quadric_matrix,
    primitive_semi_axes,
    quadric_matrix,
    validated_semi_axes,
)
from gzinertia.records import Geometry


def test_surface_points_lie_on_the_quadric_and_the_two_matrices_are_inverses(
    rng: np.random.Generator,
) -> None:
    for _ in range(20):
        e, R = rng.uniform(0.1, 3.0, 3), random_rotation(rng)
        u = rng.normal(size=(50, 3))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        x = (u * e) @ R.T  # points of the surface, from the centre, in F
        Q, Q_inv = quadric_matrix(e, R), inverse_quadric_matrix(e, R)
        assert np.allclose(np.einsum("ni,ij,nj->n", x, Q, x), 1.0, rtol=1e-12)
        assert np.allclose(Q @ Q_inv, np.eye(3), atol=1e-12)
        assert np.allclose(np.sort(np.linalg.eigvalsh(Q_inv)), np.sort(e**2), rtol=1e-12)


def test_primitive_semi_axes_are_the_bounding_half_extents() -> None:
    """Each primitive's farthest surface point along its axes is at the semi-axes."""
    r, L = 0.2, 1.0
    cases = {
        Geometry("sphere", radius=r): (r, r, r),
        Geometry("capsule", radius=r, length=L): (r, r, L / 2 + r),
        Geometry("cylinder", radius=r, length=L): (r, r, L / 2),
        Geometry("box", size=(1.0, 2.0, 3.0)): (0.5, 1.0, 1.5),
        Geometry("ellipsoid", size=(1.0, 2.0, 3.0)): (1.0, 2.0, 3.0),
    }
    for geometry, half in cases.items():
        assert np.array_equal(primitive_semi_axes(geometry), half), geometry.kind
    assert primitive_semi_axes(Geometry("mesh", mesh_uri="x.stl")) is None
    assert primitive_semi_axes(Geometry("cylinder", radius=r)) is None


@pytest.mark.parametrize("bad", [(1.0, 0.0, 1.0), (1.0, -1.0, 1.0), (np.nan, 1.0, 1.0),
                                 (np.inf, 1.0, 1.0), (1.0, 1.0)])
def test_validated_semi_axes_refuses_what_no_ellipsoid_has(bad: tuple[float, ...]) -> None:
    with pytest.raises(ValueError, match="semi_axes"):
        validated_semi_axes(bad)


def test_the_axis_ratio_limit_applies_only_when_asked() -> None:
    assert validated_semi_axes((1e-6, 1.0, 1.0)).flags.writeable is False
    with pytest.raises(ValueError, match="differ by more than"):
        validated_semi_axes((1e-6, 1.0, 1.0), max_ratio=1e4)
