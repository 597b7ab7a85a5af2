"""The audit's target: which Gazebo release and which physics engine will run the model.

Chosen with precedence command line > settings > world > default: ``--gazebo``/``--engine``,
the settings' ``gazebo``/``engine`` keys, the engine a world file's Physics system names
(:func:`engine_of_plugin`, read per world document by
:func:`gzinertia.gazebo.world_engine.world_engine`), and the newest
stable release with gz-sim's default engine (:data:`~gzinertia.gazebo.releases.DEFAULT_RELEASE`,
:data:`~gzinertia.gazebo.releases.DEFAULT_ENGINE`). Each part keeps its origin, said in every
report. NumPy-free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from gzinertia.errors import SettingError
from gzinertia.gazebo.releases import (
    CHANGES,
    DEFAULT_ENGINE,
    DEFAULT_RELEASE,
    ENGINES,
    RELEASES,
    Release,
)
from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.records import SdfDocument

__all__ = [
    "DEFAULT_TARGET",
    "ENGINE_ALIASES",
    "Target",
    "engine_named",
    "engine_of_plugin",
    "named_target",
    "refuse_added_mass_move",
    "refuse_ignored_element",
    "release_named",
]

#: Other spellings of an engine's name (DART's own name).
ENGINE_ALIASES = {"dart": "dartsim"}

#: A physics engine plugin's file name: ``[lib](gz|ignition)-physics[N]-NAME-plugin[.so]``.
_ENGINE_FILE = re.compile(
    r"^(?:lib)?(?:gz|ignition)-physics\d*-(?P<name>[a-z-]+?)-plugin(?:\.so)?$"
)


def release_named(name: str) -> str | None:
    """The release codename ``name`` spells (any case), or ``None``."""
    key = name.strip().lower()
    return key if key in RELEASES else None


def engine_named(name: str) -> str | None:
    """The gz-physics engine ``name`` spells (any case; ``dart`` for ``dartsim``), or ``None``."""
    key = name.strip().lower()
    key = ENGINE_ALIASES.get(key, key)
    return key if key in ENGINES else None


@dataclass(frozen=True, repr=False, eq=False)
class Target(ValueRecord):
    """A Gazebo release (codename of :data:`~gzinertia.gazebo.releases.RELEASES`) and a
    physics engine (of :data:`~gzinertia.gazebo.releases.ENGINES`), each with where it came
    from: ``"command line"``, the settings file, ``"world FILE:LINE"`` or ``"default"``."""

    release: str = DEFAULT_RELEASE
    engine: str = DEFAULT_ENGINE
    release_origin: str = "default"
    engine_origin: str = "default"

    @property
    def info(self) -> Release:
        """The release's row of the table."""
        return RELEASES[self.release]

    def has(self, key: str) -> bool:
        """Whether the target release has the change ``key`` of
        :data:`~gzinertia.gazebo.releases.CHANGES` (its newest tag does)."""
        return CHANGES[key].in_release(self.release)

    def reads(self, doc: SdfDocument) -> SdfDocument:
        """``doc`` as this release's libsdformat reads it where it differs from the newest:
        ``<inertial auto="true">`` not resolved before gazebosim/sdformat#1299 (Fortress,
        Garden), the inertial as written (:meth:`~gzinertia.records.SdfDocument.
        with_written_inertials`)."""
        return doc if self.resolves_auto_inertial else doc.with_written_inertials()

    @property
    def resolves_auto_inertial(self) -> bool:
        """Whether this release's libsdformat resolves ``<inertial auto="true">`` from the
        collisions (gazebosim/sdformat#1299: Harmonic on); before, the inertial as written."""
        return self.has("sdformat-auto-inertial")

    @property
    def applies_fluid_added_mass(self) -> bool:
        """Whether ``<fluid_added_mass>`` reaches the link's dynamics: gz-sim passes it on
        (gz-sim#1592) and the engine is dartsim with gz-physics#384."""
        return (self.engine == "dartsim" and self.has("fluid-added-mass-read")
                and self.has("dartsim-fluid-added-mass"))

    def words(self) -> str:
        """``Gazebo Jetty (gz-sim10_10.4.0, default), engine dartsim (default)``."""
        info = self.info
        return (f"Gazebo {info.title} ({info.newest}, {self.release_origin}), engine "
                f"{self.engine} ({self.engine_origin})")

    def as_json(self) -> dict[str, str]:
        """The target as JSON: release, its gz-sim tag, engine, and both origins."""
        return {"gazebo": self.release, "gz_sim": self.info.newest, "engine": self.engine,
                "gazebo_origin": self.release_origin, "engine_origin": self.engine_origin}

    def with_world(self, engine: str | None, origin: str) -> Target:
        """This target with a world's engine, unless the engine came from the command line
        or the settings (which win over the world)."""
        if engine is None or self.engine_origin != "default":
            return self
        return replace(self, engine=engine, engine_origin=origin)

    def with_names(self, release: str | None, engine: str | None, origin: str) -> Target:
        """This target with the ``release`` and ``engine`` named (keys of the table; each
        ``None``: kept), both from ``origin``; not checked against each other
        (:meth:`engine_missing`)."""
        changes: dict[str, str] = {}
        if release is not None:
            changes.update(release=release, release_origin=origin)
        if engine is not None:
            changes.update(engine=engine, engine_origin=origin)
        return replace(self, **changes)

    def engine_missing(self) -> str | None:
        """Why the engine is not in the release's gz-physics, or ``None`` when it is."""
        engine = ENGINES[self.engine]
        if self.release in engine.releases:
            return None
        return (f"engine {self.engine} is not in Gazebo {self.info.title}'s "
                f"{self.info.gz_physics} (first in {engine.first})")


