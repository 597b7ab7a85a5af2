"""Scoped names as SDFormat writes them: ``outer::inner::link`` (a link of a nested or included
model, scoped from the top model down; URDF links are ``robot::link``).

Names are split and joined here only, on ``::`` (a name's own parts never hold it once split;
a URDF link's name may, and :func:`within_top` keeps it whole).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "SCOPE_SEPARATOR",
    "enclosing_scopes",
    "join_scoped",
    "leaf_name",
    "split_scoped",
    "top_scope",
    "within_top",
]

#: What separates scopes in a name.
SCOPE_SEPARATOR: Final = "::"


def split_scoped(name: str) -> tuple[str, ...]:
    """``"a::b::link"`` as ``("a", "b", "link")``, top scope first (``("link",)`` unscoped)."""
    return tuple(name.split(SCOPE_SEPARATOR))


def join_scoped(*parts: str) -> str:
    """``("a", "b", "link")`` as ``"a::b::link"``: the inverse of :func:`split_scoped`."""
    return SCOPE_SEPARATOR.join(parts)


def enclosing_scopes(name: str) -> tuple[str, ...]:
    """The scoped names of the models around ``name``, outermost first:
    ``"a::b::link"`` → ``("a", "a::b")`` (empty when unscoped)."""
    parts = split_scoped(name)
    return tuple(join_scoped(*parts[:k]) for k in range(1, len(parts)))


def leaf_name(name: str) -> str:
    """The last part: ``"a::b::link"`` → ``"link"`` (the name as its own element spells it)."""
    return name.rsplit(SCOPE_SEPARATOR, 1)[-1]


def top_scope(name: str) -> str:
    """The first part: ``"a::b::link"`` → ``"a"`` (the top model; the name when unscoped)."""
    return name.split(SCOPE_SEPARATOR, 1)[0]


def within_top(name: str) -> str:
    """All but the first part: ``"robot::link"`` → ``"link"``, ``"a::b::link"`` → ``"b::link"``
    (the name when unscoped)."""
    return name.split(SCOPE_SEPARATOR, 1)[-1]
