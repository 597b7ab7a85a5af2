"""Hydrostatics as gz-sim's Buoyancy system computes them, against independent oracles.

Oracles: numerical quadrature of cross-section areas (closed-form slices), trimesh on the same
triangle mesh (volumes, centroids), scipy's convex hull of the clipped points (slices of convex
meshes), kinematics (Archimedes: ρ·V·g against m·g), and the corpus's buoyancy worlds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from conftest import CORPUS, run_cli
from scipy.integrate import quad

from gzinertia.physics.collision_mesh import collision_trimesh
from gzinertia.physics.collision_volume import gazebo_mesh_volume, signed_volume
from gzinertia.physics.hydrostatics import link_hydrostatics, model_hydrostatics
from gzinertia.physics.shapes import solid_properties
from gzinertia.physics.volume_below import volume_below, volume_below_plane
from gzinertia.records import BuoyancyWorld, Collision, Geometry, Inertial, LinkRecord, SourceRef
from gzinertia.sdf import read_sdf_file
from gzinertia.sdf.buoyancy import read_buoyancy_world, read_model_poses
from gzinertia.spatial.rotation import Pose, rotation_from_rpy

HERE = SourceRef("test", 1)
SHAPES = {
    "box": Geometry("box", size=(0.4, 0.7, 1.3)),
    "sphere": Geometry("sphere", radius=0.35),
    "cylinder": Geometry("cylinder", radius=0.3, length=1.1),
    "capsule": Geometry("capsule", radius=0.25, length=0.8),
    "ellipsoid": Geometry("ellipsoid", size=(0.6, 0.4, 0.3)),
    "cone": Geometry("cone", radius=0.45, length=0.9),
}


def _area(g: Geometry, z: float) -> float:
    """Cross-section area of the shape at height z in its own axes (the quadrature oracle)."""
    if g.kind == "box":
        assert g.size is not None
        return g.size[0] * g.size[1] if abs(z) <= g.size[2] / 2 else 0.0
    if g.kind == "sphere":
        assert g.radius is not None
        return math.pi * max(g.radius**2 - z * z, 0.0)
    if g.kind == "cylinder":
        assert g.radius is not None and g.length is not None
        return math.pi * g.radius**2 if abs(z) <= g.length / 2 else 0.0
    if g.kind == "capsule":
        assert g.radius is not None and g.length is not None
        off = max(abs(z) - g.length / 2, 0.0)
        return math.pi * max(g.radius**2 - off * off, 0.0)
    if g.kind == "cone":  # base at -L/2, apex at +L/2: radius r·(L/2 - z)/L
        assert g.radius is not None and g.length is not None
        return math.pi * (g.radius * (g.length / 2 - z) / g.length) ** 2 if abs(
            z) <= g.length / 2 else 0.0
    assert g.size is not None
    a, b, c = g.size
    return math.pi * a * b * max(1.0 - (z / c) ** 2, 0.0)


def _half_height(g: Geometry) -> float:
    if g.kind in ("box", "ellipsoid"):
        assert g.size is not None
        return g.size[2] / 2 if g.kind == "box" else g.size[2]
    assert g.radius is not None
    return (g.length or 0.0) / 2 + (g.radius if g.kind in ("sphere", "capsule") else 0.0)


@pytest.mark.parametrize("kind", sorted(SHAPES))
@pytest.mark.parametrize("fraction", [-0.2, 0.0, 0.13, 0.5, 0.77, 0.999, 1.3])
def test_volume_below_equals_quadrature_of_cross_sections(kind: str, fraction: float) -> None:
    """gz-math's VolumeBelow/CenterOfVolumeBelow for a plane across the shape's z, closed
    forms, against ∫A(z)dz and ∫z·A(z)dz (1e-9 relative)."""
    g = SHAPES[kind]
    h = _half_height(g)
    d = -h + fraction * 2 * h
    breaks = sorted({-h, min(max(d, -h), h), h} | ({-(g.length or 0) / 2, (g.length or 0) / 2}
                                                  if kind == "capsule" else set()))
    top = min(max(d, -h), h)
    pts = [p for p in breaks if -h < p < top]
    V_ref = quad(lambda z: _area(g, z), -h, top, points=pts or None, epsabs=1e-15, epsrel=1e-12)[0]
    M_ref = quad(lambda z: z * _area(g, z), -h, top, points=pts or None, epsabs=1e-15,
                 epsrel=1e-12)[0]
    V, M = volume_below(g, d)
    scale = solid_properties(g).volume
    assert abs(V - V_ref) <= 1e-9 * scale
    assert abs(M - M_ref) <= 1e-9 * scale * h


@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_closed_form_volume_and_centre_match_trimesh_on_fine_meshes(kind: str) -> None:
    """The closed-form volume equals trimesh's on the shape meshed ever finer: the error falls
    as 1/N² and, extrapolated (Richardson), is below 1e-6 relative; centroids at the origin."""
    g = SHAPES[kind]
    exact = solid_properties(g)
    col = Collision("c", Pose(), g, HERE)
    vols = []
    for n in (128, 256):
        mesh = collision_trimesh(col, sections=n)
        assert mesh.is_volume
        vols.append(float(mesh.volume))
        assert np.allclose(mesh.center_mass, exact.p_FoFc_F, atol=1e-9)
    extrapolated = (4 * vols[1] - vols[0]) / 3
    assert abs(extrapolated - exact.volume) <= 1e-6 * exact.volume
    assert abs(vols[1] - exact.volume) <= 2e-4 * exact.volume  # the mesh the report uses


def _clipped_hull(mesh: trimesh.Trimesh, height: float) -> tuple[float, np.ndarray]:
    """The oracle for a convex mesh: the convex hull (qhull) of its vertices below the plane
    and of its edges' crossings of the plane."""
    v = mesh.vertices
    edges = mesh.edges_unique
    a, b = v[edges[:, 0]], v[edges[:, 1]]
    cross = (a[:, 2] - height) * (b[:, 2] - height) < 0
    s = (height - a[cross, 2]) / (b[cross, 2] - a[cross, 2])
    pts = np.vstack([v[v[:, 2] <= height], a[cross] + s[:, None] * (b[cross] - a[cross])])
    hull = trimesh.convex.convex_hull(pts)
    return float(hull.volume), np.asarray(hull.center_mass)


