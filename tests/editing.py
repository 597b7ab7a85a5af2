"""Test helpers for edits: where the `<fluid_added_mass>` blocks are, and that nothing else moved."""

from __future__ import annotations

import difflib
import re

_OPEN = re.compile(rb"<fluid_added_mass\b")
_CLOSE = re.compile(rb"</fluid_added_mass>|<fluid_added_mass\b[^>]*/>")
_OUR_COMMENT = re.compile(rb"^\s*<!-- gzinertia .*-->\s*$")


def added_mass_lines(data: bytes) -> set[int]:
    """Indices of the lines inside `<fluid_added_mass>` elements and of gzinertia comments."""
    inside, out = False, set()
    for i, line in enumerate(data.splitlines(keepends=True)):
        if _OUR_COMMENT.match(line):
            out.add(i)
        if _OPEN.search(line):
            inside = True
        if inside:
            out.add(i)
        if _CLOSE.search(line):
            inside = False
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


def assert_only_added_mass_changed(old: bytes, new: bytes) -> None:
    """Every removed or added line lies in a `<fluid_added_mass>` block (or our comment)."""
    removed, added = changed_lines(old, new)
    assert removed <= added_mass_lines(old), sorted(removed - added_mass_lines(old))[:5]
    assert added <= added_mass_lines(new), sorted(added - added_mass_lines(new))[:5]
