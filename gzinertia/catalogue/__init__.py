"""A catalogue of published vehicles' hydrodynamic parameters, each with its source, and their
conversion to gz-sim's form (``docs/catalogue.md``).

* :func:`entries`: every entry, by id; :func:`entry`: one by id
  (:class:`~gzinertia.catalogue.entry.CatalogueEntry`: ``source``, ``published``);
* ``entry(id).gz_terms()``: the published numbers about the link origin in link axes, as
  ``<fluid_added_mass>`` and Hydrodynamics terms (:class:`~gzinertia.catalogue.convert.GzTerms`);
* :func:`disagreements`: where the entries of one vehicle disagree, term by term.

The data files are ``gzinertia/catalogue/data/<id>.toml`` (package data).
"""

from __future__ import annotations

from gzinertia.catalogue.convert import GzTerms
from gzinertia.catalogue.disagree import Disagreement, disagreements
from gzinertia.catalogue.entry import CatalogueEntry
from gzinertia.catalogue.load import entries, entry

__all__ = ["CatalogueEntry", "Disagreement", "GzTerms", "disagreements", "entries", "entry"]
