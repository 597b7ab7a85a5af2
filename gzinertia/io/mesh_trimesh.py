"""Loading a mesh file with trimesh, after :func:`gzinertia.io.mesh_files.read_mesh_bytes` has
checked it (format, size, compression, text numbers, declared counts): the files a glTF names
read only from the mesh's folder and below, COLLADA read as gz-common reads it
(:mod:`gzinertia.io.mesh_collada`), coordinates refused when not finite, counts checked again
once loaded; and the mesh a :class:`~gzinertia.io.mesh_source.FileMeshSource` gives, after
``<scale>``.

This is the one io module that imports trimesh; the rest of the package (and everything that
reads a model without meshes) reaches it through the package face, :mod:`gzinertia.io`, when a
mesh is read.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import trimesh
import trimesh.resolvers

from gzinertia.io.limits import MeshLimits
from gzinertia.io.mesh_collada import ColladaError, read_collada
from gzinertia.io.mesh_files import MeshFileError, check_counts, read_mesh_bytes
from gzinertia.io.mesh_text import TEXT_FORMATS, bad_number
from gzinertia.io.safe_read import read_regular_file
from gzinertia.numbers import MAX_MAGNITUDE

__all__ = ["as_trimesh", "load_mesh_file", "read_scaled_mesh"]


def _folder_resolver(folder: Path, limit: int) -> Any:
    """A trimesh resolver that reads the files a mesh names (a glTF's buffers) only from
    ``folder`` and below, through :func:`~gzinertia.io.safe_read.read_regular_file` (regular files
    of at most ``limit`` bytes); anything else is not found."""
    root = folder.resolve()

    class FolderResolver(trimesh.resolvers.Resolver):
        def __init__(self, here: Path) -> None:
            self.here = here

        def get(self, name: str) -> bytes:
            target = (self.here / name.strip()).resolve()
            if not target.is_relative_to(root):
                raise FileNotFoundError(f"{name!r} is outside the mesh's folder: not read")
            return read_regular_file(target, limit)

        def write(self, name: str, data: object) -> None:
            raise NotImplementedError("meshes are only read")

        def namespaced(self, namespace: str) -> FolderResolver:
            return FolderResolver(self.here / namespace)

        def keys(self) -> list[str]:
            return []

    return FolderResolver(root)



def load_mesh_file(path: str, limits: MeshLimits | None = None) -> Any:
    """The mesh file ``path`` as trimesh loads it (``force="mesh"``), within ``limits``
    (default: :meth:`MeshLimits.from_environment`). Raises :class:`MeshFileError` for a refused
    file, :class:`OSError` when it cannot be read, and whatever trimesh raises on bad data."""
    limits = limits or MeshLimits.from_environment()
    data, file_type = read_mesh_bytes(path, limits)

    if file_type == "dae":
        return _load_collada(data, path, limits)

    options: dict[str, Any] = {"resolver": _folder_resolver(Path(path).parent, limits.max_bytes)}
    if file_type in ("obj", "gltf", "glb"):
        options["skip_materials"] = True
    try:
        with warnings.catch_warnings(), np.errstate(over="ignore", invalid="ignore"):
            # NumPy < 2 only warned, and read part of a word; a coordinate that overflows is
            # refused below (_check_coordinates), not warned about
            warnings.filterwarnings("error", message="string or file could not be read")
            loaded = trimesh.load(io.BytesIO(data), file_type=file_type, force="mesh",
                                  process=False, **options)
    except Exception:
        if file_type in TEXT_FORMATS:  # name the word trimesh's reader refused, if one is
            found = bad_number(data.decode("utf-8", errors="replace"), file_type, path)
            if found is not None:
                raise MeshFileError(found) from None
        raise
    # checked before trimesh's processing, which drops the triangles of a NaN or an infinity
    _check_coordinates(path, getattr(loaded, "vertices", ()))
    if isinstance(loaded, trimesh.Trimesh):
        loaded.process()  # as trimesh.load does by default: merged vertices
    check_counts(path, len(getattr(loaded, "vertices", ())),
                  len(getattr(loaded, "faces", ())), limits, "has")
    return loaded


def _check_coordinates(path: str, vertices: Any) -> None:
    """Vertex coordinates finite and within ±1e100, as every number gzinertia reads (trimesh
    reads ``inf``, ``nan`` and ``1e300`` as such, in text and binary formats alike, and its
    processing then drops the triangles of the non-finite ones without a word)."""
    v = np.asarray(vertices, dtype=float)
    if v.size and not float(np.max(np.abs(v))) <= MAX_MAGNITUDE:  # NaN too
        raise MeshFileError(
            f"mesh {path!r} has a vertex coordinate that is not finite or beyond "
            f"{MAX_MAGNITUDE:g}"
        )


def _load_collada(data: bytes, path: str, limits: MeshLimits) -> Any:
    """A COLLADA file as Gazebo reads it (:mod:`gzinertia.io.mesh_collada`: ``<unit>`` applied,
    node transforms as gz-common composes them, no other file opened), as a ``trimesh.Trimesh``
    whose coincident corners are merged."""
    try:
        vertices, faces = read_collada(data, path, limits)
    except ColladaError as exc:
        raise MeshFileError(str(exc)) from None
    mesh = trimesh.Trimesh(vertices=vertices, faces=faces, process=True)
    check_counts(path, len(mesh.vertices), len(mesh.faces), limits, "has")
    _check_coordinates(path, mesh.vertices)
    return mesh


def read_scaled_mesh(path: str, scale: tuple[float, float, float],
                     limits: MeshLimits) -> tuple[Any, Any]:
    """``(vertices, faces)`` of the mesh file ``path`` (:func:`load_mesh_file` within ``limits``)
    after the per-axis ``scale``, in the file's frame, metres: read-only float64 ``(n, 3)`` and
    int64 ``(m, 3)`` arrays, the winding reversed when the scale's determinant is negative.
    Raises :class:`~gzinertia.io.mesh_files.MeshFileError` naming the mesh for any file that
    gives no 3-D triangles."""
    try:
        loaded = load_mesh_file(path, limits)  # a regular file within the caps, no archive
    except MeshFileError:
        raise
    except Exception as exc:  # trimesh raises many types for unreadable files
        raise MeshFileError(f"mesh {path!r} cannot be loaded: {exc}") from exc
    if not isinstance(loaded, trimesh.Trimesh) or len(loaded.faces) == 0:
        raise MeshFileError(f"mesh {path!r} holds no triangles")
    if loaded.vertices.ndim != 2 or loaded.vertices.shape[1] != 3:
        # e.g. an OBJ whose first "v" line has two numbers: trimesh reads 2-D points
        raise MeshFileError(f"mesh {path!r} has vertices that are not 3-D points")
    mesh = loaded.copy()
    S = np.eye(4)
    S[:3, :3] = np.diag(scale)
    mesh.apply_transform(S)  # trimesh reverses the winding when det(S) < 0
    vertices = np.array(mesh.vertices, dtype=np.float64)
    faces = np.array(mesh.faces, dtype=np.int64)
    vertices.setflags(write=False)
    faces.setflags(write=False)
    return vertices, faces


def as_trimesh(vertices: Any, faces: Any) -> Any:
    """A ``trimesh.Trimesh`` of ``vertices`` (n x 3) and ``faces`` (m x 3), copies the caller may
    modify, not processed (same frame and units as given)."""
    return trimesh.Trimesh(np.array(vertices, dtype=np.float64),
                           np.array(faces, dtype=np.int64), process=False)
