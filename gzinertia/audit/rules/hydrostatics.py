"""Hydrostatics rules: GZI301 (B below G), GZI302 (net buoyancy), GZI303 (surface craft with a
negative GM), GZI304 (buoyancy-proxy collisions), GZI305 (Gazebo's buoyancy volume or centre not
the geometry's).

Where they apply (:func:`hydrostatics_of`): in a world file with gz-sim's Buoyancy plugin, every
top-level model that moves, in that plugin's fluid. In a model file (or a world without the
plugin), GZI301 and GZI305 look at the models that nearly hover in an assumed fluid of
1000 kg/m³, uniform (what a Buoyancy system without a density uses): mean density (mass over
the collisions' exact volume) within :data:`NEAR_NEUTRAL` of the water's, i.e. submerged
vehicles, and their messages say the fluid is assumed (a model file) or that Gazebo applies no
buoyancy at all (a world that loads no Buoyancy system: gz-sim's default server configuration
has none); GZI302 needs the world's plugin (the same vehicle may float at the surface of one
world and hover in another; a world without one has no water: a crate or a person weighs about
as much as the water they would displace, and no buoyancy is right for them), and GZI303 a
graded one (the only kind of Gazebo world with a free surface). The scope
depends only on masses, poses and collisions, which the editing commands never change (so an
edit cannot bring a model into scope). Models are taken at the poses the file gives them.
GZI301, GZI302 and GZI303 judge each **free body** (:attr:`ModelHydrostatics.bodies`: links
joined by joints move together, links without a joint between them apart, as gz-physics builds
them) and skip bodies a joint holds to the world; GZI305's "hovers" test is per body too.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, LinkRecord
from gzinertia.vocabulary.fluids import FRESHWATER_DENSITY

if TYPE_CHECKING:  # lazy: a run without the hydrostatics rules does not load them
    from gzinertia.physics.buoyancy_proxy import ProxyEvidence
    from gzinertia.physics.hydrostatics import LinkHydrostatics, ModelHydrostatics
    from gzinertia.sdf.buoyancy import BuoyancySystem

#: GZI301 looks at bodies whose buoyancy is within this range of their weight (submerged
#: vehicles, near neutral); heavier ones sink, lighter ones surface.
NEAR_NEUTRAL = (0.8, 1.25)
#: GZI301: B must lie below G by more than this fraction of the body's size (V^(1/3)).
VERTICAL_TOLERANCE = 1e-3
#: GZI305: relative volume difference, and centre offset as a fraction of the link's size.
VOLUME_TOLERANCE = 0.01
CENTRE_TOLERANCE = 0.01
#: GZI304: a link's proxy collision is reported when it changes its free body's buoyancy by
#: more than this fraction of the body's weight (``ρ·|V_collision - V_visual| / m``), or moves
#: the body's centre of buoyancy by more than this fraction of the side of the cube of water
#: the body weighs (``V_proxy·offset·ρ / m`` against ``(m/ρ)^(1/3)``). 2 %: the trim to which
#: submerged vehicles are ballasted and the tightest ``net-buoyancy`` GZI302 is commonly given;
#: a smaller change is within that trim. Proxies each below it are reported together, once per
#: body, when their sum exceeds it.
PROXY_BUOYANCY_FRACTION = 0.02


@dataclass(frozen=True, repr=False, eq=False)
class DocumentHydrostatics(ValueRecord):
    """The fluid the rules assume, where it comes from, and the models in scope."""

    fluid: BuoyancyWorld
    from_plugin: bool
    #: The models GZI301, GZI302, GZI303 and GZI305 judge: every model in scope in a world with
    #: the plugin; in a model file only those with a body that may hover (:func:`_may_hover`).
    models: tuple[ModelHydrostatics, ...]
    records: dict[str, LinkRecord]
    #: Every model in scope (top-level name → its links, in file order), for GZI304.
    groups: dict[str, tuple[LinkRecord, ...]] = field(default_factory=dict)
    #: Whether the world's Buoyancy system acts: ``"absent"`` in a world that loads none
    #: (Gazebo applies no buoyancy), ``"unknown"`` in a model file (the fluid is assumed).
    system: BuoyancySystem = "loaded"


def _world_fluid(doc: DocumentContext) -> tuple[BuoyancyWorld | None, BuoyancySystem]:
    """The world's Buoyancy system and whether it acts (a model file: ``"unknown"``)."""
    tree = doc.tree  # standard input's (its path names no file)
    if doc.doc.root_kind != "world" or (tree is None and not Path(doc.doc.path).is_file()):
        return None, "unknown"
    from gzinertia.sdf.buoyancy import buoyancy_system_of

    try:
        return buoyancy_system_of(doc.doc.path, tree)
    except GzInertiaError:
        return None, "unknown"  # the reader reports what it cannot read


