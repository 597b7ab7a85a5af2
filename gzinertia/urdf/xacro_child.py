"""What runs in the child process that expands a xacro file (:mod:`gzinertia.urdf.xacro_sandbox`).

:func:`expand_annotated` expands with the ``xacro`` package under a
:class:`~gzinertia.urdf.xacro_policy.XacroPolicy`, reading every file through
:mod:`gzinertia.io.safe_read` under the folders the policy allows, refusing include cycles, and
turning xacro's many errors into one :class:`~gzinertia.errors.SdfError` naming file and line.
xacro keeps its state in module globals: expansions in one process are serialised by a lock.
"""

from __future__ import annotations

import io
import os
import re
import threading
import xml.parsers.expat
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import xacro
from xacro import substitution_args

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.io.limits import ENV_XACRO_MEMORY
from gzinertia.sandbox import CpuLimitError
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.urdf.ros_packages import find_package, package_roots
from gzinertia.urdf.xacro_children import near_child_search
from gzinertia.urdf.xacro_inputs import XacroInputs
from gzinertia.urdf.xacro_lines import Annotator
from gzinertia.urdf.xacro_policy import ReadRoots, XacroPolicy, default_roots, installed, patched

__all__ = ["expand_annotated", "prime"]

_LOCK = threading.Lock()


def _line_of(file: str, message: str) -> int | None:
    """The line of ``file`` that holds what xacro's ``message`` quotes (an expression, a
    ``$(...)`` substitution, a macro or property name), when it is found there once or more."""
    quoted = re.findall(r"'([^']{1,200})'|\[([^\]]{1,200})\]", message)
    needles = [a or b for a, b in quoted]
    needles += re.findall(r"(\$\([^)]{1,200}\))", message)
    if not needles:
        return None
    try:
        lines = read_file_bytes(file).decode("utf-8", "replace").splitlines()
    except GzInertiaError:
        return None
    for needle in needles:
        for i, line in enumerate(lines, 1):
            if needle in line:
                return i
    return None


class _SafeOpen:
    """``open`` for xacro's module: reads through :mod:`gzinertia.io.safe_read`, only under the
    folders the expansion may read (:class:`~gzinertia.urdf.xacro_policy.ReadRoots`)."""

    def __init__(self, roots: ReadRoots) -> None:
        self._roots = roots
        #: Every file read, as named, in the order first read.
        self.read: dict[str, None] = {}

    def __call__(self, file: str, mode: str = "r", *args: object, **kwargs: object) -> io.IOBase:
        if "r" not in mode or any(c in mode for c in "wax+"):
            raise PermissionError(f"xacro may not write {file!r}")
        self._roots.check(file)
        data = read_file_bytes(file)
        self.read[str(file)] = None
        if "b" in mode:
            return io.BytesIO(data)
        return io.StringIO(data.decode("utf-8"))


def _checked_includes(xacro: Any) -> Callable[..., Iterator[str]]:
    """The ``get_include_files`` of xacro, with its refusals placed at the include's line: a
    file being included already (a cycle, which would nest until Python's recursion limit with
    no word of the include), and a pattern the read policy refuses
    (:meth:`~gzinertia.urdf.xacro_policy.ReadRoots.glob`)."""
    original = xacro.get_include_files

    def get_include_files(filename_spec: str, symbols: Any) -> Iterator[str]:
        includer = str((xacro.filestack or ["?"])[-1])

        def refused(message: str) -> SdfError:
            return SdfError(includer, _line_of(includer, f"'{filename_spec}'"), message)

        try:
            for filename in original(filename_spec, symbols):
                stack = [os.path.realpath(f) for f in xacro.filestack or [] if f]
                if os.path.realpath(filename) in stack:
                    names = [str(f) for f in xacro.filestack if f]
                    start = stack.index(os.path.realpath(filename))
                    cycle = " -> ".join(os.path.basename(f) for f in [*names[start:], filename])
                    raise refused(f"xacro: the include of {filename} is a cycle ({cycle})")
                yield filename
        except SdfError as exc:
            if exc.file == includer:
                raise
            raise refused(f"xacro: include of {filename_spec}: {exc.message}") from None

    return get_include_files


class _ArgsRead(dict[str, str]):
    """The xacro arguments, as xacro's substitution context holds them, recording the names
    looked up (``$(arg)``, ``xacro.arg``, ``$(eval)`` and the ``<xacro:arg>`` defaults ask
    whether a name was given): what the expansion read of them, for the audit's cache."""

    def __init__(self, given: Mapping[str, str]) -> None:
        super().__init__(given)
        self.given = dict(given)
        self.names: dict[str, None] = {}

    def __getitem__(self, key: str) -> str:
        self.names[key] = None
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.names[key] = None
        return super().__contains__(key)

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.names[key] = None
        return super().get(key, default)

    def read(self) -> list[tuple[str, str | None]]:
        """``(name, value given or None)`` for each name looked up, in the order first met."""
        return [(name, self.given.get(name)) for name in self.names]


