"""A mesh file's surface as the BEM's mesher takes it: the closed outward surface the geometry
pipeline makes of the file (:func:`gzinertia.physics.mesh_body.mesh_body`, after
``<scale>``), cleared of panels the solver cannot use (degenerate triangles dropped or
collapsed), and decimated when faceted much finer than the panel size. Vertices in metres in
the mesh's own frame; a :class:`~gzinertia.physics.panel_surface.SurfaceMeshError` naming the
file otherwise.

This module imports trimesh and fast_simplification (the ``gzinertia[bem]`` extra: ``None``
when it is not installed, and decimating a file then raises ImportError naming it);
:mod:`gzinertia.physics.surface_mesh` reaches it through the package face, for a mesh file only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import trimesh
from numpy.typing import NDArray

from gzinertia.physics.manifold_solids import closed_manifold
from gzinertia.physics.mesh_body import mesh_body
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.physics.panel_surface import (
    DEGENERATE_AREA,
    DEGENERATE_SHAPE,
    FloatArray,
    IntArray,
    SurfaceMeshError,
    unit_scale,
)

try:
    import fast_simplification
except ImportError:  # the optional extra gzinertia[bem]
    fast_simplification = None  # type: ignore[assignment]

#: A mesh file is decimated when its mean edge is shorter than this fraction of the panel size
#: (surfaces meshed at ``h`` have edges between ``h/2`` and ``h``: a file this fine is finer
#: than anything the mesher makes)...
COARSEN_BELOW = 0.4


#: ... to about this mean edge, relative to ``h`` (what primitives meshed at ``h`` have).
COARSEN_TO = 0.7


def coarsened(vertices: FloatArray, faces: IntArray, h: float) -> tuple[FloatArray, IntArray]:
    """A mesh file's closed surface decimated to a mean edge of about ``0.7·h`` when its own
    triangles are much finer than panels of size ``h`` (mean edge below ``0.4·h``); the file's
    triangles otherwise (the refinement to ``h`` then splits the long ones).

    A mesh file's triangles are its geometry, so refinement alone cannot make its panels
    coarser: without this, a finely faceted hull would be solved with all its triangles (the
    dense BEM's memory grows as the square of the panel count), and the error estimate's
    second, coarser solve would be the same solve. Quadric-error decimation
    (``fast_simplification``, the Fast-Quadric-Mesh-Simplification library trimesh also uses)
    keeps the surface closed and its shape to within about a panel's sagitta, as meshing a
    primitive at ``h`` does; the coarser solve at ``√2·h`` is decimated further, so the error
    estimate covers the faceting the decimation introduces. A result that is no longer a closed
    2-manifold is refused by the caller's manifold check.
    """
    if not math.isfinite(h) or len(faces) == 0:
        return vertices, faces
    v = vertices[faces]
    mean_edge = float(np.linalg.norm(v - np.roll(v, 1, axis=1), axis=2).mean())
    if mean_edge >= COARSEN_BELOW * h:
        return vertices, faces
    if fast_simplification is None:
        raise ImportError("fast_simplification is not installed (pip install 'gzinertia[bem]')")
    target = max(int(len(faces) * (mean_edge / (COARSEN_TO * h)) ** 2), 64)
    out_v, out_f = fast_simplification.simplify(
        np.ascontiguousarray(vertices, dtype=np.float64),
        np.ascontiguousarray(faces, dtype=np.int64),
        target_count=target,
    )
    return np.asarray(out_v, dtype=np.float64), np.asarray(out_f, dtype=np.int64)


def manifold_of(vertices: FloatArray, faces: IntArray, what: str) -> Any:
    """The closed surface (vertices, faces) as a manifold3d.Manifold, or a
    :class:`SurfaceMeshError` saying why ``what`` is not a closed 2-manifold."""
    solid, status = closed_manifold(vertices, faces)
    if status is not None:
        raise SurfaceMeshError(f"{what} is not a closed 2-manifold surface ({status})")
    return solid


def _degenerate(mesh: Any) -> NDArray[np.bool_]:
    """Per triangle of ``mesh``: its height (twice its area over its longest edge) is at most
    :data:`DEGENERATE_SHAPE` of that edge (a needle, a cap, or a triangle of no area)."""
    corners = np.asarray(mesh.vertices)[np.asarray(mesh.faces)]
    longest = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2).max(axis=1)
    return 2.0 * np.asarray(mesh.area_faces) <= DEGENERATE_SHAPE * longest * longest


def _collapsed(mesh: Any, tolerance: float, name: str) -> Any:
    """``mesh`` (a closed ``trimesh.Trimesh``) with its degenerate triangles (:func:`_degenerate`)
    collapsed rather than dropped (``tolerance`` in metres: :data:`DEGENERATE_SHAPE` of the
    mesh's size): a needle (a vertex on the opposite edge, as a union leaves
    where a T-junction was) cannot be dropped without opening the surface, but collapsing its
    short edges (manifold3d's ``simplify``: edges whose removal moves the surface by less than
    ``tolerance`` metres) merges the vertex into that edge and keeps the surface closed; the
    volume moves by at most the area times ``tolerance``. A cap it leaves (two corners closer
    than ``tolerance``, where the collapse would pinch the surface) is dropped and its close
    corners welded. A degenerate triangle left after that, or a surface no longer closed, is
    refused (:class:`SurfaceMeshError`)."""
    count = int(np.sum(_degenerate(mesh)))
    s = unit_scale(max(float(np.max(np.ptp(mesh.vertices, axis=0))), 1e-300))
    solid = manifold_of(s * np.asarray(mesh.vertices, dtype=np.float64), np.asarray(mesh.faces),
                         name).simplify(s * tolerance)
    out = solid.to_mesh64()
    collapsed = trimesh.Trimesh(np.asarray(out.vert_properties, dtype=np.float64)[:, :3] / s,
                                np.asarray(out.tri_verts, dtype=np.int64), process=False)
    caps = _degenerate(collapsed)
    if np.any(caps):
        collapsed.update_faces(~caps)
        collapsed.remove_unreferenced_vertices()
        collapsed.merge_vertices(digits_vertex=max(0, int(-math.log10(tolerance))))
        collapsed.update_faces(collapsed.nondegenerate_faces())
        collapsed.remove_unreferenced_vertices()
    if (solid.status().name != "NoError" or len(collapsed.faces) == 0
            or not (collapsed.is_watertight and collapsed.is_winding_consistent)
            or np.any(_degenerate(collapsed))):
        raise SurfaceMeshError(
            f"{name}: {count} degenerate triangles (no area or no height) that cannot be "
            "removed without opening the surface"
        )
    return collapsed


def checked_mesh_file(
    path: str, scale: tuple[float, float, float], h: float
) -> tuple[FloatArray, IntArray]:
    """The mesh file after ``<scale>`` as a closed outward surface (vertices, faces), or a
    :class:`SurfaceMeshError` naming the file and the problem.

    The surface is the solid :func:`gzinertia.physics.mesh_body.mesh_body` makes of the file,
    as every other consumer has it: repaired (welded, degenerate triangles dropped, T-junctions
    split, wound outward, small holes filled), its closed pieces united, refused when it cannot
    be closed unless a hull fallback is chosen (:func:`mesh_note` says what was done). Then,
    for the panels: degenerate triangles (area below :data:`DEGENERATE_AREA` of ``h²``, or
    height below :data:`DEGENERATE_SHAPE` of their longest edge) are dropped where that leaves
    the surface closed, else collapsed (:func:`_collapsed`), and refused when neither closes it.
    """
    name = f"mesh {path!r}"
    if abs(float(np.prod(scale))) == 0.0:
        raise SurfaceMeshError(f"{name}: zero <scale> {scale}")
    try:
        body = mesh_body(path, scale)
    except ShapeError as exc:
        raise SurfaceMeshError(str(exc)) from None
    mesh = body.trimesh()
    scale_len = max(float(np.max(np.ptp(mesh.vertices, axis=0))), 1e-300)
    degenerate = _degenerate(mesh) | (
        np.asarray(mesh.area_faces) <= DEGENERATE_AREA * min(h, scale_len) ** 2)
    if np.any(degenerate):
        kept = mesh.copy()
        kept.update_faces(~degenerate)
        kept.remove_unreferenced_vertices()
        kept.merge_vertices()
        mesh = kept if len(kept.faces) and kept.is_watertight else _collapsed(
            mesh, DEGENERATE_SHAPE * scale_len, name)
    if not float(mesh.volume) > 0.0:
        raise SurfaceMeshError(f"{name}: encloses no volume")
    return np.asarray(mesh.vertices, dtype=np.float64), np.asarray(mesh.faces, dtype=np.int64)

