"""Whether added mass computed by ``addmass --bem`` or imported by ``addmass --from`` still
describes the link's hull (GZI212 reports it when not; GZI204, GZI207 and GZI304 defer to it).

``addmass --bem`` writes, before ``<fluid_added_mass>``, a comment naming the shapes it meshed
(collisions, or visuals after ``--geometry visual``) and a digest of that geometry
(:mod:`gzinertia.physics.bem_provenance`); ``addmass --from`` writes the same for the geometry the
imported result is taken to describe, plus the digest of the result file. When the digest no
longer matches the link's geometry (a shape resized, moved, removed, its mesh file changed), the
matrix describes a hull the model no longer has. The result file itself is not read by the audit
(it reads only what the model names): its digest says which result it was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import gzinertia.physics
from gzinertia.checks.context import LinkContext
from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.records import Collision
from gzinertia.sdf.visuals import link_visuals

if TYPE_CHECKING:
    import gzinertia.physics.bem_provenance
    import gzinertia.physics.surface_mesh
    from gzinertia.physics.bem_provenance import BemProvenance

__all__ = [
    "UNKNOWN",
    "bem_is_current",
    "bem_of_visuals_is_current",
    "bem_provenance",
    "current_digest",
]


def bem_provenance(ctx: LinkContext) -> BemProvenance | None:
    """The link's BEM provenance comment, if its ``<fluid_added_mass>`` has one (or, URDF, the
    ``<gazebo>`` block of its Hydrodynamics plugin that applies added mass: the URDF reader
    records that block's comment as the link's added-mass comment)."""
    inertial = ctx.link.inertial
    if not inertial.added_mass_comment or (
        inertial.A_BBo_B is None and not _plugin_added_mass(ctx)
    ):
        return None
    # the parser is loaded here: only for commented added mass
    return gzinertia.physics.bem_provenance.parse_provenance(inertial.added_mass_comment)


def _plugin_added_mass(ctx: LinkContext) -> bool:
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

    return link_visuals(ctx.link)[0]


def current_digest(ctx: LinkContext, provenance: BemProvenance) -> str | None:
    """The digest of the shapes the comment names, as the model has them now (None when one
    of them is gone; :data:`UNKNOWN` when they cannot be read back)."""
    shapes = _shapes_now(ctx, provenance)
    by_name = {c.name: c for c in shapes}
    if not provenance.collisions or any(n not in by_name for n in provenance.collisions):
        return None
    named = [by_name[n] for n in provenance.collisions]
    if provenance.element == "visual" and any(
        c.geometry.kind == "mesh" and c.geometry.mesh_path is None for c in named
    ):
        return UNKNOWN  # resolved by the command's -m paths, not by the audit's
    return gzinertia.physics.surface_mesh.geometry_digest(named)  # the meshing pipeline


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

