"""``gzinertia addmass``: write Tuckerman ellipsoid added mass into ``<fluid_added_mass>``.

One command over the library's three added-mass functions, each flag passed through as their
argument: ``--ellipsoid`` (:func:`gzinertia.addmass`), ``--bem`` (:func:`gzinertia.addmass_bem`,
its settings built by :func:`gzinertia.arguments.bem_settings`) and ``--from``
(:func:`gzinertia.addmass_from`). The command refuses only a flag of one with another's; the
values are checked by the library.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gzinertia.arguments import bem_settings, fluid_density
from gzinertia.cli.addmass_options import (
    AboutFlag,
    AllowOverlapFlag,
    AxesFlag,
    BemFlag,
    CenterFlag,
    DepthFlag,
    EllipsoidFlag,
    FitFlag,
    FrequencyFlag,
    FromResultFlag,
    GeometryFlag,
    ModelFileArgument,
    NoCacheFlag,
    PanelSizeFlag,
    ProgressBarFlag,
    QualityFlag,
    ReplacePluginAddedMassFlag,
    RpyFlag,
    SemiAxesFlag,
    TogetherFlag,
    UpgradeVersionFlag,
    WamitLengthFlag,
    WaterlineFlag,
)
from gzinertia.cli.addmass_report import report_bem, report_fit, report_import
from gzinertia.cli.app import (
    DensityOption,
    FluidOption,
    LinkOption,
    app,
    deliver_edit,
    parse_vector,
)
from gzinertia.cli.options import FitChoice, hull_option, model_input_options, write_mode_options
from gzinertia.errors import GzInertiaError
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    from gzinertia.edit.addmass import FitChooser
    from gzinertia.edit.addmass_bem import BemSettings
    from gzinertia.edit.output import WriteMode
    from gzinertia.model_input import ModelInput

__all__ = ["addmass"]


@app.command()
@hull_option
@write_mode_options
@model_input_options
def addmass(
    file: ModelFileArgument,
    ellipsoid: EllipsoidFlag = False,
    bem: BemFlag = False,
    link: LinkOption = None,
    geometry: GeometryFlag = None,
    panel_size: PanelSizeFlag = None,
    quality: QualityFlag = "default",
    from_result: FromResultFlag = None,
    about: AboutFlag = None,
    axes: AxesFlag = None,
    frequency: FrequencyFlag = None,
    wamit_length: WamitLengthFlag = 1.0,
    waterline: WaterlineFlag = None,
    depth: DepthFlag = None,
    together: TogetherFlag = False,
    no_cache: NoCacheFlag = False,
    progress_bar: ProgressBarFlag = None,
    fit: FitFlag = "volume",
    semi_axes: SemiAxesFlag = None,
    center: CenterFlag = None,
    rpy: RpyFlag = None,
    density: DensityOption = None,
    fluid: FluidOption = None,
    upgrade_version: UpgradeVersionFlag = True,
    replace_plugin_added_mass: ReplacePluginAddedMassFlag = False,
    allow_overlap: AllowOverlapFlag = False,
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
    model = _added_mass_model(
        ellipsoid, bem, from_result, about is not None or axes is not None, frequency,
        (waterline, depth, together, progress_bar),
    )
    bem_only = panel_size is not None or no_cache or quality != "default"
    if model == "from":
        if bem_only:
            raise GzInertiaError("--panel-size, --quality and --no-cache go with --bem")
        assert from_result is not None
        _addmass_from(file, from_result, mode, link, frequency, about, axes,
                      None if density is None and fluid is None else fluid_density(density, fluid),
                      upgrade_version, source, wamit_length, _bem_geometry(geometry))
    elif model == "bem":
        if semi_axes is not None or center is not None or rpy is not None:
            raise GzInertiaError("--semi-axes, --center and --rpy go with --ellipsoid")
        from gzinertia.physics.bem import require_bem

        require_bem()  # one line naming the extra when capytaine or manifold3d is missing
        names, element = _bem_geometry(geometry)
        settings = bem_settings(
            fluid_density(density, fluid), panel_size=panel_size, quality=quality, shapes=names,
            element=element, cache=not no_cache, waterline=waterline, depth=depth,
            frequency=frequency, together=together,
        )
        _addmass_bem(file, mode, link, settings, upgrade_version, source,
                     replace_plugin_added_mass, allow_overlap, progress_bar)
    else:
        if geometry is not None or bem_only:
            raise GzInertiaError(
                "--geometry, --panel-size, --quality and --no-cache go with --bem"
            )
        _addmass_ellipsoid(file, mode, link, _fit_chooser(fit, semi_axes, center, rpy),
                           fluid_density(density, fluid), upgrade_version, source,
                           replace_plugin_added_mass, allow_overlap)


def _added_mass_model(
    ellipsoid: bool, bem: bool, from_result: Path | None, about_or_axes: bool,
    frequency: str | None, surface: tuple[str | None, float | None, bool, bool | None],
) -> Literal["ellipsoid", "bem", "from"]:
    """Which of the library's three added-mass functions the flags choose (:func:`gzinertia.
    addmass`, :func:`gzinertia.addmass_bem`, :func:`gzinertia.addmass_from`), refusing a flag
    of one with another's: ``surface`` is ``(--waterline, --depth, --together, --progress)``."""
    if sum([ellipsoid, bem, from_result is not None]) > 1:
        raise GzInertiaError("choose one added-mass model: --ellipsoid, --bem or --from")
    if from_result is None and about_or_axes:
        raise GzInertiaError("--about and --axes go with --from")
    waterline, depth, together, progress_bar = surface
    if frequency is not None and from_result is None and waterline is None:
        raise GzInertiaError("--frequency goes with --from or --bem --waterline")
    if (waterline is not None or depth is not None or together or progress_bar is not None) and (
        not bem
    ):
        raise GzInertiaError("--waterline, --depth, --together and --progress go with --bem")
    if from_result is not None:
        return "from"
    if not ellipsoid and not bem:
        raise GzInertiaError(
            "choose the added-mass model: --ellipsoid (Tuckerman's ellipsoid), --bem "
            "(boundary elements) or --from RESULT (computed elsewhere)"
        )
    return "bem" if bem else "ellipsoid"


def _fit_chooser(
    fit: FitChoice, semi_axes: str | None, center: str | None, rpy: str | None
) -> FitChooser:
    """``--fit``, or the explicit ellipsoid of ``--semi-axes`` [``--center``] [``--rpy``]."""
    from gzinertia.edit.addmass import FitChooser
    from gzinertia.physics.fits import explicit_fit

    if semi_axes is not None:
        return FitChooser(
            fixed=explicit_fit(
                parse_vector(semi_axes, "--semi-axes", (0.0, 0.0, 0.0)),
                parse_vector(center, "--center", (0.0, 0.0, 0.0)),
                parse_vector(rpy, "--rpy", (0.0, 0.0, 0.0)),
            )
        )
    if center is not None or rpy is not None:
        raise GzInertiaError("--center and --rpy go with --semi-axes (an explicit ellipsoid)")
    return FitChooser(method=fit)


def _addmass_ellipsoid(
    file: Path, mode: WriteMode, link: str | None, chooser: FitChooser, density: float,
    upgrade_version: bool, source: ModelInput, replace_plugin_added_mass: bool,
    allow_overlap: bool,
) -> None:
    """``addmass --ellipsoid``: fit, write, report on stderr, deliver the edit."""
    from gzinertia.edit.addmass import add_mass
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(file):  # a <gazebo> Hydrodynamics block: URDF has no <fluid_added_mass>
        from gzinertia.urdf.addmass import add_mass_urdf

        result = add_mass_urdf(
            file, fit_for=chooser, density=density, pattern=link,
            package_paths=source.search_paths, xacro_args=source.xacro_mapping,
            xacro_policy=source.xacro_policy,
        )
        report_fit(result)
        deliver_edit(file, result.old, result.new, mode)
        return
    result = add_mass(
        file,
        fit_for=chooser,
        density=density,
        pattern=link,
        upgrade_version=upgrade_version,
        model_paths=source.search_paths,
        replace_plugin_added_mass=replace_plugin_added_mass,
        allow_overlap=allow_overlap,
        data=mode.stdin_data,
    )
    report_fit(result)
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
    geometry: tuple[tuple[str, ...] | None, GeometryElement] = (None, "collision"),
) -> None:
    """``addmass --from RESULT``: import, move to Bo in link axes, write (the comment records
    the link's geometry the result describes, ``--geometry``: GZI212)."""
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
        report_import(imported.name, result, imported.A_BBo_B)
        report_fit(edit, written=True)
        deliver_edit(file, edit.old, edit.new, mode)
        return
    imported_edit = add_mass_from(
        file, result=result, pattern=link, frequency=frequency, about=p, axes_rpy=rpy,
        density=density, upgrade_version=upgrade_version, model_paths=source.search_paths,
        wamit_length=wamit_length, geometry=geometry, data=mode.stdin_data,
    )
    [imported] = imported_edit.links
    report_import(imported.name, result, imported.A_BBo_B, imported_edit.notes)
    deliver_edit(file, imported_edit.old, imported_edit.new, mode)


def _addmass_bem(
    file: Path, mode: WriteMode, link: str | None, settings: BemSettings,
    upgrade_version: bool, source: ModelInput, replace_plugin_added_mass: bool,
    allow_overlap: bool, progress_bar: bool | None,
) -> None:
    """``addmass --bem``: solve, report on stderr, deliver the edit."""
    from gzinertia.edit.addmass_bem import add_mass_bem
    from gzinertia.report.bem_progress import bem_progress
    from gzinertia.sdf.model_file import is_urdf_path

    progress = bem_progress(progress_bar)
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
            result, solved = add_mass_bem(
                file, settings=settings, pattern=link, upgrade_version=upgrade_version,
                model_paths=source.search_paths,
                replace_plugin_added_mass=replace_plugin_added_mass,
                allow_overlap=allow_overlap, progress=progress, data=mode.stdin_data,
            )
    finally:
        progress.close()  # the bar goes before any error or summary line is printed
    report_bem(solved, settings.element)
    report_fit(result, written=bool(solved))
    deliver_edit(file, result.old, result.new, mode)


def _bem_geometry(
    geometry: str | None,
) -> tuple[tuple[str, ...] | None, GeometryElement]:
    """``--geometry``: ``(names or None for all, element)``; ``visual`` and ``visual:a,b`` mesh
    visuals, a plain list names collisions."""
    if geometry is None:
        return None, "collision"
    text = geometry.strip()
    element: GeometryElement = "collision"
    if text.lower() == "visual" or text.lower().startswith("visual:"):
        element = "visual"
        text = text[len("visual"):].removeprefix(":")
        if not text.strip():
            return None, element
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise GzInertiaError(f"--geometry needs one or more {element} names")
    return names, element


