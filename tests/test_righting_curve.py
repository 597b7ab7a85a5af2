"""The righting-moment curve (gzinertia/physics/righting.py, issue 30) against closed forms and
an independent slicer.

* A floating box, wall-sided while neither its deck edge dips nor its bilge emerges:
  ``GZ = sin φ (GM + ½ BM tan² φ)`` exactly (e.g. Biran & López-Pulido, *Ship Hydrostatics
  and Stability*, 2nd ed., §6.3, the wall-sided formula), ``BM = B²/(12 T)``, ``KB = T/2``.
* A horizontal circular cylinder rolled about its axis, G a distance ``d`` below the axis: B
  stays on the vertical through the axis, so ``GZ = d sin φ`` at every heel (to the polygon's
  tessellation error).
* The box at every heel to 90° (deck edge under, bilge out) against the submerged part cut by
  manifold3d's boolean intersection with a half-space box (trimesh's ``mass_properties`` of
  it) and a heave found by Brent's method.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh
from scipy.optimize import brentq

from gzinertia.physics.righting import HEELS, righting_curve
from gzinertia.records import BuoyancyWorld

RHO = 1025.0
G_ACC = 9.81
WATER = BuoyancyWorld("uniform", RHO)


def _box(L: float, B: float, D: float) -> trimesh.Trimesh:
    """A box with its keel at z = -1 (any height: the curve heaves it), centred in x and y."""
    mesh = trimesh.creation.box(extents=(L, B, D))
    mesh.apply_translation((0.0, 0.0, D / 2 - 1.0))
    return mesh


@pytest.mark.parametrize(("L", "B", "D", "T", "KG"), [
    (4.0, 2.0, 1.0, 0.4, 0.3),
    (10.0, 3.0, 2.0, 1.1, 1.2),  # G above B: stable through BM
])
def test_box_wall_sided(L: float, B: float, D: float, T: float, KG: float) -> None:
    mesh = _box(L, B, D)
    mass = RHO * L * B * T
    G = np.array([0.0, 0.0, -1.0 + KG])
    limit = math.atan(min(2 * (D - T) / B, 2 * T / B))
    heels = [h for h in np.linspace(0.0, limit, 9)]
    curve = righting_curve(mesh.triangles, mass, G, WATER, 0.0, heels=heels, g=G_ACC)
    BM = B**2 / (12 * T)
    GM = T / 2 + BM - KG
    for point, heel in zip(curve, heels, strict=True):
        expected = math.sin(heel) * (GM + 0.5 * BM * math.tan(heel) ** 2)
        assert point.floats
        assert pytest.approx(expected, abs=1e-9 * B) == point.GZ
        assert point.moment == pytest.approx(mass * G_ACC * point.GZ, rel=1e-12)


def test_horizontal_cylinder() -> None:
    r, length, d = 0.5, 3.0, 0.2
    mesh = trimesh.creation.cylinder(radius=r, height=length, sections=256)
    mesh.apply_transform(trimesh.transformations.rotation_matrix(math.pi / 2, (0, 1, 0)))
    mass = RHO * 0.4 * math.pi * r**2 * length  # 40 % submerged
    G = np.array([0.0, 0.0, -d])
    curve = righting_curve(mesh.triangles, mass, G, WATER, 0.0, heels=HEELS, g=G_ACC)
    for point in curve:
        assert pytest.approx(d * math.sin(point.heel), abs=2e-4 * r) == point.GZ


def _trimesh_gz(mesh: trimesh.Trimesh, mass: float, G: np.ndarray, heel: float) -> float:
    """The righting arm by manifold3d's boolean: heel about x through G, heave by Brent's
    method until the part below z = 0 holds mass/ρ, then (G - B)·y."""
    R = trimesh.transformations.rotation_matrix(heel, (1, 0, 0), point=G)
    heeled = mesh.copy()
    heeled.apply_transform(R)

    water = trimesh.creation.box(extents=(100.0, 100.0, 100.0))
    water.apply_translation((0.0, 0.0, -50.0))  # z < 0

    def below(dz: float) -> trimesh.Trimesh:
        moved = heeled.copy()
        moved.apply_translation((0.0, 0.0, dz))
        return trimesh.boolean.intersection([moved, water], engine="manifold")

    lo, hi = heeled.bounds[:, 2]
    dz = brentq(lambda z: below(z).volume - mass / RHO, -hi + 1e-9, -lo - 1e-9, xtol=1e-13)
    part = below(dz)
    return float(G[1] - part.center_mass[1])


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # empty parts
def test_box_to_ninety_degrees_against_manifold3d() -> None:
    pytest.importorskip("manifold3d", reason="needs manifold3d (the bem extra) as the oracle")
    L, B, D, T, KG = 4.0, 2.0, 1.0, 0.4, 0.45
    mesh = _box(L, B, D)
    mass = RHO * L * B * T
    G = np.array([0.0, 0.0, -1.0 + KG])
    curve = righting_curve(mesh.triangles, mass, G, WATER, 0.0, heels=HEELS, g=G_ACC)
    for point in curve:
        assert pytest.approx(_trimesh_gz(mesh, mass, G, point.heel), abs=1e-7 * B) == point.GZ
    wall_sided = math.atan(min(2 * (D - T) / B, 2 * T / B))  # 21.8°: most heels are past it
    assert sum(p.heel > wall_sided for p in curve) > 10
