"""Minimal-diff edits of an XML file: replace, insert or remove elements and text at their exact
byte spans, matching the surrounding indentation and line endings, and leave every other byte as
it was (comments, attribute order and quoting, blank lines, the XML declaration).

Edits are collected and applied at once (:meth:`XmlEditor.result`); they must not overlap.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lxml import etree

from gzinertia.edit.spans import (
    ElementSpan,
    blank_line_end,
    blank_line_start,
    element_spans,
    indentation_at,
    newline_of,
)
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.sdf.xml import child, parse_xml_bytes

__all__ = ["XmlEditor"]


@dataclass(frozen=True, repr=False, eq=False)
class _Edit(ValueRecord):
    start: int
    end: int
    text: bytes


#: What ``bytes.strip`` takes for whitespace (as integers, the items of ``bytes``).
_WHITESPACE = frozenset(b" \t\n\r\x0b\x0c")

_ENCODING = re.compile(rb"""^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def _declared_encoding(data: bytes, name: str) -> str:
    """The XML declaration's encoding (UTF-8 by default); refuses non-ASCII-compatible ones,
    whose bytes the span scanner cannot read."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00", b"<\x00")):
        raise GzInertiaError(f"{name}: cannot edit a UTF-16/32 file; convert it to UTF-8")
    m = _ENCODING.match(data.lstrip(b"\xef\xbb\xbf"))
    encoding = m.group(1).decode("ascii") if m else "utf-8"
    try:
        probe = "<a/>".encode(encoding)
    except LookupError:
        raise GzInertiaError(f"{name}: unknown encoding {encoding!r}") from None
    if probe != b"<a/>":
        raise GzInertiaError(f"{name}: cannot edit a file encoded as {encoding}; use UTF-8")
    return encoding


def _detect_indent_unit(data: bytes) -> bytes:
    """The file's indentation step (the most common increase between consecutive lines)."""
    steps: Counter[bytes] = Counter()
    prev = b""
    for line in data.splitlines():
        if not line.strip():
            continue
        indent = line[: len(line) - len(line.lstrip(b" \t"))]
        if len(indent) > len(prev) and indent.startswith(prev):
            steps[indent[len(prev) :]] += 1
        prev = indent
    return steps.most_common(1)[0][0] if steps else b"  "


