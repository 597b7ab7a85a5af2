"""Where physics gets a mesh: the :class:`MeshSource` protocol, and :data:`FILE_MESHES`, the
mesh files on disk read within the caps (the default every command passes).

Physics (:mod:`gzinertia.physics.mesh_load`, :mod:`gzinertia.physics.mesh_body`,
:mod:`gzinertia.physics.hydrostatics`, :mod:`gzinertia.physics.shapes`) reads a mesh only
through a source it is given, by the resolved path a geometry names: its triangles after
``<scale>`` (:meth:`MeshSource.read`), the submeshes gz-common would build from it
(:meth:`MeshSource.submeshes`), a digest of its content (:meth:`MeshSource.digest`) and a
:meth:`MeshSource.stamp` that changes whenever any of those may, so that what physics caches
per process is keyed on it. A test, or a model held in memory, passes a source of its own.

:class:`FileMeshSource` reads files through :mod:`gzinertia.io.mesh_files` and
:mod:`gzinertia.io.mesh_trimesh` (reached through the package face when a mesh is read; a regular
file, within :class:`~gzinertia.io.limits.MeshLimits` read from the environment at each call, no
archive, COLLADA as gz-common reads it), once per process while the file is unchanged: its stamp is
the caps and the file's ``(inode, size, modification time in ns)``.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import gzinertia.io
from gzinertia.io.limits import MeshLimits
from gzinertia.io.mesh_files import MeshFileError
from gzinertia.io.safe_read import read_regular_file
from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    import gzinertia.io.mesh_submeshes
    import gzinertia.io.mesh_trimesh

#: :class:`~gzinertia.io.mesh_files.MeshFileError` is named here too: the error every source
#: raises, so that physics imports nothing of the mesh readers but this module.
__all__ = ["FILE_MESHES", "FileMeshSource", "MeshFileError", "MeshRead", "MeshSource",
           "file_stamp"]


@dataclass(frozen=True, repr=False, eq=False)
class MeshRead(ValueRecord):
    """A mesh as a source read it, in its own frame C after ``<scale>``, metres: ``vertices``
    (n x 3, float64) and ``faces`` (m x 3, int64, indices into ``vertices``; the winding as the
    file has it, reversed when the scale's determinant is negative), both read-only; ``notes``:
    what the source assumed or approximated to get them (each a phrase every output repeats;
    empty for a file read as written)."""

    vertices: Any
    faces: Any
    notes: tuple[str, ...] = ()

    def trimesh(self) -> Any:
        """The mesh as a ``trimesh.Trimesh`` (a copy the caller may modify; not processed)."""
        return gzinertia.io.mesh_trimesh.as_trimesh(self.vertices, self.faces)


class MeshSource(Protocol):
    """Meshes by resolved path (a file's, or any name a source knows). Each method raises
    :class:`~gzinertia.io.mesh_files.MeshFileError` naming the mesh when it cannot give it. A
    source is hashable (part of the key of what physics caches)."""

    def __hash__(self) -> int:
        """A source is part of the key of the per-process caches."""

    def stamp(self, path: str) -> Hashable:
        """A value that changes whenever what the other methods give for ``path`` may change
        (the key of every per-process cache of what physics computes from the mesh)."""

    def read(self, path: str, scale: tuple[float, float, float]) -> MeshRead:
        """The mesh ``path`` after the per-axis ``scale`` (see :class:`MeshRead`)."""

    def submeshes(self, path: str) -> tuple[Any, ...]:
        """The triangles ``(n, 3, 3)`` (float64, unscaled) of each submesh gz-common builds from
        the mesh, in its order (:func:`gzinertia.io.mesh_submeshes.gazebo_submeshes`)."""

    def digest(self, path: str) -> bytes:
        """The SHA-256 digest of the mesh's content (:class:`OSError` when it cannot be read)."""


def file_stamp(path: str) -> tuple[int, int, int] | None:
    """``(inode, size, modification time in ns)`` of ``path``, which changes when the file is
    edited; ``None`` when it cannot be stat'ed (left to the reading, which says why)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass(frozen=True, repr=False, eq=False)
class FileMeshSource(ValueRecord):
    """The mesh files on disk (see the module); the default :class:`MeshSource`."""

    def stamp(self, path: str) -> Hashable:
        """The caps in force and the file's :func:`file_stamp`."""
        return (MeshLimits.from_environment(), file_stamp(path))

    def read(self, path: str, scale: tuple[float, float, float]) -> MeshRead:
        """The file read within the caps, once per process while it and the caps are
        unchanged (:meth:`stamp`)."""
        key = (float(scale[0]), float(scale[1]), float(scale[2]))
        return _read_file(path, key, MeshLimits.from_environment(), file_stamp(path))

    def submeshes(self, path: str) -> tuple[Any, ...]:
        """gz-common's submeshes of the file (:func:`~gzinertia.io.mesh_submeshes.
        gazebo_submeshes`; an OBJ's ``mtllib`` read from its folder or below)."""
        return tuple(gzinertia.io.mesh_submeshes.gazebo_submeshes(path))

    def digest(self, path: str) -> bytes:
        """SHA-256 of the file's bytes (a regular file of at most the mesh size cap)."""
        data = read_regular_file(path, MeshLimits.from_environment().max_bytes)
        return hashlib.sha256(data).digest()


#: The default mesh source: the files on disk.
FILE_MESHES: MeshSource = FileMeshSource()


@functools.lru_cache(maxsize=64)
def _read_file(path: str, scale: tuple[float, float, float], limits: MeshLimits,
               stamp: tuple[int, int, int] | None) -> MeshRead:
    """:meth:`FileMeshSource.read` (``stamp`` is part of the key only: an edited file is read
    again)."""
    vertices, faces = gzinertia.io.mesh_trimesh.read_scaled_mesh(path, scale, limits)
    return MeshRead(vertices, faces)
