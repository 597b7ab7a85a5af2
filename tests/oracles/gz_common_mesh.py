"""A test re-implementation of gz-common's ``Mesh::Volume`` over its loaders' submeshes.

Written from gz-common's C++ at f4a6dbd (2026-08-21), independently of gzinertia's code:

* ``graphics/src/Mesh.cc`` ``Mesh::Volume``: ``Σ submesh->Volume()``.
* ``graphics/src/SubMesh.cc`` ``SubMesh::Volume`` (since #877): no indices → 0; else
  ``|Σ v1.Cross(v2).Dot(v3) / 6|`` over its triangles.
* ``graphics/src/OBJLoader.cc`` over tinyobjloader (``tiny_obj_loader.h``, ``LoadObj`` with
  ``triangulate``): for each tinyobj shape, a submesh per distinct ``material_ids`` entry.
  tinyobj: ``g`` flushes the pending faces into the shape and pushes the shape when it has
  indices; ``o`` pushes it only when faces were pending; ``usemtl`` with another id than the
  current one flushes the pending faces with the old id (an id is the index of a ``newmtl`` in
  the loaded ``.mtl``, -1 when unknown); the end pushes when faces were pending or the shape
  has indices. Here polygons are read as triangles only (the test files hold triangles).
* ``graphics/src/ColladaLoader.cc``: ``LoadTriangles`` makes one ``SubMesh`` per
  ``<triangles>`` block (the test files: one node, identity transform, no ``<unit>``).
* STL: one submesh.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


def submesh_volume(triangles: Any) -> float:
    """``SubMesh::Volume``: ``|Σ (v1 × v2)·v3 / 6|``; 0 without triangles."""
    t = np.asarray(triangles, dtype=float).reshape(-1, 3, 3)
    if len(t) == 0:
        return 0.0
    total = 0.0
    for v1, v2, v3 in t:
        total += float(np.dot(np.cross(v1, v2), v3)) / 6.0
    return abs(total)


def _mtl_names(folder: Path, line: str) -> list[str]:
    for name in line.split(" "):
        target = folder / name
        if name and target.is_file():
            return [row[len("newmtl "):].rstrip("\r")
                    for row in target.read_text().split("\n") if row.startswith("newmtl ")]
    return []


def obj_submeshes(path: Path) -> list[np.ndarray]:
    """tinyobj shapes, then OBJLoader's per-material submeshes (see the module)."""
    v: list[list[float]] = []
    material_map: dict[str, int] = {}
    material = -1
    shapes: list[list[tuple[tuple[int, int, int], int]]] = []
    shape: list[tuple[tuple[int, int, int], int]] = []
    pending: list[tuple[int, int, int]] = []

    def flush() -> bool:
        nonlocal pending
        if not pending:
            return False
        shape.extend((face, material) for face in pending)
        pending = []
        return True

    for row in path.read_text().split("\n"):
        words = row.split()
        if not words:
            continue
        if words[0] == "v":
            v.append([float(x) for x in words[1:4]])
        elif words[0] == "f":
            idx = [int(w.split("/")[0]) for w in words[1:]]
            assert len(idx) == 3, "the oracle reads triangles only"
            pending.append(tuple(i - 1 if i > 0 else len(v) + i for i in idx))  # type: ignore[arg-type]
        elif words[0] == "mtllib":
            for name in _mtl_names(path.parent, row.split(" ", 1)[1]):
                material_map[name] = len(material_map)
        elif words[0] == "usemtl":
            new_id = material_map.get(row.split(" ", 1)[1], -1)
            if new_id != material:
                flush()
                material = new_id
        elif words[0] == "g":
            flush()
            if shape:
                shapes.append(shape)
            shape = []
        elif words[0] == "o":
            if flush():
                shapes.append(shape)
            shape = []
    if flush() or shape:
        shapes.append(shape)
    points = np.asarray(v, dtype=float)
    out = []
    for s in shapes:
        ids: list[int] = []
        for _, mat in s:
            if mat not in ids:
                ids.append(mat)
        for mat in ids:
            out.append(points[np.array([face for face, m in s if m == mat])])
    return out


def dae_submeshes(path: Path) -> list[np.ndarray]:
    """One submesh per ``<triangles>`` block of each instanced geometry."""
    from lxml import etree

    ns = {"c": "http://www.collada.org/2005/11/COLLADASchema"}
    root = etree.parse(str(path)).getroot()
    out = []
    for instance in root.iterfind(".//c:library_visual_scenes//c:instance_geometry", ns):
        gid = instance.get("url").lstrip("#")
        geometry = root.find(f".//c:geometry[@id='{gid}']", ns)
        mesh = geometry.find("c:mesh", ns)
        vertices = mesh.find("c:vertices", ns)
        source_id = vertices.find("c:input[@semantic='POSITION']", ns).get("source").lstrip("#")
        array = mesh.find(f"c:source[@id='{source_id}']/c:float_array", ns)
        points = np.array(array.text.split(), dtype=float).reshape(-1, 3)
        for block in mesh.iterfind("c:triangles", ns):
            stride = len(block.findall("c:input", ns))
            p = np.array(block.find("c:p", ns).text.split(), dtype=int)
            offset = int(block.find("c:input[@semantic='VERTEX']", ns).get("offset"))
            out.append(points[p[offset::stride].reshape(-1, 3)])
    return out


def mesh_volume(path: str | Path) -> float:
    """gz-common's ``Mesh::Volume`` of the file (OBJ, COLLADA as above, or STL)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".obj":
        parts = obj_submeshes(path)
    elif suffix == ".dae":
        parts = dae_submeshes(path)
    else:
        import trimesh

        parts = [np.asarray(trimesh.load(str(path), force="mesh").triangles)]
    return sum(submesh_volume(t) for t in parts)
