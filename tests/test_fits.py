"""Ellipsoid fits of a link's fluid-displacing shape (:mod:`gzinertia.physics.fits`), against oracles.

* ``mujoco``: the same collisions written as MJCF geoms with ``fluidshape="ellipsoid"`` and
  compiled by MuJoCo. Its ``geom_pos``/``geom_quat`` are the ellipsoid frames in the body (= link)
  frame, ``geom_size`` the semi-axes of boxes, ellipsoids and meshes, and ``geom_fluid[6:12]``
  the added masses and moments with the ellipsoid's volume folded in (fluid density 1), which
  our semi-axes through Tuckerman's closed form must reproduce (MuJoCo integrates κ with a
  15-point rule: ≈3e-6 at aspect ratios up to 10, DESIGN §5).
* ``volume``: Drake's ``CalcSpatialInertia`` of each shape at density 1, posed and summed in
  Drake, gives the volume, centroid and second moments the fitted ellipsoid must have.
* ``inertia``: Drake's ``CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid``.
* ``explicit``: Drake's ``RollPitchYaw`` for the pose.

Ellipsoids are compared as sets (centre and shape matrix ``R·diag(a²)·Rᵀ``), which is what the
added mass depends on, except where the frame itself is the oracle's (MuJoCo's geom frames).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLES, oracle_module, rel_err
from sdf_builders import (
    auto_inertial,
    box_geometry,
    collision,
    cylinder_geometry,
    ellipsoid_geometry,
    inertia_xml,
    inertial,
    mesh_geometry,
    plane_geometry,
    sphere_geometry,
    vec,
)
from union_oracle import united_moments

from gzinertia.errors import GzInertiaError
from gzinertia.physics.ellipsoid import PosedEllipsoid
from gzinertia.physics.fits import (
    DEFAULT_FIT,
    FIT_METHODS,
    EllipsoidFit,
    FitError,
    explicit_fit,
    fit_link,
)
from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_file, read_sdf_string
from gzinertia.spatial.algebra import transform_spatial
from gzinertia.spatial.tuckerman import ellipsoid_added_mass, ellipsoid_added_mass_matrix

mujoco = oracle_module("mujoco")

drake_geometry = oracle_module("pydrake.geometry")
drake_math = oracle_module("pydrake.math")
drake_tree = oracle_module("pydrake.multibody.tree")

PRIMITIVES = ("box", "sphere", "cylinder", "capsule", "ellipsoid")


# --- building the same link as SDF, MJCF and Drake shapes ---------------------------------------


@dataclass
class Shape:
    """One collision: kind, dimensions as SDF writes them, pose (xyz, rpy) in the link frame."""

    kind: str
    dims: tuple[float, ...]  # box sizes | radius | radius, length | radii | mesh scale
    xyz: np.ndarray
    rpy: np.ndarray
    mesh: Path | None = None


def write_obj(vertices: np.ndarray, faces: np.ndarray, path: Path) -> Path:
    """An OBJ file with every coordinate written exactly (``repr``)."""
    lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(vertices, float).tolist()]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(faces)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def convex_mesh(rng: np.random.Generator, path: Path) -> Path:
    """The convex hull of random points of an anisotropic cloud, off its own origin."""
    import trimesh

    points = rng.normal(size=(60, 3)) * [0.3, 0.2, 0.1] + [0.2, -0.1, 0.05]
    hull = trimesh.convex.convex_hull(points)
    return write_obj(hull.vertices, hull.faces, path)


def l_prism_mesh(path: Path) -> Path:
    """A non-convex L-shaped prism (closed, outward triangles)."""
    import trimesh

    outline = np.array([(0, 0), (1.0, 0), (1.0, 0.2), (0.2, 0.2), (0.2, 0.9), (0, 0.9)])
    n, height = len(outline), 0.3
    vertices = np.vstack([np.c_[outline, np.zeros(n)], np.c_[outline, np.full(n, height)]])
    faces = []
    for a, b, c in ((0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)):
        faces += [(a, c, b), (a + n, b + n, c + n)]
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, j, j + n), (i, j + n, i + n)]
    mesh = trimesh.Trimesh(vertices, faces, process=False)
    mesh.fix_normals()
    assert mesh.is_volume
    return write_obj(mesh.vertices, mesh.faces, path)


def random_shape(rng: np.random.Generator, kind: str, mesh: Path | None = None) -> Shape:
    """Dimensions in [0.1, 0.5] m (aspect ratios ≤ 7.5, where MuJoCo's κ is good to ~3e-6)."""
    a, b, c = (float(x) for x in rng.uniform(0.1, 0.5, size=3))
    dims: tuple[float, ...] = {
        "box": (a, b, c),
        "sphere": (a,),
        "cylinder": (a, b),
        "capsule": (a, b),
        "ellipsoid": (a, b, c),
        "mesh": tuple(float(x) for x in rng.uniform(0.6, 1.6, size=3)),  # <scale>
    }[kind]
    rpy = rng.uniform(-np.pi, np.pi, size=3)
    rpy[1] /= 2.0
    return Shape(kind, dims, rng.uniform(-0.5, 0.5, size=3), rpy, mesh)


def sdf_geometry(s: Shape) -> str:
    d = s.dims
    if s.kind == "box":
        return box_geometry(d)
    if s.kind == "sphere":
        return sphere_geometry(d[0])
    if s.kind in ("cylinder", "capsule"):
        return cylinder_geometry(d[0], d[1], kind=s.kind)
    if s.kind == "ellipsoid":
        return ellipsoid_geometry(d)
    return mesh_geometry(str(s.mesh), scale=d)


def sdf_link(collisions: str, inertial: str = "", tmp_path: Path | None = None) -> LinkRecord:
    """The single link ``m::body`` of an SDF 1.11 model (``<link>`` on line 3 of model.sdf)."""
    # Inline: errors must name line 3, the <link>'s (asserted).
    text = (
        '<?xml version="1.0"?>\n<sdf version="1.11"><model name="m">\n'
        f'<link name="body">\n{inertial}\n{collisions}\n</link>\n</model></sdf>\n'
    )
    name = str((tmp_path or Path("/tmp")) / "model.sdf")
    return read_sdf_string(text, name=name).links[0]


def sdf_collisions(shapes: list[Shape]) -> str:
    return "\n".join(
        collision(sdf_geometry(s), (*s.xyz, *s.rpy), f"c{i}") for i, s in enumerate(shapes)
    )


def mjcf_size(s: Shape) -> tuple[float, ...]:
    """MuJoCo's ``size`` of a primitive: half-lengths where SDF writes full lengths."""
    d = s.dims
    if s.kind == "box":
        return tuple(x / 2 for x in d)
    if s.kind in ("cylinder", "capsule"):
        return (d[0], d[1] / 2)
    return d  # sphere radius, ellipsoid radii


def mjcf_model(shapes: list[Shape], mesh_inertia: str | None = None) -> mujoco.MjModel:
    """The shapes as geoms of one free body (body frame = link frame), SDF sizes turned into
    MuJoCo's (half-lengths), SDF roll-pitch-yaw as MuJoCo's fixed-axis ``XYZ`` Euler angles."""
    assets, geoms = [], []
    inertia = f' inertia="{mesh_inertia}"' if mesh_inertia else ""
    for i, s in enumerate(shapes):
        pose = f'pos="{vec(s.xyz)}" euler="{vec(s.rpy)}"'
        if s.kind == "mesh":
            assets.append(f'<mesh name="mesh{i}" file="{s.mesh}" scale="{vec(s.dims)}"{inertia}/>')
            geoms.append(f'<geom type="mesh" mesh="mesh{i}" {pose} fluidshape="ellipsoid"/>')
        else:
            size = vec(mjcf_size(s))
            geoms.append(f'<geom type="{s.kind}" size="{size}" {pose} fluidshape="ellipsoid"/>')
    xml = (
        '<mujoco><compiler angle="radian" eulerseq="XYZ"/>'
        f"<asset>{''.join(assets)}</asset>"
        f'<worldbody><body name="body"><freejoint/>{"".join(geoms)}</body></worldbody></mujoco>'
    )
    return mujoco.MjModel.from_xml_string(xml)


def mujoco_R(quat: np.ndarray) -> np.ndarray:
    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, np.asarray(quat, dtype=float))
    return R.reshape(3, 3)