#: The default target: the newest stable release, gz-sim's default engine.
DEFAULT_TARGET = Target()


def named_target(gazebo: str | None, engine: str | None, origin: str = "asked for") -> Target:
    """The default target with the release ``gazebo`` and the engine ``engine`` named (each
    ``None``: the default's), both from ``origin``. Raises
    :class:`~gzinertia.errors.SettingError` (key ``gazebo`` or ``engine``) for a name the table
    does not hold, or an engine the release's gz-physics does not ship."""
    release = DEFAULT_TARGET.release if gazebo is None else release_named(gazebo)
    if release is None:
        raise SettingError("gazebo", "{gazebo} must be one of {known}, not {value!r}",
                           known=", ".join(RELEASES), value=gazebo)
    chosen = engine and engine_named(engine)
    if engine is not None and chosen is None:
        raise SettingError("engine", "{engine} must be one of {known}, not {value!r}",
                           known=", ".join(ENGINES), value=engine)
    target = DEFAULT_TARGET.with_names(None if gazebo is None else release, chosen or None,
                                       origin)
    missing = target.engine_missing()
    if missing is not None:
        raise SettingError("engine", "{engine}: {missing}", missing=missing)
    return target


def refuse_ignored_element(target: Target, writer: str, instead: str) -> None:
    """Raises :class:`~gzinertia.errors.SettingError` (key ``engine``) when ``target`` does
    not apply ``<fluid_added_mass>`` (the audit's GZI601 would report what ``writer`` writes):
    the message names ``writer`` and the target, then ``instead`` (the way out for that
    target), then the target that applies the element. ``writer`` and ``instead`` are
    :class:`~gzinertia.errors.SettingError` templates (``{key}`` spells an option)."""
    if target.applies_fluid_added_mass:
        return
    raise SettingError(
        "engine", writer + " writes <fluid_added_mass>, which {target} ignores (the audit's "
        "GZI601): " + instead + ", or name the target that applies the element "
        "({engine_dartsim}, from Garden)", target=target.words())


def refuse_added_mass_move(to: str, target: Target) -> None:
    """Refuses ``convert``'s move of added mass to ``to`` (``"sdf"``: ``<fluid_added_mass>``,
    ``"hydro"``: the Hydrodynamics plugin's ``<iDotJ>``) where ``target`` does not apply it
    (GZI601) or deprecates it where its engine applies the other (GZI602)."""
    if to == "sdf":
        refuse_ignored_element(target, "{hydro_to_sdf}", "keep the plugin's added mass")
    if (to == "hydro" and target.applies_fluid_added_mass
            and target.has("hydro-added-mass-deprecated")):
        raise SettingError(
            "engine", "{sdf_to_hydro} moves the added mass into the Hydrodynamics plugin, which "
            "{target} deprecates where DART applies <fluid_added_mass> itself (gz-sim#2493, the "
            "audit's GZI602): convert only for an engine that ignores the element "
            "({engine_without_element}) or a release before Ionic ({gazebo_harmonic})",
            target=target.words())


def engine_of_plugin(filename: str) -> str | None:
    """The engine a physics engine plugin's file name loads
    (``gz-physics-bullet-featherstone-plugin``, ``libignition-physics5-dartsim-plugin.so``),
    or ``None`` when it names none of gz-physics' engines."""
    m = _ENGINE_FILE.match(filename.strip())
    return None if m is None else engine_named(m.group("name"))
