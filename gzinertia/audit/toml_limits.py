"""How deep a TOML text nests, measured before :mod:`tomllib` parses it.

:mod:`tomllib` recurses once per level of an array or inline table (100,000 ``[`` end in a
``RecursionError``), and its time and memory grow with the square of a dotted key's parts
(``a.a.a...`` with 40,000 parts took 27 s; 100,000 parts ran out of memory). Settings files
come from the checkout, so a pull request chooses them: :func:`check_toml_shape` measures
both in one pass over the text, without parsing it, and the reader refuses a file past
:data:`MAX_TOML_DEPTH` or :data:`MAX_KEY_PARTS` before :mod:`tomllib` sees it.

The pass reads the text as TOML's lexical rules do (basic, literal and multi-line strings,
comments), so brackets and dots inside a string or a comment count for nothing. It stops at
the first string that does not end: :mod:`tomllib` stops there too, with an error.
"""

from __future__ import annotations

import re

__all__ = ["MAX_KEY_PARTS", "MAX_TOML_DEPTH", "TomlShapeError", "check_toml_shape"]

#: Most arrays and inline tables open inside one another (real settings use 2 or 3).
MAX_TOML_DEPTH = 32
#: Most parts of one dotted key or table header (``[tool.poetry.group.dev.dependencies]``: 5).
MAX_KEY_PARTS = 32

#: The next character that matters outside strings and comments.
_SPECIAL = re.compile(r"[#\"'\[\]{}.=,\n]")
#: Inside a basic string: what ends it, or escapes the next character.
_BASIC_STOP = re.compile(r'["\\\n]')
_MULTILINE_BASIC_STOP = re.compile(r'["\\]')


class TomlShapeError(ValueError):
    """A TOML text nested deeper than the limits: what went over, on ``line`` (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(message)


def check_toml_shape(text: str) -> None:
    """Raises :class:`TomlShapeError` when arrays and inline tables in ``text`` nest deeper
    than :data:`MAX_TOML_DEPTH`, or a dotted key or table header has more than
    :data:`MAX_KEY_PARTS` parts. Linear in the length of ``text``."""
    depth = 0
    dots = 0  # dots since the last character that ends a key (= , [ ] { } newline)
    pos = 0
    search = _SPECIAL.search
    while True:
        found = search(text, pos)
        if found is None:
            return
        char = found.group()
        pos = found.end()
        if char == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                raise TomlShapeError(
                    _line(text, pos), f"a dotted key of more than {MAX_KEY_PARTS} parts"
                )
            continue
        if char in "\"'":
            pos = _string_end(text, pos - 1)
            if pos < 0:
                return  # a string that does not end: tomllib stops here with an error
            continue  # a quoted key part: the dots around it still count
        dots = 0
        if char == "#":
            pos = text.find("\n", pos)
            if pos < 0:
                return
        elif char in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                raise TomlShapeError(
                    _line(text, pos),
                    f"arrays or inline tables nested more than {MAX_TOML_DEPTH} deep",
                )
        elif char in "]}":
            depth = max(depth - 1, 0)


def _string_end(text: str, start: int) -> int:
    """Just after the end of the string that opens at ``start``, or -1 when it does not end."""
    quote = text[start]
    if text.startswith(quote * 3, start):
        return _multiline_end(text, start + 3, quote)
    if quote == "'":
        end = text.find("'", start + 1)
        return -1 if end < 0 or "\n" in text[start + 1 : end] else end + 1
    pos = start + 1
    while True:
        found = _BASIC_STOP.search(text, pos)
        if found is None or found.group() == "\n":
            return -1
        if found.group() == '"':
            return found.end()
        pos = found.end() + 1  # a backslash escapes the next character


def _multiline_end(text: str, pos: int, quote: str) -> int:
    """Just after the end of the multi-line string whose text starts at ``pos``: its closing
    three quotes, after at most two quotes of its own (TOML 1.0), or -1."""
    while True:
        if quote == "'":
            run = text.find("'''", pos)
        else:
            found = _MULTILINE_BASIC_STOP.search(text, pos)
            if found is not None and found.group() == "\\":
                pos = found.end() + 1
                continue
            run = -1 if found is None else found.start()
        if run < 0:
            return -1
        if text.startswith(quote * 3, run):
            end = run + 3
            while end < run + 5 and text.startswith(quote, end):
                end += 1
            return end
        pos = run + 1


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1