def hydrostatics_of(doc: DocumentContext) -> DocumentHydrostatics:
    """The models' hydrostatics the rules check (computed once per document)."""
    cached = doc.hydrostatics_cache
    if isinstance(cached, DocumentHydrostatics):
        return cached
    from gzinertia.physics.hydrostatics import model_hydrostatics, top_model

    fluid, system = _world_fluid(doc)
    from_plugin = fluid is not None
    links = list(doc.doc.links)
    groups: dict[str, list[LinkRecord]] = {}
    for link in links:
        groups.setdefault(top_model(link), []).append(link)
    chosen = []
    in_scope: dict[str, tuple[LinkRecord, ...]] = {}
    judged: list[LinkRecord] = []
    for name, group in groups.items():
        if all(link.static or link.welded_to_world for link in group):
            continue
        chosen.extend(group)
        in_scope[name] = tuple(group)
        if from_plugin or _may_hover(name, group):
            judged.extend(group)
    result = DocumentHydrostatics(
        fluid or BuoyancyWorld(),
        from_plugin,
        tuple(model_hydrostatics(judged, fluid or BuoyancyWorld())) if judged else (),
        {link.name: link for link in chosen},
        in_scope,
        system,
    )
    doc.hydrostatics_cache = result
    return result


#: :func:`_may_hover`'s range of mass over displaced mass: :data:`NEAR_NEUTRAL` (and its
#: inverse, GZI305's) widened well beyond the rounding of the vector sums the rules compare.
_MAY_HOVER = (0.7, 1.4)


def _may_hover(model: str, links: list[LinkRecord]) -> bool:
    """Whether a body of this top-level model (in Gazebo's default fluid, no Buoyancy plugin)
    may weigh near the water it displaces by Gazebo's volume (GZI301) or the geometry's
    (GZI305): False only when every body is plainly out of :data:`_MAY_HOVER` or weighs or
    displaces nothing, so the rules would pass it over; then its hydrostatics are not
    computed. Bodies as :attr:`ModelHydrostatics.bodies` groups them."""
    from gzinertia.physics.collision_volume import collision_volume

    density = BuoyancyWorld().density
    bodies: dict[str, list[float]] = {}
    for link in links:
        sums = bodies.setdefault(link.body or model, [0.0, 0.0, 0.0])
        sums[0] += link.inertial.mass
        for c in link.collisions:
            part = collision_volume(c)
            sums[1] += part.volume_gz
            if part.volume is not None and part.p_BoCv_B is not None:
                sums[2] += part.volume
    for mass, volume_gz, volume_exact in bodies.values():
        for volume in (volume_gz, volume_exact):
            if volume > 0 and mass > 0:
                ratio = mass / (density * volume)
                if not (ratio < _MAY_HOVER[0] or ratio > _MAY_HOVER[1]):
                    return True  # (NaN too)
            elif not (volume <= 0 or mass <= 0):
                return True  # NaN: not settled here
    return False


def _fluid_words(h: DocumentHydrostatics) -> str:
    if h.system == "absent":
        return (f"as if a Buoyancy system of {fmt(h.fluid.density)} kg/m^3 were added (this "
                "world loads none: Gazebo applies no buoyancy here)")
    if not h.from_plugin:
        return (f"in an assumed fluid of {fmt(h.fluid.density)} kg/m^3 (a model file does not "
                "name its world: Gazebo applies buoyancy only in one that loads the Buoyancy "
                "system)")
    if h.fluid.kind == "uniform":
        return f"in the world's uniform fluid ({fmt(h.fluid.density)} kg/m^3)"
    return f"in the world's graded fluid ({fmt(h.fluid.density)} kg/m^3 below the layers)"


def _anchor(h: DocumentHydrostatics, model: ModelHydrostatics) -> LinkRecord:
    """The model's heaviest link: where a finding about the whole model is reported."""
    best = max(model.links, key=lambda link: link.mass)
    return h.records[best.name]


