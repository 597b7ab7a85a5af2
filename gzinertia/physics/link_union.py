"""The body a link displaces: the union of its collisions' solids, not their sum.

Two collisions that overlap (a box and a cylinder sharing a corner of a hull, a sphere over the
end of a tube) displace the water of their overlap once. The exact volume and centre of
hydrostatics are the union's: the sum of the shapes' exact figures (closed forms, the mesh
pipeline's solids: :mod:`gzinertia.physics.mesh_body`) less the overlap, measured by
manifold3d's boolean union of the shapes' closed surfaces in the link frame B (primitives
tessellated with :data:`SECTIONS` segments around, so the overlap, not the whole volume,
carries the tessellation's error). Gazebo's Buoyancy system sums the shapes: its numbers stay
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

from gzinertia.physics.mesh_body import OVERLAP_NOTE
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, Geometry

if TYPE_CHECKING:
    from gzinertia.physics.shapes import SolidProperties

__all__ = ["SECTIONS", "LinkUnion", "link_solid", "link_union"]

#: Segments around a round primitive's tessellation when an overlap is measured.
SECTIONS = 128


@dataclass(frozen=True, repr=False, eq=False)
class LinkUnion(ValueRecord):
    """What the union of a link's overlapping collisions takes from their sum, in the link
    frame B: ``overlap_volume`` (m³, ``Σ V_i - V_union``, ≥ 0), ``overlap_moment`` (m⁴, the
    same for the first moments of volume ``V·p_BoCv_B``), ``overlap_J_BBo_B`` (m⁵, the same for
    the second moments: the unit-density rotational inertia about the link origin Bo, B axes),
    ``meshes_B`` the overlapping
    shapes' closed surfaces and ``union_B`` their union (``trimesh.Trimesh``, link frame; for
    a graded fluid's slices and the flotation hull), ``note`` what was done, in words;
    ``members`` the collisions that may overlap (those ``meshes_B`` and ``union_B`` stand for)."""

    overlap_volume: float
    overlap_moment: Any
    overlap_J_BBo_B: Any
    meshes_B: tuple[Any, ...]
    union_B: Any
    note: str
    members: tuple[Collision, ...] = ()


def _bounding_radius(geometry: Geometry) -> float | None:
    """The radius of a sphere about the shape's own origin that holds it (``None``: no
    solid)."""
    from gzinertia.physics.mesh_body import mesh_body
    from gzinertia.physics.shapes import ShapeError

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
            vertices = mesh_body(g.mesh_path, g.scale).vertices
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


def _mesh_in_link(collision: Collision) -> Any:
    """The collision's closed surface in the link frame B (``None``: no solid)."""
    from gzinertia.physics.collision_mesh import collision_trimesh

    mesh = collision_trimesh(collision, SECTIONS)
    if mesh is None:
        return None
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = collision.X_BC.R, collision.X_BC.p
    return mesh.apply_transform(T)


def link_union(collisions: Sequence[Collision]) -> LinkUnion | None:
    """What uniting the link's ``collisions`` (those with a solid) takes from their sum
    (:class:`LinkUnion`); ``None`` when no two of them can overlap, or they do not.

    Without manifold3d the overlap is not measured: ``overlap_volume`` is 0 and the note says
    the overlaps are counted twice."""
    candidates = _overlapping(collisions)
    if len(candidates) < 2:
        return None
    meshes = [m for m in (_mesh_in_link(c) for c in candidates) if m is not None]
    if len(meshes) < 2:
        return None
    names = ", ".join(repr(c.name) for c in candidates)
    try:
        from gzinertia.physics.mesh_body import unite

        union = unite(meshes, f"the collisions {names}")
    except ImportError:
        return LinkUnion(0.0, np.zeros(3), np.zeros((3, 3)), tuple(meshes), None,
                         f"collisions {names} may overlap: their {OVERLAP_NOTE} "
                         "(manifold3d, gzinertia[bem], unites them)",
                         tuple(candidates))
    V_sum = sum(float(m.volume) for m in meshes)
    M_sum = sum((float(m.volume) * np.asarray(m.center_mass) for m in meshes), np.zeros(3))
    V_union = float(union.volume)
    overlap = V_sum - V_union
    if not overlap > 1e-9 * V_sum:
        return None  # apart, or touching: the sum is the union
    moment = M_sum - V_union * np.asarray(union.center_mass)
    J = sum((_J_about_origin(m) for m in meshes), np.zeros((3, 3))) - _J_about_origin(union)
    note = (f"collisions {names} overlap: the exact volume is their union "
            f"({overlap:.6g} m^3 of overlap counted once)")
    return LinkUnion(overlap, moment, J, tuple(meshes), union, note,
                     tuple(candidates))


def _J_about_origin(mesh: Any) -> Any:
    """The closed mesh's unit-density rotational inertia about its frame's origin (m⁵)."""
    from gzinertia.physics.inertia import parallel_axis

    volume = float(mesh.volume)
    G = np.asarray(mesh.moment_inertia, dtype=float) * (volume / float(mesh.mass))
    return parallel_axis(G, volume, np.asarray(mesh.center_mass, dtype=float))


def link_solid(collisions: Sequence[Collision]) -> SolidProperties:
    """The body the ``collisions`` displace together, in the link frame B: the union of their
    solids (:func:`gzinertia.physics.shapes.collision_solid`: closed forms, meshes through the
    geometry pipeline), overlaps counted once. Volume, centroid ``p_BoBc_B`` and unit-density
    inertia ``G_BBc_B`` about the centroid are the sum of the exact solids less the overlap's
    (:func:`link_union`: its volume, first and second moments; only the overlap carries a round
    primitive's tessellation error). ``approximation`` joins the shapes' notes and the union's
    (pieces united; or, without manifold3d, the overlaps counted twice). Raises
    :class:`~gzinertia.physics.shapes.ShapeError` when a shape has no solid or they enclose no
    volume."""
    from gzinertia.physics.inertia import parallel_axis
    from gzinertia.physics.shapes import ShapeError, checked_solid, collision_solid, combine_solids

    total = combine_solids([collision_solid(c) for c in collisions])
    union = link_union(collisions)
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
