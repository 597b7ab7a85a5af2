"""The one home of a command's target (Gazebo release and physics engine) for a file, outside
the audit's own run: every command and library function that reads or edits one file resolves
it here, as the audit resolves it for that file (docs/releases.md), so that an edit writes for
the target the audit then judges the file by. Precedence: the names given (command line, or the
library's ``gazebo=``/``engine=``), else the nearest settings file's ``gazebo`` and ``engine``
keys, the engine else the world's Physics system (when the file is a world), else the default.

``hydrostatics`` and ``show`` show the target only when a name or the settings give one
(:func:`shown_target`), so that their output without one stays what it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import load_config_file
from gzinertia.audit.config_files import find_config_file
from gzinertia.errors import SettingError
from gzinertia.gazebo.target import DEFAULT_TARGET, Target, named_target
from gzinertia.gazebo.world_engine import world_engine

__all__ = ["file_target", "shown_target"]


def _asked_target(
    file: Path | None, gazebo: str | None, engine: str | None, origin: str
) -> Target:
    """The names given (from ``origin``) over the settings file nearest ``file`` (``None`` or
    not a file: the working directory's), over the default; the world not yet asked."""
    start = file.resolve().parent if file is not None and file.is_file() else None
    found = find_config_file(start)
    target = DEFAULT_TARGET if found is None else load_config_file(found, RULE_INFOS).target
    if gazebo is None and engine is None:
        return target
    named = named_target(gazebo, engine, origin)  # the names, checked
    target = target.with_names(named.release if gazebo is not None else None,
                               named.engine if engine is not None else None, origin)
    missing = target.engine_missing()
    if missing is not None:
        raise SettingError("engine", "{engine}: {missing}", missing=missing)
    return target


def file_target(
    path: str | Path | None, gazebo: str | None, engine: str | None,
    origin: str = "asked for", tree: Any = None,
) -> Target:
    """The target a command reading or editing ``path`` works for (``None``, ``-`` or not a
    file: standard input, the settings looked for from the working directory): ``gazebo`` and
    ``engine`` (each ``None``: not named; from ``origin``) over the nearest settings file's,
    the engine else the world's Physics system's (``tree``: the parsed file when it cannot be
    read again), else the default, each with its origin. Raises
    :class:`~gzinertia.errors.SettingError` (key ``gazebo`` or ``engine``) for a name the
    table does not hold or an engine the release's gz-physics does not ship, and the
    settings' :class:`~gzinertia.audit.config_values.ConfigError` as the audit does."""
    file = None if path is None else Path(path)
    return _with_world(_asked_target(file, gazebo, engine, origin), file, tree)


def shown_target(
    path: str | Path | None, gazebo: str | None, engine: str | None,
    origin: str = "command line", tree: Any = None,
) -> Target | None:
    """:func:`file_target`, or ``None`` when neither the names nor the settings name a release
    or an engine (the command then shows no target)."""
    file = None if path is None else Path(path)
    target = _asked_target(file, gazebo, engine, origin)
    if target.release_origin == "default" and target.engine_origin == "default":
        return None
    return _with_world(target, file, tree)


def _with_world(target: Target, file: Path | None, tree: Any) -> Target:
    """``target`` with the engine of the world ``file`` is (if it is one), where no name or
    setting chose the engine."""
    return target if file is None else target.with_world(*(world_engine(file, tree) or (None, "")))
