"""``gzinertia migrate``: classic marine plugins (UUV Simulator, VRX) to gz-sim."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

import gzinertia
from gzinertia.cli.addmass_options import UpgradeVersionFlag
from gzinertia.cli.app import app
from gzinertia.cli.edit_report import report_outcome
from gzinertia.cli.flags import flag
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import EditedFileArgument, editing_options
from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.edit.migrate import MigratedLink
    from gzinertia.model_input import ModelInput

__all__ = ["MigrateFlags", "migrate"]


@dataclass(frozen=True, repr=False, eq=False)
class MigrateFlags(ValueRecord):
    """``gzinertia migrate``'s own flags, in the order ``--help`` lists them."""

    to: Annotated[Literal["gz-sim"], flag("", "What to migrate to: gz-sim.")] = "gz-sim"
    keep_classic: Annotated[bool, flag("",
        "Keep the classic plugin blocks (Gazebo classic still applies them; gz-sim ignores "
        "them).")] = False
    force: Annotated[bool, flag("",
        "Replace a <fluid_added_mass> or Hydrodynamics terms the link has already.")] = False
    upgrade_version: UpgradeVersionFlag = True


def _summary(item: MigratedLink) -> str:
    eq = item.equivalent
    written = [what for what, done in (("added mass", item.added_mass_written),
                                       (f"{len(eq.damping)} Hydrodynamics terms",
                                        item.terms_written)) if done]
    line = f"{item.link.name}: from {item.plugin}: " + (" and ".join(written) or "nothing")
    if item.buoyancy is not None:
        b = item.buoyancy
        line += f"; net buoyancy {b.net_plugin:+.1%} -> {b.net_gz:+.1%} of the weight"
    return line


@app.command()
@editing_options
def migrate(
    file: EditedFileArgument, flags: MigrateFlags, *, mode: WriteMode, source: ModelInput
) -> None:
    """Write UUV Simulator's and VRX's classic plugin blocks as their gz-sim equivalent.

    Added mass to <fluid_added_mass> about the link origin in link axes (the symmetric part,
    the rest reported; in a URDF, the Hydrodynamics plugin's terms), damping to gz-sim
    Hydrodynamics terms (gz-sim's sign), buoyancy left to gz-sim's Buoyancy system with the
    net-buoyancy change reported (docs/migrate.md).
    """
    edit = edited(gzinertia.migrate, file, to=flags.to, keep_classic=flags.keep_classic,
                  force=flags.force, upgrade_version=flags.upgrade_version,
                  model_paths=source.search_paths, data=mode.stdin_data)
    for item in edit.links:
        print(_summary(item), file=sys.stderr)
    report_outcome(edit)
    deliver_edit(edit, mode)
