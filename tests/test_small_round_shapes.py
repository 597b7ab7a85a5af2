"""Round shapes of any size are closed surfaces when the geometry pipeline unites them.

gz-sim's own examples hold a 12.5 mm sphere through a 10 mm rod (``joint_trajectory_controller``
in gz-sim's examples): trimesh builds spheres by merging vertices closer than an absolute
tolerance, which tore such a small sphere open at its poles, and uniting it with the rod was
refused. Oracle: the volume of a sphere of radius R through an infinite cylinder of radius
a < R on its axis removes ``4π/3 (R³ - (R² - a²)^(3/2))`` from the sum (the cap-free
intersection; the rod is longer than the sphere), and a watertight mesh at every scale.
"""

from __future__ import annotations

import math

import pytest
import sdf_builders as sdf

from gzinertia.physics.collision_mesh import collision_trimesh
from gzinertia.physics.link_union import SECTIONS, link_solid
from gzinertia.sdf import read_sdf_string


def _link(R: float, a: float, L: float) -> object:
    body = sdf.link("rod", sdf.cylinder(a, L, name="rod"), sdf.sphere(R, name="ball"))
    return read_sdf_string(sdf.model(body)).links[0]


@pytest.mark.parametrize("scale", [1e-6, 1e-4, 1e-2, 1.0, 100.0])
def test_every_round_shape_is_closed_at_every_scale(scale: float) -> None:
    body = sdf.link("l", sdf.sphere(scale, name="s"), sdf.cylinder(scale, 3 * scale, name="c"),
                    sdf.cylinder(scale, 2 * scale, name="k").replace("<cylinder>", "<capsule>")
                    .replace("</cylinder>", "</capsule>"))
    for collision in read_sdf_string(sdf.model(body)).links[0].collisions:
        mesh = collision_trimesh(collision, SECTIONS)
        assert mesh is not None and mesh.is_watertight, (collision.name, scale)


@pytest.mark.parametrize("R, a", [(0.0125, 0.01), (1.25, 1.0), (0.0125, 0.005)])
def test_a_small_sphere_through_a_rod_unites_to_the_closed_form(R: float, a: float) -> None:
    L = 16 * R
    solid = link_solid(_link(R, a, L).collisions)  # type: ignore[attr-defined]
    overlap = 4.0 * math.pi / 3.0 * (R**3 - (R * R - a * a) ** 1.5)
    union = math.pi * a * a * L + 4.0 * math.pi / 3.0 * R**3 - overlap
    # the overlap alone carries the 128-segment tessellation's error (about (2π/128)²)
    assert solid.volume == pytest.approx(union, rel=2e-3 * overlap / union + 1e-12)
