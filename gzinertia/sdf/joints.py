"""The joints an SDFormat file declares, as the reader meets them: every joint's type, parent
and child (scoped names, ``world`` kept), the fixed ones apart, and what follows from them
(links welded to the world, each link's free body)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lxml import etree

from gzinertia.physics.bodies import free_bodies
from gzinertia.sdf.frames import Scope
from gzinertia.sdf.values import text_of

__all__ = ["Joints"]


class Joints:
    """The joints read so far: ``fixed`` as ``(parent, child)`` and ``every`` as ``(type,
    parent, child)``, scoped names (``world`` kept), in file order."""

    def __init__(self) -> None:
        self.fixed: list[tuple[str, str]] = []
        self.every: list[tuple[str, str, str]] = []

    def note(
        self,
        elem: etree._Element,
        scope: Scope,
        parts: dict[str, etree._Element],
        *,
        fixed_only: bool = False,
    ) -> None:
        """Remembers the joint ``elem`` of ``scope`` (``parts``: its
        :func:`~gzinertia.sdf.xml.first_children`) in :attr:`every` (not with ``fixed_only``:
        a world's own joints), a fixed one in :attr:`fixed` too. A joint without a parent or
        child name is left out."""
        parent_elem, child_elem = parts.get("parent"), parts.get("child")
        if parent_elem is None or child_elem is None:
            return
        parent, kid = text_of(parent_elem), text_of(child_elem)
        if not parent or not kid:
            return
        kind = (elem.get("type") or "").strip()
        scoped = (parent if parent == "world" else scope.absolute(parent), scope.absolute(kid))
        if kind == "fixed":
            self.fixed.append(scoped)
        if not fixed_only:
            self.every.append((kind, *scoped))

    def welded_to_world(self) -> set[str]:
        """Links joined to the world by a chain of fixed joints (as Drake's
        ``GetBodiesWeldedTo(world)``): the world's component of the graph of fixed joints,
        found in one walk (linear in the joints, whatever order they are written in)."""
        joined: dict[str, list[str]] = {}
        for parent, kid in self.fixed:
            joined.setdefault(parent, []).append(kid)
            joined.setdefault(kid, []).append(parent)
        welded = {"world"}
        todo = ["world"]
        while todo:
            for other in joined.get(todo.pop(), ()):
                if other not in welded:
                    welded.add(other)
                    todo.append(other)
        return welded

    def free_bodies(
        self, names: Sequence[str], parent_of: Callable[[str], str | None]
    ) -> dict[str, tuple[str, bool]]:
        """Each link's free body (:func:`gzinertia.physics.bodies.free_bodies`), ``parent_of``
        the frame graph's."""
        return free_bodies(names, self.every, parent_of)
