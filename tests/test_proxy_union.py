"""GZI304 (buoyancy proxy) compares the union of a link's collisions with the union of its
visuals, overlaps counted once (issue 24), and the union of primitive shapes goes through
manifold3d's own primitives with NumPy moments (no trimesh: an audit of a plain SDF file stays
light, ``tests/test_audit_lazy_imports.py``).

Oracles: the same shapes' overlap through trimesh's tessellation (``tests/union_oracle.py``,
``"trimesh"``; moments by trimesh's mass properties); closed forms where the overlap is a box
(two overlapping boxes, posed and turned alike); the closed-form volumes of boxes laid along x
whose union is one box (GZI304's judgement then follows from its documented thresholds).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import findings_of, run
from conftest import run_cli
from union_oracle import overlap

from gzinertia.physics import manifold_solids
from gzinertia.physics.link_union import link_union
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose, rotation_from_rpy

pytest.importorskip("manifold3d")

HERE = SourceRef("proxy.sdf", 1)
#: Round shapes: manifold3d's primitives at 256 segments and trimesh's at 128 differ by their
#: tessellations (each within 3.5e-4 of the closed form's volume); their overlaps agree to this
#: fraction of the overlap's own size (measured: at most 5.5e-4 on these shapes, the crossing
#: cylinders' second moment).
ROUND_RTOL = 2e-3


def _c(name: str, geometry: Geometry, p: tuple[float, ...], rpy: tuple[float, ...] = (0, 0, 0)
       ) -> Collision:
    return Collision(name, Pose(np.asarray(p, float), rotation_from_rpy(*rpy)), geometry, HERE)


def _from_spatial(O: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Volume, first moment and second moment (inertia about Bo) of a spatial ``Σ - union``."""
    return float(O[3, 3]), np.array([O[2, 4], O[0, 5], O[1, 3]]), O[:3, :3]


ROUND_CASES = {
    "sphere over a cylinder's end": [
        _c("tube", Geometry("cylinder", radius=0.1, length=0.6), (0, 0, 0), (0.3, 0.2, 0.1)),
        _c("cap", Geometry("sphere", radius=0.1),
           tuple(rotation_from_rpy(0.3, 0.2, 0.1) @ np.array([0.0, 0.0, 0.3]))),
    ],
    "two crossing cylinders": [
        _c("a", Geometry("cylinder", radius=0.1, length=0.8), (0.0, 0.0, 0.0), (0, math.pi / 2, 0)),
        _c("b", Geometry("cylinder", radius=0.08, length=0.8), (0.1, 0.02, 0.0), (math.pi / 2, 0, 0)),
    ],
    "capsule, ellipsoid, cone and box": [
        _c("capsule", Geometry("capsule", radius=0.12, length=0.5), (0, 0, 0), (0, 1.2, 0)),
        _c("ellipsoid", Geometry("ellipsoid", size=(0.2, 0.1, 0.15)), (0.2, 0.05, 0.03)),
        _c("cone", Geometry("cone", radius=0.1, length=0.3), (-0.25, 0.0, 0.08), (0.4, 0, 0)),
        _c("box", Geometry("box", size=(0.2, 0.3, 0.1)), (0.05, -0.1, 0.0), (0, 0, 0.5)),
    ],
}


@pytest.mark.parametrize("case", sorted(ROUND_CASES))
def test_primitive_overlap_agrees_with_trimesh_tessellation(case: str) -> None:
    shapes = ROUND_CASES[case]
    union = link_union(shapes)
    assert union is not None and union.union_B is not None
    V, M, J = _from_spatial(overlap(shapes, "trimesh"))
    assert V > 0.0
    size = V ** (1.0 / 3.0)  # the overlap's own length: moments compared at its scale
    assert union.overlap_volume == pytest.approx(V, rel=ROUND_RTOL)
    assert np.max(np.abs(union.overlap_moment - M)) <= ROUND_RTOL * float(np.max(np.abs(M))) + (
        ROUND_RTOL * V * size)
    assert np.max(np.abs(union.overlap_J_BBo_B - J)) <= ROUND_RTOL * float(np.max(np.abs(J)))


