"""``gzinertia catalogue``'s output: the entries with their sources, one entry in full (as
published and in gz-sim's form), and the disagreements between the entries of one vehicle, as
Markdown tables (``docs/catalogue.md`` holds them as the command prints them)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gzinertia.catalogue.disagree import Disagreement
    from gzinertia.catalogue.vehicle import CatalogueEntry

__all__ = ["disagreements_table", "entries_table", "entry_text"]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |"
                    for row in rows]


def entries_table(entries: Sequence[CatalogueEntry]) -> str:
    """One row per entry: id, vehicle, source, how it was checked, convention, point."""
    rows = [
        [e.id, e.vehicle, e.source.citation(), e.source.verified, e.published.convention,
         e.published.point]
        for e in entries
    ]
    header = ["id", "vehicle", "source", "checked against", "convention", "reference point"]
    return "\n".join(_table(header, rows))


def _value(v: float) -> str:
    return f"{v + 0.0:.6g}"


def disagreements_table(disagreements: Sequence[Disagreement]) -> str:
    """One row per term the entries of a family share (gz-sim's form: added mass as
    ``<iDotI>`` = ``-A_ii``, damping Fossen-negative), with how many times apart they are."""
    rows = [
        [d.family, d.term, ", ".join(f"{k} {_value(v)}" for k, v in d.values.items()),
         "inf (sign or zero)" if math.isinf(d.factor) else f"{d.factor:.3g}"]
        for d in disagreements
    ]
    return "\n".join(_table(["vehicle", "term", "values (entry value)", "times apart"], rows))


def entry_text(entry: CatalogueEntry) -> str:
    """One entry: its source, the numbers as published with their convention, and the same in
    gz-sim's form (about the link origin in link axes)."""
    source, published, terms = entry.source, entry.published, entry.gz_terms()
    lines = [f"{entry.id}: {entry.vehicle} ({entry.kind})",
             f"source: {source.citation()}", f"  {source.where}",
             f"  checked against: {source.verified}; {source.note}"]
    lines += [f"  file: {f.repo} {f.path} @ {f.commit}" for f in source.files]
    lines += [f"published: {published.convention}, {published.sign} sign; axes: "
              f"{published.axes}; point: {published.point}; units: {published.units}"]
    lines += [f"  {name} = {_value(v)}" for name, v in published.terms.items()]
    lines += [f"  {name} = {list(v)}" for name, v in published.matrices.items()]
    lines += [f"  <fluid_added_mass><{tag}> = {_value(v)}"
              for tag, v in published.fluid_added_mass.items()]
    lines += [f"  {name} = {_value(v)} (not converted)" for name, v in published.other.items()]
    lines.append(f"gz-sim's form: {terms.link_frame}")
    if terms.A_BBo_B is not None:
        A = terms.A_BBo_B.linear_first()
        lines.append("  <fluid_added_mass> diagonal (xx yy zz pp qq rr): "
                     + " ".join(_value(float(A[i, i])) for i in range(6)))
    lines += [f"  <{name}> {_value(v)}" for name, v in terms.damping.items()]
    lines += [f"  note: {note}" for note in terms.notes]
    return "\n".join(lines)
