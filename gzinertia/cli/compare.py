"""``gzinertia compare``: per link, what the file applies in Gazebo beside gzinertia's estimates
and a catalogue entry, with ratios (docs/compare.md); ``gzinertia catalogue`` lists the
entries with their sources (docs/catalogue.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia
from gzinertia.cli.app import DensityOption, FluidOption, LinkOption, app, load_document
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.options import model_input_options
from gzinertia.report.compare import comparison_summary, render_text
from gzinertia.report.json_text import json_safe

if TYPE_CHECKING:
    from gzinertia.model_input import ModelInput

__all__ = ["compare"]

EntryOption = Annotated[Maybe[str], flag("--with",
    "A catalogue entry (gzinertia catalogue lists them): shown converted to gz-sim's form "
    "beside the file's numbers, with the ratio file/entry.")]


@app.command()
@model_input_options
def compare(
    file: Annotated[
        Path,
        typer.Argument(
            help="SDFormat world or model file, or URDF/xacro (read as Gazebo converts it); - "
            "reads SDFormat from standard input."
        ),
    ],
    link: LinkOption = None,
    entry: EntryOption = None,
    density: DensityOption = None,
    fluid: FluidOption = None,
    bem: Annotated[bool, typer.Option(
        "--bem", help="Add the boundary-element added mass (needs the bem extra; slow).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/compare.md).")] = False,
    *,
    source: ModelInput,
) -> None:
    """Per link: the added mass, damping, displaced volume and mass the file applies in
    Gazebo, gzinertia's estimates (ellipsoid added mass, MuJoCo's drag; BEM with --bem) and a
    catalogue entry (--with), with ratios; and the catalogue entries whose numbers the file
    carries (copied numbers). Every number about the link origin in link axes."""
    doc = load_document(file, source)
    result = gzinertia.compare(doc, links=link, entry=entry, density=density, fluid=fluid,
                               bem=bem)
    summary = comparison_summary(result)
    summary["file"] = str(file)
    if as_json:
        typer.echo(json.dumps(json_safe(summary), indent=2, allow_nan=False))
        return
    typer.echo(render_text(summary))
