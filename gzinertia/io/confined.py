"""Folders under a root, reached without following a symbolic link: where gzinertia creates,
replaces or deletes files it was not given by name (the audit cache, reports, ``audit --fix``
on files found by walking a folder, temporary copies beside them).

A path is split in two: its *root*, trusted as named (symbolic links in it are followed: the
user chose it), and the components below the root. Each component is opened with
``O_DIRECTORY | O_NOFOLLOW`` relative to the descriptor of the one above it (``openat``), so a
component that is a symbolic link is refused (:class:`LinkError`), whether it was planted
before the run or swapped in after an earlier check: nothing below the root is looked up by
path twice. Callers then create, replace and delete names through the folder's descriptor
(``dir_fd``), and open files with ``O_NOFOLLOW`` (new ones with ``O_CREAT | O_EXCL``, which
never follows a link either).

Which root: :func:`working_root` for what gzinertia writes for itself (the working directory
when the path lies below it; a cache folder elsewhere is its own root); the folder walked for
files found by walking it (:func:`resolved_within` first resolves the links a walk met, and
refuses a file they lead out of).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "NOFOLLOW",
    "Folder",
    "LinkError",
    "OutsideError",
    "create_new",
    "first_link",
    "open_folder",
    "resolved_within",
    "within",
    "working_root",
]

#: ``O_NOFOLLOW`` where the system has it (0 elsewhere).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


class LinkError(OSError):
    """A component below the root is a symbolic link (``shown``: that component's path as
    named): it is not followed."""

    def __init__(self, shown: str) -> None:
        super().__init__(errno.ELOOP, f"{shown} is a symbolic link")
        self.shown = shown

    def __str__(self) -> str:
        return f"{self.shown} is a symbolic link"


class OutsideError(OSError):
    """A path that does not lie within the root it must be written under."""

    def __init__(self, path: str, root: str) -> None:
        super().__init__(errno.EXDEV, f"{path} is outside {root}")
        self.path, self.root = path, root

    def __str__(self) -> str:
        return f"{self.path} is outside {self.root}"


def within(path: str, folder: str) -> bool:
    """Whether the absolute, normalised ``path`` is ``folder`` or lies below it (by spelling:
    resolve links first where they matter)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def working_root(path: str | Path) -> str | None:
    """The root of a file or folder gzinertia writes for itself (a report, the cache): the
    working directory when ``path`` lies below it (a checkout's own links are never followed),
    else ``None``: a place outside it the user chose, taken as named."""
    cwd = os.getcwd()
    return cwd if within(os.path.abspath(path), cwd) else None


def resolved_within(path: str | Path, tree: str | Path) -> str:
    """``path`` with its symbolic links resolved, which must lie within the folder ``tree``
    (itself resolved): :class:`OutsideError` when a link leads out of it."""
    real, base = os.path.realpath(path), os.path.realpath(tree)
    if not within(real, base):
        raise OutsideError(str(path), str(tree))
    return real


def _components(path: str | Path, root: str | Path) -> tuple[str, list[str], str]:
    """``(root, components below it, path as named)``; :class:`OutsideError` when ``path``
    (made absolute, ``..`` removed by spelling, never through a link) is not below ``root``."""
    named = os.path.normpath(path)
    absolute, base = os.path.abspath(named), os.path.abspath(root)
    if absolute == base:
        return base, [], named
    if not within(absolute, base):
        raise OutsideError(named, str(root))
    return base, absolute[len(base.rstrip(os.sep)) + 1 :].split(os.sep), named


def _shown(named: str, parts: list[str], i: int) -> str:
    """The ``i``-th component below the root, spelled as ``named`` spells it."""
    for _ in range(len(parts) - 1 - i):
        named = os.path.dirname(named)
    return named


