"""``gzinertia hydro``: Hydrodynamics plugin damping from MuJoCo's ellipsoid drag model."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from gzinertia.cli.app import (
    CheckOption,
    DensityOption,
    DiffOption,
    FluidOption,
    ForceReadonlyOption,
    InPlaceOption,
    ModelPathOption,
    OutputOption,
    app,
    deliver_edit,
    fluid_density,
)
from gzinertia.errors import GzInertiaError

WATER_VISCOSITY = 1.0e-3  # Pa·s, fresh water near 20 °C


def _coefficients(text: str | None) -> object:
    from gzinertia.fluid_forces import EllipsoidFluidCoefficients

    if text is None:
        return EllipsoidFluidCoefficients()
    try:
        values = [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        values = []
    if len(values) != 5:
        raise GzInertiaError(
            "--coefs takes 5 numbers: blunt drag, slender drag, angular drag, Kutta lift, "
            f"Magnus lift (MuJoCo's fluidcoef), not {text!r}"
        )
    return EllipsoidFluidCoefficients(*values)


@app.command()
def hydro(
    file: Annotated[Path, typer.Argument(help="SDFormat model or world file to edit.")],
    link: Annotated[str, typer.Option("--link", "-l", help="Glob on scoped link names.")],
    fit: Annotated[
        str, typer.Option(help="Ellipsoid fit: volume, mujoco or inertia.")
    ] = "volume",
    density: DensityOption = None,
    fluid: FluidOption = None,
    viscosity: Annotated[
        float, typer.Option(help="Dynamic viscosity in Pa·s (MuJoCo's viscosity).")
    ] = WATER_VISCOSITY,
    coefs: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="MuJoCo's 5 fluidcoef: blunt, slender, angular, Kutta, Magnus."),
    ] = None,
    couplings: Annotated[
        bool, typer.Option(help="Also write cross terms from an offset ellipsoid centre.")
    ] = False,
    output: OutputOption = None,
    in_place: InPlaceOption = False,
    check: CheckOption = False,
    diff: DiffOption = False,
    model_path: ModelPathOption = None,
    force_readonly: ForceReadonlyOption = False,
) -> None:
    """Write Gazebo Hydrodynamics damping terms derived from MuJoCo's ellipsoid drag model.

    Projects the drag along each link axis (exact for motion along one axis, approximate for
    combined motion) into xUabsU.. and xU.. terms with Gazebo's (negative) sign, creating or
    updating the link's plugin; see docs/fluid_forces.md.
    """
    from gzinertia.commands.hydro import hydro as run_hydro
    from gzinertia.edit.output import WriteMode
    from gzinertia.fits import FIT_METHODS

    if fit not in FIT_METHODS or fit == "explicit":
        raise GzInertiaError(f"--fit must be volume, mujoco or inertia, not {fit!r}")
    mode = WriteMode(output, in_place, check, diff, force_readonly=force_readonly)
    result = run_hydro(
        file,
        pattern=link,
        method=fit,  # type: ignore[arg-type]
        density=fluid_density(density, fluid),
        viscosity=viscosity,
        coefs=_coefficients(coefs),  # type: ignore[arg-type]
        couplings=couplings,
        model_paths=model_path or [],
    )
    for item in result.links:
        quad = " ".join(f"{item.terms[n]:.4g}" for n in
                        ("xUabsU", "yVabsV", "zWabsW", "kPabsP", "mQabsQ", "nRabsR"))
        action = "new plugin" if item.created_plugin else "plugin updated"
        print(f"{item.link.name}: {item.fit.description}; {action}; quadratic {quad}",
              file=sys.stderr)
    for skipped in result.skipped:
        print(f"skipped {skipped}", file=sys.stderr)
    deliver_edit(file, result.old, result.new, mode)
