"""What a reading looked up (an include, a mesh, a xacro input) and what it found: the
:class:`Dependency` record, for the audit's cache. On the floor of :mod:`gzinertia.errors`
(which carries dependencies in :class:`~gzinertia.errors.MacrosOnlyError`) and below
:mod:`gzinertia.records`, which re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gzinertia.record_base import ValueRecord

__all__ = ["FILE_KINDS", "Dependency"]


@dataclass(frozen=True, repr=False, eq=False)
class Dependency(ValueRecord):
    """Something the reading looked up, as written in the file ``base``, and what it found.

    ``path`` is what it resolved to (``None`` when it was not found), by ``kind``:

    * ``include``, ``resource``: an SDF ``<include><uri>`` or mesh URI, and its file;
    * ``urdf-resource``: a URDF mesh filename (``package://``, ``file://`` or relative to
      ``base``'s folder, :func:`~gzinertia.urdf.ros_packages.resolve_package_uri`), and its
      file;
    * ``file``: a file a xacro expansion read (an include, a ``load_yaml`` file, the
      ``package.xml`` of a package ``$(find)`` found), named as read (``uri`` = ``path``);
    * ``package``: the ROS package ``uri`` a ``$(find)`` looked up, and its folder;
    * ``xacro-arg``: the xacro argument ``uri`` the expansion looked up, and the value it was
      given (``None``: not given);
    * ``glob``: a xacro include pattern, and its matches (a JSON list).

    What was read follows from these: the audited file and the ``path`` of every dependency
    of a file kind (:data:`FILE_KINDS`)."""

    kind: Literal["include", "resource", "urdf-resource", "file", "package", "xacro-arg", "glob"]
    uri: str
    base: str
    path: str | None


#: The :class:`Dependency` kinds whose ``path`` is a file the reading read.
FILE_KINDS = frozenset({"include", "resource", "urdf-resource", "file"})
