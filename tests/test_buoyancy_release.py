"""Each release's buoyancy of a collision (issue 28), each behaviour against the source it cites:

* gazebosim/gz-sim#3423, which shapes a release counts: read from ``Buoyancy.cc`` at each
  release's newest tag in the gz-sim mirror (the ``switch`` cases that take a volume, and those
  that call ``GradedFluidDensity``);
* gazebosim/gz-common#877, the mesh volume: gz-sim's own duck (``test/media/duck_collider.dae``
  at the gz-sim mirror's head) measures 1.40186 m³ before (gz-sim's ``INTEGRATION_buoyancy``
  expectation at 93bbf3e, beside its centre of volume at the collision's origin) and 1.18892 m³
  after (gazebosim/gz-sim#3912's description); an offset cube's per-triangle sum transcribed
  from ``SubMesh::Volume`` before the change, its signed sum and centroid against trimesh;
* gazebosim/gz-sim#3909, the centre at the centroid and mesh ``<scale>``: a scaled, offset mesh
  and a cone before (at the origin, unscaled) and after (trimesh's scaled volume and centre of
  mass; the cone's centroid a quarter of its length above its base);
* gazebosim/gz-sim#3880 (gz-sim#3892), a rotated cylinder half in water in a graded fluid:
  before, sliced in its own axes (the water's half centred L/4 along the axis, as gz-sim#3892
  describes); after, the true half below the surface (centroid 4r/3π below the axis).
"""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from oracles.gz_common_mesh import obj_submeshes
from test_gazebo_mesh_volume import write_obj

import gzinertia
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import Finding
from gzinertia.audit.rules import RULES
from gzinertia.audit.runner import audit
from gzinertia.gazebo.buoyancy_release import behaviour_of
from gzinertia.gazebo.releases import RELEASES
from gzinertia.gazebo.target import named_target
from gzinertia.physics.buoyancy_release import (
    BuoyancyBehaviour,
    collision_buoyancy,
    counts,
    gz_common_mesh,
)
from gzinertia.records import BuoyancyWorld, LinkRecord

MIRROR = Path("/work/.mirror/gazebosim+gz-sim/repo")
BEFORE = BuoyancyBehaviour(round_shapes=False)
AFTER = BuoyancyBehaviour(True, True, True, True)
WATER = BuoyancyWorld()
G = 9.8


def _git_show(spec: str) -> bytes:
    if not MIRROR.is_dir():
        pytest.skip(f"no gz-sim mirror at {MIRROR}")
    return subprocess.run(["git", "-C", str(MIRROR), "show", spec], check=True,
                          capture_output=True).stdout


def _link(tmp_path: Path, *parts: str, name: str = "m.sdf") -> LinkRecord:
    path = sdf.write(tmp_path, sdf.model(sdf.link("l", sdf.inertial(1.0, np.eye(3)), *parts)),
                     name)
    return gzinertia.read(path).links[0]


def _counted_in_source(text: str) -> tuple[set[str], set[str]]:
    """The geometry types Buoyancy.cc takes a volume of (uniform), and those it passes to
    GradedFluidDensity (graded)."""
    uniform = set(re.findall(r"case sdf::GeometryType::(\w+):\s*\n\s*volume = ", text))
    if "mesh->Volume()" in text:
        uniform.add("MESH")
    graded = set(re.findall(r"case sdf::GeometryType::(\w+):\s*\n\s*this->dataPtr->"
                            r"GradedFluidDensity", text))
    return {k.lower() for k in uniform}, {k.lower() for k in graded}


@pytest.mark.parametrize("release", list(RELEASES))
def test_the_shapes_each_release_counts_are_its_buoyancy_cc_s(release: str) -> None:
    text = _git_show(f"{RELEASES[release].newest}:src/systems/buoyancy/Buoyancy.cc").decode()
    uniform, graded = _counted_in_source(text)
    behaviour = behaviour_of(named_target(release, None)).behaviour
    for kind in ("box", "sphere", "cylinder", "capsule", "ellipsoid", "cone", "mesh"):
        if kind == "cone" and release == "fortress":
            continue  # libsdformat 12 has no cone: nothing to count
        assert counts(kind, behaviour, graded=False) == (kind in uniform), (release, kind)
        assert counts(kind, behaviour, graded=True) == (kind in graded), (release, kind)


