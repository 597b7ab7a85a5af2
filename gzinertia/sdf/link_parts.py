"""A ``<link>``'s parts as the SDF reader (:mod:`gzinertia.sdf.reader`) reads them: names and
poses of elements, the link and its collisions and visuals pending (poses as written, resolved
by :mod:`gzinertia.sdf.link_resolution` once the file's frame graph is complete)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.record_base import Record
from gzinertia.records import (
    Collision,
    Dependency,
    Geometry,
    HydroPlugin,
    Inertial,
    Note,
    SourceRef,
    UnreadVisual,
)
from gzinertia.sdf.frames import Scope
from gzinertia.sdf.geometry import read_geometry
from gzinertia.sdf.includes import unknown_scheme_message
from gzinertia.sdf.values import PoseSpec, parse_float, parse_pose
from gzinertia.sdf.xml import child, first_children, line_of
from gzinertia.spatial.rotation import IDENTITY_POSE

__all__ = [
    "PendingCollision",
    "PendingLink",
    "element_name",
    "mesh_dependency",
    "own_pose",
    "read_collision",
    "read_visuals",
    "suppressed_codes",
]


@dataclass(repr=False, eq=False)
class PendingCollision(Record):
    """A collision (or visual) as read: its pose as written, in its model's ``scope``."""

    name: str
    pose: PoseSpec
    scope: Scope
    collision: Collision


@dataclass(repr=False, eq=False)
class PendingLink(Record):
    """A link as read, before the frame graph resolves its pose and its parts' poses."""

    name: str
    model: str
    scope: Scope
    inertial: Inertial
    collisions: list[PendingCollision]
    source: SourceRef
    static: bool
    suppressed: frozenset[str]
    hydrodynamics: list[HydroPlugin] = field(default_factory=list)
    name_in_file: str = ""
    #: ``<visual>`` shapes as read (poses not yet resolved), and those that could not be.
    visuals: list[PendingCollision] = field(default_factory=list)
    unread_visuals: list[UnreadVisual] = field(default_factory=list)


def element_name(elem: etree._Element, file: str) -> str:
    """``elem``'s ``name`` attribute; an error naming file and line when it is missing or holds
    ``::``."""
    name = (elem.get("name") or "").strip()
    if not name:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> has no name attribute")
    if "::" in name:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> name {name!r} may not contain '::'")
    return name


def own_pose(
    elem: etree._Element, file: str, parts: dict[str, etree._Element] | None = None
) -> PoseSpec:
    """The element's ``<pose>``, or the identity relative to the default frame; ``parts``: the
    element's :func:`~gzinertia.sdf.xml.first_children` when the caller has them."""
    pose = child(elem, "pose") if parts is None else parts.get("pose")
    return PoseSpec(IDENTITY_POSE, "", line_of(elem)) if pose is None else parse_pose(pose, file)


def mesh_dependency(geometry: Geometry, file: str) -> Dependency | None:
    """The mesh file ``geometry`` names, as a dependency of ``file`` (``None``: no mesh)."""
    if not geometry.mesh_uri:
        return None
    return Dependency("resource", geometry.mesh_uri, file, geometry.mesh_path)


def _unknown_scheme_note(
    geometry: Geometry, geom: etree._Element, file: str, link: str
) -> Note | None:
    """A note when a mesh URI has a scheme libsdformat does not know."""
    problem = unknown_scheme_message(geometry.mesh_uri or "")
    if problem is None:
        return None
    if geometry.mesh_path is None:
        problem += (
            "; it is not on the model path either, so the link's geometry rules could not "
            "check this collision"
        )
    else:
        problem += f"; found at {geometry.mesh_path}"
    uri_elem = next(geom.iter("uri"), None)
    where = SourceRef(file, line_of(uri_elem if uri_elem is not None else geom))
    return Note("warning", "unknown-uri-scheme", problem, where, link)


def read_collision(
    elem: etree._Element,
    file: str,
    scope: Scope,
    model_paths: Sequence[str | Path],
    link: str,
) -> tuple[PendingCollision, Dependency | None, Note | None]:
    """The ``<collision>`` ``elem`` of ``link`` (scoped name), with the mesh file it names as a
    dependency and a note when that mesh's URI scheme is unknown to libsdformat."""
    name = (elem.get("name") or "").strip()
    parts = first_children(elem)
    pose = own_pose(elem, file, parts)
    geom = parts.get("geometry")
    density_elem = parts.get("density")
    geometry = Geometry("other") if geom is None else read_geometry(geom, file, model_paths)
    dependency = mesh_dependency(geometry, file)
    note = None
    if dependency is not None and geom is not None:
        note = _unknown_scheme_note(geometry, geom, file, link)
    collision = Collision(
        name=name,
        X_BC=pose.X,
        geometry=geometry,
        source=SourceRef(file, line_of(elem)),
        density=None if density_elem is None else parse_float(density_elem, file),
    )
    return PendingCollision(name, pose, scope, collision), dependency, note


def read_visuals(
    elems: Sequence[etree._Element], file: str, scope: Scope, model_paths: Sequence[str | Path]
) -> tuple[list[PendingCollision], list[UnreadVisual]]:
    """A link's ``<visual>`` shapes (``elems``, in file order) with their poses as written
    (resolved in :func:`resolve_visuals`), and those that cannot be read. A visual is read
    as a collision is
    (a missing ``<geometry>`` is ``Geometry("other")``, mesh URIs resolved through the
    model paths), but one that cannot be read is left out with the reason, not an error:
    physics does not use visuals, and libsdformat's loading of the rest stands."""
    visuals: list[PendingCollision] = []
    unread: list[UnreadVisual] = []
    for v in elems:
        vname = (v.get("name") or "").strip()
        where = SourceRef(file, line_of(v))
        try:
            vpose = own_pose(v, file)
            geom = child(v, "geometry")
            geometry = (
                Geometry("other") if geom is None
                else read_geometry(geom, file, model_paths)
            )
        except GzInertiaError as exc:
            why = exc.message if isinstance(exc, SdfError) else str(exc)
            unread.append(UnreadVisual(vname, where, why))
            continue
        visual = Collision(name=vname, X_BC=vpose.X, geometry=geometry, source=where)
        visuals.append(PendingCollision(vname, vpose, scope, visual))
    return visuals, unread


_SUPPRESSION = re.compile(r"gzinertia:\s*ignore\[([A-Z0-9,\s]+)\]")


def suppressed_codes(elem: etree._Element) -> frozenset[str]:
    """The rule codes a ``<!-- gzinertia: ignore[CODE,...] -->`` comment inside ``elem``
    suppresses."""
    codes: set[str] = set()
    for comment in elem.iter(etree.Comment):
        for match in _SUPPRESSION.finditer(comment.text or ""):
            codes.update(c.strip() for c in match.group(1).split(",") if c.strip())
    return frozenset(codes)
