"""The physics engine a world file's Physics system names (for the audit's target,
:mod:`gzinertia.gazebo.target`): gz-sim reads ``<engine><filename>`` of the system
``gz-sim-physics-system`` and loads ``gz-physics-dartsim-plugin`` when it names none
(``src/systems/physics/Physics.cc``, ``Physics::Configure``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from lxml import etree

from gzinertia.gazebo.releases import DEFAULT_ENGINE
from gzinertia.gazebo.target import Target, engine_of_plugin
from gzinertia.sdf.xml import child, children, line_of, parse_xml_file_shared

__all__ = ["world_engine", "world_targets"]

#: gz-sim's Physics system's plugin file name.
_PHYSICS_SYSTEM = re.compile(r"^(?:lib)?(?:gz-sim|ignition-gazebo)\d*-physics-system(?:\.so)?$")


def world_engine(path: str | Path, root: etree._Element | None = None) -> tuple[str, str] | None:
    """``(engine, origin)`` that a world file's Physics system names: its
    ``<engine><filename>``, or gz-sim's default engine when the system names none; ``None``
    when the file is not a world, loads no Physics system, or names an engine gz-physics does
    not ship (then the target's engine stands, said by its origin). ``root``: the parsed file
    when it cannot be read again (standard input)."""
    file = str(path)
    if root is None:
        if not Path(file).is_file():
            return None
        root = parse_xml_file_shared(file)
    world = child(root, "world")
    if world is None:
        return None
    for plugin in children(world, "plugin"):
        if not _PHYSICS_SYSTEM.match((plugin.get("filename") or "").strip()):
            continue
        engine = child(plugin, "engine")
        name = child(engine, "filename") if engine is not None else None
        where = f"world {file}:{line_of(plugin)}"
        if name is None:
            return DEFAULT_ENGINE, f"{where}, gz-sim's default"
        found = engine_of_plugin(name.text or "")
        return None if found is None else (found, where)
    return None


def document_target(
    target: Target, path: str | Path, root_kind: str, root: etree._Element | None = None
) -> Target:
    """The target a document is judged for: ``target`` with the engine of the world's Physics
    system when the document is a world (``root_kind``; :meth:`Target.with_world`: never over
    the command line's or the settings' engine)."""
    if root_kind != "world":
        return target
    return target.with_world(*(world_engine(path, root) or (None, "")))


def world_targets(paths: Iterable[str], run: Target) -> tuple[Target, ...]:
    """The targets the worlds ``paths`` (audited world files: :func:`~gzinertia.audit.discover.
    world_files`) and the models they include were judged under, where a world's engine
    changes ``run`` (the run's target); in order, each once."""
    found: list[Target] = []
    for path in paths:
        target = document_target(run, path, "world")
        if target.engine != run.engine and target.words() not in {t.words() for t in found}:
            found.append(target)
    return tuple(found)
