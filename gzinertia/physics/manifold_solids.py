"""A shape's solid as a manifold3d ``Manifold``, posed in a link frame, and the moments of a closed
triangle surface with NumPy: what the union of a link's shapes
(:mod:`gzinertia.physics.link_union`) and the BEM's surface (:mod:`gzinertia.physics.surface_mesh`)
build their solids from, without trimesh (whose import loads SciPy: an audit of a plain SDF file
must not pay for it, ``tests/test_audit_lazy_imports.py``).

Primitives are manifold3d's own (box, sphere, ellipsoid, cylinder, capsule, cone, in the shape's
frame C as SDFormat and gz-math define them: centred on Co, axis along C's z, a cone's base at
``-L/2``); a mesh file's closed surface comes from the geometry pipeline
(:func:`gzinertia.physics.mesh_body.mesh_body`, which reads it with trimesh). manifold3d (the
``gzinertia[bem]`` extra) is imported here only (:data:`m3`, ``None`` when it is not installed):
every function needing it raises ImportError without it (:func:`manifold3d`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gzinertia.records import Geometry
from gzinertia.spatial.rotation import Pose

try:
    import manifold3d as m3
except ImportError:  # the optional extra gzinertia[bem]: callers say what they did without it
    m3 = None  # type: ignore[assignment]

__all__ = [
    "closed_manifold",
    "manifold3d",
    "manifold_triangles",
    "posed",
    "primitive_manifold",
    "triangle_moments",
]



def manifold3d() -> Any:
    """The manifold3d module (the ``gzinertia[bem]`` extra); ImportError naming it when it is not
    installed (each caller says what it did without it)."""
    if m3 is None:
        raise ImportError("manifold3d is not installed (pip install 'gzinertia[bem]')")
    return m3

def primitive_manifold(
    geometry: Geometry, scale: float, segments: Callable[[float], int]
) -> Any:
    """The primitive ``geometry`` in its own frame C, lengths multiplied by ``scale``, as a
    ``manifold3d.Manifold`` (round shapes with ``segments(r)`` segments around a circle of
    radius ``r`` metres, unscaled; an ellipsoid by its largest semi-axis); ``None`` for a mesh
    or a shape without its dimensions."""
    m3 = manifold3d()
    g = geometry
    if g.kind == "box" and g.size is not None:
        return m3.Manifold.cube([scale * float(v) for v in g.size], center=True)
    if g.kind == "sphere" and g.radius is not None:
        r = float(g.radius)
        return m3.Manifold.sphere(scale * r, segments(r))
    if g.kind == "ellipsoid" and g.size is not None:
        radii = [scale * float(v) for v in g.size]
        return m3.Manifold.sphere(1.0, segments(max(radii) / scale)).scale(radii)
    if g.kind not in ("cylinder", "capsule", "cone") or g.radius is None or g.length is None:
        return None
    r, length = float(g.radius), float(g.length)
    n = segments(r)
    if g.kind == "cone":  # base at -L/2, apex at +L/2 (gz-math's Cone)
        return m3.Manifold.cylinder(scale * length, scale * r, 0.0, n, center=True)
    body = m3.Manifold.cylinder(scale * length, scale * r, scale * r, n, center=True)
    if g.kind == "capsule":
        cap = m3.Manifold.sphere(scale * r, n)
        body = m3.Manifold.batch_boolean(
            [body, cap.translate([0.0, 0.0, scale * length / 2]),
             cap.translate([0.0, 0.0, -scale * length / 2])],
            m3.OpType.Add,
        )
    return body


def closed_manifold(vertices: Any, faces: Any) -> tuple[Any, str | None]:
    """A closed, outward triangle surface (``vertices`` n x 3, ``faces`` m x 3) as a
    ``manifold3d.Manifold`` (coincident vertices merged), and ``None``, or the name of
    manifold3d's status when it does not take it (not a 2-manifold): the caller says where."""
    m3 = manifold3d()
    mesh = m3.Mesh64(  # copies: manifold3d takes neither read-only nor subclassed arrays
        vert_properties=np.array(vertices, dtype=np.float64, order="C"),
        tri_verts=np.array(faces, dtype=np.uint64, order="C"),
    )
    mesh.merge()
    solid = m3.Manifold(mesh)
    status = solid.status()
    return solid, None if status == m3.Error.NoError else str(status.name)


def posed(solid: Any, X_BC: Pose) -> Any:
    """``solid`` (a ``manifold3d.Manifold`` in frame C) expressed in frame B: ``p_B = R_BC·p_C +
    p_BoCo_B``."""
    T = np.empty((3, 4))
    T[:, :3], T[:, 3] = np.asarray(X_BC.R, dtype=float), np.asarray(X_BC.p, dtype=float)
    return solid.transform(T)


def manifold_triangles(solid: Any) -> Any:
    """The triangles ``(n, 3, 3)`` of a ``manifold3d.Manifold``'s surface (its frame, outward
    winding, float64)."""
    mesh = solid.to_mesh64()
    vertices = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    return vertices[np.asarray(mesh.tri_verts, dtype=np.int64)]


def triangle_moments(triangles: Any) -> tuple[float, Any, Any]:
    """Volume ``V`` (m³), first moment ``V·p_FoFc_F`` (m⁴) and unit-density rotational inertia
    ``J_FFo_F`` about the frame's origin Fo (m⁵) of the solid a closed, outward triangle surface
    ``(n, 3, 3)`` bounds, in the triangles' frame F.

    Signed tetrahedra (Fo, a, b, c): volume ``a·(b×c)/6``, centroid ``(a+b+c)/4``, second moment
    ``∫x xᵀ dV = V/20·(a aᵀ + b bᵀ + c cᵀ + s sᵀ)`` with ``s = a+b+c``; then
    ``J = tr(C)·1 - C``. Exact for the polyhedron, whatever Fo."""
    t = np.asarray(triangles, dtype=float).reshape(-1, 3, 3)
    if len(t) == 0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    a, b, c = t[:, 0], t[:, 1], t[:, 2]
    v = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    s = a + b + c
    first = (v[:, None] * s).sum(axis=0) / 4.0
    C = sum((np.einsum("i,ij,ik->jk", v, x, x) for x in (a, b, c, s)), np.zeros((3, 3))) / 20.0
    return float(v.sum()), first, float(np.trace(C)) * np.eye(3) - C
