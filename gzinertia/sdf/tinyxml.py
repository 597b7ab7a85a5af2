"""What libsdformat's XML parser (tinyxml2) reads and strict XML (libxml2) refuses, made XML.

Each pass rewrites the bytes of a file that libxml2 rejected into bytes it reads as tinyxml2
reads the original, on the same lines (line numbers in messages stay the user's). Only the
parsed tree sees the rewritten bytes: edits are made on the file's own bytes
(:mod:`gzinertia.edit.spans`), so everything outside an edit stays byte-identical.

* Whitespace before ``<?xml ...?>`` (every ``erb`` render has it): moved after it.
* Undeclared namespace prefixes (``gz:type="..."``, ``<gz:anemometer>``): declared on the root
  element.
* Element names with a doubled colon, ``<ignition::corrected_offsets>``, which libsdformat
  itself writes into the plugins of a converted URDF (``gz sdf -p``): read as the prefixed
  name ``ignition:corrected_offsets`` (local name ``corrected_offsets``, the part the span
  scanner compares). libsdformat keeps such elements as they are and interprets none of them.
* ``--`` inside a comment (VRX's ``obstacle_course``): tinyxml2 ends a comment at the first
  ``-->`` and keeps everything before it; here each ``--`` of its text reads ``- -`` (and a
  final ``-`` gets a space), so the comment ends where tinyxml2 ends it. Only comment text
  changes, which nothing reads as a value.
"""

from __future__ import annotations

import re

__all__ = ["LENIENT_ERRORS", "declaration_first", "declare_missing_prefixes", "tinyxml_readable"]

#: The starts of libxml2's messages for what the passes below make readable.
LENIENT_ERRORS = ("Namespace prefix", "Failed to parse QName", "Double hyphen within comment")

# Patterns of these rare paths: kept as text, compiled on first use by re's cache (compiling
# them costs every command's start-up).
_PREFIX_RE = rb"[<\s/]([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*"
_DECLARED_RE = rb"xmlns:([A-Za-z_][\w.-]*)\s*="
_ROOT_RE = rb"<(?![?!])[A-Za-z_][\w.:-]*"
_DOUBLE_COLON_RE = rb"(</?[A-Za-z_][\w.-]*)::(?=[A-Za-z_])"
_LEADING_DECLARATION = rb"^(\xef\xbb\xbf)?([ \t\r\n]+)(<\?xml[^>]*\?>)"


def declaration_first(data: bytes) -> bytes:
    """Whitespace before ``<?xml ...?>`` moved after it; every line keeps its number."""
    match = re.match(_LEADING_DECLARATION, data)
    if match is None:
        return data
    bom, blank, declaration = match.group(1) or b"", match.group(2), match.group(3)
    return bom + declaration + blank + data[match.end() :]


def declare_missing_prefixes(data: bytes) -> bytes:
    """``data`` with each namespace prefix it uses but does not declare declared on the root
    element (on the root's own line)."""
    used = set(re.findall(_PREFIX_RE, data)) - {b"xml", b"xmlns"}
    missing = sorted(used - set(re.findall(_DECLARED_RE, data)))
    if not missing:
        return data
    root = re.search(_ROOT_RE, data)
    if root is None:
        return data
    decl = b"".join(b' xmlns:%s="urn:gzinertia:undeclared:%s"' % (p, p) for p in missing)
    return data[: root.end()] + decl + data[root.end() :]


def _comment_as_xml(text: bytes) -> bytes:
    """A comment's text as XML allows it: no ``--``, no final ``-``."""
    while b"--" in text:
        text = text.replace(b"--", b"- -")
    return text + b" " if text.endswith(b"-") else text


def _pieces(data: bytes) -> list[tuple[bytes, bytes]]:
    """``data`` cut into pieces, each with what it is: ``b"<"`` markup, ``b"<!--"`` a comment's
    text, ``b"<![CDATA["`` a CDATA section's (tinyxml2 ends them at the first ``-->`` or
    ``]]>``). Linear in ``data``: an unterminated comment or section runs to the end."""
    pieces: list[tuple[bytes, bytes]] = []
    pos, comment, cdata = 0, data.find(b"<!--"), data.find(b"<![CDATA[")
    while comment >= 0 or cdata >= 0:
        is_comment = cdata < 0 or 0 <= comment < cdata
        opener, closer = (b"<!--", b"-->") if is_comment else (b"<![CDATA[", b"]]>")
        inner = (comment if is_comment else cdata) + len(opener)
        end = data.find(closer, inner)
        end = len(data) if end < 0 else end
        pieces += [(data[pos:inner], b"<"), (data[inner:end], opener)]
        pos = end
        if 0 <= comment < pos:  # each search resumes past the last piece: linear
            comment = data.find(b"<!--", pos)
        if 0 <= cdata < pos:
            cdata = data.find(b"<![CDATA[", pos)
    pieces.append((data[pos:], b"<"))
    return pieces


def tinyxml_readable(data: bytes) -> bytes:
    """``data`` with every construct above rewritten as XML (same lines, same elements in the
    same order); ``data`` itself when it has none."""
    out = []
    for piece, kind in _pieces(data):
        if kind == b"<":
            piece = re.sub(_DOUBLE_COLON_RE, rb"\1:", piece)
        elif kind == b"<!--":
            piece = _comment_as_xml(piece)
        out.append(piece)
    return declare_missing_prefixes(b"".join(out))
