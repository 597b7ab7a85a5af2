"""The target an edit of a file is for, as the audit would judge that file: the release and
engine named on the command line, else the ``gazebo`` and ``engine`` keys of the settings file
nearest the file (``.gzinertia.toml`` or ``[tool.gzinertia]`` of ``pyproject.toml``, found as
the audit finds it: :func:`gzinertia.audit.config_files.find_config_file`), else the default
(:mod:`gzinertia.gazebo.target`). Only those two keys are read; NumPy-free.
"""

from __future__ import annotations

from pathlib import Path

from gzinertia.audit.config_files import find_config_file, table_of
from gzinertia.audit.config_values import parse_target_name, shown_path

__all__ = ["edit_target_names"]


def edit_target_names(
    path: str | Path, gazebo: str | None, engine: str | None
) -> dict[str, str | None]:
    """``{"gazebo": ..., "engine": ...}`` for an edit of ``path`` (``-``: standard input, the
    working directory's settings): each name given (the command line), else the nearest
    settings file's key, else ``None`` (the default). Raises
    :class:`~gzinertia.audit.config_values.ConfigError` (one line naming the settings file) for
    a name the table does not hold."""
    names = {"gazebo": gazebo, "engine": engine}
    if gazebo is not None and engine is not None:
        return names
    found = find_config_file(None if str(path) == "-" else Path(path).resolve().parent)
    table = None if found is None else table_of(found)
    for key in ("gazebo", "engine"):
        if table is not None and names[key] is None and key in table:
            names[key] = parse_target_name(key, table[key], shown_path(str(found)))
    return names
