"""``gzinertia plot``: three orthographic views of links, their inertia and fluid ellipsoids."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia
import gzinertia.physics
import gzinertia.report
import gzinertia.sdf
import gzinertia.spatial
from gzinertia import arguments
from gzinertia.cli.app import LinkOption, app, load_model
from gzinertia.cli.options import FitChoice, model_input_options
from gzinertia.errors import GzInertiaError
from gzinertia.vocabulary.scoped_names import leaf_name

if TYPE_CHECKING:
    from lxml import etree

    import gzinertia.physics.hydrostatics
    import gzinertia.physics.link_union
    import gzinertia.physics.shapes
    import gzinertia.report.plot
    import gzinertia.sdf.buoyancy
    import gzinertia.selection
    import gzinertia.spatial.rotation
    from gzinertia.model_input import ModelInput
    from gzinertia.records import LinkRecord
    from gzinertia.report.plot import HydroMarks

__all__ = ["MAX_ROWS", "plot"]

MAX_ROWS = 8


def _title(link: LinkRecord) -> str:
    """Name, mass, and the density the mass implies for the collision volume."""
    text = f"{link.name}: {link.inertial.mass:.4g} kg"
    try:
        volume = gzinertia.physics.link_union.link_solid(link.collisions).volume
    except gzinertia.physics.shapes.ShapeError:
        return text
    density = link.inertial.mass / volume
    return f"{text}, collision volume {volume:.4g} m³, mean density {density:.4g} kg/m³"


@app.command()
@model_input_options
def plot(
    file: Annotated[
        Path,
        typer.Argument(
            help="SDFormat world or model file, or URDF/xacro; - reads SDFormat from standard "
            "input (named <stdin>, includes and meshes relative to the working directory)."
        ),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Picture to write: .png or .svg.")],
    link: LinkOption = None,
    fit: Annotated[
        FitChoice, typer.Option(help="Fluid ellipsoid fit: volume, mujoco or inertia.")
    ] = "volume",
    ellipsoid_scale: Annotated[
        str,
        typer.Option(
            "--ellipsoid-scale",
            help="Scale of the equivalent inertia ellipsoids: a positive factor (1: true "
            "size), or auto (default): in the whole model's view, each at most 75 % of the "
            "model's extent; with --link, true size. The legend states the scale.",
        ),
    ] = "auto",
    *,
    source: ModelInput,
) -> None:
    """Draw links: collision outlines, origin axes, CoM, inertia and fluid ellipsoids.

    With --link, one row of views per link in its own frame; without, the whole model in the
    world frame.
    """
    method = fit
    scale = arguments.ellipsoid_scale(ellipsoid_scale)
    file, doc, root = load_model(file, source)
    links = gzinertia.selection.select_links(doc.links, link, str(file))
    if not links:
        raise GzInertiaError(f"{file}: no links to draw")
    if link is None:
        drawings, label = gzinertia.report.plot.scale_inertia_ellipsoids(
            [gzinertia.report.plot.link_drawing(lk, lk.X_WB, method) for lk in links], scale
        )
        total = sum(lk.inertial.mass for lk in links)
        rows = [(f"{file.name}: {len(links)} link(s), {total:.4g} kg, world frame", drawings)]
        hydro: list[HydroMarks | None] | None = [_hydro_marks(file, links, root)]
    else:
        if len(links) > MAX_ROWS:
            raise GzInertiaError(
                f"--link {link!r} matches {len(links)} links; draw at most {MAX_ROWS} at a time"
            )
        label = "equivalent inertia ellipsoid (true size)"
        rows = []
        for lk in links:  # each link in its own row and frame: no model to cap against
            drawing = gzinertia.report.plot.link_drawing(lk, gzinertia.spatial.rotation.Pose(),
                                                         method)
            scaled, label = gzinertia.report.plot.scale_inertia_ellipsoids([drawing],
                                                     1.0 if scale is None else scale)
            rows.append((_title(lk), scaled))
        hydro = _link_hydro_marks(file, links, root)
    gzinertia.report.plot_figure.render(rows, output, hydro, inertia_label=label)
    if "scaled" in label:
        print(f"{file}: {label[len('equivalent inertia ellipsoid ('):-1]} "
              "(--ellipsoid-scale 1 draws them true size)", file=sys.stderr)
    for _, drawings in rows:
        for d in drawings:
            if d.note:
                print(f"{d.name}: {d.note}", file=sys.stderr)
    print(f"wrote {output}", file=sys.stderr)


def _hydro_marks(
    file: Path, links: list[LinkRecord], root: etree._Element | None = None
) -> gzinertia.report.plot.HydroMarks | None:
    """G and B of each free body (docs/hydrostatics.md) the world's Buoyancy plugin acts on,
    and a graded world's waterline (``None`` when the file has no Buoyancy plugin)."""
    fluid = gzinertia.sdf.buoyancy.read_buoyancy_world(file, root)
    if fluid is None:
        return None
    models = gzinertia.physics.hydrostatics.model_hydrostatics(links, fluid)
    # each free body's (a model of one body: the model's own), as the audit judges them
    centres = tuple((b.name, b.p_WG, b.p_WB) for m in models for b in m.bodies
                    if b.buoyancy > 0)
    waterline = fluid.layers[0][0] if fluid.kind == "graded" and fluid.layers else None
    return gzinertia.report.plot.HydroMarks(centres, waterline)


def _link_hydro_marks(
    file: Path, links: list[LinkRecord], root: etree._Element | None = None
) -> list[gzinertia.report.plot.HydroMarks | None] | None:
    """Per link drawn in its own frame B: its centre of mass G and the centre of buoyancy B
    Gazebo gives it (link frame), and the free surface's plane in B, in a world with the
    Buoyancy plugin (``None`` otherwise)."""
    fluid = gzinertia.sdf.buoyancy.read_buoyancy_world(file, root)
    if fluid is None:
        return None
    waterline = fluid.layers[0][0] if fluid.kind == "graded" and fluid.layers else None
    marks: list[gzinertia.report.plot.HydroMarks | None] = []
    for lk in links:
        h = gzinertia.physics.hydrostatics.link_hydrostatics(lk, fluid)
        X_BW = lk.X_WB.inverse()
        p_BoB_B = X_BW.transform_point(h.p_WB)
        # no buoyancy acts (not enabled, or out of the fluid): no B, as in the model's view
        centres = ((leaf_name(lk.name), lk.inertial.p_BoBcm_B, p_BoB_B),) if any(
            h.f_W) else ()
        surface = (None if waterline is None
                   else gzinertia.report.plot.surface_in_frame(waterline, lk.X_WB))
        marks.append(gzinertia.report.plot.HydroMarks(centres, None, surface))
    return marks