class XmlEditor:
    """The bytes of one file, its parsed tree, and the edits made so far.

    Elements are lxml elements of :attr:`root` (parsed from the same bytes with the reader's safe
    parser); each maps to its byte span by document order.
    """

    def __init__(self, data: bytes, name: str) -> None:
        self.data = data
        self.name = name
        self.encoding = _declared_encoding(data, name)
        self.root = parse_xml_bytes(data, name)
        spans = element_spans(data, name)
        elements = list(self.root.iter(etree.Element))
        if len(spans) != len(elements):
            raise GzInertiaError(f"{name}: cannot map elements to bytes for a minimal edit")
        self._span = {id(e): s for e, s in zip(elements, spans, strict=True)}
        self._elements = elements  # keeps ids alive
        self.newline = newline_of(data)
        self.indent_unit = _detect_indent_unit(data)
        self._edits: list[_Edit] = []  # sorted by (start, end), pairwise non-overlapping
        self._edit_keys: list[tuple[int, int]] = []  # their (start, end), for bisect
        #: The edits appending lines to an element, by the element's id, and, by the edit's id,
        #: the element and every line appended to it (the edit's text is made from them).
        self._append_edit: dict[int, _Edit] = {}
        self._appended: dict[int, tuple[etree._Element, list[str]]] = {}
        self._by_line_and_attribute: dict[tuple[str, str], dict[tuple[int, str], etree._Element]]
        self._by_line_and_attribute = {}

    # --- lookup ---------------------------------------------------------------------------
    def span(self, elem: etree._Element) -> ElementSpan:
        """Where ``elem`` sits in the file's bytes (an error if the element and bytes disagree)."""
        span = self._span[id(elem)]
        if span.tag.rsplit(b":", 1)[-1] != str(elem.tag).rsplit("}", 1)[-1].encode():
            raise GzInertiaError(f"{self.name}: element/byte mismatch at <{elem.tag}>")
        return span

    def find(self, tag: str, line: int, attribute: str, value: str) -> etree._Element | None:
        """The first ``<tag>`` element (document order) that starts on ``line`` and whose
        ``attribute``, stripped, is ``value``; ``None`` if there is none. The first call for a
        (tag, attribute) indexes all such elements once, so that n look-ups cost O(n), not
        O(n²)."""
        key = (tag, attribute)
        index = self._by_line_and_attribute.get(key)
        if index is None:
            index = {}
            for elem in self.root.iter(tag):
                found = elem.sourceline
                where = found if isinstance(found, int) else 0
                index.setdefault((where, (elem.get(attribute) or "").strip()), elem)
            self._by_line_and_attribute[key] = index
        return index.get((line, value))

    def indentation(self, elem: etree._Element) -> bytes:
        """The whitespace before ``elem`` on its line (``b""`` if other text precedes it)."""
        return indentation_at(self.data, self.span(elem).start)

    def child_indentation(self, elem: etree._Element) -> bytes:
        """Indentation of ``elem``'s children (its first child's, or its own plus one step)."""
        for c in elem:
            if isinstance(c.tag, str):
                found = indentation_at(self.data, self.span(c).start)
                if found:
                    return found
        return self.indentation(elem) + self.indent_unit

    # --- edits ----------------------------------------------------------------------------
    def _add(self, start: int, end: int, text: bytes) -> _Edit:
        # The edits so far are sorted and do not overlap, so their ends are sorted too: an edit
        # that overlaps the new one, if any, is next to where the new one sorts (O(log n) per
        # edit; the insertion is at the end when edits come in document order, as they do).
        at = bisect.bisect_left(self._edit_keys, (start, end))
        for e in self._edits[max(at - 1, 0) : at + 1]:
            if (start < e.end and e.start < end) or (start == end == e.start == e.end):
                raise GzInertiaError(f"{self.name}: overlapping edits at byte {start}")
        edit = _Edit(start, end, text)
        self._edit_keys.insert(at, (start, end))
        self._edits.insert(at, edit)
        return edit

    def _block(self, lines: Sequence[str], indent: bytes) -> bytes:
        return b"".join(indent + self._encode(line) + self.newline for line in lines)

    def _encode(self, text: str) -> bytes:
        return text.encode(self.encoding, errors="xmlcharrefreplace")

    def set_text(self, elem: etree._Element, text: str) -> None:
        """Replaces the text content of a leaf element."""
        span = self.span(elem)
        if span.self_closing:
            tag = self.data[span.start : span.end - 2].rstrip()
            closing = b"</" + span.tag + b">"
            self._add(span.start, span.end, tag + b">" + self._encode(text) + closing)
        else:
            self._add(span.start_tag_end, span.content_end, self._encode(text))

    def set_children_text(self, parent: etree._Element, values: Mapping[str, str]) -> None:
        """Sets the text of ``parent``'s leaf children named in ``values``; the ones it lacks
        are appended together, in the order given, at its children's indentation."""
        missing = []
        for tag, text in values.items():
            existing = child(parent, tag)
            if existing is None:
                missing.append(f"<{tag}>{text}</{tag}>")
            else:
                self.set_text(existing, text)
        if missing:
            self.append_child_lines(parent, missing)

    def set_attribute(self, elem: etree._Element, attr: str, value: str) -> None:
        """Replaces an existing attribute's value in the start tag (quoting kept)."""
        span = self.span(elem)
        tag = self.data[span.start : span.start_tag_end]
        m = re.search(rb"(\s" + re.escape(attr.encode()) + rb"\s*=\s*)([\"'])(.*?)\2", tag)
        if m is None:
            raise GzInertiaError(f"{self.name}: <{elem.tag}> has no attribute {attr!r}")
        self._add(span.start + m.start(3), span.start + m.end(3), self._encode(value))

    def append_child_lines(self, parent: etree._Element, lines: Sequence[str]) -> None:
        """Inserts lines as the last content of ``parent`` at its children's indentation; lines
        appended to the same parent again go after them (one insertion of all)."""
        edit = self._append_edit.get(id(parent))
        if edit is None:
            start, end, _ = self._appending(parent, ())
            edit = self._append_edit[id(parent)] = self._add(start, end, b"")
            self._appended[id(edit)] = (parent, [])
        self._appended[id(edit)][1].extend(lines)

    def _appending(self, parent: etree._Element, lines: Sequence[str]) -> tuple[int, int, bytes]:
        """``(start, end, text)`` of the edit that appends ``lines`` to ``parent``."""
        span = self.span(parent)
        indent = self.child_indentation(parent)
        own = self.indentation(parent)
        if span.self_closing:
            tag = self.data[span.start : span.end - 2].rstrip()
            text = tag + b">" + self.newline + self._block(lines, indent) + own
            return span.start, span.end, text + b"</" + span.tag + b">"
        close = span.content_end
        at = blank_line_start(self.data, close)
        if at is not None:
            return at, at, self._block(lines, indent)
        return close, close, self.newline + self._block(lines, indent) + own

    def replace_element(
        self, elem: etree._Element, lines: Sequence[str], with_comment: bool = False
    ) -> None:
        """Replaces ``elem`` (and, with ``with_comment``, a ``<!-- gzinertia ... -->`` comment
        right before it) by ``lines`` at its indentation."""
        span = self.span(elem)
        start = span.start
        if with_comment:
            start = self._preceding_gzinertia_comment(start)
        first = blank_line_start(self.data, start)
        if first is not None:
            end = self._through_newline(span.end)
            self._add(first, end, self._block(lines, self.data[first:start]))
        else:
            body = self._block(lines, self.indentation(elem)).strip()
            self._add(start, span.end, body)

    def remove_element(self, elem: etree._Element, with_comment: bool = False) -> None:
        """Removes ``elem`` (and its whole line when nothing else is on it)."""
        span = self.span(elem)
        start = self._preceding_gzinertia_comment(span.start) if with_comment else span.start
        end = self._through_newline(span.end)
        first = blank_line_start(self.data, start)
        if first is not None and first < start and end > span.end:
            self._add(first, end, b"")
        else:
            self._add(start, span.end, b"")

    def _through_newline(self, pos: int) -> int:
        """Past the end of the line if only whitespace follows ``pos`` on it, else ``pos``."""
        end = blank_line_end(self.data, pos)
        return pos if end is None else end

    def _preceding_gzinertia_comment(self, pos: int) -> int:
        # Walks back over whitespace instead of copying the bytes before pos (which made n
        # edits of one file cost O(n·size)).
        end = pos
        while end > 0 and self.data[end - 1] in _WHITESPACE:
            end -= 1
        if self.data.endswith(b"-->", 0, end):
            begin = self.data.rfind(b"<!--", 0, end)
            if begin >= 0 and self.data[begin + 4 : end].lstrip().startswith(b"gzinertia"):
                return begin
        return pos

    def gzinertia_comment(self, elem: etree._Element) -> str | None:
        """The text of the ``<!-- gzinertia ... -->`` comment right before ``elem``, if any."""
        start = self.span(elem).start
        begin = self._preceding_gzinertia_comment(start)
        if begin == start:
            return None
        text = self.data[begin:start].rstrip()
        return text[4:-3].strip().decode(self.encoding, errors="replace")

    def replace_gzinertia_comment(self, elem: etree._Element, text: str) -> None:
        """Replaces the ``<!-- gzinertia ... -->`` comment right before ``elem`` by
        ``<!-- text -->``; nothing when there is none, or it says ``text`` already."""
        start = self.span(elem).start
        begin = self._preceding_gzinertia_comment(start)
        if begin == start or self.gzinertia_comment(elem) == text:
            return
        end = self.data.index(b"-->", begin) + 3
        self._add(begin, end, self._encode(f"<!-- {text} -->"))

    def has_gzinertia_comment(self, elem: etree._Element) -> bool:
        """Whether a gzinertia provenance comment directly precedes ``elem``."""
        start = self.span(elem).start
        return self._preceding_gzinertia_comment(start) != start

    # --- result ---------------------------------------------------------------------------
    @property
    def changed(self) -> bool:
        """Whether the edits change the bytes."""
        return self.result() != self.data

    def result(self) -> bytes:
        """The file's bytes with every edit applied."""
        pieces, pos = [], 0
        for e in self._edits:  # sorted by (start, end)
            appended = self._appended.get(id(e))
            text = e.text if appended is None else self._appending(*appended)[2]
            pieces += [self.data[pos : e.start], text]
            pos = e.end
        pieces.append(self.data[pos:])
        return b"".join(pieces)
