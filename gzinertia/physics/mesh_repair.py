"""Repairing what CAD exports: a triangle mesh that should bound a solid but is not quite closed.

:func:`repaired` takes a ``trimesh.Trimesh`` (metres, any frame) and applies, in this order,
each step only where it changes something, and says what it did (:class:`Repair`):

1. **weld**: vertices closer than :data:`WELD_TOLERANCE` times the mesh's size (the diagonal
   of its bounding box) become one (CAD tools write each face's corners separately, in single
   precision);
2. **degenerate and duplicate faces** dropped: a triangle with two corners on one vertex after
   welding, and a second copy of a triangle (same three vertices);
3. **T-junctions** split: a boundary vertex lying on another face's boundary edge (within the
   weld tolerance) splits that face, so the two sides share edges;
4. **orientation**: each connected piece wound consistently (trimesh's ``fix_normals``, which
   also turns closed pieces outward);
5. **small holes** filled: a boundary loop whose perimeter is at most :data:`HOLE_FRACTION`
   of the mesh's size, or of three edges (a missing triangle, at any size), is closed by a fan
   of triangles from its centroid (the added surface is of the order of the hole's area; a
   larger opening is no hole to guess across).

Nothing else is changed: a mesh that is already closed and consistently wound is returned as
it is (no weld, so thin features are never merged), only its inside-out pieces turned outward
(step 4: an inverted export, or the inner shell of a sealed cavity, which the union then fills:
what displaces water is the outer surface). Whether the result is closed is for the
caller to decide (:mod:`gzinertia.physics.mesh_body`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import trimesh
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from gzinertia.record_base import ValueRecord

__all__ = ["HOLE_FRACTION", "WELD_TOLERANCE", "Repair", "repaired"]

#: Vertices closer than this fraction of the mesh's bounding-box diagonal are welded.
WELD_TOLERANCE = 1e-6
#: A boundary loop of perimeter at most this fraction of the bounding-box diagonal is a hole
#: that is filled.
HOLE_FRACTION = 0.2


@dataclass(frozen=True, repr=False, eq=False)
class Repair(ValueRecord):
    """What :func:`repaired` did: vertices welded, faces dropped (degenerate or duplicate),
    T-junctions split, faces flipped to a consistent outward winding, holes filled."""

    welded: int = 0
    dropped: int = 0
    t_junctions: int = 0
    flipped: int = 0
    holes: int = 0

    def __bool__(self) -> bool:
        return any((self.welded, self.dropped, self.t_junctions, self.flipped, self.holes))

    def describe(self) -> str | None:
        """One phrase naming each repair with its count (``None`` when nothing was done)."""
        parts = [
            f"{n} {what}"
            for n, what in (
                (self.welded, "vertices welded"),
                (self.dropped, "degenerate or duplicate triangles dropped"),
                (self.t_junctions, "T-junctions split"),
                (self.flipped, "triangles flipped"),
                (self.holes, "small holes filled"),
            )
            if n
        ]
        return "repaired: " + ", ".join(parts) if parts else None


def _size(vertices: Any) -> float:
    v = np.asarray(vertices, dtype=float)
    return float(np.linalg.norm(np.ptp(v, axis=0))) if len(v) else 0.0


def _weld(vertices: Any, faces: Any, tol: float) -> tuple[Any, Any, int]:
    """Vertices within ``tol`` of each other merged (each cluster onto its first vertex)."""
    n = len(vertices)
    pairs = cKDTree(vertices).query_pairs(tol, output_type="ndarray")
    if len(pairs) == 0:
        return vertices, faces, 0
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    count, label = connected_components(graph, directed=False)
    first = np.full(count, n, dtype=np.int64)
    np.minimum.at(first, label, np.arange(n))
    return vertices, first[label][faces], n - count


def _drop_degenerate(faces: Any) -> tuple[Any, int]:
    """Faces with a repeated corner, and repeated faces (the same three vertices), dropped."""
    ok = (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 0] != faces[:, 2])
    kept = faces[ok]
    _, first = np.unique(np.sort(kept, axis=1), axis=0, return_index=True)
    kept = kept[np.sort(first)]
    return kept, len(faces) - len(kept)


def _boundary_edges(faces: Any) -> Any:
    """The directed edges ``(a, b)`` (as they appear in a face) whose undirected edge belongs to
    one face only."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    _, inverse, counts = np.unique(
        np.sort(directed, axis=1), axis=0, return_inverse=True, return_counts=True
    )
    return directed[counts[inverse.reshape(-1)] == 1]


