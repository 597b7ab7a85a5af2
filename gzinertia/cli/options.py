"""Options and choices shared by the commands, declared once.

* The choices of the command line (``--fit``, ``--fluid``, ``--ordering``, ``--sign``,
  ``--format``, ...) are ``Literal`` types: typer lists them in ``--help`` and refuses any other
  value with a usage error (exit status 2), so no command validates them by hand, and mypy
  checks that each fits the library's own ``Literal`` where a command hands it over
  (``tests/test_cli_options.py`` checks that each names exactly the library's vocabulary).
* The write-mode options of every editing command (``-o/--output``, ``--in-place``,
  ``--check``, ``--diff``, ``--force-readonly``) are added by one decorator,
  :func:`write_mode_options`, which hands the command a ready
  :class:`~gzinertia.edit.output.WriteMode`::

      @app.command()
      @write_mode_options
      def mycommand(file: EditedFileArgument, ..., *, mode: WriteMode) -> None:
          ...
          deliver_edit(file, old, new, mode)

  FILE ``-`` is standard input, the same way for every editing command (:func:`edit_mode`):
  the command receives ``file`` as ``<stdin>`` and the bytes in ``mode.stdin_data`` (hand them
  to the edit as ``data=``); :func:`~gzinertia.edit.output.deliver` then writes the edited file
  to stdout unless ``-o``, ``--check`` or ``--diff`` is given, and ``--in-place`` is refused.

Nothing here imports NumPy (CLI start-up).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional, TypeVar, cast

import typer

if TYPE_CHECKING:
    from gzinertia.edit.output import WriteMode

__all__ = [
    "AxesChoice",
    "CheckOption",
    "DiffOption",
    "EditedFileArgument",
    "FitChoice",
    "FixMethodChoice",
    "FluidChoice",
    "ForceReadonlyOption",
    "FormatChoice",
    "HullChoice",
    "HullOption",
    "InPlaceOption",
    "OrderingChoice",
    "OutputOption",
    "ParserChoice",
    "SeverityChoice",
    "ShapeSourceChoice",
    "SignChoice",
    "ToleranceChoice",
    "edit_mode",
    "hull_option",
    "write_mode_options",
]

# duplicates: the choice Literals below are alike by shape only (one per set of values), as is
# every module's list of Literal vocabularies after its __all__ (audit/findings.py)
#: Ellipsoid fits (:data:`gzinertia.physics.fits.FIT_METHODS` but ``explicit``, which
#: ``--semi-axes`` chooses).
FitChoice = Literal["volume", "mujoco", "inertia"]
#: Named fluids (:data:`gzinertia.physics.fluids.FLUID_DENSITIES`).
FluidChoice = Literal["freshwater", "seawater", "air"]
#: 6x6 orderings (:data:`gzinertia.physics.spatial.ORDERINGS`).
OrderingChoice = Literal["angular-first", "linear-first"]
#: Signs of the Hydrodynamics plugin's ``<iDotJ>`` values (:data:`gzinertia.edit.convert.SIGNS`).
SignChoice = Literal["fossen", "physical", "auto"]
#: Axes an authored ``<fluid_added_mass>`` is expressed in (``shift --axes``).
AxesChoice = Literal["link", "inertial"]
#: SDFormat readers: gzinertia's own, or libsdformat's Python module.
ParserChoice = Literal["gzinertia", "sdformat"]
#: Audit report formats (:data:`gzinertia.audit.formats.FORMATS`).
FormatChoice = Literal["table", "text", "json", "sarif", "junit", "github"]
#: Finding severities (:data:`gzinertia.audit.findings.Severity`).
SeverityChoice = Literal["error", "warning", "info"]
#: Inertia validity tolerances (:data:`gzinertia.audit.config.TOLERANCES`).
ToleranceChoice = Literal["gz", "drake"]
#: Inertia repair methods (:data:`gzinertia.edit.fix.METHODS`).
FixMethodChoice = Literal["nearest", "geometry", "balance"]
#: Which of a link's geometries stands for the body (:data:`gzinertia.edit.fix.SHAPE_SOURCES`).
ShapeSourceChoice = Literal["collision", "visual"]


#: The FILE argument of every editing command.
EditedFileArgument = Annotated[
    Path,
    typer.Argument(
        help="SDFormat model or world file to edit; - reads it from standard input and writes "
        "the edited file to standard output (or -o OUT; --check and --diff as for a file)."
    ),
]
OutputOption = Annotated[
    Optional[Path],  # noqa: UP045 (typer needs Optional on Python 3.10)
    typer.Option(
        "--output", "-o", help="Write the edited file here (atomically); - writes it to stdout."
    ),
]
InPlaceOption = Annotated[
    bool, typer.Option("--in-place", help="Rewrite FILE atomically (only when it changes).")
]
CheckOption = Annotated[
    bool, typer.Option("--check", help="Write nothing; exit 1 if FILE would change (for CI).")
]
DiffOption = Annotated[bool, typer.Option("--diff", help="Print a unified diff; write nothing.")]
ForceReadonlyOption = Annotated[
    bool,
    typer.Option(
        "--force-readonly",
        help="Write FILE (or OUT) even if its permissions say read-only; it stays read-only.",
    ),
]

#: The write-mode parameters :func:`write_mode_options` adds, with their defaults.
_WRITE_MODE_PARAMETERS: tuple[tuple[str, Any, Any], ...] = (
    ("output", OutputOption, None),
    ("in_place", InPlaceOption, False),
    ("check", CheckOption, False),
    ("diff", DiffOption, False),
    ("force_readonly", ForceReadonlyOption, False),
)

F = TypeVar("F", bound=Callable[..., Any])


def write_mode_options(command: F) -> F:
    """``command`` (which takes ``mode: WriteMode``) as a typer command with the write-mode
    options ``-o/--output``, ``--in-place``, ``--check``, ``--diff`` and ``--force-readonly``
    in place of ``mode``; the :class:`~gzinertia.edit.output.WriteMode` they make (and its
    checks: ``-o`` and ``--in-place`` exclude each other, ``--check`` writes nothing) is built
    before the command runs."""
    signature = inspect.signature(command)
    if "mode" not in signature.parameters:
        raise TypeError(f"{command.__name__} must take a 'mode: WriteMode' parameter")
    names = {name for name, _, _ in _WRITE_MODE_PARAMETERS}
    taken = names & set(signature.parameters)
    if taken:
        raise TypeError(f"{command.__name__} declares write-mode options itself: {sorted(taken)}")
    kept = _evaluated_parameters(command, "mode")
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default)
        for name, hint, default in _WRITE_MODE_PARAMETERS
    ]

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        output, in_place, check, diff, force_readonly = (
            kwargs.pop(name, default) for name, _, default in _WRITE_MODE_PARAMETERS
        )
        file, mode = edit_mode(
            kwargs.get("file"), output, in_place, check, diff, force_readonly=force_readonly
        )
        if "file" in kwargs:
            kwargs["file"] = file
        return command(*args, mode=mode, **kwargs)

    parameters = [*kept, *added]
    run.__dict__["__signature__"] = signature.replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    run.__annotations__["return"] = None
    return cast(F, run)


def _evaluated_parameters(command: Callable[..., Any], left_out: str) -> list[inspect.Parameter]:
    """``command``'s parameters but ``left_out``, their string hints evaluated in the command
    module's namespace (typer reads the wrapper's signature, not the module's)."""
    namespace = command.__globals__
    return [
        p.replace(annotation=eval(p.annotation, namespace))
        if isinstance(p.annotation, str)
        else p
        for p in inspect.signature(command).parameters.values()
        if p.name != left_out
    ]


