"""Loading XML safely and leniently enough for real SDFormat files.

* No external entities, no DTD loading, no network, no huge-tree mode: a hostile file cannot make
  the parser fetch anything or expand entities.
* What libsdformat's tinyxml2 accepts and strict XML rejects (undeclared namespace prefixes
  such as ``gz:type="..."``, ``<ignition::corrected_offsets>``, ``--`` in a comment) is
  rewritten as XML on the same lines before a second parse (:mod:`gzinertia.sdf.tinyxml`), so
  every line number stays that of the user's file.
* Comments are kept: the audit reads suppression comments and commented-out elements.
* Limits with clear messages: files over 64 MiB (refused before they are read, see
  :mod:`gzinertia.io.safe_read`; FIFOs, devices and other non-regular files are never opened),
  nesting deeper than libxml2's 256 levels, and any DTD that declares entities (SDFormat never
  needs one; libsdformat's tinyxml2 does not expand them; they are how entity-expansion bombs
  and external-entity reads are built). The refusal is decided on the DTD the parser reports
  (:func:`_refuse_entities`), whatever the file's encoding or comments; no DTD is ever loaded,
  so a ``<!DOCTYPE sdf SYSTEM "...">`` opens nothing and is otherwise ignored (as libsdformat
  does).
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from pathlib import Path

from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.io.safe_read import RefusedFileError, read_regular_file
from gzinertia.sdf.tinyxml import LENIENT_ERRORS, declaration_first, tinyxml_readable

__all__ = [
    "MAX_FILE_BYTES",
    "SHARED_TREES_MAX",
    "SHARED_TREES_MAX_BYTES",
    "child",
    "children",
    "first_children",
    "line_of",
    "parse_xml_bytes",
    "parse_xml_file",
    "parse_xml_file_shared",
    "read_file_bytes",
    "safe_parser",
]

MAX_FILE_BYTES = 64 * 1024 * 1024

# Patterns of the rare paths (errors): kept as text, compiled on first use by re's cache
# (compiling them costs every command's start-up).
_DOCTYPE_RE = rb"<!DOCTYPE\b"
_DEPTH_MSG = r"Excessive depth in document: (\d+)"


def safe_parser() -> etree.XMLParser:
    """The lxml settings for untrusted files: no entities, DTDs or network; comments kept.

    ``collect_ids`` keeps lxml's default: with ``collect_ids=False`` libxml2 loads a
    ``<!DOCTYPE ... SYSTEM "...">`` external subset although ``load_dtd=False`` (lxml 6.1,
    libxml2 2.14), i.e. opens any file or FIFO a document names."""
    return _parser(remove_pis=True)


def _parser(*, remove_pis: bool = False, recover: bool = False) -> etree.XMLParser:
    """Every lxml parser here: it resolves no entity, loads and validates no DTD, touches no
    network, keeps libxml2's limits (no ``huge_tree``) and comments; ``remove_pis`` drops
    processing instructions (the safe parser), ``recover`` reads past errors (the DTD probe
    of a rejected document)."""
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
        huge_tree=False, remove_comments=False, remove_pis=remove_pis, recover=recover,
    )


_LOCAL = threading.local()


def _shared_parser() -> etree.XMLParser:
    """The :func:`safe_parser` of this thread (lxml parsers are reused, never shared by threads)."""
    parser: etree.XMLParser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = _LOCAL.parser = safe_parser()
    return parser


def parse_xml_bytes(data: bytes, name: str) -> etree._Element:
    """Parses ``data`` (named ``name`` in errors) and returns the root element."""
    if len(data) > MAX_FILE_BYTES:
        raise SdfError(name, None, f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    if not data.strip():
        raise SdfError(name, None, "file is empty")
    data = declaration_first(data)
    try:
        try:
            root = etree.fromstring(data, _shared_parser())
        except etree.XMLSyntaxError as exc:
            if not (exc.msg or "").startswith(LENIENT_ERRORS):
                raise
            # What libsdformat's tinyxml2 reads (undeclared gz: prefixes, <ignition::...>,
            # "--" in comments), rewritten as XML on the same lines: parse again.
            root = etree.fromstring(tinyxml_readable(data), _shared_parser())
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno else None
        msg = exc.msg or "malformed XML"
        msg = re.sub(r",? line \d+, column \d+$", "", msg)
        declared = _declared_entities_after_error(data)
        if declared:
            raise SdfError(
                name, _doctype_line(data) or line, f"{_ENTITY_REFUSAL}: {declared}"
            ) from None
        depth = re.search(_DEPTH_MSG, msg)
        if depth:
            raise SdfError(
                name, line, f"elements nested deeper than {depth.group(1)} levels (limit)"
            ) from None
        raise SdfError(name, line, f"not well-formed XML: {msg}") from None
    except ValueError as exc:  # e.g. an encoding declaration lxml refuses
        raise SdfError(name, None, f"cannot parse as XML: {exc}") from None
    _refuse_entities(root, data, name)
    _refuse_undeclared_entities(_shared_parser(), name)
    return root


_ENTITY_REFUSAL = "refusing a DTD that declares entities (SDFormat does not use them)"


def _doctype_line(data: bytes) -> int | None:
    """The line of ``<!DOCTYPE`` in an ASCII-compatible file (for messages only)."""
    found = re.search(_DOCTYPE_RE, data)
    return None if found is None else data.count(b"\n", 0, found.start()) + 1


def _declared_entities(root: etree._Element | None) -> str:
    """The entities (general or parameter) the parser reports declared in the document's DTD,
    as text (``""`` when none). The parser loads no external subset, so only the internal one
    can declare any."""
    if root is None:
        return ""
    docinfo = root.getroottree().docinfo
    names: list[str] = []
    for dtd in (docinfo.internalDTD, docinfo.externalDTD):
        if dtd is not None:
            names.extend(str(e.name) for e in dtd.iterentities())  # type: ignore[attr-defined]
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")


def _declared_entities_after_error(data: bytes) -> str:
    """:func:`_declared_entities` of a document the parser rejected (an entity bomb stops it
    with "entity amplification", an external entity with "references external entity"): what
    the same parser, in recovery mode, reports of its DTD."""
    parser = _parser(recover=True)
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError):
        return ""
    return _declared_entities(root)


def _refuse_undeclared_entities(parser: etree.XMLParser, name: str) -> None:
    """An :class:`SdfError` when the last parse met an entity reference nothing declares:
    with a ``<!DOCTYPE ... SYSTEM>`` (never loaded) libxml2 only warns and drops it, which
    would silently change a name or a value."""
    for entry in parser.error_log:
        if entry.type_name == "WAR_UNDECLARED_ENTITY":
            raise SdfError(
                name,
                entry.line or None,
                f"{entry.message.strip()} (no DTD is read; SDFormat does not use entities)",
            )


def _refuse_entities(root: etree._Element, data: bytes, name: str) -> None:
    """An :class:`SdfError` when the parser reports a DTD that declares entities."""
    declared = _declared_entities(root)
    if declared:
        raise SdfError(name, _doctype_line(data) or line_of(root), f"{_ENTITY_REFUSAL}: {declared}")


def read_file_bytes(path: str | Path) -> bytes:
    """A regular file's bytes (at most :data:`MAX_FILE_BYTES`, checked before reading); an
    :class:`SdfError` naming the path as given when it cannot or may not be read (a FIFO, a
    device, a directory, too large: :mod:`gzinertia.io.safe_read`)."""
    name = str(path)
    try:
        return read_regular_file(path, MAX_FILE_BYTES)
    except RefusedFileError as exc:
        raise SdfError(name, None, str(exc)) from None
    except FileNotFoundError:
        raise SdfError(name, None, "no such file") from None
    except IsADirectoryError:
        raise SdfError(name, None, "is a directory, not a file") from None
    except OSError as exc:
        raise SdfError(name, None, f"cannot read: {exc.strerror or exc}") from None


def parse_xml_file(path: str | Path) -> etree._Element:
    """Reads and parses a file (errors name the path as given)."""
    return parse_xml_bytes(read_file_bytes(path), str(path))


#: The shared-tree cache keeps at most this many trees, from at most this many bytes of files.
SHARED_TREES_MAX = 128
SHARED_TREES_MAX_BYTES = 64 * 1024 * 1024

_Stamp = tuple[int, int, int]  # (inode, size, modification time in ns)


class _TreeCache:
    """Parsed trees by file name, least recently used first, bounded in count and bytes."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.trees: OrderedDict[str, tuple[_Stamp, etree._Element]] = OrderedDict()
        self.held = 0  # bytes of the files whose trees are held

    def get(self, name: str, stamp: _Stamp) -> etree._Element | None:
        with self.lock:
            hit = self.trees.get(name)
            if hit is None or hit[0] != stamp:
                return None
            self.trees.move_to_end(name)
            return hit[1]

    def put(self, name: str, stamp: _Stamp, root: etree._Element) -> None:
        with self.lock:
            replaced = self.trees.pop(name, None)
            if replaced is not None:
                self.held -= replaced[0][1]
            self.trees[name] = (stamp, root)
            self.held += stamp[1]
            while len(self.trees) > 1 and (
                len(self.trees) > SHARED_TREES_MAX or self.held > SHARED_TREES_MAX_BYTES
            ):
                _, (old, _) = self.trees.popitem(last=False)
                self.held -= old[1]


