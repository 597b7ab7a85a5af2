"""The ``gzinertia`` application: the typer app, options shared by commands, and the entry
point. Commands live in sibling modules (one each) and register on :data:`app`.

Errors a user can cause (a bad file, a bad option) print one line and exit with status 2.
"""

from __future__ import annotations

import copy
import functools
import importlib
import math
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from typer.models import CommandInfo

import gzinertia
import gzinertia.sdf
from gzinertia import __version__
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.options import (  # noqa: F401 (declared there once; re-exported for commands)
    CheckOption,
    DiffOption,
    FluidChoice,
    ForceReadonlyOption,
    InPlaceOption,
    ModelPathOption,
    OutputOption,
    ParserChoice,
    model_input_options,
    write_mode_options,
)
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.options import interface
from gzinertia.vocabulary.fluids import DEFAULT_FLUID_DENSITY, FLUID_DENSITIES
from gzinertia.vocabulary.model_suffixes import is_urdf_path

Vec3Tuple = tuple[float, float, float]

if TYPE_CHECKING:
    from lxml import etree

    import gzinertia.model_reader
    import gzinertia.numbers
    import gzinertia.sdf.libsdformat
    import gzinertia.sdf.stdin
    import gzinertia.wording
    from gzinertia.model_input import ModelInput
    from gzinertia.records import SdfDocument
    from gzinertia.report.rich_text import Console

__all__ = [
    "COMMAND_MODULES",
    "CheckOption",
    "DensityOption",
    "DiffOption",
    "FluidOption",
    "ForceReadonlyOption",
    "InPlaceOption",
    "InternalError",
    "LinkOption",
    "ModelPathOption",
    "OutputOption",
    "Vec3Tuple",
    "app",
    "load_document",
    "load_model",
    "main",
    "parse_vector",
    "print_notes",
    "register_commands",
]

app = typer.Typer(
    name="gzinertia",
    help="Rigid-body inertia and fluid added mass for Gazebo/SDFormat models.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Help texts are plain text: rich markup took "[tool.gzinertia]" and "[v; ω]" for tags.
    rich_markup_mode=None,
)

LinkOption = Annotated[Maybe[str], flag("--link -l",
    "Glob on scoped link names (e.g. 'auv::fin_*' or 'hull').")]

DensityOption = Annotated[Maybe[float], flag("--density",
    f"Fluid density in kg/m^3 (default {DEFAULT_FLUID_DENSITY:g}, fresh water, as "
    "Gazebo's Buoyancy).")]
FluidOption = Annotated[Maybe[FluidChoice], flag("--fluid",
    "Named fluid instead of --density: "
    + ", ".join(f"{name} {rho:g}" for name, rho in FLUID_DENSITIES.items())
    + " kg/m^3.")]


def parse_vector(text: str | None, option: str, default: tuple[float, float, float]) -> Vec3Tuple:
    """``"x,y,z"`` (commas or spaces) as three finite numbers as C reads them
    (:func:`gzinertia.numbers.read_number`: ``1_0`` and ``１`` are no numbers); an error naming
    the option. Their magnitude is the command's to judge (an overflow is an error naming the
    file and link)."""
    if text is None:
        return default
    try:
        values = [gzinertia.numbers.read_number(p, limit=math.inf)
                  for p in text.replace(",", " ").split()]
    except gzinertia.numbers.NumberError as exc:
        raise GzInertiaError(f"{option} takes three numbers like 1,2,3, not {text!r}: {exc}"
                             ) from None
    if len(values) != 3:
        raise GzInertiaError(f"{option} takes three numbers like 1,2,3, not {text!r}")
    return (values[0], values[1], values[2])


def _quiet_float_warnings() -> None:
    """NumPy's "overflow encountered" warnings stay off the terminal: every value the CLI
    writes or reports as computed is checked for being finite where it is produced, and the
    error that follows says what overflowed (one line, not a warning plus an error)."""
    for what in ("overflow", "invalid value", "divide by zero"):
        warnings.filterwarnings("ignore", message=f"{what} encountered", category=RuntimeWarning)


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