def free_bodies(h: DocumentHydrostatics) -> Iterator[tuple[ModelHydrostatics, ModelHydrostatics]]:
    """``(model, body)`` for each free body of the models in scope (not static, not held to
    the world by a joint); a model of one body is its own body."""
    for model in h.models:
        for body in model.bodies:
            if not body.anchored:
                yield model, body


def _who(model: ModelHydrostatics, body: ModelHydrostatics) -> str:
    """The words naming what a finding judges: the model, or one of its free bodies."""
    if body is model:
        return f"model {model.name!r}"
    names = [link.name for link in body.links]
    links = "" if names == [body.name] else f"links {', '.join(names)}; "
    return (f"body {body.name!r} of model {model.name!r} ({links}no joint to the model's "
            "other links: it moves on its own)")


def _submerged(h: DocumentHydrostatics, model: ModelHydrostatics) -> bool:
    """Every buoyant link entirely in the bottom fluid (always, in a uniform fluid)."""
    if h.fluid.kind == "uniform":
        return True
    full = h.fluid.density * model.volume * model.g
    return full > 0 and abs(model.buoyancy - full) <= 1e-9 * full


@document_rule("GZI301")
def buoyancy_centre_below_mass_centre(doc: DocumentContext) -> Iterator[Finding]:
    """GZI301 buoyancy-centre-below-mass-centre: a near-neutral submerged body, B below G."""
    h = hydrostatics_of(doc)
    for model, body in free_bodies(h):
        if not (body.weight > 0 and body.buoyancy > 0 and body.volume > 0):
            continue
        ratio = body.buoyancy / body.weight
        if not (NEAR_NEUTRAL[0] <= ratio <= NEAR_NEUTRAL[1]) or not _submerged(h, body):
            continue
        up = body._up()
        dz = float((body.p_WB - body.p_WG) @ up)
        size = body.volume ** (1.0 / 3.0)
        if not dz < -VERTICAL_TOLERANCE * size:
            continue
        anchor = _anchor(h, body)
        yield finding(
            "GZI301", anchor.source, anchor.name,
            f"{_who(model, body)} submerged {_fluid_words(h)}: its centre of buoyancy B "
            f"{fmt_vec(body.p_WB)} m (Gazebo's: its collisions summed) lies {fmt(-dz)} m below "
            "its centre of mass G "
            f"{fmt_vec(body.p_WG)} m (buoyancy {fmt(body.buoyancy)} N, weight "
            f"{fmt(body.weight)} N): statically unstable, restoring stiffness "
            f"{fmt(body.restoring_stiffness)} N m/rad; it rolls over until B is above G "
            "(move the ballast down or the buoyant volume up)",
            {"model": model.name, "body": body.name, "z_B_minus_z_G": dz,
             "restoring_stiffness": body.restoring_stiffness,
             "buoyancy": body.buoyancy, "weight": body.weight},
        )


def submerged_volume(h: DocumentHydrostatics, model: ModelHydrostatics) -> float:
    """The volume Gazebo gives buoyancy to when the model is entirely in the bottom fluid (a
    graded fluid leaves meshes and other shapes out)."""
    if h.fluid.kind == "uniform":
        return model.volume
    from gzinertia.physics.volume_below import GRADED_SHAPES

    return float(sum(c.volume_gz for link in model.links if link.enabled
                     for c in link.collisions if c.kind in GRADED_SHAPES))


@document_rule("GZI302")
def net_buoyancy(doc: DocumentContext) -> Iterator[Finding]:
    """GZI302 net-buoyancy: buoyancy and weight differ by more than the configured fraction."""
    h = hydrostatics_of(doc)
    if not h.from_plugin:
        return  # the fluid is known only in a world with the plugin (a model file: any world)
    fraction = doc.net_buoyancy
    for model, body in free_bodies(h):
        V = submerged_volume(h, body)
        buoyancy = h.fluid.density * V * body.g
        if not (body.weight > 0 and buoyancy > 0):
            continue
        net = buoyancy - body.weight
        if not abs(net) > fraction * body.weight:
            continue
        anchor = _anchor(h, body)
        way = "rises" if net > 0 else "sinks"
        if net > 0 and h.fluid.kind == "graded":
            way = "rises to the surface and floats there"
        percent = 100.0 * net / body.weight
        yield finding(
            "GZI302", anchor.source, anchor.name,
            f"{_who(model, body)} submerged {_fluid_words(h)}: buoyancy {fmt(buoyancy)} N, "
            f"weight {fmt(body.weight)} N, net {net:+.4g} N ({percent:+.3g} % of its weight, "
            f"beyond {fmt(100 * fraction)} %): it {way} (Gazebo's volume {fmt(V)} m^3, its "
            f"collisions summed as gz-sim's Buoyancy system sums them; mass "
            f"{fmt(body.mass)} kg; neutral at {fmt(body.mass / h.fluid.density)} m^3)",
            {"model": model.name, "body": body.name, "buoyancy": buoyancy, "weight": body.weight,
             "net_percent": percent},
        )


