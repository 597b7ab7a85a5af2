"""Which files and folders an audit leaves out: ``exclude``, ``extend-exclude``, ``--exclude``,
with ruff's semantics.

A pattern is a glob. One without a ``/`` (``build``, ``*_old.sdf``) matches a file or folder of
that name at any depth; one with a ``/`` (``robots/legacy/*.sdf``, ``/install``) matches the
path relative to its root: the folder of the settings file that wrote it, or the working
directory for ``--exclude``/``--extend-exclude`` and a ``--config`` file. ``*`` and ``?`` do
not cross a ``/``, ``**`` does; a trailing ``/`` matches folders only. An excluded folder is
not searched.

``exclude`` replaces the defaults (:data:`DEFAULT_EXCLUDE`: hidden folders such as ``.git``,
never entered before this setting existed either); ``extend-exclude`` adds to them;
``--exclude`` replaces both the defaults and the settings' ``exclude``, ``--extend-exclude``
adds. As in ruff, a file named on the command line is audited even when a pattern matches it,
unless ``--force-exclude`` (or ``force-exclude = true``) is given: then it is left out too
(for pre-commit, which names files).

Never silent: every file or folder a pattern other than the defaults leaves out is listed as
skipped, naming the pattern and where it was written (a pull request can add a settings file).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from gzinertia.record_base import ValueRecord

__all__ = [
    "DEFAULT_EXCLUDE",
    "ExcludePattern",
    "Exclusion",
    "defaults",
    "parse_patterns",
    "skipped_message",
]

#: Left out unless ``exclude`` replaces them: hidden folders (``.git``, ``.venv``...).
DEFAULT_EXCLUDE = (".*/",)


@dataclass(frozen=True, repr=False, eq=False)
class ExcludePattern(ValueRecord):
    """One exclusion glob, the folder it is relative to (absolute) and where it was written
    (``"extend-exclude in pyproject.toml"``, ``"--exclude"``; ``""`` for a default)."""

    pattern: str
    root: str
    origin: str = ""

    def matches(self, path: str, is_dir: bool) -> bool:
        """Whether the absolute, normalised ``path`` (a folder when ``is_dir``) matches."""
        pattern = self.pattern
        if pattern.endswith("/"):
            if not is_dir:
                return False
            pattern = pattern.rstrip("/")
        if "/" not in pattern:
            return _regex(pattern).fullmatch(os.path.basename(path)) is not None
        try:
            rel = os.path.relpath(path, self.root)
        except ValueError:  # another drive on Windows
            return False
        if rel == os.curdir or rel.startswith(os.pardir):
            return False
        return _regex(pattern.lstrip("/").removeprefix("./")).fullmatch(
            PurePath(rel).as_posix()) is not None


@functools.lru_cache(maxsize=256)
def _regex(glob: str) -> re.Pattern[str]:
    """A glob as a regular expression: ``**`` any text, ``*`` and ``?`` within one path part,
    ``[...]`` a character class."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        char = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in glob[i + 2:]:
            end = glob.index("]", i + 2)
            body = glob[i + 1:end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out))


def parse_patterns(value: object, key: str, where: str, root: str) -> tuple[ExcludePattern, ...]:
    """``exclude``/``extend-exclude`` from a settings file (``where``, relative to ``root``):
    a list of non-empty strings; a :class:`ValueError` saying what is wrong otherwise."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{key} must be a list of glob strings such as [\"build\", "
                         "\"robots/old/*.sdf\"]")
    origin = f"{key} in {where}"
    return tuple(ExcludePattern(str(v).strip(), os.path.abspath(root), origin) for v in value)


def defaults() -> tuple[ExcludePattern, ...]:
    """:data:`DEFAULT_EXCLUDE` (no root: none of them holds a ``/``)."""
    return tuple(ExcludePattern(p, os.path.abspath(os.curdir)) for p in DEFAULT_EXCLUDE)


@dataclass(frozen=True, repr=False, eq=False)
class Exclusion(ValueRecord):
    """The patterns that apply to one walk, and whether named files are excluded too."""

    patterns: tuple[ExcludePattern, ...] = ()
    force: bool = False

    @classmethod
    def of(
        cls,
        exclude: Sequence[ExcludePattern] | None,
        extend: Sequence[ExcludePattern] = (),
        force: bool = False,
    ) -> Exclusion:
        """``exclude`` (``None``: the defaults) and ``extend``."""
        base = defaults() if exclude is None else tuple(exclude)
        return cls((*base, *extend), force)

    def match(self, path: str, is_dir: bool) -> ExcludePattern | None:
        """The first pattern that leaves out ``path`` (as walked or given), else ``None``."""
        full = os.path.normpath(os.path.abspath(path))
        return next((p for p in self.patterns if p.matches(full, is_dir)), None)

    def named(self, path: str) -> ExcludePattern | None:
        """For a file named on the command line: with ``force``, the first pattern that leaves
        it or one of its folders out (up to the patterns' roots), else ``None``."""
        if not self.force:
            return None
        full = os.path.normpath(os.path.abspath(path))
        found = self.match(full, os.path.isdir(full))
        top = os.path.abspath(os.curdir)  # its folders are looked at below the working folder
        parent = os.path.dirname(full)
        while found is None and parent != top and parent.startswith(top + os.sep):
            found = self.match(parent, True)
            parent = os.path.dirname(parent)
        return found


def skipped_message(path: str, pattern: ExcludePattern, folder: bool) -> str:
    """Why an excluded file or folder is skipped."""
    what = "folder not searched" if folder else "not audited"
    return f"excluded by {pattern.pattern!r} ({pattern.origin}): {what}"
