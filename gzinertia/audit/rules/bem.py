"""Rules about added mass computed by ``addmass --bem`` or imported by ``addmass --from``:
GZI212 (stale provenance).

``addmass --bem`` writes, before ``<fluid_added_mass>``, a comment naming the shapes it meshed
(collisions, or visuals after ``--geometry visual``) and a digest of that geometry
(:mod:`gzinertia.physics.bem_provenance`); ``addmass --from`` writes the same for the geometry the
imported result is taken to describe, plus the digest of the result file. When the digest no
longer matches the link's geometry (a shape resized, moved, removed, its mesh file changed), the
matrix describes a hull the model no longer has. The result file itself is not read by the audit
(it reads only what the model names): its digest says which result it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gzinertia.audit.context import LinkContext
from gzinertia.audit.findings import Finding
from gzinertia.audit.rules.registry import finding, link_rule
from gzinertia.records import Collision
from gzinertia.shell import command_line, exact_link_pattern
from gzinertia.wording import bounded

if TYPE_CHECKING:
    from gzinertia.physics.bem_provenance import BemProvenance


def bem_provenance(ctx: LinkContext) -> BemProvenance | None:
    """The link's BEM provenance comment, if its ``<fluid_added_mass>`` has one (or, URDF, the
    ``<gazebo>`` block of its Hydrodynamics plugin that applies added mass: the URDF reader
    records that block's comment as the link's added-mass comment)."""
    inertial = ctx.link.inertial
    if not inertial.added_mass_comment or (
        inertial.A_BBo_B is None and not _plugin_added_mass(ctx)
    ):
        return None
    from gzinertia.physics.bem_provenance import parse_provenance  # only commented added mass

    return parse_provenance(inertial.added_mass_comment)


def _plugin_added_mass(ctx: LinkContext) -> bool:
    from gzinertia.gazebo.hydrodynamics import added_mass_active

    return any(added_mass_active(p) for p in ctx.link.hydrodynamics)


#: :func:`current_digest` when the shapes cannot be read back faithfully (a visual mesh whose
#: URI the audit's reading did not resolve, where the command's ``-m`` paths did): the rule
#: then stays silent rather than guess.
UNKNOWN = "unknown"


def _shapes_now(ctx: LinkContext, provenance: BemProvenance) -> list[Collision]:
    """The link's shapes of the kind the comment names: its collisions, or its visuals as the
    reader recorded them (:func:`gzinertia.sdf.visuals.link_visuals`, the reader ``addmass
    --geometry visual`` used, meshes resolved through the audit's model paths)."""
    if provenance.element == "collision":
        return list(ctx.link.collisions)
    from gzinertia.sdf.visuals import link_visuals

    return link_visuals(ctx.link)[0]


def current_digest(ctx: LinkContext, provenance: BemProvenance) -> str | None:
    """The digest of the shapes the comment names, as the model has them now (None when one
    of them is gone; :data:`UNKNOWN` when they cannot be read back)."""
    from gzinertia.physics.surface_mesh import geometry_digest

    shapes = _shapes_now(ctx, provenance)
    by_name = {c.name: c for c in shapes}
    if not provenance.collisions or any(n not in by_name for n in provenance.collisions):
        return None
    named = [by_name[n] for n in provenance.collisions]
    if provenance.element == "visual" and any(
        c.geometry.kind == "mesh" and c.geometry.mesh_path is None for c in named
    ):
        return UNKNOWN  # resolved by the command's -m paths, not by the audit's
    return geometry_digest(named)


def bem_is_current(ctx: LinkContext) -> bool:
    """True when the link's ``<fluid_added_mass>`` carries a BEM (or ``--from`` import)
    provenance whose digest matches its geometry: the matrix was computed (or imported and
    moved by the tool) about the link origin for the hull it has now."""
    provenance = bem_provenance(ctx)
    return provenance is not None and current_digest(ctx, provenance) == provenance.digest


def bem_of_visuals_is_current(ctx: LinkContext) -> bool:
    """:func:`bem_is_current` for a matrix computed from the link's visuals
    (``addmass --bem --geometry visual``): the collisions are then not the hull it describes,
    and rules that estimate the added mass from the collisions (GZI207) defer to it."""
    provenance = bem_provenance(ctx)
    return (
        provenance is not None
        and provenance.element == "visual"
        and current_digest(ctx, provenance) == provenance.digest
    )


@link_rule("GZI212")
def stale_bem_provenance(ctx: LinkContext) -> Iterator[Finding]:
    """GZI212 bem-added-mass-stale: ``addmass --bem`` output for geometry the link no longer has."""
    provenance = bem_provenance(ctx)
    if provenance is None:
        return
    digest = current_digest(ctx, provenance)
    if digest in (provenance.digest, UNKNOWN):
        return
    names = bounded(provenance.collisions)
    kind = f"{provenance.element}s"
    if digest is None:
        what = f"the {kind} it was computed from ({names}) are no longer all in the link"
    else:
        what = (
            f"the geometry of its {kind} ({names}) changed since it was computed "
            f"(digest {digest}, written {provenance.digest})"
        )
    file = ctx.link.source.file
    link = exact_link_pattern(ctx.name)
    geometry = (
        ("--geometry", f"visual:{','.join(provenance.collisions)}")
        if provenance.element == "visual"
        else ()
    )
    solve = command_line("addmass", file, "--bem", *geometry, "--link", link)
    inertial = ctx.link.inertial
    matrix, where = "<fluid_added_mass>", inertial.added_mass_source or inertial.source
    first = ""
    if inertial.A_BBo_B is None:  # URDF: the Hydrodynamics block addmass wrote
        plugin = next(p for p in reversed(ctx.link.hydrodynamics) if p.comment)
        matrix, where = "the Hydrodynamics plugin's added mass (<iDotJ>)", plugin.source
        first = "remove its <gazebo> block, then "
    if provenance.origin == "imported":
        again = command_line("addmass", file, "--from", "RESULT", *geometry, "--link", link)
        dataset = provenance.dataset_digest or "unknown"
        message = (
            f"{matrix} was imported (dataset {dataset}) for another hull: {what}. "
            f"Compute the result for the hull the link has and import it again ({first}"
            f"`{again}`), or compute it here: {first}`{solve}`"
        )
    else:
        message = (
            f"{matrix} comes from a BEM solve of another hull: {what}. Recompute it: "
            f"{first}`{solve}`"
        )
    where = where or ctx.where
    values = {
        "written_digest": provenance.digest,
        "current_digest": digest or "",
        "origin": provenance.origin,
        "dataset_digest": provenance.dataset_digest,
    }
    yield finding("GZI212", where, ctx.name, message, values)
