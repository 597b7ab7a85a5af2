"""The target (Gazebo release and physics engine) of a command other than the audit:
``hydrostatics`` and ``show`` take it as the audit does (docs/releases.md), from the command
line (or the library's ``gazebo=``/``engine=``), else the nearest settings file's ``gazebo`` and
``engine`` keys, the engine else from the world the command reads, else the default; and they
show it only when the command line or the settings name one, so that their output without a
target stays what it was.
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

__all__ = ["command_target"]


def command_target(
    path: str | Path | None, gazebo: str | None, engine: str | None,
    origin: str = "command line", tree: Any = None,
) -> Target | None:
    """The target the command reading ``path`` (``None`` or not a file: standard input, the
    settings looked for from the working directory) shows: ``gazebo`` and ``engine`` (each
    ``None``: not named; from ``origin``) over the nearest settings file's, the engine else
    the world's Physics system's (``tree``: the parsed file when it cannot be read again);
    ``None`` when neither the names nor the settings name a release or an engine. Raises
    :class:`~gzinertia.errors.SettingError` (key ``gazebo`` or ``engine``) for a name the
    table does not hold or an engine the release's gz-physics does not ship, and the
    settings' :class:`~gzinertia.audit.config_values.ConfigError` as the audit does."""
    file = None if path is None else Path(path)
    start = file.resolve().parent if file is not None and file.is_file() else None
    found = find_config_file(start)
    target = DEFAULT_TARGET if found is None else load_config_file(found, RULE_INFOS).target
    if gazebo is not None or engine is not None:
        named = named_target(gazebo, engine, origin)  # the names, checked
        target = target.with_names(named.release if gazebo is not None else None,
                                   named.engine if engine is not None else None, origin)
        missing = target.engine_missing()
        if missing is not None:
            raise SettingError("engine", "{engine}: {missing}", missing=missing)
    if target.release_origin == "default" and target.engine_origin == "default":
        return None
    if file is not None:
        target = target.with_world(*(world_engine(file, tree) or (None, "")))
    return target
