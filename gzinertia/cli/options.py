"""Options and choices shared by the commands, declared once.

* The choices of the command line (``--fit``, ``--fluid``, ``--ordering``, ``--sign``,
  ``--format``, ...) are ``Literal`` types: typer lists them in ``--help`` and refuses any other
  value with a usage error (exit status 2), so no command validates them by hand, and mypy
  checks that each fits the library's own ``Literal`` where a command hands it over
  (``tests/test_cli_options.py`` checks that each names exactly the library's vocabulary).
* Each flag is declared once. A command's own flags are the fields of a record it takes as
  ``flags`` (:func:`command_flags`: each field the flag's ``Annotated`` type and default, in the
  order ``--help`` lists them); the options every command of a kind has are groups declared
  the same way (:class:`WriteFlags`, :class:`ModelInputFlags`) and added by one decorator each.
* The write-mode options of every editing command (``-o/--output``, ``--in-place``,
  ``--check``, ``--diff``, ``--force-readonly``) are added by one decorator,
  :func:`write_mode_options`, which hands the command a ready
  :class:`~gzinertia.cli.delivery.WriteMode`; a command that edits one FILE takes its flags
  and a :class:`CommandFile` (the FILE, its write mode and the model input) through
  :func:`editing_command`::

      @dataclass(frozen=True, repr=False, eq=False)
      class MyFlags(ValueRecord):
          force: Annotated[bool, flag("", "Replace what the link has.")] = False

      @app.command()
      @editing_command
      def mycommand(flags: MyFlags, file: CommandFile) -> None:
          ...
          edit = edited(gzinertia.shift, file.path, ..., force=flags.force, data=file.data)
          deliver_edit(edit, file.mode)

  FILE ``-`` is standard input, the same way for every editing command (:func:`edit_mode`):
  the command receives the path ``<stdin>`` and the bytes in ``file.data`` (hand them to the
  edit as ``data=``); :func:`~gzinertia.cli.delivery.deliver` then writes the edited file
  to stdout unless ``-o``, ``--check`` or ``--diff`` is given, and ``--in-place`` is refused.
* The model-input options of every command that reads a model (``-m/--model-path``,
  ``--package-path``, ``--xacro-arg``, ``--xacro-env``, ``--trust-xacro``) are added by
  :func:`model_input_options`, which hands the command one
  :class:`~gzinertia.model_input.ModelInput` as ``source``.

Nothing here imports NumPy (CLI start-up).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar, cast, get_type_hints

import gzinertia.physics
import gzinertia.sdf
import gzinertia.urdf
from gzinertia.checks.tolerance import Tolerance
from gzinertia.cli.flags import Maybe, argument, flag
from gzinertia.errors import GzInertiaError
from gzinertia.model_input import ModelInput
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary import choices
from gzinertia.vocabulary.fluids import FluidName
from gzinertia.vocabulary.hull import HullChoice
from gzinertia.vocabulary.model_suffixes import is_urdf_path

if TYPE_CHECKING:
    import gzinertia.physics.mesh_fallback
    import gzinertia.sdf.stdin
    import gzinertia.urdf.fragments
    import gzinertia.urdf.xacro_expand
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.model_input import ModelInput

__all__ = [
    "TOLERANCE_CHOICES_HELP",
    "AxesChoice",
    "CheckOption",
    "CommandFile",
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
    "ModelInputFlags",
    "ModelPathOption",
    "OrderingChoice",
    "OutputOption",
    "ParserChoice",
    "SeverityChoice",
    "SignChoice",
    "ToleranceChoice",
    "WriteFlags",
    "command_flags",
    "edit_mode",
    "editing_command",
    "editing_command_with",
    "editing_options",
    "hull_option",
    "model_input_options",
    "sdf_only",
    "write_flags",
    "write_mode_options",
]

# The choices of the flags the library also takes are the library's own words, declared once
# in gzinertia.vocabulary.choices (and checks.tolerance, vocabulary.fluids, vocabulary.hull).
#: Ellipsoid fits (``explicit`` is chosen by ``--semi-axes``).
FitChoice = choices.FitChoice
#: Named fluids (the names of :data:`gzinertia.vocabulary.fluids.FLUID_DENSITIES`).
FluidChoice = FluidName
#: 6x6 orderings.
OrderingChoice = choices.Ordering
#: Signs of the Hydrodynamics plugin's ``<iDotJ>`` values.
SignChoice = choices.ConvertSign
#: Axes an authored ``<fluid_added_mass>`` is expressed in (``shift --axes``).
AxesChoice = choices.ShiftAxes
#: SDFormat readers: gzinertia's own, or libsdformat's Python module (a command-line choice).
ParserChoice = Literal["gzinertia", "sdformat"]
#: Audit report formats.
FormatChoice = choices.OutputFormat
#: Finding severities.
SeverityChoice = choices.Severity
#: Inertia validity tolerances.
ToleranceChoice = Tolerance
#: The tolerances as ``--help`` describes them (``audit`` and ``fix`` say so in these words).
TOLERANCE_CHOICES_HELP = "gz (gz-math/libsdformat, default) or drake"
#: Inertia repair methods.
FixMethodChoice = choices.FixMethod


#: The FILE argument of every editing command.
EditedFileArgument = Annotated[Path, argument(
    "SDFormat model or world file to edit; - reads it from standard input and writes the edited "
    "file to standard output (or -o OUT; --check and --diff as for a file).")]
OutputOption = Annotated[Maybe[Path], flag("--output -o",
    "Write the edited file here (atomically); - writes it to stdout.")]
InPlaceOption = Annotated[bool, flag("--in-place",
    "Rewrite FILE atomically (only when it changes).")]
CheckOption = Annotated[bool, flag("--check",
    "Write nothing; exit 1 if FILE would change (for CI).")]
DiffOption = Annotated[bool, flag("--diff", "Print a unified diff; write nothing.")]
ForceReadonlyOption = Annotated[bool, flag("--force-readonly",
    "Write FILE (or OUT) even if its permissions say read-only; it stays read-only.")]

ModelPathOption = Annotated[Maybe[list[Path]], flag("--model-path -m",
    "Folder searched for model:// URIs before GZ_SIM_RESOURCE_PATH, SDF_PATH and "
    "IGN_GAZEBO_RESOURCE_PATH (repeatable).")]
XacroArgOption = Annotated[Maybe[list[str]], flag("--xacro-arg",
    "name:=value for a xacro file's $(arg name) (repeatable).")]
XacroEnvOption = Annotated[Maybe[list[str]], flag("--xacro-env",
    "Environment variable a xacro file's $(env NAME) and $(optenv NAME) may read (repeatable); "
    "no other is read: $(env) of another is an error, $(optenv) of another takes its default.")]
TrustXacroOption = Annotated[bool, flag("--trust-xacro",
    "Evaluate xacro expressions with Python, as the xacro package does: this runs the model's "
    "Python. Only for files you trust; by default expressions are evaluated without Python "
    "(docs/security.md).")]
PackagePathOption = Annotated[Maybe[list[Path]], flag("--package-path",
    "Folder searched for ROS packages ($(find pkg), package://) in URDF/xacro files, before "
    "ROS_PACKAGE_PATH and AMENT_PREFIX_PATH (repeatable).")]


F = TypeVar("F", bound=Callable[..., Any])


def _hint(annotation: Any, namespace: dict[str, Any]) -> Any:
    """A parameter's hint, a string one evaluated in the command module's namespace (typer
    needs the objects); one only type checkers import (``mode: WriteMode`` when another of
    these decorators replaces it) stays a string."""
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, namespace)
    except NameError:
        return annotation


def _parameters(group: type[ValueRecord]) -> tuple[tuple[str, Any, Any], ...]:
    """The parameters an option group adds to a command, (name, typer hint, default), one per
    field of its record ``group`` (declared with the flag's ``Annotated`` type and default; a
    field without a default is a required option), in field order."""
    hints = get_type_hints(group, include_extras=True)
    return tuple((f.name, hints[f.name], inspect.Parameter.empty if f.default is MISSING
                  else f.default) for f in fields(group))


def _with_parameters(
    command: F,
    given: str | None,
    parameters: tuple[tuple[str, Any, Any], ...],
    build: Callable[[dict[str, Any], dict[str, Any]], Any] | None = None,
    *,
    around: Callable[[dict[str, Any]], AbstractContextManager[object]] | None = None,
) -> F:
    """``command`` (which takes the keyword ``given``) as a typer command with ``parameters``
    (name, typer hint, default) in place of ``given``: ``build(values, kwargs)`` makes what
    ``given`` receives from their values (by name), before the command runs, and may change
    the command's other arguments (``kwargs``). With ``given`` ``None`` the parameters are
    added and nothing replaced; ``around(values)``, if given, is the context the command runs
    in."""
    signature = inspect.signature(command)
    if given is not None and given not in signature.parameters:
        raise TypeError(f"{command.__name__} must take a {given!r} parameter")
    names = {name for name, _, _ in parameters}
    taken = names & set(signature.parameters)
    if taken:
        raise TypeError(f"{command.__name__} declares {given} options itself: {sorted(taken)}")
    namespace = command.__globals__
    kept = [
        p.replace(annotation=_hint(p.annotation, namespace))
        for p in signature.parameters.values()
        if p.name != given
    ]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default)
        for name, hint, default in parameters
    ]

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        values = {name: kwargs.pop(name, default) for name, _, default in parameters}
        if given is not None and build is not None:
            kwargs[given] = build(values, kwargs)
        with around(values) if around is not None else nullcontext():
            return command(*args, **kwargs)

    signature = signature.replace(parameters=[*kept, *added])
    run.__dict__["__signature__"] = signature
    run.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    run.__annotations__["return"] = None
    return cast(F, run)


@dataclass(frozen=True, repr=False, eq=False)
class WriteFlags(ValueRecord):
    """The write-mode flags as given (``-o/--output``, ``--in-place``, ``--check``, ``--diff``,
    ``--force-readonly``): the parameters :func:`write_mode_options` and :func:`write_flags`
    add, declared here once; handed as given to a command that checks them against its
    several FILEs before they make a :class:`~gzinertia.cli.delivery.WriteMode`
    (:func:`edit_mode`)."""

    output: OutputOption = None
    in_place: InPlaceOption = False
    check: CheckOption = False
    diff: DiffOption = False
    force_readonly: ForceReadonlyOption = False

    def values(self) -> dict[str, Any]:
        """The flags by parameter name (:func:`edit_mode`'s keywords)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def write_flags(command: F) -> F:
    """``command`` (which takes ``write: WriteFlags``) as a typer command with the write-mode
    options of :func:`write_mode_options` in place of ``write``, handed over as given."""
    return _with_parameters(command, "write", _parameters(WriteFlags),
                            lambda values, kwargs: WriteFlags(**values))


def write_mode_options(command: F) -> F:
    """``command`` (which takes ``mode: WriteMode``) as a typer command with the write-mode
    options ``-o/--output``, ``--in-place``, ``--check``, ``--diff`` and ``--force-readonly``
    in place of ``mode``; the :class:`~gzinertia.cli.delivery.WriteMode` they make (and its
    checks: ``-o`` and ``--in-place`` exclude each other, ``--check`` writes nothing) is built
    before the command runs."""

    def build(values: dict[str, Any], kwargs: dict[str, Any]) -> WriteMode:
        file, mode = edit_mode(kwargs.get("file"), **values)
        if "file" in kwargs:
            kwargs["file"] = file
        return mode

    return _with_parameters(command, "mode", _parameters(WriteFlags), build)


@dataclass(frozen=True, repr=False, eq=False)
class ModelInputFlags(ValueRecord):
    """The model-input flags as given (``-m/--model-path``, ``--package-path``,
    ``--xacro-arg``, ``--xacro-env``, ``--trust-xacro``): the parameters
    :func:`model_input_options` adds, declared here once."""

    model_path: ModelPathOption = None
    package_path: PackagePathOption = None
    xacro_arg: XacroArgOption = None
    xacro_env: XacroEnvOption = None
    trust_xacro: TrustXacroOption = False

    def model_input(self) -> ModelInput:
        """The :class:`~gzinertia.model_input.ModelInput` these make; a malformed
        ``--xacro-arg`` is an error naming it."""
        xacro_args = None
        if self.xacro_arg:  # (the URDF package is not imported for an SDF file's command line)

            xacro_args = gzinertia.urdf.xacro_expand.parse_xacro_args(self.xacro_arg)
        return ModelInput.of(self.model_path or (), self.package_path or (), xacro_args,
                             self.xacro_env or (), self.trust_xacro)


def model_input_options(command: F) -> F:
    """``command`` (which takes ``source: ModelInput``) as a typer command with the options
    every command that reads a model has: ``-m/--model-path``, ``--package-path``,
    ``--xacro-arg``, ``--xacro-env`` and ``--trust-xacro``, in place of ``source``; the
    :class:`~gzinertia.model_input.ModelInput` they make (a malformed ``--xacro-arg`` is an
    error naming it) is built before the command runs (:class:`ModelInputFlags`)."""
    return _with_parameters(command, "source", _parameters(ModelInputFlags),
                            lambda values, kwargs: ModelInputFlags(**values).model_input())


def command_flags(command: F) -> F:
    """``command`` (which takes ``flags``, a record of its own flags: a frozen dataclass whose
    fields are declared with the flag's ``Annotated`` type and default, in the order ``--help``
    lists them) as a typer command with one option per field in place of ``flags``; the record
    is made from their values before the command runs. Each flag is declared once, as its
    field: no alias beside a parameter of the same name."""
    hint = inspect.signature(command).parameters.get("flags")
    if hint is None:
        raise TypeError(f"{command.__name__} must take a 'flags' parameter")
    group = _hint(hint.annotation, command.__globals__)
    return _with_parameters(command, "flags", _parameters(group),
                            lambda values, kwargs: group(**values))


def editing_options(command: F) -> F:
    """``command`` (which takes ``flags``, ``mode`` and ``source``: an editing command) with
    the options of every command that edits one FILE, listed by ``--help`` in this order: its
    own flags (:func:`command_flags`), the model-input options (:func:`model_input_options`),
    the write-mode options (:func:`write_mode_options`)."""
    return write_mode_options(model_input_options(command_flags(command)))


@dataclass(frozen=True, repr=False, eq=False)
class CommandFile(ValueRecord):
    """What an editing command (:func:`editing_command`) edits and how: ``path`` (FILE as given;
    ``<stdin>`` for ``-``, whose bytes ``mode`` holds), the :class:`~gzinertia.cli.delivery.
    WriteMode` its options make and the :class:`~gzinertia.model_input.ModelInput`."""

    path: Path
    mode: WriteMode
    source: ModelInput

    @property
    def data(self) -> bytes | None:
        """Standard input's bytes for FILE ``-`` (the edit's ``data=``), else ``None``."""
        return self.mode.stdin_data

    def sdf_search_paths(self, command: str) -> list[Path]:
        """The folders ``command``, which edits SDFormat files only, searches (:func:`sdf_only`:
        a URDF or xacro FILE is an error saying so)."""
        return sdf_only(self.path, self.source, command)


def editing_command_with(argument: Any) -> Callable[[F], F]:
    """:func:`editing_command` with the FILE argument ``argument`` (its ``Annotated`` type)."""

    def decorate(command: F) -> F:
        group = _hint(inspect.signature(command).parameters["flags"].annotation,
                      command.__globals__)

        @functools.wraps(command)
        def adapter(file: Path, flags: Any, *, mode: WriteMode, source: ModelInput) -> Any:
            return command(flags, CommandFile(file, mode, source))

        keyword = inspect.Parameter.KEYWORD_ONLY
        adapter.__dict__["__signature__"] = inspect.Signature([
            inspect.Parameter("file", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=argument),
            inspect.Parameter("flags", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=group),
            inspect.Parameter("mode", keyword), inspect.Parameter("source", keyword),
        ], return_annotation=None)
        return editing_options(cast(F, adapter))

    return decorate


def editing_command(command: F) -> F:
    """``command`` (which takes ``flags``, the record of its own flags, and ``file``, an
    :class:`CommandFile`) as a typer command editing one FILE (:data:`EditedFileArgument`) with
    the options of :func:`editing_options`, in its order: FILE, its own flags, the model input,
    the write mode."""
    return editing_command_with(EditedFileArgument)(command)


def sdf_only(file: Path | None, source: ModelInput, command: str) -> list[Path]:
    """The folders ``command``, which edits SDFormat files only, searches for what ``file``
    includes (``source``'s model paths, then its package paths); a URDF or xacro ``file`` is
    an error saying so, and how to get the SDFormat Gazebo builds from it."""
    if file is not None and is_urdf_path(file):
        # a fragment: nothing to edit there, in any format
        gzinertia.urdf.fragments.refuse_fragment(file)
        raise GzInertiaError(
            f"{file}: {command} edits SDFormat files only, not URDF or xacro; "
            f"`gzinertia expand {file} --sdf` prints the SDFormat Gazebo builds from it (with "
            "the same options), which it can edit"
        )
    return source.search_paths


HullOption = Annotated[HullChoice, flag("--hull",
    "A mesh that is not closed even after repair (welding, small holes filled): none refuses it "
    "(default), convex uses its convex hull, wrap a closed surface that follows the mesh and "
    "closes its openings (libigl, gzinertia[bem]); either is an approximation said in every "
    "output and in the comment written. docs/meshes.md.")]


def hull_option(command: F) -> F:
    """``command`` as a typer command with a ``--hull`` option (:data:`HullOption`), run inside
    :func:`gzinertia.physics.mesh_body.hull_fallback` with the choice made."""

    def around(values: dict[str, Any]) -> AbstractContextManager[object]:
        return gzinertia.physics.mesh_fallback.hull_fallback(values["hull"])

    return _with_parameters(command, None, (("hull", HullOption, "none"),), around=around)


def edit_mode(
    file: Path | None,
    output: Path | None,
    in_place: bool,
    check: bool,
    diff: bool,
    *,
    force_readonly: bool = False,
) -> tuple[Path | None, WriteMode]:
    """The FILE an editing command edits and its :class:`~gzinertia.cli.delivery.WriteMode`:
    for FILE ``-``, ``<stdin>`` and a mode holding standard input's bytes (read here, bounded
    as a file is: :func:`gzinertia.sdf.stdin.stdin_bytes`), after ``--in-place`` is refused
    without reading anything; any other FILE as given. ``-o -`` writes to stdout."""
    # not at the top: the delivery (about 9 ms) is no part of --help, and the cli face would
    # close a circle (gzinertia.cli imports cli.app, which imports this module)
    from gzinertia.cli.delivery import STDIN_IN_PLACE, WriteMode  # noqa: PLC0415 (see above)

    stdout = gzinertia.sdf.stdin.is_stdin_arg(output)
    if stdout:
        if in_place:
            raise GzInertiaError("give either -o/--output or --in-place, not both")
        output = None
    mode = WriteMode(output, in_place, check, diff,
                                            force_readonly=force_readonly, stdout=stdout)
    if not gzinertia.sdf.stdin.is_stdin_arg(file):
        return file, mode
    if in_place:
        raise GzInertiaError(STDIN_IN_PLACE)
    return gzinertia.sdf.stdin.STDIN_PATH, WriteMode(
        output, in_place, check, diff, force_readonly=force_readonly,
        stdin_data=gzinertia.sdf.stdin.stdin_bytes(),
        stdout=stdout,
    )
