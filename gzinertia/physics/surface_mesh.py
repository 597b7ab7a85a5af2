"""A link's displacing geometry as one closed, outward-oriented triangle surface in link axes.

The boundary-element solve (:mod:`gzinertia.physics.bem`) needs the wetted surface of the volume
a link displaces: one closed surface, normals out of the body, no degenerate panels, panels no
larger than a panel size ``h``. This module builds it from the link's collision shapes:

* primitives (box, sphere, cylinder, capsule, ellipsoid) are meshed with manifold3d at a
  resolution derived from ``h`` (``ceil(2πr/h)`` segments round a circle);
* mesh files (STL, OBJ, DAE after ``<scale>``) are checked
  (:func:`~gzinertia.physics.mesh_file_surface.checked_mesh_file`): closed, consistently oriented,
  outward, no degenerate triangles; repaired where that is unambiguous, refused
  (:class:`SurfaceMeshError`, naming file and problem) otherwise; a file faceted finer than ``h``
  is decimated to about the panel count its area holds at ``h``
  (:func:`~gzinertia.physics.mesh_file_surface.coarsened`);
* every shape is posed in the link frame B (``X_BC``) and the shapes are united with manifold3d's
  exact boolean union; the union is then refined so that edges are about ``h`` long (every
  original edge split into pieces of at most ``h``, interior edges near it, below ``2h``:
  ``Manifold.refine_to_length``, which keeps the surface conforming: no T-junctions).

Why manifold3d: its booleans are guaranteed to return a manifold (closed, oriented) surface for
manifold inputs, it ships wheels for every platform, and it is fast (milliseconds for a link);
gmsh/OpenCASCADE would mesh curved primitives exactly but is a 100 MB dependency driven through
a global-state API, and trimesh's booleans delegate to manifold3d anyway (docs/bem.md).

Before any native call, each shape is checked against what the mesher can take
(:mod:`gzinertia.physics.mesh_domain`: dimensions, aspect ratio, reach, the triangles a
refinement at ``h`` would make), and a link much smaller or larger than a metre is scaled to
about unit size by a power of two (exact in floating point: :func:`unit_scale`): manifold3d's
tolerances are absolute (the union of shapes 1e-20 m across came out empty, at 1e-9 m with
other panels), so the mesh of a link at any size is the mesh of the link at unit size, scaled
back.

The surfaces and their refusals are in :mod:`gzinertia.physics.panel_surface`, a mesh file's
checks and decimation in :mod:`gzinertia.physics.mesh_file_surface`.

Coordinates are B's (link frame, origin Bo), metres. manifold3d is imported lazily: only the BEM
needs it (the ``gzinertia[bem]`` extra).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

import gzinertia.physics
from gzinertia.physics.manifold_solids import manifold3d, primitive_manifold
from gzinertia.physics.mesh_domain import (
    ShapeSize,
    mesh_size,
    primitive_size,
    require_reach,
    require_refinable,
    require_shape,
    segments,
    shape_place,
    shapes_place,
)
from gzinertia.physics.mesh_load import FILE_MESHES, ShapeError
from gzinertia.physics.panel_surface import (
    DEGENERATE_AREA,
    WATERPLANE_TOLERANCE,
    FloatArray,
    IntArray,
    Surface,
    SurfaceMeshError,
    WettedSurface,
    unit_scale,
)
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.rotation import Pose

if TYPE_CHECKING:
    import gzinertia.physics.mesh_body
    import gzinertia.physics.mesh_file_surface


def geometry_digest(collisions: Sequence[Collision]) -> str:
    """``sha256:<16 hex>`` of the displacing geometry as the model states it: each shape's kind,
    dimensions, pose in the link and ``<scale>``, the bytes of its mesh file and what the
    geometry pipeline did to that file (:func:`mesh_notes`: pieces united, repairs, a hull
    fallback; nothing for a mesh used as it is, so such digests are as before). It changes when
    any of them changes (the audit's stale-provenance check) and not with the panel size."""
    h = hashlib.sha256()
    for c in sorted(collisions, key=lambda c: c.name):
        g = c.geometry
        fields = [c.name, g.kind, repr(g.size), repr(g.radius), repr(g.length), repr(g.scale)]
        fields += [f"{x:.17g}" for x in np.concatenate([c.X_BC.p, c.X_BC.R.ravel()])]
        h.update("\x1f".join(fields).encode())
        if g.kind == "mesh" and g.mesh_path is not None:
            try:
                h.update(FILE_MESHES.digest(g.mesh_path))  # a FIFO or a device is refused
            except OSError:
                h.update(b"<unreadable>")
        h.update(b"\x1e")
    for note in mesh_notes(collisions):  # what was done to a mesh (united, repaired, a hull)
        h.update(note.encode() + b"\x1e")  # is geometry too; nothing for a mesh used as is
    return "sha256:" + h.hexdigest()[:16]


@dataclass(frozen=True, repr=False, eq=False)
class CheckedShape(ValueRecord):
    """One shape as the mesher takes it: the collision, where it is (for messages), its
    :class:`~gzinertia.physics.mesh_domain.ShapeSize` and, for a mesh file, its checked
    closed surface (vertices in metres in its own frame, faces)."""

    collision: Collision
    where: str
    size: ShapeSize
    mesh: tuple[FloatArray, IntArray] | None = None


def _shape(c: Collision, h: float, element: str, link: str | None) -> CheckedShape:
    """The shape of ``c`` with its size (a mesh file read and checked:
    :func:`~gzinertia.physics.mesh_file_surface.checked_mesh_file`),
    refused when its dimensions are not positive and finite or it is thinner than the mesher
    takes (:func:`~gzinertia.physics.mesh_domain.require_shape`). No native code runs."""
    where = shape_place(c, element, link)
    g = c.geometry
    if g.kind != "mesh":
        size = primitive_size(g, where)
        require_shape(size, where)
        return CheckedShape(c, where, size)
    if g.mesh_path is None:
        raise SurfaceMeshError(f"{where}: mesh {g.mesh_uri!r} did not resolve to a file")
    try:
        vertices, faces = gzinertia.physics.mesh_file_surface.checked_mesh_file(
            g.mesh_path, g.scale, h)
    except SurfaceMeshError as exc:
        raise SurfaceMeshError(f"{where}: {exc}") from None
    size = mesh_size(vertices, faces)
    require_shape(size, where)
    return CheckedShape(c, where, size, (vertices, faces))


def _shapes(
    collisions: Sequence[Collision], h: float, element: str, link: str | None
) -> tuple[list[CheckedShape], float]:
    """Each shape checked (:func:`_shape`), the reach of the link's geometry from Bo checked
    against the shapes' sizes, and the power-of-two scale that brings that reach to about 1."""
    if not collisions:
        raise SurfaceMeshError("no displacing geometry to mesh")
    shapes = [_shape(c, h, element, link) for c in collisions]
    reach = max(
        float(np.linalg.norm(np.asarray(s.collision.X_BC.p, dtype=float))) + s.size.radius
        for s in shapes
    )
    require_reach([s.size for s in shapes], reach, [s.where for s in shapes])
    return shapes, unit_scale(reach)


def checked_shapes(
    collisions: Sequence[Collision], element: str = "collision", link: str | None = None
) -> list[CheckedShape]:
    """Each shape of ``collisions`` checked as the mesher checks it before any native call
    (:func:`_shapes`: dimensions, aspect ratio, reach; a mesh file read and checked)."""
    return _shapes(collisions, math.inf, element, link)[0]


def _primitive(shape: CheckedShape, h: float, scale: float) -> Any:
    """The shape in its own frame C, scaled by ``scale``, as a manifold3d.Manifold (curved shapes
    with segments about ``h`` long, ``h`` in metres; a mesh file decimated when faceted much
    finer than ``h`` (:func:`~gzinertia.physics.mesh_file_surface.coarsened`), then refused if
    its refinement would make more triangles than the mesher takes)."""
    g = shape.collision.geometry
    if g.kind != "mesh":
        return primitive_manifold(g, scale, lambda r: segments(r, h))
    assert shape.mesh is not None and g.mesh_path is not None
    vertices, faces = shape.mesh
    vertices, faces = gzinertia.physics.mesh_file_surface.coarsened(vertices * scale, faces,
                                                                     h * scale)
    if math.isfinite(h):
        require_refinable(mesh_size(vertices / scale, faces), h, shape.where)
    try:
        return gzinertia.physics.mesh_file_surface.manifold_of(vertices, faces,
                                                               f"mesh {g.mesh_path!r}")
    except SurfaceMeshError as exc:
        raise SurfaceMeshError(f"{shape.where}: {exc}") from None


def mesh_notes(collisions: Sequence[Collision]) -> list[str]:
    """What the geometry pipeline did to each mesh file of ``collisions`` (under the current
    hull fallback), as ``"<name>: <note>"`` (:attr:`gzinertia.physics.mesh_body.MeshBody.note`;
    ``"<name>: refused"`` when it cannot be used); meshes used as their files have them are
    left out."""
    notes = []
    for c in collisions:
        g = c.geometry
        if g.kind != "mesh" or g.mesh_path is None:
            continue
        try:
            note = gzinertia.physics.mesh_body.mesh_body(g.mesh_path, g.scale).note
        except ShapeError:
            note = "refused"
        if note:
            notes.append(f"{c.name}: {note}")
    return notes


def _united(
    collisions: Sequence[Collision], h: float, element: str = "collision",
    link: str | None = None,
) -> tuple[Any, str, float]:
    """The union of the posed shapes as a manifold3d.Manifold scaled by a power of two to about
    unit size (curved shapes with segments about ``h`` metres long; ``h = inf``: the coarsest,
    8 segments round a circle), where they are written (for messages: ``element`` is the SDF
    element they come from, ``"collision"`` or ``"visual"``; ``link`` the link they belong to),
    and the scale. Every shape is checked before any native call (module docstring); at a
    finite ``h``, also the triangles its refinement would make."""
    m3 = manifold3d()
    shapes, scale = _shapes(collisions, h, element, link)
    if math.isfinite(h):
        for shape in shapes:
            if shape.mesh is None:  # a mesh file's: once it is decimated (_primitive)
                require_refinable(shape.size, h, shape.where)
    solids = []
    for shape in shapes:
        X_BC = shape.collision.X_BC
        p = scale * np.asarray(X_BC.p, dtype=float).reshape(3, 1)
        solids.append(_primitive(shape, h, scale).transform(np.hstack([np.asarray(X_BC.R), p])))
    union = m3.Manifold.batch_boolean(solids, m3.OpType.Add) if len(solids) > 1 else solids[0]
    places = shapes_place(collisions, element, link)
    volume = union.volume()
    if union.is_empty() or not (math.isfinite(volume) and volume > 0.0):
        raise SurfaceMeshError(f"{places}: the link's shapes enclose no finite volume")
    return union, places, scale


def surface_area(
    collisions: Sequence[Collision], element: str = "collision", link: str | None = None
) -> float:
    """The area (m²) of the coarsest united surface: what the panel count scales with."""
    union, _, scale = _united(collisions, math.inf, element, link)
    return float(union.surface_area()) / (scale * scale)


def link_surface(
    collisions: Sequence[Collision], h: float, element: str = "collision",
    link: str | None = None,
) -> Surface:
    """The union of ``collisions`` (posed in the link frame B) as one closed outward surface with
    edges about ``h`` metres long (module docstring). ``collisions`` may be the link's visuals
    (``element="visual"``, :func:`gzinertia.sdf.visuals.link_visuals`): messages then say so.

    Raises :class:`SurfaceMeshError` or
    :class:`~gzinertia.physics.mesh_domain.MeshDomainError` (naming the collision's file and
    line, and ``link``) for a shape that cannot be meshed, and when the united surface is not a
    2-manifold (shapes touching along an edge or at a point) or encloses no volume.
    """
    _require_panel_size(collisions, h, element, link)
    union, places, scale = _united(collisions, h, element, link)
    refined = union.refine_to_length(h * scale)
    out = refined.to_mesh64()
    vertices = np.asarray(out.vert_properties, dtype=np.float64)[:, :3] / scale
    faces = np.asarray(out.tri_verts, dtype=np.int64)
    if len(collisions) > 1:
        _require_manifold(vertices, faces, places)
    v = vertices[faces]
    areas = 0.5 * np.linalg.norm(np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]), axis=1)
    keep = areas > DEGENERATE_AREA * h * h
    surface = Surface(vertices, faces[keep])
    if not surface.volume() > 0.0:
        raise SurfaceMeshError(f"{places}: the united surface encloses no volume")
    return surface