@pytest.mark.parametrize("kind", sorted(SHAPES))
def test_clipped_volume_matches_trimesh_hull_on_the_same_rotated_mesh(kind: str) -> None:
    """Exact slices of a rotated shape by a horizontal plane: the clipped triangles' volume and
    centroid equal trimesh's (qhull) on the same mesh to 1e-9."""
    mesh = collision_trimesh(Collision("c", Pose(), SHAPES[kind], HERE), sections=48)
    T = np.eye(4)
    T[:3, :3] = rotation_from_rpy(0.4, -0.7, 1.1)
    T[:3, 3] = [0.3, -0.2, 0.05]
    mesh.apply_transform(T)
    for height in (-0.2, 0.0, 0.11):
        V, M = volume_below_plane(mesh.triangles, height)
        V_ref, c_ref = _clipped_hull(mesh, height)
        assert abs(V - V_ref) <= 1e-9 * mesh.volume
        assert np.allclose(M / V, c_ref, atol=1e-9)
    V_all, M_all = volume_below_plane(mesh.triangles, math.inf)
    assert abs(V_all - mesh.volume) <= 1e-12 * mesh.volume
    assert np.allclose(M_all / V_all, mesh.center_mass, atol=1e-12)


def _corpus_meshes() -> list[str]:
    # STL here; the corpus COLLADA files are checked in tests/test_collada.py
    return sorted(str(p) for p in CORPUS.rglob("*.stl") if p.is_file())


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_corpus_meshes_gazebo_volume_and_clipping_match_trimesh() -> None:
    """For every corpus mesh: Gazebo's unscaled tetrahedron sum equals trimesh's volume, and
    the clipped volume and centroid at mid-height equal trimesh's of the part below (a convex
    mesh through qhull) — 1e-9 relative on the same mesh."""
    from gzinertia.physics.shapes import load_mesh

    checked = 0
    for path in _corpus_meshes():
        mesh = load_mesh(path, (1.0, 1.0, 1.0))
        if not mesh.is_volume:
            continue
        checked += 1
        assert abs(gazebo_mesh_volume(path) - abs(mesh.volume)) <= 1e-9 * abs(mesh.volume)
        V, M = volume_below_plane(mesh.triangles, math.inf)
        assert abs(V - mesh.volume) <= 1e-9 * abs(mesh.volume)
        assert np.allclose(M / V, mesh.center_mass, atol=1e-9 * float(mesh.scale))
        hull = mesh.convex_hull
        mid = float(hull.bounds[:, 2].mean())
        V, M = volume_below_plane(hull.triangles, mid)
        V_ref, c_ref = _clipped_hull(hull, mid)
        assert abs(V - V_ref) <= 1e-9 * hull.volume
        assert np.allclose(M / V, c_ref, atol=1e-9 * float(hull.scale))
    assert checked >= 5


