"""The body a link displaces: the union of its collisions' solids, not their sum.

Two collisions that overlap (a box and a cylinder sharing a corner of a hull, a sphere over the
end of a tube) displace the water of their overlap once. The exact volume and centre of
hydrostatics are the union's: the sum of the shapes' exact figures (closed forms, the mesh
pipeline's solids: :mod:`gzinertia.physics.mesh_body`) less the overlap, measured by
manifold3d's boolean union of the shapes' solids in the link frame B (manifold3d's own
primitives with :data:`SECTIONS` segments around, so the overlap, not the whole volume,
carries the tessellation's error; mesh files as the geometry pipeline reads them), its
moments taken with NumPy (no trimesh, hence no SciPy, for a link of primitives: an audit of a
plain SDF file stays light). Gazebo's Buoyancy system sums the shapes: its numbers stay
Gazebo's (:mod:`gzinertia.physics.hydrostatics` shows both).

:func:`link_solid` is the one home of a link's fluid-displacing body for every consumer that
judges or uses the geometry (the fits of ``addmass --ellipsoid``, the plausibility rules'
density and centroid checks, ``fix --method geometry``, the plots): the shapes' exact solids
less the overlap's volume, first and second moments, with the note of what was done.

Collisions whose bounding spheres (about their own origin) are apart cannot overlap and are
never meshed, so a link of separate shapes costs nothing here. Without manifold3d (the
``gzinertia[bem]`` extra) the overlap is counted twice and the note says so (never silent).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

import gzinertia.physics
from gzinertia.physics.manifold_solids import (
    closed_manifold,
    manifold3d,
    manifold_triangles,
    posed,
    primitive_manifold,
    triangle_moments,
)
from gzinertia.physics.mesh_fallback import OVERLAP_NOTE
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.physics.shapes import SolidProperties, checked_solid, collision_solid, combine_solids
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, Geometry
from gzinertia.spatial.inertia import parallel_axis
from gzinertia.vocabulary.proxy import is_buoyancy_proxy

if TYPE_CHECKING:
    import gzinertia.physics.mesh_body

__all__ = ["SECTIONS", "LinkUnion", "link_solid", "link_union", "solid_in_link"]

#: Segments around a round primitive's tessellation when an overlap is measured (manifold3d's
#: own: its sphere is then 3.5e-4 below the closed form's volume, its cylinder 1.0e-4, inscribed;
#: at 128 its sphere is 1.4e-3 below: the overlap carries that relative error).
SECTIONS = 256


@dataclass(frozen=True, repr=False, eq=False)
class LinkUnion(ValueRecord):
    """What the union of a link's overlapping collisions takes from their sum, in the link
    frame B: ``overlap_volume`` (m³, ``Σ V_i - V_union``, ≥ 0), ``overlap_moment`` (m⁴, the
    same for the first moments of volume ``V·p_BoCv_B``), ``overlap_J_BBo_B`` (m⁵, the same for
    the second moments: the unit-density rotational inertia about the link origin Bo, B axes),
    ``pieces_B`` the overlapping shapes' closed surfaces and ``union_B`` their union
    (triangles ``(n, 3, 3)``, link frame, outward; for a graded fluid's slices and the
    flotation hull; empty and ``None`` without manifold3d), ``note`` what was done, in words;
    ``members`` the collisions that may overlap (those ``pieces_B`` and ``union_B`` stand for)."""

    overlap_volume: float
    overlap_moment: Any
    overlap_J_BBo_B: Any
    pieces_B: tuple[Any, ...]
    union_B: Any
    note: str
    members: tuple[Collision, ...] = ()


def _bounding_radius(geometry: Geometry) -> float | None:
    """The radius of a sphere about the shape's own origin that holds it (``None``: no
    solid)."""
    g = geometry
    if g.kind in ("box", "ellipsoid") and g.size is not None:
        half = np.asarray(g.size, dtype=float) * (0.5 if g.kind == "box" else 1.0)
        return float(np.linalg.norm(half)) if g.kind == "box" else float(np.max(half))
    if g.kind == "sphere" and g.radius is not None:
        return float(g.radius)
    if g.kind in ("cylinder", "cone") and g.radius is not None and g.length is not None:
        return math.hypot(g.radius, 0.5 * g.length)
    if g.kind == "capsule" and g.radius is not None and g.length is not None:
        return float(g.radius + 0.5 * g.length)
    if g.kind == "mesh" and g.mesh_path is not None:
        try:
            vertices = gzinertia.physics.mesh_body.mesh_body(g.mesh_path, g.scale).vertices
        except ShapeError:
            return None
        return float(np.max(np.linalg.norm(vertices, axis=1))) if len(vertices) else None
    return None


def _overlapping(collisions: Sequence[Collision]) -> list[Collision]:
    """The collisions whose bounding spheres meet another's (sweep along x: a pair is
    compared only when their x extents meet, so shapes laid out apart cost a sort)."""
    spheres = [(c, _bounding_radius(c.geometry)) for c in collisions]
    known = [(c, np.asarray(c.X_BC.p, dtype=float), r) for c, r in spheres if r is not None]
    order = sorted(range(len(known)), key=lambda k: float(known[k][1][0]) - known[k][2])
    meets: set[int] = set()
    active: list[int] = []
    for k in order:
        _, p_k, r_k = known[k]
        active = [a for a in active if float(known[a][1][0]) + known[a][2] >= p_k[0] - r_k]
        for a in active:
            if float(np.linalg.norm(p_k - known[a][1])) <= r_k + known[a][2]:
                meets.update((a, k))
        active.append(k)
    return [known[k][0] for k in sorted(meets)]


def solid_in_link(collision: Collision, where: str) -> Any:
    """The collision's solid as a ``manifold3d.Manifold`` in the link frame B (primitives
    manifold3d's own with :data:`SECTIONS` segments around; a mesh file the geometry
    pipeline's closed body, :func:`gzinertia.physics.mesh_body.mesh_body`), ``None``: no
    solid. A mesh body manifold3d does not take is a ShapeError naming ``where``."""
    g = collision.geometry
    if g.kind != "mesh":
        solid = primitive_manifold(g, 1.0, lambda _: SECTIONS)
    elif g.mesh_path is None:
        return None
    else:
        try:
            body = gzinertia.physics.mesh_body.mesh_body(g.mesh_path, g.scale)
        except ShapeError:
            return None
        solid, status = closed_manifold(body.vertices, body.faces)
        if status is not None:
            raise ShapeError(f"{where}: a closed piece is not a 2-manifold surface ({status}): "
                             "its pieces cannot be united")
    return None if solid is None else posed(solid, collision.X_BC)


def link_union(
    collisions: Sequence[Collision], element: str = "collision"
) -> LinkUnion | None:
    """What uniting the link's ``collisions`` (those with a solid) takes from their sum
    (:class:`LinkUnion`); ``None`` when no two of them can overlap, or they do not. The note
    names them by ``element`` (``"collision"``, or ``"visual"`` for a link's visuals).

    The shapes are united by manifold3d directly (its own primitives, posed; mesh files as
    the geometry pipeline reads them) and the moments taken from its surfaces with NumPy
    (:func:`gzinertia.physics.manifold_solids.triangle_moments`): no trimesh for primitives.
    Without manifold3d the overlap is not measured: ``overlap_volume`` is 0 and the note says
    the overlaps are counted twice."""
    candidates = _overlapping(collisions)
    if len(candidates) < 2:
        return None
    names = ", ".join(repr(c.name) for c in candidates)
    try:
        m3 = manifold3d()
    except ImportError:
        return LinkUnion(0.0, np.zeros(3), np.zeros((3, 3)), (), None,
                         f"{element}s {names} may overlap: their {OVERLAP_NOTE} "
                         "(manifold3d, gzinertia[bem], unites them)",
                         tuple(candidates))
    where = f"the {element}s {names}"
    solids = [s for s in (solid_in_link(c, where) for c in candidates) if s is not None]
    if len(solids) < 2:
        return None
    pieces = tuple(manifold_triangles(s) for s in solids)
    union = manifold_triangles(m3.Manifold.batch_boolean(solids, m3.OpType.Add))
    V_sum, M_sum, J_sum = 0.0, np.zeros(3), np.zeros((3, 3))
    for piece in pieces:
        V, M, J = triangle_moments(piece)
        V_sum, M_sum, J_sum = V_sum + V, M_sum + M, J_sum + J
    V_union, M_union, J_union = triangle_moments(union)
    overlap = V_sum - V_union
    if not overlap > 1e-9 * V_sum:
        return None  # apart, or touching: the sum is the union
    note = (f"{element}s {names} overlap: the exact volume is their union "
            f"({overlap:.6g} m^3 of overlap counted once)")
    return LinkUnion(overlap, M_sum - M_union, J_sum - J_union, pieces, union, note,
                     tuple(candidates))


def link_solid(
    collisions: Sequence[Collision], element: str = "collision"
) -> SolidProperties:
    """The body the ``collisions`` displace together, in the link frame B: the union of their
    solids (:func:`gzinertia.physics.shapes.collision_solid`: closed forms, meshes through the
    geometry pipeline), overlaps counted once. Volume, centroid ``p_BoBc_B`` and unit-density
    inertia ``G_BBc_B`` about the centroid are the sum of the exact solids less the overlap's
    (:func:`link_union`: its volume, first and second moments; only the overlap carries a round
    primitive's tessellation error). ``approximation`` joins the shapes' notes and the union's
    (pieces united; or, without manifold3d, the overlaps counted twice), naming the shapes as
    ``element`` (``"collision"``, ``"visual"``). Raises
    :class:`~gzinertia.physics.shapes.ShapeError` when a shape has no solid or they enclose no
    volume. The buoyancy proxy ``migrate --buoyancy proxy`` writes
    (:func:`gzinertia.vocabulary.proxy.is_buoyancy_proxy`) is no part of the body's shape:
    left out."""
    collisions = [c for c in collisions if not is_buoyancy_proxy(c.name)]
    total = combine_solids([collision_solid(c) for c in collisions])
    union = link_union(collisions, element)
    if union is None:
        return total
    notes = "; ".join(n for n in (total.approximation, union.note) if n)
    V = total.volume - union.overlap_volume
    if not V > 0.0:
        raise ShapeError(f"{union.note}: their union encloses no volume")
    p_total = np.asarray(total.p_FoFc_F, dtype=float)
    p = (total.volume * p_total - np.asarray(union.overlap_moment, dtype=float)) / V
    J = parallel_axis(total.G_FFc_F, total.volume, p_total) - union.overlap_J_BBo_B
    return checked_solid(V, p, parallel_axis(J, -V, p), notes)
