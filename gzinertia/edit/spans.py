"""Byte spans of the elements of an XML document, for edits that leave every other byte alone.

lxml gives line numbers but not byte offsets, and serialising a tree rewrites quoting, attribute
spacing, entities and blank lines. So the writer edits the user's bytes directly: this module
scans them once (comments, CDATA, processing instructions, the DOCTYPE and quoted attribute
values are skipped as opaque) and returns, in document order, the span of every element — the
same order as ``root.iter(etree.Element)`` on the parsed tree, which is how the two are matched.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gzinertia.errors import SdfError
from gzinertia.record_base import ValueRecord

__all__ = [
    "ElementSpan", "blank_line_end", "blank_line_start", "element_spans", "indentation_at",
    "newline_of"
]

_NAME = re.compile(rb"[^\s/>]+")


@dataclass(frozen=True, repr=False, eq=False)
class ElementSpan(ValueRecord):
    """Where an element sits in the bytes.

    ``start`` is the offset of ``<``; ``start_tag_end`` is just past the start tag's ``>``;
    ``content_end`` is the offset of ``</`` of the end tag (== ``start_tag_end`` for an empty
    element ``<a/>``); ``end`` is just past the end tag's ``>``.
    """

    tag: bytes
    start: int
    start_tag_end: int
    content_end: int
    end: int

    @property
    def self_closing(self) -> bool:
        """Whether the element is written ``<a/>``."""
        return self.content_end == self.start_tag_end == self.end


def _skip_to(data: bytes, pos: int, token: bytes, what: str, name: str) -> int:
    end = data.find(token, pos)
    if end < 0:
        raise SdfError(name, data.count(b"\n", 0, pos) + 1, f"unterminated {what}")
    return end + len(token)


def _tag_end(data: bytes, pos: int, name: str) -> int:
    """Offset just past the ``>`` closing the tag that starts at ``pos`` (quotes respected)."""
    i, n = pos, len(data)
    while i < n:
        c = data[i]
        if c in b"\"'":
            i = _skip_to(data, i + 1, bytes([c]), "attribute value", name)
            continue
        if c == 0x3E:  # '>'
            return i + 1
        i += 1
    raise SdfError(name, data.count(b"\n", 0, pos) + 1, "unterminated tag")


def _doctype_end(data: bytes, pos: int, name: str) -> int:
    depth, i = 0, pos
    while i < len(data):
        c = data[i]
        if c == 0x5B:  # '['
            depth += 1
        elif c == 0x5D:  # ']'
            depth -= 1
        elif c == 0x3E and depth <= 0:
            return i + 1
        i += 1
    raise SdfError(name, data.count(b"\n", 0, pos) + 1, "unterminated DOCTYPE")


def element_spans(data: bytes, name: str = "<bytes>") -> list[ElementSpan]:
    """Every element of ``data`` in document order (start-tag order), with its byte span."""
    spans: list[ElementSpan | None] = []
    open_stack: list[tuple[int, bytes, int, int]] = []  # (index, tag, start, start_tag_end)
    pos = 0
    while True:
        lt = data.find(b"<", pos)
        if lt < 0:
            break
        if data.startswith(b"<!--", lt):
            pos = _skip_to(data, lt + 4, b"-->", "comment", name)
        elif data.startswith(b"<![CDATA[", lt):
            pos = _skip_to(data, lt + 9, b"]]>", "CDATA section", name)
        elif data.startswith(b"<?", lt):
            pos = _skip_to(data, lt + 2, b"?>", "processing instruction", name)
        elif data.startswith(b"<!", lt):
            pos = _doctype_end(data, lt + 2, name)
        elif data.startswith(b"</", lt):
            end = _tag_end(data, lt + 2, name)
            if not open_stack:
                raise SdfError(name, data.count(b"\n", 0, lt) + 1, "end tag without a start tag")
            index, tag, start, stag_end = open_stack.pop()
            spans[index] = ElementSpan(tag, start, stag_end, lt, end)
            pos = end
        else:
            m = _NAME.match(data, lt + 1)
            if m is None:
                raise SdfError(name, data.count(b"\n", 0, lt) + 1, "malformed tag")
            end = _tag_end(data, m.end(), name)
            if data[end - 2 : end] == b"/>":
                spans.append(ElementSpan(m.group(), lt, end, end, end))
            else:
                open_stack.append((len(spans), m.group(), lt, end))
                spans.append(None)
            pos = end
    if open_stack or any(s is None for s in spans):
        raise SdfError(name, None, "unclosed element")
    return [s for s in spans if s is not None]


#: Whitespace within a line (what ``bytes.strip`` takes, but the newline), as byte values.
_BLANKS = frozenset(b" \t\r\x0b\x0c")


def blank_line_start(data: bytes, pos: int) -> int | None:
    """Offset of the first byte of the line holding ``pos`` when only whitespace precedes
    ``pos`` on it, else ``None``. Walks back over that whitespace only: finding the start of
    every line an edit touches cost the whole line, the whole file for a file on one line."""
    start = pos
    while start > 0 and data[start - 1] in _BLANKS:
        start -= 1
    return start if start == 0 or data[start - 1] == 0x0A else None


def indentation_at(data: bytes, pos: int) -> bytes:
    """The whitespace between the start of ``pos``'s line and ``pos`` (``b""`` if other text
    precedes ``pos`` on its line)."""
    start = blank_line_start(data, pos)
    return b"" if start is None else data[start:pos]


def blank_line_end(data: bytes, pos: int) -> int | None:
    """Offset just past the end of the line holding ``pos`` (past its newline, or the end of
    the data) when only whitespace follows ``pos`` on it, else ``None``; walks over that
    whitespace only."""
    end = pos
    while end < len(data) and data[end] in _BLANKS:
        end += 1
    if end == len(data):
        return end
    return end + 1 if data[end] == 0x0A else None


def newline_of(data: bytes) -> bytes:
    r"""The file's line ending (``\r\n`` when its first line ending is one)."""
    first = data.find(b"\n")
    return b"\r\n" if first > 0 and data[first - 1 : first] == b"\r" else b"\n"
