"""Finding the classic marine plugin blocks in a parsed SDF or URDF tree.

A ``<plugin>`` is recognised by its file name
(:func:`~gzinertia.classic.uuv.is_uuv_underwater_object`,
:func:`~gzinertia.classic.vrx.is_vrx_usv_dynamics`), wherever it sits: in an SDF ``<model>``
or ``<world>``, or in a URDF's (or an expanded xacro's) ``<gazebo>`` element, which libsdformat
copies into the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from gzinertia.classic.uuv import UuvPlugin, is_uuv_underwater_object, read_uuv_plugin
from gzinertia.classic.vrx import VrxDynamics, is_vrx_usv_dynamics, read_vrx_plugin
from gzinertia.record_base import ValueRecord

__all__ = [
    "MARKERS",
    "ClassicPlugins",
    "classic_plugins_in",
    "classic_plugins_of_file",
    "mentions_classic_plugin",
]

#: Bytes every file that names one of the plugins contains (their file names' stems).
MARKERS = (b"uuv_underwater_object", b"usv_gazebo_dynamics_plugin")


@dataclass(frozen=True, repr=False, eq=False)
class ClassicPlugins(ValueRecord):
    """The classic marine plugins of one file, in document order."""

    uuv: tuple[UuvPlugin, ...] = ()
    vrx: tuple[VrxDynamics, ...] = ()


def classic_plugins_in(
    root: etree._Element, file: str, masses: dict[str, float] | None = None
) -> ClassicPlugins:
    """The classic plugins under ``root`` (``masses``: link name → kg, for the spheroid
    model). Raises :class:`~gzinertia.errors.SdfError` on a block the plugin would refuse."""
    uuv = []
    vrx = []
    for plugin in root.iter("plugin"):
        filename = plugin.get("filename") or ""
        if is_uuv_underwater_object(filename):
            uuv.append(read_uuv_plugin(plugin, file, masses))
        elif is_vrx_usv_dynamics(filename):
            vrx.append(read_vrx_plugin(plugin, file))
    return ClassicPlugins(tuple(uuv), tuple(vrx))


def mentions_classic_plugin(paths: list[str]) -> bool:
    """Whether any of the files (an audited file and the files it read) names a classic
    plugin: the cheap test before parsing or expanding again. Unreadable files count as
    not naming one (their reader reports them)."""
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if any(marker in data for marker in MARKERS):
            return True
    return False


def classic_plugins_of_file(
    path: str, root: etree._Element | None = None, masses: dict[str, float] | None = None
) -> ClassicPlugins:
    """:func:`classic_plugins_in` of a file (``root``: its tree when already parsed); a xacro
    file is expanded first, as the URDF reader does (default policy, no arguments)."""
    if root is None:
        from gzinertia.sdf.model_file import is_xacro_path

        if is_xacro_path(path):
            from gzinertia.sdf.xml import parse_xml_bytes
            from gzinertia.urdf.xacro_expand import expand_xacro_sourced

            text = expand_xacro_sourced(path, None, ()).text
            root = parse_xml_bytes(text.encode("utf-8"), path)
        elif Path(path).is_file():
            from gzinertia.sdf.xml import parse_xml_file_shared

            root = parse_xml_file_shared(path)
        else:
            return ClassicPlugins()
    return classic_plugins_in(root, path, masses)
