"""Lists in messages, bounded: a message names the first few items of a list a model can make
arbitrarily long (a link's 1,600 collisions, a file's 500,000 links) and says how many more
there are, so that every message stays one readable line."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["SHOWN", "bounded"]

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