#: What to do with a mesh surface that cannot be closed
#: (:data:`gzinertia.physics.mesh_body.HULL_CHOICES`; spelled here so that the CLI imports no
#: NumPy at start-up).
HullChoice = Literal["none", "convex"]
HullOption = Annotated[
    HullChoice,
    typer.Option(
        "--hull",
        help="A mesh that is not closed even after repair (welding, small holes filled): none "
        "refuses it (default), convex uses its convex hull, an approximation said in every "
        "output and in the comment written. docs/meshes.md.",
    ),
]


def hull_option(command: F) -> F:
    """``command`` as a typer command with a ``--hull`` option (:data:`HullOption`), run inside
    :func:`gzinertia.physics.mesh_body.hull_fallback` with the choice made."""
    parameters = _evaluated_parameters(command, "hull")
    parameters.append(
        inspect.Parameter("hull", inspect.Parameter.KEYWORD_ONLY, annotation=HullOption,
                          default="none")
    )

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        from gzinertia.physics.mesh_body import hull_fallback

        with hull_fallback(kwargs.pop("hull", "none")):
            return command(*args, **kwargs)

    run.__dict__["__signature__"] = inspect.signature(command).replace(parameters=parameters)
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    run.__annotations__["return"] = None
    return cast(F, run)


def edit_mode(
    file: Path | None,
    output: Path | None,
    in_place: bool,
    check: bool,
    diff: bool,
    *,
    force_readonly: bool = False,
) -> tuple[Path | None, WriteMode]:
    """The FILE an editing command edits and its :class:`~gzinertia.edit.output.WriteMode`:
    for FILE ``-``, ``<stdin>`` and a mode holding standard input's bytes (read here, bounded
    as a file is: :func:`gzinertia.sdf.stdin.stdin_bytes`), after ``--in-place`` is refused
    without reading anything; any other FILE as given. ``-o -`` writes to stdout."""
    from gzinertia.edit.output import STDIN_IN_PLACE, WriteMode
    from gzinertia.errors import GzInertiaError
    from gzinertia.sdf.stdin import STDIN_PATH, is_stdin_arg, stdin_bytes

    stdout = is_stdin_arg(output)
    if stdout:
        if in_place:
            raise GzInertiaError("give either -o/--output or --in-place, not both")
        output = None
    mode = WriteMode(output, in_place, check, diff, force_readonly=force_readonly, stdout=stdout)
    if not is_stdin_arg(file):
        return file, mode
    if in_place:
        raise GzInertiaError(STDIN_IN_PLACE)
    return STDIN_PATH, WriteMode(
        output, in_place, check, diff, force_readonly=force_readonly, stdin_data=stdin_bytes(),
        stdout=stdout,
    )
