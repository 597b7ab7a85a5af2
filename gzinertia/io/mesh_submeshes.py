"""The submeshes gz-common's mesh loaders build from a mesh file: what Gazebo's mesh volume sums.

gz-common's ``Mesh::Volume`` (``graphics/src/Mesh.cc``) is the sum over the mesh's submeshes of
each one's ``SubMesh::Volume``, so where a file's triangles fall into submeshes changes the
volume Gazebo's Buoyancy system computes (:func:`gzinertia.physics.hydrostatics.
gazebo_mesh_volume`). The split follows gz-common's loaders (read at gz-common ``f4a6dbd``,
2026-08-21):

* **OBJ** (``OBJLoader.cc`` over its bundled tinyobjloader 1.4, ``triangulate = true``): one
  tinyobjloader *shape* per ``o`` or ``g`` section (a ``g`` line starts a new shape, which is
  kept when it has faces; an ``o`` line keeps the shape before it only when faces were read
  since the last ``usemtl`` change, as tinyobjloader does), and within a shape one submesh per
  material id, in order of first use. A ``usemtl`` names a material id only when an
  ``mtllib`` file (read from the mesh's folder or below, at most
  :attr:`~gzinertia.io.limits.MeshLimits.max_bytes`, only its ``newmtl`` lines) defines it;
  otherwise the id is -1, as for faces before any ``usemtl``. Polygons are fanned from their
  first corner (tinyobjloader clips ears: the same signed volume for a planar polygon); faces
  of fewer than three corners are dropped.
* **COLLADA** (``ColladaLoader.cc``): one submesh per ``<triangles>`` or ``<polylist>`` block
  of each geometry instance (:func:`gzinertia.io.mesh_collada.read_collada_submeshes`).
* **STL** (``STLLoader.cc``) and every other format: one submesh (glTF and GLB, which gz-common
  reads through assimp with a submesh per primitive, are taken as one: an approximation).

Coordinates are read in double precision (tinyobjloader reads OBJ in single precision: a
relative difference of about 1e-7).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from gzinertia.io.limits import MeshLimits
from gzinertia.io.mesh_collada import ColladaError, read_collada_submeshes
from gzinertia.io.mesh_files import MeshFileError, read_mesh_bytes
from gzinertia.io.mesh_trimesh import load_mesh_file
from gzinertia.io.safe_read import read_regular_file

__all__ = ["gazebo_submeshes", "obj_submeshes"]


def gazebo_submeshes(path: str, limits: MeshLimits | None = None) -> list[Any]:
    """The triangles ``(n, 3, 3)`` (file units and axes, float64; COLLADA in metres) of each
    submesh gz-common builds from the mesh file ``path``, in its order (see the module). Raises
    :class:`~gzinertia.io.mesh_files.MeshFileError` for a file that is not read."""
    limits = limits or MeshLimits.from_environment()
    data, file_type = read_mesh_bytes(path, limits)
    if file_type == "dae":
        try:
            return read_collada_submeshes(data, path, limits)
        except ColladaError as exc:
            raise MeshFileError(str(exc)) from None
    if file_type == "obj":
        return obj_submeshes(data, path, limits)
    mesh = load_mesh_file(path, limits)
    return [np.asarray(mesh.vertices, dtype=float)[np.asarray(mesh.faces)]]


def _material_names(line: str, folder: Path, limits: MeshLimits) -> list[str]:
    """The materials the first readable file of an ``mtllib`` line defines (``newmtl``), in
    order; files outside ``folder`` (and below) or that cannot be read define none."""
    root = folder.resolve()
    for name in line.split(" "):
        if not name:
            continue
        target = (root / name).resolve()
        if not target.is_relative_to(root):
            continue
        try:
            text = read_regular_file(target, limits.max_bytes).decode("utf-8", "replace")
        except OSError:
            continue
        return [raw[7:].rstrip("\r") for raw in (s.lstrip(" \t") for s in text.split("\n"))
                if raw.startswith("newmtl") and raw[6:7] in (" ", "\t")]
    return []


class _Shapes:
    """tinyobjloader's shapes as they are read: faces ``(corner indices, material id)``."""

    def __init__(self) -> None:
        self.shapes: list[list[tuple[list[int], int]]] = []
        self.shape: list[tuple[list[int], int]] = []
        self.group: list[list[int]] = []  # faceGroup: faces read since the last export

    def export(self, material: int) -> bool:
        """``exportGroupsToShape``: the faces read go into the shape with this material."""
        if not self.group:
            return False
        self.shape.extend((face, material) for face in self.group if len(face) >= 3)
        self.group = []
        return True

    def next_shape(self, keep: bool) -> None:
        if keep and self.shape:
            self.shapes.append(self.shape)
        self.shape = []