def _split_t_junctions(vertices: Any, faces: Any, tol: float) -> tuple[Any, int]:
    """Each face with a boundary edge on which other boundary vertices lie split into a fan
    through them (in order along the edge)."""
    boundary = _boundary_edges(faces)
    if len(boundary) == 0:
        return faces, 0
    on_boundary = np.unique(boundary)
    points = vertices[on_boundary]
    splits: dict[tuple[int, int], list[int]] = {}
    for a, b in boundary.tolist():
        pa, pb = vertices[a], vertices[b]
        d = pb - pa
        length2 = float(d @ d)
        if length2 == 0.0:
            continue
        t = (points - pa) @ d / length2
        off = np.linalg.norm(points - pa - t[:, None] * d, axis=1)
        inside = (t > 0.0) & (t < 1.0) & (off <= tol)
        found = [int(on_boundary[k]) for k in np.flatnonzero(inside)
                 if on_boundary[k] not in (a, b)]
        if found:
            order = np.argsort([float((vertices[c] - pa) @ d) for c in found])
            splits[(a, b)] = [found[k] for k in order]
    if not splits:
        return faces, 0
    out: list[list[int]] = []
    for face in faces.tolist():
        for k in range(3):
            a, b, c = face[k], face[(k + 1) % 3], face[(k + 2) % 3]
            inner = splits.get((a, b))
            if inner is not None:
                chain = [a, *inner, b]
                out.extend([chain[i], chain[i + 1], c] for i in range(len(chain) - 1))
                break
        else:
            out.append(face)
    return np.asarray(out, dtype=np.int64), len(splits)


def _fill_holes(vertices: Any, faces: Any, limit: float) -> tuple[Any, Any, int]:
    """Each boundary loop of perimeter at most ``limit`` closed by a fan from its centroid
    (wound against the loop's edges, which is how a consistently wound neighbour would be)."""
    boundary = _boundary_edges(faces)
    if len(boundary) == 0:
        return vertices, faces, 0
    nxt: dict[int, int] = {}
    for a, b in boundary.tolist():
        if a in nxt:  # a vertex two loops pass through: not a simple hole
            return vertices, faces, 0
        nxt[a] = b
    new_v, new_f, filled, seen = [vertices], [faces], 0, set()
    count = len(vertices)
    for start in nxt:
        if start in seen:
            continue
        loop, v = [start], nxt.get(start)
        while v is not None and v != start and v not in seen and len(loop) <= len(nxt):
            loop.append(v)
            v = nxt.get(v)
        seen.update(loop)
        if v != start or len(loop) < 3:
            continue
        p = vertices[loop]
        perimeter = float(np.linalg.norm(p - np.roll(p, -1, axis=0), axis=1).sum())
        if perimeter > limit and len(loop) > 3:  # a missing triangle is filled at any size
            continue
        new_v.append(p.mean(axis=0, keepdims=True))
        centre = count
        count += 1
        new_f.append(np.array([[loop[(i + 1) % len(loop)], loop[i], centre]
                               for i in range(len(loop))], dtype=np.int64))
        filled += 1
    if not filled:
        return vertices, faces, 0
    return np.vstack(new_v), np.vstack(new_f), filled


def _orient(mesh: Any) -> int:
    """Consistent, outward winding (trimesh's ``fix_normals``); the number of faces flipped."""
    before = np.asarray(mesh.face_normals).copy()
    mesh.fix_normals(multibody=True)
    after = np.asarray(mesh.face_normals)
    return int(np.sum(np.einsum("ij,ij->i", before, after) < 0.0))


def _outward(mesh: Any) -> bool:
    """Whether every connected piece of a closed, consistently wound mesh faces outward
    (encloses a positive volume): an inside-out piece, or a sealed cavity's inner shell, does
    not."""
    if mesh.body_count == 1:
        return bool(mesh.volume > 0.0)
    return all(piece.volume > 0.0 for piece in mesh.split(only_watertight=False))


def repaired(mesh: Any) -> tuple[Any, Repair]:
    """``mesh`` (a ``trimesh.Trimesh``, left unchanged) repaired as the module says, and the
    :class:`Repair` record. A closed, consistently wound mesh comes back as it is."""
    if mesh.is_watertight and mesh.is_winding_consistent:
        if _outward(mesh):
            return mesh, Repair()
        work = mesh.copy()  # closed: only turned outward (never welded: thin features stay)
        return work, Repair(flipped=_orient(work))
    size = _size(mesh.vertices)
    tol = WELD_TOLERANCE * size
    vertices = np.asarray(mesh.vertices, dtype=float)
    faces = np.asarray(mesh.faces, dtype=np.int64)
    vertices, faces, welded = _weld(vertices, faces, tol)
    faces, dropped = _drop_degenerate(faces)
    faces, t_junctions = _split_t_junctions(vertices, faces, tol)
    work = trimesh.Trimesh(vertices, faces, process=False)
    work.remove_unreferenced_vertices()
    flipped = _orient(work)
    v, f, holes = _fill_holes(np.asarray(work.vertices), np.asarray(work.faces),
                              HOLE_FRACTION * size)
    if holes:
        work = trimesh.Trimesh(v, f, process=False)
        flipped += _orient(work)
    return work, Repair(welded, dropped, t_junctions, flipped, holes)
