"""Rules about added mass computed by ``addmass --bem`` or imported by ``addmass --from``:
GZI212 (stale provenance; the digests compared by :mod:`gzinertia.checks.bem`).

The matrix describes a hull the model no longer has when the geometry digest its provenance
comment records no longer matches the link's shapes; :mod:`gzinertia.checks.bem` says how the
comment is written and compared. The result file of an import is not read by the audit (it
reads only what the model names): its digest says which result it was.
"""

from __future__ import annotations

from collections.abc import Iterator

from gzinertia.audit.emit import finding, link_rule
from gzinertia.audit.findings import Finding
from gzinertia.audit.message import command, link_glob
from gzinertia.checks.bem import UNKNOWN, bem_provenance, current_digest
from gzinertia.checks.context import LinkContext
from gzinertia.wording import bounded

__all__ = ["stale_bem_provenance"]


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
    link = link_glob(ctx.name)
    geometry = (
        ("--geometry", f"visual:{','.join(provenance.collisions)}")
        if provenance.element == "visual"
        else ()
    )
    solve = command("addmass", file, "--bem", *geometry, "--link", link)
    inertial = ctx.link.inertial
    matrix, where = "<fluid_added_mass>", inertial.added_mass_source or inertial.source
    first = ""
    if inertial.A_BBo_B is None:  # URDF: the Hydrodynamics block addmass wrote
        plugin = next(p for p in reversed(ctx.link.hydrodynamics) if p.comment)
        matrix, where = "the Hydrodynamics plugin's added mass (<iDotJ>)", plugin.source
        first = "remove its <gazebo> block, then "
    if provenance.origin == "imported":
        again = command("addmass", file, "--from", "RESULT", *geometry, "--link", link)
        dataset = provenance.dataset_digest or "unknown"
        message = (
            f"{matrix} was imported (dataset {dataset}) for another hull: {what}. "
            f"Compute the result for the hull the link has and import it again ({first}`"
            + again + f"`), or compute it here: {first}`" + solve + "`"
        )
    else:
        message = (
            f"{matrix} comes from a BEM solve of another hull: {what}. Recompute it: "
            f"{first}`" + solve + "`"
        )
    where = where or ctx.where
    values = {
        "written_digest": provenance.digest,
        "current_digest": digest or "",
        "origin": provenance.origin,
        "dataset_digest": provenance.dataset_digest,
    }
    yield finding("GZI212", where, ctx.name, message, values)
