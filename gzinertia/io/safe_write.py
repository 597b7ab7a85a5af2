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

A symbolic link the user named is written through: its target is updated and the link stays a
link (a chain of links is followed to the final file). With a ``root`` (files gzinertia writes
for itself, and files it found by walking a folder: :mod:`gzinertia.io.confined`), no link
below the root is followed: a folder between the root and the file, or the file itself, that is
a symbolic link is refused, and so is a path outside the root.

Whichever it is, the target's folder is opened once and everything else goes through its
descriptor: the temporary is created there with ``O_CREAT | O_EXCL | O_NOFOLLOW``, compared,
renamed over the target and removed on failure by name in that folder, so a folder swapped for
a link meanwhile changes nothing. Temporaries a killed process left behind (their PID is no
longer alive) are removed by the next write to the same folder. A failure removes this write's
temporary and leaves the original untouched.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from gzinertia.errors import GzInertiaError
from gzinertia.io.confined import (
    NOFOLLOW,
    Folder,
    LinkError,
    OutsideError,
    open_folder,
    resolved_within,
)
from gzinertia.options import option

__all__ = ["LOCK_TIMEOUT", "TEMP_MARK", "resolved_in_tree", "temporary_copy", "write_atomically"]

#: Marks gzinertia's temporary files: ``.NAME`` + this + ``PID-RANDOM``.
TEMP_MARK = ".gzinertia-tmp-"


def write_atomically(
    path: str | Path,
    data: bytes,
    *,
    expected: bytes | None = None,
    force_readonly: bool = False,
    root: str | Path | None = None,
) -> None:
    """Replaces ``path``'s content by ``data`` atomically (creates it if absent).

    ``expected``: the bytes the new content was computed from; if the file no longer holds them
    when it is about to be replaced, nothing is written (a :class:`GzInertiaError`: another
    process wrote it in between). ``force_readonly`` writes a file whose permissions say
    read-only (keeping them). ``root``: ``path`` must lie within it and nothing below it is a
    symbolic link (:func:`gzinertia.io.confined.open_folder`); without it, links are followed
    as named."""
    target = _final_target(Path(path)) if root is None else Path(os.path.normpath(path))
    with _target_folder(target, root, path) as folder:
        name = target.name
        st = _existing_stat(folder, name, target, root)
        if st is not None:
            _check_replaceable(folder, name, target, st, force_readonly)
        with _folder_lock(folder):
            _remove_stale_temporaries(folder)
            tmp = _write_temporary(folder, name, target, data, st)
            with _discarded_on_failure(folder, tmp, path):
                if expected is not None:
                    _check_unchanged(folder, name, target, expected)
                os.replace(tmp, name, src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
            _fsync_folder(folder)


@contextlib.contextmanager
def _target_folder(target: Path, root: str | Path | None, shown: str | Path) -> Iterator[Folder]:
    """``target``'s folder, open (below ``root`` without following a link, when given); one
    :class:`GzInertiaError` line when it cannot be."""
    with contextlib.ExitStack() as stack:
        try:
            folder = stack.enter_context(open_folder(target.parent, root))
        except (LinkError, OutsideError) as exc:
            raise GzInertiaError(_refusal(shown, exc, root)) from None
        except OSError as exc:
            raise GzInertiaError(f"{shown}: cannot write: {exc.strerror or exc}") from None
        yield folder


def resolved_in_tree(path: str | Path, tree: str) -> Path:
    """Where a write of ``path``, found by walking the folder ``tree`` (symlinks resolved),
    goes: the file its links lead to, which must be within ``tree`` (a
    :class:`GzInertiaError` line otherwise). Write it with ``root=tree``."""
    try:
        return Path(resolved_within(path, tree))
    except OutsideError:
        raise GzInertiaError(
            f"{path}: not written: its real path is outside {tree}, the folder it was found in "
            "(nothing is written through a link leading out of it)"
        ) from None


def _refusal(shown: str | Path, exc: LinkError | OutsideError, root: str | Path | None) -> str:
    if isinstance(exc, OutsideError):
        return f"{shown}: not written: it is outside {root}, the folder written in"
    return f"{shown}: not written: {exc} (nothing is written through a link below {root})"


@contextlib.contextmanager
def temporary_copy(
    beside: str | Path, data: bytes, *, suffix: str = "", root: str | Path | None = None,
    why: str = "",
) -> Iterator[str]:
    """``data`` in a new file in ``beside``'s folder (so that what it names relative to itself
    resolves as for ``beside``), named as this module's temporaries (a killed process's copy
    is removed by the next write there); yields its path and removes it at exit. The folder is
    reached as :func:`write_atomically` reaches it (``root``); the copy is created with
    ``O_CREAT | O_EXCL | O_NOFOLLOW`` and removed through the folder's descriptor. ``why``:
    what the copy is for, said when it cannot be made."""
    target = Path(os.path.normpath(os.path.abspath(beside)))
    with _target_folder(target, root, beside) as folder:
        tmp = _temporary_name(target.name) + suffix
        try:
            fd = os.open(tmp, _NEW_FILE, 0o600, dir_fd=folder.fd)
        except OSError as exc:
            raise GzInertiaError(
                f"{beside}: cannot make a temporary copy beside it{f' ({why})' if why else ''}: "
                f"{folder.path} refuses one ({exc.strerror or exc})"
            ) from None
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            yield folder.shown(tmp)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder.fd)


#: How every temporary is created: a new name, never through a link.
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | NOFOLLOW


def _temporary_name(name: str) -> str:
    return f".{name}{TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}"


