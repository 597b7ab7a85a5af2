"""What ``gzinertia migrate`` is asked and what it reports per link, the records both formats'
writers share (:mod:`gzinertia.edit.migrate_sdf`, :mod:`gzinertia.edit.migrate_urdf`) and the
backends' entry point takes (:meth:`gzinertia.edit.model_file.ModelFormat.migrate_edit`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gzinertia.classic.migrate import GzEquivalent
from gzinertia.edit.edit_result import Edit
from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.record_base import Record, ValueRecord
from gzinertia.records import LinkRecord

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = ["TARGETS", "BuoyancyChange", "MigrateRequest", "MigrateResult", "MigratedLink",
           "Plugin"]

#: What ``--to`` accepts: gz-sim (from the classic plugins), or back to UUV Simulator's plugin.
TARGETS = ("gz-sim", "uuv-simulator")
Plugin = Literal["uuv-simulator", "vrx"]


@dataclass(frozen=True, repr=False, eq=False)
class BuoyancyChange(ValueRecord):
    """A UUV link's buoyancy: the volume the plugin floated (``<volume>``, or mass/1028 with
    ``<neutrally_buoyant>``) and the collisions' volume gz-sim's Buoyancy system floats (m³),
    and the net buoyancy of each as a fraction of the weight in the plugin's fluid."""

    plugin_volume: float
    collision_volume: float
    net_plugin: float
    net_gz: float


@dataclass(frozen=True, repr=False, eq=False)
class MigratedLink(Record):
    """One link migrated: the plugin it came from, its gz-sim equivalent (about the link origin
    in link axes), what was written and the buoyancy change (``None`` for VRX, whose hull
    buoyancy is not converted)."""

    link: LinkRecord
    plugin: Plugin
    equivalent: GzEquivalent
    added_mass_written: bool
    terms_written: bool
    buoyancy: BuoyancyChange | None
    #: Where the link went: ``"gz-sim"`` (from ``plugin``), or ``"uuv-simulator"`` (``migrate
    #: --to uuv-simulator``: ``equivalent`` is then what the block written applies in gz-sim
    #: terms, ``added_mass_written`` and ``terms_written`` say what its block holds).
    to: str = "gz-sim"


#: What ``migrate`` made: per link migrated, its outcome.
MigrateResult = Edit[MigratedLink]


@dataclass(frozen=True, repr=False, eq=False)
class MigrateRequest(ValueRecord):
    """What ``migrate`` is asked: the file (``data``: its bytes from standard input), where its
    files are found (model or package paths), whether the classic blocks stay
    (``keep_classic``), values already there are replaced (``force``) and an SDF file older
    than 1.10 is raised to it (``upgrade_version``); a xacro file's ``name:=value`` arguments
    (``xacro_args``) and what its expansion may do (``xacro_policy``, ``None``: the default),
    and where to (``to``)."""

    path: Path
    keep_classic: bool = False
    force: bool = False
    upgrade_version: bool = True
    model_paths: Sequence[str | Path] = ()
    data: bytes | None = None
    xacro_args: Mapping[str, str] | None = None
    xacro_policy: XacroPolicy | None = None
    #: What to migrate to (:data:`TARGETS`): ``"uuv-simulator"`` goes back to the classic
    #: plugin (:mod:`gzinertia.edit.migrate_reverse`).
    to: str = "gz-sim"
    #: The Gazebo release and engine the file is for (:mod:`gzinertia.gazebo.target`).
    target: Target = DEFAULT_TARGET
    #: ``"keep"`` the collisions for gz-sim's Buoyancy, or add a ``"proxy"`` that floats the
    #: declared volume (:mod:`gzinertia.edit.migrate_buoyancy`).
    buoyancy: str = "keep"
