"""Audit settings: ``[tool.gzinertia]`` in ``pyproject.toml`` or a ``.gzinertia.toml`` file.

Found for each audited file as ruff does (:class:`ConfigFinder`): the nearest settings file in
the file's folder or a parent of it (in each folder ``.gzinertia.toml`` first, then a
``pyproject.toml`` that has a ``[tool.gzinertia]`` table), so files of several projects audited
in one run each get their own project's settings; a file with none above it gets the one
found from the working directory, else the defaults. As in ruff, ``--config FILE`` applies
that one file to every file (its relative paths relative to the working directory) and no other
settings file is read; ``--isolated`` reads none. Every report names the settings files that
changed what was checked (:mod:`gzinertia.audit.settings_use`).

Keys (kebab-case; snake_case is accepted too)::

    select = ["GZI1", "GZI204"]          # codes or prefixes; default: every rule
    ignore = ["GZI210"]
    fail-on = "warning"                  # error (default), warning or info
    density = 1025.0                     # fluid density, kg/m³ (default: water or air)
    tolerance = "gz"                     # inertia validity: gz (default) or drake
    hull = "none"                        # a mesh not closed after repair: none (refused,
                                         # default), convex (its convex hull, said) or
                                         # wrap (a closed wrap that follows it, said)
    gazebo = "harmonic"                  # the target release (default: the newest stable)
    engine = "bullet-featherstone"       # the target physics engine (default: a world's, or
                                         # dartsim): gzinertia.gazebo.target
    model-path = ["models"]              # folders for model:// URIs, relative to the file
    xacro-env = ["ROBOT_NAME"]           # variables xacro's $(env)/$(optenv) may read
    extend-exclude = ["build", "robots/old/*.sdf"]  # left out (ruff's semantics: exclude.py)
    force-exclude = true                 # files named on the command line too
    [tool.gzinertia.per-path-ignores]    # (in .gzinertia.toml: [per-path-ignores])
    "test/worlds/*.sdf" = ["GZI106"]     # fnmatch globs relative to the config file's folder

Command-line options replace the file's values. Unknown keys, unknown codes and values of the
wrong type are errors (:class:`ConfigError`, exit status 2).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

import gzinertia.urdf
from gzinertia.audit.config_files import (
    CONFIG_FILE,
    MAX_CONFIG_BYTES,
    ConfigFinder,
    find_config_file,
    root_settings_file,
    settings_file_in,
    table_of,
)
from gzinertia.audit.config_values import (
    ConfigError,
    check_codes,
    key_part,
    parse_density,
    parse_fraction,
    parse_hull,
    parse_severity,
    parse_target_name,
    parse_tolerance,
    parse_xacro_args_table,
    shown_path,
    shown_value,
    split_codes,
    string_list,
    with_target,
)
from gzinertia.audit.exclude import ExcludePattern, Exclusion, parse_patterns
from gzinertia.audit.findings import Severity
from gzinertia.checks.tolerance import TOLERANCES, Tolerance
from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.model_input import ModelInput
from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.audit.exclude import ExcludePattern, Exclusion
    from gzinertia.physics.mesh_fallback import HullChoice
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = [
    "CONFIG_FILE",
    "KEYS",
    "MAX_CONFIG_BYTES",
    "TOLERANCES",
    "AuditConfig",
    "ConfigError",
    "ConfigFinder",
    "Tolerance",
    "check_codes",
    "check_settings_choice",
    "config_from_table",
    "find_config_file",
    "load_config",
    "load_config_file",
    "parse_density",
    "parse_severity",
    "parse_tolerance",
    "root_settings_file",
    "settings_file_in",
    "split_codes",
    "with_overrides",
]

KEYS = ("select", "ignore", "per-path-ignores", "fail-on", "density", "tolerance", "model-path",
        "net-buoyancy", "xacro-args", "xacro-env", "exclude", "extend-exclude", "force-exclude",
        "hull", "gazebo", "engine")


@dataclass(frozen=True, repr=False, eq=False)
class AuditConfig(ValueRecord):
    """Everything that shapes one audit run.

    ``select``/``ignore``: rule codes or prefixes (empty ``select``: every rule);
    ``per_path_ignores``: ``(glob, codes)`` pairs matched against file paths relative to
    ``root`` (and as given); ``fail_on``: the lowest severity that fails the run; ``density``:
    fluid density in kg/m³ (``None``: water or air, whichever fits); ``tolerance``: inertia
    validity rule; ``model_paths``: folders for ``model://`` URIs; ``source``: the file the
    settings came from (``None`` for defaults).
    """

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fail_on: Severity = "error"
    density: float | None = None
    tolerance: Tolerance = "gz"
    #: A mesh that is not closed after repair: refused (``none``), its convex hull or its wrap.
    hull: HullChoice = "none"
    model_paths: tuple[str, ...] = ()
    #: GZI302: net buoyancy reported beyond this fraction of the weight.
    net_buoyancy: float = 0.05
    #: xacro ``$(arg)`` values: ``(glob, ((name, value), ...))`` in order; every glob that
    #: matches a file (as ``per_path_ignores`` match) applies, later ones win
    #: (:meth:`xacro_args_for`); ``--xacro-arg`` comes last, as the glob ``*``.
    xacro_args: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    #: Environment variables xacro's ``$(env)``/``$(optenv)`` may read (``xacro-env``,
    #: ``--xacro-env``).
    xacro_env: tuple[str, ...] = ()
    #: Evaluate xacro expressions with Python (``--trust-xacro``; never from a settings file: a
    #: pull request could add one).
    trust_xacro: bool = False
    #: Files and folders left out (:mod:`gzinertia.audit.exclude`): ``exclude`` (``None``: the
    #: defaults), ``extend-exclude``, and whether files named on the command line are too.
    exclude: tuple[ExcludePattern, ...] | None = None
    extend_exclude: tuple[ExcludePattern, ...] = ()
    force_exclude: bool = False
    #: The Gazebo release and engine the model is judged for (:mod:`gzinertia.gazebo.target`).
    target: Target = DEFAULT_TARGET
    root: str = "."
    source: str | None = None
    known_codes: frozenset[str] = field(default=frozenset(), compare=False)

    def selected(self, codes: Iterable[str]) -> frozenset[str]:
        """The codes among ``codes`` that ``select`` and ``ignore`` leave on."""
        # Asked once per audited document with the same codes: matched once per run.
        return _selected_codes(tuple(codes), tuple(self.select), tuple(self.ignore))

    def ignored_for(self, path: str) -> frozenset[str]:
        """Code patterns that ``per_path_ignores`` switch off for the file ``path``."""
        if not self.per_path_ignores:
            return frozenset()
        candidates = self._path_candidates(path)
        out: set[str] = set()
        for pattern, codes in self.per_path_ignores:
            if any(fnmatchcase(c, pattern) for c in candidates):
                out.update(codes)
        return frozenset(out)

    def _path_candidates(self, path: str) -> set[str]:
        candidates = {PurePath(path).as_posix()}
        try:
            rel = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
            candidates.add(PurePath(rel).as_posix())
        except ValueError:  # another drive on Windows
            pass
        return candidates

    def xacro_args_for(self, path: str) -> dict[str, str]:
        """The xacro arguments for the file ``path``: those of every ``xacro_args`` glob that
        matches it (relative to ``root``, or as given), in order, later ones winning."""
        if not self.xacro_args:
            return {}
        candidates = self._path_candidates(path)
        out: dict[str, str] = {}
        for pattern, pairs in self.xacro_args:
            if any(fnmatchcase(c, pattern) for c in candidates):
                out.update(pairs)
        return out

    def xacro_policy(self, read_roots: Sequence[str] = ()) -> XacroPolicy:
        """What a xacro expansion may do under these settings; ``read_roots``: folders its
        reads may reach besides the file's own folder, package and the package paths (the
        audited folders, the settings file's folder)."""
        roots = (*read_roots, self.root) if self.source is not None else tuple(read_roots)
        return gzinertia.urdf.xacro_policy.XacroPolicy(frozenset(self.xacro_env),
                                                       self.trust_xacro, roots)

    def exclusion(self) -> Exclusion:
        """What these settings leave out of a walk (:class:`~gzinertia.audit.exclude.Exclusion`)."""
        return Exclusion.of(self.exclude, self.extend_exclude, self.force_exclude)

    def is_ignored(self, code: str, path: str) -> bool:
        """Whether ``per_path_ignores`` switch ``code`` off for the file ``path``."""
        return _matches(code, tuple(self.ignored_for(path)))

    def checked(self, codes: Iterable[str], path: str) -> frozenset[str]:
        """The codes among ``codes`` checked in the file ``path``: :meth:`selected`, and not
        switched off for its path (:meth:`ignored_for`)."""
        selected = self.selected(codes)
        ignored = self.ignored_for(path)
        return _unmatched(selected, tuple(sorted(ignored))) if ignored else selected