def _limit_hit(exc: BaseException) -> str | None:
    """What limit ``exc`` (or an exception it wraps) reports, if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, MemoryError):
            return f"needs more memory than its limit ({ENV_XACRO_MEMORY})"
        if isinstance(current, CpuLimitError):
            return str(current)
        inner = getattr(current, "exc", None)
        current = inner if isinstance(inner, BaseException) else (
            current.__cause__ or current.__context__)
    return None


def expand_annotated(
    path: str | Path,
    args: Mapping[str, str] | None = None,
    package_paths: Sequence[str | Path] = (),
    policy: XacroPolicy | None = None,
) -> tuple[str, str, list[str], list[str], list[tuple[str, str]], XacroInputs]:
    """In this process (the child of
    :func:`~gzinertia.urdf.xacro_expand.expand_xacro_sourced`): ``("ok", text with source
    annotations, files included, files parsed, variables whose $(optenv) default was taken,
    what the expansion read)``; the annotations index the files parsed. ``policy`` holds for
    the time of the expansion (:func:`gzinertia.urdf.xacro_policy.installed`)."""
    name = str(path)
    policy = policy or XacroPolicy()
    readable = default_roots(name, package_roots(package_paths), policy)
    optenv_defaults: list[tuple[str, str]] = []
    found: dict[str, str | None] = {}

    def find(pkg: str) -> str:
        folder = find_package(pkg, package_paths)
        found.setdefault(pkg, None if folder is None else str(folder))
        if folder is None:
            roots = ", ".join(str(r) for r in package_roots(package_paths)) or "none"
            raise substitution_args.SubstitutionException(
                f"$(find {pkg}): no package {pkg!r} under the package paths ({roots}; add "
                "--package-path, ROS_PACKAGE_PATH or AMENT_PREFIX_PATH)"
            )
        readable.add(folder)
        return str(folder)

    with _LOCK, near_child_search(), \
            installed(xacro, substitution_args, policy, readable, find, optenv_defaults), \
            patched(xacro, {"get_include_files": _checked_includes(xacro)}):
        saved_open = xacro.__dict__.get("open")
        saved_verbosity = xacro.verbosity
        saved_hooks = (xacro.parse, xacro.handle_macro_call, xacro.replace_node)
        opener = _SafeOpen(readable)
        xacro.open = opener
        given = _ArgsRead(args or {})
        xacro.verbosity = 0
        xacro.all_includes = []
        annotator = Annotator()
        annotator.install(xacro)
        try:
            doc = xacro.process_file(name, mappings=given)
            includes = [str(f) for f in xacro.all_includes]
            inputs = XacroInputs(tuple(opener.read), tuple(found.items()), tuple(given.read()),
                                 tuple(readable.globbed))
            return ("ok", str(doc.toprettyxml(indent="  ")), includes, list(annotator.files),
                    optenv_defaults, inputs)
        except Exception as exc:  # xacro raises many kinds; each becomes one line
            error = _one_line_error(exc, xacro, name)
            if error is exc:
                raise
            raise error from None
        finally:
            if saved_open is None:
                xacro.__dict__.pop("open", None)
            else:
                xacro.open = saved_open
            xacro.verbosity = saved_verbosity
            xacro.parse, xacro.handle_macro_call, xacro.replace_node = saved_hooks


def _one_line_error(exc: Exception, xacro: Any, name: str) -> Exception:
    """The one-line error that stands for ``exc``, raised while xacro expanded ``name``
    (``xacro``: the module, whose file and macro stacks say where): a gzinertia error in an
    included file is placed at the include, an XML error at its line, a too deep recursion and
    anything else named with the file and macro it happened in; ``exc`` itself when it is
    already one line where it belongs."""
    if isinstance(exc, SdfError):
        files = [str(f) for f in (xacro.filestack or []) if f]
        if exc.line is None and len(files) >= 2 and files[-1] == exc.file:
            includer = files[-2]
            base = os.path.basename(exc.file)
            return SdfError(
                includer, _line_of(includer, f"'{base}'"),
                f"xacro: include of {exc.file}: {exc.message}",
            )
        return exc
    if isinstance(exc, xml.parsers.expat.ExpatError):
        where = (xacro.filestack or [name])[-1] or name
        return SdfError(str(where), exc.lineno, f"xacro: XML error: {exc}")
    if isinstance(exc, RecursionError):
        return SdfError(name, None, "xacro: macros nest too deeply")
    stack = [f for f in (xacro.filestack or []) if f]
    where = stack[-1] if stack else name
    macros = [m.body.getAttribute("name") for m in (xacro.macrostack or [])]
    inside = f" (in macro {macros[-1]!r})" if macros else ""
    text = " ".join(str(exc).split()) or type(exc).__name__
    text = re.sub(r"<class '(?:[\w.]+\.)?(\w+)'>", r"\1", text)
    text = re.sub(r"(.{20,}?) \1(?= |$)", r"\1", text)  # xacro repeats what it wraps
    limit = _limit_hit(exc)
    if limit is not None:
        expression = re.search(r"when evaluating expression '(.{0,200}?)'(?= when|$)", text)
        shown = f" evaluating ${{{expression.group(1)}}}" if expression else ""
        return SdfError(str(where), _line_of(str(where), text), f"xacro: {limit}{shown}{inside}")
    return SdfError(str(where), _line_of(str(where), text), f"xacro: {text}{inside}")


def prime() -> None:
    """Expand a tiny text of ours once, so that xacro's regular expressions are compiled in the
    process that forks the expansions (:func:`gzinertia.urdf.xacro_sandbox.warm`), not again in
    every child."""
    xacro.process_doc(xacro.parse('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                                  '<xacro:property name="a" value="${1+1}"/>'
                                  '<link name="l${a}"/></robot>'), mappings={})