def A_BBo_B(fit: EllipsoidFit, density: float) -> np.ndarray:
    """Σ over the fit's ellipsoids of Tuckerman's ``A_EEo_E`` moved to Bo (linear-first)."""
    return sum(
        transform_spatial(
            ellipsoid_added_mass_matrix(e.semi_axes, density), e.X_FE.R, e.X_FE.p, "linear-first"
        )
        for e in fit.ellipsoids
    )


# --- mujoco -------------------------------------------------------------------------------------

KAPPA_TOL = 1e-5  # MuJoCo's κ quadrature (≈3e-6 at these aspect ratios)
MESH_TOL = 1e-6  # MuJoCo keeps mesh vertices in float32


def assert_matches_mujoco(fit: EllipsoidFit, shapes: list[Shape], model: mujoco.MjModel) -> None:
    assert fit.method == "mujoco"
    assert len(fit.ellipsoids) == len(shapes) == model.body_geomnum[1]
    A_mujoco = np.zeros((6, 6))
    for i, (e, s) in enumerate(zip(fit.ellipsoids, shapes, strict=True)):
        g = model.body_geomadr[1] + i
        assert e.label == f"c{i}"
        tol = MESH_TOL if s.kind == "mesh" else 1e-12
        # frame of the ellipsoid in the link: MuJoCo's geom frame (for a mesh, its centroid and
        # principal axes, whose signs are a convention: compare the axes up to sign)
        R_mj = mujoco_R(model.geom_quat[g])
        assert np.max(np.abs(e.X_FE.p - model.geom_pos[g])) < tol, s.kind
        if s.kind == "mesh":
            assert np.max(np.abs(np.abs(e.X_FE.R.T @ R_mj) - np.eye(3))) < 10 * MESH_TOL
        else:
            assert np.max(np.abs(e.X_FE.R - R_mj)) < 1e-12, s.kind
        if s.kind in ("box", "ellipsoid", "mesh"):  # MuJoCo's geom_size is the semi-axes
            assert rel_err(e.semi_axes, model.geom_size[g]) < tol, s.kind
        # added mass and moments of inertia, volume folded in (density 1)
        m_A, I_A = ellipsoid_added_mass(e.semi_axes, 1.0)
        fluid = model.geom_fluid[g]
        assert fluid[0] == 1.0  # ellipsoid model on
        assert np.max(np.abs(m_A - fluid[6:9])) < KAPPA_TOL * np.max(m_A), s.kind
        assert np.max(np.abs(I_A - fluid[9:12])) < KAPPA_TOL * np.max(m_A) * e.semi_axes.max() ** 2
        A_mujoco += transform_spatial(
            np.diag(fluid[6:12]), R_mj, model.geom_pos[g], "linear-first"
        )
    # everything together: the link's added mass about Bo, in link axes
    assert rel_err(A_BBo_B(fit, 1.0), A_mujoco) < KAPPA_TOL


