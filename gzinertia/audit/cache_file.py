"""A result-cache file's text: one JSON document, ``{"schema": N, "entries": {...}}``, written one
entry a line so that each entry's MAC is checked on the text it was read from
(:func:`entries_by_line`), and a cached finding as JSON and back (:func:`finding_to_json`,
:func:`finding_from_json`).
"""

from __future__ import annotations

import json

from gzinertia.audit.findings import Finding, JsonValue

__all__ = [
    "FILE_HEAD", "FILE_TAIL", "SCHEMA", "entries_by_line", "finding_from_json", "finding_to_json",
]

#: Bump when the entry layout or the meaning of a stored field changes.
SCHEMA = 4


def finding_from_json(d: object) -> Finding:
    """A cached finding from its parsed JSON object (``TypeError``/``KeyError``/``ValueError``
    when damaged)."""
    if not isinstance(d, dict):
        raise TypeError("a finding is not an object")
    values = d["values"]
    if not isinstance(values, dict):
        raise TypeError("values is not an object")
    return Finding.from_json_data(
        str(d["code"]),
        d["severity"],
        str(d["file"]),
        int(d["line"]),
        None if d["link"] is None else str(d["link"]),
        str(d["message"]),
        values,
        None if d.get("link_in_file") is None else str(d["link_in_file"]),
        str(d["message_template"]),
        {str(name): str(text) for name, text in d["message_args"].items()},
    )


def finding_to_json(f: Finding) -> dict[str, JsonValue]:
    """What :func:`finding_from_json` reads back: :meth:`Finding.to_plain`, the link as written
    in its file and the message's template and arguments."""
    return {**f.to_plain(), "link_in_file": f.link_in_file,
            "message_template": f.message_template, "message_args": dict(f.message_args)}


#: The first and last lines of a cache file as
#: :meth:`~gzinertia.audit.cache.AuditCache.save` writes it; between them, one entry a line
#: (``"KEY":{...}``, compact JSON, a comma after each but the last): one JSON document, whose
#: entries' MACs are checked on their text, without encoding them again.
FILE_HEAD = '{"schema":' + str(SCHEMA) + ',"entries":{'
FILE_TAIL = "}}"
_DECODER = json.JSONDecoder()


def entries_by_line(
    raw: bytes,
) -> tuple[dict[str, dict[str, JsonValue]], dict[str, str]] | None:
    """The entries of a cache file in :meth:`~gzinertia.audit.cache.AuditCache.save`'s layout,
    and each one's text (``None``: another layout; ``ValueError`` when a line is not an entry,
    as for a file that is not JSON). Each entry is parsed from its own text, so the text whose
    MAC is checked is the text the entry was read from."""
    if not raw.startswith(FILE_HEAD.encode()):
        return None
    try:
        lines = raw.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None  # left to json.loads (and its own error)
    if len(lines) < 2 or lines[0] != FILE_HEAD or lines[-1] != FILE_TAIL:
        return None
    entries: dict[str, dict[str, JsonValue]] = {}
    texts: dict[str, str] = {}
    last = len(lines) - 2
    for i, line in enumerate(lines[1:-1], start=1):
        if i < last:
            if not line.endswith(","):
                raise ValueError(f"line {i + 1}: no comma after the entry")
            line = line[:-1]
        key, end = _DECODER.raw_decode(line) if line.startswith('"') else (None, 0)
        if not isinstance(key, str) or line[end : end + 1] != ":":
            raise ValueError(f"line {i + 1}: not an entry")
        text = line[end + 1 :]
        entry = json.loads(text)
        if not isinstance(entry, dict):
            raise ValueError(f"line {i + 1}: an entry is not an object")
        entries[key], texts[key] = entry, text
    return entries, texts

