"""Where the catalogue's entries for one vehicle disagree: each term they share, compared in
gz-sim's form (about the link origin in link axes, Fossen-negative: :mod:`convert`), with how
many times apart the values are.

Entries of one ``family`` describe one vehicle (or its variants, such as the BlueROV2 and the
BlueROV2 Heavy); their reference points may differ, which the added mass's diagonal shows
only through the centre offsets, so the comparison is of the diagonal terms: the added
mass's ``<iDotJ>`` (``-A_ii``) and the damping terms.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from gzinertia.catalogue.convert import GzTerms
from gzinertia.catalogue.vehicle import CatalogueEntry
from gzinertia.hydrodynamics_terms import added_mass_term
from gzinertia.record_base import ValueRecord

__all__ = ["Disagreement", "disagreements", "factor_apart", "term_values"]


@dataclass(frozen=True, repr=False, eq=False)
class Disagreement(ValueRecord):
    """One term of one vehicle family across its entries: ``values`` (entry id → value in
    gz-sim's form, in the entries' order) and ``factor``, the largest over the smallest
    magnitude (``inf`` when one is 0 and another not, or the signs differ; 1 when equal)."""

    family: str
    term: str
    values: dict[str, float]
    factor: float


def factor_apart(values: Iterable[float]) -> float:
    """How many times apart values are: ``max|v| / min|v|``; ``inf`` when signs differ or one
    is 0 and another not; 1 for equal values (or all 0)."""
    vs = list(values)
    if all(v == vs[0] for v in vs):
        return 1.0
    if min(vs) < 0.0 < max(vs) or any(v == 0.0 for v in vs):
        return math.inf
    magnitudes = [abs(v) for v in vs]
    return max(magnitudes) / min(magnitudes)


def term_values(terms: GzTerms) -> dict[str, float]:
    """The diagonal added-mass terms (``<iDotI>`` = ``-A_ii``) and every damping term of an
    entry in gz-sim's form, by name."""
    found: dict[str, float] = {}
    if terms.A_BBo_B is not None:
        A = terms.A_BBo_B.linear_first()
        found.update({added_mass_term(i, i): -float(A[i, i]) + 0.0 for i in range(6)})
    found.update(terms.damping)
    return found


def disagreements(entries: Iterable[CatalogueEntry], family: str | None = None,
                  ) -> list[Disagreement]:
    """Every term two or more entries of a family (``family``, or each) publish, with the
    factor between them, by family then term (added mass, then damping, as gz-sim names
    them)."""
    by_family: dict[str, list[CatalogueEntry]] = {}
    for e in entries:
        if family is None or e.family == family:
            by_family.setdefault(e.family, []).append(e)
    found = []
    for name, members in sorted(by_family.items()):
        values = {e.id: term_values(e.gz_terms()) for e in members}
        terms = sorted({t for v in values.values() for t in v},
                       key=lambda t: ("Dot" not in t, "abs" in t, t))
        for term in terms:
            shared = {e: v[term] for e, v in values.items() if term in v}
            if len(shared) > 1:
                found.append(Disagreement(name, term, shared, factor_apart(shared.values())))
    return found