@pytest.mark.oracle("mujoco")
def test_mujoco_fit_of_every_primitive_and_a_convex_mesh_equals_mujoco(
    rng: np.random.Generator, tmp_path: Path
) -> None:
    """Posed primitives plus a scaled convex mesh (MuJoCo's default mesh inertia, "legacy", is
    exact for convex meshes): frames, semi-axes and added mass as MuJoCo compiles them."""
    for trial in range(8):
        mesh = convex_mesh(rng, tmp_path / f"hull{trial}.obj")
        shapes = [random_shape(rng, k) for k in PRIMITIVES] + [random_shape(rng, "mesh", mesh)]
        rng.shuffle(shapes)
        link = sdf_link(sdf_collisions(shapes), tmp_path=tmp_path)
        fit = fit_link(link, "mujoco")
        assert_matches_mujoco(fit, shapes, mjcf_model(shapes))
        assert fit.approximation is None
        assert fit.description.startswith("mujoco fit")


@pytest.mark.oracle("mujoco")
def test_mujoco_fit_of_a_non_convex_mesh_equals_mujoco_exact_inertia(
    rng: np.random.Generator, tmp_path: Path
) -> None:
    """An L-shaped prism: its centroid and principal axes are those of the exact solid, as with
    MuJoCo's ``inertia="exact"``; its semi-axes reach the farthest vertex from the centroid along
    each axis (here not the bounding box's half-sizes)."""
    mesh = l_prism_mesh(tmp_path / "l.obj")
    for _ in range(4):
        shapes = [random_shape(rng, "mesh", mesh), random_shape(rng, "box")]
        fit = fit_link(sdf_link(sdf_collisions(shapes), tmp_path=tmp_path), "mujoco")
        assert_matches_mujoco(fit, shapes, mjcf_model(shapes, mesh_inertia="exact"))


