"""Free bodies: the sets of links that move together, as the physics engine builds them.

gz-sim (through gz-physics) makes one articulated body of every set of links joined by joints;
links with no joint between them (a mooring float and its sinker, two parts dropped side by
side) are separate free bodies even in one model. A joint to ``world`` does not join bodies
(the world is not a body); it **anchors** the body it reaches: fixed (welded, it never moves)
or any other type (hinged or sliding on the world: its buoyancy is reacted by the joint).

:func:`free_bodies` gives each link the name of its body (the body's root link: one that is
no joint's child inside the body, the first in file order) and whether the body is anchored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gzinertia.vocabulary.scoped_names import enclosing_scopes

__all__ = ["WORLD", "free_bodies"]

WORLD = "world"


def _endpoint(
    name: str, links: set[str], first_link: dict[str, str],
    parent_of: Callable[[str], str | None],
) -> str | None:
    """The link a joint's ``<parent>``/``<child>`` names: the link itself, a nested model's
    first link (its default canonical link), or the link a frame is attached to; ``world``;
    ``None`` when it names nothing known."""
    seen: set[str] = set()
    current: str | None = name
    while current is not None and current not in seen:
        if current == WORLD or current in links:
            return current
        seen.add(current)
        if current in first_link:
            return first_link[current]
        current = parent_of(current)
    return None


def free_bodies(
    links: Sequence[str],
    joints: Sequence[tuple[str, str, str]],
    parent_of: Callable[[str], str | None] | None = None,
) -> dict[str, tuple[str, bool]]:
    """``{link: (body, anchored)}`` for the scoped link names ``links`` (file order) joined by
    ``joints`` ``(type, parent, child)`` (scoped names, ``world`` for the world; frames and
    nested models resolved through ``parent_of``, the frame a frame is relative to).

    ``body`` is the scoped name of the body's root link (see the module); ``anchored`` is True
    when any joint joins the body to the world. Linear in links and joints (union–find)."""
    ordered = list(links)
    known = set(ordered)
    up: dict[str, str] = {name: name for name in ordered}

    def find(x: str) -> str:
        while up[x] != x:
            up[x] = up[up[x]]
            x = up[x]
        return x

    first_link: dict[str, str] = {}  # each (nested) model's first link
    for name in ordered:
        for scope in enclosing_scopes(name):
            first_link.setdefault(scope, name)
    resolve = parent_of or (lambda _name: None)
    anchored_links: set[str] = set()
    children: set[str] = set()
    for _kind, parent, child in joints:
        p = _endpoint(parent, known, first_link, resolve)
        c = _endpoint(child, known, first_link, resolve)
        if p is None or c is None or p == c:
            continue
        if p == WORLD or c == WORLD:
            anchored_links.add(c if p == WORLD else p)
            continue
        children.add(c)
        rp, rc = find(p), find(c)
        if rp != rc:
            up[rc] = rp
    members: dict[str, list[str]] = {}
    for name in ordered:
        members.setdefault(find(name), []).append(name)
    out: dict[str, tuple[str, bool]] = {}
    for group in members.values():
        roots = [name for name in group if name not in children]
        root = (roots or group)[0]
        anchored = any(name in anchored_links for name in group)
        for name in group:
            out[name] = (root, anchored)
    return out
