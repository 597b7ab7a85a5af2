"""The command line's rendering of an edit (:class:`~gzinertia.edit.edit_result.Edit`'s old and
new bytes): ``--check`` (exit 1 when the file would change), ``--diff`` (a unified
diff on stdout), ``-o OUT`` or ``--in-place`` (atomic writes, see :mod:`gzinertia.io.safe_write`:
an in-place write fails when the file changed since it was read), or nothing written. The
library's own delivery is :meth:`Edit.write <gzinertia.edit.edit_result.Edit.write>` (the same
atomic write); the edit layer prints nothing. A file
found by walking a folder (:attr:`WriteMode.tree`) is written in place only within that folder,
through no link below it.

An edit of standard input (FILE ``-``: :attr:`WriteMode.stdin_data` holds its bytes, named
``<stdin>``) is a filter: the edited file goes to stdout unless ``-o OUT``, ``--check`` or
``--diff`` says otherwise; ``--in-place`` is refused (there is no file to rewrite). ``-o -``
(:attr:`WriteMode.stdout`) sends the edited file to stdout for any FILE.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from gzinertia.edit.line_diff import file_diff
from gzinertia.errors import GzInertiaError
from gzinertia.io.safe_write import resolved_in_tree, write_atomically
from gzinertia.record_base import ValueRecord

__all__ = ["STDIN_IN_PLACE", "WriteMode", "deliver"]

#: The refusal of ``--in-place`` for FILE ``-``.
STDIN_IN_PLACE = (
    "--in-place cannot rewrite standard input: the edited file goes to stdout (or -o OUT)"
)


@dataclass(frozen=True, repr=False, eq=False)
class WriteMode(ValueRecord):
    """What the user asked for; ``output`` and ``in_place`` exclude each other."""

    output: Path | None = None
    in_place: bool = False
    check: bool = False
    diff: bool = False
    #: Write a file whose permissions say read-only (``--force-readonly``); it stays read-only.
    force_readonly: bool = False
    #: FILE was ``-``: the bytes read from standard input (the edit is named ``<stdin>``).
    stdin_data: bytes | None = field(default=None, repr=False, compare=False)
    #: ``-o -``: the edited file goes to stdout (``output`` is then ``None``).
    stdout: bool = False
    #: The folder FILE was found in by walking it (symlinks resolved; ``audit --fix``): written
    #: in place only if its links lead to a file within it, reached through no link below it.
    #: ``None``: FILE was named by the user (links followed as named).
    tree: str | None = None

    def __post_init__(self) -> None:
        if self.output is not None and self.in_place:
            raise GzInertiaError("give either -o/--output or --in-place, not both")
        if self.check and (self.output is not None or self.in_place):
            raise GzInertiaError("--check writes nothing: drop -o/--output and --in-place")
        if self.in_place and self.stdin_data is not None:
            raise GzInertiaError(STDIN_IN_PLACE)
        if self.stdout and (self.output is not None or self.in_place or self.check):
            raise GzInertiaError("-o - (stdout) goes without --in-place and --check")
        if self.stdout and self.diff:
            raise GzInertiaError("-o - and --diff both print to stdout: choose one")

    @property
    def to_stdout(self) -> bool:
        """Whether the edited file itself goes to stdout: FILE is standard input and neither
        ``-o``, ``--check`` nor ``--diff`` was given (a filter: ``CMD - < in.sdf > out.sdf``)."""
        return self.stdout or (
            self.stdin_data is not None and not (self.check or self.diff or self.output is not None)
        )

    @property
    def writes(self) -> bool:
        """Whether this mode writes a file (``-o``/``--output`` or ``--in-place``)."""
        return self.output is not None or self.in_place


def deliver(path: Path, old: bytes, new: bytes, mode: WriteMode) -> int:
    """Does what ``mode`` says with the edited bytes; returns the exit status (1 only for
    ``--check`` on a file that would change). Status lines go to stderr."""
    changed = new != old
    if mode.to_stdout:  # a filter: the edited file (or the input as it was) and nothing else
        sys.stdout.flush()
        sys.stdout.buffer.write(new)
        sys.stdout.flush()
        return 0
    if mode.diff and changed:
        sys.stdout.write(file_diff(path, old, new))
        sys.stdout.flush()
    if mode.check:
        print(f"{path}: {'would change' if changed else 'up to date'}", file=sys.stderr)
        return 1 if changed else 0
    if mode.output is not None:
        write_atomically(mode.output, new, force_readonly=mode.force_readonly)
        print(f"wrote {mode.output}" + ("" if changed else " (same as the input)"), file=sys.stderr)
    elif mode.in_place:
        if changed:
            # ``old`` as read: a file another process changed meanwhile is not overwritten.
            write_atomically(_in_tree(path, mode.tree), new, expected=old,
                             force_readonly=mode.force_readonly, root=mode.tree)
            print(f"updated {path}", file=sys.stderr)
        else:
            print(f"{path}: unchanged", file=sys.stderr)
    elif not mode.diff:
        what = "would change" if changed else "would not change"
        print(
            f"{path}: {what}; nothing written (use --in-place, -o OUT, --diff or --check)",
            file=sys.stderr,
        )
    return 0


def _in_tree(path: Path, tree: str | None) -> Path:
    """The file an in-place write of ``path`` replaces: ``path`` (named by the user), or, for a
    file found in ``tree``, the file its links lead to, within ``tree``."""
    return path if tree is None else resolved_in_tree(path, tree)