def _require_panel_size(
    collisions: Sequence[Collision], h: float, element: str, link: str | None
) -> None:
    """Refuses a panel size that is not positive and finite (a NaN one crashes manifold3d's
    refinement) before anything is meshed."""
    if not (math.isfinite(h) and h > 0.0):
        where = shapes_place(collisions, element, link) if collisions else "the BEM"
        raise SurfaceMeshError(f"{where}: panel size must be positive and finite, got {h!r}")


def _require_manifold(vertices: FloatArray, faces: IntArray, places: str) -> None:
    """Refuses a surface where, once coincident vertices are merged, an edge is not shared by
    exactly two triangles (shapes that touch along an edge or at a point).

    Only for the union of several shapes: one shape is a surface manifold3d accepted (status
    ``NoError``: every edge of its own triangles shared by exactly two), and coincident
    vertices inside it are its author's (a fin welded onto a hull along a seam); it touches no
    other shape."""
    rounded = np.round(vertices / max(float(np.max(np.abs(vertices))), 1e-300), 12)
    _, inverse = np.unique(rounded, axis=0, return_inverse=True)
    f = inverse.reshape(-1)[faces]
    edges = np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]), axis=1)
    edges = edges[edges[:, 0] != edges[:, 1]]
    _, counts = np.unique(edges, axis=0, return_counts=True)
    if np.any(counts != 2):
        raise SurfaceMeshError(
            f"{places}: the united shapes touch along an edge or at a point "
            f"({int(np.sum(counts != 2))} non-manifold edges): the surface has no single outside; "
            "move the shapes apart or let them overlap"
        )


