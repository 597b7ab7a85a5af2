"""Expanding xacro without ROS, with the ``xacro`` package from PyPI.

* ``$(arg name)`` takes the ``--xacro-arg name:=value`` values; ``$(find pkg)`` and
  ``package://pkg/...`` resolve through :func:`find_package`: the ``--package-path`` folders,
  then ``ROS_PACKAGE_PATH`` and ``AMENT_PREFIX_PATH`` (``<prefix>/share/<pkg>``). A folder that
  holds ``package.xml`` is a package, named by its ``<name>`` (else by the folder's name);
  folders are searched to a depth of :data:`MAX_DEPTH` below each root, hidden ones skipped.
  ``$(find pkg)`` never resolves outside these roots (no ament index, no ``rospack``).
* Every file xacro reads (the file, its includes, ``load_yaml``) goes through
  :mod:`gzinertia.safe_read` (regular files only, size capped). Nothing is fetched from a
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
  (:mod:`gzinertia.urdf.xacro_lines`).

xacro keeps its state in module globals: expansions in one process are serialised by a lock.
"""

from __future__ import annotations

import functools
import io
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import ReadRoots, XacroPolicy
    from gzinertia.urdf.xacro_sandbox import XacroLimits

MAX_DEPTH = 6
ENV_ROS_PACKAGE_PATH = "ROS_PACKAGE_PATH"
ENV_AMENT_PREFIX_PATH = "AMENT_PREFIX_PATH"
_LOCK = threading.Lock()