def test_mujoco_fit_of_a_sphere_is_half_its_displaced_mass() -> None:
    """A sphere's added mass is ρV/2 on every axis and its moments vanish (Lamb), posed anywhere."""
    link = sdf_link(collision(sphere_geometry(0.25), (0.1, 0.2, 0.3, 0.4, 0.5, 0.6), "ball"))
    fit = fit_link(link, "mujoco")
    (ball,) = fit.ellipsoids
    rho, V = 1025.0, 4.0 / 3.0 * np.pi * 0.25**3
    A = ellipsoid_added_mass_matrix(ball.semi_axes, rho)
    np.testing.assert_allclose(np.diag(A), [rho * V / 2] * 3 + [0.0] * 3, rtol=1e-14, atol=0)
    np.testing.assert_allclose(ball.X_FE.p, [0.1, 0.2, 0.3], rtol=0, atol=0)


def test_spar_buoy_example_fits_stay_on_its_axes() -> None:
    """The example's hull is a 64-gon of revolution about z (equal x and y moments, so MuJoCo's
    own choice of mesh axes is arbitrary there): every fit keeps the link axes, is centred on
    the axis, and the mujoco fit reaches the farthest vertex from the centroid (trimesh)."""
    import trimesh

    link = read_sdf_file(EXAMPLES / "spar_buoy" / "model.sdf").link("spar_buoy::hull")
    collision = link.collisions[0]
    mesh = trimesh.load(collision.geometry.mesh_path, force="mesh")
    mesh.apply_scale(collision.geometry.scale)
    p_BoBc_B = collision.X_BC.transform_point(mesh.center_mass)
    farthest = np.max(np.abs(mesh.vertices - mesh.center_mass), axis=0)
    for method in ("volume", "mujoco", "inertia"):
        (e,) = fit_link(link, method).ellipsoids
        assert np.max(np.abs(e.X_FE.R - np.eye(3))) < 1e-12, method
        assert np.max(np.abs(e.X_FE.p[:2])) < 1e-12, method
        assert e.semi_axes[0] == pytest.approx(e.semi_axes[1], rel=1e-12), method
    (e,) = fit_link(link, "mujoco").ellipsoids
    np.testing.assert_allclose(e.semi_axes, farthest, rtol=1e-12)
    np.testing.assert_allclose(e.X_FE.p, p_BoBc_B, atol=1e-12)
    (e,) = fit_link(link, "volume").ellipsoids
    assert e.volume == pytest.approx(mesh.volume, rel=1e-12)


# --- volume -------------------------------------------------------------------------------------


