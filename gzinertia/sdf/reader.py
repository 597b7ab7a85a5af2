"""SDFormat 1.4–1.12 → :class:`~gzinertia.records.SdfDocument`.

Walks a ``<world>`` or ``<model>`` (nested models and includes to any depth), builds the pose
graph (:mod:`gzinertia.sdf.frames`), and resolves every link into a
:class:`~gzinertia.records.LinkRecord` with its pose in the world, inertial, collisions and
Hydrodynamics parameters. Unknown elements are skipped (plugins, sensors, vendor extensions).
Unresolvable or unreadable includes become notes; the rest of the file is still read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.io.limits import ReadLimits
from gzinertia.records import (
    Note,
    SdfDocument,
    SourceRef,
)
from gzinertia.sdf.element_reader import MAX_INCLUDE_DEPTH, ElementReader, sdf_version
from gzinertia.sdf.frames import WORLD_SCOPE
from gzinertia.sdf.xml import (
    child,
    line_of,
    parse_xml_bytes,
    parse_xml_file,
)
from gzinertia.vocabulary.sdf_version import KNOWN_VERSIONS

__all__ = [
    "KNOWN_VERSIONS",
    "MAX_INCLUDE_DEPTH",
    "read_sdf_bytes",
    "read_sdf_file",
    "read_sdf_string",
]



def _read(
    root: etree._Element,
    file: str,
    model_paths: Sequence[str | Path],
    limits: ReadLimits | None = None,
) -> SdfDocument:
    version = sdf_version(root, file)
    notes: list[Note] = []
    if version not in KNOWN_VERSIONS:
        notes.append(
            Note(
                "warning",
                "sdf-version",
                f"SDFormat {version!r} is not a version this reader knows (1.0–1.12): read as 1.12",
                SourceRef(file, line_of(root)),
            )
        )
    reader = ElementReader(model_paths, limits)
    reader.register_version(file, version)
    stack = (os.path.realpath(file),)
    world = child(root, "world")
    kind: Literal["world", "model"] = "world" if world is not None else "model"
    if world is not None:
        reader.world(world, file, stack)
    else:
        for elem in root:
            if elem.tag == "model":
                reader.model(elem, file, WORLD_SCOPE, stack)
    try:
        links = reader.finish()
    except SdfError as exc:
        if not reader.unresolved:
            raise
        # Likely a consequence of what was not read: name the include first.
        first = reader.unresolved[0]
        more = f" (and {len(reader.unresolved) - 1} more)" if len(reader.unresolved) > 1 else ""
        raise SdfError(
            first.source.file,
            first.source.line,
            f"<include> of {first.uri or 'no URI'!r} did not resolve{more}, and then: {exc}",
        ) from None
    return SdfDocument(
        path=file,
        sdf_version=version,
        links=links,
        notes=(*notes, *reader.notes),
        root_kind=kind,
        dependencies=tuple(reader.dependencies),
        file_versions=dict(reader.versions),
        unresolved_includes=tuple(reader.unresolved),
        unattached_plugins=tuple(reader.unattached),
    )


def read_sdf_file(
    path: str | Path, model_paths: Sequence[str | Path] = (), limits: ReadLimits | None = None
) -> SdfDocument:
    """Reads an SDFormat file (world or model) and everything it includes.

    ``model_paths`` are searched first for ``model://`` URIs, then ``GZ_SIM_RESOURCE_PATH``,
    ``SDF_PATH`` and ``IGN_GAZEBO_RESOURCE_PATH``. Raises :class:`~gzinertia.errors.SdfError`
    (file and line) for a file that cannot be read as SDFormat, or that goes over ``limits``
    (default: :meth:`~gzinertia.io.limits.ReadLimits.from_environment`).
    """
    return _read(parse_xml_file(path), str(path), model_paths, limits)


def read_sdf_string(
    text: str,
    name: str = "<string>",
    model_paths: Sequence[str | Path] = (),
    limits: ReadLimits | None = None,
) -> SdfDocument:
    """Reads SDFormat text; ``name`` stands for the file in messages and relative includes."""
    return _read(parse_xml_bytes(text.encode("utf-8"), name), name, model_paths, limits)


def read_sdf_bytes(
    data: bytes,
    name: str = "<bytes>",
    model_paths: Sequence[str | Path] = (),
    limits: ReadLimits | None = None,
) -> SdfDocument:
    """Reads SDFormat bytes (any declared encoding); ``name`` stands for the file in messages
    and relative includes (e.g. edited bytes checked before they replace the file)."""
    return _read(parse_xml_bytes(data, name), name, model_paths, limits)


