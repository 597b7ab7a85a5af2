"""One collision's buoyancy as a given gz-sim Buoyancy system computes it, beside the exact
geometry's: which shapes it counts, which mesh volume it takes, where it puts the centre of
buoyancy and how it slices a rotated shape in a graded fluid. What differs between releases is
a :class:`BuoyancyBehaviour` (one flag per row of :mod:`gzinertia.gazebo.releases`; the target
release's is :func:`gzinertia.gazebo.buoyancy_release.behaviour_of`).

Read from gz-sim ``src/systems/buoyancy/Buoyancy.cc`` at the mirror's head (93bbf3e, July
2026) for the behaviour before each change, and from the pull requests for after:

* gazebosim/gz-sim#3423 (``round_shapes``): the uniform fluid counts capsules, ellipsoids and
  cones (before: boxes, spheres, cylinders and meshes only, the rest "Unsupported collision
  geometry", 0); the graded fluid counts cylinders, capsules, ellipsoids and cones (before:
  boxes and spheres only). Meshes never get graded buoyancy.
* gazebosim/gz-common#877 (``signed_mesh_volume``): ``SubMesh::Volume`` is ``|Σ v1·(v2×v3)/6|``
  over a submesh's triangles; before, ``Σ |v1·(v2×v3)/6|`` per triangle (the submeshes do not
  matter then). ``Mesh::Centroid`` comes with it: ``Σ V_s·c_s / Σ V_s`` over submeshes, each
  ``c_s`` the signed tetrahedra's first moment over their signed volume.
* gazebosim/gz-sim#3909 (``centroid_and_scale``): each collision counts at its centroid (a
  cone's a quarter of its length above its base; a mesh's ``Mesh::Centroid`` times ``<scale>``
  componentwise), not its origin, also for the graded fluid's part above the highest layer;
  a mesh's volume is multiplied by the product of its ``<scale>``; before, ``<scale>`` ignored.
* gazebosim/gz-sim#3880 (``rotated_graded``; the bug gz-sim#3892): the graded fluid's layer
  plane is turned into the shape's axes, so a rotated shape is sliced by the true horizontal
  plane; before, by the plane ``z_C = h - z_WCo`` in the shape's own axes. With it the figures
  are the exact slices (the part above the highest layer at its true centre, as with
  gz-sim#3909: both are of unknown release and taken together,
  :func:`gzinertia.gazebo.buoyancy_release.behaviour_of`).

Frames: W world, B link (origin Bo), C collision; volumes in m³, buoyancy in N along "up"
(against gravity).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gzinertia.physics.collision_volume import collision_volume
from gzinertia.physics.graded_buoyancy import (
    buoyancy_centre,
    exact_fluid_force,
    graded_gazebo,
    up_vector,
)
from gzinertia.physics.mesh_load import (
    FILE_MESHES,
    MeshFileError,
    MeshSource,
    ShapeError,
    read_mesh,
)
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, Collision
from gzinertia.spatial.rotation import Pose, Vec3

__all__ = [
    "BuoyancyBehaviour",
    "CollisionBuoyancy",
    "MeshVolumes",
    "collision_buoyancy",
    "counts",
    "gz_common_mesh",
]

#: Shapes every release counts, in a uniform and in a graded fluid.
_UNIFORM_ALWAYS = ("box", "sphere", "cylinder", "mesh")
_GRADED_ALWAYS = ("box", "sphere")
#: Shapes counted only since gazebosim/gz-sim#3423.
_UNIFORM_ROUND = ("capsule", "ellipsoid", "cone")
_GRADED_ROUND = ("cylinder", "capsule", "ellipsoid", "cone")
#: Relative difference under which a cause is not named.
_SAME = 1e-9


@dataclass(frozen=True, repr=False, eq=False)
class BuoyancyBehaviour(ValueRecord):
    """What a gz-sim Buoyancy system does with a collision, one flag per change (see the
    module): gz-sim#3423, gz-common#877, gz-sim#3909, gz-sim#3880."""

    round_shapes: bool = True
    signed_mesh_volume: bool = False
    centroid_and_scale: bool = False
    rotated_graded: bool = False


def counts(kind: str, behaviour: BuoyancyBehaviour, graded: bool) -> bool:
    """Whether the Buoyancy system gives a collision of this kind any buoyancy."""
    if graded:
        return kind in _GRADED_ALWAYS or (behaviour.round_shapes and kind in _GRADED_ROUND)
    return kind in _UNIFORM_ALWAYS or (behaviour.round_shapes and kind in _UNIFORM_ROUND)


@dataclass(frozen=True, repr=False, eq=False)
class MeshVolumes(ValueRecord):
    """A mesh file's volume as gz-common computes it, unscaled, in the file's frame:
    ``per_triangle`` (before gz-common#877), ``signed`` (since) and ``centroid``
    (``Mesh::Centroid``, since; m)."""

    per_triangle: float
    signed: float
    centroid: Vec3


