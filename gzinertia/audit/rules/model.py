"""Rules about a model or file as a whole: GZI001 (unresolved includes), GZI002 (URI schemes
nothing resolves), GZI210 (overlapping fluid ellipsoids of links with added mass)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec, plot_hint
from gzinertia.audit.findings import Finding
from gzinertia.checks.added_mass import has_added_mass
from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.checks.overlap import candidate_pairs, fluid_ellipsoids, fluid_overlap_of
from gzinertia.records import SourceRef, UnresolvedInclude

if TYPE_CHECKING:
    from gzinertia.physics.ellipsoid import PosedEllipsoid
    from gzinertia.physics.overlap import Contact

__all__ = [
    "fluid_overlap",
    "include_not_resolved",
    "uri_scheme_unknown",
]

def _coverage(inc: UnresolvedInclude | None) -> str:
    """What was and was not checked of the Hydrodynamics plugins inside an unresolved include."""
    if inc is None or not inc.plugins:
        return ""
    parts = []
    for plugin in inc.plugins:
        parts.append(
            f"; its Hydrodynamics plugin for link {plugin.link_name!r} (line "
            f"{plugin.source.line}) was checked from its text (GZI208 added-mass sign, GZI209 "
            "typos in its terms); not checked, as the included link is unknown: whether the "
            "link exists (GZI211), whether it also has <fluid_added_mass> (GZI205), the added "
            "mass against the link's mass and shape (GZI207, and GZI208's effective mass)"
        )
    return "".join(parts)


def _unresolved_at(doc: DocumentContext, where: SourceRef) -> UnresolvedInclude | None:
    return next((i for i in doc.doc.unresolved_includes if i.source == where), None)


@document_rule("GZI001")
def include_not_resolved(doc: DocumentContext) -> Iterator[Finding]:
    """GZI001 include-not-resolved: an ``<include>`` that did not resolve (not audited)."""
    for note in doc.notes("unresolved-include"):
        uri = note.data.get("uri", "")
        fuel = ("://fuel." in uri or uri.startswith("https://")) and (
            note.data.get("not_downloaded") != "true"
        )
        message = f"{note.message}: the models it holds were not audited" + (
            " (gzinertia does not download from Fuel)" if fuel else ""
        )
        message += _coverage(_unresolved_at(doc, note.source))
        yield finding("GZI001", note.source, None, message, {})


@document_rule("GZI002")
def uri_scheme_unknown(doc: DocumentContext) -> Iterator[Finding]:
    """GZI002 uri-scheme-unknown: a URI scheme libsdformat does not know."""
    for note in doc.notes("unknown-uri-scheme"):
        inc = next(
            (i for i in doc.doc.unresolved_includes
             if i.source.file == note.source.file and i.uri and i.uri == note.data.get("uri")),
            None,
        ) if note.link is None else None
        yield finding("GZI002", note.source, note.link, note.message + _coverage(inc), {})


def _added_mass_where(ctx: LinkContext) -> SourceRef:
    inertial = ctx.link.inertial
    if ctx.added_mass is not None and inertial.added_mass_source is not None:
        return inertial.added_mass_source
    for plugin in ctx.link.hydrodynamics:
        return plugin.source
    return ctx.where


@document_rule("GZI210")
def fluid_overlap(doc: DocumentContext) -> Iterator[Finding]:
    """GZI210 fluid-ellipsoids-overlap: two links' fluid ellipsoids overlap."""
    groups: dict[str, list[tuple[LinkContext, PosedEllipsoid]]] = {}
    for ctx in doc.links:
        if ctx.link.static or not has_added_mass(ctx):
            continue
        groups.setdefault(ctx.top_model, []).extend((ctx, e) for e in fluid_ellipsoids(ctx))
    for members in groups.values():
        # one finding per pair of links: the most overlapping pair of their ellipsoids
        worst: dict[tuple[int, int], tuple[LinkContext, PosedEllipsoid, LinkContext,
                                           PosedEllipsoid, float, Contact]] = {}
        for a_ctx, a, b_ctx, b in candidate_pairs(members):
            overlap = fluid_overlap_of(a, b)
            key = (id(a_ctx), id(b_ctx))
            if overlap is not None and (key not in worst or overlap[0] > worst[key][4]):
                worst[key] = (a_ctx, a, b_ctx, b, *overlap)
        for a_ctx, a, b_ctx, b, measure, c in worst.values():
            message = (
                f"the fluid ellipsoid of this link (semi-axes {fmt_vec(a.semi_axes)} m) and "
                f"that of {b_ctx.name} ({fmt_vec(b.semi_axes)} m) overlap: both must shrink "
                f"by {fmt(100.0 * measure)} % to touch (Perram–Wertheim F = {fmt(c.F)}), so "
                "the fluid they share is counted in both links' added mass; consider one "
                "ellipsoid for the pair (added mass on the parent link only)"
                + plot_hint(a_ctx.link.source.file, a_ctx.name, f"{a_ctx.top_model}::*")
            )
            values = {
                "other_link": b_ctx.name,
                "overlap": measure,
                "F": c.F,
                "depth": c.depth,
                "semi_axes": a.semi_axes,
                "other_semi_axes": b.semi_axes,
                "p_WEo": a.X_FE.p,
                "other_p_WEo": b.X_FE.p,
            }
            yield finding("GZI210", _added_mass_where(a_ctx), a_ctx.name, message, values)
