"""Cones (SDFormat 1.11 ``<cone>``: ``<radius>`` and ``<length>`` along z, base at ``-L/2``,
apex at ``+L/2``, as gz-math's ``Cone``) wherever shapes are read: the reader, the solid
(closed forms; trimesh's ``creation.cone`` meshed finely), ``<inertial auto="true">`` against
gz-math's ``MassMatrix3::SetFromConeZ`` and libsdformat's ``Cone::CalculateInertial``
(transcribed below; libsdformat 12, the compiled oracle, has no cone), Gazebo's buoyancy
(volume at the collision origin; graded slices), the contact groups' support function,
MuJoCo's fluid ellipsoid of a cone mesh (MuJoCo itself), and the BEM surface mesh."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from conftest import oracle_module

from gzinertia.physics.collision_mesh import collision_trimesh
from gzinertia.physics.hydrostatics import link_hydrostatics
from gzinertia.physics.shapes import solid_properties
from gzinertia.physics.volume_below import volume_below
from gzinertia.records import BuoyancyWorld, Collision, Geometry, SourceRef
from gzinertia.sdf import read_sdf_file
from gzinertia.spatial.rotation import Pose, rotation_from_rpy

mujoco = oracle_module("mujoco")
HERE = SourceRef("test", 1)
R, L = 0.3, 1.2
CONE = Geometry("cone", radius=R, length=L)


def gz_math_cone_moi(mass: float, length: float, radius: float) -> np.ndarray:
    """gz-math ``MassMatrix3::SetFromConeZ(length, radius, rot)`` (include/gz/math/
    MassMatrix3.hh, main branch, July 2026), transcribed: principal moments about the centre of
    mass, ``L(0,0) = L(1,1) = 3·m·(4r² + l²)/80``, ``L(2,2) = 3·m·r²/10``, rotated by ``rot``
    (identity for an SDF collision's cone)."""
    transverse = 3.0 * mass * (4.0 * radius**2 + length**2) / 80.0
    return np.diag([transverse, transverse, 3.0 * mass * radius**2 / 10.0])


def cone_sdf(pose: sdf.Pose6 = sdf.ORIGIN, density: float = 500.0, shape: str = "") -> str:
    """A link whose inertial is computed (``auto``) from one cone collision (``shape``: another
    geometry body in its place) of ``density`` at ``pose``."""
    shape = shape or sdf.cylinder_geometry(R, L, kind="cone")
    link = sdf.link("l", sdf.auto_inertial(density), sdf.collision(shape, pose))
    return sdf.model(link, version="1.11")


def test_reader_reads_cones_with_the_specs_defaults(tmp_path: Path) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(cone_sdf())
    (c,) = read_sdf_file(path).links[0].collisions
    assert c.geometry == CONE
    path.write_text(cone_sdf(shape="<cone/>"))  # cone_shape.sdf: radius 1, length 1 (defaults)
    (c,) = read_sdf_file(path).links[0].collisions
    assert (c.geometry.kind, c.geometry.radius, c.geometry.length) == ("cone", 1.0, 1.0)


def test_negative_cone_radius_is_one_line_naming_the_file(tmp_path: Path, capsys) -> None:
    from conftest import run_cli

    path = tmp_path / "m.sdf"
    path.write_text(cone_sdf(shape="<cone><radius>-1</radius><length>1</length></cone>"))
    code, _, err = run_cli(["show", str(path)], capsys)
    assert code == 2 and err.count("\n") == 1 and str(path) in err and "negative" in err


def test_cone_solid_closed_forms_and_trimesh() -> None:
    """V = π·r²·h/3, the centroid h/4 above the base (z = -L/4), the inertia about it: the
    closed forms, and trimesh's mass properties of ``creation.cone`` meshed ever finer (error
    ∝ 1/N², Richardson-extrapolated to 1e-6 relative)."""
    s = solid_properties(CONE)
    assert s.volume == pytest.approx(math.pi * R * R * L / 3, rel=1e-15)
    base = -L / 2
    assert s.p_FoFc_F == pytest.approx([0.0, 0.0, base + L / 4], abs=1e-15)
    props = []
    for n in (512, 1024):
        mesh = trimesh.creation.cone(radius=R, height=L, sections=n)
        mesh.apply_translation([0.0, 0.0, -L / 2])
        assert mesh.is_volume
        props.append((mesh.volume, np.asarray(mesh.center_mass), np.asarray(mesh.moment_inertia)))
        assert np.allclose(mesh.center_mass, s.p_FoFc_F, atol=1e-12)  # any regular base
    volume = (4 * props[1][0] - props[0][0]) / 3
    G = (4 * props[1][2] - props[0][2]) / 3
    assert volume == pytest.approx(s.volume, rel=1e-6)
    assert np.allclose(G, s.G_FFc_F, atol=1e-6 * np.abs(s.G_FFc_F).max())


def test_auto_inertial_of_a_posed_cone_is_gz_maths() -> None:
    """``<inertial auto="true">`` of a cone collision posed in the link: mass ρ·V, centre of
    mass at the pose applied to libsdformat's ``Cone::CalculateInertial`` pose ``(0, 0,
    -L/4)``, inertia gz-math's ``SetFromConeZ`` re-expressed in link axes."""
    import tempfile

    rho, xyz, rpy = 500.0, np.array([0.1, -0.2, 0.3]), (0.3, -0.5, 0.8)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.sdf"
        path.write_text(cone_sdf((*xyz, *rpy), rho))
        inertial = read_sdf_file(path).links[0].inertial
    mass = rho * math.pi * R * R * L / 3
    R_BC = np.asarray(rotation_from_rpy(*rpy))
    assert inertial.mass == pytest.approx(mass, rel=1e-14)
    assert np.allclose(inertial.p_BoBcm_B, xyz + R_BC @ [0.0, 0.0, -0.25 * L], atol=1e-15)
    I_B = R_BC @ gz_math_cone_moi(mass, L, R) @ R_BC.T
    assert np.allclose(inertial.I_BBcm_B, I_B, atol=1e-12 * np.abs(I_B).max())


@pytest.mark.oracle("sdformat")
def test_libsdformat_oracle_knows_no_cone(tmp_path: Path) -> None:
    """The compiled oracle is libsdformat 12 (SDFormat ≤ 1.9): ``<cone>`` (1.11) and
    ``<inertial auto>`` are unknown to it, so it cannot check cones; skipped when it says so
    (its link keeps the default 1 kg), compared when a newer libsdformat computes them."""
    from oracles.sdformat_oracle import read_with_sdformat

    path = tmp_path / "m.sdf"
    path.write_text(cone_sdf())
    try:
        [oracle] = read_with_sdformat([path])
    except RuntimeError as exc:  # pragma: no cover - needs g++ and libsdformat
        pytest.skip(str(exc))
    (link,) = oracle["links"]
    ours = read_sdf_file(path).links[0].inertial
    if link["mass"] == 1.0:
        pytest.skip("libsdformat 12 has no <cone> nor <inertial auto>: no cone oracle")
    assert link["mass"] == pytest.approx(ours.mass, rel=1e-12)  # pragma: no cover


def test_gazebo_counts_a_cone_at_its_origin_not_its_centroid(tmp_path: Path, capsys) -> None:
    """gz-sim's Buoyancy weights each collision's volume at its origin: a cone's centre of
    buoyancy is L/4 too high; its volume is exact. `hydrostatics` reports the difference, and
    GZI305 flags it on a cone that hovers (mass = the water it displaces)."""
    import json

    from audit_helpers import findings_of
    from conftest import run_cli

    link = _link([Collision("c", Pose(), CONE, HERE)])
    h = link_hydrostatics(link, BuoyancyWorld())
    assert h.volume == pytest.approx(h.volume_exact, rel=1e-15)
    assert np.allclose(h.p_BoBv_B, 0.0)
    assert np.allclose(h.p_BoBv_B_exact, [0.0, 0.0, -L / 4], atol=1e-15)
    path = tmp_path / "m.sdf"
    path.write_text(cone_sdf(density=1000.0))
    code, out, err = run_cli(["hydrostatics", str(path), "--json"], capsys)
    assert code == 0, err
    (model,) = json.loads(out)["models"]
    assert any("centre of buoyancy" in d for d in model["differences"])
    (finding,) = findings_of(tmp_path / "a", cone_sdf(density=1000.0), "GZI305")
    assert "centre of volume" in finding.message


def _link(collisions: list[Collision], X_WB: Pose | None = None):  # type: ignore[no-untyped-def]
    from gzinertia.records import Inertial, LinkRecord

    return LinkRecord("m::l", "m", X_WB or Pose(), Inertial(mass=100.0), tuple(collisions), HERE)


def test_graded_upright_cone_gazebo_and_exact() -> None:
    """A cone apex up, its base 0.3 L below the surface, water (1000) below air (1.2): the
    force is ρ_w·V_wet + ρ_a·V_dry (closed form of the frustum below the plane) both ways;
    exact B from the two parts' centroids; Gazebo's B places the dry part as if the whole
    cone's centroid were its origin."""
    g = 9.8
    world = BuoyancyWorld(kind="graded", density=1000.0, layers=((0.0, 1.2),))
    z0 = -0.3 * L + L / 2  # origin height: base at -0.3 L
    link = _link([Collision("c", Pose(), CONE, HERE)], Pose([0.0, 0.0, z0]))
    h = link_hydrostatics(link, world)
    V = math.pi * R * R * L / 3
    u = L - 0.3 * L  # the dry tip's height
    V_dry = math.pi * (R * u / L) ** 2 * u / 3
    V_wet = V - V_dry
    z_dry = 0.0 + u / 4  # the tip cone's centroid: a quarter of its height above its base
    z_all = z0 - L / 4
    z_wet = (V * z_all - V_dry * z_dry) / V_wet
    w_wet, w_dry = 1000.0 * V_wet * g, 1.2 * V_dry * g
    assert h.f_W[2] == pytest.approx(w_wet + w_dry, rel=1e-12)
    assert h.f_W_exact[2] == pytest.approx(w_wet + w_dry, rel=1e-12)
    assert h.p_WB_exact[2] == pytest.approx((w_wet * z_wet + w_dry * z_dry) / (w_wet + w_dry),
                                            abs=1e-12)
    z_dry_gz = z0 + (0.0 - V_wet * (z_wet - z0)) / V_dry  # Gazebo: whole centroid at origin
    assert h.p_WB[2] == pytest.approx((w_wet * z_wet + w_dry * z_dry_gz) / (w_wet + w_dry),
                                      abs=1e-12)
    V_b, M_b = volume_below(CONE, 0.0 - z0)
    assert V_b == pytest.approx(V_wet, rel=1e-12)
    assert M_b / V_b == pytest.approx(z_wet - z0, abs=1e-12)


def test_graded_cone_upside_down_exact_slices_follow_the_mesh() -> None:
    """Apex down (rolled by π): the exact slices are the mesh's, not the upright closed forms;
    the wet tip's volume and centroid are the closed forms of a cone of that height (to the
    tessellation of the 256-segment mesh, about 1e-4)."""
    world = BuoyancyWorld(kind="graded", density=1000.0, layers=((0.0, 0.0),))
    link = _link([Collision("c", Pose(), CONE, HERE)],
                 Pose([0.0, 0.0, 0.0], rotation_from_rpy(math.pi, 0.0, 0.0)))
    h = link_hydrostatics(link, world)
    tip = L / 2  # the apex at -L/2: a tip of height L/2 under water, base radius R/2
    V_tip = math.pi * (R / 2) ** 2 * tip / 3
    assert h.f_W_exact[2] == pytest.approx(1000.0 * 9.8 * V_tip, rel=2e-4)
    assert h.p_WB_exact[2] == pytest.approx(-tip + 3 * tip / 4, rel=1e-3)


def test_cone_support_matches_the_fine_mesh_hull() -> None:
    from gzinertia.physics.contact_groups import cone_support

    mesh = collision_trimesh(Collision("c", Pose(), CONE, HERE), sections=4096)
    support = cone_support(R, L)
    rng = np.random.default_rng(5)
    for d in rng.normal(size=(50, 3)):
        reach = float(support(d) @ d)
        assert reach == pytest.approx(float(np.max(mesh.vertices @ d)),
                                      abs=1e-6 * np.linalg.norm(d))


@pytest.mark.oracle("mujoco")
@pytest.mark.parametrize("size", [(0.3, 1.2), (1.0, 0.5)])
def test_mujoco_fit_of_a_cone_is_mujocos_mesh_ellipsoid(size: tuple[float, float]) -> None:
    """MuJoCo has no cone: given the cone as a mesh (720 segments) it sizes the fluid
    ellipsoid in the mesh's principal frame at its centroid; ours equals it (float32)."""
    from gzinertia.physics.fits import mujoco_semi_axes_and_frame

    r, length = size
    semi, X_CE, _ = mujoco_semi_axes_and_frame(Geometry("cone", radius=r, length=length))
    mesh = trimesh.creation.cone(radius=r, height=length, sections=720)
    mesh.apply_translation([0.0, 0.0, -length / 2])
    vertex = " ".join(f"{x:.17g}" for x in mesh.vertices.ravel())
    face = " ".join(str(i) for i in mesh.faces.ravel())
    model = mujoco.MjModel.from_xml_string(
        f'<mujoco><asset><mesh name="c" vertex="{vertex}" face="{face}" inertia="exact"/>'
        '</asset><worldbody><body><freejoint/><geom type="mesh" mesh="c" '
        'fluidshape="ellipsoid"/></body></worldbody></mujoco>')
    R_mj = np.zeros(9)
    mujoco.mju_quat2Mat(R_mj, model.geom_quat[0])
    R_mj = R_mj.reshape(3, 3)
    assert np.allclose(semi, model.geom_size[0], rtol=1e-6)
    assert np.allclose(X_CE.p, model.geom_pos[0], atol=1e-6)
    Q_ours = X_CE.R @ np.diag(semi**2) @ X_CE.R.T  # the ellipsoid, whatever its axes' signs
    Q_mj = R_mj @ np.diag(model.geom_size[0] ** 2) @ R_mj.T
    assert np.allclose(Q_ours, Q_mj, atol=1e-6)


def test_bem_surface_of_a_cone_encloses_its_volume() -> None:
    """The BEM mesher's cone (manifold3d): closed, its volume the closed form's to the
    polygon's tessellation."""
    from gzinertia.physics.surface_mesh import link_surface

    surface = link_surface([Collision("c", Pose(), CONE, HERE)], 0.02)
    mesh = trimesh.Trimesh(surface.vertices, surface.faces)
    assert mesh.is_volume
    assert mesh.volume == pytest.approx(math.pi * R * R * L / 3, rel=1e-2)
    assert np.allclose(mesh.center_mass, [0.0, 0.0, -L / 4], atol=1e-3)
