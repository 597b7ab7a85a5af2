"""A mesh as physics reads it: a ``trimesh.Trimesh`` in metres after ``<scale>``
(:func:`load_mesh`, from a :class:`~gzinertia.io.mesh_source.MeshSource`, by default the files
on disk) and the error for a geometry that has no solid
(:class:`ShapeError`). Below both :mod:`gzinertia.physics.shapes` and
:mod:`gzinertia.physics.mesh_body`, which read meshes through it; the one module of physics that
names the default source (:data:`~gzinertia.io.mesh_source.FILE_MESHES`).
"""

from __future__ import annotations

from typing import Any

from gzinertia.errors import GzInertiaError
from gzinertia.io.mesh_source import FILE_MESHES, MeshFileError, MeshRead, MeshSource, file_stamp

__all__ = ["FILE_MESHES", "MeshFileError", "MeshSource", "ShapeError", "file_stamp",
           "load_mesh", "read_mesh"]


class ShapeError(GzInertiaError):
    """A geometry that has no solid to compute (plane, heightmap, unreadable mesh, no volume)."""


def read_mesh(path: str, scale: tuple[float, float, float],
              source: MeshSource = FILE_MESHES) -> MeshRead:
    """The mesh ``path`` as ``source`` reads it after the per-axis ``scale`` (frame C, metres),
    its refusal a :class:`ShapeError` naming it. The default source reads each file once per
    process while it is unchanged (same inode, size and modification time: a process that
    audits twice sees an edited mesh)."""
    try:
        return source.read(path, scale)
    except MeshFileError as exc:
        raise ShapeError(str(exc)) from None


def load_mesh(path: str, scale: tuple[float, float, float],
              source: MeshSource = FILE_MESHES) -> Any:
    """:func:`read_mesh` as a ``trimesh.Trimesh`` (the caller's own copy, to modify)."""
    return read_mesh(path, scale, source).trimesh()

