"""The wrap: a closed surface that follows a mesh which is not closed (``--hull wrap``).

Where the convex hull (``--hull convex``) swallows every concavity (a mast, a keel, the waist
of a hull), the wrap follows the file's surface and closes only its openings (a hole, a
missing end cap, an open seam):

1. the **generalized winding number** of the file's triangles (Jacobson, Kavan and
   Sorkine-Hornung 2013, *Robust inside-outside segmentation using generalized winding
   numbers*; libigl's ``fast_winding_number``) is sampled on a grid of cubic cells covering the
   mesh's bounding box and :data:`PADDING_CELLS` cells around it. It is 1 inside a closed
   surface and 0 outside, and stays a robust inside/outside measure across holes; a point
   counts as inside where ``w > 0.5`` (``-w`` for a surface wound inward: where the sum of
   ``w`` over the grid, the enclosed volume in cells, is negative). An open sheet bounds
   nothing (``|w| < 0.5`` on either side of a flat one);
2. at the grid points next to a change of side, the value is the distance to the file's
   triangles (libigl's ``point_mesh_squared_distance``), signed by the side, so that the
   surface passes through the file's own surface to second order in the cell, not half a cell
   off; where no triangle is within a cell (the side changes across an opening) it is
   ``0.5 - w`` (scaled: :data:`OPENING_SCALE`), so the surface passes where the winding
   number, smooth there, crosses 0.5: exactly the plane of a flat opening (a point in a flat
   missing cap sees the rest of the closed surface under half the sphere);
3. **marching cubes** (libigl's ``marching_cubes``) of the 0 level gives a closed surface
   (no grid point is given a value within :data:`CORNER_CELLS` of a cell of 0, so no vertex
   lands on a grid point and makes a sliver); manifold3d checks it is a 2-manifold, and the
   result is turned outward. It then goes where any closed mesh goes: the BEM decimates it to
   its panel size (fast-simplification, :func:`gzinertia.physics.mesh_file_surface.coarsened`).

**Resolution.** The cell ``h`` is the largest that keeps the grid within
:data:`GRID_POINTS` points (about 64³; slender bodies get finer cells than a cube of the same
length): it is stated in the note (:meth:`Wrap.describe`) with the volume tolerance.
**Tolerance.** Where every part of the body is at least :data:`THICK_CELLS` cells thick the
wrap's volume is within :data:`VOLUME_TOLERANCE` of the closed body's (measured: a capsule, a
torpedo with a mast, a box; docs/meshes.md); an opening is closed across its rim (on a curved
surface the cap between the rim and the original surface is left out: its volume is the
segment under the chord). A feature thinner than about a cell (a thin fin) may be lost or
thickened: the share of the file's surface that lies farther than a cell from the wrap is
measured and said (:attr:`Wrap.unfollowed`).
**Cost.** Memory is linear: the grid (at most :data:`GRID_POINTS` points: 30-40 MiB at the
peak) plus the file's triangles (capped by :class:`gzinertia.io.limits.MeshLimits`); time
``O(G·log F + F)``: 1.6-2.3 s from 5,000 to 50,000 triangles (``benchmarks/bench_wrap.py``).
A mesh with more triangles than :data:`MAX_FACES` is refused in one line.

libigl and manifold3d are in the ``gzinertia[bem]`` extra (imported with this module, which
the geometry pipeline loads only for a mesh file; :data:`igl` is ``None`` when libigl is not
installed, manifold3d is :func:`gzinertia.physics.manifold_solids.manifold3d`'s); without them
the wrap is refused naming the extra.
Coordinates: the mesh's own frame C after ``<scale>``, metres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from gzinertia.physics.manifold_solids import manifold3d
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.record_base import ValueRecord

try:
    import igl
except ImportError:  # the optional extra gzinertia[bem]: the wrap is refused naming it
    igl = None

__all__ = [
    "GRID_POINTS",
    "INSTALL_HINT",
    "MAX_FACES",
    "VOLUME_TOLERANCE",
    "Wrap",
    "wrapped",
]

#: The largest number of grid points the winding number is sampled at.
GRID_POINTS: Final = 1 << 18
#: Cells of empty space around the mesh's bounding box (so the surface closes inside the grid).
PADDING_CELLS: Final = 2
#: The volume tolerance of the wrap of a body at least :data:`THICK_CELLS` cells thick
#: everywhere (relative to its volume; openings closed across their rims).
VOLUME_TOLERANCE: Final = 0.01
THICK_CELLS: Final = 4
#: The grid's offset from the mesh's centre, in cells (irrational: a flat face of the mesh
#: that is symmetric about its centre never lies on a plane of grid points).
GRID_SHIFT: Final = (math.sqrt(5.0) - 2.0) / 2.0
#: Across an opening (no triangle within a cell) the value is ``(0.5 - w)`` times this many
#: cells: the level is found by interpolating the winding number, which is smooth there.
OPENING_SCALE: Final = 20.0
#: The least distance (cells) a grid point is given from the surface: no vertex of marching
#: cubes comes nearer a grid point, where it would make a sliver triangle.
CORNER_CELLS: Final = 0.05
#: manifold3d's simplification of the marching-cubes surface, in cells: triangles merged
#: where the surface moves by less (marching cubes makes about 20 triangles per cell of
#: surface; the BEM's decimation to its panel size does not get far on so regular a mesh).
SIMPLIFY_CELLS: Final = 0.05
#: A triangle whose area is below this fraction of its longest edge squared is a sliver.
SLIVER: Final = 1e-6
#: The most triangles a wrapped mesh may have (the winding number's tree is built over them).
MAX_FACES: Final = 2_000_000
#: What a missing library is answered with.
INSTALL_HINT: Final = (
    "--hull wrap needs libigl and manifold3d: pip install 'gzinertia[bem]'"
)


@dataclass(frozen=True, repr=False, eq=False)
class Wrap(ValueRecord):
    """How a wrap was made: the cell ``cell`` (m), the grid's points along x, y, z
    (``shape``), and ``unfollowed``, the share of the file's surface area farther than a cell
    from the wrap (features thinner than the wrap resolves)."""

    cell: float
    shape: tuple[int, int, int]
    unfollowed: float

    def describe(self) -> str:
        """The phrase the solid's note carries (resolution, tolerance, what was not followed)."""
        nx, ny, nz = self.shape
        text = (f"winding-number wrap on a {nx}x{ny}x{nz} grid of {_length(self.cell)} cells, "
                f"volume within {VOLUME_TOLERANCE:.0%} where the body is {THICK_CELLS} cells "
                "thick, openings closed across")
        if self.unfollowed >= 0.001:
            text += (f"; {self.unfollowed:.1%} of the file's surface is farther than a cell "
                     "from it (thinner than a cell: lost or thickened)")
        return text


