"""minidom's child lists searched from near their last hit, while xacro expands a file.

xacro walks an element's children in order and replaces each macro call, property and
``xacro:if`` by what it makes, through minidom's ``insertBefore`` and ``removeChild``; both
find the call among its siblings with ``list.index``, which compares them one by one from the
first: expanding k sibling macro calls compared k² nodes. While :func:`near_child_search` is
active, the nodes minidom makes (every one xacro parses or clones) keep their children in a
list whose ``index`` (and ``remove``) looks first from a little before where it last found a
child, then from the start. A node is in one list at most once and compares equal only to
itself, so the same position is found: the expansion is the same, node for node.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any
from xml.dom import minidom
from xml.dom.minicompat import NodeList

__all__ = ["near_child_search"]

#: How far before the child it last found a list looks first.
_BEHIND = 8


@functools.cache
def _child_list_class() -> type[list[Any]]:
    class ChildList(NodeList[Any]):
        # No __init__ of its own: minidom makes one list per node (a third of a million for
        # a DAVE-sized tree); ``_near`` is set by the first search.
        __slots__ = ("_near",)

        def index(self, node: Any, *bounds: Any) -> int:
            if bounds:
                return list.index(self, node, *bounds)
            start = max(0, min(getattr(self, "_near", 0), len(self)) - _BEHIND)
            try:
                found = list.index(self, node, start)
            except ValueError:
                found = list.index(self, node, 0, start)  # not there either: ValueError
            self._near = found
            return found

        def remove(self, node: Any) -> None:
            del self[self.index(node)]

    return ChildList


@contextlib.contextmanager
def near_child_search() -> Iterator[None]:
    """The nodes minidom makes meanwhile search their children from near the last hit (the
    caller serialises expansions: minidom's ``NodeList`` is a module global)."""
    names = vars(minidom)  # NodeList is minidom's global (the nodes it makes look it up)
    saved = names["NodeList"]
    names["NodeList"] = _child_list_class()
    try:
        yield
    finally:
        names["NodeList"] = saved
