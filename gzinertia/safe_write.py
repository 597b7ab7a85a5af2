"""Writing a file so that it is, at every instant, either the old bytes or the new bytes.

The new bytes go to a temporary file in the same folder (same filesystem), are flushed and
fsynced, get the original's permission bits, and are renamed over the target (atomic on POSIX);
the folder is then fsynced so the rename survives a crash. A failure removes the temporary file
and leaves the original untouched.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from gzinertia.errors import GzInertiaError


def write_atomically(path: str | Path, data: bytes) -> None:
    """Replaces ``path``'s content by ``data`` atomically (creates it if absent)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    except OSError as exc:
        raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".gzinertia-tmp", dir=folder)
    except OSError as exc:
        raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None
        raise
    _fsync_folder(folder)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
