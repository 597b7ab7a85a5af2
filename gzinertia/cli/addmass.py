"""``gzinertia addmass``: write Tuckerman ellipsoid added mass into ``<fluid_added_mass>``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from gzinertia.cli.app import (
    DensityOption,
    FluidOption,
    LinkOption,
    ModelPathOption,
    app,
    deliver_edit,
    fluid_density,
    parse_vector,
)
from gzinertia.cli.options import FitChoice, literal, write_mode_options
from gzinertia.errors import GzInertiaError

if TYPE_CHECKING:
    from gzinertia.edit.addmass import AddMassResult
    from gzinertia.edit.output import WriteMode

__all__ = ["addmass"]


@app.command()
@write_mode_options
def addmass(
    file: Annotated[
        Path,
        typer.Argument(
            help="SDFormat model or world file to edit; or URDF/xacro (gets a <gazebo> "
            "Hydrodynamics block; -m then gives package paths)."
        ),
    ],
    ellipsoid: Annotated[
        bool,
        typer.Option(
            "--ellipsoid", help="Ellipsoid added mass (Tuckerman's closed form); required."
        ),
    ] = False,
    link: LinkOption = None,
    fit: Annotated[
        FitChoice,
        typer.Option(
            help="Ellipsoid fitted to the link: volume (same volume, centroid and principal "
            "axes as its collisions), mujoco (MuJoCo's rule per collision), inertia "
            "(equivalent ellipsoid of the rigid inertia)."
        ),
    ] = FitChoice.volume,
    semi_axes: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--semi-axes", help="Explicit ellipsoid semi-axes a,b,c in metres."),
    ] = None,
    center: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--center", help="Explicit ellipsoid centre x,y,z in the link frame."),
    ] = None,
    rpy: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--rpy", help="Explicit ellipsoid orientation roll,pitch,yaw (radians)."),
    ] = None,
    density: DensityOption = None,
    fluid: FluidOption = None,
    upgrade_version: Annotated[
        bool,
        typer.Option(
            "--upgrade-version/--keep-version",
            help="Declare SDF 1.10 (the version of <fluid_added_mass>) in older files whose "
            "content means the same under 1.10; files where it would not are refused. "
            "--keep-version writes under the old version (the audit then reports GZI201).",
        ),
    ] = True,
    replace_plugin_added_mass: Annotated[
        bool,
        typer.Option(
            "--replace-plugin-added-mass",
            help="For links whose Hydrodynamics plugin applies added mass (<iDotJ>): write the "
            "ellipsoid estimate and set <disable_added_mass>true</disable_added_mass> on the "
            "plugin. Without it such links are skipped (their added mass would count twice).",
        ),
    ] = False,
    allow_overlap: Annotated[
        bool,
        typer.Option(
            "--allow-overlap",
            help="Also write links whose fluid ellipsoid overlaps that of a link with added "
            "mass (skipped by default: the shared fluid would count twice, GZI210).",
        ),
    ] = False,
    model_path: ModelPathOption = None,
    *,
    mode: WriteMode,
) -> None:
    """Compute ellipsoid added mass about each link's origin and write <fluid_added_mass>.

    The matrix is computed about the ellipsoid's centre in its axes, rotated to the link axes
    and moved to the link origin (the spec's point) with the exact change of point. Only
    <fluid_added_mass> changes (plus a comment saying how it was computed); a second run changes
    nothing.
    """
    from gzinertia.edit.addmass import FitChooser, add_mass
    from gzinertia.physics.fits import explicit_fit

    if not ellipsoid:
        raise GzInertiaError("choose the added-mass model: --ellipsoid (Tuckerman's ellipsoid)")
    if semi_axes is not None:
        chooser = FitChooser(
            fixed=explicit_fit(
                parse_vector(semi_axes, "--semi-axes", (0.0, 0.0, 0.0)),
                parse_vector(center, "--center", (0.0, 0.0, 0.0)),
                parse_vector(rpy, "--rpy", (0.0, 0.0, 0.0)),
            )
        )
    elif center is not None or rpy is not None:
        raise GzInertiaError("--center and --rpy go with --semi-axes (an explicit ellipsoid)")
    else:
        chooser = FitChooser(method=literal(fit))
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(file):  # a <gazebo> Hydrodynamics block: URDF has no <fluid_added_mass>
        from gzinertia.urdf.addmass import add_mass_urdf

        result = add_mass_urdf(
            file, fit_for=chooser, density=fluid_density(density, fluid), pattern=link,
            package_paths=model_path or [],
        )
        _report(result)
        deliver_edit(file, result.old, result.new, mode)
        return
    result = add_mass(
        file,
        fit_for=chooser,
        density=fluid_density(density, fluid),
        pattern=link,
        upgrade_version=upgrade_version,
        model_paths=model_path or [],
        replace_plugin_added_mass=replace_plugin_added_mass,
        allow_overlap=allow_overlap,
    )
    _report(result)
    deliver_edit(file, result.old, result.new, mode)


def _of_collisions(names: str | None) -> str:
    """`` (collision a)`` / `` (collisions a, b)`` for an ellipsoid fitted to named collisions."""
    if not names:
        return ""
    parts = names.split("+")
    return f" (collision{'s' if len(parts) > 1 else ''} {', '.join(parts)})"


def _report(result: AddMassResult) -> None:
    """What was computed, on stderr (stdout is kept for --diff)."""
    import numpy as np

    err = sys.stderr
    for item in result.links:
        A = item.A_BBo_B.linear_first()
        print(f"{item.link.name}: {item.fit.description}, {item.density:g} kg/m^3", file=err)
        for e in item.fit.ellipsoids:
            print(
                "  ellipsoid semi-axes "
                + " ".join(f"{v:.4g}" for v in e.semi_axes)
                + " m, centre "
                + " ".join(f"{v:.4g}" for v in e.X_FE.p)
                + " m in the link frame"
                + _of_collisions(e.label),
                file=err,
            )
        print(
            "  A_BBo_B diag [x y z p q r] "
            + " ".join(f"{v:.4g}" for v in np.diag(A))
            + f"; max |off-diagonal| {float(np.max(np.abs(A - np.diag(np.diag(A))))):.4g}",
            file=err,
        )
    for skipped in result.skipped:
        print(f"skipped {skipped}", file=err)
    for note in result.notes:
        print(f"note: {note}", file=err)
    for warning in result.warnings:
        print(f"warning: {warning}", file=err)
    if not result.links:
        print(f"{result.path}: no link to write added mass for", file=err)
