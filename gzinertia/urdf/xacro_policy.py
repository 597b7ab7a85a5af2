"""What a xacro expansion may do: evaluate, read, and take from the environment.

A xacro file is as untrusted as any other file of a pull request, and the ``xacro`` package
trusts it: its ``${...}`` and ``$(eval ...)`` run Python, ``$(env)`` and ``$(optenv)`` read any
environment variable (a CI job's secrets among them), ``load_yaml`` and ``xacro:include`` read
any path, a glob lists any folder. :class:`XacroPolicy` says what an expansion may do instead,
and :func:`installed` puts it into the ``xacro`` module while an expansion runs:

* **Evaluation.** ``${...}`` and ``$(eval ...)`` are evaluated by
  :mod:`gzinertia.urdf.xacro_expression` (no Python reachable), unless ``trust`` is set
  (``--trust-xacro``: xacro's own ``eval``, which runs the model's Python).
* **Environment.** ``$(env NAME)`` and ``$(optenv NAME ...)`` read only the variables ``env``
  names (``--xacro-env NAME``, the ``xacro-env`` setting), with or without ``trust``.
  ``$(env X)`` of another variable is an error naming ``X`` (never a value); ``$(optenv X
  default)`` takes its default, as if ``X`` were unset, and the expansion says so (an info
  note ``xacro-optenv-default``: the audit's GZI404).
* **Reads.** ``xacro:include``, ``load_yaml`` and include globs reach only files under the
  top file's folder, its enclosing ROS package (the nearest folder above it holding a
  ``package.xml``), the package paths, the folders of packages ``$(find)`` found, and
  ``read_roots`` (``--model-path``, the folders an audit walks), after links are resolved.
"""

from __future__ import annotations

import builtins
import contextlib
import glob as _glob
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.record_base import ValueRecord
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.urdf.xacro_expression import Vocabulary, evaluate, plain_methods

__all__ = [
    "ENV_FLAG",
    "TRUST_FLAG",
    "ReadRoots",
    "XacroPolicy",
    "default_roots",
    "enclosing_package",
    "first_optenv_line",
    "installed",
    "patched",
]

#: The flag that lets xacro's ``eval`` run a model's Python.
TRUST_FLAG = "--trust-xacro"
#: The flag that names an environment variable ``$(env)``/``$(optenv)`` may read.
ENV_FLAG = "--xacro-env"

#: Builtins of xacro's ``python`` namespace that an expression may not call: ``vars`` hands out
#: objects' attribute dictionaries.
_WITHHELD = frozenset({"vars"})
#: Python builtins that ``$(eval ...)`` offers (xacro gives it all of Python's).
_EVAL_BUILTINS = (
    "abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "filter", "float",
    "frozenset", "hash", "int", "isinstance", "issubclass", "len", "list", "map", "max", "min",
    "ord", "range", "repr", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple",
    "type", "zip",
)


@dataclass(frozen=True, repr=False, eq=False)
class XacroPolicy(ValueRecord):
    """What one xacro expansion may do (see the module's docstring).

    ``env``: the environment variables ``$(env)``/``$(optenv)`` may read; ``trust``: evaluate
    with Python (xacro's own ``eval``); ``read_roots``: folders reads may reach besides the
    top file's folder, its package and the package paths.
    """

    env: frozenset[str] = frozenset()
    trust: bool = False
    read_roots: tuple[str, ...] = field(default=())

    def with_roots(self, roots: Iterable[str | Path]) -> XacroPolicy:
        """This policy, with ``roots`` added to the folders reads may reach."""
        return XacroPolicy(self.env, self.trust, (*self.read_roots, *map(str, roots)))

    def redact(self, text: str) -> str:
        """``text`` with the value of every variable :attr:`env` names (8 characters or more)
        replaced by ``$(env NAME)``: an error line never shows one."""
        for name in sorted(self.env):
            value = os.environ.get(name, "")
            if len(value) >= 8:
                text = text.replace(value, f"$(env {name})")
        return text


def enclosing_package(path: str | Path) -> Path | None:
    """The nearest folder above ``path`` (its own folder included) holding a ``package.xml``."""
    folder = Path(os.path.realpath(path)).parent
    for candidate in (folder, *folder.parents):
        if (candidate / "package.xml").is_file():
            return candidate
    return None