def _matches(code: str, patterns: Sequence[str]) -> bool:
    return any(p == "ALL" or code.startswith(p) for p in patterns)


@functools.lru_cache(maxsize=8)
def _selected_codes(
    codes: tuple[str, ...], select: tuple[str, ...], ignore: tuple[str, ...]
) -> frozenset[str]:
    """:meth:`AuditConfig.selected`: the ``codes`` that ``select`` (empty: all) and ``ignore``
    leave on."""
    chosen = {c for c in codes if not select or _matches(c, select)}
    return frozenset(c for c in chosen if not _matches(c, ignore))


@functools.lru_cache(maxsize=64)
def _unmatched(codes: frozenset[str], patterns: tuple[str, ...]) -> frozenset[str]:
    """The ``codes`` no pattern matches (asked once per file: the same few answers)."""
    return frozenset(c for c in codes if not _matches(c, patterns))


#: The settings each read by one parser of ``(value, shown file)``.
_VALUE_PARSERS: dict[str, Callable[[Any, str], Any]] = {
    "fail-on": parse_severity,
    "density": parse_density,
    "tolerance": parse_tolerance,
    "hull": parse_hull,
    "net-buoyancy": parse_fraction,
}


def config_from_table(
    table: Mapping[str, Any], source: str, known_codes: Iterable[str], root: str | None = None
) -> AuditConfig:
    """An :class:`AuditConfig` from a parsed TOML table found in file ``source``; relative paths
    in it (``per-path-ignores`` and ``xacro-args`` globs, ``model-path``) are relative to
    ``root``, by default the file's folder."""
    known = frozenset(known_codes)
    root = str(Path(source).parent) if root is None else root
    shown = shown_path(source)
    values: dict[str, Any] = {}
    for raw_key, value in table.items():
        key = raw_key.replace("_", "-")
        where = f"{shown}: {key_part(raw_key)}"
        if key not in KEYS:
            raise ConfigError(
                f"{shown}: unknown key {shown_value(raw_key)} in the gzinertia settings "
                f"(known: {', '.join(KEYS)})"
            )
        if key in ("select", "ignore"):
            values[key] = check_codes(string_list(value, key, shown), known, where)
        elif key == "per-path-ignores":
            if not isinstance(value, Mapping):
                raise ConfigError(f"{where} must be a table of glob = [codes]")
            values[key] = tuple(
                (str(glob),
                 check_codes(string_list(codes, key, shown), known, f"{where}.{key_part(glob)}"))
                for glob, codes in value.items()
            )
        elif key in _VALUE_PARSERS:
            values[key] = _VALUE_PARSERS[key](value, shown)
        elif key == "xacro-args":
            values[key] = parse_xacro_args_table(value, where)
        elif key == "xacro-env":
            values[key] = tuple(string_list(value, key, source))
        elif key == "model-path":
            values[key] = tuple(str(Path(root) / p) for p in string_list(value, key, shown))
        elif key in ("exclude", "extend-exclude"):
            try:
                values[key] = parse_patterns(value, key, shown, root)
            except ValueError as exc:
                raise ConfigError(f"{shown}: {exc}, not {shown_value(value)}") from None
        elif key in ("gazebo", "engine"):
            values[key] = parse_target_name(key, value, shown)
        elif key == "force-exclude":
            if not isinstance(value, bool):
                raise ConfigError(f"{where} must be true or false, not {shown_value(value)}")
            values[key] = value
    return AuditConfig(
        select=values.get("select", ()),
        ignore=values.get("ignore", ()),
        per_path_ignores=values.get("per-path-ignores", ()),
        fail_on=values.get("fail-on", "error"),
        density=values.get("density"),
        tolerance=values.get("tolerance", "gz"),
        hull=values.get("hull", "none"),
        model_paths=values.get("model-path", ()),
        net_buoyancy=values.get("net-buoyancy", 0.05),
        xacro_args=values.get("xacro-args", ()),
        xacro_env=values.get("xacro-env", ()),
        exclude=values.get("exclude"),
        extend_exclude=values.get("extend-exclude", ()),
        force_exclude=values.get("force-exclude", False),
        target=with_target(DEFAULT_TARGET, values.get("gazebo"), values.get("engine"),
                           f"settings {shown}"),
        root=root,
        source=source,
        known_codes=known,
    )


