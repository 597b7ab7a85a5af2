"""The solid a mesh file bounds: one closed, outward surface, and what it took to get it.

Every consumer of a mesh file's geometry (the exact volume and centre of hydrostatics, the
solids of the fits, the plausibility rules and ``fix --method geometry``, the BEM's surface) reads
it through :func:`mesh_body`, so that they all use the same body and say the same about it:

1. the mesh is read from its source (:func:`gzinertia.physics.mesh_load.read_mesh`; by default
   the file on disk), after ``<scale>``, in its own frame C, metres;
2. repaired where CAD exports are broken (:func:`gzinertia.physics.mesh_repair.repaired`:
   welded vertices, dropped degenerate triangles, split T-junctions, consistent outward
   winding, filled small holes; every repair counted);
3. split into its connected pieces; when every piece is closed, the pieces are **united**
   (manifold3d's exact boolean union): a file of overlapping closed pieces (a cylinder and two
   spheres exported as a capsule) displaces their union, not the sum of their volumes. Without
   manifold3d (the ``gzinertia[bem]`` extra), pieces whose bounding boxes are apart are summed
   (exact), and overlapping ones are summed **and the result says so** (overlaps counted twice);
4. a surface that is still not closed is refused (:class:`~gzinertia.physics.mesh_load.ShapeError`
   naming the file and the options that proceed) unless a fallback is chosen for the block
   (:func:`hull_fallback`, the commands' ``--hull`` and the audit's ``hull`` setting):
   ``convex``, the convex hull of the vertices (a mast or a keel swallowed with the water around
   them: an approximation, named so in every output), or ``wrap``, a closed surface that
   follows the file's and closes only its openings (:mod:`gzinertia.physics.mesh_wrap`: the
   generalized winding number's 0.5 level by marching cubes, its grid and tolerance said in
   the note).

:attr:`MeshBody.note` is the one phrase every output repeats (text, JSON, the provenance comment
written into files); ``None`` only for a single closed piece used as the file has it.

This module is the geometry pipeline's entry and imports trimesh and SciPy (through the
repairs): modules that an audit of a file without meshes loads reach it through the package
face, ``gzinertia.physics.mesh_body.mesh_body(...)``, when a geometry is a mesh.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import trimesh
from scipy.spatial import QhullError

from gzinertia.options import option
from gzinertia.physics.manifold_solids import closed_manifold, manifold3d
from gzinertia.physics.mesh_fallback import (
    HULL_USED,
    OVERLAP_NOTE,
    WRAP_USED,
    approximated,
    current_hull,
    hull_fallback,
)
from gzinertia.physics.mesh_load import FILE_MESHES, MeshSource, ShapeError, read_mesh
from gzinertia.physics.mesh_repair import Repair, repaired
from gzinertia.physics.mesh_wrap import Wrap, wrapped
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.hull import HULL_CHOICES, HullChoice

__all__ = [
    "HULL_CHOICES",
    "HullChoice",
    "MeshBody",
    "approximated",
    "convex_hull",
    "current_hull",
    "hull_fallback",
    "mesh_body",
    "unite",
]

def _hull_hint() -> str:
    """The words a refusal names to proceed (the interface's option, and the audit's setting)."""
    return (f"{option('hull_convex')} uses its convex hull, {option('hull_wrap')} a closed "
            "wrap that follows it (the audit: hull = \"convex\" or \"wrap\" in [tool.gzinertia])")


@dataclass(frozen=True, repr=False, eq=False)
class MeshBody(ValueRecord):
    """A mesh file's solid in its own frame C after ``<scale>``: ``vertices`` (n x 3, m) and
    ``faces`` (m x 3, counter-clockwise seen from outside), closed and outward; ``pieces`` the
    number of closed pieces united; ``united`` whether they were united (manifold3d) or, when
    False and ``pieces > 1``, summed; ``overlap_counted`` whether a sum may count an overlap
    twice (manifold3d missing); ``repair`` what was repaired; ``hull`` the fallback used
    (``None`` when the surface closed); ``wrap`` how the wrap was made (``hull == "wrap"``);
    ``assumed`` what the mesh source assumed to read the mesh
    (:attr:`~gzinertia.io.mesh_source.MeshRead.notes`)."""

    vertices: Any
    faces: Any
    pieces: int
    united: bool
    overlap_counted: bool
    repair: Repair
    hull: HullChoice | None = None
    wrap: Wrap | None = None
    assumed: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        """Whether the solid is the file's (no hull, no overlap counted twice)."""
        return self.hull is None and not self.overlap_counted

    @property
    def note(self) -> str | None:
        """What was done to get the solid, one phrase (``None``: one closed piece, as is)."""
        parts = []
        if self.hull == "convex":
            parts.append(f"{HULL_USED} (an approximation: it includes the water in every "
                         "concavity)")
        if self.hull == "wrap" and self.wrap is not None:
            parts.append(f"{WRAP_USED} (an approximation: {self.wrap.describe()})")
        repair = self.repair.describe()
        if repair:
            parts.append(repair)
        if self.pieces > 1:
            if self.united:
                parts.append(f"union of {self.pieces} closed pieces")
            elif self.overlap_counted:
                parts.append(f"{self.pieces} closed pieces summed, their {OVERLAP_NOTE} "
                             "(manifold3d, gzinertia[bem], unites them)")
            else:
                parts.append(f"{self.pieces} separate closed pieces")
        parts.extend(self.assumed)
        return "; ".join(parts) if parts else None

    def trimesh(self) -> Any:
        """The body as a ``trimesh.Trimesh`` (a copy the caller may modify)."""
        return trimesh.Trimesh(self.vertices.copy(), self.faces.copy(), process=False)


