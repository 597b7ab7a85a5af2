"""A catalogue of published vehicles' hydrodynamic parameters, each with its source, and their
conversion to gz-sim's form (``docs/catalogue.md``).

* :func:`entries`: every entry, by id; :func:`entry`: one by id
  (:class:`~gzinertia.catalogue.vehicle.CatalogueEntry`: ``source``, ``published``);
* ``entry(id).gz_terms()``: the published numbers about the link origin in link axes, as
  ``<fluid_added_mass>`` and Hydrodynamics terms (:class:`~gzinertia.catalogue.convert.GzTerms`);
* :func:`disagreements`: where the entries of one vehicle disagree, term by term;
* :func:`compare_links`: a file's links beside gzinertia's estimates and an entry
  (:func:`gzinertia.compare`'s work).

The data files are ``gzinertia/catalogue/data/<id>.toml`` (package data). Names are imported
on first use, so that importing the package (the command line's ``--help``) imports no NumPy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gzinertia.catalogue.compare import compare_links
    from gzinertia.catalogue.convert import GzTerms
    from gzinertia.catalogue.disagree import Disagreement, disagreements
    from gzinertia.catalogue.load import entries, entry
    from gzinertia.catalogue.vehicle import CatalogueEntry

__all__ = [
    "CatalogueEntry", "Disagreement", "GzTerms", "compare_links", "disagreements", "entries",
    "entry",
]

#: Public name → the submodule that defines it.
_LAZY = {
    "CatalogueEntry": "gzinertia.catalogue.vehicle",
    "Disagreement": "gzinertia.catalogue.disagree",
    "GzTerms": "gzinertia.catalogue.convert",
    "compare_links": "gzinertia.catalogue.compare",
    "disagreements": "gzinertia.catalogue.disagree",
    "entries": "gzinertia.catalogue.load",
    "entry": "gzinertia.catalogue.load",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