def parse_xacro_args(pairs: Sequence[str]) -> dict[str, str]:
    """``["name:=value", ...]`` as a mapping; anything else is an error naming it."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition(":=")
        if not sep or not name.strip():
            raise GzInertiaError(f"--xacro-arg takes name:=value, not {pair!r}")
        out[name.strip()] = value
    return out


def _package_name(folder: Path) -> str:
    try:
        from lxml import etree

        from gzinertia.sdf.xml import parse_xml_file

        root = parse_xml_file(folder / "package.xml")
        name = root.find("name")
        if isinstance(root, etree._Element) and name is not None and (name.text or "").strip():
            return (name.text or "").strip()
    except GzInertiaError:
        pass
    return folder.name


def package_roots(package_paths: Sequence[str | Path] = ()) -> list[Path]:
    """The folders searched for packages, in order, absolute (a relative one is taken from the
    working directory once, here: xacro joins a relative ``$(find)`` result to the including
    file's folder, which doubled the path)."""
    roots = [Path(p) for p in package_paths]
    roots += [Path(p) for p in os.environ.get(ENV_ROS_PACKAGE_PATH, "").split(os.pathsep) if p]
    roots += [
        Path(p) / "share" for p in os.environ.get(ENV_AMENT_PREFIX_PATH, "").split(os.pathsep) if p
    ]
    return [root.absolute() for root in roots]


def find_package(name: str, package_paths: Sequence[str | Path] = ()) -> Path | None:
    """The folder of package ``name`` under the package roots, or ``None`` (the first root
    that has it wins)."""
    for root in package_roots(package_paths):
        found = _packages_under(str(root)).get(name)
        if found is not None:
            return found
    return None


@functools.lru_cache(maxsize=64)
def _packages_under(root: str) -> dict[str, Path]:
    """Every package below ``root`` (to :data:`MAX_DEPTH`), by name; read once per process."""
    out: dict[str, Path] = {}
    level = [Path(root)] if Path(root).is_dir() else []
    for _ in range(MAX_DEPTH + 1):
        nxt: list[Path] = []
        for folder in level:
            if (folder / "package.xml").is_file():
                out.setdefault(_package_name(folder), folder)
                continue  # packages do not nest
            try:
                nxt.extend(sorted(p for p in folder.iterdir()
                                  if p.is_dir() and not p.name.startswith(".")))
            except OSError:
                continue
        level = nxt
    return out


def resolve_package_uri(
    uri: str, package_paths: Sequence[str | Path] = (), base: str | Path = "."
) -> str | None:
    """The file ``package://pkg/rel`` (or ``file://``, or a path, relative to the folder
    ``base`` of the URDF) names, if found."""
    if uri.startswith("package://"):
        pkg, _, rel = uri[len("package://"):].partition("/")
        folder = find_package(pkg, package_paths)
        if folder is None:
            return None
        path = (folder / rel).resolve()
        return str(path) if path.is_file() and path.is_relative_to(folder.resolve()) else None
    if uri.startswith("file://"):
        uri = uri[len("file://"):]
    if "://" in uri:
        return None
    path = Path(base) / uri
    return str(path) if path.is_file() else None


def _line_of(file: str, message: str) -> int | None:
    """The line of ``file`` that holds what xacro's ``message`` quotes (an expression, a
    ``$(...)`` substitution, a macro or property name), when it is found there once or more."""
    quoted = re.findall(r"'([^']{1,200})'|\[([^\]]{1,200})\]", message)
    needles = [a or b for a, b in quoted]
    needles += re.findall(r"(\$\([^)]{1,200}\))", message)
    if not needles:
        return None
    try:
        from gzinertia.sdf.xml import read_file_bytes

        lines = read_file_bytes(file).decode("utf-8", "replace").splitlines()
    except GzInertiaError:
        return None
    for needle in needles:
        for i, line in enumerate(lines, 1):
            if needle in line:
                return i
    return None


class _SafeOpen:
    """``open`` for xacro's module: reads through :mod:`gzinertia.safe_read`, only under the
    folders the expansion may read (:class:`~gzinertia.urdf.xacro_policy.ReadRoots`)."""

    def __init__(self, roots: ReadRoots) -> None:
        self._roots = roots

    def __call__(self, file: str, mode: str = "r", *args: object, **kwargs: object) -> io.IOBase:
        if "r" not in mode or any(c in mode for c in "wax+"):
            raise PermissionError(f"xacro may not write {file!r}")
        from gzinertia.sdf.xml import read_file_bytes

        self._roots.check(file)
        data = read_file_bytes(file)
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
    from gzinertia.urdf.xacro_lines import line_sources, strip
    from gzinertia.urdf.xacro_policy import XacroPolicy
    from gzinertia.urdf.xacro_sandbox import run_expansion

    policy = policy or XacroPolicy()
    roots = [str(Path(p).absolute()) for p in package_roots(package_paths)]
    try:
        _, annotated, includes, files, defaults = run_expansion(
            str(path), dict(args or {}), [str(p) for p in package_paths], limits,
            policy.with_roots(roots),
        )
    except SdfError as exc:
        raise SdfError(exc.file, exc.line, policy.redact(exc.message)) from None
    return XacroExpansion(strip(annotated), tuple(includes), line_sources(annotated, files),
                          tuple((str(v), str(f)) for v, f in defaults))


def expand_xacro(
    path: str | Path,
    args: Mapping[str, str] | None = None,
    package_paths: Sequence[str | Path] = (),
    policy: XacroPolicy | None = None,
) -> str:
    """The URDF text ``xacro PATH name:=value...`` prints (same bytes as the command, where the
    model stays within ``policy``), expanded in a limited child process."""
    return expand_xacro_sourced(path, args, package_paths, policy=policy).text


def _limit_hit(exc: BaseException) -> str | None:
    """What limit ``exc`` (or an exception it wraps) reports, if any."""
    from gzinertia.urdf.xacro_sandbox import ENV_XACRO_MEMORY, CpuLimitError

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
) -> tuple[str, str, list[str], list[str], list[tuple[str, str]]]:
    """In this process (the child of :func:`expand_xacro_sourced`): ``("ok", text with source
    annotations, files included, files parsed, variables whose $(optenv) default was taken)``;
    the annotations index the files parsed. ``policy`` holds for the time of the expansion
    (:func:`gzinertia.urdf.xacro_policy.installed`)."""
    try:
        import xacro
        from xacro import substitution_args
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise GzInertiaError(f"{path}: expanding xacro needs the 'xacro' package ({exc})") from None
    import xml.parsers.expat

    from gzinertia.urdf.xacro_children import near_child_search
    from gzinertia.urdf.xacro_lines import Annotator
    from gzinertia.urdf.xacro_policy import XacroPolicy, default_roots, installed, patched

    name = str(path)
    policy = policy or XacroPolicy()
    readable = default_roots(name, package_roots(package_paths), policy)
    optenv_defaults: list[tuple[str, str]] = []

    def find(pkg: str) -> str:
        folder = find_package(pkg, package_paths)
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
        xacro.open = _SafeOpen(readable)
        xacro.verbosity = 0
        xacro.all_includes = []
        annotator = Annotator()
        annotator.install(xacro)
        try:
            doc = xacro.process_file(name, mappings=dict(args or {}))
            includes = [str(f) for f in xacro.all_includes]
            return ("ok", str(doc.toprettyxml(indent="  ")), includes, list(annotator.files),
                    optenv_defaults)
        except SdfError as exc:
            stack = [str(f) for f in (xacro.filestack or []) if f]
            if exc.line is None and len(stack) >= 2 and stack[-1] == exc.file:
                includer = stack[-2]
                base = os.path.basename(exc.file)
                raise SdfError(
                    includer, _line_of(includer, f"'{base}'"),
                    f"xacro: include of {exc.file}: {exc.message}",
                ) from None
            raise
        except xml.parsers.expat.ExpatError as exc:
            where = (xacro.filestack or [name])[-1] or name
            raise SdfError(str(where), exc.lineno, f"xacro: XML error: {exc}") from None
        except RecursionError:
            raise SdfError(name, None, "xacro: macros nest too deeply") from None
        except Exception as exc:  # xacro raises many kinds; each becomes one line
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
                raise SdfError(str(where), _line_of(str(where), text),
                               f"xacro: {limit}{shown}{inside}") from None
            raise SdfError(str(where), _line_of(str(where), text), f"xacro: {text}{inside}") \
                from None
        finally:
            if saved_open is None:
                xacro.__dict__.pop("open", None)
            else:
                xacro.open = saved_open
            xacro.verbosity = saved_verbosity
            xacro.parse, xacro.handle_macro_call, xacro.replace_node = saved_hooks
