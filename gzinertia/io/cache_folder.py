"""The folder the caches live in (``.gzinertia_cache/`` in the working directory,
``--cache-dir``, ``GZINERTIA_CACHE_DIR``): made with a ``.gitignore`` and a ``CACHEDIR.TAG`` so
that it is neither committed nor backed up, and its files read and written through no symbolic
link (:mod:`gzinertia.io.confined`). The audit's result cache (:mod:`gzinertia.audit.cache`) and the
BEM cache (:mod:`gzinertia.physics.bem`) keep their files in it.

Floor: the bottom, beside the words (imports :mod:`gzinertia.io.confined` and
:mod:`gzinertia.io.safe_read` only), so that the audit and physics both use it."""

from __future__ import annotations

import os
from pathlib import Path

from gzinertia.io.confined import create_new, open_folder, working_root
from gzinertia.io.safe_read import read_regular_file
from gzinertia.io.safe_write import write_atomically

__all__ = [
    "DEFAULT_DIR",
    "ENV_DIR",
    "MAX_CACHE_BYTES",
    "cache_root",
    "default_cache_dir",
    "load_cache_file",
    "prepare_cache_folder",
    "store_cache_file",
]

#: Largest cache file read (checked before reading; a larger one is ignored).
MAX_CACHE_BYTES = 256 * 1024 * 1024
#: The cache folder in the working directory, and the variable that names another.
DEFAULT_DIR = ".gzinertia_cache"
ENV_DIR = "GZINERTIA_CACHE_DIR"
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by gzinertia.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
#: The files that keep the cache folder out of commits and backups: name, text.
_MARKERS = ((".gitignore", "# created by gzinertia\n*\n"), ("CACHEDIR.TAG", _TAG))


def default_cache_dir() -> Path:
    """``$GZINERTIA_CACHE_DIR``, else ``.gzinertia_cache`` in the working directory."""
    return Path(os.environ.get(ENV_DIR) or DEFAULT_DIR)


def cache_root(folder: Path) -> str:
    """Where links stop being followed for the cache folder ``folder``: the working directory
    when it lies below it, else the folder itself (taken as named: the user chose it; what it
    holds may come from an ``actions/cache`` archive)."""
    return working_root(folder) or os.path.abspath(folder)


def load_cache_file(folder: Path, path: Path, limit: int = MAX_CACHE_BYTES) -> bytes:
    """The bytes of the cache file ``path`` (under the cache folder ``folder``), reached
    through no symbolic link below the working directory (or below ``folder``, when it is
    elsewhere) and read as :func:`~gzinertia.io.safe_read.read_regular_file` reads (at most
    ``limit`` bytes); an ``OSError`` when it cannot be (:class:`FileNotFoundError`: no cache
    yet)."""
    with open_folder(path.parent, cache_root(folder)) as opened:
        return read_regular_file(path.name, limit, dir_fd=opened.fd)


def prepare_cache_folder(folder: Path, inner: Path) -> None:
    """Makes the cache folder ``folder`` (with its ``.gitignore`` and ``CACHEDIR.TAG``) and the
    folder ``inner`` in it, as needed, through no symbolic link below the working directory
    (or below ``folder``, when it is elsewhere); an ``OSError``
    (:class:`~gzinertia.io.confined.LinkError` for a link) when it cannot."""
    root = cache_root(folder)
    with open_folder(folder, root, create=True) as top:
        for name, text in _MARKERS:
            create_new(top, name, text.encode("utf-8"))
    with open_folder(inner, root, create=True):
        pass


def store_cache_file(folder: Path, path: Path, data: bytes) -> None:
    """Writes the cache file ``path`` atomically (:func:`prepare_cache_folder` first), through
    no symbolic link; an ``OSError`` or :class:`~gzinertia.errors.GzInertiaError` when it
    cannot."""
    prepare_cache_folder(folder, path.parent)
    write_atomically(path, data, root=cache_root(folder))

