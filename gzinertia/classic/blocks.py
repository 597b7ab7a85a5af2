"""Finding the classic marine plugin blocks in a parsed SDF or URDF tree.

A ``<plugin>`` is recognised by its file name
(:func:`~gzinertia.classic.uuv.is_uuv_underwater_object`,
:func:`~gzinertia.classic.vrx.is_vrx_usv_dynamics`), wherever it sits: in an SDF ``<model>``
or ``<world>``, or in a URDF's (or an expanded xacro's) ``<gazebo>`` element, which libsdformat
copies into the model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

import gzinertia.urdf
from gzinertia.classic.uuv import UuvPlugin, is_uuv_underwater_object, read_uuv_plugin
from gzinertia.classic.vrx import VrxDynamics, is_vrx_usv_dynamics, read_vrx_plugin
from gzinertia.errors import SdfError
from gzinertia.record_base import ValueRecord
from gzinertia.records import SourceRef
from gzinertia.sdf.xml import parse_xml_bytes, parse_xml_file_shared
from gzinertia.vocabulary.model_suffixes import is_xacro_path
from gzinertia.vocabulary.scoped_names import join_scoped

if TYPE_CHECKING:
    import gzinertia.urdf.xacro_expand

__all__ = [
    "MARKERS",
    "ClassicPlugins",
    "classic_plugins_in",
    "classic_plugins_of_file",
    "mentions_classic_plugin",
    "placer",
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
            uuv.append(replace(read_uuv_plugin(plugin, file, masses), model=_model_of(plugin)))
        elif is_vrx_usv_dynamics(filename):
            vrx.append(replace(read_vrx_plugin(plugin, file), model=_model_of(plugin)))
    return ClassicPlugins(tuple(uuv), tuple(vrx))


def _model_of(plugin: etree._Element) -> str:
    """The scoped name of the ``<model>`` elements around ``plugin`` (outermost first)."""
    names = [str(e.get("name") or "") for e in plugin.iterancestors("model")]
    return join_scoped(*reversed(names))


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
    path: str,
    root: etree._Element | None = None,
    masses: dict[str, float] | None = None,
    xacro_args: Mapping[str, str] | None = None,
    package_paths: tuple[str, ...] = (),
) -> ClassicPlugins:
    """:func:`classic_plugins_in` of a file (``root``: its tree when already parsed); a xacro
    file is expanded first, as the URDF reader does (with ``xacro_args`` and
    ``package_paths``, under the default policy), and every place is moved to where its
    element is written."""
    if root is None:
        if is_xacro_path(path):
            expansion = gzinertia.urdf.xacro_expand.expand_xacro_sourced(path, xacro_args,
                                                                         package_paths)
            place = placer(path, {k: v[0] for k, v in expansion.sources.items()})
            try:
                root = parse_xml_bytes(expansion.text.encode("utf-8"), path)
                return _moved(classic_plugins_in(root, path, masses), place)
            except SdfError as exc:
                where = place(SourceRef(exc.file, exc.line or 1))
                raise SdfError(where.file, where.line, exc.message) from None
        elif Path(path).is_file():
            root = parse_xml_file_shared(path)
        else:
            return ClassicPlugins()
    return classic_plugins_in(root, path, masses)


Place = Callable[[SourceRef], SourceRef]


def placer(file: str, places: Mapping[int, tuple[str, int]]) -> Place:
    """Moves a place in a xacro expansion (``file``, line of the expansion) to where its
    element is written (line 1 of the xacro file for a line no element starts on)."""

    def place(ref: SourceRef) -> SourceRef:
        if ref.file != file:
            return ref
        found = places.get(ref.line)
        return SourceRef(*found) if found is not None else SourceRef(file, 1)

    return place


def _moved(plugins: ClassicPlugins, place: Place) -> ClassicPlugins:
    """``plugins`` with every place moved by ``place``."""
    uuv = tuple(
        replace(p, source=place(p.source), links=tuple(
            replace(link, source=place(link.source),
                    added_mass_source=None if link.added_mass_source is None
                    else place(link.added_mass_source))
            for link in p.links))
        for p in plugins.uuv
    )
    vrx = tuple(
        replace(v, source=place(v.source),
                term_sources={k: place(r) for k, r in v.term_sources.items()})
        for v in plugins.vrx
    )
    return ClassicPlugins(uuv, vrx)