def _length(metres: float) -> str:
    return f"{metres * 1000:.3g} mm" if metres < 1.0 else f"{metres:.3g} m"


def _grid_cell(extent: Any) -> float:
    """The cell ``h`` whose grid over ``extent`` plus the padding has about and at most
    :data:`GRID_POINTS` points: the fixed point of ``h³ = Π(e_i + c·h) / G`` (``c`` the
    points a side adds to ``e_i / h``), then grown by 0.1 % steps while the rounded-up count
    exceeds ``G``."""
    c = 1 + 2 * PADDING_CELLS
    h = float(np.max(extent)) / GRID_POINTS ** (1.0 / 3.0)
    for _ in range(60):
        h = (float(np.prod(extent + c * h)) / GRID_POINTS) ** (1.0 / 3.0)
    while float(np.prod(np.ceil(extent / h) + c)) > GRID_POINTS:
        h *= 1.001
    return h


def _near_change(inside: Any) -> Any:
    """Grid points (``inside`` shaped z, y, x) with a neighbour along an axis on the other side."""
    near = np.zeros_like(inside)
    for axis in range(3):
        change = np.diff(inside, axis=axis) != 0
        lower = [slice(None)] * 3
        upper = [slice(None)] * 3
        lower[axis] = slice(0, -1)
        upper[axis] = slice(1, None)
        near[tuple(lower)] |= change
        near[tuple(upper)] |= change
    return near


