"""A collision's solid as one closed triangle mesh in its own frame C: primitives tessellated,
mesh files as the geometry pipeline makes them (:mod:`gzinertia.physics.mesh_body`). Below
hydrostatics, flotation and the union of a link's collisions, which all slice or unite it.

This module imports trimesh: the modules an audit loads (graded buoyancy) reach it through the
package face, ``gzinertia.physics.collision_mesh.collision_trimesh(...)``, when they slice.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import trimesh

from gzinertia.physics.mesh_body import mesh_body
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.records import Collision

__all__ = ["collision_trimesh"]


def collision_trimesh(collision: Collision, sections: int = 256) -> Any:
    """The collision's solid as a closed ``trimesh.Trimesh`` in its own frame C (primitives
    tessellated with ``sections`` segments around; meshes after ``<scale>``: the solid
    :func:`gzinertia.physics.mesh_body.mesh_body` makes of the file), or ``None``."""
    g = collision.geometry
    if g.kind == "box" and g.size is not None:
        return trimesh.creation.box(extents=g.size)
    # round shapes are built at unit radius and then scaled: trimesh merges vertices closer
    # than an absolute tolerance, which tears a small sphere's poles open (a 12.5 mm sphere at
    # 128 segments is not closed) and would collapse a micrometre cylinder
    if g.kind == "sphere" and g.radius is not None:
        unit = trimesh.creation.uv_sphere(radius=1.0, count=[sections, sections])
        return unit.apply_transform(np.diag([g.radius, g.radius, g.radius, 1.0]))
    if g.kind == "cylinder" and g.radius is not None and g.length is not None:
        unit = trimesh.creation.cylinder(radius=1.0, height=g.length / g.radius,
                                         sections=sections)
        return unit.apply_transform(np.diag([g.radius, g.radius, g.radius, 1.0]))
    if g.kind == "capsule" and g.radius is not None and g.length is not None:
        unit = trimesh.creation.capsule(height=g.length / g.radius, radius=1.0,
                                        count=[sections, sections])
        return unit.apply_transform(np.diag([g.radius, g.radius, g.radius, 1.0]))
    if g.kind == "cone" and g.radius is not None and g.length is not None:
        unit = trimesh.creation.cone(radius=1.0, height=g.length / g.radius, sections=sections)
        unit.apply_translation([0.0, 0.0, -0.5 * g.length / g.radius])  # base at -L/2
        return unit.apply_transform(np.diag([g.radius, g.radius, g.radius, 1.0]))
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