class Folder:
    """An open folder: its descriptor (``fd``, for ``dir_fd`` calls) and its path as named
    (``path``, for messages and for what must be given a path). A plain class: this module is
    imported by every audit, and one costs start-up less than a dataclass or a named tuple."""

    __slots__ = ("fd", "path")

    def __init__(self, fd: int, path: str) -> None:
        self.fd, self.path = fd, path

    def shown(self, name: str) -> str:
        """``name`` in this folder, as a path for messages (no ``./`` in front)."""
        return name if self.path == os.curdir else os.path.join(self.path, name)

    def lstat(self, name: str) -> os.stat_result | None:
        """``name``'s own status (a link's, not its target's), ``None`` when absent."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def no_link(self, name: str) -> os.stat_result | None:
        """:meth:`lstat`, refusing a symbolic link (:class:`LinkError`)."""
        st = self.lstat(name)
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise LinkError(self.shown(name))
        return st


def _open_folder_fd(path: str, flags: int = 0, dir_fd: int | None = None) -> int:
    """A descriptor of the folder ``path``; of a folder this user may enter but not list, an
    ``O_PATH`` one where the system has it (enough to create, rename and delete names in it;
    the folder is then neither locked nor listed, as on a filesystem without locks)."""
    try:
        return os.open(path, _FOLDER_FLAGS | flags, dir_fd=dir_fd)
    except PermissionError:
        if not hasattr(os, "O_PATH"):
            raise
        return os.open(path, os.O_PATH | _FOLDER_FLAGS | flags, dir_fd=dir_fd)


def _open_below(fd: int, part: str, shown: str, create: bool) -> int:
    """The folder ``part`` of the folder ``fd``, never through a link (made when ``create``
    and absent)."""
    for attempt in (0, 1):
        try:
            return _open_folder_fd(part, NOFOLLOW, fd)
        except FileNotFoundError:
            if not create or attempt:
                raise
            with contextlib.suppress(FileExistsError):  # made meanwhile: opened as it is
                os.mkdir(part, 0o777, dir_fd=fd)
        except OSError as exc:  # ELOOP, ENOTDIR (or EMLINK on BSDs) for a link
            st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                raise LinkError(shown) from None
            if not stat.S_ISDIR(st.st_mode):
                raise NotADirectoryError(errno.ENOTDIR, f"{shown} is not a folder") from exc
            raise
    raise AssertionError("unreachable")  # pragma: no cover


@contextlib.contextmanager
def open_folder(
    path: str | Path, root: str | Path | None = None, *, create: bool = False
) -> Iterator[Folder]:
    """The folder ``path``, open. Without ``root``: opened as named (links followed: a path
    the user names). With ``root``: ``path`` must lie within it (:class:`OutsideError`), and
    every component below the root is a real folder, never a link (:class:`LinkError`);
    ``create`` makes the missing ones (and the root, as named)."""
    parts: list[str] = []
    if root is None:
        base, named = str(path), str(path)
    else:
        base, parts, named = _components(path, root)
        if create:
            os.makedirs(base, exist_ok=True)
    fd = _open_folder_fd(base)
    try:
        for i, part in enumerate(parts):
            below = _open_below(fd, part, _shown(named, parts, i), create)
            os.close(fd)
            fd = below
        yield Folder(fd, named)
    finally:
        os.close(fd)


def first_link(path: str | Path, root: str | Path) -> str | None:
    """The first component of ``path`` below ``root`` that is a symbolic link (as named), or
    ``None``: a check before a long run (the write itself refuses the link again)."""
    folder = os.path.dirname(os.path.normpath(path)) or os.curdir
    try:
        with open_folder(folder, root) as opened:
            opened.no_link(os.path.basename(os.path.normpath(path)))
    except LinkError as exc:
        return exc.shown
    except OSError:  # absent, outside, unreadable: the write says why
        return None
    return None


def create_new(folder: Folder, name: str, data: bytes, mode: int = 0o666) -> bool:
    """Writes ``data`` to ``name`` in ``folder`` when ``name`` does not exist
    (``O_CREAT | O_EXCL``: never through a link); ``False`` when a file is already there,
    :class:`LinkError` when a link is."""
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | os.O_CLOEXEC,
                     mode, dir_fd=folder.fd)
    except FileExistsError:
        folder.no_link(name)
        return False
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return True
