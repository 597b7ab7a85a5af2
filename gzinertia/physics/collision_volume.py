"""One collision's displaced volume as gz-sim's Buoyancy system takes it, next to the exact
solid's, and a link's sum as Gazebo makes it (gz-sim ``src/systems/buoyancy/Buoyancy.cc``,
gz-math shapes, gz-common ``Mesh::Volume``; :mod:`gzinertia.physics.hydrostatics` says what
Gazebo does). Volumes in m³, centres in the link frame B (m).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

import numpy as np

from gzinertia.physics.mesh_load import (
    FILE_MESHES,
    MeshFileError,
    MeshSource,
    ShapeError,
    read_mesh,
)
from gzinertia.physics.shapes import collision_solid
from gzinertia.physics.volume_below import GRADED_SHAPES
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.rotation import Vec3


@dataclass(frozen=True, repr=False, eq=False)
class CollisionVolume(ValueRecord):
    """One collision's displaced volume: Gazebo's (``volume_gz``, centre at the collision origin
    ``p_BoCv_B_gz``) and the exact solid's (``volume``, centroid ``p_BoCv_B``; ``None`` when the
    geometry has no solid), in the link frame B (m³, m)."""

    name: str
    kind: str
    volume_gz: float
    p_BoCv_B_gz: Vec3
    volume: float | None
    p_BoCv_B: Vec3 | None
    note: str | None = None
    #: How many submeshes gz-common builds from a mesh file (:func:`gazebo_submesh_volumes`;
    #: Gazebo's volume sums their absolute volumes); 1 for other shapes.
    submeshes: int = 1
    #: The mesh file (``None`` for other shapes, or a mesh that did not resolve) and whether
    #: its ``<scale>`` is not 1 (Gazebo's volume ignores it).
    mesh_path: str | None = None
    scaled: bool = False


def gazebo_submesh_volumes(path: str, source: MeshSource = FILE_MESHES) -> tuple[float, ...]:
    """Each submesh's ``SubMesh::Volume`` as gz-common computes it: ``|Σ v1·(v2×v3)/6|`` over
    the submesh's triangles, in the file's units, unscaled; one per submesh of the file as
    gz-common's loaders split it, read from ``source``
    (:meth:`~gzinertia.io.mesh_source.MeshSource.submeshes`; from files:
    :func:`gzinertia.io.mesh_submeshes.gazebo_submeshes`, OBJ groups and materials, COLLADA
    ``<triangles>`` blocks, STL one). Computed once per process while the
    source's stamp of the mesh is unchanged (an edited file is read again); the mesh is first
    read as every mesh is (:func:`gzinertia.physics.mesh_load.read_mesh`), so a mesh that is not
    read raises the same :class:`~gzinertia.physics.shapes.ShapeError`.

    This is gz-common since #877 (commit 252093cf, 2026-08-20: "fix Volume() for meshes offset
    from the origin"); before it ``SubMesh::Volume`` summed ``|v1·(v2×v3)/6|`` per triangle,
    which counts a closed mesh whose origin lies outside it more than once. gz-sim's Buoyancy
    system takes ``Mesh::Volume`` (:func:`gazebo_mesh_volume`)."""
    return _submesh_volumes(path, source, source.stamp(path))


@functools.lru_cache(maxsize=64)
def _submesh_volumes(path: str, source: MeshSource, stamp: Hashable) -> tuple[float, ...]:
    """:func:`gazebo_submesh_volumes` (``stamp`` is part of the key only)."""
    read_mesh(path, (1.0, 1.0, 1.0), source)
    try:
        return tuple(abs(signed_volume(t)) for t in source.submeshes(path))
    except MeshFileError as exc:
        raise ShapeError(str(exc)) from None


def gazebo_mesh_volume(path: str, source: MeshSource = FILE_MESHES) -> float:
    """gz-common's ``Mesh::Volume`` (``graphics/src/Mesh.cc``), which gz-sim's Buoyancy system
    takes for a mesh collision: the sum over the file's submeshes of each one's absolute
    signed volume (:func:`gazebo_submesh_volumes`), unscaled. It equals the solid's volume
    for a closed mesh of one submesh; split into several (OBJ groups, COLLADA blocks) whose
    pieces are not closed, it counts what the pieces' signed volumes about the file's origin
    add, which is more than the solid when the origin lies outside it."""
    return float(sum(gazebo_submesh_volumes(path, source)))


def signed_volume(triangles: Any) -> float:
    """``Σ v1·(v2×v3)/6`` over triangles ``(n, 3, 3)`` (m³; positive for outward winding)."""
    t = np.asarray(triangles, dtype=float)
    if len(t) == 0:
        return 0.0
    return float(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])).sum() / 6.0)


def collision_volume(collision: Collision) -> CollisionVolume:
    """Gazebo's and the exact volume and centre of one collision, in the link frame."""
    geometry = collision.geometry
    p_BoCo_B = np.asarray(collision.X_BC.p, dtype=float)
    note = None
    try:
        solid = collision_solid(collision)
        volume: float | None = solid.volume
        p_exact: Vec3 | None = np.asarray(solid.p_FoFc_F, dtype=float)
        if solid.approximation:
            note = solid.approximation
    except ShapeError as exc:
        volume, p_exact, note = None, None, str(exc)
    submeshes = 1
    if geometry.kind in GRADED_SHAPES:
        volume_gz = volume or 0.0
    elif geometry.kind == "mesh" and geometry.mesh_path is not None:
        try:
            parts = gazebo_submesh_volumes(geometry.mesh_path)
            volume_gz, submeshes = float(sum(parts)), len(parts)
        except ShapeError as exc:
            volume_gz, note = 0.0, str(exc)
    else:
        volume_gz = 0.0  # plane (ignored), heightmap and unknown shapes (Gazebo: unsupported)
    return CollisionVolume(collision.name, geometry.kind, volume_gz, p_BoCo_B, volume, p_exact,
                           note, submeshes, geometry.mesh_path,
                           geometry.kind == "mesh" and tuple(geometry.scale) != (1.0, 1.0, 1.0))


