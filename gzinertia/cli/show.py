"""``gzinertia show``: every link's pose, mass, CoM, inertia about Bcm and Bo, and added mass."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia
import gzinertia.audit
import gzinertia.report
from gzinertia.cli.app import LinkOption, app, load_document, print_notes
from gzinertia.cli.options import OrderingChoice, ParserChoice, model_input_options
from gzinertia.cli.target_options import EngineOption, GazeboOption
from gzinertia.model_input import ModelInput

if TYPE_CHECKING:
    import gzinertia.audit.target_choice
    import gzinertia.report.json_stream
    import gzinertia.report.rich_text
    import gzinertia.report.show
    import gzinertia.report.tables
    import gzinertia.selection
    import gzinertia.shell

__all__ = ["show"]


@app.command()
@model_input_options
def show(
    file: Annotated[
        Path,
        typer.Argument(
            help="SDFormat world or model file, or URDF/xacro (read as Gazebo converts it); - "
            "reads SDFormat from standard input (named <stdin>, includes relative to the "
            "working directory)."
        ),
    ],
    link: LinkOption = None,
    ordering: Annotated[
        OrderingChoice,
        typer.Option(help="6x6 ordering: angular-first [ω; v] or linear-first [v; ω] (SDF's)."),
    ] = "angular-first",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/json.md).")] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Also list info notes: each include and the rule that found it."
        ),
    ] = False,
    parser: Annotated[
        ParserChoice,
        typer.Option(help="gzinertia (built in) or sdformat (libsdformat's Python module)."),
    ] = "gzinertia",
    gazebo: GazeboOption = None,
    engine: EngineOption = None,
    *,
    source: ModelInput,
) -> None:
    """Every link's pose, mass, centre of mass, inertia about Bcm and Bo, and added mass."""
    doc = load_document(file, source, parser)
    links = gzinertia.selection.select_links(doc.links, link, str(file))
    shown = gzinertia.report.show
    summary = shown.target_summary(shown.document_summary(doc, links, ordering), links,
                                   gzinertia.audit.target_choice.shown_target(
                                       doc.path, gazebo, engine))
    if as_json:
        gzinertia.report.json_stream.write_json(summary, sys.stdout)
        return
    console = gzinertia.report.rich_text.Console()
    print_notes(doc, console, verbose, levels=("error",))  # what could not be read comes first
    gzinertia.report.tables.render_show(summary, console)
    for line in shown.target_lines(summary):
        console.print(gzinertia.report.rich_text.Text(line), soft_wrap=True)
    print_notes(doc, console, verbose, levels=("warning", "info"))

    target = ("--link", link) if link else ()
    plot = gzinertia.shell.command_line("plot", doc.path, *target, "-o", "links.png")
    console.print(gzinertia.report.rich_text.Text(f"to see these links: {plot}", style="dim"),
                  soft_wrap=True)
