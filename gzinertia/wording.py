"""How messages word lists and numbers.

Lists in messages are bounded: a message names the first few items of a list a model can make
arbitrarily long (a link's 1,600 collisions, a file's 500,000 links) and says how many more
there are, so that every message stays one readable line. Numbers are written with a few
significant digits and never as ``-0`` (a ``-0.0`` read from ``<pose>-0 0 0 ...``, or made by a
rotation, is the same zero). Names a model or a pull request chooses are shown
:func:`visible`: no character in them can act on the terminal or CI log that shows them."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["SHOWN", "bounded", "number", "one_line", "vector", "visible", "visible_lines"]

#: How many items a message names before ``and N more``.
SHOWN = 3


def bounded(items: Iterable[object], shown: int = SHOWN, sep: str = ", ") -> str:
    """``a, b, c and 1597 more``: the first ``shown`` items (``str`` of each) joined by
    ``sep``, then how many were left out; all of them when there are no more than ``shown``
    (``""`` for none)."""
    first: list[str] = []
    more = 0
    for item in items:
        if len(first) < shown:
            first.append(str(item))
        else:
            more += 1
    text = sep.join(first)
    return f"{text} and {more} more" if more else text


def number(x: float, digits: int = 4) -> str:
    """``x`` with ``digits`` significant digits (``"0"`` for ``-0.0``)."""
    return f"{float(x) + 0.0:.{digits}g}"  # + 0.0 turns -0.0 into 0.0


def vector(values: Iterable[float], digits: int = 4) -> str:
    """``(a, b, c)``: each of ``values`` as :func:`number` writes it."""
    return "(" + ", ".join(number(float(v), digits) for v in values) + ")"


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: Unicode categories a terminal or a CI log acts on instead of showing: controls (C0, DEL, C1),
#: format characters (bidi overrides, zero-width), line/paragraph separators, surrogates.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def visible(text: str) -> str:
    r"""``text`` with every character a terminal or CI log would act on, rather than show, made
    visible: ``\n``, ``\r``, ``\t``, other controls and format characters as ``\xNN``
    or ``\uNNNN``, and the undecodable bytes of a file name (Python's surrogateescape,
    U+DC80–U+DCFF) as ``\xNN``, the byte. A file named ``"a\n::error file=x::y"`` stays on
    one line (GitHub Actions runs any log line that starts with ``::`` as a command)."""
    if text.isprintable():
        return text

    out = []
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(ch) in _HIDDEN_CATEGORIES:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def visible_lines(text: str) -> str:
    r"""``text`` with its own line breaks (``\n``) kept and everything else :func:`visible`:
    for messages in formats that show line breaks (GitHub annotations, SARIF)."""
    return "\n".join(visible(line) for line in text.split("\n"))


def one_line(text: str) -> str:
    """Line breaks (every one Python knows) as spaces, then what is left made :func:`visible`."""
    return visible(" ".join(text.splitlines()))
