"""``gzinertia show``: every link's pose, mass, CoM, inertia about Bcm and Bo, and added mass."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from gzinertia.cli.app import LinkOption, ModelPathOption, app, load_document, print_notes
from gzinertia.errors import GzInertiaError


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="SDFormat world or model file.")],
    link: LinkOption = None,
    ordering: Annotated[
        str, typer.Option(help="6x6 ordering: angular-first [ω; v] or linear-first [v; ω] (SDF's).")
    ] = "angular-first",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/json.md).")] = False,
    model_path: ModelPathOption = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Also list info notes: each include and the rule that found it."
        ),
    ] = False,
    parser: Annotated[
        str,
        typer.Option(help="'gzinertia' (built in) or 'sdformat' (libsdformat's Python module)."),
    ] = "gzinertia",
) -> None:
    """Every link's pose, mass, centre of mass, inertia about Bcm and Bo, and added mass."""
    from gzinertia.report.show import document_summary
    from gzinertia.selection import select_links
    from gzinertia.spatial import ORDERINGS

    if ordering not in ORDERINGS:
        raise GzInertiaError(f"--ordering must be one of {', '.join(ORDERINGS)}, not {ordering!r}")
    doc = load_document(file, model_path or [], parser)
    summary = document_summary(doc, select_links(doc.links, link, str(file)), ordering)  # type: ignore[arg-type]
    if as_json:
        from gzinertia.report.json_stream import write_json

        write_json(summary, sys.stdout)
        return
    from rich.console import Console

    from gzinertia.report.tables import render_show

    console = Console()
    render_show(summary, console)
    print_notes(doc, console, verbose)
    target = f" --link '{link}'" if link else ""
    console.print(
        f"[dim]to see these links: gzinertia plot {file}{target} -o links.png[/dim]",
        highlight=False,
    )
