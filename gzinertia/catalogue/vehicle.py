"""A catalogue entry as its data file holds it: the source, and the numbers as published.

Each file ``gzinertia/catalogue/data/<id>.toml`` describes one published parameter set of one
vehicle: where it comes from (:class:`Source`, with the public repository files and commits
that carry the numbers, :class:`SourceFile`) and the numbers exactly as published
(:class:`~gzinertia.catalogue.published.Published`). The conversion to gz-sim's form is
:mod:`gzinertia.catalogue.convert`'s (:meth:`CatalogueEntry.gz_terms`), never the file's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gzinertia.catalogue.convert import GzTerms, gz_terms
from gzinertia.catalogue.published import CatalogueDataError, Published, published_from_table
from gzinertia.record_base import Record, ValueRecord

__all__ = ["CatalogueEntry", "Source", "SourceFile", "entry_from_table"]


@dataclass(frozen=True, repr=False, eq=False)
class SourceFile(ValueRecord):
    """A public repository file that carries published numbers: ``repo`` (``owner/name``),
    ``path`` in it, the ``commit`` read, ``reader`` (how the tests read it: ``matlab``, ``xml``,
    ``python-call``) and ``names``: a published key (``terms.xUabsU``, ``mass``,
    ``inertia.ixx``, ``matrices.added_mass``) → its name in the file."""

    repo: str
    path: str
    commit: str
    reader: str
    names: dict[str, str]


@dataclass(frozen=True, repr=False, eq=False)
class Source(ValueRecord):
    """Where an entry's numbers come from. ``verified``: ``"repository"`` (the numbers are the
    repository's own, read at the commit), ``"repository copy"`` (a repository's copy of a
    publication not read here), ``"unverified"``; ``note`` says what is known of the copy."""

    authors: str
    year: int
    title: str
    where: str
    verified: str
    note: str
    files: tuple[SourceFile, ...]

    def citation(self) -> str:
        """``Authors (year), title``: one line."""
        return f"{self.authors} ({self.year}), {self.title}"


@dataclass(frozen=True, repr=False, eq=False)
class CatalogueEntry(Record):
    """One published parameter set of one vehicle. ``family`` groups the entries of one vehicle
    (whose disagreements :func:`gzinertia.catalogue.disagreements` shows)."""

    id: str
    vehicle: str
    family: str
    kind: str
    source: Source
    published: Published

    def gz_terms(self) -> GzTerms:
        """The published numbers in gz-sim's form, about the link origin in link axes
        (:func:`gzinertia.catalogue.convert.gz_terms`)."""
        return gz_terms(self.id, self.published)


def entry_from_table(table: dict[str, Any], where: str) -> CatalogueEntry:
    """The entry a data file's TOML table describes (``where``: the file's name, for errors).
    Raises :class:`CatalogueDataError` naming the key that is missing or wrong."""
    try:
        source = table["source"]
        files = tuple(
            SourceFile(str(f["repo"]), str(f["path"]), str(f["commit"]), str(f["reader"]),
                       {str(k): str(v) for k, v in f.get("names", {}).items()})
            for f in source.get("files", ())
        )
        return CatalogueEntry(
            id=str(table["id"]), vehicle=str(table["vehicle"]), family=str(table["family"]),
            kind=str(table["kind"]),
            source=Source(str(source["authors"]), int(source["year"]), str(source["title"]),
                          str(source["where"]), str(source["verified"]), str(source["note"]),
                          files),
            published=published_from_table(table["published"], f"{where}: published"),
        )
    except KeyError as exc:
        raise CatalogueDataError(f"{where}: missing key {exc}") from None