def test_signed_volume_is_trimesh_volume_and_flips_with_winding() -> None:
    mesh = trimesh.creation.icosphere(subdivisions=2, radius=0.7)
    assert abs(signed_volume(mesh.triangles) - mesh.volume) <= 1e-12
    assert abs(signed_volume(mesh.triangles[:, ::-1]) + mesh.volume) <= 1e-12


def _link(collisions: tuple[Collision, ...], mass: float, X_WB: Pose | None = None,
          name: str = "m::body") -> LinkRecord:
    return LinkRecord(name, name.rsplit("::", 1)[0], X_WB or Pose(), Inertial(mass=mass),
                      collisions, HERE)


def test_uniform_buoyancy_is_archimedes_and_neutral_box_hovers() -> None:
    """A 1 m³ box of 1000 kg in water: buoyancy ρ·V·|g| equals the weight m·|g|."""
    box = Collision("c", Pose(), Geometry("box", size=(1.0, 2.0, 0.5)), HERE)
    fluid = BuoyancyWorld("uniform", 1000.0, g_W=(0.0, 0.0, -9.81))
    (model,) = model_hydrostatics([_link((box,), 1000.0)], fluid)
    assert model.volume == pytest.approx(1.0, rel=1e-15)
    assert model.buoyancy == pytest.approx(1000.0 * 1.0 * 9.81, rel=1e-15)
    assert model.weight == pytest.approx(1000.0 * 9.81, rel=1e-15)
    assert abs(model.net_percent) < 1e-12
    assert model.fluid_density == pytest.approx(1000.0, rel=1e-15)


def test_offset_mesh_centroid_is_ignored_and_scale_dropped_as_in_gazebo(tmp_path) -> None:
    """A mesh whose centroid is 1 m from its origin, scaled by 2: Gazebo puts B at the
    collision origin and uses the unscaled volume (gz-sim#3909); the exact solid does not."""
    mesh = trimesh.creation.box(extents=(0.5, 0.5, 0.5))
    mesh.apply_translation((1.0, 0.0, 0.0))
    path = tmp_path / "offset.stl"
    mesh.export(path)
    g = Geometry("mesh", mesh_uri=str(path), mesh_path=str(path), scale=(2.0, 2.0, 2.0))
    X_BC = Pose(np.array([0.0, 0.3, 0.0]), np.eye(3))
    link = link_hydrostatics(_link((Collision("c", X_BC, g, HERE),), 1.0),
                             BuoyancyWorld("uniform", 1000.0))
    assert link.volume == pytest.approx(0.125, rel=1e-12)  # unscaled
    assert link.volume_exact == pytest.approx(0.125 * 8, rel=1e-12)  # scaled
    assert np.allclose(link.p_BoBv_B, [0.0, 0.3, 0.0])  # the collision origin
    assert np.allclose(link.p_BoBv_B_exact, [2.0, 0.3, 0.0])  # scaled centroid


