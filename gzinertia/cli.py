"""The ``gzinertia`` command line. Each command: read → compute → report, nothing else here.

Errors a user can cause (a bad file, a bad option) print one line and exit with status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from gzinertia import __version__
from gzinertia.errors import GzInertiaError

if TYPE_CHECKING:
    from rich.console import Console

    from gzinertia.records import SdfDocument

app = typer.Typer(
    name="gzinertia",
    help="Rigid-body inertia and fluid added mass for Gazebo/SDFormat models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

ModelPathOption = Annotated[
    Optional[list[Path]],  # noqa: UP045 (typer needs Optional on Python 3.10)
    typer.Option(
        "--model-path",
        "-m",
        help="Folder searched for model:// URIs before GZ_SIM_RESOURCE_PATH, SDF_PATH and "
        "IGN_GAZEBO_RESOURCE_PATH (repeatable).",
    ),
]
LinkOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--link", "-l", help="Glob on scoped link names (e.g. 'auv::fin_*' or 'hull')."),
]


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"gzinertia {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version_callback, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Rigid-body inertia and fluid added mass for Gazebo/SDFormat models."""


@app.command()
def show(
    file: Annotated[Path, typer.Argument(help="SDFormat world or model file.")],
    link: LinkOption = None,
    ordering: Annotated[
        str, typer.Option(help="6x6 ordering: angular-first [ω; v] or linear-first [v; ω] (SDF's).")
    ] = "angular-first",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (docs/json.md).")] = False,
    model_path: ModelPathOption = None,
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
    doc = _load(file, model_path or [], parser)
    summary = document_summary(doc, select_links(doc.links, link, str(file)), ordering)  # type: ignore[arg-type]
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    from rich.console import Console

    from gzinertia.report.tables import render_show

    console = Console()
    render_show(summary, console)
    _print_notes(doc, console)


def _load(file: Path, model_paths: list[Path], parser: str) -> SdfDocument:
    if parser == "gzinertia":
        from gzinertia.sdf import read_sdf_file

        return read_sdf_file(file, model_paths)
    if parser == "sdformat":
        from gzinertia.sdf.libsdformat import read_with_libsdformat

        return read_with_libsdformat(file, model_paths)
    raise GzInertiaError(f"--parser must be 'gzinertia' or 'sdformat', not {parser!r}")


def _print_notes(doc: SdfDocument, console: Console) -> None:
    for note in doc.notes:
        if note.level != "info":
            style = "red" if note.level == "error" else "yellow"
            console.print(f"[{style}]{note}[/{style}]", highlight=False)


def main() -> None:
    """Console-script entry: runs the app, turning user errors into one line and exit status 2."""
    try:
        app(standalone_mode=False)
    except GzInertiaError as exc:
        typer.echo(f"gzinertia: error: {exc}", err=True)
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("gzinertia: aborted", err=True)
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:
        # Usage errors: click's ClickException (vendored by newer typer) knows how to show itself.
        show, exit_code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(exit_code, int):
            show()
            sys.exit(2)
        raise


if __name__ == "__main__":  # pragma: no cover
    main()
