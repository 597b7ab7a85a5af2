"""``gzinertia convert``: Hydrodynamics plugin ``<iDotJ>`` terms ⇄ ``<fluid_added_mass>``."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated

import gzinertia
from gzinertia.cli.app import LinkOption, app
from gzinertia.cli.edit_report import report_outcome
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import CommandFile, SignChoice, editing_command
from gzinertia.cli.target_options import engine_flag, gazebo_flag
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord

__all__ = ["ConvertFlags", "convert"]


@dataclass(frozen=True, repr=False, eq=False)
class ConvertFlags(ValueRecord):
    """``gzinertia convert``'s own flags, in the order ``--help`` lists them."""

    hydro_to_sdf: Annotated[bool, flag("--hydro-to-sdf",
        "Plugin <iDotJ> terms -> <fluid_added_mass>.")] = False
    sdf_to_hydro: Annotated[bool, flag("--sdf-to-hydro",
        "<fluid_added_mass> -> plugin <iDotJ> terms.")] = False
    sign: Annotated[SignChoice, flag("",
        "Sign of the <iDotJ> values: fossen (negative derivatives, A = -D), physical (A = D), or "
        "auto (from the diagonal; --hydro-to-sdf only).")] = "auto"
    remove_plugin_terms: Annotated[bool, flag("--remove-plugin-terms",
        "Delete the plugin's <iDotJ> terms instead of setting <disable_added_mass>.")] = False
    force: Annotated[bool, flag("", "Replace an existing <fluid_added_mass>.")] = False
    upgrade_version: Annotated[bool, flag("--upgrade-version/--keep-version",
        "--hydro-to-sdf: declare SDF 1.10 (the version of <fluid_added_mass>) in older files "
        "whose content means the same under 1.10, refuse the others; --keep-version keeps the "
        "old version (the audit then reports GZI201).")] = True
    link: LinkOption = None
    gazebo: Annotated[Maybe[str], gazebo_flag(
        "jetty, the newest stable", "a move that release would ignore or deprecates is refused")
    ] = None
    engine: Annotated[Maybe[str], engine_flag(
        "dartsim", "--sdf-to-hydro is for engines that ignore <fluid_added_mass> "
        "(bullet-featherstone, bullet, tpe).")] = None


@app.command()
@editing_command
def convert(flags: ConvertFlags, file: CommandFile) -> None:
    """Move added mass between Gazebo's Hydrodynamics plugin and <fluid_added_mass>.

    Either way it is counted once: the plugin's own added mass is disabled (or its terms
    removed) when the element is written, and the element is removed when the terms are.

    --sdf-to-hydro: gz-sim's plugin applies all 36 terms as Ma*nu_dot but builds its
    Coriolis-centripetal term from their diagonal only, with the sign of the values (Fossen's
    negative values reverse it); for a matrix with couplings the command prints how much of that
    wrench is lost. See docs/added_mass.md.
    """
    if flags.hydro_to_sdf == flags.sdf_to_hydro:
        raise GzInertiaError("choose one direction: --hydro-to-sdf or --sdf-to-hydro")
    result = edited(gzinertia.convert, file.path, to="sdf" if flags.hydro_to_sdf else "hydro",
                    sign=flags.sign, links=flags.link,
                    remove_plugin_terms=flags.remove_plugin_terms, force=flags.force,
                    upgrade_version=flags.upgrade_version,
                    model_paths=file.sdf_search_paths("convert"), data=file.data,
                    gazebo=flags.gazebo, engine=flags.engine)
    for item in result.links:
        print(
            f"{item.link.name}: {item.sign} sign; A_BBo_B diagonal "
            + " ".join(f"{v:.4g}" for v in item.A_BBo_B.linear_first().diagonal()),
            file=sys.stderr,
        )
    report_outcome(result)
    if not result.links:
        print(f"{file.path}: {_nothing_converted(result.skipped)}", file=sys.stderr)
    deliver_edit(result, file.mode)


def _nothing_converted(skipped: tuple[str, ...]) -> str:
    """The closing line of a conversion that wrote no link: nothing to convert, or how many
    links it skipped (each said above with why)."""
    if not skipped:
        return "no link had added mass to convert"
    links = f"{len(skipped)} link{'s' if len(skipped) > 1 else ''}"
    return f"no link converted: {links} skipped (above)"
