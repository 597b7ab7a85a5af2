"""The collision and visual geometry of the HTML report (:mod:`gzinertia.report.html_report`):
each shape as the triangles Gazebo builds it, posed in the world frame W.

Primitives are tessellated by :func:`gzinertia.physics.collision_mesh.collision_trimesh`
(:data:`SECTIONS` segments around: a picture, not a volume); mesh files are the solid the
geometry pipeline makes of them (:func:`gzinertia.physics.mesh_body.mesh_body`: repaired,
pieces united, or its hull fallback, which the report then names). Vertices travel as
little-endian float32 and triangles as uint32, base64-encoded, so that a 100 000-triangle mesh
costs about 2.4 MB of HTML (24 bytes a triangle) rather than 10 as decimal text.

Whatever is not drawn (a plane, a mesh that cannot be read, a visual the reader skipped) is
returned as a sentence naming the link and the shape: the report lists it (never silent).
"""

from __future__ import annotations

import base64
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from gzinertia.errors import GzInertiaError
from gzinertia.physics.collision_mesh import collision_trimesh
from gzinertia.physics.mesh_body import mesh_body
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, LinkRecord
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = ["SECTIONS", "ShapeMesh", "encoded", "link_meshes"]

#: Segments around a tessellated round primitive (the BEM and volume code use 256).
SECTIONS = 32

Role = GeometryElement


@dataclass(frozen=True, repr=False, eq=False)
class ShapeMesh(ValueRecord):
    """One shape's triangles in the world frame W: ``positions`` (base64 of float32 x, y, z per
    vertex, m), ``indices`` (base64 of uint32, three per triangle, counter-clockwise seen from
    outside); ``note`` what was done to get the solid (a hull fallback, a repair), else ``""``."""

    link: str
    role: Role
    name: str
    kind: str
    positions: str
    indices: str
    note: str = ""

    def as_json(self) -> dict[str, str]:
        """The mesh as the page's data (the field names above)."""
        return dict(asdict(self))


def encoded(values: Any, dtype: str) -> str:
    """``values`` as the page carries arrays: base64 of their bytes as ``dtype``
    (little-endian ``<f4`` or ``<u4``)."""
    return base64.b64encode(np.ascontiguousarray(values, dtype=dtype).tobytes()).decode("ascii")


def _solid(shape: Collision) -> tuple[Any, str] | str:
    """The shape's (vertices, faces) in its frame C and what was done to get them, or the reason
    it has none."""
    g = shape.geometry
    if g.kind != "mesh":
        tri = collision_trimesh(shape, SECTIONS)
        return f"{g.kind} has no solid to draw" if tri is None else (tri, "")

    if g.mesh_path is None:
        return f"mesh {g.mesh_uri!r} not found"
    try:
        body = mesh_body(g.mesh_path, g.scale)
    except GzInertiaError as exc:
        return str(exc)
    return body.trimesh(), body.note or ""


def link_meshes(link: LinkRecord) -> tuple[list[ShapeMesh], list[str]]:
    """The link's collisions then visuals as :class:`ShapeMesh` values posed in W (the link at
    ``X_WB``, each shape at its ``X_BC``), and a sentence per shape not drawn."""
    meshes: list[ShapeMesh] = []
    missing = [f"{link.name}: visual {v.name!r} not drawn: {v.reason}"
               for v in link.unread_visuals]
    roles: tuple[tuple[Role, tuple[Collision, ...]], ...] = (
        ("collision", link.collisions), ("visual", link.visuals))
    for role, shapes in roles:
        for shape in shapes:
            solid = _solid(shape)
            if isinstance(solid, str):
                missing.append(f"{link.name}: {role} {shape.name!r} not drawn: {solid}")
                continue
            tri, note = solid
            X_WC = link.X_WB @ shape.X_BC
            p_W = np.asarray(tri.vertices, dtype=float) @ X_WC.R.T + X_WC.p
            meshes.append(ShapeMesh(link.name, role, shape.name, shape.geometry.kind,
                                    encoded(p_W, "<f4"), encoded(tri.faces, "<u4"), note))
    return meshes, missing