#: GZI303: GM below minus this fraction of the hull's size (tessellation noise on a sphere).
GM_TOLERANCE = 1e-3


@document_rule("GZI303")
def surface_craft_negative_gm(doc: DocumentContext) -> Iterator[Finding]:
    """GZI303 surface-craft-negative-gm: a body floating at the surface with GM < 0."""
    h = hydrostatics_of(doc)
    if not h.from_plugin or h.fluid.kind != "graded" or not h.fluid.layers:
        return
    from gzinertia.physics.flotation import model_flotation

    for model, body in free_bodies(h):
        links = [h.records[link.name] for link in body.links]
        f = model_flotation(body, links, h.fluid, None, True)
        if f is None or not (f.floats and f.converged):
            continue
        size = max(body.volume_exact, 0.0) ** (1.0 / 3.0)
        negative = [(name, gm) for name, gm in (("GM_T", f.GM_T), ("GM_L", f.GM_L))
                    if gm < -GM_TOLERANCE * size]
        if not negative:
            continue
        anchor = _anchor(h, body)
        worst = ", ".join(f"{name} = {fmt(gm)} m" for name, gm in negative)
        yield finding(
            "GZI303", anchor.source, anchor.name,
            f"{_who(model, body)} floats at the surface (z = {fmt(f.z_surface)} m, draft "
            f"{fmt(f.draft)} m, {_fluid_words(h)}) with {worst} (KB {fmt(f.KB)} m + BM_T "
            f"{fmt(f.BM_T)} m / BM_L {fmt(f.BM_L)} m - KG {fmt(f.KG)} m): upright is unstable, "
            "it capsizes; lower the centre of mass or widen the waterplane "
            f"(`gzinertia hydrostatics {doc.doc.path}` shows the numbers)",
            {"model": model.name, "body": body.name, "GM_T": f.GM_T, "GM_L": f.GM_L},
        )


def _marine_by_visuals(mass: float, visual_volume: float) -> bool:
    """A model of this mass (kg) whose mass over its visuals' volume is near the water's (a
    vehicle drawn at its real size, whatever its collisions)."""
    return visual_volume > 0 and 0.5 <= mass / (FRESHWATER_DENSITY * visual_volume) <= 1.5


