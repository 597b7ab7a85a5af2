"""``gzinertia addmass``: write Tuckerman ellipsoid added mass into ``<fluid_added_mass>``.

One command over the library's three added-mass functions, each flag passed through as their
argument: ``--ellipsoid`` (:func:`gzinertia.addmass`), ``--bem`` (:func:`gzinertia.addmass_bem`)
and ``--from`` (:func:`gzinertia.addmass_from`), each returning the
:class:`~gzinertia.edit.edit_result.Edit` the command reports and delivers. The command refuses
only a flag of one with another's; the values are checked by the library.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import gzinertia
import gzinertia.cli
import gzinertia.physics
import gzinertia.report
from gzinertia.arguments import fluid_density
from gzinertia.cli.addmass_options import AddmassFlags, ModelFileArgument
from gzinertia.cli.app import app, parse_vector
from gzinertia.cli.library import deliver_edit, edited, model_keywords
from gzinertia.cli.options import CommandFile, editing_command_with, hull_option
from gzinertia.errors import GzInertiaError
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    import gzinertia.physics.bem
    import gzinertia.physics.fits
    import gzinertia.report.bem_progress
    from gzinertia.edit.edit_result import Edit

__all__ = ["addmass"]


@app.command()
@hull_option
@editing_command_with(ModelFileArgument)
def addmass(flags: AddmassFlags, file: CommandFile) -> None:
    """Compute ellipsoid added mass about each link's origin and write <fluid_added_mass>.

    The matrix is computed about the ellipsoid's centre in its axes, rotated to the link axes
    and moved to the link origin (the spec's point) with the exact change of point. Only
    <fluid_added_mass> changes (plus a comment saying how it was computed); a second run changes
    nothing.
    """
    model = _added_mass_model(flags)
    common = {"links": flags.link, "data": file.data,
              "upgrade_version": flags.upgrade_version,
              "replace_plugin_added_mass": flags.replace_plugin_added_mass,
              "allow_overlap": flags.allow_overlap, **model_keywords(file.source),
              "gazebo": flags.gazebo, "engine": flags.engine}
    if model == "from":
        assert flags.from_result is not None
        edit = _addmass_from(file.path, flags.from_result, flags, common)
    elif model == "bem":
        edit = _addmass_bem(file.path, flags, common)
    else:
        edit = edited(gzinertia.addmass, file.path,
                      density=fluid_density(flags.density, flags.fluid), **_fit_keywords(flags),
                      **common)
        gzinertia.cli.addmass_report.report_fit(edit)
    deliver_edit(edit, file.mode)


def _added_mass_model(flags: AddmassFlags) -> Literal["ellipsoid", "bem", "from"]:
    """Which of the library's three added-mass functions the flags choose (:func:`gzinertia.
    addmass`, :func:`gzinertia.addmass_bem`, :func:`gzinertia.addmass_from`), refusing a flag
    of one with another's."""
    model = _chosen_model(flags)
    bem_only = flags.panel_size is not None or flags.no_cache or flags.quality != "default"
    if model == "from" and bem_only:
        raise GzInertiaError("--panel-size, --quality and --no-cache go with --bem")
    explicit = flags.semi_axes is not None or flags.center is not None or flags.rpy is not None
    if model == "bem" and explicit:
        raise GzInertiaError("--semi-axes, --center and --rpy go with --ellipsoid")
    if model == "ellipsoid" and (flags.geometry is not None or bem_only):
        raise GzInertiaError("--geometry, --panel-size, --quality and --no-cache go with --bem")
    return model


def _chosen_model(flags: AddmassFlags) -> Literal["ellipsoid", "bem", "from"]:
    """The model ``--ellipsoid``, ``--bem`` or ``--from`` chooses, refusing two of them and the
    flags of ``--from`` or of ``--bem`` without it."""
    from_result, bem = flags.from_result, flags.bem
    if sum([flags.ellipsoid, bem, from_result is not None]) > 1:
        raise GzInertiaError("choose one added-mass model: --ellipsoid, --bem or --from")
    if from_result is None and (flags.about is not None or flags.axes is not None):
        raise GzInertiaError("--about and --axes go with --from")
    if flags.frequency is not None and from_result is None and flags.waterline is None:
        raise GzInertiaError("--frequency goes with --from or --bem --waterline")
    surface = (flags.waterline, flags.depth, flags.progress_bar)
    if (any(value is not None for value in surface) or flags.together) and not bem:
        raise GzInertiaError("--waterline, --depth, --together and --progress go with --bem")
    if from_result is not None:
        return "from"
    if not flags.ellipsoid and not bem:
        raise GzInertiaError(
            "choose the added-mass model: --ellipsoid (Tuckerman's ellipsoid), --bem "
            "(boundary elements) or --from RESULT (computed elsewhere)"
        )
    return "bem" if bem else "ellipsoid"


def _fit_keywords(flags: AddmassFlags) -> dict[str, Any]:
    """``--fit`` as :func:`gzinertia.addmass`'s ``method``, or the explicit ellipsoid of
    ``--semi-axes`` [``--center``] [``--rpy``] as its ``ellipsoid``."""
    if flags.semi_axes is not None:
        return {"ellipsoid": gzinertia.physics.fits.explicit_fit(
            parse_vector(flags.semi_axes, "--semi-axes", (0.0, 0.0, 0.0)),
            parse_vector(flags.center, "--center", (0.0, 0.0, 0.0)),
            parse_vector(flags.rpy, "--rpy", (0.0, 0.0, 0.0)),
        )}
    if flags.center is not None or flags.rpy is not None:
        raise GzInertiaError("--center and --rpy go with --semi-axes (an explicit ellipsoid)")
    return {"method": flags.fit}


def _addmass_from(
    file: Path, result: Path, flags: AddmassFlags, common: dict[str, Any]
) -> Edit[Any]:
    """``addmass --from RESULT``: import, move to Bo in link axes and write (one library call;
    the comment records the link's geometry the result describes, ``--geometry``: GZI212),
    reported on stderr."""
    shapes, element = _bem_geometry(flags.geometry)
    read = {
        "frequency": flags.frequency, "wamit_length": flags.wamit_length,
        "about": None if flags.about is None else parse_vector(flags.about, "--about", (0.0,) * 3),
        "axes_rpy": parse_vector(flags.axes, "--axes", (0.0, 0.0, 0.0)),
        "density": None if (flags.density, flags.fluid) == (None, None) else fluid_density(
            flags.density, flags.fluid)}
    keywords = {("link" if key == "links" else key): value for key, value in common.items()}
    edit = edited(gzinertia.addmass_from, file, result, shapes=shapes, geometry=element,
                  **read, **keywords)
    [imported] = edit.links
    gzinertia.cli.addmass_report.report_import(imported.name, result, imported.A_BBo_B)
    gzinertia.cli.addmass_report.report_fit(edit, written=True)
    return edit


def _addmass_bem(file: Path, flags: AddmassFlags, common: dict[str, Any]) -> Edit[Any]:
    """``addmass --bem``: solve and write (one library call), reported on stderr."""
    # one line naming the extra when capytaine or manifold3d is missing
    gzinertia.physics.bem.require_bem()
    names, element = _bem_geometry(flags.geometry)
    settings = {
        "density": fluid_density(flags.density, flags.fluid), "panel_size": flags.panel_size,
        "quality": flags.quality, "shapes": names, "geometry": element,
        "cache": not flags.no_cache, "waterline": flags.waterline,
        "depth": math.inf if flags.depth is None else flags.depth,
        "frequency": flags.frequency or "zero", "together": flags.together}
    progress = gzinertia.report.bem_progress.bem_progress(flags.progress_bar)
    try:
        edit = edited(gzinertia.addmass_bem, file, progress=progress, **settings, **common)
    finally:
        progress.close()  # the bar goes before any error or summary line is printed
    gzinertia.cli.addmass_report.report_bem(edit.links, element)
    gzinertia.cli.addmass_report.report_fit(edit, written=bool(edit.links))
    return edit


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


