"""GZI304 buoyancy-proxy-collision: collisions that stand for the hull in buoyancy (smaller than,
or away from, the link's visuals) and change what Gazebo's Buoyancy system applies. Where it
applies: :mod:`gzinertia.audit.hydrostatics_scope`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from gzinertia.audit import hydrostatics_scope as scope
from gzinertia.audit.emit import document_rule, finding, fmt
from gzinertia.audit.findings import Finding
from gzinertia.audit.message import link_list, name_in
from gzinertia.checks.bem import bem_of_visuals_is_current, bem_provenance
from gzinertia.checks.context import DocumentContext
from gzinertia.physics.buoyancy_proxy import ProxyEvidence, buoyancy_proxy
from gzinertia.records import LinkRecord
from gzinertia.sdf.visuals import link_visuals
from gzinertia.vocabulary.fluids import FRESHWATER_DENSITY

#: GZI304: a link's proxy collision is reported when it changes its free body's buoyancy by
#: more than this fraction of the body's weight (``ρ·|V_collision - V_visual| / m``), or moves
#: the body's centre of buoyancy by more than this fraction of the side of the cube of water
#: the body weighs (``V_proxy·offset·ρ / m`` against ``(m/ρ)^(1/3)``). 2 %: the trim to which
#: submerged vehicles are ballasted and the tightest ``net-buoyancy`` GZI302 is commonly given;
#: a smaller change is within that trim. Proxies each below it are reported together, once per
#: body, when their sum exceeds it.
PROXY_BUOYANCY_FRACTION = 0.02


def _marine_by_visuals(mass: float, visual_volume: float) -> bool:
    """A model of this mass (kg) whose mass over its visuals' volume is near the water's (a
    vehicle drawn at its real size, whatever its collisions)."""
    return visual_volume > 0 and 0.5 <= mass / (FRESHWATER_DENSITY * visual_volume) <= 1.5


@document_rule("GZI304")
def buoyancy_proxy_collision(doc: DocumentContext) -> Iterator[Finding]:
    """GZI304 buoyancy-proxy-collision: collisions that look like a buoyancy proxy and change
    their free body's buoyancy (or its centre) by more than :data:`PROXY_BUOYANCY_FRACTION`;
    proxies each below it that together exceed it, in one finding per body."""
    h = scope.hydrostatics_of(doc)
    for model, records in h.groups.items():
        evidence = []
        for record in records:
            if not h.fluid.is_enabled(record.name) or not record.collisions:
                continue
            visuals, skipped = link_visuals(record)
            if skipped or not visuals:
                continue  # (no visual: nothing to compare, buoyancy_proxy gives None)

            found = buoyancy_proxy(record.collisions, visuals)
            if found is not None:
                evidence.append((record, found))
        visual_volume = sum(e.visual_volume for _, e in evidence)
        mass = float(sum(record.inertial.mass for record in records))  # ModelHydrostatics.mass
        if not h.from_plugin and not _marine_by_visuals(mass, visual_volume):
            continue
        bodies: dict[str, list[LinkRecord]] = {}
        for record in records:
            bodies.setdefault(record.body or model, []).append(record)
        by_body: dict[str, list[tuple[LinkRecord, ProxyEvidence]]] = {}
        for record, e in evidence:
            by_body.setdefault(record.body or model, []).append((record, e))
        for body, links in bodies.items():
            yield from _proxies_of_body(doc, h, body, links, by_body.get(body, []))


def _proxies_of_body(
    doc: DocumentContext,
    h: scope.DocumentHydrostatics,
    body: str,
    links: list[LinkRecord],
    evidence: list[tuple[LinkRecord, ProxyEvidence]],
) -> Iterator[Finding]:
    """GZI304's findings on one free body (``links``, and the ``evidence`` of its links):
    each proxy that matters on its own, then one for those that matter only together."""
    rho = h.fluid.density
    own = [(record, e) for record, e in evidence if e.reasons]
    if not own:
        return
    weight = float(sum(link.inertial.mass for link in links))  # kg: the body's weight / g
    if not (math.isfinite(weight) and weight > 0.0):
        weight = rho * sum(e.visual_volume for _, e in evidence)
    size = (weight / rho) ** (1.0 / 3.0) if weight > 0.0 else 0.0  # m: its water's cube
    small: list[tuple[LinkRecord, float]] = []
    for record, e in own:
        change = rho * (e.collision_volume - e.visual_volume) / weight if weight > 0 else -1.0
        shift = (min(e.collision_volume, e.visual_volume) * e.offset * rho / weight
                 if weight > 0 else math.inf)  # m: the body's centre of buoyancy moves
        if abs(change) <= PROXY_BUOYANCY_FRACTION and shift <= PROXY_BUOYANCY_FRACTION * size:
            small.append((record, change))
            continue
        effect = ("it changes the buoyancy of body " + name_in(body, record.name, quoted=True)
                  + f" by {100 * change:+.3g} % of the body's weight ({fmt(weight)} kg)")
        if shift > PROXY_BUOYANCY_FRACTION * size:
            effect += f" and moves its centre of buoyancy by {shift:.3g} m"
        yield finding(
            "GZI304", record.source, record.name,
            f"its collisions look like a buoyancy proxy: {e.said()}; " + effect + ". "
            + _proxy_consequence(doc, record.name),
            {"collision_volume": e.collision_volume, "visual_volume": e.visual_volume,
             "offset": e.offset, "body": body, "buoyancy_change": change,
             "buoyancy_centre_shift": shift,
             "added_mass_from_visuals": bool(_added_mass_from_visuals(doc, record.name))},
        )
    total = sum(change for _, change in small)
    if len(small) < 2 or abs(total) <= PROXY_BUOYANCY_FRACTION:
        return  # each alone and all together within the trim: nothing Gazebo would show
    anchor = max((record for record, _ in small), key=lambda r: r.inertial.mass)
    listed = [record.name for record, _ in small]
    yield finding(
        "GZI304", anchor.source, anchor.name,
        f"{len(small)} links of body " + name_in(body, anchor.name, quoted=True)
        + " have collisions that look like buoyancy proxies (smaller than, or away from, their "
        "visuals: " + link_list(listed, anchor.name, 5) + "); each changes the "
        f"body's buoyancy by at most {100 * PROXY_BUOYANCY_FRACTION:g} % of its weight "
        f"({fmt(weight)} kg), together by {100 * total:+.3g} %. Gazebo's Buoyancy system "
        "sees the collisions: model them as the visuals' shapes, or check the buoyancy with "
        "`gzinertia hydrostatics`",
        {"body": body, "links": listed, "buoyancy_change": total},
    )


def _proxy_consequence(doc: DocumentContext, link: str) -> str:
    """What a proxy collision means for the link's buoyancy and its added mass."""
    from_visuals = _added_mass_from_visuals(doc, link)
    if from_visuals:
        return (
            "Gazebo's Buoyancy system sees the proxy, not the hull: check the buoyancy "
            "with `gzinertia hydrostatics`. The link's added mass already describes the "
            f"hull: {from_visuals}, as its comment records (GZI212 watches that "
            "geometry)"
        )
    return (
        "Gazebo's Buoyancy system and any added mass fitted to the collisions "
        "(`gzinertia addmass`) see the proxy, not the hull: fit the added mass to "
        "the visual's shape, and check the buoyancy with `gzinertia hydrostatics`"
    )


def _added_mass_from_visuals(doc: DocumentContext, name: str) -> str:
    """How the link's ``<fluid_added_mass>`` was computed from its visuals (a current
    ``addmass --bem --geometry visual`` solve or ``--from ... --geometry visual`` import, as its
    provenance comment records), ``""`` when it was not."""
    ctx = next((c for c in doc.links if c.name == name), None)
    if ctx is None or not bem_of_visuals_is_current(ctx):
        return ""
    provenance = bem_provenance(ctx)
    if provenance is not None and provenance.origin == "imported":
        return "it was imported for the visuals (`addmass --from ... --geometry visual`)"
    return "a BEM solve of the visuals (`addmass --bem --geometry visual`)"