_SHARED_TREES = _TreeCache()


def parse_xml_file_shared(path: str | Path) -> etree._Element:
    """:func:`parse_xml_file` through a per-process cache, for files read many times in one run
    (a model included by many files, its ``model.config``). The tree is shared: callers must
    not modify it. An entry is used only while the file's inode, size and modification time
    (to the nanosecond) are unchanged; parse errors are not cached."""
    name = str(path)
    try:
        st = os.stat(path)
    except OSError:
        return parse_xml_file(path)  # raises the usual SdfError
    stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
    root = _SHARED_TREES.get(name, stamp)
    if root is None:
        root = parse_xml_file(path)
        _SHARED_TREES.put(name, stamp, root)
    return root


def children(elem: etree._Element, tag: str) -> list[etree._Element]:
    """Direct element children with this (namespace-free) tag."""
    return list(elem.iterchildren(tag))


def first_children(elem: etree._Element) -> dict[str, etree._Element]:
    """The first direct child of each tag, by tag (one pass, for elements read tag by tag)."""
    out: dict[str, etree._Element] = {}
    for c in elem:  # (a Python loop: cheaper than lxml's filtered iterator for a few children)
        tag = c.tag
        if tag not in out and isinstance(tag, str):  # comments' and entities' tags are not
            out[tag] = c
    return out


def child(elem: etree._Element, tag: str) -> etree._Element | None:
    """The first direct child with this tag (libsdformat reads the first of duplicates)."""
    for c in elem:  # (a Python loop: cheaper than lxml's filtered iterator for a few children)
        if c.tag == tag:  # a comment's tag is a function, never equal
            return c
    return None


def line_of(elem: etree._Element) -> int:
    """The element's line in its file (0 when lxml does not know it)."""
    line = elem.sourceline
    return line if isinstance(line, int) else 0
