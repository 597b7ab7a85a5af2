"""Expanding xacro without ROS, with the ``xacro`` package from PyPI.

* ``$(arg name)`` takes the ``--xacro-arg name:=value`` values; ``$(find pkg)`` and
  ``package://pkg/...`` resolve through
  :func:`~gzinertia.urdf.ros_packages.find_package` (the package paths, ``ROS_PACKAGE_PATH``,
  ``AMENT_PREFIX_PATH``; never elsewhere).
* Every file xacro reads (the file, its includes, ``load_yaml``) goes through
  :mod:`gzinertia.io.safe_read` (regular files only, size capped). Nothing is fetched from a
  network.
* xacro's errors become :class:`~gzinertia.errors.SdfError` naming the file being processed
  (and the line, for XML errors), one line.

* What the model may do is :class:`~gzinertia.urdf.xacro_policy.XacroPolicy`'s: expressions
  are evaluated without Python (:mod:`gzinertia.urdf.xacro_expression`) unless trusted,
  ``$(env)``/``$(optenv)`` read only the variables the user names, reads stay under the
  model's folders and the package paths.
* Each expansion runs in a child process with a CPU, memory and wall-clock limit
  (:mod:`gzinertia.urdf.xacro_sandbox`): macros can still nest and multiply.
* Each element of the output knows the file and line it is written at, through macros
  (:mod:`gzinertia.urdf.xacro_lines`). What the child runs is
  :mod:`gzinertia.urdf.xacro_child`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.record_base import ValueRecord
from gzinertia.urdf.ros_packages import package_roots
from gzinertia.urdf.xacro_inputs import XacroInputs
from gzinertia.urdf.xacro_lines import line_sources, strip
from gzinertia.urdf.xacro_policy import XacroPolicy
from gzinertia.urdf.xacro_sandbox import XacroLimits, run_expansion


def parse_xacro_args(pairs: Sequence[str]) -> dict[str, str]:
    """``["name:=value", ...]`` as a mapping; anything else is an error naming it."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition(":=")
        if not sep or not name.strip():
            raise GzInertiaError(f"--xacro-arg takes name:=value, not {pair!r}")
        out[name.strip()] = value
    return out


@dataclass(frozen=True, repr=False, eq=False)
class XacroExpansion(ValueRecord):
    """One expansion: ``text`` (the bytes the ``xacro`` command prints), ``includes`` (the
    files xacro included or loaded, as it named them) and ``sources``: for each line of
    ``text`` that starts an element, where the element is written (file, line) and, for one a
    macro made, where the outermost macro call is written
    (see :mod:`gzinertia.urdf.xacro_lines`)."""

    text: str
    includes: tuple[str, ...]
    sources: dict[int, tuple[tuple[str, int], tuple[str, int] | None]]
    #: ``(variable, file)``: environment variables whose ``$(optenv)`` default was taken in
    #: ``file`` because the policy does not name them (in the order met).
    optenv_defaults: tuple[tuple[str, str], ...] = ()
    #: What the expansion read: files, packages found, arguments, include patterns.
    inputs: XacroInputs = field(default_factory=XacroInputs)


def expand_xacro_sourced(
    path: str | Path,
    args: Mapping[str, str] | None = None,
    package_paths: Sequence[str | Path] = (),
    limits: XacroLimits | None = None,
    policy: XacroPolicy | None = None,
) -> XacroExpansion:
    """Expands ``path`` in a child process with a CPU, memory and wall-clock limit
    (:mod:`gzinertia.urdf.xacro_sandbox`), under ``policy`` (default: nothing trusted, no
    environment variable named); errors and limit hits are
    :class:`~gzinertia.errors.SdfError` naming file and line where known, never a named
    variable's value."""
    policy = policy or XacroPolicy()
    roots = [str(Path(p).absolute()) for p in package_roots(package_paths)]
    try:
        _, annotated, includes, files, defaults, inputs = run_expansion(
            str(path), dict(args or {}), [str(p) for p in package_paths], limits,
            policy.with_roots(roots),
        )
    except SdfError as exc:
        raise SdfError(exc.file, exc.line, policy.redact(exc.message)) from None
    return XacroExpansion(strip(annotated), tuple(includes), line_sources(annotated, files),
                          tuple((str(v), str(f)) for v, f in defaults), inputs)


def expand_xacro(
    path: str | Path,
    args: Mapping[str, str] | None = None,
    package_paths: Sequence[str | Path] = (),
    policy: XacroPolicy | None = None,
) -> str:
    """The URDF text ``xacro PATH name:=value...`` prints (same bytes as the command, where the
    model stays within ``policy``), expanded in a limited child process."""
    return expand_xacro_sourced(path, args, package_paths, policy=policy).text


