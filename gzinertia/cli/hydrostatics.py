"""``gzinertia hydrostatics``: buoyancy against weight, G and B, as Gazebo's Buoyancy system
will compute them (docs/hydrostatics.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia
import gzinertia.audit
import gzinertia.report
from gzinertia.cli.app import DensityOption, FluidOption, app, load_model
from gzinertia.cli.flags import Maybe, argument, flag
from gzinertia.cli.options import hull_option, model_input_options
from gzinertia.cli.target_options import EngineOption, GazeboOption
from gzinertia.report.json_text import json_safe

if TYPE_CHECKING:
    import gzinertia.audit.target_choice
    import gzinertia.report.hydrostatics
    from gzinertia.model_input import ModelInput


@app.command()
@hull_option
@model_input_options
def hydrostatics(
    file: Annotated[Path, argument(
        "SDFormat world or model file, or URDF/xacro (read as Gazebo converts it); - reads "
        "SDFormat from standard input (named <stdin>, includes and meshes relative to the "
        "working directory).")],
    model: Annotated[Maybe[str], flag(
        "--model", "Glob on top-level model names (default: every model).")] = None,
    as_json: Annotated[bool, flag("--json", "Print JSON (docs/hydrostatics.md).")] = False,
    density: DensityOption = None,
    fluid: FluidOption = None,
    world: Annotated[Maybe[Path], flag(
        "--world", "Read the Buoyancy plugin and gravity from this world file (for a model "
        "file).")] = None,
    waterline: Annotated[Maybe[float], flag(
        "--waterline", "Free-surface height z (m, world): solve each model's floating "
        "equilibrium (heave, roll, pitch), draft and GM there. Default: the lowest layer of a "
        "graded fluid, for models that float.")] = None,
    no_trim: Annotated[bool, flag("--no-trim", "Solve the heave only, level as posed.")] = False,
    gazebo: GazeboOption = None,
    engine: EngineOption = None,
    *,
    source: ModelInput,
) -> None:
    """Displaced volume, buoyancy, weight, centres of mass G and buoyancy B per model and link,
    as gz-sim's Buoyancy system computes them from the collisions (and by exact geometry where
    they differ). The fluid is the world's Buoyancy plugin (uniform or graded), else
    --density/--fluid (which also override the plugin's density), else 1000 kg/m^3."""
    file, doc, root = load_model(file, source)
    result = gzinertia.hydrostatics_result.document_hydrostatics(
        doc, tree=root, model=model, density=density,
        fluid=fluid, world=world, waterline=waterline,
        trim=not no_trim,
        target=gzinertia.audit.target_choice.shown_target(doc.path, gazebo, engine, tree=root),
    )
    summary = gzinertia.report.hydrostatics.result_summary(result, str(file))
    if as_json:
        typer.echo(json.dumps(json_safe(summary), indent=2, allow_nan=False))
        return
    typer.echo(gzinertia.report.hydrostatics.render_text(summary))
