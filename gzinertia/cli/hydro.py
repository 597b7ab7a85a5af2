"""``gzinertia hydro``: Hydrodynamics plugin damping from MuJoCo's ellipsoid drag model."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia
from gzinertia.arguments import fluid_density
from gzinertia.cli.app import (
    DensityOption,
    FluidOption,
    app,
)
from gzinertia.cli.edit_report import report_outcome
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import EditedFileArgument, FitChoice, editing_options, sdf_only
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.fluids import WATER_VISCOSITY

if TYPE_CHECKING:
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.model_input import ModelInput
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

__all__ = ["HYDRO_DEFAULT_FIT", "HydroFlags", "hydro"]

#: hydro's default fit: the damping model is MuJoCo's ellipsoid drag, and MuJoCo puts one
#: ellipsoid on each geom by its own rule, so only this fit reproduces MuJoCo's wrench.
HYDRO_DEFAULT_FIT: FitChoice = "mujoco"


def _coefficients(text: str | None) -> EllipsoidFluidCoefficients:
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

    if text is None:
        return EllipsoidFluidCoefficients()
    from gzinertia.numbers import NumberError, read_number

    try:
        values = [read_number(v) for v in text.replace(",", " ").split()]
    except NumberError:
        values = []
    if len(values) != 5:
        raise GzInertiaError(
            "--coefs takes 5 numbers: blunt drag, slender drag, angular drag, Kutta lift, "
            f"Magnus lift (MuJoCo's fluidcoef), not {text!r}"
        )
    return EllipsoidFluidCoefficients(*values)


@dataclass(frozen=True, repr=False, eq=False)
class HydroFlags(ValueRecord):
    """``gzinertia hydro``'s own flags, in the order ``--help`` lists them (``--link`` is
    required)."""

    link: Annotated[str, typer.Option("--link", "-l", help="Glob on scoped link names.")]
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


@app.command()
@editing_options
def hydro(
    file: EditedFileArgument, flags: HydroFlags, *, mode: WriteMode, source: ModelInput
) -> None:
    """Write Gazebo Hydrodynamics damping terms derived from MuJoCo's ellipsoid drag model.

    A first estimate for vehicles without identified coefficients: for slender AUVs it is tens
    of times off identified drag (docs/fluid_forces.md). Terms the plugin already has are
    replaced only with --force.

    Projects the drag along each link axis into xUabsU.. and xU.. terms with Gazebo's (negative)
    sign, creating or updating the link's plugin. With the default --fit mujoco the plugin
    applies MuJoCo's fluid wrench exactly for motion along one link axis (approximate for
    combined motion); see docs/fluid_forces.md.
    """
    fit, cross_terms = flags.fit, flags.cross_terms
    result = edited(gzinertia.hydro, file, flags.link, method=fit,
                    density=fluid_density(flags.density, flags.fluid),
                    viscosity=flags.viscosity, coefficients=_coefficients(flags.coefs),
                    couplings=flags.couplings, model_paths=sdf_only(file, source, "hydro"),
                    cross_terms=cross_terms, force=flags.force, data=mode.stdin_data)
    for item in result.links:
        quad = " ".join(f"{item.terms[n]:.4g}" for n in
                        ("xUabsU", "yVabsV", "zWabsW", "kPabsP", "mQabsQ", "nRabsR"))
        action = "new plugin" if item.created_plugin else "plugin updated"
        print(f"{item.link.name}: {item.fit.description}; {action}; quadratic {quad}",
              file=sys.stderr)
    for item in result.links:
        if item.combined is not None:
            c = item.combined
            print(f"{item.link.name}: combined motion vs MuJoCo's drag: translation median "
                  f"{100 * c.translation_median:.3g} %, max {100 * c.translation_max:.3g} %; "
                  f"rotation median {100 * c.rotation_median:.3g} %, max "
                  f"{100 * c.rotation_max:.3g} %"
                  + ("" if cross_terms or max(c) < 1e-6 else " (--cross-terms can reduce it)"),
                  file=sys.stderr)
    if result.links and fit != HYDRO_DEFAULT_FIT:
        print(f"note: --fit {fit}: MuJoCo's drag law on the {fit}-fit ellipsoid, "
              "not on MuJoCo's own per-collision ellipsoids: the terms do not reproduce a "
              "MuJoCo run of this model (--fit mujoco does)", file=sys.stderr)
    report_outcome(result)  # (hydro notes nothing: its one note is the --fit line above)
    deliver_edit(result, mode)
