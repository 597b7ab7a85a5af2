"""How messages word lists and numbers.

Lists in messages are bounded: a message names the first few items of a list a model can make
arbitrarily long (a link's 1,600 collisions, a file's 500,000 links) and says how many more
there are, so that every message stays one readable line. Numbers are written with a few
significant digits and never as ``-0`` (a ``-0.0`` read from ``<pose>-0 0 0 ...``, or made by a
rotation, is the same zero)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["SHOWN", "bounded", "number", "vector"]

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
