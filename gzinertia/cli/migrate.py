"""``gzinertia migrate``: classic marine plugins (UUV Simulator, VRX) to gz-sim."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

import typer

import gzinertia
from gzinertia.cli.addmass_options import UpgradeVersionFlag
from gzinertia.cli.app import app
from gzinertia.cli.edit_report import report_outcome
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import EditedFileArgument, editing_options
from gzinertia.cli.target_options import engine_flag, gazebo_flag
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.report.migrate import migrate_json, migrated_line

if TYPE_CHECKING:
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.model_input import ModelInput

__all__ = ["MigrateFlags", "migrate"]


@dataclass(frozen=True, repr=False, eq=False)
class MigrateFlags(ValueRecord):
    """``gzinertia migrate``'s own flags, in the order ``--help`` lists them."""

    to: Annotated[Literal["gz-sim", "uuv-simulator"], flag("",
        "What to migrate to: gz-sim (from the classic plugins), or uuv-simulator (gz-sim's "
        "added mass and Hydrodynamics terms back to UUV Simulator's plugin).")] = "gz-sim"
    keep_classic: Annotated[bool, flag("",
        "Keep the classic plugin blocks (Gazebo classic still applies them; gz-sim ignores "
        "them).")] = False
    force: Annotated[bool, flag("",
        "Replace a <fluid_added_mass> or Hydrodynamics terms the link has already.")] = False
    upgrade_version: UpgradeVersionFlag = True
    buoyancy: Annotated[Literal["keep", "proxy"], flag("",
        "keep: gz-sim's Buoyancy system floats the collisions (the change in net buoyancy is "
        "said); proxy: add a sphere that collides with nothing so that it floats the plugin's "
        "declared volume at its centre of buoyancy (SDFormat; docs/migrate.md).")] = "keep"
    gazebo: Annotated[Maybe[str], gazebo_flag(
        "jetty, the newest stable", "<fluid_added_mass> is refused where it is ignored")] = None
    engine: Annotated[Maybe[str], engine_flag(
        "dartsim", "an SDFormat file's added mass goes to <fluid_added_mass>, which only "
        "dartsim applies; URDF's to the Hydrodynamics plugin.")] = None
    json_report: Annotated[bool, flag("--json",
        "Print what was migrated per link, and the blocks not written with what to write by "
        "hand, as JSON on stdout; the text report still goes to stderr.")] = False


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
    if flags.json_report and (mode.to_stdout or mode.diff):
        raise GzInertiaError("--json and the migrated file or its diff both print to stdout: "
                             "add -o OUT, --in-place or --check")
    edit = edited(gzinertia.migrate, file, to=flags.to, keep_classic=flags.keep_classic,
                  force=flags.force, upgrade_version=flags.upgrade_version,
                  model_paths=source.search_paths, data=mode.stdin_data,
                  xacro_args=source.xacro_mapping, xacro_env=sorted(source.xacro_env),
                  trust_xacro=source.trust_xacro, gazebo=flags.gazebo, engine=flags.engine,
                  buoyancy=flags.buoyancy)
    for item in edit.links:
        print(migrated_line(item), file=sys.stderr)
    report_outcome(edit)
    sys.stderr.writelines(f"not written: {line}\n" for line in edit.pending)
    if flags.json_report:
        sys.stdout.write(migrate_json(edit) + "\n")
    deliver_edit(edit, mode)
    if edit.pending:  # a block left to write by hand: the file is not migrated
        raise typer.Exit(1)