def test_graded_upright_box_half_submerged_matches_exact_and_rotated_differs() -> None:
    """Water (1000) below z=0, air (1) above. An upright box centred on the surface: half its
    volume in each; Gazebo and exact agree. Rolled by 90° about x (long axis now horizontal):
    Gazebo slices along the box's own z (gz-sim#3892) — same half volume by symmetry here, but
    for a box lifted by a quarter of its height the two differ, exact by kinematics."""
    fluid = BuoyancyWorld("graded", 1000.0, ((0.0, 1.0),), g_W=(0.0, 0.0, -9.8))
    box = Collision("c", Pose(), Geometry("box", size=(1.0, 1.0, 2.0)), HERE)
    link = link_hydrostatics(_link((box,), 10.0), fluid)
    expected = 9.8 * (1000.0 * 1.0 + 1.0 * 1.0)
    assert link.f_W[2] == pytest.approx(expected, rel=1e-12)
    assert link.f_W_exact[2] == pytest.approx(expected, rel=1e-12)
    # B: the water half's centre (z=-0.5) weighted 1000:1 with the air half's (z=+0.5)
    assert link.p_WB[2] == pytest.approx((-0.5 * 1000 + 0.5 * 1) / 1001, rel=1e-12)
    rolled = Pose(np.array([0.0, 0.0, 0.25]), rotation_from_rpy(math.pi / 2, 0.0, 0.0))
    link = link_hydrostatics(_link((box,), 10.0, rolled), fluid)
    # exact: box now 1 (x) by 2 (y) by 1 (z) centred at z=0.25: 0.25·2·1 m³ below z=0
    assert link.f_W_exact[2] == pytest.approx(9.8 * (1000 * 0.5 + 1 * 1.5), rel=1e-12)
    # Gazebo: local plane z_C = -0.25 on the box's own z (length 2): 0.75·1·1 m³ "below"
    assert link.f_W[2] == pytest.approx(9.8 * (1000 * 0.75 + 1 * 1.25), rel=1e-12)


def test_graded_mesh_gets_no_buoyancy_in_gazebo(tmp_path) -> None:
    mesh = trimesh.creation.box(extents=(1.0, 1.0, 1.0))
    path = tmp_path / "cube.stl"
    mesh.export(path)
    g = Geometry("mesh", mesh_uri=str(path), mesh_path=str(path))
    fluid = BuoyancyWorld("graded", 1000.0, ((0.0, 1.0),))
    link = link_hydrostatics(_link((Collision("c", Pose(), g, HERE),), 1.0,
                                   Pose(np.array([0.0, 0.0, -3.0]), np.eye(3))), fluid)
    assert np.all(link.f_W == 0.0)
    assert link.f_W_exact[2] == pytest.approx(1000.0 * 9.8, rel=1e-12)


