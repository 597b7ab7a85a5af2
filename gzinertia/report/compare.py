"""``gzinertia compare``'s output: the comparison as plain data (:func:`comparison_summary`, the
``--json`` document, ``docs/compare.md``) and as text (:func:`render_text`, one table per link).

Every number is about the link origin Bo in link axes B (added mass the diagonal of
``A_BBo_B``, damping gz-sim's Fossen-negative Hydrodynamics terms, volume as gz-sim's Buoyancy
system computes it); ratios are ``file / other``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gzinertia.catalogue.compare import Comparison, CopyMatch, LinkComparison, Row
    from gzinertia.catalogue.vehicle import CatalogueEntry

__all__ = ["comparison_summary", "render_text"]


def _entry_summary(entry: CatalogueEntry) -> dict[str, Any]:
    terms = entry.gz_terms()
    return {
        "id": entry.id,
        "vehicle": entry.vehicle,
        "citation": entry.source.citation(),
        "where": entry.source.where,
        "verified": entry.source.verified,
        "convention": entry.published.convention,
        "link_frame": terms.link_frame,
        "notes": list(terms.notes),
    }


def _row_summary(row: Row) -> dict[str, Any]:
    return {
        "quantity": row.quantity,
        "unit": row.unit,
        "file": row.file,
        "estimates": dict(row.estimates),
        "entry": row.entry,
        "ratio_file_entry": row.ratio_to_entry,
        "ratio_file_estimates": {m: row.ratio_to(m) for m in row.estimates},
    }


def _copy_summary(match: CopyMatch) -> dict[str, Any]:
    return {
        "entry": match.entry,
        "citation": match.citation,
        "terms": list(match.terms),
        "sign_flipped": list(match.sign_flipped),
        "of": match.of,
        "complete": match.complete,
    }


def _link_summary(link: LinkComparison) -> dict[str, Any]:
    return {
        "name": link.link,
        "sources": list(link.sources),
        "estimates": dict(link.bases),
        "notes": list(link.notes),
        "copies": [_copy_summary(m) for m in link.copies],
        "rows": [_row_summary(r) for r in link.rows],
    }


def comparison_summary(comparison: Comparison) -> dict[str, Any]:
    """The ``--json`` document (``docs/compare.md``)."""
    return {
        "file": comparison.file,
        "density": comparison.density,
        "entry": None if comparison.entry is None else _entry_summary(comparison.entry),
        "links": [_link_summary(link) for link in comparison.links],
    }


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value + 0.0:.4g}"


def _table(link: dict[str, Any], with_entry: bool) -> list[str]:
    methods = list(link["estimates"])
    header = ["quantity", "unit", "file", *methods]
    if with_entry:
        header += ["entry", "file/entry"]
    body = []
    for row in link["rows"]:
        cells = [row["quantity"], row["unit"], _number(row["file"])]
        for m in methods:
            value, r = row["estimates"].get(m), row["ratio_file_estimates"].get(m)
            cells.append(_number(value) + ("" if not r else f" (x{1.0 / r:.3g})"))
        if with_entry:
            cells += [_number(row["entry"]), _number(row["ratio_file_entry"])]
        body.append(cells)
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
            for r in [header, *body]]


def render_text(summary: dict[str, Any]) -> str:
    """The comparison as text: the entry, then per link where its numbers are written, a
    table (estimates with ``(xN)``: estimate over file), what matches a catalogue entry, and
    what could not be estimated."""
    lines = [f"fluid density {summary['density']:g} kg/m^3 for the estimates; every number "
             "about the link origin in link axes"]
    entry = summary["entry"]
    if entry is not None:
        lines.append(f"entry {entry['id']}: {entry['citation']} [{entry['verified']}]; "
                     f"{entry['link_frame']}")
        lines += [f"  {note}" for note in entry["notes"]]
    for link in summary["links"]:
        lines.append("")
        written = "; ".join(link["sources"]) or "no added mass or damping in the file"
        lines.append(f"link {link['name']}: {written}")
        lines += _table(link, entry is not None)
        for method, basis in link["estimates"].items():
            lines.append(f"  {method}: {basis}")
        for match in link["copies"]:
            flipped = (f", {len(match['sign_flipped'])} with the sign flipped"
                       if match["sign_flipped"] else "")
            lines.append(f"  same numbers as catalogue entry {match['entry']} "
                         f"({len(match['terms'])} of its {match['of']} terms{flipped}): "
                         f"{match['citation']}")
        if not link["copies"] and link["sources"]:
            lines.append("  no catalogue entry has these numbers")
        lines += [f"  note: {note}" for note in link["notes"]]
    return "\n".join(lines)
