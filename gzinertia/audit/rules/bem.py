"""Rules about added mass computed by ``addmass --bem``: GZI212 (stale BEM provenance).

``addmass --bem`` writes, before ``<fluid_added_mass>``, a comment naming the collisions it meshed
and a digest of that geometry (:mod:`gzinertia.physics.bem_provenance`). When the digest no longer
matches the link's geometry (a shape resized, moved, removed, its mesh file changed), the matrix
describes a hull the model no longer has.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gzinertia.audit.context import LinkContext
from gzinertia.audit.findings import Finding
from gzinertia.audit.rules.registry import finding, link_rule
from gzinertia.shell import command_line, exact_link_pattern

if TYPE_CHECKING:
    from gzinertia.physics.bem_provenance import BemProvenance


def bem_provenance(ctx: LinkContext) -> BemProvenance | None:
    """The link's BEM provenance comment, if its ``<fluid_added_mass>`` has one."""
    inertial = ctx.link.inertial
    if inertial.A_BBo_B is None:
        return None
    from gzinertia.physics.bem_provenance import parse_provenance  # only links with added mass

    return parse_provenance(inertial.added_mass_comment)


def current_digest(ctx: LinkContext, provenance: BemProvenance) -> str | None:
    """The digest of the collisions the comment names, as the model has them now (None when one
    of them is gone)."""
    from gzinertia.physics.surface_mesh import geometry_digest

    by_name = {c.name: c for c in ctx.link.collisions}
    if not provenance.collisions or any(n not in by_name for n in provenance.collisions):
        return None
    return geometry_digest([by_name[n] for n in provenance.collisions])


def bem_is_current(ctx: LinkContext) -> bool:
    """True when the link's ``<fluid_added_mass>`` carries a BEM provenance whose digest matches
    its geometry: the matrix was computed about the link origin from the hull it has now."""
    provenance = bem_provenance(ctx)
    return provenance is not None and current_digest(ctx, provenance) == provenance.digest


@link_rule("GZI212")
def stale_bem_provenance(ctx: LinkContext) -> Iterator[Finding]:
    provenance = bem_provenance(ctx)
    if provenance is None:
        return
    digest = current_digest(ctx, provenance)
    if digest == provenance.digest:
        return
    names = ", ".join(provenance.collisions)
    if digest is None:
        what = f"the collisions it was computed from ({names}) are no longer all in the link"
    else:
        what = (
            f"the geometry of its collisions ({names}) changed since it was computed "
            f"(digest {digest}, written {provenance.digest})"
        )
    file = ctx.link.source.file
    link = exact_link_pattern(ctx.name)
    message = (
        f"<fluid_added_mass> comes from a BEM solve of another hull: {what}. Recompute it: "
        f"`{command_line('addmass', file, '--bem', '--link', link)}`"
    )
    inertial = ctx.link.inertial
    where = inertial.added_mass_source or inertial.source or ctx.where
    values = {"written_digest": provenance.digest, "current_digest": digest or ""}
    yield finding("GZI212", where, ctx.name, message, values)