def test_the_duck_s_two_volumes(tmp_path: Path) -> None:
    """gz-sim's test duck: 1.40186 m³ at the collision's origin before gz-common#877 and
    gz-sim#3909 (its <scale> 0.5 ignored), 1.18892 m³ unscaled after gz-common#877."""
    (tmp_path / "duck_collider.dae").write_bytes(_git_show("HEAD:test/media/duck_collider.dae"))
    world = _git_show("HEAD:test/integration/buoyancy.cc").decode()
    assert "EXPECT_NEAR(1.40186, duckVolume->Data(), 1e-3)" in world
    assert "EXPECT_EQ(math::Vector3d(0, 0, -0.4),\n        duckCenterOfVolume->Data())" in world
    mesh = gz_common_mesh(str(tmp_path / "duck_collider.dae"))
    assert mesh.per_triangle == pytest.approx(1.40186, abs=1e-5)
    assert mesh.signed == pytest.approx(1.18892, abs=1e-5)
    # the duck as gz-sim's test world poses it (test/worlds/buoyancy.sdf.in)
    duck = sdf.mesh("duck_collider.dae", (0.5, 0.5, 0.5), (0, 0, -0.4, 1.57, 0, 0))
    link = _link(tmp_path, duck)
    jetty = behaviour_of(named_target("jetty", None))
    before = collision_buoyancy(link.collisions[0], jetty.behaviour, link.X_WB, WATER)
    assert before.volume == pytest.approx(1.40186, abs=1e-5)
    np.testing.assert_allclose(before.p_BoCv_B, [0, 0, -0.4], atol=1e-15)
    assert any("<scale> ignored" in c for c in before.causes)
    assert any("gz-common#877" in c for c in before.causes)
    assert jetty.alternative is not None
    after = collision_buoyancy(link.collisions[0], jetty.alternative, link.X_WB, WATER)
    assert after.volume == pytest.approx(1.18892 * 0.125, abs=1e-6)
    assert after.volume == pytest.approx(after.volume_exact, rel=1e-6)  # a closed mesh
    np.testing.assert_allclose(after.p_BoCv_B, after.p_BoCv_B_exact, atol=1e-9)


def _old_submesh_volume(triangles: np.ndarray) -> float:
    """``SubMesh::Volume`` before gz-common#877 (252093cf^): ``Σ |v1·(v2×v3)/6|``."""
    total = 0.0
    for v1, v2, v3 in np.asarray(triangles, dtype=float).reshape(-1, 3, 3):
        total += abs(float(np.dot(np.cross(v1, v2), v3)) / 6.0)
    return total


def _offset_cube(tmp_path: Path) -> tuple[Path, trimesh.Trimesh]:
    cube = trimesh.creation.box(extents=(1, 2, 0.5)).apply_translation((2.5, 1.0, 0.25))
    return write_obj(tmp_path / "cube.obj", cube, [list(range(len(cube.faces)))]), cube


def test_mesh_volume_before_and_after_gz_common_877(tmp_path: Path) -> None:
    path, cube = _offset_cube(tmp_path)
    mesh = gz_common_mesh(str(path))
    old = sum(_old_submesh_volume(t) for t in obj_submeshes(path))
    assert mesh.per_triangle == pytest.approx(old, rel=1e-12)
    assert mesh.per_triangle > 1.5 * cube.volume  # the origin lies outside the cube
    assert mesh.signed == pytest.approx(cube.volume, rel=1e-12)
    np.testing.assert_allclose(mesh.centroid, cube.center_mass, atol=1e-12)


def test_scaled_mesh_before_and_after_gz_sim_3909(tmp_path: Path) -> None:
    path, cube = _offset_cube(tmp_path)
    scale = (2.0, 0.5, 3.0)
    pose = (0.1, -0.2, 0.3, 0.0, 0.0, math.pi / 2)
    link = _link(tmp_path, sdf.mesh(path.name, scale, pose))
    c = link.collisions[0]
    before = collision_buoyancy(c, BuoyancyBehaviour(signed_mesh_volume=True), link.X_WB, WATER)
    assert before.volume == pytest.approx(cube.volume, rel=1e-12)  # unscaled
    np.testing.assert_allclose(before.p_BoCv_B, pose[:3], atol=1e-15)  # at the origin
    scaled = cube.copy().apply_scale(scale)
    after = collision_buoyancy(c, AFTER, link.X_WB, WATER)
    assert after.volume == pytest.approx(scaled.volume, rel=1e-12)
    np.testing.assert_allclose(after.p_BoCv_B, c.X_BC.transform_point(scaled.center_mass),
                               atol=1e-12)
    assert after.buoyancy == pytest.approx(1000.0 * G * scaled.volume, rel=1e-12)
    assert after.volume_exact == pytest.approx(scaled.volume, rel=1e-9)


