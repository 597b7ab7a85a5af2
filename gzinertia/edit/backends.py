"""The registry of edit backends, the one place an edit asks a file's format: :func:`model_format`
gives the backend of a file by suffix (:class:`gzinertia.edit.sdf_file.SdfModelFile`,
:class:`gzinertia.edit.urdf_file.UrdfModelFile`), whose class-level entry points
(:class:`~gzinertia.edit.model_file.ModelFormat`) run the added-mass edits and the inertia
repair; :func:`open_model_file` opens a file for editing in its format.

Floor: edits; above :mod:`gzinertia.edit.model_file` and the two backends, so that they import
the shared protocol without importing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from gzinertia.edit.model_file import ModelFile, ModelFormat
from gzinertia.edit.sdf_file import SdfModelFile
from gzinertia.edit.urdf_file import UrdfModelFile
from gzinertia.errors import GzInertiaError
from gzinertia.records import SdfDocument
from gzinertia.sdf.stdin_names import STDIN_NAME
from gzinertia.vocabulary.model_suffixes import is_urdf_path

__all__ = ["model_format", "open_edit", "open_model_file"]


def model_format(path: str | Path, data: bytes | None = None) -> ModelFormat:
    """The backend of ``path``, by suffix (``.urdf``, ``.xacro``, ``.urdf.xacro``: URDF;
    anything else: SDFormat; :func:`gzinertia.vocabulary.model_suffixes.is_urdf_path`).
    ``data``: the bytes of a file read elsewhere (standard input), SDFormat whatever the
    name."""
    return UrdfModelFile if data is None and is_urdf_path(Path(path)) else SdfModelFile


def open_model_file(
    path: str | Path,
    model_paths: Sequence[str | Path] = (),
    data: bytes | None = None,
) -> ModelFile:
    """``path`` open for editing in its format (:func:`model_format`).
    ``model_paths``: SDFormat model paths, or the package paths of a URDF/xacro file.
    ``data``: the bytes of an SDFormat file read elsewhere (standard input)."""
    p = Path(path)
    return model_format(p).open(p, model_paths, data)


def open_edit(
    source: str | Path | SdfDocument, *, model_paths: Sequence[str | Path] = ()
) -> ModelFile:
    """``source`` open for editing: a path, or a document :func:`gzinertia.read` returned (its
    file is read again; the edit starts from the bytes as they are now). SDFormat, URDF or
    xacro by suffix (:func:`open_model_file`); ``model_paths``: the SDFormat model paths, or the
    package paths of a URDF/xacro file. Called as ``gzinertia.edit(source)``."""
    path = Path(source.path) if isinstance(source, SdfDocument) else Path(source)
    if str(path) == STDIN_NAME:
        raise GzInertiaError(f"{STDIN_NAME}: a document read from standard input has no file to "
                             "edit: write it to a file first")
    return open_model_file(path, model_paths)
