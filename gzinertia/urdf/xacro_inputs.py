"""What one xacro expansion read besides its own file: :class:`XacroInputs`.

The expansion's child (:mod:`gzinertia.urdf.xacro_child`) records them as it reads; the
reader turns them into :class:`~gzinertia.records.Dependency` records
(:func:`xacro_dependencies`), which the audit's cache checks again before it serves a stored
result (:mod:`gzinertia.audit.cache`): a change to any of them, and to nothing else, makes the
file be checked again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from gzinertia.record_base import ValueRecord
from gzinertia.records import Dependency

__all__ = ["XacroInputs", "xacro_dependencies"]


@dataclass(frozen=True, repr=False, eq=False)
class XacroInputs(ValueRecord):
    """What one expansion read, each in the order first met.

    ``files``: every file opened (the top file, includes, ``load_yaml`` files), as named;
    ``packages``: ``(name, folder)`` for each ``$(find name)`` (the folder it resolved to);
    ``args``: ``(name, value)`` for each xacro argument the expansion looked up, with the value
    it was given (``None``: not given, its ``<xacro:arg>`` default or an error applied);
    ``globs``: ``(pattern, matches)`` for each include pattern listed, its matches sorted."""

    files: tuple[str, ...] = ()
    packages: tuple[tuple[str, str | None], ...] = ()
    args: tuple[tuple[str, str | None], ...] = ()
    globs: tuple[tuple[str, tuple[str, ...]], ...] = ()


def xacro_dependencies(path: str, inputs: XacroInputs) -> list[Dependency]:
    """``inputs`` of the expansion of ``path`` as dependencies written in ``path``: a
    ``file`` per file read (other than ``path``), a ``package`` per ``$(find)`` with a
    ``file`` for the ``package.xml`` that named it, a ``xacro-arg`` per argument looked up
    (``path``: the value given) and a ``glob`` per include pattern (``path``: its matches as
    a JSON list)."""
    out = [Dependency("file", f, path, f) for f in inputs.files if f != path]
    for name, folder in inputs.packages:
        out.append(Dependency("package", name, path, folder))
        if folder is not None:
            manifest = str(Path(folder) / "package.xml")
            out.append(Dependency("file", manifest, path, manifest))
    out += [Dependency("xacro-arg", name, path, value) for name, value in inputs.args]
    out += [Dependency("glob", pattern, path, json.dumps(list(matches)))
            for pattern, matches in inputs.globs]
    return out
