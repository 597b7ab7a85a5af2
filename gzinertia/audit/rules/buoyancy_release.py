"""GZI604: a collision whose buoyancy the target release computes differently from its exact
geometry (issue 28). What the release computes is
:func:`gzinertia.physics.buoyancy_release.collision_buoyancy` under the target's behaviour
(:func:`gzinertia.gazebo.buoyancy_release.behaviour_of`); where it applies is the hydrostatics
rules' scope (:mod:`gzinertia.audit.hydrostatics_scope`: every free body in a world with the
Buoyancy plugin, in that plugin's fluid; in a model file the bodies that may hover, in an
assumed 1000 kg/m³).
"""

from __future__ import annotations

from collections.abc import Iterator

from gzinertia.audit import hydrostatics_scope as scope
from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext
from gzinertia.gazebo.buoyancy_release import ReleaseBuoyancy, behaviour_of
from gzinertia.physics.buoyancy_release import CollisionBuoyancy, collision_buoyancy
from gzinertia.records import Collision, LinkRecord

__all__ = ["CENTRE_TOLERANCE", "FORCE_TOLERANCE", "release_buoyancy_differs"]

#: GZI604: the force's relative difference, and the centre's offset as a fraction of the
#: collision's size (the cube root of its exact volume): the moment arm's error.
FORCE_TOLERANCE = 0.02
CENTRE_TOLERANCE = 0.02


def _beyond(c: CollisionBuoyancy) -> bool:
    """Whether the release's buoyancy of the collision is more than the tolerances off."""
    relative = c.force_difference
    if relative is None:
        return False
    offset = c.centre_offset
    return abs(relative) > FORCE_TOLERANCE or (
        offset is not None and offset > CENTRE_TOLERANCE * c.size)


def _message(c: CollisionBuoyancy, release: ReleaseBuoyancy, fluid: str,
             other: CollisionBuoyancy | None) -> str:
    relative = c.force_difference or 0.0
    offset = c.centre_offset
    where = ("" if offset is None else
             f", its centre {fmt(offset)} m off ({fmt(100 * offset / c.size)} % of the "
             f"collision's size {fmt(c.size)} m)")
    causes = "; ".join(c.causes) or "rounding of the release's formulas"
    text = (f"collision {c.name!r} ({c.kind}) under {release.target.words()}: the Buoyancy "
            f"system {fluid} applies {fmt(c.buoyancy)} N at {fmt_vec(c.p_WB)} m (world), the "
            f"geometry {fmt(c.buoyancy_exact or 0.0)} N at "
            f"{fmt_vec(c.p_WB_exact if c.p_WB_exact is not None else c.p_WB)} m: "
            f"{100 * relative:+.3g} % of the force{where}; why: {causes}")
    if other is not None:
        text += (f"; {release.assumption}: with them {fmt(other.buoyancy)} N at "
                 f"{fmt_vec(other.p_WB)} m")
    return text


def _values(c: CollisionBuoyancy, release: ReleaseBuoyancy,
            other: CollisionBuoyancy | None) -> dict[str, object]:
    values: dict[str, object] = {
        "collision": c.name, "kind": c.kind, "volume": c.volume, "volume_exact": c.volume_exact,
        "buoyancy": c.buoyancy, "buoyancy_exact": c.buoyancy_exact,
        "relative": c.force_difference, "p_WB": c.p_WB, "p_WB_exact": c.p_WB_exact,
        "offset": c.centre_offset, "size": c.size, "causes": list(c.causes),
        "target": release.target.as_json(),
    }
    if other is not None:
        values["assumption"] = release.assumption
        values["with_unknown_changes"] = {"buoyancy": other.buoyancy, "p_WB": other.p_WB}
    return values


def _judged(doc: DocumentContext) -> Iterator[tuple[LinkRecord, Collision]]:
    """Each enabled link's collisions in the hydrostatics rules' scope (free bodies only)."""
    h = scope.hydrostatics_of(doc)
    for _model, body in scope.free_bodies(h):
        for link in body.links:
            if link.enabled:
                record = h.records[link.name]
                for collision in record.collisions:
                    yield record, collision


@document_rule("GZI604")
def release_buoyancy_differs(doc: DocumentContext) -> Iterator[Finding]:
    """GZI604 buoyancy-release-differs: the target release's buoyancy of a collision (force or
    centre) more than 2 % from its exact geometry's."""
    release = behaviour_of(doc.target)
    h = scope.hydrostatics_of(doc)
    fluid = scope.fluid_words(h)
    for record, collision in _judged(doc):
        got = collision_buoyancy(collision, release.behaviour, record.X_WB, h.fluid)
        if not _beyond(got):
            continue
        other = None if release.alternative is None else collision_buoyancy(
            collision, release.alternative, record.X_WB, h.fluid)
        yield finding("GZI604", collision.source, record.name,
                      _message(got, release, fluid, other), _values(got, release, other))