def gz_common_mesh(path: str, source: MeshSource = FILE_MESHES) -> MeshVolumes:
    """gz-common's ``Mesh::Volume`` before and after gazebosim/gz-common#877 and its
    ``Mesh::Centroid``, over the submeshes gz-common's loaders make of ``path``
    (:meth:`~gzinertia.io.mesh_source.MeshSource.submeshes`), computed once per process while
    the source's stamp of the mesh is unchanged. A mesh that is not read raises
    :class:`~gzinertia.physics.mesh_load.ShapeError`."""
    return _mesh_volumes(path, source, source.stamp(path))


@functools.lru_cache(maxsize=64)
def _mesh_volumes(path: str, source: MeshSource, stamp: Hashable) -> MeshVolumes:
    """:func:`gz_common_mesh` (``stamp`` is part of the key only)."""
    read_mesh(path, (1.0, 1.0, 1.0), source)
    try:
        parts = source.submeshes(path)
    except MeshFileError as exc:
        raise ShapeError(str(exc)) from None
    per_triangle, total, moment = 0.0, 0.0, np.zeros(3)
    for triangles in parts:
        t = np.asarray(triangles, dtype=float).reshape(-1, 3, 3)
        v = np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])) / 6.0
        per_triangle += float(np.abs(v).sum())
        signed = float(v.sum())
        if abs(signed) < 1e-16:
            continue  # gz-common: a submesh of no volume has its centroid at zero
        centroid = (v[:, None] * t.sum(axis=1)).sum(axis=0) / 4.0 / signed
        total += abs(signed)
        moment += abs(signed) * centroid
    centroid = moment / total if total >= 1e-16 else np.zeros(3)
    return MeshVolumes(per_triangle, total, centroid)


@dataclass(frozen=True, repr=False, eq=False)
class CollisionBuoyancy(ValueRecord):
    """One collision's buoyancy as a release computes it and by exact geometry.

    ``volume`` (m³) and ``p_BoCv_B`` (m, link frame B) are the release's volume and the point it
    counts it at (in a uniform fluid, the centre of buoyancy); ``buoyancy`` (N, along up) and
    ``p_WB`` (world) the force it applies at the link's pose in the fluid and where. The
    ``*_exact`` figures are the collision's solid's (``None``: it has none). ``causes`` says why
    they differ, each with its source."""

    name: str
    kind: str
    volume: float
    p_BoCv_B: Vec3
    buoyancy: float
    p_WB: Vec3
    volume_exact: float | None
    p_BoCv_B_exact: Vec3 | None
    buoyancy_exact: float | None
    p_WB_exact: Vec3 | None
    causes: tuple[str, ...] = field(default=())

    @property
    def size(self) -> float:
        """The collision's length scale, the cube root of its exact volume (m; 0 without)."""
        return max(self.volume_exact or 0.0, 0.0) ** (1.0 / 3.0)

    @property
    def force_difference(self) -> float | None:
        """``(buoyancy - buoyancy_exact) / buoyancy_exact`` (``None`` without exact buoyancy)."""
        if not self.buoyancy_exact:
            return None
        return (self.buoyancy - self.buoyancy_exact) / self.buoyancy_exact

    @property
    def centre_offset(self) -> float | None:
        """How far the release's centre of buoyancy is from the exact one (m, world; ``None``
        when either acts nowhere)."""
        if self.p_WB_exact is None or not self.buoyancy or not self.buoyancy_exact:
            return None
        return float(np.linalg.norm(np.asarray(self.p_WB) - np.asarray(self.p_WB_exact)))


def _release_volume(collision: Collision, behaviour: BuoyancyBehaviour,
                    exact: tuple[float | None, Any]) -> tuple[float, Any, list[str]]:
    """The release's volume of the collision and where it counts it (link frame), with the
    causes that make it differ from the exact solid's."""
    geometry, X_BC = collision.geometry, collision.X_BC
    origin = np.asarray(X_BC.p, dtype=float)
    volume_exact, p_exact = exact
    causes: list[str] = []
    if not counts(geometry.kind, behaviour, graded=False):
        if geometry.kind in _UNIFORM_ROUND:
            causes.append(f"no buoyancy for a {geometry.kind} before gazebosim/gz-sim#3423")
        return 0.0, origin, causes
    if geometry.kind != "mesh":
        if behaviour.centroid_and_scale and p_exact is not None:
            return volume_exact or 0.0, np.asarray(p_exact), causes
        if p_exact is not None and not np.allclose(p_exact, origin, rtol=0.0, atol=1e-12):
            causes.append("counted at its origin, not its centroid (before "
                          "gazebosim/gz-sim#3909)")
        return volume_exact or 0.0, origin, causes
    return _mesh_release(collision, behaviour, volume_exact, origin, causes)


