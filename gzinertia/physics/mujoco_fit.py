"""The ``mujoco`` ellipsoid fit: MuJoCo's ``fluidshape="ellipsoid"`` rule, one ellipsoid per
collision (:mod:`gzinertia.physics.fits` describes the rule), each posed in the link frame B
by ``X_BE = X_BC·X_CE``."""

from __future__ import annotations

import numpy as np

from gzinertia.physics.contact_groups import cone_support
from gzinertia.physics.ellipsoid import PosedEllipsoid, primitive_semi_axes
from gzinertia.physics.ellipsoid_fit import EllipsoidFit, check_semi_axes, unfit
from gzinertia.physics.fit_collisions import (
    approximations,
    collision_label,
    kinds,
    shape_error,
    usable_collisions,
    where,
)
from gzinertia.physics.principal_frame import nearest_to_link, principal_frame
from gzinertia.physics.shapes import ShapeError, load_mesh
from gzinertia.physics.shapes import solid_properties as geometry_solid
from gzinertia.records import Collision, Geometry, LinkRecord
from gzinertia.spatial.rotation import Pose, Vec3


def _mesh_vertices_C(geometry: Geometry) -> Vec3:
    """The mesh's vertices in the collision frame C, after ``<scale>`` (shape (n, 3), m)."""
    assert geometry.mesh_path is not None
    return np.asarray(load_mesh(geometry.mesh_path, geometry.scale).vertices, dtype=float)


def _mujoco_cone(radius: float, length: float, geometry: Geometry) -> tuple[Vec3, Pose, None]:
    """MuJoCo has no cone: a cone reaches it as a mesh, so its mesh rule applies, with the
    cone's exact extent in place of vertices: E at the centroid ``(0, 0, -L/4)`` on the
    principal axes (largest moment on x), semi-axes the cone's furthest reach from the
    centroid along each (``max(h(e) - c·e, h(-e) + c·e)`` with the support function h)."""
    solid = geometry_solid(geometry)
    moments, R_CP = principal_frame(solid.G_FFc_F)
    _moments, R_CE = nearest_to_link(moments, R_CP, descending=True)
    c = np.asarray(solid.p_FoFc_F, dtype=float)
    h = cone_support(radius, length)
    semi = np.array([max(float(h(e) @ e) - float(c @ e), float(h(-e) @ -e) + float(c @ e))
                     for e in np.asarray(R_CE).T])
    return semi, Pose(c, R_CE), None


def mujoco_semi_axes_and_frame(geometry: Geometry) -> tuple[Vec3, Pose, str | None]:
    """MuJoCo's fluid-ellipsoid semi-axes of one collision geometry, the frame E they are along
    (``X_CE`` in the collision frame C) and the shape's approximation note.

    Primitives: E = C. Meshes: E at the solid's centroid on its principal axes, x along the
    largest principal moment (MuJoCo's mesh frame); semi-axes ``max|v_E|`` over the vertices.
    Raises :class:`ShapeError` for a geometry without a solid.
    """
    kind = geometry.kind
    primitive = primitive_semi_axes(geometry)
    if primitive is not None:
        return primitive, Pose(), None
    if kind == "mesh":
        solid = geometry_solid(geometry)  # validates the mesh (ShapeError otherwise)
        moments, R_CP = principal_frame(solid.G_FFc_F)
        # MuJoCo's mesh frame: descending moments (x the largest); signs as near C as possible
        _moments, R_CE = nearest_to_link(moments, R_CP, descending=True)
        X_CE = Pose(solid.p_FoFc_F, R_CE)
        v_E = (_mesh_vertices_C(geometry) - solid.p_FoFc_F) @ R_CE
        return np.max(np.abs(v_E), axis=0), X_CE, solid.approximation
    if kind == "cone" and geometry.radius is not None and geometry.length is not None:
        return _mujoco_cone(geometry.radius, geometry.length, geometry)
    if kind in ("sphere", "capsule", "cylinder", "box", "ellipsoid", "cone"):
        raise ShapeError(f"the {kind} geometry is missing its dimensions")
    raise ShapeError(f"a {kind} geometry has no MuJoCo fluid ellipsoid")


def mujoco_fit(link: LinkRecord) -> EllipsoidFit:
    """The ``mujoco`` fit of the link: one ellipsoid per collision
    (:func:`mujoco_semi_axes_and_frame`), posed in the link frame B; a
    :class:`~gzinertia.physics.ellipsoid_fit.FitError` naming the collision otherwise."""
    collisions = usable_collisions(link, "mujoco")
    ellipsoids: list[PosedEllipsoid] = []
    notes: list[tuple[Collision, str | None]] = []
    for c in collisions:
        try:
            semi_axes, X_CE, note = mujoco_semi_axes_and_frame(c.geometry)
        except ShapeError as exc:
            raise shape_error(link, c, exc) from exc
        problem = check_semi_axes(semi_axes, f"the MuJoCo ellipsoid of {collision_label(c)}")
        if problem:
            raise unfit(f"{where(link)}: {problem}", "inertia")
        ellipsoids.append(PosedEllipsoid(semi_axes, c.X_BC @ X_CE, c.name))
        notes.append((c, note))
    n = len(ellipsoids)
    what = "one ellipsoid" if n == 1 else f"{n} ellipsoids, one per collision"
    return EllipsoidFit(
        "mujoco",
        tuple(ellipsoids),
        f"mujoco fit (MuJoCo's fluidshape=ellipsoid rule): {what} ({kinds(collisions)})",
        approximations(notes),
    )