def drake_shape(s: Shape, obj: Path | None) -> object:
    d = s.dims
    if s.kind == "box":
        return drake_geometry.Box(*d)
    if s.kind == "sphere":
        return drake_geometry.Sphere(d[0])
    if s.kind == "cylinder":
        return drake_geometry.Cylinder(*d)
    if s.kind == "capsule":
        return drake_geometry.Capsule(*d)
    if s.kind == "ellipsoid":
        return drake_geometry.Ellipsoid(*d)
    return drake_geometry.Mesh(str(obj), np.array(d))


def drake_union(shapes: list[Shape]) -> tuple[float, np.ndarray, np.ndarray]:
    """Volume, centroid and second-moment matrix ``S = ∫(r - c)(r - c)ᵀ dV`` of the shapes (link
    frame), each posed with Drake's ``RollPitchYaw`` and summed as Drake spatial inertias."""
    M_total = drake_tree.SpatialInertia.Zero()
    for s in shapes:
        M_CCo_C = drake_tree.CalcSpatialInertia(drake_shape(s, s.mesh), 1.0)
        R_BC = drake_math.RollPitchYaw(s.rpy).ToRotationMatrix()
        M_total += M_CCo_C.ReExpress(R_BC).Shift(-s.xyz)
    V, c = M_total.get_mass(), np.asarray(M_total.get_com())
    G = M_total.CalcRotationalInertia().ShiftToCenterOfMass(V, c).CopyToFullMatrix3()
    S = 0.5 * np.trace(G) * np.eye(3) - G
    return V, c, S


def assert_ellipsoid(e: PosedEllipsoid, center: np.ndarray, Q: np.ndarray, tol: float) -> None:
    assert np.max(np.abs(e.X_FE.p - center)) < tol * max(1.0, np.max(np.abs(center)))
    assert rel_err(e.inverse_quadric_matrix(), Q) < tol
    assert abs(np.linalg.det(e.X_FE.R) - 1.0) < 1e-14
    np.testing.assert_allclose(e.X_FE.R.T @ e.X_FE.R, np.eye(3), atol=1e-14)


@pytest.mark.oracle("pydrake")
def test_volume_fit_has_the_volume_centroid_and_moment_ratios_of_drakes_solids(
    rng: np.random.Generator, tmp_path: Path
) -> None:
    """Every primitive and a scaled mesh, posed at random: each fitted ellipsoid's volume and
    centre are Drake's for the shapes of its body, less their overlap (``union_oracle``) (all of them when they touch; shapes apart
    from the others are separate bodies, ``tests/test_fit_bodies.py``); its shape matrix
    ``R·diag(a²)·Rᵀ`` is proportional to Drake's second moments (a solid ellipsoid has
    ``S = V/5·diag(a², b², c²)``)."""
    for trial in range(10):
        mesh = convex_mesh(rng, tmp_path / f"hull{trial}.obj")
        shapes = [random_shape(rng, k) for k in PRIMITIVES] + [random_shape(rng, "mesh", mesh)]
        link = sdf_link(sdf_collisions(shapes), tmp_path=tmp_path)
        fit = fit_link(link, "volume")
        covered: list[int] = []
        for e in fit.ellipsoids:
            names = e.label.split("+") if e.label else [f"c{i}" for i in range(6)]
            body = [int(name[1:]) for name in names]
            covered += body
            V, c, S = drake_union([shapes[i] for i in body])
            # Drake sums the shapes: their overlap counted once (issue 24)
            V, c, G = united_moments(V, c, np.trace(S) * np.eye(3) - S,
                                     [link.collisions[i] for i in body])
            S = 0.5 * np.trace(G) * np.eye(3) - G
            assert rel_err(e.volume, V) < 1e-12
            Q = e.inverse_quadric_matrix()
            assert_ellipsoid(e, c, S * (np.trace(Q) / np.trace(S)), 1e-12)
        assert sorted(covered) == list(range(6))
        assert fit.method == "volume"
        assert (fit.ellipsoids[0].label is None) == (len(fit.ellipsoids) == 1)
        assert fit.description.startswith(
            "volume fit to 6 collisions (box, sphere, cylinder, capsule, ellipsoid, mesh)"
        )


