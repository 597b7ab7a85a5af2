"""``gzinertia fix``: repair invalid and implausible rigid inertia with a minimal diff."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import gzinertia
import gzinertia.cli
import gzinertia.report
import gzinertia.sdf
from gzinertia.cli.app import LinkOption, app
from gzinertia.cli.flags import Maybe, argument, flag
from gzinertia.cli.library import edited
from gzinertia.cli.options import (
    TOLERANCE_CHOICES_HELP,
    FixMethodChoice,
    ToleranceChoice,
    command_flags,
    edit_mode,
    hull_option,
    model_input_options,
    write_flags,
)
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.geometry import GeometryElement
from gzinertia.vocabulary.model_suffixes import is_urdf_path

if TYPE_CHECKING:
    import gzinertia.cli.delivery
    import gzinertia.report.fix
    import gzinertia.sdf.stdin
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.cli.options import WriteFlags
    from gzinertia.model_input import ModelInput


FileFlag = Annotated[list[Path], argument(
    "SDFormat model or world files, or URDF/xacro files, to repair; - reads one from standard "
    "input and writes the repaired file to standard output (or -o OUT; --check and --diff as for "
    "a file).")]


#: What --density and --mass give a mass to.
_MASSLESS = "Links with no <inertial> (GZI102) or no positive mass (GZI101): "


@dataclass(frozen=True, repr=False, eq=False)
class FixFlags(ValueRecord):
    """``gzinertia fix``'s own flags, in the order ``--help`` lists them."""

    link: LinkOption = None
    select: Annotated[Maybe[str], flag("--select",
        "Repair only these codes (codes or prefixes, e.g. GZI104); default: every code the "
        "method repairs (nearest: GZI103,GZI104; balance: GZI104; geometry: GZI101 and GZI102 "
        "with --density/--mass, GZI103, GZI104, GZI105, GZI107 with --move-com).")] = None
    method: Annotated[FixMethodChoice, flag("--method",
        "nearest: the Frobenius-nearest valid inertia, principal axes kept (round-off, near "
        "misses); geometry: the uniform solid of the collisions with the declared mass (as "
        "libsdformat's auto inertia and Drake's fix_inertia); balance: MuJoCo's balanceinertia "
        "(all moments to their mean).")] = "nearest"
    all_links: Annotated[bool, flag("--all-links",
        "Repair every selected link, not only those with findings (as Drake's fix_inertia "
        "recomputes every link).")] = False
    geometry: Annotated[GeometryElement, flag("--geometry",
        "Geometry for --method geometry: collision (default) or visual (visuals posed "
        "relative_to any frame are placed as libsdformat resolves them).")] = "collision"
    move_com: Annotated[bool, flag("--move-com",
        "--method geometry: move <inertial><pose> to the geometry's centroid (default: keep it "
        "and report how far off it is).")] = False
    density: Annotated[Maybe[float], flag("--density",
        _MASSLESS + "mass = density x geometry volume (kg/m^3).")] = None
    mass: Annotated[Maybe[float], flag("--mass", _MASSLESS + "this mass (kg).")] = None
    tolerance: Annotated[ToleranceChoice, flag("--tolerance",
        f"Which links are invalid: {TOLERANCE_CHOICES_HELP}. The repair satisfies both.")] = "gz"
    json_report: Annotated[bool, flag("--json",
        "Print what changed per link as JSON on stdout (one object per FILE, a list); the text "
        "report still goes to stderr.")] = False

    def repair(self) -> dict[str, Any]:
        """The repair's keywords for :func:`gzinertia.fix` (``--select`` as a list of codes)."""
        return {
            "method": self.method, "links": self.link, "all_links": self.all_links,
            "geometry": self.geometry, "move_com": self.move_com, "density": self.density,
            "mass": self.mass, "tolerance": self.tolerance,
            "select": [s for s in (self.select or "").split(",") if s.strip()],
        }


@app.command()
@hull_option
@model_input_options
@write_flags
@command_flags
def fix(file: FileFlag, flags: FixFlags, *, write: WriteFlags, source: ModelInput) -> None:
    """Repair invalid (GZI101, GZI103, GZI104) and implausible (GZI102, GZI105, GZI107) inertia.

    Writes only the <inertia> children that change (and <pose> with --move-com, a whole
    <inertial> for a link without one), keeps comments and formatting, and says per link what
    changed: the relative change of each principal moment and the centre-of-mass move.
    """
    output, check, diff, json_report = write.output, write.check, write.diff, flags.json_report
    if json_report and diff:
        raise GzInertiaError("--json and --diff both print to stdout: choose one")
    if output is not None and len(file) > 1:
        raise GzInertiaError("-o/--output takes one FILE; use --in-place for several")
    if len(file) > 1 and any(gzinertia.sdf.stdin.is_stdin_arg(f) for f in file):
        raise GzInertiaError("- (standard input) cannot be combined with other FILEs")
    if json_report and (
        gzinertia.sdf.stdin.is_stdin_arg(output)
        or (gzinertia.sdf.stdin.is_stdin_arg(file[0]) and not (check or diff or output))
    ):
        raise GzInertiaError(
            "--json and the repaired file both print to stdout: add -o OUT or --check"
        )
    first, mode = edit_mode(file[0], **write.values())
    if first is not None:
        file = [first, *file[1:]]
    status = run_fix(file, flags.repair(), mode, source, json_report)
    if status:
        raise typer.Exit(status)


def run_fix(
    files: list[Path],
    repair: dict[str, Any],
    mode: WriteMode,
    source: ModelInput,
    json_report: bool = False,
) -> int:
    """Repairs each file (:func:`gzinertia.fix` with the keywords ``repair``), prints what
    changed per link (stderr) and delivers it; the exit status (1 when ``--check`` finds a file
    that would change)."""
    status = 0
    reports = []
    for path in files:
        # URDF/xacro: -m and --package-path give package paths; FILE -: standard input's bytes
        result = edited(gzinertia.fix, path, **repair, model_paths=source.search_paths,
                        xacro_args=source.xacro_mapping if is_urdf_path(path) else None,
                        xacro_env=sorted(source.xacro_env), trust_xacro=source.trust_xacro,
                        data=mode.stdin_data)
        if result.pending:
            status = max(status, 1)
        for line in gzinertia.report.fix.describe_fix(result):
            print(line, file=sys.stderr)
        delivered = gzinertia.cli.delivery.deliver(result.path, result.old, result.new, mode)
        status = max(status, delivered)
        reports.append(gzinertia.report.fix.fix_json(result))
    if json_report:
        sys.stdout.write(json.dumps(reports, indent=2, allow_nan=False) + "\n")
    return status

