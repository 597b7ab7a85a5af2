"""What uniting a link's shapes takes from their sum, measured here for the oracles that sum
shapes (Drake's ``fix_inertia`` and ``CalcSpatialInertia``, libsdformat's auto inertia): the
overlap's volume, first and second moments, as manifold3d's boolean union of the shapes.

Two tessellations of round primitives, built here without the tool's code:

* ``"manifold"`` (the default): manifold3d's own primitives with :data:`SECTIONS` segments
  around, the tessellation the tool measures an overlap on
  (:data:`gzinertia.physics.link_union.SECTIONS`): what is checked is the union's algebra and the
  oracle's sum, exactly; the tessellation's own error on a round overlap (a thin lens between
  two cylinders carries a few per cent of its small volume) is the tool's stated
  approximation, not measured here (``tests/test_union_consumers.py`` measures polyhedral
  overlaps exactly);
* ``"trimesh"``: trimesh's primitives (UV spheres, :data:`TRIMESH_SECTIONS` segments), an
  independent tessellation the tool's overlap is compared with
  (``tests/test_proxy_union.py``).

Moments are trimesh's mass properties (not the tool's signed-tetrahedra sums).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

SECTIONS = 256
TRIMESH_SECTIONS = 128
#: Relative agreement of the two measurements of an overlap (rounding of the unions' moments).
OVERLAP_RTOL = 1e-6


def _manifold_primitive(g: Any) -> Any:
    """manifold3d's own primitive of SDFormat geometry ``g`` in its frame (``None``: a mesh)."""
    import manifold3d as m3

    if g.kind == "box":
        return m3.Manifold.cube(list(g.size), center=True)
    if g.kind == "sphere":
        return m3.Manifold.sphere(g.radius, SECTIONS)
    if g.kind == "ellipsoid":
        return m3.Manifold.sphere(1.0, SECTIONS).scale(list(g.size))
    if g.kind == "cone":  # base at -L/2 (gz-math)
        return m3.Manifold.cylinder(g.length, g.radius, 0.0, SECTIONS, center=True)
    if g.kind in ("cylinder", "capsule"):
        solid = m3.Manifold.cylinder(g.length, g.radius, g.radius, SECTIONS, center=True)
        if g.kind == "capsule":
            cap = m3.Manifold.sphere(g.radius, SECTIONS)
            solid = solid + cap.translate((0.0, 0.0, g.length / 2))
            solid = solid + cap.translate((0.0, 0.0, -g.length / 2))
        return solid
    return None


def _meshes_B(shapes: Sequence[Any], tessellation: str = "manifold") -> list[Any]:
    import trimesh

    from gzinertia.physics.collision_mesh import collision_trimesh

    meshes = []
    for c in shapes:
        solid = _manifold_primitive(c.geometry) if tessellation == "manifold" else None
        if solid is not None:
            out = solid.to_mesh64()
            mesh = trimesh.Trimesh(np.asarray(out.vert_properties)[:, :3].copy(),
                                   np.asarray(out.tri_verts), process=False)
        else:
            mesh = collision_trimesh(c, TRIMESH_SECTIONS)
        if mesh is None:
            continue
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = c.X_BC.R, c.X_BC.p
        meshes.append(mesh.apply_transform(T))
    return meshes


def _unit_spatial(mesh: Any) -> np.ndarray:
    """The closed mesh's unit-density spatial inertia about the origin, angular-first (6x6)."""
    V = float(mesh.volume)
    c = np.asarray(mesh.center_mass, dtype=float)
    G = np.asarray(mesh.moment_inertia, dtype=float) * V / float(mesh.mass)
    return spatial(V, V * c, G + V * (float(c @ c) * np.eye(3) - np.outer(c, c)))


def spatial(V: float, M: np.ndarray, J: np.ndarray) -> np.ndarray:
    """``[[J, [M]×], [[M]×ᵀ, V·1]]`` (angular-first, about the origin; Drake's layout)."""
    x, y, z = M
    S = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return np.block([[J, S], [S.T, V * np.eye(3)]])


def overlap(shapes: Sequence[Any], tessellation: str = "manifold") -> np.ndarray:
    """``Σ - union`` of the shapes' unit-density spatial inertias about the link origin Bo
    (angular-first; zero when no two overlap), round shapes tessellated as ``tessellation``
    says (the module)."""
    import manifold3d as m3
    import trimesh

    meshes = _meshes_B(shapes, tessellation)
    if len(meshes) < 2:
        return np.zeros((6, 6))
    solids = [m3.Manifold(m3.Mesh64(vert_properties=np.asarray(m.vertices, dtype=np.float64),
                                    tri_verts=np.asarray(m.faces, dtype=np.uint64)))
              for m in meshes]
    union = m3.Manifold.batch_boolean(solids, m3.OpType.Add).to_mesh64()
    united = trimesh.Trimesh(np.asarray(union.vert_properties)[:, :3],
                             np.asarray(union.tri_verts))
    O = sum((_unit_spatial(m) for m in meshes), np.zeros((6, 6))) - _unit_spatial(united)
    return O if O[3, 3] > 1e-12 * sum(float(m.volume) for m in meshes) else np.zeros((6, 6))


def united_fix(ref: np.ndarray, V_sum: float, shapes: Sequence[Any]) -> tuple[np.ndarray, float]:
    """A summing oracle's fix (``ref``: mass m spread over the shapes' summed volume ``V_sum``,
    spatial inertia about Bo) re-spread over their union: ``m/(V_sum - V_o)·(U - O)`` with
    ``U = V_sum/m·ref``; and the tolerance the overlap's measurement allows (absolute)."""
    m = float(ref[3, 3])
    O = overlap(shapes)
    U = ref * (V_sum / m)
    V_u = V_sum - float(O[3, 3])
    return m / V_u * (U - O), OVERLAP_RTOL * m / V_u * float(np.max(np.abs(O)))


def summed_volume(shapes: Sequence[Any]) -> float:
    """The shapes' volumes summed: closed forms; a mesh's closed surface by trimesh."""
    total = 0.0
    for c in shapes:
        g = c.geometry
        if g.kind == "box":
            total += float(np.prod(g.size))
        elif g.kind in ("sphere", "capsule"):
            total += 4.0 / 3.0 * np.pi * g.radius**3
            total += np.pi * g.radius**2 * g.length if g.kind == "capsule" else 0.0
        elif g.kind == "cylinder":
            total += np.pi * g.radius**2 * g.length
        elif g.kind == "ellipsoid":
            total += 4.0 / 3.0 * np.pi * float(np.prod(g.size))
        else:
            mesh = _meshes_B([c])
            total += float(mesh[0].volume) if mesh else 0.0
    return total


def united_moments(
    V: float, c: np.ndarray, G: np.ndarray, shapes: Sequence[Any]
) -> tuple[float, np.ndarray, np.ndarray]:
    """A summing oracle's volume ``V``, centroid ``c`` and unit-density inertia ``G`` about it
    (link frame) for the shapes' union: the overlap's moments taken off once."""
    O = overlap(shapes)
    U = spatial(V, V * c, G + V * (float(c @ c) * np.eye(3) - np.outer(c, c))) - O
    V_u = float(U[3, 3])
    c_u = np.array([U[2, 4], U[0, 5], U[1, 3]]) / V_u  # [M]× holds M
    J = U[:3, :3]
    return V_u, c_u, J - V_u * (float(c_u @ c_u) * np.eye(3) - np.outer(c_u, c_u))
