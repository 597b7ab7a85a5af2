"""Loading XML safely and leniently enough for real SDFormat files.

* No external entities, no DTD loading, no network, no huge-tree mode: a hostile file cannot make
  the parser fetch anything or expand entities.
* Undeclared namespace prefixes (``gz:type="..."``, ``<gz:anemometer>``), which libsdformat
  accepts and strict XML rejects, are declared on the root element before parsing. The
  declaration goes on the root's own line, so every line number stays that of the user's file.
* Comments are kept: the audit reads suppression comments and commented-out elements.
* Limits with clear messages: files over 64 MiB, nesting deeper than libxml2's 256 levels, and
  any DTD that declares entities (SDFormat never needs one; libsdformat's tinyxml2 does not
  expand them; they are how entity-expansion bombs and external-entity reads are built).
"""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from gzinertia.errors import SdfError

MAX_FILE_BYTES = 64 * 1024 * 1024

_PREFIX_RE = re.compile(rb"[<\s/]([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*")
_DECLARED_RE = re.compile(rb"xmlns:([A-Za-z_][\w.-]*)\s*=")
_ROOT_RE = re.compile(rb"<(?![?!])[A-Za-z_][\w.:-]*")
_ENTITY_DECL_RE = re.compile(rb"<!ENTITY\b")
_DEPTH_MSG = re.compile(r"Excessive depth in document: (\d+)")


def safe_parser() -> etree.XMLParser:
    """lxml settings for untrusted files: no entities, DTDs or network; comments kept."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=False,
        remove_pis=True,
        collect_ids=False,
    )


def _declare_missing_prefixes(data: bytes) -> bytes:
    used = set(_PREFIX_RE.findall(data)) - {b"xml", b"xmlns"}
    missing = sorted(used - set(_DECLARED_RE.findall(data)))
    if not missing:
        return data
    root = _ROOT_RE.search(data)
    if root is None:
        return data
    decl = b"".join(b' xmlns:%s="urn:gzinertia:undeclared:%s"' % (p, p) for p in missing)
    return data[: root.end()] + decl + data[root.end() :]


def parse_xml_bytes(data: bytes, name: str) -> etree._Element:
    """Parses ``data`` (named ``name`` in errors) and returns the root element."""
    if len(data) > MAX_FILE_BYTES:
        raise SdfError(name, None, f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    if not data.strip():
        raise SdfError(name, None, "file is empty")
    root_start = _ROOT_RE.search(data)
    prolog = data[: root_start.start()] if root_start else data
    entity = _ENTITY_DECL_RE.search(prolog)
    if entity:
        entity_line = prolog.count(b"\n", 0, entity.start()) + 1
        raise SdfError(
            name, entity_line, "refusing a DTD that declares entities (SDFormat does not use them)"
        )
    try:
        root = etree.fromstring(_declare_missing_prefixes(data), safe_parser())
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno else None
        msg = exc.msg or "malformed XML"
        msg = re.sub(r",? line \d+, column \d+$", "", msg)
        depth = _DEPTH_MSG.search(msg)
        if depth:
            raise SdfError(
                name, line, f"elements nested deeper than {depth.group(1)} levels (limit)"
            ) from None
        raise SdfError(name, line, f"not well-formed XML: {msg}") from None
    except ValueError as exc:  # e.g. an encoding declaration lxml refuses
        raise SdfError(name, None, f"cannot parse as XML: {exc}") from None
    return root


def read_file_bytes(path: str | Path) -> bytes:
    """A file's bytes; an :class:`SdfError` naming the path as given when it cannot be read."""
    name = str(path)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise SdfError(name, None, "no such file") from None
    except IsADirectoryError:
        raise SdfError(name, None, "is a directory, not a file") from None
    except OSError as exc:
        raise SdfError(name, None, f"cannot read: {exc.strerror or exc}") from None


def parse_xml_file(path: str | Path) -> etree._Element:
    """Reads and parses a file (errors name the path as given)."""
    return parse_xml_bytes(read_file_bytes(path), str(path))


def local_name(elem: etree._Element) -> str:
    """The tag without any namespace (comments and processing instructions give '')."""
    tag = elem.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def children(elem: etree._Element, tag: str) -> list[etree._Element]:
    """Direct element children with this (namespace-free) tag."""
    return [c for c in elem if isinstance(c.tag, str) and c.tag == tag]


def child(elem: etree._Element, tag: str) -> etree._Element | None:
    """The first direct child with this tag (libsdformat reads the first of duplicates)."""
    for c in elem:
        if isinstance(c.tag, str) and c.tag == tag:
            return c
    return None


def line_of(elem: etree._Element) -> int:
    line = elem.sourceline
    return line if isinstance(line, int) else 0