@pytest.mark.oracle("pydrake")
def test_volume_fit_of_one_ellipsoid_is_that_ellipsoid(rng: np.random.Generator) -> None:
    """Also its added mass in the link frame, and the mujoco fit gives the same ellipsoid."""
    for _ in range(30):
        s = random_shape(rng, "ellipsoid")
        link = sdf_link(sdf_collisions([s]))
        R_BC = drake_math.RollPitchYaw(s.rpy).ToRotationMatrix().matrix()
        Q = R_BC @ np.diag(np.square(s.dims)) @ R_BC.T
        A_collision = transform_spatial(
            ellipsoid_added_mass_matrix(s.dims, 1000.0), R_BC, s.xyz, "linear-first"
        )
        for method in ("volume", "mujoco"):
            fit = fit_link(link, method)
            assert_ellipsoid(fit.ellipsoids[0], s.xyz, Q, 1e-12)
            assert rel_err(A_BBo_B(fit, 1000.0), A_collision) < 1e-12


def test_aligned_shapes_keep_the_link_axes() -> None:
    """A cylinder turned onto x (pitch written as 1.5707963, as files do) and a box beside it:
    the fitted E is B itself (to the file's precision), not an arbitrary roll about the axis
    of equal moments."""
    link = sdf_link(collision(cylinder_geometry(0.1, 1.2), (0, 0, 0, 0, 1.5707963, 0), "tube"))
    for method in ("volume", "inertia"):
        if method == "inertia":
            link = sdf_link(
                collision(sphere_geometry(1.0), None, "s"),
                inertial(3.0, np.diag([0.2, 0.2, 0.05]), com=(0.1, 0, 0), rpy=(0, 1.5707963, 0)),
            )
        (e,) = fit_link(link, method).ellipsoids
        assert np.max(np.abs(e.X_FE.R - np.eye(3))) < 1e-7, method
        assert e.semi_axes[0] > 2 * e.semi_axes[1]
        assert e.semi_axes[1] == pytest.approx(e.semi_axes[2], rel=1e-12)


def test_open_mesh_fits_say_they_used_its_repair(tmp_path: Path) -> None:
    """A box with one triangle missing is repaired (the hole filled, issue 24), not replaced
    by its convex hull; the fits say so."""
    import trimesh

    box = trimesh.creation.box(extents=(0.4, 0.2, 0.1))
    write_obj(box.vertices, box.faces[1:], tmp_path / "open.obj")  # one triangle missing
    link = sdf_link(collision(mesh_geometry(str(tmp_path / "open.obj")), None, "shell"),
                    tmp_path=tmp_path)
    for method in ("volume", "mujoco"):
        fit = fit_link(link, method)
        assert fit.approximation is not None
        assert "shell" in fit.approximation and "1 small holes filled" in fit.approximation
    # the repaired open box is the box: its volume, and MuJoCo's semi-axes its half-sizes
    assert fit_link(link, "volume").ellipsoids[0].volume == pytest.approx(0.008, rel=1e-12)
    (e,) = fit_link(link, "mujoco").ellipsoids
    assert rel_err(e.inverse_quadric_matrix(), np.diag([0.2, 0.1, 0.05]) ** 2) < 1e-15
    np.testing.assert_allclose(e.semi_axes, [0.05, 0.1, 0.2], rtol=1e-15)  # x: largest moment


# --- inertia ------------------------------------------------------------------------------------


def inertial_xml(m: float, xyz: np.ndarray, rpy: np.ndarray, I: np.ndarray) -> str:
    return inertial(m, I, com=xyz, rpy=rpy)