def obj_submeshes(data: bytes, path: str, limits: MeshLimits) -> list[Any]:
    """The triangles ``(n, 3, 3)`` of each submesh gz-common's ``OBJLoader`` builds from the
    OBJ text ``data`` (see the module): per shape, per material id in order of first use.
    Raises :class:`~gzinertia.io.mesh_files.MeshFileError` naming the file and line for an index
    tinyobjloader refuses (zero, not a number): Gazebo then loads no mesh."""
    vertices: list[tuple[float, float, float]] = []
    materials: dict[str, int] = {}
    material = -1
    shapes = _Shapes()
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), start=1):
        line = raw.rstrip("\r").lstrip(" \t")
        key = line[:2]
        if key in ("v ", "v\t"):
            words = [*line[2:].split(), "0", "0", "0"][:3]
            vertices.append(_point(words, path, number))
        elif key in ("f ", "f\t"):
            shapes.group.append([_index(w, len(vertices), path, number)
                                 for w in line[2:].split()])
        elif line.startswith("usemtl") and line[6:7] in (" ", "\t"):
            new = materials.get(line[7:], -1)
            if new != material:
                shapes.export(material)
                material = new
        elif line.startswith("mtllib") and line[6:7] in (" ", "\t"):
            for name in _material_names(line[7:], Path(path).parent, limits):
                materials.setdefault(name, len(materials))
        elif key in ("g ", "g\t"):
            shapes.export(material)
            shapes.next_shape(True)
        elif key in ("o ", "o\t"):
            shapes.next_shape(shapes.export(material))
    shapes.next_shape(shapes.export(material) or bool(shapes.shape))
    points = np.asarray(vertices, dtype=float).reshape(-1, 3)
    out: list[Any] = []
    for shape in shapes.shapes:
        by_material: dict[int, list[list[int]]] = {}
        for face, mat in shape:
            fan = [[face[0], face[k], face[k + 1]] for k in range(1, len(face) - 1)]
            by_material.setdefault(mat, []).extend(
                t for t in fan if all(0 <= i < len(points) for i in t))
        out.extend(points[np.asarray(tri, dtype=np.int64).reshape(-1, 3)]
                   for tri in by_material.values())
    return out


def _point(words: list[str], path: str, line: int) -> tuple[float, float, float]:
    try:
        x, y, z = (float(w) for w in words)
    except ValueError:
        raise MeshFileError(f"mesh {path!r}, line {line}: a vertex that is not three numbers"
                            ) from None
    return x, y, z


def _index(word: str, count: int, path: str, line: int) -> int:
    """The 0-based index tinyobjloader's ``fixIndex`` makes of a face corner's vertex index
    (1-based, or negative from the end); zero or a word that is not a number makes it refuse
    the file."""
    first = word.split("/", 1)[0]
    try:
        index = int(first)
    except ValueError:
        index = 0
    if index == 0:
        raise MeshFileError(f"mesh {path!r}, line {line}: face index {first!r} is not a "
                            "non-zero whole number: Gazebo's OBJ loader refuses the file")
    return index - 1 if index > 0 else count + index
