"""The registry of edit backends: :func:`open_model_file` opens a model file for editing in its
format, by suffix (:class:`gzinertia.edit.sdf_file.SdfModelFile`,
:class:`gzinertia.edit.urdf_file.UrdfModelFile`).

Floor: edits; above :mod:`gzinertia.edit.model_file` and the two backends, so that they import
the shared protocol without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gzinertia.edit.model_file import ModelFile
from gzinertia.edit.sdf_file import SdfModelFile
from gzinertia.edit.urdf_file import UrdfModelFile
from gzinertia.errors import GzInertiaError
from gzinertia.vocabulary.model_suffixes import is_urdf_path

__all__ = ["open_model_file"]


def open_model_file(
    path: str | Path,
    model_paths: Sequence[str | Path] = (),
    data: bytes | None = None,
) -> ModelFile:
    """``path`` open for editing in its format, by suffix (``.urdf``, ``.xacro``,
    ``.urdf.xacro``: URDF; anything else: SDFormat;
    :func:`gzinertia.vocabulary.model_suffixes.is_urdf_path`).
    ``model_paths``: SDFormat model paths, or the package paths of a URDF/xacro file.
    ``data``: the bytes of an SDFormat file read elsewhere (standard input)."""
    p = Path(path)
    if is_urdf_path(p):
        if data is not None:
            raise GzInertiaError(f"{p}: a URDF or xacro file is edited from the file itself")
        return UrdfModelFile.open(p, model_paths)
    return SdfModelFile.open(p, model_paths, data)
