"""ROS packages without ROS: where ``$(find pkg)`` and ``package://pkg/...`` lead.

Packages are searched under the ``--package-path`` folders, then ``ROS_PACKAGE_PATH`` and
``AMENT_PREFIX_PATH`` (``<prefix>/share/<pkg>``), each made absolute once. A folder that holds
``package.xml`` is a package, named by its ``<name>`` (else by the folder's name); folders are
searched to a depth of :data:`MAX_DEPTH` below each root, hidden ones skipped. Nothing resolves
outside these roots (no ament index, no ``rospack``).

**Two packages of one name** (Plankton's ROS 2 port of ``uuv_gazebo_ros_plugins`` beside UUV
Simulator's): the first root that holds one wins, as ROS takes them: ROS 2's ament index
returns the first prefix of ``AMENT_PREFIX_PATH`` that has the package (the overlay before the
underlay), ROS 1's ``rospack`` the first folder of ``ROS_PACKAGE_PATH``. Within one root,
``rospack`` keeps the first copy its crawl meets (directory order, which the file system
decides); here the shallowest, then the first by name. Never silently: a file whose
``$(find pkg)`` or ``package://pkg`` names a package with another copy gets a note
(``duplicate-package``, warning; GZI405 in the audit) saying which copy was taken and where the
others are (:func:`gzinertia.urdf.package_notes.duplicate_package_notes`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

from lxml import etree

from gzinertia.errors import GzInertiaError
from gzinertia.sdf.xml import parse_xml_file

__all__ = [
    "ENV_AMENT_PREFIX_PATH",
    "ENV_ROS_PACKAGE_PATH",
    "MAX_DEPTH",
    "find_package",
    "forget_packages",
    "package_copies",
    "package_roots",
    "packages_under",
    "resolve_package_uri",
]

MAX_DEPTH = 6
ENV_ROS_PACKAGE_PATH = "ROS_PACKAGE_PATH"
ENV_AMENT_PREFIX_PATH = "AMENT_PREFIX_PATH"


def _package_name(folder: Path) -> str:
    try:
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
        found = packages_under(str(root)).get(name)
        if found is not None:
            return found
    return None


#: How many times :func:`forget_packages` was called in this process: a limited child that
#: outlives one audit (:mod:`gzinertia.urdf.xacro_sandbox`) forgets its packages when it sees
#: another value.
EPOCH = 0


def forget_packages() -> None:
    """Forgets the packages found so far (:func:`packages_under` walks each root again)."""
    global EPOCH
    EPOCH += 1
    _copies_under.cache_clear()


def package_copies(name: str, package_paths: Sequence[str | Path] = ()) -> list[Path]:
    """Every folder of package ``name`` under the package roots, the one
    :func:`find_package` takes first (roots in order; within a root as
    :func:`packages_under` orders them); a folder found through two roots counts once."""
    copies: dict[Path, None] = {}
    for root in package_roots(package_paths):
        for folder in _copies_under(str(root)).get(name, ()):
            copies.setdefault(folder.resolve(), None)
    return list(copies)


def packages_under(root: str) -> dict[str, Path]:
    """Every package below ``root`` (to :data:`MAX_DEPTH`), by name: the shallowest copy,
    then the first by folder name; read once per process."""
    return {name: folders[0] for name, folders in _copies_under(root).items()}


@functools.lru_cache(maxsize=64)
def _copies_under(root: str) -> dict[str, tuple[Path, ...]]:
    """Every copy of every package below ``root``, in the order :func:`packages_under` takes
    them (breadth first, folders sorted by name)."""
    out: dict[str, list[Path]] = {}
    level = [Path(root)] if Path(root).is_dir() else []
    for _ in range(MAX_DEPTH + 1):
        nxt: list[Path] = []
        for folder in level:
            if (folder / "package.xml").is_file():
                out.setdefault(_package_name(folder), []).append(folder)
                continue  # packages do not nest
            try:
                nxt.extend(sorted(p for p in folder.iterdir()
                                  if p.is_dir() and not p.name.startswith(".")))
            except OSError:
                continue
        level = nxt
    return {name: tuple(folders) for name, folders in out.items()}


#: ``$(find pkg)`` and ``package://pkg/`` (group 1 or 2: the package's name).
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
