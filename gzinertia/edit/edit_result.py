"""What every edit returns: :class:`Edit`, the file's bytes before and after, each link's outcome,
the links left alone and why, warnings and notes, with the two things a caller does with it: a
unified :meth:`~Edit.diff` and an atomic :meth:`~Edit.write` that refuses to overwrite a file
changed since it was read.

An edit writes nothing by itself; the command line renders an :class:`Edit` (``--diff``,
``--check``, ``-o``, ``--in-place``: :func:`gzinertia.cli.delivery.deliver`); the library
writes one with :meth:`Edit.write`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from gzinertia.edit.line_diff import file_diff
from gzinertia.errors import GzInertiaError
from gzinertia.io.safe_write import write_atomically
from gzinertia.record_base import ValueRecord
from gzinertia.sdf.stdin_names import STDIN_NAME

__all__ = ["Edit", "decoded_text"]

#: The per-link outcome an edit reports (:class:`~gzinertia.edit.addmass.LinkAddedMass`,
#: :class:`~gzinertia.edit.fix.LinkFix`, :class:`~gzinertia.edit.addmass_bem.LinkBem`, ...).
LinkOutcome = TypeVar("LinkOutcome")

_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")

#: What :meth:`Edit.write` compares with by default: the bytes the edit was computed from.
_AS_READ: Any = object()


def decoded_text(data: bytes) -> str:
    """``data`` decoded as its XML declaration says (UTF-8 without one, or for an encoding this
    Python does not know)."""
    declared = _DECLARED.match(data)
    encoding = declared.group(1).decode("ascii") if declared else "utf-8"
    try:
        return data.decode(encoding)
    except LookupError:
        return data.decode("utf-8")


@dataclass(frozen=True, repr=False, eq=False)
class Edit(ValueRecord, Generic[LinkOutcome]):
    """One edit of one file, in memory.

    ``path``: the file edited (``<stdin>`` for standard input); ``old`` and ``new``: its bytes
    as read and as edited (equal when nothing changes); ``links``: each written link's outcome,
    in file order (what it is depends on the edit: the matrix written, its point and axes, the
    repair); ``skipped``: the links left alone, each ``"name: why"``; ``warnings``: what the
    user should know about what was written; ``notes``: what the edit did besides (a version
    raised, a plugin's added mass turned off); ``pending``: changes that could not be written
    (a value made by a xacro expression: where to write which value).
    """

    path: Path
    old: bytes
    new: bytes
    links: tuple[LinkOutcome, ...] = ()
    skipped: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether the edit changes the file's bytes."""
        return self.new != self.old

    @property
    def text(self) -> str:
        """The edited file's text, decoded as its XML declaration says (UTF-8 otherwise)."""
        return decoded_text(self.new)

    @property
    def fixed(self) -> tuple[LinkOutcome, ...]:
        """:attr:`links` under the name ``gzinertia fix``'s result had (its repaired links)."""
        return self.links

    def diff(self) -> str:
        """A unified diff from :attr:`old` to :attr:`new` (``a/`` and ``b/`` prefixes for a
        relative path; empty when nothing changes)."""
        return file_diff(self.path, self.old, self.new) if self.changed else ""

    def write(
        self,
        path: str | Path | None = None,
        *,
        expected: bytes | None = _AS_READ,
        force_readonly: bool = False,
    ) -> None:
        """Writes :attr:`new` atomically (:func:`gzinertia.io.safe_write.write_atomically`:
        the file is at every instant the old bytes or the new ones, its owner, mode and links
        kept).

        ``path``: where (default: the file edited). ``expected``: the bytes the file must still
        hold when it is replaced, else nothing is written and a
        :class:`~gzinertia.errors.GzInertiaError` says another process changed it; by default
        :attr:`old` when writing over the file edited, nothing for another path; ``None``
        replaces whatever is there. ``force_readonly`` writes a read-only file (it stays so)."""
        target = self.path if path is None else Path(path)
        if path is None and str(self.path) == STDIN_NAME:
            raise GzInertiaError(f"{STDIN_NAME}: an edit of standard input has no file to "
                                 "write: give the path to write to")
        if expected is _AS_READ:
            expected = self.old if path is None or Path(path) == self.path else None
        write_atomically(target, self.new, expected=expected, force_readonly=force_readonly)