def _imported(where: str) -> tuple[Any, Any]:
    """The libraries the wrap needs (libigl, manifold3d); a ShapeError naming ``where`` and the
    extra without either."""
    try:
        if igl is None:
            raise ImportError("libigl is not installed")
        return igl, manifold3d()
    except ImportError:
        raise ShapeError(f"{where} is not closed: {INSTALL_HINT}") from None


def wrapped(vertices: Any, faces: Any, where: str) -> tuple[Any, Any, Wrap]:
    """The wrap (module docstring) of the triangles ``faces`` of ``vertices`` (n x 3, metres,
    the mesh's frame C): a closed, outward, 2-manifold surface ``(vertices, faces)`` in the
    same frame, and how it was made. Raises
    :class:`~gzinertia.physics.mesh_load.ShapeError` naming ``where`` when a library is
    missing, the mesh has more than :data:`MAX_FACES` triangles, or the wrap encloses
    nothing or is not a closed 2-manifold (what it encloses is thinner than a cell)."""
    libigl, m3 = _imported(where)
    v = np.asarray(vertices, dtype=np.float64)
    f = np.ascontiguousarray(faces, dtype=np.int64)
    if len(f) > MAX_FACES:
        raise ShapeError(f"{where}: {len(f)} triangles are more than the wrap takes "
                         f"({MAX_FACES})")
    lo, hi = v.min(axis=0), v.max(axis=0)
    size = float(np.max(hi - lo))
    if not (math.isfinite(size) and size > 0.0):
        raise ShapeError(f"{where}: no extent to wrap")
    # unit size by a power of two (exact), so manifold3d's absolute tolerances do not matter
    scale = 2.0 ** -math.frexp(size)[1]
    centre = 0.5 * (lo + hi)
    v = (v - centre) * scale
    extent = (hi - lo) * scale
    h = _grid_cell(extent)
    counts = (np.ceil(extent / h) + 1 + 2 * PADDING_CELLS).astype(np.int64)
    start = -0.5 * (counts - 1) * h + GRID_SHIFT * h  # a grid plane on a flat face: never
    axes = [start[i] + h * np.arange(counts[i]) for i in range(3)]
    z, y, x = np.meshgrid(axes[2], axes[1], axes[0], indexing="ij")
    grid = np.column_stack([x.ravel(), y.ravel(), z.ravel()])  # x fastest, as libigl wants
    del x, y, z
    winding = libigl.fast_winding_number(v, f, grid)
    if winding.sum() < 0.0:  # wound inward throughout: the inside has w = -1
        winding = -winding
    inside = winding > 0.5
    if not np.any(inside):
        raise ShapeError(f"{where} is not closed and its wrap encloses nothing: the surface "
                         f"is thinner than the wrap's cell ({_length(h / scale)})")
    near = _near_change(inside.reshape(counts[2], counts[1], counts[0])).ravel()
    side = np.where(inside, -1.0, 1.0)
    value = side * h
    d = np.sqrt(libigl.point_mesh_squared_distance(grid[near], v, f)[0])
    across = d > h  # no triangle within a cell: the side changes across an opening
    magnitude = np.where(across, np.abs(0.5 - winding[near]) * OPENING_SCALE, d / h)
    value[near] = side[near] * h * np.maximum(magnitude, CORNER_CELLS)
    mv, mf, _ = libigl.marching_cubes(value, grid, int(counts[0]), int(counts[1]),
                                      int(counts[2]), 0.0)
    del grid, value
    mesh = m3.Mesh64(vert_properties=np.ascontiguousarray(mv, dtype=np.float64),
                     tri_verts=np.ascontiguousarray(mf, dtype=np.uint64))
    mesh.merge()
    solid = m3.Manifold(mesh)
    if solid.status() != m3.Error.NoError:
        raise ShapeError(f"{where} is not closed and its wrap on {_length(h / scale)} cells is "
                         f"not a closed 2-manifold surface ({solid.status().name}): what it "
                         "encloses is thinner than a cell in places")
    out = solid.simplify(SIMPLIFY_CELLS * h).to_mesh64()
    wv = np.asarray(out.vert_properties, dtype=np.float64)[:, :3].copy()
    wf = _without_slivers(wv, np.asarray(out.tri_verts, dtype=np.int64).copy())
    if solid.volume() < 0.0:
        wf = wf[:, ::-1].copy()
    if len(wf) == 0 or not abs(solid.volume()) > 0.0:
        raise ShapeError(f"{where} is not closed and its wrap encloses nothing: the surface "
                         f"is thinner than the wrap's cell ({_length(h / scale)})")
    unfollowed = _unfollowed(libigl, v, f, wv, wf, h)
    return wv / scale + centre, wf, Wrap(h / scale, (int(counts[0]), int(counts[1]),
                                                     int(counts[2])), unfollowed)


