"""Where the audit's settings files are and how they are read: ``.gzinertia.toml`` or a
``pyproject.toml`` with ``[tool.gzinertia]``, found as ruff finds its own (:class:`ConfigFinder`),
read within :data:`MAX_CONFIG_BYTES` and a bounded TOML shape (:func:`read_toml`). What the
settings mean is :mod:`gzinertia.audit.config`'s."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gzinertia.io
from gzinertia.audit.config_values import ConfigError, shown_path
from gzinertia.audit.toml_limits import TomlShapeError, check_toml_shape
from gzinertia.io.safe_read import read_regular_file
from gzinertia.sdf.stdin_names import STDIN_NAME

if TYPE_CHECKING:
    import gzinertia.io.toml_text

__all__ = [
    "CONFIG_FILE",
    "MAX_CONFIG_BYTES",
    "ConfigFinder",
    "find_config_file",
    "read_toml",
    "root_settings_file",
    "settings_file_in",
    "table_of",
]

#: The settings file of a folder (before a ``pyproject.toml`` with ``[tool.gzinertia]``).
CONFIG_FILE = ".gzinertia.toml"

#: Largest settings file read (checked before reading, see :mod:`gzinertia.io.safe_read`): a
#: megabyte of TOML already costs tomllib up to a few seconds and a few hundred MB.
MAX_CONFIG_BYTES = 1024 * 1024


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML document in ``path``, read safely within :data:`MAX_CONFIG_BYTES` and a
    bounded shape; any problem is one :class:`ConfigError` naming the file (and line)."""
    shown = shown_path(path)
    try:
        text = read_regular_file(path, MAX_CONFIG_BYTES).decode("utf-8")
        check_toml_shape(text)
        return gzinertia.io.toml_text.loads(text)
    except OSError as exc:
        raise ConfigError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    except TomlShapeError as exc:
        raise ConfigError(f"{shown}:{exc.line}: not read: {exc}") from None
    except RecursionError:  # the shape check keeps tomllib well within the recursion limit
        raise ConfigError(f"{shown}: not read: nested too deeply") from None
    except gzinertia.io.toml_text.TOMLDecodeError as exc:
        raise ConfigError(f"{shown}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # TOML is UTF-8; tomllib decodes without catching this
        raise ConfigError(
            f"{shown}: not valid TOML: byte {exc.start} is not UTF-8 (TOML files are UTF-8)"
        ) from None


def table_of(path: Path) -> Mapping[str, Any] | None:
    """The settings table of a config file (``None`` for a pyproject without one)."""
    data = read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("gzinertia") if isinstance(tool, Mapping) else None
        if table is None:
            return None
        if not isinstance(table, Mapping):
            raise ConfigError(f"{shown_path(path)}: [tool.gzinertia] must be a table")
        return table
    return data


def settings_file_in(folder: str | Path) -> Path | None:
    """The settings file in ``folder`` itself (not its parents), as discovery takes it there:
    ``.gzinertia.toml``, else a ``pyproject.toml`` with a ``[tool.gzinertia]`` table; ``None``
    for neither (a ``pyproject.toml`` that cannot be read is a :class:`ConfigError`)."""
    candidate = os.path.join(folder, CONFIG_FILE)
    if os.path.isfile(candidate):
        return Path(candidate)
    pyproject = Path(folder, "pyproject.toml")
    if pyproject.is_file() and table_of(pyproject) is not None:
        return pyproject
    return None


def root_settings_file(folder: str | Path = os.curdir) -> str:
    """The file the GitHub Action pins every audited file's settings to (``--config``): the
    settings file in ``folder`` (the repository's root), or ``""`` when it has none (the
    Action then passes ``--isolated``). A ``pyproject.toml`` there that cannot be read is
    named all the same, so that the audit reports it instead of passing it over."""
    try:
        found = settings_file_in(folder)
    except ConfigError:
        return str(Path(folder, "pyproject.toml"))
    return "" if found is None else str(found)


def find_config_file(start: Path | None = None) -> Path | None:
    """The nearest ``.gzinertia.toml``, or ``pyproject.toml`` with ``[tool.gzinertia]``, in
    ``start`` (default: the working directory) or a parent of it."""
    directory = (start or Path.cwd()).resolve()
    for folder in (directory, *directory.parents):
        found = settings_file_in(folder)
        if found is not None:
            return found
    return None


class ConfigFinder:
    """The nearest settings file of each audited path (ruff's hierarchical discovery).

    Each folder is looked at once per run (results are kept for every folder on the way up),
    so finding the settings of N files costs O(N + folders).
    """

    def __init__(self, cwd: Path | None = None) -> None:
        self.cwd = Path(os.path.abspath(cwd or Path.cwd()))
        # folder (absolute, as a string: one dictionary look-up per file of a known folder)
        self._by_folder: dict[str, Path | None] = {}

    def nearest(self, folder: Path) -> Path | None:
        """The nearest settings file in ``folder`` (absolute) or a parent of it."""
        return self._nearest(str(folder))

    def _nearest(self, folder: str) -> Path | None:
        visited: list[str] = []
        found: Path | None = None
        current = folder
        while True:
            if current in self._by_folder:
                found = self._by_folder[current]
                break
            visited.append(current)
            found = settings_file_in(current)
            if found is not None:
                break
            parent = os.path.dirname(current)
            if parent == current:  # the root
                break
            current = parent
        for current in visited:
            self._by_folder[current] = found
        return found

    def for_path(self, path: str) -> Path | None:
        """The settings file for the audited file ``path`` (as given; standard input is in the
        working directory): the nearest above it, else the nearest above the working
        directory, else ``None`` (defaults)."""
        folder = str(self.cwd) if path == STDIN_NAME else os.path.dirname(os.path.abspath(path))
        found = self._nearest(folder)
        return found if found is not None else self._nearest(str(self.cwd))

