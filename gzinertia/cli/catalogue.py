"""``gzinertia catalogue``: the published vehicles' parameter sets, with their sources
(docs/catalogue.md)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from gzinertia import catalogue as vehicles
from gzinertia.cli.app import app
from gzinertia.report.catalogue import disagreements_table, entries_table, entry_text

__all__ = ["catalogue"]


@app.command()
def catalogue(
    entry: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(help="An entry's id: its source, published numbers and gz-sim form."),
    ] = None,
    disagreements: Annotated[bool, typer.Option(
        "--disagreements", help="Where the entries of one vehicle disagree, term by term.",
    )] = False,
) -> None:
    """The catalogue of published vehicles' hydrodynamic parameters, each with its source (a
    Markdown table); one entry in full; or the disagreements between sources."""
    if entry is not None:
        typer.echo(entry_text(vehicles.entry(entry)))
    elif disagreements:
        typer.echo(disagreements_table(vehicles.disagreements(vehicles.entries())))
    else:
        typer.echo(entries_table(vehicles.entries()))
