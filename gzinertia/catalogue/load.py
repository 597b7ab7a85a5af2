"""The catalogue's data files, read once: :func:`entries` and :func:`entry`.

The files are package data (``gzinertia/catalogue/data/<id>.toml``, declared in
``pyproject.toml``), read with :mod:`importlib.resources` so that an installed wheel finds
them; each file's ``id`` is its name.
"""

from __future__ import annotations

import functools
from importlib import resources

from gzinertia.catalogue.published import CatalogueDataError
from gzinertia.catalogue.vehicle import CatalogueEntry, entry_from_table
from gzinertia.errors import SettingError
from gzinertia.io.toml_text import loads as toml_loads

__all__ = ["entries", "entry"]


@functools.cache
def entries() -> tuple[CatalogueEntry, ...]:
    """Every catalogue entry, sorted by id. Raises
    :class:`~gzinertia.catalogue.published.CatalogueDataError` for a defective data file (a
    packaging error, never the user's)."""
    found = []
    for item in resources.files("gzinertia.catalogue").joinpath("data").iterdir():
        if not item.name.endswith(".toml"):
            continue
        table = toml_loads(item.read_text(encoding="utf-8"))
        found.append(entry_from_table(table, item.name))
        if found[-1].id != item.name.removesuffix(".toml"):
            raise CatalogueDataError(f"{item.name}: id {found[-1].id!r} is not the file's name")
    return tuple(sorted(found, key=lambda e: e.id))


def entry(entry_id: str) -> CatalogueEntry:
    """The catalogue entry ``entry_id`` (``"remus100"``, ``"rexrov"``...). Raises
    :class:`~gzinertia.errors.SettingError` (setting ``with_entry``) naming the known ids."""
    for found in entries():
        if found.id == entry_id:
            return found
    known = ", ".join(e.id for e in entries())
    raise SettingError("with_entry", "no catalogue entry {name!r} (known: {known})",
                       name=entry_id, known=known)