@pytest.mark.oracle("pydrake")
def test_inertia_fit_equals_drakes_solid_ellipsoid(rng: np.random.Generator) -> None:
    """Random mass, CoM, inertial rotation and valid inertia (a random solid ellipsoid's, in
    random axes): centre and shape as Drake's ``CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid``
    of ``M_BBo_B`` built in Drake from the SDF values."""
    for _ in range(50):
        m = rng.uniform(0.1, 50.0)
        abc = rng.uniform(0.05, 1.0, size=3)
        I_diag = m / 5.0 * np.array([abc[1] ** 2 + abc[2] ** 2, abc[0] ** 2 + abc[2] ** 2,
                                     abc[0] ** 2 + abc[1] ** 2])
        R = drake_math.RollPitchYaw(rng.uniform(-3, 3, size=3)).ToRotationMatrix().matrix()
        I_BBcm_I = R @ np.diag(I_diag) @ R.T
        xyz, rpy = rng.uniform(-1, 1, size=3), rng.uniform(-1.5, 1.5, size=3)
        link = sdf_link("", inertial_xml(m, xyz, rpy, I_BBcm_I))
        fit = fit_link(link, "inertia")
        (e,) = fit.ellipsoids

        I_I = drake_tree.RotationalInertia(*np.diag(I_BBcm_I), I_BBcm_I[0, 1], I_BBcm_I[0, 2],
                                I_BBcm_I[1, 2])
        I_B = I_I.ReExpress(drake_math.RollPitchYaw(rpy).ToRotationMatrix())
        M_BBo_B = drake_tree.SpatialInertia.MakeFromCentralInertia(m, xyz, I_B)
        semi, X_BA = M_BBo_B.CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
        R_BA = X_BA.rotation().matrix()
        Q = R_BA @ np.diag(np.square(semi)) @ R_BA.T
        assert_ellipsoid(e, X_BA.translation(), Q, 1e-10)
        np.testing.assert_allclose(np.sort(e.semi_axes), np.sort(abc), rtol=1e-10)
        assert fit.method == "inertia" and fit.description.startswith("inertia fit")


# --- explicit -----------------------------------------------------------------------------------


@pytest.mark.oracle("pydrake")
def test_explicit_fit_poses_the_ellipsoid_with_sdf_roll_pitch_yaw(
    rng: np.random.Generator,
) -> None:
    for _ in range(20):
        abc, xyz, rpy = rng.uniform(0.1, 2, size=3), rng.normal(size=3), rng.uniform(-3, 3, 3)
        fit = explicit_fit(tuple(abc), tuple(xyz), tuple(rpy))
        (e,) = fit.ellipsoids
        np.testing.assert_array_equal(e.semi_axes, abc)
        np.testing.assert_array_equal(e.X_FE.p, xyz)
        R = drake_math.RollPitchYaw(rpy).ToRotationMatrix().matrix()
        assert np.max(np.abs(e.X_FE.R - R)) < 1e-14
        assert fit.method == "explicit" and fit.description.startswith("explicit")
    (e,) = explicit_fit([0.3, 0.2, 0.1]).ellipsoids
    assert np.array_equal(e.X_FE.R, np.eye(3)) and not e.X_FE.p.any()


@pytest.mark.parametrize(
    "semi_axes, center, rpy",
    [
        ((0.1, 0.0, 0.2), (0, 0, 0), (0, 0, 0)),
        ((0.1, -0.1, 0.2), (0, 0, 0), (0, 0, 0)),
        ((0.1, float("nan"), 0.2), (0, 0, 0), (0, 0, 0)),
        ((0.1, 0.2), (0, 0, 0), (0, 0, 0)),
        ("a,b,c", (0, 0, 0), (0, 0, 0)),
        ((0.1, 0.2, 0.3), (0, float("inf"), 0), (0, 0, 0)),
        ((0.1, 0.2, 0.3), (0, 0, 0), (0, 0)),
    ],
)
def test_explicit_fit_rejects_bad_values(semi_axes: object, center: object, rpy: object) -> None:
    with pytest.raises(FitError):
        explicit_fit(semi_axes, center, rpy)