def test_cone_counted_at_its_origin_before_gz_sim_3909_at_its_centroid_after(
        tmp_path: Path) -> None:
    r, L = 0.3, 1.2
    cone = sdf.collision(sdf.cylinder_geometry(r, L, "cone"), (0, 0, 1.0, 0, 0, 0))
    path = sdf.write(tmp_path, sdf.model(sdf.link("l", sdf.inertial(1.0, np.eye(3)), cone),
                                         version="1.11"))
    link = gzinertia.read(path).links[0]
    V = math.pi * r * r * L / 3.0
    for behaviour, z in ((BuoyancyBehaviour(), 1.0), (AFTER, 1.0 - L / 4.0)):
        got = collision_buoyancy(link.collisions[0], behaviour, link.X_WB, WATER)
        assert got.volume == pytest.approx(V, rel=1e-12)
        np.testing.assert_allclose(got.p_BoCv_B, [0, 0, z], atol=1e-12)
    np.testing.assert_allclose(got.p_BoCv_B_exact, [0, 0, 1.0 - L / 4.0], atol=1e-12)
    ignored = collision_buoyancy(link.collisions[0], BEFORE, link.X_WB, WATER)
    assert ignored.volume == 0.0 and ignored.buoyancy == 0.0
    assert ignored.causes == ("no buoyancy for a cone before gazebosim/gz-sim#3423",)


def test_rotated_cylinder_in_a_graded_fluid_before_and_after_gz_sim_3880(
        tmp_path: Path) -> None:
    """A cylinder lying along world x across the surface z = 0 (water below, air of 1 kg/m³
    above), as gz-sim#3892 reproduces it."""
    r, L = 0.2, 2.0
    link = _link(tmp_path, sdf.cylinder(r, L, (0, 0, 0, 0, math.pi / 2, 0)))
    fluid = BuoyancyWorld(kind="graded", density=1000.0, layers=((0.0, 1.0),))
    V = math.pi * r * r * L
    force = G * (1000.0 + 1.0) * V / 2
    c = link.collisions[0]
    before = collision_buoyancy(c, BuoyancyBehaviour(), link.X_WB, fluid)
    after = collision_buoyancy(c, AFTER, link.X_WB, fluid)
    assert before.buoyancy == pytest.approx(force, rel=1e-12)
    # before: the half with z_C < 0 (world x < 0) in water, centred L/4 along the axis; the
    # rest, in air, at the whole shape's centre (the origin) less it: +L/4
    x = (1000.0 * -L / 4 + 1.0 * L / 4) / 1001.0
    np.testing.assert_allclose(before.p_WB, [x, 0, 0], atol=1e-12)
    assert any("gz-sim#3880" in cause for cause in before.causes)
    z = (1000.0 * -4 * r / (3 * math.pi) + 1.0 * 4 * r / (3 * math.pi)) / 1001.0
    assert after.buoyancy == pytest.approx(force, rel=2e-4)  # 256 segments around
    np.testing.assert_allclose(after.p_WB, [0, 0, z], atol=2e-4 * r)
    np.testing.assert_allclose(after.p_WB, after.p_WB_exact, atol=1e-15)
    assert not after.causes


def test_each_release_s_behaviour_and_what_it_assumes() -> None:
    for release in ("garden", "ionic"):  # gz-sim#3423 is in neither's newest tag
        assert not behaviour_of(named_target(release, None)).behaviour.round_shapes
    jetty = behaviour_of(named_target("jetty", None))
    assert jetty.behaviour == BuoyancyBehaviour(True, False, False, False)
    assert jetty.alternative == AFTER
    assert "without gazebosim/gz-sim#3909 and gazebosim/gz-sim#3880" in jetty.assumption
    assert "after gz-sim10_10.4.0, the newest tag of Gazebo Jetty" in jetty.assumption


def test_a_capsule_is_counted_by_jetty_not_by_garden(tmp_path: Path) -> None:
    link = _link(tmp_path, sdf.collision(sdf.cylinder_geometry(0.1, 0.5, "capsule")))
    c = link.collisions[0]
    V = math.pi * 0.01 * 0.5 + 4 / 3 * math.pi * 0.001
    for release, volume in (("garden", 0.0), ("jetty", V)):
        got = collision_buoyancy(c, behaviour_of(named_target(release, None)).behaviour,
                                 link.X_WB, WATER)
        assert got.volume == pytest.approx(volume, rel=1e-12)
        assert got.volume_exact == pytest.approx(V, rel=1e-12)