def test_submerged_body_righting_moment_is_kinematic() -> None:
    """A sphere (B at its centre) with G 0.1 m below, tilted: the moment about G is
    p_GB × F_B, and the small-angle stiffness B·(z_B - z_G) is positive (stable)."""
    sphere = Collision("c", Pose(), Geometry("sphere", radius=0.5), HERE)
    inertial = Inertial(mass=400.0, X_BI=Pose(np.array([0.0, 0.0, -0.1]), np.eye(3)))
    tilt = Pose(np.array([0.0, 0.0, -5.0]), rotation_from_rpy(0.2, 0.0, 0.0))
    link = LinkRecord("auv::body", "auv", tilt, inertial, (sphere,), HERE)
    (model,) = model_hydrostatics([link], BuoyancyWorld("uniform", 1025.0))
    B = 1025.0 * 4 / 3 * math.pi * 0.125 * 9.8
    assert model.buoyancy == pytest.approx(B, rel=1e-12)
    r = np.asarray(tilt.R) @ np.array([0.0, 0.0, 0.1])  # G to B, world axes
    assert np.allclose(model.righting_moment_W, np.cross(r, [0.0, 0.0, B]), atol=1e-9)
    assert model.restoring_stiffness == pytest.approx(B * r[2], rel=1e-12)
    # righting: rolled by +0.2 about x, the moment about x is negative (back upright)
    assert model.righting_moment_W[0] < 0


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_corpus_buoyancy_worlds_are_read_as_gazebo_does() -> None:
    """Every corpus world with a Buoyancy plugin: its kind, density and layers as written."""
    from lxml import etree

    worlds = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".sdf", ".world")
                    and p.is_file() and b"buoyancy-system" in p.read_bytes())
    assert len(worlds) >= 10
    for path in worlds:
        fluid = read_buoyancy_world(path)
        assert fluid is not None, path
        root = etree.parse(str(path)).getroot()
        plugin = next(p for p in root.iter("plugin")
                      if "buoyancy-system" in (p.get("filename") or ""))
        uniform = plugin.find("uniform_fluid_density")
        if uniform is not None:
            assert fluid.kind == "uniform" and fluid.density == float(uniform.text)
        elif plugin.find("graded_buoyancy") is not None:
            graded = plugin.find("graded_buoyancy")
            assert fluid.kind == "graded"
            assert fluid.density == float(graded.findtext("default_density", "1000"))
            layers = sorted((float(c.findtext("above_depth")), float(c.findtext("density")))
                            for c in graded.findall("density_change"))
            assert list(fluid.layers) == layers
        assert fluid.enabled == tuple(e.text.strip() for e in plugin.findall("enable"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_gz_sim_graded_buoyancy_example_floats_and_sinks_as_its_comments_say() -> None:
    """gz-sim's examples/worlds/graded_buoyancy.sdf: the neutral boxes hover (net 0), the
    negative one sinks, the balloon rises, the box left out of <enable> gets nothing."""
    path = CORPUS / "gazebosim__gz-sim/examples/worlds/graded_buoyancy.sdf"
    fluid = read_buoyancy_world(path)
    assert fluid is not None and fluid.kind == "graded" and fluid.layers == ((0.0, 1.0),)
    doc = read_sdf_file(path, [])
    models = {m.name: m for m in model_hydrostatics(doc.links, fluid, read_model_poses(path))}
    for name in ("box_neutral_buoyancy", "box_neutral_buoyancy_collision_offset",
                 "multi_collision_neutral_buoyancy"):
        assert abs(models[name].net) <= 1e-9 * models[name].weight
    assert models["box_negative_buoyancy"].net < 0
    assert models["balloon_lighter_than_air"].net > 0
    assert models["box_no_buoyancy"].buoyancy == 0.0
    # the half-submerged negative box: (1000·0.5 + 1·0.5)·g
    assert models["box_negative_buoyancy"].buoyancy == pytest.approx(9.8 * 500.5, rel=1e-12)


def test_graded_rotated_sphere_gazebo_rotates_the_cap_centre_exact_does_not() -> None:
    """A half-submerged sphere rolled 90° about x: same volume both ways, but Gazebo places the
    water cap's centre (local (0, 0, -3r/8)) with the rotation, i.e. sideways at world
    (0, 3r/8, 0), where the exact centre stays straight below (0, 0, -3r/8) (gz-sim#3892)."""
    r = 0.4
    fluid = BuoyancyWorld("graded", 1000.0, ((0.0, 0.0),), g_W=(0.0, 0.0, -9.8))
    sphere = Collision("c", Pose(), Geometry("sphere", radius=r), HERE)
    rolled = Pose(np.zeros(3), rotation_from_rpy(math.pi / 2, 0.0, 0.0))
    link = link_hydrostatics(_link((sphere,), 1.0, rolled), fluid)
    half = 2.0 / 3.0 * math.pi * r**3
    assert link.f_W[2] == pytest.approx(1000 * 9.8 * half, rel=1e-12)
    assert link.f_W_exact[2] == pytest.approx(1000 * 9.8 * half, rel=1e-12)
    assert np.allclose(link.p_WB_exact, [0.0, 0.0, -3 * r / 8], atol=1e-12)
    assert np.allclose(link.p_WB, np.asarray(rolled.R) @ [0.0, 0.0, -3 * r / 8], atol=1e-12)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_cli_json_contract_on_the_graded_example(capsys) -> None:
    """`hydrostatics --json`: the documented keys, SI numbers, null for what is not finite,
    and the numbers the library gives."""
    import json

    path = CORPUS / "gazebosim__gz-sim/examples/worlds/graded_buoyancy.sdf"
    code, out, _ = run_cli(["hydrostatics", str(path), "--json", "--model", "box_*"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["fluid"]["kind"] == "graded"
    assert data["fluid"]["layers"] == [{"above": 0.0, "density": 1.0}]
    models = {m["name"]: m for m in data["models"]}
    assert set(models) == {"box_neutral_buoyancy", "box_neutral_buoyancy_collision_offset",
                           "box_negative_buoyancy", "box_no_buoyancy"}
    neg = models["box_negative_buoyancy"]
    for key in ("name", "mass", "volume", "fluid_density", "buoyancy", "weight", "p_WG", "p_WB",
                "links"):
        assert key in neg
    assert neg["mass"] == 1050.0 and neg["weight"] == pytest.approx(1050 * 9.8, rel=1e-15)
    assert neg["buoyancy"] == pytest.approx(9.8 * 500.5, rel=1e-12)
    assert neg["fluid_density"] == pytest.approx(500.5, rel=1e-12)
    assert neg["links"][0]["name"] == "box_negative_buoyancy::body"
    assert neg["links"][0]["volume"] == 1.0
    assert models["box_no_buoyancy"]["p_WB"] == [None, None, None]  # no force: no centre


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_cli_density_overrides_plugin_and_bad_input_is_one_line(tmp_path, capsys) -> None:
    import json

    path = CORPUS / "gazebosim__gz-sim/test/worlds/center_of_volume.sdf"
    run = ["hydrostatics", str(path), "--json"]
    code, out, _ = run_cli([*run, "--density", "1025"], capsys)
    data = json.loads(out)
    assert code == 0 and data["fluid"]["origin"] == "--density 1025"
    for m in data["models"]:
        assert m["buoyancy"] == pytest.approx(1025 * m["volume"] * 9.8, rel=1e-15)
    code, _, err = run_cli([*run, "--model", "nope"], capsys)
    assert code == 2 and err.count("\n") == 1 and "no model matches" in err
    broken = tmp_path / "w.sdf"
    # Inline: a density that is not a number, on line 1 (asserted).
    broken.write_text('<sdf version="1.9"><world name="w"><plugin filename="gz-sim-buoyancy-'
                      'system" name="gz::sim::systems::Buoyancy"><uniform_fluid_density>x'
                      '</uniform_fluid_density></plugin></world></sdf>')
    code, _, err = run_cli(["hydrostatics", str(broken)], capsys)
    assert code == 2 and err.count("\n") == 1 and "w.sdf:1" in err


def test_plot_marks_g_b_and_the_waterline(tmp_path, capsys) -> None:
    """`plot` of a graded world: G, B and the waterline are drawn (the SVG holds their
    legend entries and each model's labels), at the hydrostatics' positions."""
    from gzinertia.report.plot import HydroMarks

    ball = sdf.link("b", sdf.inertial(10.0, np.eye(3), com=(0, 0, -0.1)),
                    sdf.sphere(0.3, pose=None))
    text = sdf.world(sdf.buoyancy_plugin(default=1000.0, changes=[(0.0, 1.0)]),
                     sdf.nested_model("buoy", ball, pose=(0, 0, -1, 0, 0, 0)), version="1.10")
    path = tmp_path / "w.sdf"
    path.write_text(text)
    out = tmp_path / "w.svg"
    code, _, err = run_cli(["plot", str(path), "-o", str(out)], capsys)
    assert code == 0, err
    svg = out.read_text()
    for words in ("waterline", "centre of buoyancy", "G buoy", "B buoy"):
        assert words in svg
    from gzinertia.cli.plot import _hydro_marks

    doc = read_sdf_file(path, [])
    marks = _hydro_marks(path, list(doc.links))
    assert isinstance(marks, HydroMarks) and marks.waterline_z == 0.0
    (name, G, B), = marks.centres
    assert name == "buoy" and np.allclose(G, [0, 0, -1.1]) and np.allclose(B, [0, 0, -1.0])