def load_model(
    file: Path, source: ModelInput, parser: ParserChoice = "gzinertia"
) -> tuple[Path, SdfDocument, etree._Element | None]:
    """:func:`load_document` for the commands that also read the file's text (a world's
    Buoyancy plugin, gravity, model poses): the path to name it by (``<stdin>`` for ``-``),
    the document, and, for standard input, its parsed tree (``None``: read it from the path)."""
    if not gzinertia.sdf.stdin.is_stdin_arg(file):
        return file, load_document(file, source, parser), None
    if parser != "gzinertia":
        raise GzInertiaError("--parser sdformat reads files only; save standard input to a file")
    doc, root = gzinertia.sdf.stdin.read_stdin_model(source.search_paths)
    return gzinertia.sdf.stdin.STDIN_PATH, doc, root


def load_document(
    file: Path, source: ModelInput, parser: ParserChoice = "gzinertia"
) -> SdfDocument:
    """Reads ``file`` with the chosen parser (``gzinertia``, or libsdformat's ``sdformat``);
    URDF and xacro files by suffix, with ``source``'s package paths and xacro options (its
    model paths are then package paths too); ``-``: the SDFormat file on standard input (named
    ``<stdin>``: :mod:`gzinertia.sdf.stdin`)."""
    if gzinertia.sdf.stdin.is_stdin_arg(file):
        return load_model(file, source, parser)[1]
    if parser == "gzinertia":
        return gzinertia.model_reader.read_model_file(file, source.search_paths,
                                                      xacro_args=source.xacro_mapping,
                                                      xacro_policy=source.xacro_policy)
    if parser == "sdformat":
        if is_urdf_path(file):
            raise GzInertiaError(
                f"{file}: --parser sdformat reads SDFormat files; convert the URDF first "
                "(gz sdf -p), or use the built-in parser, which converts it as libsdformat does"
            )

        return gzinertia.sdf.libsdformat.read_with_libsdformat(file, source.search_paths)

    return gzinertia.sdf.read_sdf_file(file, source.search_paths)


def print_notes(
    doc: SdfDocument,
    console: Console,
    verbose: bool = False,
    levels: tuple[str, ...] = ("error", "warning", "info"),
) -> None:
    """The reader's warnings and errors about ``doc``; with ``verbose`` also its info notes
    (e.g. each included file and the search rule that found it); only those of ``levels``."""
    styles = {"error": "red", "warning": "yellow", "info": "dim"}
    for note in doc.notes:
        if note.level not in levels:
            continue
        if note.level != "info" or verbose:
            style = styles[note.level]
            console.print(f"[{style}]{note}[/{style}]", highlight=False)


#: Each command's module (importing it registers the command on :data:`app`), in the order
#: ``gzinertia --help`` lists them.
COMMAND_MODULES = {
    "addmass": "gzinertia.cli.addmass",
    "audit": "gzinertia.cli.audit",
    "catalogue": "gzinertia.cli.catalogue",
    "compare": "gzinertia.cli.compare",
    "convert": "gzinertia.cli.convert",
    "expand": "gzinertia.cli.expand",
    "fix": "gzinertia.cli.fix",
    "hydro": "gzinertia.cli.hydro",
    "hydrostatics": "gzinertia.cli.hydrostatics",
    "migrate": "gzinertia.cli.migrate",
    "plot": "gzinertia.cli.plot",
    "report": "gzinertia.cli.report",
    "shift": "gzinertia.cli.shift",
    "show": "gzinertia.cli.show",
}


def register_commands(names: Sequence[str] | None = None) -> None:
    """Registers the commands ``names`` (default: all of :data:`COMMAND_MODULES`) on
    :data:`app` by importing their modules; the registered commands stay in the listed order
    whichever were imported first."""
    for name in COMMAND_MODULES if names is None else names:
        importlib.import_module(COMMAND_MODULES[name])
    order = {name: i for i, name in enumerate(COMMAND_MODULES)}
    app.registered_commands.sort(key=lambda c: order.get(_command_name(c), len(order)))


def _app_for(args: Sequence[str]) -> typer.Typer:
    """The app with only the command ``args`` name, when they name one: only that command's
    module is imported, and typer turns only its signature into click parameters (about 40 ms
    for all of them, against a 0.25 s budget for a whole run). Top-level ``--help``,
    ``--version`` and unknown names get the full app."""
    if not args or args[0].startswith("-") or args[0] not in COMMAND_MODULES:
        register_commands()
        return app
    register_commands([args[0]])
    chosen = [c for c in app.registered_commands if _command_name(c) == args[0]]
    if not chosen:
        return app
    only = copy.copy(app)
    only.registered_commands = [_with_last_resort(c) for c in chosen]
    return only