def gazebo_sum(parts: Sequence[CollisionVolume]) -> tuple[float, Vec3]:
    """Gazebo's volume of a link (m³) and its centre of volume ``p_BoBv_B`` (m, link frame B),
    as gz-sim's Buoyancy system sums its collisions: each ``volume_gz`` (overlaps counted
    twice) at the collision's origin; the origin B for no volume."""
    V_gz = sum(p.volume_gz for p in parts)
    p_gz = (sum((p.volume_gz * p.p_BoCv_B_gz for p in parts), np.zeros(3)) / V_gz
            if V_gz > 0 else np.zeros(3))
    return V_gz, p_gz


#: Relative difference between a collision's Gazebo volume and its solid's that
#: :func:`gazebo_volume_causes` explains.
CAUSE_TOLERANCE = 1e-9


def gazebo_volume_causes(collisions: Sequence[CollisionVolume]) -> list[str]:
    """Why Gazebo's volume of these mesh collisions differs from their solids' (one phrase per
    collision whose volumes differ): the per-submesh sum (:func:`gazebo_mesh_volume`) and the
    ignored ``<scale>``. Shared by ``hydrostatics`` and the audit (GZI305)."""
    out = []
    for c in collisions:
        if c.kind != "mesh" or c.volume is None or not (
                abs(c.volume_gz - c.volume) > CAUSE_TOLERANCE * c.volume):
            continue
        causes = []
        if c.submeshes > 1:
            name = PurePath(c.mesh_path or "").name
            causes.append(f"gz-common's Mesh::Volume sums |volume| over the {c.submeshes} "
                          f"submeshes of {name} (OBJ groups or materials, COLLADA <triangles> "
                          "blocks), counting open pieces about the file's origin")
        if c.scaled:
            causes.append("its <scale> ignored")
        if causes:
            out.append(f"{c.name}: {' and '.join(causes)}")
    return out

