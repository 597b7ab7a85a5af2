"""Test helpers for edits: where the edited elements are, and that nothing else moved."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

_OUR_COMMENT = re.compile(rb"^\s*<!-- gzinertia .*-->\s*$")


def element_lines(data: bytes, tags: Sequence[str] = ("fluid_added_mass",)) -> set[int]:
    """Indices of the lines inside the given elements (outermost) and of gzinertia comments."""
    names = b"|".join(re.escape(t.encode()) for t in tags)
    opening = re.compile(rb"<(" + names + rb")(?=[\s/>]|$)")
    self_closing = re.compile(rb"<(" + names + rb")\b[^<>]*/>")
    depth, current, out = 0, b"", set()
    for i, line in enumerate(data.splitlines(keepends=True)):
        if _OUR_COMMENT.match(line):
            out.add(i)
        m = opening.search(line) if depth == 0 else None
        if m:
            current = m.group(1)
            depth = 0 if self_closing.search(line) else 1
            out.add(i)
        if depth:
            out.add(i)
            if b"</" + current + b">" in line:
                depth = 0
    return out


def changed_lines(old: bytes, new: bytes) -> tuple[set[int], set[int]]:
    """Line indices removed from ``old`` and added in ``new``."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    removed, added = set(), set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed |= set(range(i1, i2))
            added |= set(range(j1, j2))
    return removed, added


def assert_only_changed_within(old: bytes, new: bytes, tags: Sequence[str]) -> None:
    """Every removed or added line lies in one of these elements (or is our comment)."""
    removed, added = changed_lines(old, new)
    assert removed <= element_lines(old, tags), sorted(removed - element_lines(old, tags))[:5]
    assert added <= element_lines(new, tags), sorted(added - element_lines(new, tags))[:5]


def assert_only_added_mass_changed(old: bytes, new: bytes) -> None:
    assert_only_changed_within(old, new, ("fluid_added_mass",))


_SDF_VERSION = re.compile(rb"""(<sdf\b[^>]*?\bversion\s*=\s*["'])([^"']*)(["'])""")


def undo_version_upgrade(old: bytes, new: bytes) -> bytes:
    """``new`` with its ``<sdf version>`` put back to ``old``'s, after checking that the edit
    declared 1.10 on a file older than that (as writing ``<fluid_added_mass>`` does) or left
    the version alone."""
    m_old, m_new = _SDF_VERSION.search(old), _SDF_VERSION.search(new)
    if m_old is None or m_new is None or m_old.group(2) == m_new.group(2):
        return new
    before = tuple(int(p) for p in m_old.group(2).split(b"."))
    assert m_new.group(2) == b"1.10" and before < (1, 10), (m_old.group(2), m_new.group(2))
    return new[: m_new.start(2)] + m_old.group(2) + new[m_new.end(2) :]
