"""The readers of model files by suffix: :func:`register_reader` plugs a reader in for a suffix
(``".model"``), :func:`reader_for` picks the one a path is read with, the built-in reader
(:func:`gzinertia.model_reader.read_model_file`: SDFormat, URDF and xacro by suffix) for any
suffix not registered. :func:`gzinertia.read` reads through it; :mod:`gzinertia.api` exports
:func:`register_reader` and :func:`readers`.

Floor: beside :mod:`gzinertia.api`; imports a registered reader's module on first use only.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.errors import GzInertiaError

if TYPE_CHECKING:
    from gzinertia.records import SdfDocument

__all__ = ["READERS", "Reader", "reader_for", "readers", "register_reader", "registered"]

#: Reads one file (and what it includes) into a document of links: ``(path, model_paths)``.
Reader = Callable[[Path, Sequence[str | Path]], "SdfDocument"]

#: Readers registered by lower-case file suffix, as ``"module:function"`` (imported on first
#: use) or a callable (:func:`register_reader`). Any other file goes to the built-in reader,
#: :func:`gzinertia.model_reader.read_model_file` (SDFormat, URDF and xacro by suffix).
READERS: dict[str, str | Reader] = {}
BUILT_IN_READER = "gzinertia.model_reader:read_model_file"


def register_reader(suffix: str, reader: Reader | str) -> None:
    """Reads files ending in ``suffix`` (``".urdf"``; case-insensitive) with ``reader``: a
    callable ``(path, model_paths) -> SdfDocument`` or a ``"module:function"`` string imported
    on first use. Replaces the reader registered for that suffix."""
    if not suffix.startswith("."):
        raise ValueError(f"a suffix starts with '.', not {suffix!r}")
    READERS[suffix.lower()] = reader


def readers() -> dict[str, str | Reader]:
    """The registered readers by suffix (a copy)."""
    return dict(READERS)


def registered(path: Path) -> bool:
    """Whether a reader is registered for ``path``'s suffix (case-insensitive)."""
    return path.suffix.lower() in READERS


def reader_for(path: Path) -> Reader:
    """The reader of ``path``: the one registered for its suffix, else the built-in one; a
    :class:`~gzinertia.errors.GzInertiaError` naming the file when a registered
    ``"module:function"`` cannot be imported."""
    entry = READERS.get(path.suffix.lower(), BUILT_IN_READER)
    if callable(entry):
        return entry
    module_name, _, attr = entry.partition(":")
    try:
        module = importlib.import_module(module_name)
        function: Reader = getattr(module, attr)
    except (ImportError, AttributeError):
        raise GzInertiaError(
            f"{path}: no reader for {path.suffix} files in this installation ({entry})"
        ) from None
    return function
