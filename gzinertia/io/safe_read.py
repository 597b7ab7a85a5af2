"""Opening files a model names (SDF files, includes, ``model.config``, meshes, the audit cache)
without blocking, without reading devices and without reading more than a cap.

Every file gzinertia reads because a user or a model named it goes through
:func:`open_regular_file`:

* the path is ``stat``-ed first (symlinks followed): anything but a regular file (a FIFO, a
  device such as ``/dev/zero`` or ``/dev/stdin``, a socket, a directory) is refused *before it
  is opened*, so a FIFO cannot block and a device is never read;
* its size is checked against the caller's cap before a byte is read;
* it is opened with ``O_NONBLOCK`` (a FIFO swapped in after the check cannot block the open)
  and ``O_NOCTTY``, and ``fstat``-ed again: the file opened must be the regular file checked;
* at most ``cap + 1`` bytes are ever read (a file that grows after the check is refused too).

Refusals are :class:`RefusedFileError` (an :class:`OSError`, so callers that already handle
unreadable files handle them), with a message naming what the path is and the cap.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "RefusedFileError",
    "digest_regular_file",
    "open_regular_file",
    "read_regular_file",
    "size_text",
]

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_CHUNK = 1 << 20


class RefusedFileError(OSError):
    """A path that is not read: not a regular file, or larger than the cap."""


def _what(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def size_text(n: int) -> str:
    """``64 MiB``-style text for a byte count (whole MiB when it is one)."""
    mib = 1024 * 1024
    return f"{n // mib} MiB" if n % mib == 0 else f"{n} bytes"


def _check(st: os.stat_result, limit: int) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise RefusedFileError(f"is {_what(st.st_mode)}, not a regular file: not read")
    if st.st_size > limit:
        raise RefusedFileError(f"is larger than {size_text(limit)} ({st.st_size} bytes): not read")


def open_regular_file(path: str | Path, limit: int, *, dir_fd: int | None = None) -> int:
    """A read-only descriptor of the regular file ``path`` (at most ``limit`` bytes long).

    Raises :class:`RefusedFileError` for anything else (checked before opening),
    :class:`FileNotFoundError`, :class:`IsADirectoryError` or another :class:`OSError`.
    The caller closes the descriptor. ``dir_fd``: ``path`` is a name in that open folder, and a
    symbolic link there is refused, not followed (``O_NOFOLLOW``).
    """
    if dir_fd is None:
        st = os.stat(path)
        _check(st, limit)
        fd = os.open(path, _OPEN_FLAGS)
    else:
        st = os.stat(path, dir_fd=dir_fd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            raise RefusedFileError("is a symbolic link: not followed")
        _check(st, limit)
        fd = os.open(path, _OPEN_FLAGS | getattr(os, "O_NOFOLLOW", 0), dir_fd=dir_fd)
    try:
        opened = os.fstat(fd)
        if (opened.st_dev, opened.st_ino) != (st.st_dev, st.st_ino):
            raise RefusedFileError("was replaced while being opened: not read")
        _check(opened, limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _chunks(fd: int, limit: int) -> Iterator[bytes]:
    """The file's bytes in chunks; :class:`RefusedFileError` past ``limit`` bytes."""
    read = 0
    while True:
        chunk = os.read(fd, min(_CHUNK, limit + 1 - read))
        if not chunk:
            return
        read += len(chunk)
        if read > limit:
            raise RefusedFileError(f"is larger than {size_text(limit)} (grew while read): not read")
        yield chunk


def read_regular_file(path: str | Path, limit: int, *, dir_fd: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, refused (:class:`RefusedFileError`) unless it is
    a regular file of at most ``limit`` bytes; see :func:`open_regular_file` (and its
    ``dir_fd``)."""
    fd = open_regular_file(path, limit, dir_fd=dir_fd)
    try:
        return b"".join(_chunks(fd, limit))
    finally:
        os.close(fd)


def digest_regular_file(path: str | Path, limit: int, digest_size: int = 16) -> str:
    """The BLAKE2b hex digest of a regular file's bytes, read in chunks (same refusals as
    :func:`read_regular_file`)."""
    h = hashlib.blake2b(digest_size=digest_size)
    fd = open_regular_file(path, limit)
    try:
        for chunk in _chunks(fd, limit):
            h.update(chunk)
    finally:
        os.close(fd)
    return h.hexdigest()
