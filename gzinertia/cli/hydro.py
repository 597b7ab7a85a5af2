"""``gzinertia hydro``: Hydrodynamics plugin damping from MuJoCo's ellipsoid drag model, or from
the link's geometry by strip theory or per-member drag (``--method``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

import gzinertia
import gzinertia.physics
from gzinertia.arguments import fluid_density
from gzinertia.cli.app import (
    DensityOption,
    FluidOption,
    app,
)
from gzinertia.cli.edit_report import report_outcome
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import CommandFile, FitChoice, editing_command
from gzinertia.cli.target_options import engine_flag, gazebo_flag
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.fluids import WATER_VISCOSITY

if TYPE_CHECKING:
    import gzinertia.numbers
    import gzinertia.physics.fluid_forces
    from gzinertia.edit.hydro import LinkDamping

__all__ = ["HYDRO_DEFAULT_FIT", "HydroFlags", "hydro"]

#: hydro's default fit: the damping model is MuJoCo's ellipsoid drag, and MuJoCo puts one
#: ellipsoid on each geom by its own rule, so only this fit reproduces MuJoCo's wrench.
HYDRO_DEFAULT_FIT: FitChoice = "mujoco"


def _coefficients(text: str | None) -> gzinertia.physics.fluid_forces.EllipsoidFluidCoefficients:
    if text is None:
        return gzinertia.physics.fluid_forces.EllipsoidFluidCoefficients()

    try:
        values = [gzinertia.numbers.read_number(v) for v in text.replace(",", " ").split()]
    except gzinertia.numbers.NumberError:
        values = []
    if len(values) != 5:
        raise GzInertiaError(
            "--coefs takes 5 numbers: blunt drag, slender drag, angular drag, Kutta lift, "
            f"Magnus lift (MuJoCo's fluidcoef), not {text!r}"
        )
    return gzinertia.physics.fluid_forces.EllipsoidFluidCoefficients(*values)


MethodChoice = Literal["mujoco", "strip", "morison", "auto"]


@dataclass(frozen=True, repr=False, eq=False)
class HydroFlags(ValueRecord):
    """``gzinertia hydro``'s own flags, in the order ``--help`` lists them (``--link`` is
    required)."""

    link: Annotated[str, typer.Option("--link", "-l", help="Glob on scoped link names.")]
    method: Annotated[MethodChoice, flag("",
        "Damping model: mujoco (MuJoCo's ellipsoid drag, the default), strip (slender hulls: skin "
        "friction and strip-theory cross-flow drag), morison (bluff bodies and frames: per-member "
        "drag from tabulated coefficients), auto (strip or morison, chosen per link from its "
        "shape). See docs/damping.md.")] = "mujoco"
    speed: Annotated[Maybe[float], flag("",
        "Design speed in m/s for strip theory's skin-friction Reynolds number (default "
        "1.5).")] = None
    fins: Annotated[Maybe[Path], flag("--fins", "Strip theory's fins: a TOML file of [[fin]] "
        "tables (link, name, center, normal, area, aspect_ratio or lift_slope, in link frame; "
        "docs/damping.md), whose lift and cross-flow drag join the hull's.")] = None
    fit: Annotated[FitChoice, flag("",
        "Ellipsoid fit: mujoco (MuJoCo's ellipsoid per collision: reproduces MuJoCo's drag along "
        "each axis), volume or inertia (MuJoCo's drag law on another "
        "ellipsoid).")] = HYDRO_DEFAULT_FIT
    density: DensityOption = None
    fluid: FluidOption = None
    viscosity: Annotated[float, flag("",
        "Dynamic viscosity in Pa·s (MuJoCo's viscosity).")] = WATER_VISCOSITY
    coefs: Annotated[Maybe[str], flag("",
        "MuJoCo's 5 fluidcoef: blunt, slender, angular, Kutta, Magnus.")] = None
    couplings: Annotated[bool, flag("",
        "Also write cross terms from an offset ellipsoid centre.")] = False
    cross_terms: Annotated[bool, flag("",
        "Also write quadratic cross terms (xUabsV, kPabsQ, ...) fitted to MuJoCo's drag over all "
        "directions: smaller error for combined motion (implies --couplings).")] = False
    force: Annotated[bool, flag("",
        "Replace damping terms the link's plugin already has (they may be identified values, "
        "better than this estimate; values more than 2x apart are reported).")] = False
    gazebo: Annotated[Maybe[str], gazebo_flag("the settings' gazebo, else jetty")] = None
    engine: Annotated[Maybe[str], engine_flag(
        "the settings' engine, else dartsim",
        "where it ignores <fluid_added_mass>, a link's plugin keeps its own added mass on.")
    ] = None


@app.command()
@editing_command
def hydro(flags: HydroFlags, file: CommandFile) -> None:
    """Write Gazebo Hydrodynamics damping terms derived from MuJoCo's ellipsoid drag model, or
    (--method) from the link's geometry by published methods.

    A first estimate for vehicles without identified coefficients: MuJoCo's model is tens of
    times off identified drag for slender AUVs (docs/fluid_forces.md); strip theory and
    per-member drag come with their uncertainty band (docs/damping.md). Terms the plugin already
    has are replaced only with --force.

    Projects the drag along each link axis into xUabsU.. and xU.. terms with Gazebo's (negative)
    sign, creating or updating the link's plugin. With the default --fit mujoco the plugin
    applies MuJoCo's fluid wrench exactly for motion along one link axis (approximate for
    combined motion); see docs/fluid_forces.md.
    """
    fit, cross_terms, method = flags.fit, flags.cross_terms, flags.method
    result = edited(gzinertia.hydro, file.path, flags.link, method=method, fit=fit,
                    speed=flags.speed, density=fluid_density(flags.density, flags.fluid),
                    viscosity=flags.viscosity, coefficients=_coefficients(flags.coefs),
                    couplings=flags.couplings, model_paths=file.sdf_search_paths("hydro"),
                    cross_terms=cross_terms, force=flags.force, data=file.data, fins=flags.fins,
                    gazebo=flags.gazebo, engine=flags.engine)
    for item in result.links:
        _print_link(item)
    for item in result.links:
        if item.combined is not None:
            c = item.combined
            print(f"{item.link.name}: combined motion vs MuJoCo's drag: translation median "
                  f"{100 * c.translation_median:.3g} %, max {100 * c.translation_max:.3g} %; "
                  f"rotation median {100 * c.rotation_median:.3g} %, max "
                  f"{100 * c.rotation_max:.3g} %"
                  + ("" if cross_terms or max(c) < 1e-6 else " (--cross-terms can reduce it)"),
                  file=sys.stderr)
    if result.links and fit != HYDRO_DEFAULT_FIT and method == "mujoco":
        print(f"note: --fit {fit}: MuJoCo's drag law on the {fit}-fit ellipsoid, "
              "not on MuJoCo's own per-collision ellipsoids: the terms do not reproduce a "
              "MuJoCo run of this model (--fit mujoco does)", file=sys.stderr)
    report_outcome(result)  # (hydro notes nothing: its one note is the --fit line above)
    deliver_edit(result, file.mode)


def _print_link(item: LinkDamping) -> None:
    """The link's line on stderr: where the terms come from, what was done, the diagonal."""
    quad = " ".join(f"{item.terms.get(n, 0.0):.4g}" for n in
                    ("xUabsU", "yVabsV", "zWabsW", "kPabsP", "mQabsQ", "nRabsR"))
    action = "new plugin" if item.created_plugin else "plugin updated"
    what = item.fit.description if item.fit is not None else ""
    if item.estimate is not None:
        what = item.estimate.summary()
    print(f"{item.link.name}: {what}; {action}; quadratic {quad}", file=sys.stderr)
    if item.estimate is not None:
        for line in (*item.estimate.assumptions, "valid for " + item.estimate.validity):
            print(f"{item.link.name}:   {line}", file=sys.stderr)