def mesh_body(path: str, scale: tuple[float, float, float] = (1.0, 1.0, 1.0),
              source: MeshSource = FILE_MESHES) -> MeshBody:
    """The solid the mesh ``path`` bounds after ``<scale>`` (see the module), read from
    ``source`` (default: the files on disk), with the fallback of the current
    :func:`hull_fallback` block; once per process while the source's
    :meth:`~gzinertia.io.mesh_source.MeshSource.stamp` of it is unchanged (an edited file is
    read again). Raises :class:`~gzinertia.physics.mesh_load.ShapeError` naming the mesh when
    it cannot be read, is not closed after repair and no fallback is chosen, or bounds no
    volume."""
    key = (float(scale[0]), float(scale[1]), float(scale[2]))
    return _mesh_body(path, key, current_hull(), source, source.stamp(path))


@functools.lru_cache(maxsize=64)
def _mesh_body(path: str, scale: tuple[float, float, float], hull: HullChoice,
               source: MeshSource, stamp: Hashable) -> MeshBody:
    """:func:`mesh_body` (``stamp`` is part of the key only)."""
    read = read_mesh(path, scale, source)
    body = _solid(path, read.trimesh(), hull)
    if not read.notes:
        return body
    return _frozen(replace(body, assumed=read.notes))


def _solid(path: str, mesh: Any, hull: HullChoice) -> MeshBody:
    """The closed body of ``mesh`` (read from ``path``) under the fallback ``hull``."""
    fixed, repair = repaired(mesh)
    if not fixed.is_watertight:
        edges = _open_edges(fixed)
        if hull == "none":
            raise ShapeError(
                f"mesh {path!r} is not closed ({edges} edges not shared by exactly two "
                f"triangles after repair): it bounds no volume; {_hull_hint()}"
            )
        if hull == "wrap":
            wv, wf, how = wrapped(np.asarray(fixed.vertices), np.asarray(fixed.faces),
                                  f"mesh {path!r}")
            return _frozen(MeshBody(wv, wf, 1, False, False, repair, hull, how))
        hulled = convex_hull(path, mesh)
        return _frozen(MeshBody(np.asarray(hulled.vertices, dtype=float),
                                np.asarray(hulled.faces, dtype=np.int64), 1, False, False,
                                repair, hull))
    pieces = fixed.split(only_watertight=False) if fixed.body_count > 1 else [fixed]
    if len(pieces) == 1:
        return _frozen(MeshBody(np.asarray(fixed.vertices, dtype=float),
                                np.asarray(fixed.faces, dtype=np.int64), 1, False, False, repair))
    try:
        union = unite(pieces, f"mesh {path!r}")
    except ImportError:
        boxes = [p.bounds for p in pieces]
        overlap = any(
            bool(np.all(boxes[i][0] <= boxes[j][1]) and np.all(boxes[j][0] <= boxes[i][1]))
            for i in range(len(boxes)) for j in range(i)
        )
        return _frozen(MeshBody(np.asarray(fixed.vertices, dtype=float),
                                np.asarray(fixed.faces, dtype=np.int64), len(pieces), False,
                                overlap, repair))
    if len(union.faces) == 0:
        raise ShapeError(f"mesh {path!r}: the union of its closed pieces is empty")
    return _frozen(MeshBody(np.asarray(union.vertices, dtype=float),
                            np.asarray(union.faces, dtype=np.int64), len(pieces), True, False,
                            repair))


def _frozen(body: MeshBody) -> MeshBody:
    body.vertices.setflags(write=False)
    body.faces.setflags(write=False)
    return body


def _open_edges(mesh: Any) -> int:
    edges = np.sort(np.asarray(mesh.edges), axis=1)
    _, counts = np.unique(edges, axis=0, return_counts=True)
    return int(np.sum(counts != 2))


def unite(pieces: Sequence[Any], where: str) -> Any:
    """The union of closed, outward ``trimesh.Trimesh`` pieces (manifold3d's exact boolean
    union, same frame) as a ``trimesh.Trimesh``; a piece manifold3d does not take (not a
    2-manifold) is a :class:`~gzinertia.physics.mesh_load.ShapeError` naming ``where`` (never
    left out). Raises ImportError without manifold3d (the ``gzinertia[bem]`` extra)."""
    m3 = manifold3d()
    solids = []
    for piece in pieces:  # (np.array: a TrackedArray is not taken by manifold3d)
        solid, status = closed_manifold(np.array(piece.vertices), np.array(piece.faces))
        if status is not None:
            raise ShapeError(f"{where}: a closed piece is not a 2-manifold surface "
                             f"({status}): its pieces cannot be united")
        solids.append(solid)
    out = m3.Manifold.batch_boolean(solids, m3.OpType.Add).to_mesh64()
    return trimesh.Trimesh(np.asarray(out.vert_properties, dtype=np.float64)[:, :3].copy(),
                           np.asarray(out.tri_verts, dtype=np.int64).copy(), process=False)


def convex_hull(path: str, mesh: Any) -> Any:
    """The convex hull of ``mesh`` (a ``trimesh.Trimesh`` read from ``path``, same frame) as a
    ``trimesh.Trimesh``; qhull's refusal of a degenerate input is a
    :class:`~gzinertia.physics.mesh_load.ShapeError` naming ``path``."""
    try:
        return mesh.convex_hull
    except QhullError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "qhull error"
        raise ShapeError(f"mesh {path!r} has no convex hull: {first}") from None
