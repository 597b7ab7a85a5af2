"""Mesh files of the kinds real vehicles ship, generated for the geometry-pipeline tests
(tests/test_geometry_union.py, tests/test_mesh_repair.py): several closed pieces in one file,
a capsule exported as three parts, a finned torpedo welded into one closed surface (manifold3d),
and a hull with the defects CAD exports have. Each builder returns ``trimesh.Trimesh`` objects;
the oracles (manifold3d's union, Capytaine) are computed in the tests."""

from __future__ import annotations

from typing import Any

import numpy as np
import trimesh


def overlapping_pieces() -> list[Any]:
    """Two boxes and a cylinder that overlap (closed pieces, metres)."""
    return [
        trimesh.creation.box(extents=(0.8, 0.3, 0.3)),
        trimesh.creation.box(extents=(0.3, 0.7, 0.25)).apply_translation((0.2, 0.1, 0.0)),
        trimesh.creation.cylinder(radius=0.15, height=0.9, sections=24).apply_translation(
            (-0.25, 0.0, 0.05)
        ),
    ]


def capsule_parts(radius: float = 0.1, length: float = 0.6, sections: int = 32) -> list[Any]:
    """A capsule along z as CAD tools export it: a closed cylinder and a closed sphere on each
    end (the spheres overlap the cylinder)."""
    body = trimesh.creation.cylinder(radius=radius, height=length, sections=sections)
    caps = [
        trimesh.creation.uv_sphere(radius=radius, count=[sections, sections]).apply_translation(
            (0.0, 0.0, z)
        )
        for z in (-length / 2, length / 2)
    ]
    return [body, *caps]


def manifold_of(mesh: Any) -> Any:
    """A closed ``trimesh.Trimesh`` as a manifold3d.Manifold (double precision)."""
    import manifold3d as m3

    m = m3.Mesh64(vert_properties=np.array(mesh.vertices, dtype=np.float64),
                  tri_verts=np.array(mesh.faces, dtype=np.uint64))
    m.merge()
    return m3.Manifold(m)


def trimesh_of(solid: Any) -> Any:
    """A manifold3d.Manifold as a ``trimesh.Trimesh``."""
    out = solid.to_mesh64()
    return trimesh.Trimesh(np.asarray(out.vert_properties, dtype=float)[:, :3],
                           np.asarray(out.tri_verts, dtype=np.int64), process=False)


def union_of(meshes: list[Any]) -> Any:
    """The manifold3d union of closed meshes, as a ``trimesh.Trimesh``."""
    import manifold3d as m3

    return trimesh_of(m3.Manifold.batch_boolean([manifold_of(m) for m in meshes], m3.OpType.Add))


def finned_torpedo(radius: float = 0.1, length: float = 0.8, fin: float = 0.12,
                   thickness: float = 0.006) -> Any:
    """A capsule along x with four thin fins welded on at the tail: ONE closed surface (the
    manifold3d union of the capsule and four thin boxes), as a ``trimesh.Trimesh``."""
    import manifold3d as m3

    body = m3.Manifold.cylinder(length, radius, radius, 32, center=True)
    cap = m3.Manifold.sphere(radius, 32)
    parts = [body, cap.translate([0, 0, length / 2]), cap.translate([0, 0, -length / 2])]
    for k in range(4):
        box = m3.Manifold.cube([thickness, radius + fin, 0.15], center=True)
        box = box.translate([0, (radius + fin) / 2, -length / 2 + 0.05]).rotate([0, 0, 90 * k])
        parts.append(box)
    solid = m3.Manifold.batch_boolean(parts, m3.OpType.Add).rotate([0, 90, 0])
    return trimesh_of(solid)


def outward_union(mesh: Any) -> Any:
    """The solid a closed mesh bounds as the oracle builds it, independently of gzinertia's
    reader and repair: vertices merged (trimesh), split into connected pieces, each piece
    with a negative signed volume inverted, the pieces united by manifold3d (one piece as it
    is)."""
    merged = mesh.copy()
    merged.merge_vertices(merge_tex=True, merge_norm=True)
    pieces = merged.split(only_watertight=False)
    for piece in pieces:
        if piece.volume < 0.0:
            piece.invert()
    return pieces[0] if len(pieces) == 1 else union_of(list(pieces))
