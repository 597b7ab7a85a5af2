"""``gzinertia addmass``: write Tuckerman ellipsoid added mass into ``<fluid_added_mass>``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

import typer

from gzinertia.cli.app import (
    DensityOption,
    FluidOption,
    LinkOption,
    app,
    deliver_edit,
    fluid_density,
    parse_vector,
)
from gzinertia.cli.options import FitChoice, hull_option, model_input_options, write_mode_options
from gzinertia.errors import GzInertiaError

if TYPE_CHECKING:
    from gzinertia.edit.edit_result import Edit
    from gzinertia.edit.output import WriteMode
    from gzinertia.model_input import ModelInput

__all__ = ["addmass"]


# duplicates: typer option declarations (shared ones live in cli/options.py), alike by shape only
@app.command()
@hull_option
@write_mode_options
@model_input_options
def addmass(
    file: Annotated[
        Path,
        typer.Argument(
            help="SDFormat model or world file to edit; or URDF/xacro (gets a <gazebo> "
            "Hydrodynamics block); - reads SDFormat from "
            "standard input and writes the edited file to standard output (or -o OUT)."
        ),
    ],
    ellipsoid: Annotated[
        bool,
        typer.Option(
            "--ellipsoid", help="Ellipsoid added mass (Tuckerman's closed form); required."
        ),
    ] = False,
    bem: Annotated[
        bool,
        typer.Option(
            "--bem",
            help="Added mass of the link's collision geometry by a boundary-element solve "
            "(Capytaine, unbounded fluid; needs pip install 'gzinertia[bem]'). docs/bem.md.",
        ),
    ] = False,
    link: LinkOption = None,
    geometry: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--geometry",
            help="With --bem: the collisions to mesh, comma-separated names (default: all of "
            "the link's collisions, united); 'visual' meshes the link's visuals instead (when "
            "the collision is a buoyancy proxy), 'visual:NAME,...' the visuals named. With "
            "--from: the geometry the result describes (GZI212 watches it).",
        ),
    ] = None,
    panel_size: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option("--panel-size", help="With --bem: longest panel edge in metres."),
    ] = None,
    quality: Annotated[
        str,
        typer.Option(
            "--quality",
            help="With --bem and no --panel-size: fast (~900 panels), default (~2000), "
            "fine (~5000).",
        ),
    ] = "default",
    from_result: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--from",
            help="Import an added mass computed elsewhere: a Capytaine NetCDF dataset "
            "(assemble_dataset), for the one link --link names. docs/bem.md.",
        ),
    ] = None,
    about: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--about",
            help="With --from: the point the result is about, x,y,z in the link frame (default: "
            "the dataset's rotation_center, read as link coordinates).",
        ),
    ] = None,
    axes: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--axes",
            help="With --from: orientation of the result's axes in the link, roll,pitch,yaw "
            "(radians; default 0,0,0).",
        ),
    ] = None,
    frequency: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--frequency",
            help="With --from: the dataset's frequency to use, zero, infinite or omega in rad/s "
            "(required when it holds several).",
        ),
    ] = None,
    wamit_length: Annotated[
        float,
        typer.Option(
            "--wamit-length",
            help="With --from FILE.1: WAMIT's length scale ULEN in metres (default 1).",
        ),
    ] = 1.0,
    waterline: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--waterline",
            help="With --bem: a free surface at this height z in the world frame (m); the body "
            "is clipped there. 'auto': at the floating draft, heel and trim of the hydrostatic "
            "equilibrium (as hydrostatics --waterline finds it). Default: fully submerged "
            "(unbounded fluid).",
        ),
    ] = None,
    depth: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option(
            "--depth",
            help="With --waterline: water depth below it in metres (default deep). Refused "
            "today at either frequency (the solver cannot take a sea bed reliably: docs/bem.md).",
        ),
    ] = None,
    together: Annotated[
        bool,
        typer.Option(
            "--together",
            help="With --bem: solve the selected links in one problem, so hulls that shadow "
            "each other (a catamaran's) get their interaction; each link gets its own block.",
        ),
    ] = False,
    no_cache: Annotated[
        bool,
        typer.Option("--no-cache", help="With --bem: neither read nor write the result cache."),
    ] = False,
    progress_bar: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--progress/--no-progress",
            help="With --bem: progress bars per link and per solve on stderr (default: on a "
            "terminal outside CI; otherwise one line per solve).",
        ),
    ] = None,
    fit: Annotated[
        FitChoice,
        typer.Option(
            help="Ellipsoid fitted to the link: volume (same volume, centroid and principal "
            "axes as its collisions), mujoco (MuJoCo's rule per collision), inertia "
            "(equivalent ellipsoid of the rigid inertia)."
        ),
    ] = "volume",
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
    *,
    mode: WriteMode,
    source: ModelInput,
) -> None:
    """Compute ellipsoid added mass about each link's origin and write <fluid_added_mass>.

    The matrix is computed about the ellipsoid's centre in its axes, rotated to the link axes
    and moved to the link origin (the spec's point) with the exact change of point. Only
    <fluid_added_mass> changes (plus a comment saying how it was computed); a second run changes
    nothing.
    """
    from gzinertia.edit.addmass import FitChooser, add_mass
    from gzinertia.physics.fits import explicit_fit

    if sum([ellipsoid, bem, from_result is not None]) > 1:
        raise GzInertiaError("choose one added-mass model: --ellipsoid, --bem or --from")
    if from_result is None and (about or axes):
        raise GzInertiaError("--about and --axes go with --from")
    if frequency is not None and from_result is None and waterline is None:
        raise GzInertiaError("--frequency goes with --from or --bem --waterline")
    if (waterline is not None or depth is not None or together or progress_bar is not None) and (
        not bem
    ):
        raise GzInertiaError("--waterline, --depth, --together and --progress go with --bem")
    if from_result is not None:
        if panel_size is not None or no_cache or quality != "default":
            raise GzInertiaError("--panel-size, --quality and --no-cache go with --bem")
        _addmass_from(file, from_result, mode, link, frequency, about, axes,
                      None if density is None and fluid is None else fluid_density(density, fluid),
                      upgrade_version, source, wamit_length, _bem_geometry(geometry))
        return
    if not ellipsoid and not bem:
        raise GzInertiaError(
            "choose the added-mass model: --ellipsoid (Tuckerman's ellipsoid), --bem "
            "(boundary elements) or --from RESULT (computed elsewhere)"
        )
    if bem:
        if semi_axes is not None or center is not None or rpy is not None:
            raise GzInertiaError("--semi-axes, --center and --rpy go with --ellipsoid")
        _addmass_bem(
            file, mode, link, geometry, panel_size, quality, no_cache,
            fluid_density(density, fluid), upgrade_version, source,
            replace_plugin_added_mass, allow_overlap, waterline, depth, frequency, together,
            progress_bar,
        )
        return
    if geometry is not None or panel_size is not None or no_cache or quality != "default":
        raise GzInertiaError("--geometry, --panel-size, --quality and --no-cache go with --bem")
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
        chooser = FitChooser(method=fit)
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(file):  # a <gazebo> Hydrodynamics block: URDF has no <fluid_added_mass>
        from gzinertia.urdf.addmass import add_mass_urdf

        result = add_mass_urdf(
            file, fit_for=chooser, density=fluid_density(density, fluid), pattern=link,
            package_paths=source.search_paths, xacro_args=source.xacro_mapping,
            xacro_policy=source.xacro_policy,
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
        model_paths=source.search_paths,
        replace_plugin_added_mass=replace_plugin_added_mass,
        allow_overlap=allow_overlap,
        data=mode.stdin_data,
    )
    _report(result)
    deliver_edit(file, result.old, result.new, mode)


def _addmass_from(
    file: Path,
    result: Path,
    mode: WriteMode,
    link: str | None,
    frequency: str | None,
    about: str | None,
    axes: str | None,
    density: float | None,
    upgrade_version: bool,
    source: ModelInput,
    wamit_length: float = 1.0,
    geometry: tuple[tuple[str, ...] | None, Literal["collision", "visual"]] = (None, "collision"),
) -> None:
    """``addmass --from RESULT``: import, move to Bo in link axes, write (the comment records
    the link's geometry the result describes, ``--geometry``: GZI212)."""
    import numpy as np

    from gzinertia.edit.bem_import import add_mass_from

    p = None if about is None else parse_vector(about, "--about", (0.0, 0.0, 0.0))
    rpy = parse_vector(axes, "--axes", (0.0, 0.0, 0.0))
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(file):  # a <gazebo> Hydrodynamics block: URDF has no <fluid_added_mass>
        from gzinertia.edit.bem_import import add_mass_from_urdf

        edit = add_mass_from_urdf(
            file, result=result, pattern=link, frequency=frequency, about=p, axes_rpy=rpy,
            density=density, package_paths=source.search_paths, wamit_length=wamit_length,
            geometry=geometry, xacro_args=source.xacro_mapping, xacro_policy=source.xacro_policy,
        )
        [imported] = edit.links
        name, A = imported.name, imported.A_BBo_B
        print(
            f"{name}: imported from {result}; A_BBo_B diag [x y z p q r] "
            + " ".join(f"{v:.4g}" for v in np.diag(A.linear_first())),
            file=sys.stderr,
        )
        _report(edit, written=True)
        deliver_edit(file, edit.old, edit.new, mode)
        return
    imported_edit = add_mass_from(
        file, result=result, pattern=link, frequency=frequency, about=p, axes_rpy=rpy,
        density=density, upgrade_version=upgrade_version, model_paths=source.search_paths,
        wamit_length=wamit_length, geometry=geometry, data=mode.stdin_data,
    )
    [imported] = imported_edit.links
    name, A = imported.name, imported.A_BBo_B
    print(
        f"{name}: imported from {result}; A_BBo_B diag [x y z p q r] "
        + " ".join(f"{v:.4g}" for v in np.diag(A.linear_first())),
        file=sys.stderr,
    )
    for note in imported_edit.notes:
        print(f"note: {note}", file=sys.stderr)
    deliver_edit(file, imported_edit.old, imported_edit.new, mode)


def _addmass_bem(
    file: Path,
    mode: WriteMode,
    link: str | None,
    geometry: str | None,
    panel_size: float | None,
    quality: str,
    no_cache: bool,
    density: float,
    upgrade_version: bool,
    source: ModelInput,
    replace_plugin_added_mass: bool,
    allow_overlap: bool,
    waterline: str | None = None,
    depth: float | None = None,
    frequency: str | None = None,
    together: bool = False,
    progress_bar: bool | None = None,
) -> None:
    """``addmass --bem``: solve, report on stderr, deliver the edit."""
    from gzinertia.edit.addmass_bem import BemSettings, add_mass_bem
    from gzinertia.physics.bem import QUALITY_PANELS, require_bem, require_free_surface

    require_bem()  # one line naming the extra when capytaine or manifold3d is missing
    if quality not in QUALITY_PANELS:
        choices = ", ".join(QUALITY_PANELS)
        raise GzInertiaError(f"--quality must be one of {choices}, not {quality!r}")
    if panel_size is not None and not (0.0 < panel_size < float("inf")):
        raise GzInertiaError(
            f"--panel-size must be a positive length in metres, not {panel_size!r}"
        )
    names, element = _bem_geometry(geometry)
    import math

    if waterline is None and depth is not None:
        raise GzInertiaError("--depth goes with --waterline")
    surface = _waterline(waterline)
    if depth is not None and not depth > 0.0:
        raise GzInertiaError(f"--depth must be a positive length in metres, not {depth!r}")
    limit = (frequency or "zero").strip().lower()
    if surface is not None:
        require_free_surface(math.inf if depth is None else depth, limit)
    level = next(q for q in QUALITY_PANELS if q == quality)
    settings = BemSettings(
        density, panel_size, level, names, not no_cache, surface,
        math.inf if depth is None else depth, "infinite" if limit == "infinite" else "zero",
        together, element,
    )
    from gzinertia.report.bem_progress import bem_progress

    progress = bem_progress(progress_bar)
    from gzinertia.sdf.model_file import is_urdf_path

    try:
        if is_urdf_path(file):  # a <gazebo> Hydrodynamics block: no <fluid_added_mass>
            from gzinertia.edit.addmass_bem import add_mass_bem_urdf

            if replace_plugin_added_mass:
                raise GzInertiaError(
                    f"{file}: --replace-plugin-added-mass is for SDF (<fluid_added_mass> beside "
                    "the plugin); on URDF/xacro remove the link's <gazebo> Hydrodynamics block "
                    "and run addmass again"
                )

            result, solved = add_mass_bem_urdf(
                file, settings=settings, pattern=link, package_paths=source.search_paths,
                progress=progress, xacro_args=source.xacro_mapping,
                xacro_policy=source.xacro_policy,
            )
        else:
            # duplicates: a keyword-argument call, alike other such calls by shape only
            result, solved = add_mass_bem(
                file,
                settings=settings,
                pattern=link,
                upgrade_version=upgrade_version,
                model_paths=source.search_paths,
                replace_plugin_added_mass=replace_plugin_added_mass,
                allow_overlap=allow_overlap,
                progress=progress,
                data=mode.stdin_data,
            )
    finally:
        progress.close()  # the bar goes before any error or summary line is printed
    import numpy as np

    from gzinertia.physics.bem import BemResult

    for item in solved:
        r = item.result
        assert isinstance(r, BemResult)
        A = r.A_BBo_B.linear_first()
        print(
            f"{item.link.name}: BEM (Capytaine {r.capytaine_version}, direct), {element}s "
            f"{', '.join(item.collisions)}, {r.panels} "
            + ("panels" if r.closed_panels is None else "wetted panels")
            + f" (error estimate from {r.coarse_panels}): {100.0 * r.relative_error:.2g} %, "
            f"{r.density:g} kg/m^3, "
            + ("cached" if r.cached else f"{r.seconds:.1f} s"),
            file=sys.stderr,
        )
        print(
            "  A_BBo_B diag [x y z p q r] " + " ".join(f"{v:.4g}" for v in np.diag(A)),
            file=sys.stderr,
        )
        if item.floating is not None:  # --waterline auto: where it floats
            print(f"  {r.fluid_domain}", file=sys.stderr)
        for note in item.geometry_notes:  # what the geometry pipeline did (a hull, a repair)
            print(f"  geometry of {note}", file=sys.stderr)
    _report(result, written=bool(solved))
    deliver_edit(file, result.old, result.new, mode)


def _waterline(text: str | None) -> float | Literal["auto"] | None:
    """``--waterline``: a finite height in metres, or ``auto`` (the floating draft)."""
    if text is None:
        return None
    if text.strip().lower() == "auto":
        return "auto"
    import math

    try:
        z = float(text)
    except ValueError:
        z = math.nan
    if not math.isfinite(z):
        raise GzInertiaError(
            f"--waterline must be a finite height in metres or auto, not {text!r}"
        )
    return z


def _bem_geometry(
    geometry: str | None,
) -> tuple[tuple[str, ...] | None, Literal["collision", "visual"]]:
    """``--geometry``: ``(names or None for all, element)``; ``visual`` and ``visual:a,b`` mesh
    visuals, a plain list names collisions."""
    if geometry is None:
        return None, "collision"
    text = geometry.strip()
    element: Literal["collision", "visual"] = "collision"
    if text.lower() == "visual" or text.lower().startswith("visual:"):
        element = "visual"
        text = text[len("visual"):].removeprefix(":")
        if not text.strip():
            return None, element
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise GzInertiaError(f"--geometry needs one or more {element} names")
    return names, element


def _of_collisions(names: str | None) -> str:
    """`` (collision a)`` / `` (collisions a, b)`` for an ellipsoid fitted to named collisions."""
    if not names:
        return ""
    parts = names.split("+")
    return f" (collision{'s' if len(parts) > 1 else ''} {', '.join(parts)})"


def _report(result: Edit[Any], written: bool = False) -> None:
    """What was computed, on stderr (stdout is kept for --diff): each ellipsoid fit's numbers
    (other outcomes are said by their command)."""
    import numpy as np

    from gzinertia.edit.addmass import LinkAddedMass

    err = sys.stderr
    for item in result.links:
        if not isinstance(item, LinkAddedMass):
            continue
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
    if not result.links and not written:
        print(f"{result.path}: no link to write added mass for", file=err)