def load_config_file(file: Path, known_codes: Iterable[str]) -> AuditConfig:
    """The settings in ``file``, a settings file :class:`ConfigFinder` found."""
    table = table_of(file)
    if table is None:  # pragma: no cover - the finder only returns files with settings
        raise ConfigError(f"{file}: has no [tool.gzinertia] table")
    return config_from_table(table, str(file), frozenset(known_codes))


def load_config(
    path: str | Path | None, known_codes: Iterable[str], start: Path | None = None
) -> AuditConfig:
    """The settings from ``path`` (``--config``), or from the nearest config file, or the
    defaults. A ``--config`` file that is missing or has no settings table is an error; as in
    ruff, relative paths in it (globs, ``model-path``) are relative to the working directory,
    since it applies to every file wherever it lies."""
    known = frozenset(known_codes)
    if path is not None:
        file = Path(path)
        shown = shown_path(path)
        if not file.is_file():
            raise ConfigError(f"--config {shown}: no such file")
        table = table_of(file)
        if table is None:
            raise ConfigError(f"--config {shown}: has no [tool.gzinertia] table")
        return config_from_table(table, str(file), known, root=os.curdir)
    found = find_config_file(start)
    if found is None:
        return AuditConfig(known_codes=known)
    table = table_of(found)
    assert table is not None
    return config_from_table(table, str(found), known)


