"""A collision's solid as one closed triangle mesh in its own frame C: primitives tessellated,
mesh files as the geometry pipeline makes them (:mod:`gzinertia.physics.mesh_body`). Below
hydrostatics, flotation and the union of a link's collisions, which all slice or unite it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gzinertia.records import Collision

__all__ = ["collision_trimesh"]


def collision_trimesh(collision: Collision, sections: int = 256) -> Any:
    """The collision's solid as a closed ``trimesh.Trimesh`` in its own frame C (primitives
    tessellated with ``sections`` segments around; meshes after ``<scale>``: the solid
    :func:`gzinertia.physics.mesh_body.mesh_body` makes of the file), or ``None``."""
    import trimesh

    from gzinertia.physics.mesh_body import mesh_body
    from gzinertia.physics.mesh_load import ShapeError

    g = collision.geometry
    if g.kind == "box" and g.size is not None:
        return trimesh.creation.box(extents=g.size)
    if g.kind == "sphere" and g.radius is not None:
        return trimesh.creation.uv_sphere(radius=g.radius, count=[sections, sections])
    if g.kind == "cylinder" and g.radius is not None and g.length is not None:
        return trimesh.creation.cylinder(radius=g.radius, height=g.length, sections=sections)
    if g.kind == "capsule" and g.radius is not None and g.length is not None:
        return trimesh.creation.capsule(height=g.length, radius=g.radius,
                                        count=[sections, sections])
    if g.kind == "cone" and g.radius is not None and g.length is not None:
        cone = trimesh.creation.cone(radius=g.radius, height=g.length, sections=sections)
        return cone.apply_translation([0.0, 0.0, -0.5 * g.length])  # base at -L/2
    if g.kind == "ellipsoid" and g.size is not None:
        mesh = trimesh.creation.uv_sphere(radius=1.0, count=[sections, sections])
        S = np.eye(4)
        S[:3, :3] = np.diag(g.size)
        return mesh.apply_transform(S)
    if g.kind == "mesh" and g.mesh_path is not None:
        try:  # the body every consumer has (repaired, pieces united, or the hull chosen)
            return mesh_body(g.mesh_path, g.scale).trimesh()
        except ShapeError:
            return None
    return None