# --- what users can get wrong -------------------------------------------------------------------

BOX = collision(box_geometry((1, 0.5, 0.2)), None, "hull")
I_GOOD = np.diag([0.1, 0.2, 0.25])
GOOD_INERTIAL = inertial(2.0, I_GOOD, posed=False)


def _flat(kind: str, size: tuple[float, ...], name: str = "flat") -> str:
    """A collision of zero volume."""
    geometry = box_geometry(size) if kind == "box" else cylinder_geometry(*size)
    return collision(geometry, None, name)


@pytest.mark.parametrize(
    "method, collisions, inertial, reason",
    [
        ("volume", "", GOOD_INERTIAL, "no <collision>"),
        ("mujoco", "", GOOD_INERTIAL, "no <collision>"),
        ("volume", collision(plane_geometry((0, 0, 1)), None, "floor") + BOX, GOOD_INERTIAL,
         "plane"),
        ("mujoco", collision("<heightmap><uri>h.png</uri></heightmap>", None, "sea"),
         GOOD_INERTIAL, "heightmap"),
        ("volume", collision(mesh_geometry("model://nowhere/hull.stl"), None, "hull"),
         GOOD_INERTIAL, "did not resolve"),
        ("mujoco", collision(mesh_geometry("missing.stl"), None, "hull"), GOOD_INERTIAL,
         "did not resolve"),
        ("mujoco", _flat("box", (1, 0.5, 0)), GOOD_INERTIAL, "degenerate"),
        ("volume", _flat("box", (1, 0.5, 0)), GOOD_INERTIAL, "zero volume"),
        ("mujoco", _flat("cylinder", (0.1, 0), "line"), GOOD_INERTIAL, "degenerate"),
        ("inertia", BOX, "", "no <inertial>"),
        ("inertia", BOX, inertial(2.0, None, posed=False), "default unit inertia"),
        # URDF-style attributes (GZI109) stay inline: the libsdformat-ignored form is the point.
        ("inertia", BOX, "<inertial><mass>2</mass><inertia ixx='1' iyy='1' izz='1'/></inertial>",
         "default unit inertia"),
        ("inertia", BOX, auto_inertial(mass=2.0, extra=inertia_xml(I_GOOD)), "auto"),
        ("inertia", BOX, inertial(2.0, np.diag([0.1, 0.2, 0.5]), posed=False),
         "triangle inequality"),
        ("inertia", BOX, inertial(2.0, np.diag([0.1, 0.2, 0.3]), posed=False), "degenerate"),
        ("inertia", BOX, inertial(0.0, I_GOOD, posed=False), "positive mass"),
    ],
)
def test_link_that_cannot_be_fitted_names_itself_and_another_fit(
    method: str, collisions: str, inertial: str, reason: str, tmp_path: Path
) -> None:
    link = sdf_link(collisions, inertial, tmp_path=tmp_path)
    with pytest.raises(FitError) as info:
        fit_link(link, method)
    message = str(info.value)
    assert isinstance(info.value, GzInertiaError)
    assert f"{tmp_path / 'model.sdf'}:3" in message and "'m::body'" in message
    assert reason in message
    assert "explicit_fit" in message  # the library's spelling of the CLI's --semi-axes
    other = "'volume' fit" if method == "inertia" else "'inertia' fit"
    assert other in message


def test_methods_and_the_explicit_entry_point() -> None:
    assert set(FIT_METHODS) == {"mujoco", "volume", "inertia", "explicit"}
    assert DEFAULT_FIT == "volume" == FIT_METHODS[0]
    link = sdf_link(BOX, GOOD_INERTIAL)
    with pytest.raises(ValueError, match="explicit_fit"):
        fit_link(link, "explicit")
    for method in ("volume", "mujoco", "inertia"):
        fit = fit_link(link, method)
        assert fit.method == method and fit.description.startswith(method)
