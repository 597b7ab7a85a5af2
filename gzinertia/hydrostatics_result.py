"""What :func:`gzinertia.hydrostatics` computes, as typed data (:class:`HydrostaticsResult`),
and the one assembly of fluid, models, free bodies and flotation that the library and the
``hydrostatics`` command share (:func:`document_hydrostatics`).

Floor: models (:mod:`gzinertia.api` re-exports every name here, and
:mod:`gzinertia.edit.floating_draft` solves with it); imports the physics (hydrostatics,
flotation), the SDF readers of the world's Buoyancy plugin, gravity and model poses, and the
fluid words, lazily where they are heavy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.gazebo.buoyancy_release import (
    LinkReleaseBuoyancy,
    ReleaseBuoyancy,
    behaviour_of,
    link_release_buoyancy,
)
from gzinertia.options import option
from gzinertia.physics.flotation import Flotation, model_flotation
from gzinertia.physics.hydrostatics import ModelHydrostatics, model_hydrostatics
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, SdfDocument, named
from gzinertia.sdf.buoyancy import (
    BuoyancySystem,
    buoyancy_system_caveat,
    buoyancy_system_of,
    read_gravity,
    read_model_poses,
)
from gzinertia.vocabulary.fluids import check_fluid, fluid_density
from gzinertia.vocabulary.scoped_names import top_scope
from gzinertia.wording import bounded

if TYPE_CHECKING:
    from gzinertia.gazebo.target import Target

__all__ = ["HydrostaticsResult", "HydrostaticsSettingsError", "document_hydrostatics"]


@dataclass(frozen=True, repr=False, eq=False)
class HydrostaticsResult(ValueRecord):
    """What :func:`gzinertia.hydrostatics` computed: the numbers of ``gzinertia hydrostatics
    --json`` (docs/hydrostatics.md) as typed data. SI units; points in the world frame W unless
    named otherwise.

    ``fluid`` is the fluid used (:class:`~gzinertia.records.BuoyancyWorld`: uniform or graded,
    density, layers, ``<enable>``, gravity ``g_W``) and ``fluid_origin`` where it came from.
    ``models``, in file order, are
    :class:`~gzinertia.physics.hydrostatics.ModelHydrostatics`: ``mass``, ``volume``,
    ``buoyancy``, ``weight``, ``net``, ``p_WG``, ``p_WB``, ``p_BG_W``, ``righting_moment_W``,
    ``restoring_stiffness`` (and ``*_exact`` by exact geometry), ``links``
    (:class:`~gzinertia.physics.hydrostatics.LinkHydrostatics`) and ``bodies``, the model's
    free bodies with the same numbers. ``flotation`` maps each model's name and each free
    body's name to its floating equilibrium
    (:class:`~gzinertia.physics.flotation.Flotation`: heave, trim, draft, ``GM_T``, ``GM_L``;
    ``None`` where none is solved, and for a model of several free bodies, which float apart).
    """

    path: str
    fluid: BuoyancyWorld
    fluid_origin: str
    models: tuple[ModelHydrostatics, ...]
    flotation: Mapping[str, Flotation | None]
    #: Whether Gazebo's Buoyancy system acts (:data:`gzinertia.sdf.buoyancy.BuoyancySystem`):
    #: ``"absent"`` in a world that loads none (Gazebo applies no buoyancy: every number is
    #: as if one were added), ``"unknown"`` for a model file (the fluid is assumed).
    buoyancy_system: BuoyancySystem = "loaded"
    #: The target release's Buoyancy system (:class:`~gzinertia.gazebo.buoyancy_release.
    #: ReleaseBuoyancy`: the target, its behaviour and what is assumed) when a target was
    #: named (``gazebo=``/``engine=``, the settings), else ``None``; ``release_links``: each
    #: enabled link's collisions under it, beside the exact geometry's, in model order.
    release: ReleaseBuoyancy | None = None
    release_links: tuple[LinkReleaseBuoyancy, ...] = ()

    @property
    def caveat(self) -> str | None:
        """What the numbers mean when the Buoyancy system is absent or unknown
        (:func:`gzinertia.sdf.buoyancy.buoyancy_system_caveat`), else ``None``."""
        return buoyancy_system_caveat(self.buoyancy_system, self.fluid.density)

    def model(self, name: str) -> ModelHydrostatics:
        """The model with this (top-level) name (``KeyError`` naming the models otherwise)."""
        return named(self.models, name, "model", self.path)


class HydrostaticsSettingsError(SettingError):
    """Settings of :func:`gzinertia.hydrostatics` that do not go together or a value it refuses: a
    :class:`~gzinertia.errors.SettingError` (its ``key`` the setting; the message names the
    keyword argument, the command line's rendering the flag)."""


def document_hydrostatics(
    doc: SdfDocument,
    *,
    tree: Any = None,
    model: str | None = None,
    density: float | None = None,
    fluid: str | None = None,
    world: str | Path | None = None,
    waterline: float | None = None,
    trim: bool = True,
    target: Target | None = None,
) -> HydrostaticsResult:
    """:func:`gzinertia.hydrostatics` of a document already read: the one assembly of fluid, models,
    free bodies and flotation that the library and the ``hydrostatics`` command share.
    ``target``: the Gazebo release whose Buoyancy system is shown beside the exact geometry,
    collision by collision (:attr:`HydrostaticsResult.release`; ``None``: not shown), and
    whose libsdformat's reading the weights are of (:meth:`~gzinertia.gazebo.target.Target.
    reads`: an ``<inertial auto="true">`` is not resolved before Harmonic).

    ``tree``: the document's parsed XML (an lxml element) when its file cannot be read again
    (standard input); the world's Buoyancy plugin, gravity and model poses are then read from
    it. The other arguments are :func:`gzinertia.hydrostatics`'s; a bad combination raises
    :class:`HydrostaticsSettingsError` (a :class:`ValueError`).
    """
    check_fluid(density, fluid, HydrostaticsSettingsError)
    if waterline is not None and not math.isfinite(waterline):
        raise HydrostaticsSettingsError(
            "waterline", "{waterline} must be a finite height in m, not {value!r}",
            value=waterline,
        )
    doc = doc if target is None else target.reads(doc)
    file = doc.path
    world_file, world_tree = (str(world), None) if world is not None else (file, tree)
    plugin, system = buoyancy_system_of(world_file, world_tree)
    if plugin is not None:
        chosen, origin = plugin, f"Buoyancy plugin at {plugin.source}"
    else:
        chosen = BuoyancyWorld(g_W=read_gravity(world_file, world_tree))
        origin = "no Buoyancy plugin read: 1000 kg/m^3 assumed"
    if fluid is not None:
        chosen = replace(chosen, kind="uniform", density=fluid_density(None, fluid), layers=())
        origin = f"{option('fluid')} {fluid}"
    elif density is not None:
        chosen = replace(chosen, kind="uniform", density=density, layers=())
        origin = f"{option('density')} {density:g}"
    models = model_hydrostatics(doc.links, chosen, read_model_poses(file, tree))
    if model is not None:
        models = [m for m in models if fnmatchcase(m.name, model)]
        if not models:
            names = bounded(dict.fromkeys(top_scope(lk.name) for lk in doc.links))
            raise GzInertiaError(f"{file}: no model matches {model!r} (models: "
                                 f"{names or 'none'})")
    records = {link.name: link for link in doc.links}
    flotation: dict[str, Flotation | None] = {}
    for m in models:
        for body in m.bodies:
            flotation[body.name] = model_flotation(
                body, [records[link.name] for link in body.links], chosen, waterline, trim)
        # the model's own flotation: its one body's (several free bodies float apart)
        flotation[m.name] = flotation[m.bodies[0].name] if len(m.bodies) == 1 else None
    release, release_links = _release_links(models, records, chosen, target)
    return HydrostaticsResult(file, chosen, origin, tuple(models), flotation, system, release,
                              release_links)


def _release_links(
    models: list[ModelHydrostatics], records: Mapping[str, Any], fluid: BuoyancyWorld,
    target: Target | None,
) -> tuple[ReleaseBuoyancy | None, tuple[LinkReleaseBuoyancy, ...]]:
    """The target's Buoyancy behaviour and each enabled link's collisions under it."""
    if target is None:
        return None, ()

    release = behaviour_of(target)
    return release, tuple(link_release_buoyancy(records[link.name], release, fluid)
                          for m in models for link in m.links if link.enabled)