class InternalError(GzInertiaError):
    """An exception no code path expected (a bug), reported as one line naming the file(s)."""


def _with_last_resort(info: CommandInfo) -> CommandInfo:
    """``info`` with its callback wrapped so that an unexpected exception becomes an
    :class:`InternalError` naming the command's file(s) (``GZINERTIA_TRACEBACK=1`` re-raises
    it with its traceback, for a bug report)."""
    callback = info.callback
    if callback is None:
        return info

    @functools.wraps(callback)
    def run(*args: object, **kwargs: object) -> object:
        try:
            return callback(*args, **kwargs)
        except (GzInertiaError, KeyboardInterrupt):
            raise
        except Exception as exc:
            if _is_click_signal(exc) or os.environ.get("GZINERTIA_TRACEBACK"):
                raise
            files = kwargs.get("file", kwargs.get("paths"))
            named = files if isinstance(files, list) else [files]
            where = ", ".join("<stdin>" if str(f) == "-" else str(f) for f in named)
            text = " ".join(f"{type(exc).__name__}: {exc}".split())
            raise InternalError(
                f"{where}: internal error, please report ({text}; "
                "GZINERTIA_TRACEBACK=1 shows the traceback)"
            ) from exc

    wrapped = copy.copy(info)
    wrapped.callback = run
    return wrapped


def _is_click_signal(exc: BaseException) -> bool:
    """typer/click's own exceptions (Exit, Abort, usage errors) that ``main`` handles."""
    return isinstance(exc, (typer.Exit, typer.Abort)) or (
        callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int)
    )


def _command_name(info: CommandInfo) -> str:
    """The name typer gives a command: its own, else the function's with ``-`` for ``_``."""
    if info.name:
        return info.name
    callback = info.callback
    return "" if callback is None else callback.__name__.lower().replace("_", "-")


def _shown(message: str) -> str:
    """An error message as one line a terminal shows as it is: line breaks as spaces, control
    and bidi characters (from file or link names) escaped."""
    return gzinertia.wording.visible(" ".join(message.splitlines()))


def main() -> None:
    """Console-script entry: runs the app, turning user errors into one line and exit status 2
    (an unexpected exception too: "internal error, please report", naming the file); messages
    name the command line's flags, not the library's keyword arguments."""
    _quiet_float_warnings()
    with interface("command line"):
        status = _run(sys.argv[1:])
    if status:
        sys.exit(status)


def error_line(exc: GzInertiaError) -> str:
    """The one line the command line prints for ``exc``: a :class:`SettingError` names the
    setting by its flag (its key spelled for the command line)."""
    text = exc.render("command line") if isinstance(exc, SettingError) else str(exc)
    return f"gzinertia: error: {_shown(text)}"


def _run(args: list[str]) -> int:
    """The app on ``args``: its exit status, every error printed as one line."""
    try:
        status = _app_for(args)(standalone_mode=False)
        return status if isinstance(status, int) else 0
    except GzInertiaError as exc:
        typer.echo(error_line(exc), err=True)
        return 2
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("gzinertia: aborted", err=True)
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    except Exception as exc:
        return _unexpected(exc)


def _unexpected(exc: Exception) -> int:
    """Usage errors: click's ClickException (vendored by newer typer) knows how to show itself.
    One line like every other error (an option's choices are listed in --help); a bare
    `gzinertia` or `gzinertia CMD` with nothing else still shows the help. Anything else,
    outside a command (e.g. while typer parses): still one line, never a traceback."""
    show, exit_code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
    if callable(show) and isinstance(exit_code, int):
        message = getattr(exc, "format_message", None)
        if type(exc).__name__ == "NoArgsIsHelpError" or not callable(message):
            show()
        else:
            typer.echo(f"gzinertia: error: {_shown(' '.join(str(message()).split()))}",
                       err=True)
        return 2
    if os.environ.get("GZINERTIA_TRACEBACK"):
        raise exc
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    typer.echo(f"gzinertia: error: internal error, please report ({_shown(text)})", err=True)
    return 2


if __name__ == "__main__":  # pragma: no cover
    main()