@document_rule("GZI304")
def buoyancy_proxy_collision(doc: DocumentContext) -> Iterator[Finding]:
    """GZI304 buoyancy-proxy-collision: collisions that look like a buoyancy proxy and change
    their free body's buoyancy (or its centre) by more than :data:`PROXY_BUOYANCY_FRACTION`;
    proxies each below it that together exceed it, in one finding per body."""
    from gzinertia.sdf.visuals import link_visuals

    h = hydrostatics_of(doc)
    for model, records in h.groups.items():
        evidence = []
        for record in records:
            if not h.fluid.is_enabled(record.name) or not record.collisions:
                continue
            visuals, skipped = link_visuals(record)
            if skipped or not visuals:
                continue  # (no visual: nothing to compare, buoyancy_proxy gives None)
            from gzinertia.physics.buoyancy_proxy import buoyancy_proxy

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
    h: DocumentHydrostatics,
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
        effect = (f"it changes the buoyancy of body {body!r} by {100 * change:+.3g} % of the "
                  f"body's weight ({fmt(weight)} kg)")
        if shift > PROXY_BUOYANCY_FRACTION * size:
            effect += f" and moves its centre of buoyancy by {shift:.3g} m"
        yield finding(
            "GZI304", record.source, record.name,
            f"its collisions look like a buoyancy proxy: {e.said()}; {effect}. "
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
    shown = ", ".join(listed[:5]) + (f" and {len(listed) - 5} more" if len(listed) > 5 else "")
    yield finding(
        "GZI304", anchor.source, anchor.name,
        f"{len(small)} links of body {body!r} have collisions that look like buoyancy "
        f"proxies (smaller than, or away from, their visuals: {shown}); each changes the "
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
    from gzinertia.checks.bem import bem_of_visuals_is_current, bem_provenance

    ctx = next((c for c in doc.links if c.name == name), None)
    if ctx is None or not bem_of_visuals_is_current(ctx):
        return ""
    provenance = bem_provenance(ctx)
    if provenance is not None and provenance.origin == "imported":
        return "it was imported for the visuals (`addmass --from ... --geometry visual`)"
    return "a BEM solve of the visuals (`addmass --bem --geometry visual`)"


def _link_differences(h: DocumentHydrostatics, link: LinkHydrostatics) -> list[str]:
    out: list[str] = []
    size = max(link.volume_exact, 0.0) ** (1.0 / 3.0)
    if h.fluid.kind == "graded":
        meshes = [c.name for c in link.collisions if c.kind == "mesh"]
        if meshes:
            out.append(f"its mesh collision(s) {', '.join(meshes)} get no buoyancy in a graded "
                       "fluid (Gazebo computes graded buoyancy for primitives only)")
    if link.volume_exact > 0 and (abs(link.volume - link.volume_exact)
                                  > VOLUME_TOLERANCE * link.volume_exact):
        from gzinertia.physics.collision_volume import gazebo_volume_causes

        causes = gazebo_volume_causes(link.collisions)
        why = f" ({'; '.join(causes)})" if causes else ""
        out.append(f"Gazebo's volume {fmt(link.volume)} m^3, the geometry's "
                   f"{fmt(link.volume_exact)} m^3{why}")
    offset = float(np.linalg.norm(link.p_BoBv_B - link.p_BoBv_B_exact))
    if link.volume_exact > 0 and offset > CENTRE_TOLERANCE * size:
        out.append(f"Gazebo's centre of volume {fmt_vec(link.p_BoBv_B)} m (link frame: each "
                   f"collision counted at its origin), the geometry's "
                   f"{fmt_vec(link.p_BoBv_B_exact)} m, {fmt(offset)} m apart")
    elif h.fluid.kind == "graded" and not any(c.kind == "mesh" for c in link.collisions):
        f, fe = float(np.linalg.norm(link.f_W)), float(np.linalg.norm(link.f_W_exact))
        d = float(np.linalg.norm(link.p_WB - link.p_WB_exact))
        if abs(f - fe) > VOLUME_TOLERANCE * max(fe, 1e-300) or (
                fe > 0 and d > CENTRE_TOLERANCE * size):
            out.append(f"at its pose, a shape rotated across a fluid layer: Gazebo's buoyancy "
                       f"{fmt(f)} N at {fmt_vec(link.p_WB)}, the geometry's {fmt(fe)} N at "
                       f"{fmt_vec(link.p_WB_exact)} (gz-sim slices shapes in their own axes)")
    return out


def _hovers(h: DocumentHydrostatics, model: ModelHydrostatics) -> bool:
    """In a model file: the model's mass over its exact volume is near the water's density."""
    if h.from_plugin:
        return True
    displaced = h.fluid.density * model.volume_exact
    return displaced > 0 and NEAR_NEUTRAL[0] <= model.mass / displaced <= NEAR_NEUTRAL[1]


@document_rule("GZI305")
def buoyancy_not_as_geometry(doc: DocumentContext) -> Iterator[Finding]:
    """GZI305 buoyancy-not-as-geometry: Gazebo's volume or centre differs from the geometry's."""
    h = hydrostatics_of(doc)
    for model in h.models:
        for link in (link for body in model.bodies if _hovers(h, body) for link in body.links):
            if not link.enabled or not math.isfinite(link.volume_exact):
                continue
            differences = _link_differences(h, link)
            if differences:
                record = h.records[link.name]
                yield finding(
                    "GZI305", record.source, link.name,
                    f"Gazebo's Buoyancy system {_fluid_words(h)}: " + "; ".join(differences),
                    {"volume": link.volume, "volume_exact": link.volume_exact},
                )