# ------------------------------------------------------------------------------------- GZI604
def _gzi604(path: Path, release: str = "jetty") -> list[Finding]:
    config = AuditConfig(known_codes=frozenset(RULES), target=named_target(release, None))
    result = audit([str(path)], config)
    assert not result.files_with("error"), result.files
    return [f for f in result.findings if f.code == "GZI604"]


def _hovering(tmp_path: Path, collision: str, volume: float, name: str = "m.sdf") -> Path:
    body = sdf.link("hull", sdf.inertial(1000.0 * volume, np.eye(3)), collision)
    return sdf.write(tmp_path, sdf.model(body, version="1.11", name="auv"), name)


def test_gzi604_a_cone_is_counted_at_its_origin_a_centred_cylinder_is_not_off(
        tmp_path: Path) -> None:
    r, L = 0.3, 1.2
    V = math.pi * r * r * L / 3
    cone = _hovering(tmp_path, sdf.collision(sdf.cylinder_geometry(r, L, "cone"), name="nose"), V)
    (found,) = _gzi604(cone)
    assert found.values["offset"] == pytest.approx(L / 4, rel=1e-12)
    assert found.values["size"] == pytest.approx(V ** (1 / 3), rel=1e-12)
    assert found.values["relative"] == pytest.approx(0.0, abs=1e-12)
    assert found.values["with_unknown_changes"]["p_WB"] == pytest.approx([0, 0, -L / 4])
    assert "gz-sim#3909" in found.message and "collision 'nose' (cone)" in found.message
    assert found.values["target"]["gazebo"] == "jetty"
    twin = sdf.collision(sdf.cylinder_geometry(r, L / 3), (0, 0, -0.3, 0, 0, 0), name="nose")
    assert _gzi604(_hovering(tmp_path, twin, math.pi * r * r * L / 3, "twin.sdf")) == []


def test_gzi604_garden_gives_a_capsule_no_buoyancy_jetty_does(tmp_path: Path) -> None:
    r, L = 0.1, 0.5
    V = math.pi * r * r * L + 4 / 3 * math.pi * r**3
    path = _hovering(tmp_path, sdf.collision(sdf.cylinder_geometry(r, L, "capsule")), V)
    (found,) = _gzi604(path, "garden")
    assert found.values["relative"] == -1.0
    assert "no buoyancy for a capsule before gazebosim/gz-sim#3423" in found.message
    assert _gzi604(path, "jetty") == []


def test_gzi604_a_scaled_mesh_in_a_world_its_unscaled_twin_is_clean(tmp_path: Path) -> None:
    cube = trimesh.creation.box(extents=(0.5, 0.5, 0.5))
    write_obj(tmp_path / "cube.obj", cube, [list(range(len(cube.faces)))])

    def world(scale: float, name: str) -> Path:
        V = cube.volume * scale**3
        body = sdf.link("hull", sdf.inertial(1000.0 * V, np.eye(3)),
                        sdf.mesh("cube.obj", (scale,) * 3))
        return sdf.write(tmp_path, sdf.world(sdf.buoyancy_plugin(1000.0),
                                             sdf.nested_model("auv", body)), name)

    (found,) = _gzi604(world(2.0, "scaled.sdf"))
    assert found.values["volume"] == pytest.approx(cube.volume, rel=1e-12)
    assert found.values["relative"] == pytest.approx(1 / 8 - 1, rel=1e-9)
    assert "<scale> ignored" in found.message
    assert found.values["with_unknown_changes"]["buoyancy"] == pytest.approx(
        found.values["buoyancy_exact"], rel=1e-9)
    assert _gzi604(world(1.0, "unscaled.sdf")) == []


def test_gzi604_a_cylinder_lying_across_the_surface_an_upright_one_is_clean(
        tmp_path: Path) -> None:
    r, L = 0.2, 2.0
    V = math.pi * r * r * L

    def world(pitch: float, name: str) -> Path:
        body = sdf.link("hull", sdf.inertial(500.0 * V, np.eye(3)),
                        sdf.cylinder(r, L, (0, 0, 0, 0, pitch, 0)))
        plugin = sdf.buoyancy_plugin(default=1000.0, changes=[(0.0, 1.0)])
        return sdf.write(tmp_path, sdf.world(plugin, sdf.nested_model("auv", body)), name)

    (found,) = _gzi604(world(math.pi / 2, "lying.sdf"))
    assert found.values["offset"] > 0.02 * V ** (1 / 3)
    assert "gz-sim#3880" in found.message
    assert _gzi604(world(0.0, "upright.sdf")) == []
