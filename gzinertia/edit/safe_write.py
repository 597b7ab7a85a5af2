"""Writing a file so that it is, at every instant, either the old bytes or the new bytes, and
so that it stays the file the user had: same inode metadata, same place, no lost update.

The new bytes go to a temporary file in the target's folder (same filesystem), named
``.NAME.gzinertia-tmp-PID-RANDOM``; they are flushed and fsynced, and the temporary gets the
original's owner, group, permission bits and extended attributes (ACLs and SELinux labels are
extended attributes too). Then, holding an exclusive ``flock`` on the folder (every gzinertia
writer takes it, so two of them never interleave), the target's current bytes are compared
with the bytes the edit was computed from, when given: if another process changed the file
since it was read, nothing is written and the error says so. Otherwise the temporary is renamed
over the target (atomic on POSIX) and the folder fsynced so the rename survives a crash.

What is refused, with one line saying why (:class:`~gzinertia.errors.GzInertiaError`):

* a target that exists and is not a regular file (a device node such as ``/dev/null``, a FIFO,
  a socket, a directory): replacing it by a regular file would be wrong;
* a file with more than one hard link: renaming over one name would leave the other names with
  the old bytes (an atomic write cannot keep hard links; make the file a single link first);
* a read-only file (no write permission bit set, or not writable by this user) unless
  ``force_readonly`` (the CLI's ``--force-readonly``); it stays read-only after the write;
* an owner, group or extended attribute that cannot be given to the new file (e.g. the file
  belongs to another user and this one is not root).

A symbolic link is written through: its target is updated and the link stays a link (a chain of
links is followed to the final file). Temporaries a killed process left behind (their PID is no
longer alive) are removed by the next write to the same folder. A failure removes this write's
temporary and leaves the original untouched.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

from gzinertia.errors import GzInertiaError
from gzinertia.options import option

__all__ = ["LOCK_TIMEOUT", "TEMP_MARK", "write_atomically"]

#: Marks gzinertia's temporary files: ``.NAME`` + this + ``PID-RANDOM``.
TEMP_MARK = ".gzinertia-tmp-"


def write_atomically(
    path: str | Path,
    data: bytes,
    *,
    expected: bytes | None = None,
    force_readonly: bool = False,
) -> None:
    """Replaces ``path``'s content by ``data`` atomically (creates it if absent).

    ``expected``: the bytes the new content was computed from; if the file no longer holds them
    when it is about to be replaced, nothing is written (a :class:`GzInertiaError`: another
    process wrote it in between). ``force_readonly`` writes a file whose permissions say
    read-only (keeping them)."""
    target = _final_target(Path(path))
    folder = target.parent
    st = _existing_stat(target)
    if st is not None:
        _check_replaceable(target, st, force_readonly)
    with _folder_lock(folder):
        _remove_stale_temporaries(folder)
        tmp = _write_temporary(target, folder, data, st)
        with _discarded_on_failure(tmp, path):
            if expected is not None:
                _check_unchanged(target, expected)
            os.replace(tmp, target)
        _fsync_folder(folder)


@contextlib.contextmanager
def _discarded_on_failure(tmp: str, shown: str | Path) -> Iterator[None]:
    """Removes the temporary ``tmp`` when the block fails; an ``OSError`` becomes one
    :class:`GzInertiaError` line naming ``shown``, anything else propagates as it is."""
    try:
        yield
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise GzInertiaError(f"{shown}: cannot write: {exc.strerror or exc}") from None
        raise


def _final_target(path: Path) -> Path:
    """The file a write to ``path`` updates: ``path`` itself, or the file its symbolic link(s)
    lead to (a link stays a link; a loop is an error)."""
    if not path.is_symlink():
        return path
    try:
        return Path(os.path.realpath(path, strict=False))
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop, on older Pythons
        raise GzInertiaError(f"{path}: cannot follow the symbolic link: {exc}") from None


def _existing_stat(target: Path) -> os.stat_result | None:
    try:
        return os.stat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None


_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


def _check_replaceable(target: Path, st: os.stat_result, force_readonly: bool) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = _KINDS.get(stat.S_IFMT(st.st_mode), "not a regular file")
        raise GzInertiaError(
            f"{target}: is {kind}, not a regular file: refusing to replace it "
            f"(write to a regular file, or use {option('diff_or_check')} to write nothing)"
        )
    if st.st_nlink > 1:
        raise GzInertiaError(
            f"{target}: has {st.st_nlink} hard links: an atomic replace would leave the other "
            "names with the old content; refusing (make it a single file first, e.g. "
            "cp FILE FILE.new && mv FILE.new FILE)"
        )
    read_only = not (st.st_mode & 0o222) or not os.access(target, os.W_OK)
    if read_only and not force_readonly:
        raise GzInertiaError(
            f"{target}: is read-only (mode {stat.S_IMODE(st.st_mode):o}): refusing to write it "
            f"({option('force_readonly')} writes it and keeps it read-only)"
        )


#: How long a writer waits for another gzinertia writer's lock on the same folder (seconds).
LOCK_TIMEOUT = 60.0


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``folder`` for the compare-and-rename (every gzinertia writer
    takes it; a folder that cannot be opened or locked, e.g. on a filesystem without locks, is
    written without it). Waits at most :data:`LOCK_TIMEOUT` seconds, then fails."""
    import fcntl
    import time

    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise GzInertiaError(
                        f"{folder}: another gzinertia process has been writing here for "
                        f"{LOCK_TIMEOUT:g} s; nothing written"
                    ) from None
                time.sleep(delay)
                delay = min(2 * delay, 0.1)
            except OSError:  # no locks on this filesystem
                break
        yield
    finally:
        os.close(fd)  # releases the lock


