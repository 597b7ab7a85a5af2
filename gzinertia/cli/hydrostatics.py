"""``gzinertia hydrostatics``: buoyancy against weight, G and B, as Gazebo's Buoyancy system
will compute them (docs/hydrostatics.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from gzinertia.cli.app import DensityOption, FluidOption, ModelPathOption, app, load_model
from gzinertia.errors import GzInertiaError


@app.command()
def hydrostatics(
    file: Annotated[
        Path,
        typer.Argument(
            help="SDFormat world or model file; - reads it from standard input (named <stdin>, "
            "includes and meshes relative to the working directory)."
        ),
    ],
    model: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--model", help="Glob on top-level model names (default: every model)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON (docs/hydrostatics.md).")
    ] = False,
    density: DensityOption = None,
    fluid: FluidOption = None,
    world: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--world", help="Read the Buoyancy plugin and gravity from this world "
                     "file (for a model file)."),
    ] = None,
    waterline: Annotated[
        Optional[float],  # noqa: UP045
        typer.Option("--waterline", help="Free-surface height z (m, world): solve each model's "
                     "floating equilibrium (heave, roll, pitch), draft and GM there. Default: "
                     "the lowest layer of a graded fluid, for models that float."),
    ] = None,
    no_trim: Annotated[
        bool, typer.Option("--no-trim", help="Solve the heave only, level as posed.")
    ] = False,
    model_path: ModelPathOption = None,
) -> None:
    """Displaced volume, buoyancy, weight, centres of mass G and buoyancy B per model and link,
    as gz-sim's Buoyancy system computes them from the collisions (and by exact geometry where
    they differ). The fluid is the world's Buoyancy plugin (uniform or graded), else
    --density/--fluid (which also override the plugin's density), else 1000 kg/m^3."""
    from dataclasses import replace
    from fnmatch import fnmatchcase

    from gzinertia.audit.formats import json_safe
    from gzinertia.cli.app import fluid_density
    from gzinertia.physics.flotation import model_flotation
    from gzinertia.physics.hydrostatics import model_hydrostatics
    from gzinertia.records import BuoyancyWorld
    from gzinertia.report.hydrostatics import (
        flotation_summary,
        fluid_summary,
        model_summary,
        render_text,
    )
    from gzinertia.sdf.buoyancy import (
        read_buoyancy_world,
        read_gravity,
        read_model_poses,
    )

    file, doc, root = load_model(file, model_path or [])
    world_file, world_root = (world, None) if world is not None else (file, root)
    plugin = read_buoyancy_world(world_file, world_root)
    if plugin is not None:
        chosen = plugin
        origin = f"Buoyancy plugin at {plugin.source}"
    else:
        chosen = BuoyancyWorld(g_W=read_gravity(world_file, world_root))
        origin = "no Buoyancy plugin: Gazebo's default"
    if density is not None or fluid is not None:
        rho = fluid_density(density, fluid)
        chosen = replace(chosen, kind="uniform", density=rho, layers=())
        origin = f"--density {rho:g}" if density is not None else f"--fluid {fluid}"
    links = list(doc.links)
    models = model_hydrostatics(links, chosen, read_model_poses(file, root))
    if model is not None:
        models = [m for m in models if fnmatchcase(m.name, model)]
        if not models:
            names = ", ".join(dict.fromkeys(link.name.split("::", 1)[0] for link in links))
            raise GzInertiaError(f"{file}: no model matches {model!r} (models: "
                                 f"{names or 'none'})")
    if waterline is not None and not math.isfinite(waterline):
        raise GzInertiaError(f"--waterline must be a finite height in m, not {waterline}")
    entries = []
    records = {link.name: link for link in links}
    for m in models:
        entry = model_summary(m)
        for body, body_entry in zip(m.bodies, entry["bodies"], strict=True):
            body_entry["flotation"] = flotation_summary(
                model_flotation(body, [records[link.name] for link in body.links], chosen,
                                waterline, not no_trim)
            )
        # the model's own flotation: its one body's (several free bodies float apart)
        entry["flotation"] = entry["bodies"][0]["flotation"] if len(m.bodies) == 1 else None
        entries.append(entry)
    summary: dict[str, Any] = {
        "file": str(file),
        "fluid": fluid_summary(chosen, origin),
        "models": entries,
    }
    if as_json:
        typer.echo(json.dumps(json_safe(summary), indent=2, allow_nan=False))
        return
    typer.echo(render_text(summary))

