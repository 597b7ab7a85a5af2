"""JSON text as every gzinertia JSON output writes it: non-finite numbers as ``null``
(:func:`json_safe`, docs/json.md) and indented documents written fast (:func:`dumps_indented`)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from json.encoder import encode_basestring_ascii as _quote  # the C encoder's
from typing import Any

from gzinertia.audit.findings import JsonValue

__all__ = ["dumps_indented", "json_safe"]


def json_safe(value: JsonValue) -> JsonValue:
    """``value`` with non-finite floats (NaN, ±∞) replaced by ``None`` (JSON ``null``), the one
    convention of every gzinertia JSON output (docs/json.md); strings are left alone."""
    if value is None or isinstance(value, (str, int)):  # bool is an int
        return value
    if isinstance(value, float):  # NumPy's float64 too
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


class _NotPlainError(Exception):
    """A value :func:`dumps_indented` leaves to :func:`json.dumps`."""


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, allow_nan=False)``, byte for byte, in about half the time:
    the standard library encodes an indented document in Python, a generator per list and
    dict; this writes dicts with string keys, lists, tuples, strings, ints, finite floats,
    booleans and ``None`` (exactly those types) directly, with the standard library's own
    string quoting and number formatting. Anything else (a subclass, a non-string key, a
    non-finite float: an error) goes to :func:`json.dumps` whole."""
    out: list[str] = []
    try:
        _dump(value, "\n", out)
    except (_NotPlainError, RecursionError):
        return json.dumps(value, indent=2, allow_nan=False)
    return "".join(out)


def _dump(value: Any, newline: str, out: list[str]) -> None:
    """Appends ``value`` to ``out`` as :func:`dumps_indented` writes it, nested where the
    line breaks of its container are ``newline`` (a newline and the container's indent)."""
    kind = type(value)
    if kind is str:
        out.append(_quote(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        if not math.isfinite(value):
            raise _NotPlainError
        out.append(float.__repr__(value))
    elif kind is list or kind is tuple or kind is dict:
        _dump_container(value, kind is dict, newline, out)
    else:
        raise _NotPlainError


def _dump_container(value: Any, keyed: bool, newline: str, out: list[str]) -> None:
    """A list or tuple (``keyed`` False) or a dict with string keys (``keyed``) as
    :func:`_dump` writes it: one item (``"key": item``) a line, indented two more spaces."""
    opening, closing = ("{", "}") if keyed else ("[", "]")
    if not value:
        out.append(opening + closing)
        return
    inner = newline + "  "
    out.append(opening)
    separator = inner
    for entry in value.items() if keyed else value:
        out.append(separator)
        if keyed:
            key, item = entry
            if type(key) is not str:
                raise _NotPlainError
            out.append(_quote(key))
            out.append(": ")
        else:
            item = entry
        _dump(item, inner, out)
        separator = "," + inner
    out.append(newline + closing)
