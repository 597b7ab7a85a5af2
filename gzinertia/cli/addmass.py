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
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.edit.added_mass_request import AddedMassRequest
    from gzinertia.edit.addmass import FitChooser
    from gzinertia.edit.addmass_bem import BemSettings
    from gzinertia.io.result_files import ResultFile
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
    from gzinertia.edit.added_mass_request import AddedMassRequest

    model = _added_mass_model(
        ellipsoid, bem, from_result, about is not None or axes is not None, frequency,
        (waterline, depth, together, progress_bar),
    )
    bem_only = panel_size is not None or no_cache or quality != "default"
    request = AddedMassRequest(file, link, source, mode.stdin_data, upgrade_version,
                               replace_plugin_added_mass, allow_overlap)
    if model == "from":
        if bem_only:
            raise GzInertiaError("--panel-size, --quality and --no-cache go with --bem")
        assert from_result is not None
        _addmass_from(request, mode, _result_file(
            from_result, frequency, about, axes, wamit_length,
            None if density is None and fluid is None else fluid_density(density, fluid),
            _bem_geometry(geometry),
        ))
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
        _addmass_bem(request, mode, settings, progress_bar)
    else:
        if geometry is not None or bem_only:
            raise GzInertiaError(
                "--geometry, --panel-size, --quality and --no-cache go with --bem"
            )
        _addmass_ellipsoid(request, mode, _fit_chooser(fit, semi_axes, center, rpy),
                           fluid_density(density, fluid))


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
    request: AddedMassRequest, mode: WriteMode, chooser: FitChooser, density: float
) -> None:
    """``addmass --ellipsoid``: fit and write (one library call), report on stderr, deliver."""
    from gzinertia.edit.added_mass_edits import ellipsoid_edit

    edit = ellipsoid_edit(request, chooser, density)
    report_fit(edit)
    deliver_edit(request.path, edit.old, edit.new, mode)


def _result_file(
    result: Path, frequency: str | None, about: str | None, axes: str | None,
    wamit_length: float, density: float | None,
    geometry: tuple[tuple[str, ...] | None, GeometryElement],
) -> ResultFile:
    """``--from RESULT`` with ``--frequency``, ``--about``, ``--axes``, ``--wamit-length``,
    ``--geometry`` and the density (``None`` when neither ``--density`` nor ``--fluid``)."""
    from gzinertia.io.result_files import ResultFile

    return ResultFile(
        result, frequency, None if about is None else parse_vector(about, "--about", (0.0,) * 3),
        parse_vector(axes, "--axes", (0.0, 0.0, 0.0)), density, wamit_length, geometry,
    )


def _addmass_from(request: AddedMassRequest, mode: WriteMode, result: ResultFile) -> None:
    """``addmass --from RESULT``: import, move to Bo in link axes and write (one library call;
    the comment records the link's geometry the result describes, ``--geometry``: GZI212),
    report on stderr, deliver."""
    from gzinertia.edit.added_mass_edits import import_edit

    edit = import_edit(request, result)
    [imported] = edit.links
    report_import(imported.name, result.path, imported.A_BBo_B)
    report_fit(edit, written=True)
    deliver_edit(request.path, edit.old, edit.new, mode)


def _addmass_bem(
    request: AddedMassRequest, mode: WriteMode, settings: BemSettings, progress_bar: bool | None
) -> None:
    """``addmass --bem``: solve and write (one library call), report on stderr, deliver."""
    from gzinertia.edit.added_mass_edits import bem_edit
    from gzinertia.report.bem_progress import bem_progress

    progress = bem_progress(progress_bar)
    try:
        edit = bem_edit(request, settings, progress)
    finally:
        progress.close()  # the bar goes before any error or summary line is printed
    report_bem(edit.links, settings.element)
    report_fit(edit, written=bool(edit.links))
    deliver_edit(request.path, edit.old, edit.new, mode)


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


