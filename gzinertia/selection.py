"""Selecting links by glob: ``--link 'auv::fin_*'`` or, unscoped, ``--link hull``."""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

from gzinertia.errors import GzInertiaError
from gzinertia.records import LinkRecord
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import bounded

__all__ = ["link_matches", "select_links"]


def link_matches(name: str, pattern: str) -> bool:
    """True when ``pattern`` matches the scoped name or, if unscoped, its last component."""
    if fnmatchcase(name, pattern):
        return True
    return "::" not in pattern and fnmatchcase(leaf_name(name), pattern)


def select_links(links: Iterable[LinkRecord], pattern: str | None, file: str) -> list[LinkRecord]:
    """The links ``pattern`` selects (all for ``None``); none matching is an error naming them."""
    all_links = list(links)
    if pattern is None:
        return all_links
    chosen = [link for link in all_links if link_matches(link.name, pattern)]
    if not chosen:
        known = bounded(link.name for link in all_links) or "none"
        raise GzInertiaError(f"{file}: no link matches {pattern!r} (links: {known})")
    return chosen