def check_settings_choice(config: str | Path | None, isolated: bool) -> None:
    """A :class:`ConfigError` for ``--config`` with ``--isolated`` (ruff refuses it too: one
    names the settings file, the other says to read none)."""
    if isolated and config is not None:
        raise ConfigError(
            f"--config {shown_path(config)} cannot be used with --isolated (which reads no "
            "settings file)"
        )


def source_overrides(source: ModelInput, **options: Any) -> Callable[[AuditConfig], AuditConfig]:
    """:func:`with_overrides` for a model input (the command line's, a library call's): its
    model and package paths searched first, as the audit's model paths, and its xacro
    settings; ``options``: the other overrides (:func:`with_overrides`' keywords)."""
    return functools.partial(
        with_overrides, model_paths=[str(p) for p in source.search_paths],
        xacro_args=source.xacro_mapping, xacro_env=sorted(source.xacro_env),
        trust_xacro=source.trust_xacro, **options)


def with_overrides(
    config: AuditConfig,
    *,
    select: str | None = None,
    ignore: str | None = None,
    fail_on: str | None = None,
    density: float | None = None,
    tolerance: str | None = None,
    model_paths: Sequence[str] = (),
    xacro_args: Mapping[str, str] | None = None,
    xacro_env: Sequence[str] = (),
    trust_xacro: bool = False,
    exclude: Sequence[str] | None = None,
    extend_exclude: Sequence[str] = (),
    force_exclude: bool = False,
    gazebo: str | None = None,
    engine: str | None = None,
) -> AuditConfig:
    """``config`` with the command-line options that were given replacing its values
    (``model_paths`` are searched before the file's; ``xacro_args`` apply to every file, over
    the file's; ``xacro_env`` names variables besides the file's; ``trust_xacro`` is never
    set by a file; ``exclude`` replaces the file's ``exclude`` and the defaults,
    ``extend_exclude`` adds to the file's, both relative to the working directory;
    ``force_exclude`` leaves out matching files named on the command line too; ``gazebo`` and
    ``engine`` name the target release and engine, over the file's)."""
    known = config.known_codes
    changes: dict[str, Any] = {}
    if select is not None:
        changes["select"] = check_codes(split_codes(select), known, "--select")
    if ignore is not None:
        changes["ignore"] = check_codes(split_codes(ignore), known, "--ignore")
    if fail_on is not None:
        changes["fail_on"] = parse_severity(fail_on, "--fail-on")
    if density is not None:
        changes["density"] = parse_density(density, "--density")
    if tolerance is not None:
        changes["tolerance"] = parse_tolerance(tolerance, "--tolerance")
    if model_paths:
        changes["model_paths"] = (*model_paths, *config.model_paths)
    if xacro_args:
        changes["xacro_args"] = (*config.xacro_args, ("*", tuple(xacro_args.items())))
    if xacro_env:
        changes["xacro_env"] = tuple(dict.fromkeys((*config.xacro_env, *xacro_env)))
    if trust_xacro:
        changes["trust_xacro"] = True
    if exclude is not None or extend_exclude:
        def given(option: str, patterns: Sequence[str]) -> tuple[ExcludePattern, ...]:
            if any(not p.strip() for p in patterns):
                raise ConfigError(f"{option}: a pattern is empty")
            return tuple(ExcludePattern(p.strip(), os.path.abspath(os.curdir), option)
                         for p in patterns)

        if exclude is not None:
            changes["exclude"] = given("--exclude", exclude)
        if extend_exclude:
            changes["extend_exclude"] = (*config.extend_exclude,
                                         *given("--extend-exclude", extend_exclude))
    if force_exclude:
        changes["force_exclude"] = True
    if gazebo is not None or engine is not None:
        changes["target"] = with_target(
            config.target,
            None if gazebo is None else parse_target_name("gazebo", gazebo, "--gazebo"),
            None if engine is None else parse_target_name("engine", engine, "--engine"),
            "command line")
    return replace(config, **changes)