class ReadRoots:
    """The folders an expansion may read under (resolved: links followed), growing as
    ``$(find)`` finds packages."""

    def __init__(self, roots: Iterable[str | Path], files: Iterable[str | Path] = ()) -> None:
        self._roots: list[Path] = []
        self._files = {Path(os.path.realpath(f)) for f in files}
        #: ``(pattern, matches)`` for each pattern :meth:`glob` listed, in order.
        self.globbed: list[tuple[str, tuple[str, ...]]] = []
        for root in roots:
            self.add(root)

    def add(self, root: str | Path) -> None:
        """Lets reads reach ``root`` and below."""
        real = Path(os.path.realpath(root))
        if real not in self._roots:
            self._roots.append(real)

    def allows(self, path: str | Path) -> bool:
        """Whether ``path`` (links resolved) is one of the files named readable (the file being
        expanded, which may be a hidden temporary copy), or under one of the roots through no
        hidden folder or file below it (``.git``: a CI checkout keeps its token in
        ``.git/config``)."""
        real = Path(os.path.realpath(path))
        if real in self._files:
            return True
        return any(real.is_relative_to(root) and not any(
            part.startswith(".") for part in real.relative_to(root).parts)
            for root in self._roots)

    def check(self, path: str | Path) -> None:
        """Raises :class:`~gzinertia.errors.SdfError` naming ``path`` if it is not readable."""
        if not self.allows(path):
            raise SdfError(str(path), None, "outside the folders xacro may read (the top "
                           "file's folder and ROS package, the package paths and --model-path "
                           "folders, hidden files and folders excepted; links are followed "
                           "before this is decided)")

    def glob(self, pattern: str) -> list[str]:
        """``glob.glob(pattern)``, sorted, when the folder it lists and every match are
        readable; else one :class:`~gzinertia.errors.SdfError` naming the pattern only."""
        literal = pattern[: min((i for i, c in enumerate(pattern) if c in "*?["),
                               default=len(pattern))]
        folder = os.path.dirname(literal) or "."
        if not self.allows(folder):
            raise SdfError(pattern, None, "the pattern lists a folder outside the folders "
                           "xacro may read")
        matches = sorted(_glob.glob(pattern))
        if not all(self.allows(m) for m in matches):
            raise SdfError(pattern, None, "the pattern matches files outside the folders "
                           "xacro may read (through a link)")
        self.globbed.append((pattern, tuple(matches)))
        return matches


class _Globber:
    """Stands in for the ``glob`` module in xacro's namespace."""

    def __init__(self, roots: ReadRoots) -> None:
        self.glob = roots.glob


@contextlib.contextmanager
def installed(
    xacro: Any,
    substitution_args: Any,
    policy: XacroPolicy,
    roots: ReadRoots,
    find: Callable[[str], str],
    notes: list[tuple[str, str]],
) -> Iterator[None]:
    """Puts ``policy`` into the ``xacro`` package for the time of the ``with`` block:
    evaluation, ``$(env)``/``$(optenv)``, ``$(find)``, include globs. ``notes`` receives
    ``(variable, file)`` for each variable whose ``$(optenv)`` default was taken because the
    policy does not name it (once per file). Reads through ``open`` are checked by the
    caller's opener (:meth:`ReadRoots.check`).
    """
    env = _Environment(policy.env, substitution_args.SubstitutionException, notes,
                       lambda: str((xacro.filestack or ["?"])[-1]))
    symbols = xacro._global_symbols
    yaml_loaders = {"load_yaml": _yaml_loader(xacro, symbols["xacro"]["load_yaml"])}
    module_patches: dict[str, Any] = {"_eval_env": env.env, "_eval_optenv": env.optenv,
                                      "_eval_find": find}
    xacro_patches: dict[str, Any] = {"glob": _Globber(roots)}
    with patched(symbols["xacro"], yaml_loaders, entries=True), \
            patched(symbols, yaml_loaders, entries=True):
        if not policy.trust:  # (after the loaders are in: the vocabulary offers them)
            module_patches["_eval"] = _safe_substitution(substitution_args)
            xacro_patches["safe_eval"] = _safe_eval(xacro)
        substitutions = {"env": env.env, "optenv": env.optenv, "find": find}
        with patched(substitution_args, module_patches), patched(xacro, xacro_patches), \
                patched(substitution_args._eval_dict, substitutions, entries=True):
            yield