def _unfollowed(libigl: Any, v: Any, f: Any, wv: Any, wf: Any, h: float) -> float:
    """The share of the area of triangles ``f`` whose centroid is farther than ``h`` from the
    wrap ``(wv, wf)``."""
    corners = v[f]
    area = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0],
                                         corners[:, 2] - corners[:, 0]), axis=1)
    total = float(area.sum())
    if total == 0.0:
        return 0.0
    d2, _, _ = libigl.point_mesh_squared_distance(corners.mean(axis=1), wv, wf)
    return float(area[d2 > h * h].sum()) / total


def _without_slivers(vertices: Any, faces: Any) -> Any:
    """``faces`` with each sliver (a vertex on the opposite edge, area below :data:`SLIVER` of
    the longest edge squared: manifold3d's simplification leaves some on straight generators)
    removed by flipping its longest edge with the neighbour across it: the surface, its
    closure and its winding are unchanged. A few rounds; a sliver whose flip would duplicate
    an edge is left."""
    for _ in range(8):
        corners = vertices[faces]
        sides = np.stack([corners[:, (k + 1) % 3] - corners[:, k] for k in range(3)], axis=1)
        lengths = np.einsum("fki,fki->fk", sides, sides)
        area2 = np.einsum("fi,fi->f", *(2 * [np.cross(sides[:, 0], sides[:, 1])]))
        slivers = np.flatnonzero(area2 <= (2.0 * SLIVER) ** 2 * lengths.max(axis=1) ** 2)
        if len(slivers) == 0:
            break
        owner = {(int(a), int(b)): i for i, face in enumerate(faces.tolist())
                 for a, b in ((face[0], face[1]), (face[1], face[2]), (face[2], face[0]))}
        touched: set[int] = set()
        for i in slivers.tolist():
            k = int(np.argmax(lengths[i]))
            a, b, c = (int(faces[i][(k + m) % 3]) for m in range(3))
            j = owner.get((b, a))
            if j is None or i in touched or j in touched:
                continue
            d = next(int(x) for x in faces[j] if x not in (a, b))
            if (c, d) in owner or (d, c) in owner:
                continue
            faces[i] = (a, d, c)
            faces[j] = (d, b, c)
            touched.update((i, j))
            for e in ((a, b), (b, c), (c, a)):
                owner.pop(e, None)
            for e in ((b, a), (a, d), (d, b)):
                owner.pop(e, None)
            owner.update({(a, d): i, (d, c): i, (c, a): i, (d, b): j, (b, c): j, (c, d): j})
    return faces
