"""A mesh file as read, once per process while it is unchanged: a ``trimesh.Trimesh`` in metres
after ``<scale>`` (:func:`load_mesh`, keyed by :func:`file_stamp`), its convex hull
(:func:`convex_hull`), and the error for a geometry that has no solid (:class:`ShapeError`).
Below both :mod:`gzinertia.physics.shapes` and :mod:`gzinertia.physics.mesh_body`, which read
meshes through it.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.errors import GzInertiaError

if TYPE_CHECKING:
    from gzinertia.io.limits import MeshLimits

__all__ = ["ShapeError", "convex_hull", "file_stamp", "load_mesh"]


class ShapeError(GzInertiaError):
    """A geometry that has no solid to compute (plane, heightmap, unreadable mesh, no volume)."""


def load_mesh(path: str, scale: tuple[float, float, float]) -> Any:
    """The mesh file as a ``trimesh.Trimesh`` in metres after the per-axis ``<scale>`` (a
    :class:`ShapeError` when it cannot be read or holds no triangles). Each file is read once
    per process while it is unchanged (same inode, size and modification time: a process that
    audits twice sees an edited mesh); callers get their own copy to modify."""
    from gzinertia.io.limits import MeshLimits

    limits = MeshLimits.from_environment()
    return _read_mesh(path, tuple(float(v) for v in scale), limits, file_stamp(path)).copy()


def file_stamp(path: str) -> tuple[int, int, int] | None:
    """``(inode, size, modification time in ns)`` of ``path``, which changes when the file is
    edited (the key of the per-process mesh caches); ``None`` when it cannot be stat'ed (left
    to the reading, which says why)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _read_mesh(path: str, scale: tuple[float, ...], limits: MeshLimits,
               stamp: tuple[int, int, int] | None = None) -> Any:
    import trimesh  # lazy: only meshes need it

    from gzinertia.io.mesh_files import MeshFileError, load_mesh_file

    try:
        loaded = load_mesh_file(path, limits)  # a regular file within the caps, no archive
    except MeshFileError as exc:
        raise ShapeError(str(exc)) from None
    except Exception as exc:  # trimesh raises many types for unreadable files
        raise ShapeError(f"mesh {path!r} cannot be loaded: {exc}") from exc
    if not isinstance(loaded, trimesh.Trimesh) or len(loaded.faces) == 0:
        raise ShapeError(f"mesh {path!r} holds no triangles")
    if loaded.vertices.ndim != 2 or loaded.vertices.shape[1] != 3:
        # e.g. an OBJ whose first "v" line has two numbers: trimesh reads 2-D points
        raise ShapeError(f"mesh {path!r} has vertices that are not 3-D points")
    mesh = loaded.copy()
    S = np.eye(4)
    S[:3, :3] = np.diag(scale)
    mesh.apply_transform(S)  # trimesh reverses the winding when det(S) < 0
    return mesh


def convex_hull(path: str, mesh: Any) -> Any:
    """The convex hull of ``mesh`` (qhull's refusal of a degenerate input as a ShapeError)."""
    from scipy.spatial import QhullError

    try:
        return mesh.convex_hull
    except QhullError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "qhull error"
        raise ShapeError(f"mesh {path!r} has no convex hull: {first}") from None
