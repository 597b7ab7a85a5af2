"""What the hydrostatics rules (:mod:`~gzinertia.audit.rules.stability`: GZI301, GZI303;
:mod:`~gzinertia.audit.rules.buoyancy`: GZI302, GZI305;
:mod:`~gzinertia.audit.rules.proxy_collisions`: GZI304) judge, and the words their findings
share.

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

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import gzinertia.physics
from gzinertia.audit.emit import finding, fmt
from gzinertia.audit.findings import Finding
from gzinertia.audit.message import Message, link_list, name_in
from gzinertia.checks.context import DocumentContext
from gzinertia.errors import GzInertiaError
from gzinertia.physics.collision_volume import collision_volume
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, LinkRecord
from gzinertia.sdf.buoyancy import BuoyancySystem, buoyancy_system_of

if TYPE_CHECKING:  # through the face: a run without the hydrostatics rules does not load them
    import gzinertia.physics.hydrostatics
    from gzinertia.physics.hydrostatics import ModelHydrostatics

__all__ = [
    "NEAR_NEUTRAL",
    "DocumentHydrostatics",
    "anchor_link",
    "body_finding",
    "fluid_words",
    "free_bodies",
    "hydrostatics_of",
    "who",
]

#: GZI301 looks at bodies whose buoyancy is within this range of their weight (submerged
#: vehicles, near neutral); heavier ones sink, lighter ones surface.
NEAR_NEUTRAL = (0.8, 1.25)


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
    try:
        return buoyancy_system_of(doc.doc.path, tree)
    except GzInertiaError:
        return None, "unknown"  # the reader reports what it cannot read


def hydrostatics_of(doc: DocumentContext) -> DocumentHydrostatics:
    """The models' hydrostatics the rules check (computed once per document)."""
    cached = doc.hydrostatics_cache
    if isinstance(cached, DocumentHydrostatics):
        return cached
    fluid, system = _world_fluid(doc)
    from_plugin = fluid is not None
    links = list(doc.doc.links)
    groups: dict[str, list[LinkRecord]] = {}
    hydrostatics = gzinertia.physics.hydrostatics
    for link in links:
        groups.setdefault(hydrostatics.top_model(link), []).append(link)
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
        tuple(hydrostatics.model_hydrostatics(judged, fluid or BuoyancyWorld())) if judged else (),
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


def fluid_words(h: DocumentHydrostatics) -> str:
    """Where the fluid the findings judge in comes from, and its density."""
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


def anchor_link(h: DocumentHydrostatics, model: ModelHydrostatics) -> LinkRecord:
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


def who(model: ModelHydrostatics, body: ModelHydrostatics, link: str) -> Message:
    """The words naming what a finding on ``link`` judges: the model, or one of its free
    bodies."""
    if body is model:
        return Message.of(f"model {model.name!r}")
    names = [link.name for link in body.links]
    links = "" if names == [body.name] else "links " + link_list(names, link, len(names)) + "; "
    return ("body " + name_in(body.name, link, quoted=True) + f" of model {model.name!r} ("
            + links + "no joint to the model's other links: it moves on its own)")


def body_finding(
    code: str,
    h: DocumentHydrostatics,
    model: ModelHydrostatics,
    body: ModelHydrostatics,
    said: str,
    values: dict[str, object],
) -> Finding:
    """Rule ``code``'s finding on a free ``body`` of ``model``, at its heaviest link
    (:func:`anchor_link`): the message names what is judged (:func:`who`) then ``said``; the
    values name the model and the body, then ``values``."""
    anchor = anchor_link(h, body)
    return finding(code, anchor.source, anchor.name, who(model, body, anchor.name) + said,
                   {"model": model.name, "body": body.name, **values})