def _write_temporary(
    target: Path, folder: Path, data: bytes, st: os.stat_result | None
) -> str:
    """The new bytes in a fsynced temporary next to ``target``, with ``target``'s owner, group,
    mode and extended attributes (a new file gets ``0o666 & ~umask``)."""
    tmp = str(folder / f".{target.name}{TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None
    with _discarded_on_failure(tmp, target), os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
        if st is not None:
            _copy_metadata(target, out.fileno(), st)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(out.fileno(), 0o666 & ~umask)
    return tmp


def _copy_metadata(target: Path, fd: int, st: os.stat_result) -> None:
    """Owner and group, extended attributes, then the mode (``chown`` clears set-id bits)."""
    if (st.st_uid, st.st_gid) != (os.fstat(fd).st_uid, os.fstat(fd).st_gid):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except PermissionError:
            raise GzInertiaError(
                f"{target}: cannot keep its owner and group ({st.st_uid}:{st.st_gid}) on the "
                "new file (only root can give a file to another user); nothing written"
            ) from None
    for name, value in _xattrs(target):
        try:
            os.setxattr(fd, name, value)
        except OSError as exc:
            raise GzInertiaError(
                f"{target}: cannot keep its extended attribute {name!r} on the new file "
                f"({exc.strerror or exc}); nothing written"
            ) from None
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _xattrs(target: Path) -> list[tuple[str, bytes]]:
    """``target``'s extended attributes (none where the filesystem or OS has none)."""
    if not hasattr(os, "listxattr"):
        return []
    try:
        names = os.listxattr(target)
        return [(name, os.getxattr(target, name)) for name in names]
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.ENODATA):
            return []
        raise GzInertiaError(
            f"{target}: cannot read its extended attributes: {exc.strerror or exc}"
        ) from None


def _check_unchanged(target: Path, expected: bytes) -> None:
    try:
        with open(target, "rb") as f:
            current = f.read(len(expected) + 1)
    except FileNotFoundError:
        current = None
    if current != expected:
        raise GzInertiaError(
            f"{target}: changed since gzinertia read it (another process wrote it); nothing "
            "written: run the command again on the new content"
        )


def _remove_stale_temporaries(folder: Path) -> None:
    """Removes ``.*.gzinertia-tmp-PID-*`` files whose process is gone (a killed writer's)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not name.startswith(".") or TEMP_MARK not in name:
            continue
        pid_text = name.rsplit(TEMP_MARK, 1)[1].split("-", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # not a PID we wrote: leave it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, under another user
        return True
    return True


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