def test_two_overlapping_boxes_overlap_is_the_closed_form_box() -> None:
    """Two boxes turned alike (R) whose centres differ by d in their own axes: the overlap is
    the box of sizes ``(s_a + s_b)/2 - |d|`` centred between their facing faces."""
    R = rotation_from_rpy(0.4, -0.3, 0.9)
    pa, sa = np.array([0.2, -0.1, 0.3]), np.array([0.6, 0.3, 0.2])
    sb, d = np.array([0.3, 0.4, 0.3]), np.array([0.25, 0.1, 0.05])  # d in the boxes' axes
    shapes = [Collision("a", Pose(pa, R), Geometry("box", size=tuple(sa)), HERE),
              Collision("b", Pose(pa + R @ d, R), Geometry("box", size=tuple(sb)), HERE)]
    lo, hi = np.maximum(-sa / 2, d - sb / 2), np.minimum(sa / 2, d + sb / 2)
    size, centre = hi - lo, pa + R @ ((hi + lo) / 2)
    V = float(np.prod(size))
    G = R @ np.diag(V / 12 * (np.sum(size**2) - size**2)) @ R.T  # about its centre
    J = G + V * (float(centre @ centre) * np.eye(3) - np.outer(centre, centre))
    union = link_union(shapes)
    assert union is not None
    assert union.overlap_volume == pytest.approx(V, rel=1e-9)
    np.testing.assert_allclose(union.overlap_moment, V * centre, rtol=0, atol=1e-12)
    np.testing.assert_allclose(union.overlap_J_BBo_B, J, rtol=0, atol=1e-12)


# --- GZI304 judged on the unions --------------------------------------------------------------

HULL = (0.6, 0.3, 0.2)
SHIFT = 0.01  # m along x between the overlapping copies


def _staggered(make: object, size: tuple[float, float, float], copies: int, prefix: str
               ) -> list[str]:
    """``copies`` boxes of ``size`` laid along x ``SHIFT`` apart, centred on the link origin:
    their union is one box ``(copies - 1)·SHIFT`` longer."""
    x0 = -(copies - 1) * SHIFT / 2
    return [make(sdf.box_geometry(size), (x0 + k * SHIFT, 0, 0, 0, 0, 0), f"{prefix}{k}")  # type: ignore[operator]
            for k in range(copies)]


def _vessel(collisions: list[str], visuals: list[str]) -> str:
    volume = float(np.prod(HULL))
    body = sdf.link("hull", sdf.inertial(1000.0 * volume, sdf.box_inertia(1000.0 * volume, HULL)),
                    *visuals, *collisions)
    return sdf.world(sdf.buoyancy_plugin(1000.0), sdf.nested_model("rov", body))


def _union_volume(size: tuple[float, float, float], copies: int) -> float:
    return (size[0] + (copies - 1) * SHIFT) * size[1] * size[2]


def test_overlapping_visuals_no_longer_make_the_true_collision_look_like_a_proxy(
    tmp_path: Path,
) -> None:
    """Five overlapping copies of the hull drawn as visuals: their sum is five hulls (the
    collision would be 20 % of it, a proxy), their union 1.07 hulls (the collision is the hull)."""
    visuals = _staggered(sdf.visual, HULL, 5, "v")
    text = _vessel([sdf.box(HULL, None, "hull")], visuals)
    assert float(np.prod(HULL)) < 0.25 * 5 * float(np.prod(HULL))  # the sum's verdict
    assert float(np.prod(HULL)) > 0.25 * _union_volume(HULL, 5)  # the union's
    found = findings_of(tmp_path, text, "GZI304")
    assert found == [], [f.message for f in found]


def test_overlapping_proxy_collisions_are_judged_by_their_union(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Five overlapping copies of a small box as collisions: their sum (42 % of the hull) hid
    the proxy; their union is 9.8 % of the hull, said with how it was measured."""
    small = (0.2, 0.15, 0.1)
    collisions = _staggered(sdf.collision, small, 5, "p")
    hull = float(np.prod(HULL))
    assert 5 * float(np.prod(small)) > 0.25 * hull  # the sum's verdict: no proxy
    united = _union_volume(small, 5)
    assert united < 0.25 * hull
    text = _vessel(collisions, [sdf.visual(sdf.box_geometry(HULL), None, "drawn")])
    (f,) = findings_of(tmp_path, text, "GZI304")
    assert f.values["collision_volume"] == pytest.approx(united, rel=1e-9)
    assert f.values["visual_volume"] == pytest.approx(hull, rel=1e-12)
    assert "collisions 'p0', 'p1', 'p2', 'p3', 'p4' overlap: the exact volume is their union" in (
        f.message)
    path = tmp_path / "model.sdf"
    before = {(g.code, g.link) for g in run([path]).findings}
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert code == 0, err
    assert "its collisions look like a buoyancy proxy" in err and "their union" in err
    after = {(g.code, g.link) for g in run([path]).findings}
    assert after <= before, after - before


def test_without_manifold3d_the_overlap_is_said_counted_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """manifold3d missing (the ``bem`` extra): the sum, said to count the overlap twice."""
    shapes = ROUND_CASES["two crossing cylinders"]
    monkeypatch.setattr(manifold_solids, "m3", None)  # imported at the top, None when missing
    union = link_union(shapes, "visual")
    assert union is not None and union.overlap_volume == 0.0 and union.union_B is None
    assert union.note.startswith("visuals 'a', 'b' may overlap")
    assert "counted twice" in union.note