@contextlib.contextmanager
def patched(target: Any, values: Mapping[str, Any], entries: bool = False) -> Iterator[None]:
    """``target``'s attributes (with ``entries``: its dictionary entries, written past any
    ``__setitem__`` of its own) set to ``values`` for the time of the ``with`` block."""
    table: dict[str, Any] = target if entries else target.__dict__
    saved = {k: dict.get(table, k, _MISSING) for k in values}
    dict.update(table, values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is _MISSING:
                dict.pop(table, k, None)
            else:
                dict.__setitem__(table, k, v)


#: The files ``load_yaml`` reads, by suffix.
YAML_SUFFIXES = (".yaml", ".yml")


def _yaml_loader(xacro: Any, load: Callable[[str], Any]) -> Callable[[str], Any]:
    """The ``load_yaml`` of xacro, for ``.yaml``/``.yml`` files only, whose errors never quote
    the file's text (PyYAML's messages show the line they stop at)."""
    def load_yaml(filename: str) -> Any:
        if not str(filename).lower().endswith(YAML_SUFFIXES):
            raise xacro.XacroException(f"load_yaml reads .yaml and .yml files, not {filename}")
        try:
            return load(filename)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            problem = str(getattr(exc, "problem", None) or type(exc).__name__)[:80]
            raise xacro.XacroException(f"{filename}: not valid YAML ({problem}{where})") \
                from None

    return load_yaml


_MISSING = object()


def _safe_eval(xacro: Any) -> Callable[..., Any]:
    """The ``safe_eval(expr, globals, locals=None)`` of xacro, evaluated without Python."""
    vocabulary = _xacro_vocabulary(xacro)

    def safe_eval(expr: Any, globals: Mapping[str, Any], locals: Any = None) -> Any:
        if not isinstance(expr, str):
            raise TypeError("compile() arg 1 must be a string")
        names = globals if locals is None else _Chain(locals, globals)
        return evaluate(expr, vocabulary.with_names(names))

    return safe_eval


def _safe_substitution(substitution_args: Any) -> Callable[[str, dict[str, Any]], str]:
    """The substitution args' ``_eval(text, context)`` (``$(eval text)``), without Python."""
    callables = _eval_callables(substitution_args)

    def eval_substitution(text: str, context: dict[str, Any]) -> str:
        if "__" in text:
            raise substitution_args.SubstitutionException(
                "$(eval ...) may not contain double underscore expressions")
        names = _EvalNames(substitution_args, context)
        return str(evaluate(text, Vocabulary(names, [*callables, *names.own_functions()])))

    return eval_substitution


class _Environment:
    """``$(env)`` and ``$(optenv)`` as the policy allows them."""

    def __init__(self, allowed: frozenset[str], error: type[Exception],
                 notes: list[tuple[str, str]], where: Callable[[], str]) -> None:
        self._allowed = allowed
        self._error = error
        self._notes = notes
        self._where = where

    def env(self, name: str) -> str:
        if name not in self._allowed:
            raise self._error(
                f"$(env {name}): {name} is not among the environment variables gzinertia "
                f"lets xacro read (name it with {ENV_FLAG} {name} or the xacro-env setting)")
        try:
            return os.environ[name]
        except KeyError:
            raise self._error(f"environment variable {name} is not set") from None

    def optenv(self, name: str, default: str = "") -> str:
        if name not in self._allowed:
            note = (name, self._where())
            if note not in self._notes:
                self._notes.append(note)
            return default
        return os.environ.get(name, default)


class _Chain(Mapping[str, Any]):
    """Two mappings looked up in turn (``eval``'s locals, then globals)."""

    def __init__(self, first: Mapping[str, Any], second: Mapping[str, Any]) -> None:
        self._maps = (first, second)

    def __getitem__(self, key: str) -> Any:
        for mapping in self._maps:
            try:
                return mapping[key]
            except KeyError:
                continue
        raise KeyError(key)

    def __iter__(self) -> Any:
        raise TypeError("not iterable")

    def __len__(self) -> int:
        raise TypeError("no length")


def _xacro_vocabulary(xacro: Any) -> Any:
    """What ``${...}`` may name and call: xacro's global symbols (its ``math``, ``python`` and
    ``xacro`` namespaces and the names it exposes directly), ``python.vars`` withheld."""
    callables: list[Any] = []
    for name, value in xacro._global_symbols.items():
        if isinstance(value, xacro.NameSpace):
            callables += [v for k, v in dict.items(value) if callable(v) and k not in _WITHHELD]
        elif callable(value) and name not in _WITHHELD:
            callables.append(value)
    return Vocabulary({}, callables, _xacro_attribute(xacro))


def _xacro_attribute(xacro: Any) -> Callable[[Any, str], Any]:
    """``obj.name`` for xacro's own objects: a namespace's symbol, a YAML mapping's key (or one
    of the plain methods of a dict, which Python finds first)."""
    dict_methods = plain_methods(dict)

    def attribute(obj: Any, name: str) -> Any:
        if isinstance(obj, xacro.NameSpace):
            try:
                return obj[name]
            except KeyError:
                raise NameError(f"name '{name}' is not defined") from None
        if isinstance(obj, xacro.YamlDictWrapper):
            if name in dict_methods:
                return getattr(obj, name)
            if hasattr(dict, name):
                return NotImplemented
            return obj.__getattr__(name)
        return NotImplemented

    return attribute


def _eval_callables(substitution_args: Any) -> list[Any]:
    """What ``$(eval ...)`` may call besides its own ``arg`` and ``dirname``: ``env``,
    ``optenv``, ``find``, the ``math`` functions and :data:`_EVAL_BUILTINS`."""
    callables = [v for k, v in substitution_args._eval_dict.items()
                 if callable(v) and not k.startswith("_")]
    return callables + [getattr(builtins, name) for name in _EVAL_BUILTINS]


class _EvalNames(Mapping[str, Any]):
    """Names in ``$(eval ...)`` as xacro resolves them: its functions, then the arguments
    (converted as roslaunch converts them), then the builtins it offers."""

    def __init__(self, substitution_args: Any, context: dict[str, Any]) -> None:
        args: Mapping[str, str] = context.setdefault("arg", {})
        self._convert = substitution_args.convert_value
        self._args = args
        self._functions: dict[str, Any] = {
            "arg": lambda name: self._convert(substitution_args._eval_arg(name, args=args),
                                              "auto"),
            "dirname": lambda: substitution_args._eval_dirname(context.get("filename")),
            **{k: v for k, v in substitution_args._eval_dict.items() if not k.startswith("_")},
        }
        self._builtins = {name: getattr(builtins, name) for name in _EVAL_BUILTINS}

    def own_functions(self) -> list[Any]:
        """The functions made for this evaluation (``arg``, ``dirname``)."""
        return [self._functions["arg"], self._functions["dirname"]]

    def __getitem__(self, key: str) -> Any:
        if key in self._functions:
            return self._functions[key]
        if key in self._args:
            return self._convert(self._args[key], "auto")
        return self._builtins[key]

    def __iter__(self) -> Any:
        raise TypeError("not iterable")

    def __len__(self) -> int:
        raise TypeError("no length")


def first_optenv_line(file: str, variables: Sequence[str]) -> int:
    """The line of ``file`` holding the first ``$(optenv NAME`` of ``variables`` written
    literally (1 when each name is built by an expression)."""
    try:
        lines = read_file_bytes(file).decode("utf-8", "replace").splitlines()
    except GzInertiaError:
        return 1
    for variable in variables:
        for number, line in enumerate(lines, 1):
            if f"$(optenv {variable}" in line:
                return number
    return 1


def default_roots(path: str | Path, package_roots: Sequence[Path],
                  policy: XacroPolicy) -> ReadRoots:
    """The folders the expansion of ``path`` may read under: its folder, its enclosing package,
    the package roots and the policy's :attr:`~XacroPolicy.read_roots`."""
    roots: list[str | Path] = [Path(os.path.realpath(path)).parent]
    package = enclosing_package(path)
    if package is not None:
        roots.append(package)
    return ReadRoots([*roots, *package_roots, *policy.read_roots], files=[path])