def _mesh_release(collision: Collision, behaviour: BuoyancyBehaviour, volume_exact: float | None,
                  origin: Any, causes: list[str]) -> tuple[float, Any, list[str]]:
    """:func:`_release_volume` of a mesh collision."""
    geometry = collision.geometry
    if geometry.mesh_path is None:
        return 0.0, origin, [*causes, "its mesh did not resolve: no buoyancy"]
    try:
        mesh = gz_common_mesh(geometry.mesh_path)
    except ShapeError as exc:
        return 0.0, origin, [*causes, str(exc)]
    volume = mesh.signed if behaviour.signed_mesh_volume else mesh.per_triangle
    old_differs = abs(mesh.per_triangle - mesh.signed) > _SAME * mesh.signed
    if not behaviour.signed_mesh_volume and old_differs:
        causes.append("gz-common sums |v1·(v2×v3)/6| per triangle, more than the solid where "
                      "the mesh does not enclose its origin (before gazebosim/gz-common#877)")
    scale = np.asarray(geometry.scale, dtype=float)
    if behaviour.centroid_and_scale:
        centroid_C = np.asarray(mesh.centroid) * scale
        return volume * float(np.prod(scale)), collision.X_BC.transform_point(centroid_C), causes
    if not np.allclose(scale, 1.0):
        causes.append("its <scale> ignored (before gazebosim/gz-sim#3909)")
    if volume_exact and not np.allclose(mesh.centroid, 0.0, atol=1e-9 * volume_exact ** (1 / 3)):
        causes.append("counted at its origin, not its centroid (before gazebosim/gz-sim#3909)")
    return volume, origin, causes


def collision_buoyancy(collision: Collision, behaviour: BuoyancyBehaviour, X_WB: Pose,
                       fluid: BuoyancyWorld) -> CollisionBuoyancy:
    """The collision's buoyancy at the link pose ``X_WB`` in ``fluid`` as a Buoyancy system of
    this ``behaviour`` computes it, and by exact geometry (see the module and
    :class:`CollisionBuoyancy`)."""
    exact = collision_volume(collision)
    V_ex, p_ex = exact.volume, exact.p_BoCv_B
    volume, p_B, causes = _release_volume(collision, behaviour, (V_ex, p_ex))
    g_W = np.asarray(fluid.g_W, dtype=float)
    up = up_vector(g_W)
    g = float(np.linalg.norm(g_W))
    X_WC = X_WB @ collision.X_BC
    if fluid.kind == "uniform":
        force = fluid.density * g * volume
        p_WB = X_WB.transform_point(p_B)
        f_ex = None if V_ex is None else fluid.density * g * V_ex
        p_WB_ex = None if p_ex is None else X_WB.transform_point(p_ex)
        return CollisionBuoyancy(collision.name, collision.geometry.kind, volume, p_B, force,
                                 p_WB, V_ex, p_ex, f_ex, p_WB_ex, tuple(causes))
    graded, exact_force = _graded(collision, behaviour, X_WB, fluid, causes)
    force = float(graded[0] @ up)
    p_WB = buoyancy_centre(graded[0], graded[1], up, X_WC.p)
    f_ex, p_WB_ex = None, None
    if V_ex is not None:
        f_ex = float(exact_force[0] @ up)
        p_WB_ex = buoyancy_centre(exact_force[0], exact_force[1], up, X_WC.p)
    return CollisionBuoyancy(collision.name, collision.geometry.kind, volume, p_B, force, p_WB,
                             V_ex, p_ex, f_ex, p_WB_ex, tuple(causes))


def _graded(collision: Collision, behaviour: BuoyancyBehaviour, X_WB: Pose,
            fluid: BuoyancyWorld, causes: list[str]) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The release's and the exact ``(force_W, Σ w_i·p_i)`` in a graded fluid, adding the
    causes particular to it."""
    g_W = np.asarray(fluid.g_W, dtype=float)
    kind = collision.geometry.kind
    exact = exact_fluid_force(collision, X_WB, fluid, g_W)
    zero = (np.zeros(3), np.zeros(3))
    if not counts(kind, behaviour, graded=True):
        causes[:] = [f"no graded buoyancy for a {kind}" + (
            " (meshes get none in any release)" if kind == "mesh"
            else " before gazebosim/gz-sim#3423")]
        return zero, exact
    X_WC = X_WB @ collision.X_BC
    if behaviour.rotated_graded:  # true slices; the rest at the centroid (with gz-sim#3909)
        return exact, exact
    release = graded_gazebo(collision.geometry, X_WC, fluid, g_W,
                            centroid_top=behaviour.centroid_and_scale)
    f_rel, f_ex = float(release[0] @ up_vector(g_W)), float(exact[0] @ up_vector(g_W))
    tilted = not np.allclose(np.asarray(X_WC.R)[:, 2], up_vector(g_W), atol=1e-12)
    if tilted and (abs(f_rel - f_ex) > _SAME * max(abs(f_ex), 1e-300)
                   or not np.allclose(release[1], exact[1], rtol=1e-9, atol=1e-12)):
        causes.append("sliced by the layer planes in its own axes, not the true horizontal "
                      "(gazebosim/gz-sim#3892, fixed by gazebosim/gz-sim#3880)")
    return release, exact