def wetted_surface(
    collisions: Sequence[Collision], h: float, X_WaterB: Pose, element: str = "collision",
    link: str | None = None,
) -> WettedSurface:
    """The union of ``collisions`` cut by the waterplane, below it, refined to panels about
    ``h`` long: the closed union is posed in the waterline frame by ``X_WaterB`` (the link
    frame B in world axes about an origin on the waterplane: ``R_WB`` and ``p_WaterBo_W``, so
    ``v = R_WB·v_B + p_WaterBo_W``), cut exactly by the plane ``z = 0`` (manifold3d
    ``trim_by_plane``, which closes the cut with a flat face), refined
    (``refine_to_length(h)``: the rim is split into edges of at most ``h``, so the panels meet
    the waterline with their full size instead of as slivers clipped after meshing), and the
    faces of the flat cut dropped. Vertices are returned in B.

    Raises :class:`SurfaceMeshError` when nothing of the link is below the waterline.
    """
    _require_panel_size(collisions, h, element, link)
    R = np.asarray(X_WaterB.R, dtype=float)
    union, places, scale = _united(collisions, h, element, link)
    p = scale * np.asarray(X_WaterB.p, dtype=float)
    closed = union.refine_to_length(h * scale).to_mesh64()
    if len(collisions) > 1:
        _require_manifold(
            np.asarray(closed.vert_properties, dtype=np.float64)[:, :3],
            np.asarray(closed.tri_verts, dtype=np.int64),
            places,
        )
    posed = union.transform(np.hstack([R, p.reshape(3, 1)]))
    below = posed.trim_by_plane([0.0, 0.0, -1.0], 0.0)
    volume = float(below.volume()) if not below.is_empty() else 0.0
    size = max(float(np.max(np.abs(np.asarray(closed.vert_properties)[:, :3]))), 1e-300)
    if not volume > WATERPLANE_TOLERANCE * size**3:
        raise SurfaceMeshError(
            f"{places}: the link is entirely above the waterline: no wetted surface"
        )
    out = below.refine_to_length(h * scale).to_mesh64()
    v_S = np.asarray(out.vert_properties, dtype=np.float64)[:, :3].copy()
    faces = np.asarray(out.tri_verts, dtype=np.int64)
    tol = WATERPLANE_TOLERANCE * max(size, float(np.max(np.abs(v_S))))
    on_plane = np.abs(v_S[:, 2]) <= tol
    v_S[on_plane, 2] = 0.0
    lid = np.all(on_plane[faces], axis=1)
    v = v_S[faces]
    areas = 0.5 * np.linalg.norm(np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]), axis=1)
    keep = ~lid & (areas > DEGENERATE_AREA * (h * scale) ** 2)
    vertices_B = ((v_S - p) @ R) / scale  # R_WBᵀ·(v - p), row-wise, back in metres
    used = np.unique(faces[keep])
    index = np.full(len(vertices_B), -1, dtype=np.int64)
    index[used] = np.arange(len(used))
    surface = Surface(vertices_B[used], index[faces[keep]])
    return WettedSurface(surface, len(np.asarray(closed.tri_verts)), volume / scale**3)