@contextlib.contextmanager
def _discarded_on_failure(folder: Folder, tmp: str, shown: str | Path) -> Iterator[None]:
    """Removes the temporary ``tmp`` when the block fails; an ``OSError`` becomes one
    :class:`GzInertiaError` line naming ``shown``, anything else propagates as it is."""
    try:
        yield
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder.fd)
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


def _existing_stat(
    folder: Folder, name: str, target: Path, root: str | Path | None
) -> os.stat_result | None:
    """The target's status (``None``: absent); a symbolic link is refused (the links a user
    named were resolved before: one here is below a root, or was swapped in meanwhile)."""
    try:
        st = folder.lstat(name)
    except OSError as exc:
        raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise GzInertiaError(_refusal(target, LinkError(str(target)), root or folder.path))
    return st


_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


def _check_replaceable(
    folder: Folder, name: str, target: Path, st: os.stat_result, force_readonly: bool
) -> None:
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
    read_only = not (st.st_mode & 0o222) or not os.access(name, os.W_OK, dir_fd=folder.fd)
    if read_only and not force_readonly:
        raise GzInertiaError(
            f"{target}: is read-only (mode {stat.S_IMODE(st.st_mode):o}): refusing to write it "
            f"({option('force_readonly')} writes it and keeps it read-only)"
        )


#: How long a writer waits for another gzinertia writer's lock on the same folder (seconds).
LOCK_TIMEOUT = 60.0


@contextlib.contextmanager
def _folder_lock(folder: Folder) -> Iterator[None]:
    """An exclusive ``flock`` on ``folder`` for the compare-and-rename (every gzinertia writer
    takes it; a folder that cannot be locked, e.g. on a filesystem without locks, is written
    without it). Waits at most :data:`LOCK_TIMEOUT` seconds, then fails. The lock goes with
    the folder's descriptor (released when it is closed)."""
    deadline = time.monotonic() + LOCK_TIMEOUT
    delay = 0.001
    while True:
        try:
            fcntl.flock(folder.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise GzInertiaError(
                    f"{folder.path}: another gzinertia process has been writing here for "
                    f"{LOCK_TIMEOUT:g} s; nothing written"
                ) from None
            time.sleep(delay)
            delay = min(2 * delay, 0.1)
        except OSError:  # no locks on this filesystem
            yield
            return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            fcntl.flock(folder.fd, fcntl.LOCK_UN)


def _write_temporary(
    folder: Folder, name: str, target: Path, data: bytes, st: os.stat_result | None
) -> str:
    """The new bytes in a fsynced temporary next to ``target``, with ``target``'s owner, group,
    mode and extended attributes (a new file gets ``0o666 & ~umask``)."""
    tmp = _temporary_name(name)
    try:
        fd = os.open(tmp, _NEW_FILE, 0o600, dir_fd=folder.fd)
    except OSError as exc:
        raise GzInertiaError(f"{target}: cannot write: {exc.strerror or exc}") from None
    with _discarded_on_failure(folder, tmp, target), os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
        if st is not None:
            _copy_metadata(folder.shown(name), target, out.fileno(), st)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(out.fileno(), 0o666 & ~umask)
    return tmp


def _copy_metadata(where: str, target: Path, fd: int, st: os.stat_result) -> None:
    """Owner and group, extended attributes (read from ``where``, the target in its open
    folder, without following a link), then the mode (``chown`` clears set-id bits)."""
    if (st.st_uid, st.st_gid) != (os.fstat(fd).st_uid, os.fstat(fd).st_gid):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except PermissionError:
            raise GzInertiaError(
                f"{target}: cannot keep its owner and group ({st.st_uid}:{st.st_gid}) on the "
                "new file (only root can give a file to another user); nothing written"
            ) from None
    for name, value in _xattrs(where, target):
        try:
            os.setxattr(fd, name, value)
        except OSError as exc:
            raise GzInertiaError(
                f"{target}: cannot keep its extended attribute {name!r} on the new file "
                f"({exc.strerror or exc}); nothing written"
            ) from None
    os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _xattrs(where: str, target: Path) -> list[tuple[str, bytes]]:
    """The extended attributes of the file at ``where`` (a link's own, were it one: none is
    followed), none where the filesystem or OS has none; errors name ``target``."""
    if not hasattr(os, "listxattr"):
        return []
    try:
        names = os.listxattr(where, follow_symlinks=False)
        return [(name, os.getxattr(where, name, follow_symlinks=False)) for name in names]
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.ENODATA):
            return []
        raise GzInertiaError(
            f"{target}: cannot read its extended attributes: {exc.strerror or exc}"
        ) from None


def _check_unchanged(folder: Folder, name: str, target: Path, expected: bytes) -> None:
    flags = os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | os.O_CLOEXEC
    try:
        with os.fdopen(os.open(name, flags, dir_fd=folder.fd), "rb") as f:
            current: bytes | None = f.read(len(expected) + 1)
    except FileNotFoundError:
        current = None
    if current != expected:
        raise GzInertiaError(
            f"{target}: changed since gzinertia read it (another process wrote it); nothing "
            "written: run the command again on the new content"
        )


def _remove_stale_temporaries(folder: Folder) -> None:
    """Removes ``.*.gzinertia-tmp-PID-*`` files whose process is gone (a killed writer's);
    by name in the folder, and never a link (nor what one leads to)."""
    try:
        entries = list(os.scandir(folder.fd))
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
                os.unlink(name, dir_fd=folder.fd)


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


def _fsync_folder(folder: Folder) -> None:
    with contextlib.suppress(OSError):
        os.fsync(folder.fd)
