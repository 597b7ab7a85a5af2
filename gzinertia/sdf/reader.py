"""SDFormat 1.4–1.12 → :class:`~gzinertia.records.SdfDocument`.

Walks a ``<world>`` or ``<model>`` (nested models and includes to any depth), builds the pose
graph (:mod:`gzinertia.sdf.frames`), and resolves every link into a
:class:`~gzinertia.records.LinkRecord` with its pose in the world, inertial, collisions and
Hydrodynamics parameters. Unknown elements are skipped (plugins, sensors, vendor extensions).
Unresolvable or unreadable includes become notes; the rest of the file is still read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal
from urllib.parse import unquote

from lxml import etree

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.limits import ENV_MAX_INCLUDED_MODELS, ENV_MAX_LINKS, ReadLimits
from gzinertia.options import option
from gzinertia.physics.provenance_comment import names_visuals
from gzinertia.physics.rotation import IDENTITY_POSE, Pose
from gzinertia.record_base import Record
from gzinertia.records import (
    Collision,
    Dependency,
    Geometry,
    HydroPlugin,
    Inertial,
    LinkRecord,
    Note,
    SdfDocument,
    SourceRef,
    UnreadVisual,
    UnresolvedInclude,
)
from gzinertia.sdf.auto_inertial import resolve_auto_inertial
from gzinertia.sdf.frames import MODEL_FRAME, WORLD_SCOPE, FrameGraph, FrameNode, Scope
from gzinertia.sdf.geometry import read_geometry
from gzinertia.sdf.hydro import is_gz_hydrodynamics, read_hydrodynamics
from gzinertia.sdf.includes import (
    UnknownSchemeError,
    UnresolvedIncludeError,
    resolve_uri,
    unknown_scheme_message,
)
from gzinertia.sdf.inertial import read_inertial
from gzinertia.sdf.stdin import STDIN_NAME, URDF_ON_STDIN
from gzinertia.sdf.values import (
    PoseSpec,
    attr_bool,
    child_pose,
    parse_bool,
    parse_float,
    parse_pose,
    text_of,
)
from gzinertia.sdf.xml import (
    child,
    first_children,
    line_of,
    parse_xml_bytes,
    parse_xml_file,
    parse_xml_file_shared,
)
from gzinertia.vocabulary.sdf_version import KNOWN_VERSIONS, NEWEST_KNOWN_VERSION, SdfVersion

__all__ = [
    "KNOWN_VERSIONS",
    "MAX_INCLUDE_DEPTH",
    "read_sdf_bytes",
    "read_sdf_file",
    "read_sdf_string",
]

MAX_INCLUDE_DEPTH = 32
_SUPPRESSION = re.compile(r"gzinertia:\s*ignore\[([A-Z0-9,\s]+)\]")


@dataclass(repr=False, eq=False)
class _PendingCollision(Record):
    name: str
    pose: PoseSpec
    scope: Scope
    collision: Collision


@dataclass(repr=False, eq=False)
class _PendingLink(Record):
    name: str
    model: str
    scope: Scope
    inertial: Inertial
    collisions: list[_PendingCollision]
    source: SourceRef
    static: bool
    suppressed: frozenset[str]
    hydrodynamics: list[HydroPlugin] = field(default_factory=list)
    name_in_file: str = ""
    #: ``<visual>`` shapes as read (poses not yet resolved), and those that could not be.
    visuals: list[_PendingCollision] = field(default_factory=list)
    unread_visuals: list[UnreadVisual] = field(default_factory=list)


def _name_of(elem: etree._Element, file: str) -> str:
    name = (elem.get("name") or "").strip()
    if not name:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> has no name attribute")
    if "::" in name:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> name {name!r} may not contain '::'")
    return name


def _own_pose(
    elem: etree._Element, file: str, parts: dict[str, etree._Element] | None = None
) -> PoseSpec:
    """The element's ``<pose>``, or the identity relative to the default frame; ``parts``: the
    element's :func:`~gzinertia.sdf.xml.first_children` when the caller has them."""
    pose = child(elem, "pose") if parts is None else parts.get("pose")
    return PoseSpec(IDENTITY_POSE, "", line_of(elem)) if pose is None else parse_pose(pose, file)


def _suppressed_codes(elem: etree._Element) -> frozenset[str]:
    codes: set[str] = set()
    for comment in elem.iter(etree.Comment):
        for match in _SUPPRESSION.finditer(comment.text or ""):
            codes.update(c.strip() for c in match.group(1).split(",") if c.strip())
    return frozenset(codes)


def _uri_label(uri: str) -> str:
    """A name for what ``uri`` names when its file is unknown: its last path segment that is
    no version number (``.../models/MBARI%20Tethys%20LRAUV/2`` -> ``MBARI Tethys LRAUV``)."""
    parts = [unquote(p) for p in uri.split("://", 1)[-1].split("/") if p]
    while len(parts) > 1 and (parts[-1].isdigit() or parts[-1] == "tip"):
        parts.pop()
    return parts[-1].strip() if parts else ""


def _sdf_version(root: etree._Element, file: str) -> str:
    if root.tag != "sdf":
        hint = " (this is URDF; convert it with `gz sdf -p`)" if root.tag == "robot" else ""
        if root.tag == "robot" and file == STDIN_NAME:  # no suffix to read it as URDF by
            raise SdfError(file, line_of(root), URDF_ON_STDIN)
        raise SdfError(file, line_of(root), f"root element is <{root.tag}>, not <sdf>{hint}")
    version = (root.get("version") or "").strip()
    if not version:
        raise SdfError(file, line_of(root), "<sdf> has no version attribute")
    return version


class _Reader:
    def __init__(self, model_paths: Sequence[str | Path], limits: ReadLimits | None = None) -> None:
        self.model_paths = list(model_paths)
        self.limits = limits or ReadLimits.from_environment()
        self.included_models = 0  # <include> elements met, at any depth
        self.link_count = 0
        self.graph = FrameGraph()
        self.links: list[_PendingLink] = []
        self.notes: list[Note] = []
        self.plugins: list[tuple[Scope, HydroPlugin]] = []
        self.versions: dict[str, str] = {}  # each file's declared <sdf version>
        self.version_values: dict[str, SdfVersion] = {}  # the same, parsed once per file
        self.fixed_joints: list[tuple[str, str]] = []  # (parent, child), scoped; "world" kept
        self.all_joints: list[tuple[str, str, str]] = []  # (type, parent, child), as fixed_joints
        self.incomplete_scopes: set[str] = set()
        self.dependencies: list[Dependency] = []
        self.unresolved: list[UnresolvedInclude] = []
        self.unattached: list[tuple[str, HydroPlugin]] = []

    def register_version(self, file: str, version: str) -> None:
        self.versions[file] = version
        self.version_values[file] = SdfVersion(version)

    def version_of(self, file: str) -> tuple[int, ...]:
        """``file``'s version as the reader applies it (:attr:`SdfVersion.read_as`; the newest
        known for a file not registered)."""
        version = self.version_values.get(file)
        return NEWEST_KNOWN_VERSION if version is None else version.read_as

    def add_frame(
        self,
        kind: str,
        name: str,
        elem: etree._Element,
        file: str,
        scope: Scope,
        pose: PoseSpec,
        default_ref: str,
        placement: str = "",
        where: SourceRef | None = None,
    ) -> None:
        """Adds frame ``name`` posed by ``pose`` (relative to ``default_ref`` when it says none);
        errors about it name ``where`` (default: ``elem`` in ``file``)."""
        self.graph.add(
            FrameNode(
                name=name,
                kind=kind,
                X=pose.X,
                scope=scope,
                ref=pose.relative_to,
                default_ref=default_ref,
                file=where.file if where else file,
                line=where.line if where else line_of(elem),
                placement=placement,
            )
        )

    # ---- elements ---------------------------------------------------------------------------
    def world(self, elem: etree._Element, file: str, stack: tuple[str, ...]) -> None:
        for c in elem:
            if c.tag == "model":
                self.model(c, file, WORLD_SCOPE, stack)
            elif c.tag == "include":
                self.include(c, file, WORLD_SCOPE, False, stack)
            elif c.tag == "frame":
                self.frame(c, file, WORLD_SCOPE)
            elif c.tag == "joint":
                self.note_weld(c, WORLD_SCOPE)

    def model(
        self,
        elem: etree._Element,
        file: str,
        parent: Scope,
        stack: tuple[str, ...],
        *,
        name: str | None = None,
        pose: PoseSpec | None = None,
        placement: str | None = None,
        static: bool = False,
        merge: bool = False,
        in_file: str = "",
        included_at: SourceRef | None = None,
    ) -> Scope:
        """Reads a ``<model>`` into ``parent``; returns the scope of its content. ``in_file`` is
        the parent's scoped name as written in ``file`` ('' at the file's root); ``included_at``
        the ``<include>`` that sets its name, pose and placement frame."""
        written = _name_of(elem, file) if name is None else (elem.get("name") or name).strip()
        own_in_file = f"{in_file}::{written}" if in_file else written
        name = name or written
        if pose is None:
            pose = _own_pose(elem, file)
        if placement is None:
            placement = (elem.get("placement_frame") or "").strip()
        static_elem = child(elem, "static")
        static = static or (static_elem is not None and parse_bool(static_elem, file))
        if merge:
            frame_name = parent.absolute(f"_merged__{name}__model__")
            scope = Scope(parent.prefix, frame_name)
            model_name = parent.prefix
        else:
            frame_name = parent.absolute(name)
            scope = Scope(frame_name, frame_name)
            model_name = frame_name
        self.add_frame(
            "model",
            frame_name,
            elem,
            file,
            parent,
            pose,
            MODEL_FRAME,
            placement=_placement_frame(scope, placement),
            where=included_at,  # the <include> sets the name, pose and placement frame
        )
        for c in elem:
            tag = c.tag
            if tag == "link":
                self.link(c, file, scope, model_name, static, own_in_file)
            elif tag == "frame":
                self.frame(c, file, scope)
            elif tag == "joint":
                self.joint(c, file, scope)
            elif tag == "model":
                self.model(c, file, scope, stack, static=static, in_file=own_in_file)
            elif tag == "include":
                self.include(c, file, scope, static, stack)
            elif tag == "plugin" and is_gz_hydrodynamics(c):
                self.plugins.append((scope, read_hydrodynamics(c, file)))
        return scope

    def link(
        self,
        elem: etree._Element,
        file: str,
        scope: Scope,
        model: str,
        static: bool,
        model_in_file: str = "",
    ) -> None:
        self.link_count += 1
        if self.link_count > self.limits.max_links:
            raise SdfError(
                file,
                line_of(elem),
                f"more than {self.limits.max_links} links in one file, included models counted "
                f"(cap: {option('max_links')} or {ENV_MAX_LINKS})",
            )
        own = _name_of(elem, file)
        name = scope.absolute(own)
        pose = _own_pose(elem, file)
        self.add_frame("link", name, elem, file, scope, pose, MODEL_FRAME)
        inertial, notes = read_inertial(elem, file)
        if notes:
            self.notes.extend(replace(n, link=name) for n in notes)
        collisions = []
        hydrodynamics = []
        visual_elems = []
        for c in elem:
            tag = c.tag
            if tag == "plugin" and is_gz_hydrodynamics(c):
                hydrodynamics.append(read_hydrodynamics(c, file))
            elif tag == "visual":
                visual_elems.append(c)
            if tag != "collision":
                continue
            cname = (c.get("name") or "").strip()
            parts = first_children(c)
            cpose = _own_pose(c, file, parts)
            geom = parts.get("geometry")
            density_elem = parts.get("density")
            geometry = (
                Geometry("other") if geom is None else read_geometry(geom, file, self.model_paths)
            )
            if geometry.mesh_uri:
                self.dependencies.append(
                    Dependency("resource", geometry.mesh_uri, file, geometry.mesh_path)
                )
                if geom is not None:
                    self.note_unknown_scheme(geometry, geom, file, name)
            collision = Collision(
                name=cname,
                X_BC=cpose.X,
                geometry=geometry,
                source=SourceRef(file, line_of(c)),
                density=None if density_elem is None else parse_float(density_elem, file),
            )
            collisions.append(_PendingCollision(cname, cpose, scope, collision))
        visuals, unread_visuals = self.visuals(visual_elems, file, scope)
        comment = inertial.added_mass_comment
        if comment and names_visuals(comment):
            self.visual_mesh_dependencies(visuals, file)
        # duplicates: a keyword-argument constructor call, alike other such calls by shape only
        pending = _PendingLink(
            name=name,
            model=model,
            scope=scope,
            inertial=inertial,
            collisions=collisions,
            source=SourceRef(file, line_of(elem)),
            static=static,
            suppressed=_suppressed_codes(elem),
            hydrodynamics=hydrodynamics,
            name_in_file=f"{model_in_file}::{own}" if model_in_file else own,
            visuals=visuals,
            unread_visuals=unread_visuals,
        )
        self.links.append(pending)

    def visuals(
        self, elems: Sequence[etree._Element], file: str, scope: Scope
    ) -> tuple[list[_PendingCollision], list[UnreadVisual]]:
        """The link's ``<visual>`` shapes (``elems``, in file order) with their poses as
        written (resolved in :meth:`resolve`), and those that cannot be read. A visual is read
        as a collision is
        (a missing ``<geometry>`` is ``Geometry("other")``, mesh URIs resolved through the
        model paths), but one that cannot be read is left out with the reason, not an error:
        physics does not use visuals, and libsdformat's loading of the rest stands."""
        visuals: list[_PendingCollision] = []
        unread: list[UnreadVisual] = []
        for v in elems:
            vname = (v.get("name") or "").strip()
            where = SourceRef(file, line_of(v))
            try:
                vpose = _own_pose(v, file)
                geom = child(v, "geometry")
                geometry = (
                    Geometry("other") if geom is None
                    else read_geometry(geom, file, self.model_paths)
                )
            except GzInertiaError as exc:
                why = exc.message if isinstance(exc, SdfError) else str(exc)
                unread.append(UnreadVisual(vname, where, why))
                continue
            visual = Collision(name=vname, X_BC=vpose.X, geometry=geometry, source=where)
            visuals.append(_PendingCollision(vname, vpose, scope, visual))
        return visuals, unread

    def visual_mesh_dependencies(self, visuals: Sequence[_PendingCollision], file: str) -> None:
        """The mesh files of a link's visuals, as dependencies, for a link whose added mass was
        computed from its visuals (``addmass --bem --geometry visual``; GZI212 compares them):
        the audit cache then re-checks the file when one changes, and GZI212 finds them where
        this reading's model paths resolve them."""
        for v in visuals:
            geometry = v.collision.geometry
            if geometry.mesh_uri:
                self.dependencies.append(
                    Dependency("resource", geometry.mesh_uri, file, geometry.mesh_path)
                )

    def frame(self, elem: etree._Element, file: str, scope: Scope) -> None:
        name = scope.absolute(_name_of(elem, file))
        pose = _own_pose(elem, file)
        attached_to = (elem.get("attached_to") or "").strip()
        self.add_frame("frame", name, elem, file, scope, pose, attached_to or MODEL_FRAME)

    def note_weld(
        self,
        elem: etree._Element,
        scope: Scope,
        parts: dict[str, etree._Element] | None = None,
    ) -> None:
        """Remembers a ``<joint type="fixed">`` (parent and child as scoped names); ``parts``:
        the joint's :func:`~gzinertia.sdf.xml.first_children` when the caller has them."""
        if parts is None:
            parts = first_children(elem)
        parent_elem, child_elem = parts.get("parent"), parts.get("child")
        if (elem.get("type") or "").strip() != "fixed" or parent_elem is None:
            return
        if child_elem is None or not text_of(child_elem) or not text_of(parent_elem):
            return
        parent = text_of(parent_elem)
        self.fixed_joints.append(
            (parent if parent == "world" else scope.absolute(parent),
             scope.absolute(text_of(child_elem)))
        )

    def welded_to_world(self) -> set[str]:
        """Links joined to the world by a chain of fixed joints (as Drake's
        ``GetBodiesWeldedTo(world)``): the world's component of the graph of fixed joints,
        found in one walk (linear in the joints, whatever order they are written in)."""
        joined: dict[str, list[str]] = {}
        for parent, kid in self.fixed_joints:
            joined.setdefault(parent, []).append(kid)
            joined.setdefault(kid, []).append(parent)
        welded = {"world"}
        todo = ["world"]
        while todo:
            for other in joined.get(todo.pop(), ()):
                if other not in welded:
                    welded.add(other)
                    todo.append(other)
        return welded

    def note_joint(
        self, elem: etree._Element, scope: Scope, parts: dict[str, etree._Element]
    ) -> None:
        """Remembers any joint's type, parent and child (scoped; ``world`` kept); ``parts``:
        the joint's :func:`~gzinertia.sdf.xml.first_children`."""
        parent_elem, child_elem = parts.get("parent"), parts.get("child")
        if parent_elem is None or child_elem is None:
            return
        parent, kid = text_of(parent_elem), text_of(child_elem)
        if not parent or not kid:
            return
        self.all_joints.append(
            ((elem.get("type") or "").strip(),
             parent if parent == "world" else scope.absolute(parent), scope.absolute(kid))
        )

    def free_bodies(self, names: Sequence[str]) -> dict[str, tuple[str, bool]]:
        """Each link's free body (:func:`gzinertia.physics.bodies.free_bodies`)."""
        from gzinertia.physics.bodies import free_bodies

        return free_bodies(names, self.all_joints, self.graph.parent_of)

    def joint(self, elem: etree._Element, file: str, scope: Scope) -> None:
        name = scope.absolute(_name_of(elem, file))
        parts = first_children(elem)
        child_elem = parts.get("child")
        if child_elem is None or not text_of(child_elem):
            raise SdfError(file, line_of(elem), f"joint {name!r} has no <child>")
        self.note_weld(elem, scope, parts)
        self.note_joint(elem, scope, parts)
        if self.version_of(file) < (1, 7) and name in self.graph:
            # Before 1.7 a joint may share a link's name; the name then means the link.
            return
        pose = _own_pose(elem, file, parts)
        self.add_frame("joint", name, elem, file, scope, pose, text_of(child_elem))

    def include(
        self, elem: etree._Element, file: str, scope: Scope, static: bool, stack: tuple[str, ...]
    ) -> None:
        # duplicates: another cap than the link count's (own limit, message): shape only
        self.included_models += 1
        if self.included_models > self.limits.max_included_models:
            raise SdfError(
                file,
                line_of(elem),
                f"more than {self.limits.max_included_models} included models in one file, "
                "each <include> counted at any depth "
                f"(cap: {option('max_included_models')} or {ENV_MAX_INCLUDED_MODELS})",
            )
        uri_elem = child(elem, "uri")
        where = SourceRef(file, line_of(elem))
        if uri_elem is None or not text_of(uri_elem):
            self.notes.append(Note("error", "unresolved-include", "<include> has no <uri>", where,
                                   data={"uri": "", "not_downloaded": "false"}))
            self.unresolved_include(elem, file, scope, "", where)
            return
        uri = text_of(uri_elem)
        try:
            target = resolve_uri(uri, Path(file), self.model_paths)
        except UnresolvedIncludeError as exc:
            self.dependencies.append(Dependency("include", uri, file, None))
            if isinstance(exc, UnknownSchemeError):
                uri_where = SourceRef(file, line_of(uri_elem))
                self.notes.append(Note("warning", "unknown-uri-scheme", str(exc), uri_where,
                                       data={"uri": uri}))
            else:
                self.notes.append(Note(
                    "error", "unresolved-include", str(exc), where,
                    data={"uri": uri, "not_downloaded": str(exc.not_downloaded).lower()},
                ))
            self.unresolved_include(elem, file, scope, uri, where)
            return
        self.dependencies.append(Dependency("include", uri, file, str(target.path)))
        problem = unknown_scheme_message(uri)
        if problem is not None:
            self.notes.append(
                Note("warning", "unknown-uri-scheme", f"{problem}; found at {target.path}",
                     SourceRef(file, line_of(uri_elem)))
            )
        key = os.path.realpath(target.path)  # (as str(Path.resolve()), without its Path)
        if key in stack:
            raise SdfError(file, line_of(elem), f"include cycle: {uri!r} includes itself")
        if len(stack) >= MAX_INCLUDE_DEPTH:
            raise SdfError(file, line_of(elem), f"includes nested deeper than {MAX_INCLUDE_DEPTH}")
        self.notes.append(
            Note("info", "include", f"{uri!r} -> {target.path} ({target.rule})", where)
        )
        try:
            root = parse_xml_file_shared(target.path)
            self.register_version(str(target.path), _sdf_version(root, str(target.path)))
        except SdfError as exc:
            self.notes.append(Note("error", "unresolved-include", f"{uri!r}: {exc}", where,
                                   data={"uri": uri, "not_downloaded": "false"}))
            self.unresolved_include(elem, file, scope, uri, where)
            return
        model_elem = child(root, "model")
        if model_elem is None:
            self.notes.append(Note("info", "include-no-model", f"{uri!r} holds no <model>", where))
            return
        name_elem = child(elem, "name")
        placement_elem = child(elem, "placement_frame")
        static_elem = child(elem, "static")
        pose = child_pose(elem, file)
        if pose is None:
            own = child_pose(model_elem, str(target.path))
            pose = PoseSpec(own.X if own else IDENTITY_POSE, "", line_of(elem))
        inner = self.model(
            model_elem,
            str(target.path),
            scope,
            (*stack, key),
            name=text_of(name_elem) if name_elem is not None else None,
            pose=pose,
            placement=text_of(placement_elem) if placement_elem is not None else None,
            static=static or (static_elem is not None and parse_bool(static_elem, file)),
            merge=attr_bool(elem, "merge", file),
            included_at=where,
        )
        for c in elem.iterchildren("plugin"):  # libsdformat adds them to the included model
            if is_gz_hydrodynamics(c):
                self.plugins.append((inner, read_hydrodynamics(c, file)))

    def unresolved_include(
        self, elem: etree._Element, file: str, scope: Scope, uri: str, where: SourceRef
    ) -> None:
        """Records an include that did not resolve, with the plugins written inside it."""
        self.incomplete_scopes.add(scope.prefix)
        label = f"the <include> of {uri or 'no URI'!r} ({where})"
        known = self.graph.incomplete.get(scope.prefix)
        self.graph.incomplete[scope.prefix] = f"{known} or {label}" if known else label
        name_elem = child(elem, "name")
        name = text_of(name_elem) if name_elem is not None else _uri_label(uri)
        plugins = tuple(
            read_hydrodynamics(c, file) for c in elem.iterchildren("plugin")
            if is_gz_hydrodynamics(c)
        )
        inc = UnresolvedInclude(uri, where, scope.absolute(name) if name else "", plugins)
        self.unresolved.append(inc)
        self.unattached.extend((inc.plugin_link(p), p) for p in plugins)

    def note_unknown_scheme(
        self, geometry: Geometry, geom: etree._Element, file: str, link: str
    ) -> None:
        """A note when a mesh URI has a scheme libsdformat does not know."""
        problem = unknown_scheme_message(geometry.mesh_uri or "")
        if problem is None:
            return
        if geometry.mesh_path is None:
            problem += (
                "; it is not on the model path either, so the link's geometry rules could not "
                "check this collision"
            )
        else:
            problem += f"; found at {geometry.mesh_path}"
        uri_elem = next(geom.iter("uri"), None)
        where = SourceRef(file, line_of(uri_elem if uri_elem is not None else geom))
        self.notes.append(Note("warning", "unknown-uri-scheme", problem, where, link))

    # ---- resolution -------------------------------------------------------------------------
    def finish(self) -> tuple[LinkRecord, ...]:
        records = self.resolve()
        for (file, line, _), message in self.graph.unchecked.items():
            self.notes.append(
                Note("warning", "frame-in-unresolved-include", message, SourceRef(file, line))
            )
        return records

    def resolve(self) -> tuple[LinkRecord, ...]:
        by_name = {p.name: p for p in self.links}
        for scope, plugin in self.plugins:
            target = scope.absolute(plugin.link_name) if plugin.link_name else ""
            if target in by_name:
                by_name[target].hydrodynamics.append(plugin)
            elif scope.prefix in self.incomplete_scopes:
                self.unattached.append((target or plugin.link_name, plugin))
            else:
                self.notes.append(
                    Note(
                        "warning",
                        "hydrodynamics-link",
                        f"Hydrodynamics plugin names link {plugin.link_name!r}, which is no link "
                        f"of model {scope.prefix or 'world'!r}: the plugin does nothing",
                        plugin.source,
                    )
                )
        records = []
        welded = self.welded_to_world()
        bodies = self.free_bodies([p.name for p in self.links])
        for p in self.links:
            X_WB = self.graph.world_pose(p.name)
            collisions = []
            for pc in p.collisions:
                if not pc.pose.relative_to:
                    collisions.append(pc.collision)
                    continue
                src = pc.collision.source
                ref = self.graph.resolve_name(
                    pc.scope,
                    pc.pose.relative_to,
                    src.file,
                    src.line,
                    "collision <pose> relative_to",
                )
                X_BC = X_WB.inverse() @ self.graph.world_pose(ref) @ pc.pose.X
                collisions.append(replace(pc.collision, X_BC=X_BC))
            visuals, unread_visuals = self.resolve_visuals(p, X_WB)
            inertial, notes = resolve_auto_inertial(p.name, p.inertial, collisions, p.source)
            if notes:
                self.notes.extend(replace(n, link=p.name) for n in notes)
            # duplicates: LinkRecord from SDF here, from URDF in urdf/lumping.py: shape only
            records.append(
                LinkRecord(
                    name=p.name,
                    model=p.model,
                    X_WB=X_WB,
                    inertial=inertial,
                    collisions=tuple(collisions),
                    source=p.source,
                    static=p.static,
                    hydrodynamics=tuple(p.hydrodynamics),
                    suppressed_codes=p.suppressed,
                    welded_to_world=p.name in welded,
                    name_in_file=p.name_in_file,
                    body=bodies[p.name][0],
                    body_anchored=bodies[p.name][1],
                    visuals=visuals,
                    unread_visuals=unread_visuals,
                )
            )
        return tuple(records)

    def resolve_visuals(
        self, p: _PendingLink, X_WB: Pose
    ) -> tuple[tuple[Collision, ...], tuple[UnreadVisual, ...]]:
        """``p``'s visuals posed in its link frame B, as libsdformat resolves a visual's
        ``<pose relative_to="F">``: F looked up in the link's model scope (another link, a
        frame, a joint, a nested model, ``__model__``; no attribute: the link itself), then
        ``X_BV = X_WB⁻¹·X_WF·X_FV``. A name that is no frame leaves the visual unread."""
        visuals: list[Collision] = []
        unread = list(p.unread_visuals)
        for pv in p.visuals:
            ref = pv.pose.relative_to
            if not ref:
                visuals.append(pv.collision)
                continue
            frame = self.graph.find_name(pv.scope, ref)
            if frame is None:
                why = f"its <pose relative_to={ref!r}> names no frame of its model"
                unread.append(UnreadVisual(pv.name, pv.collision.source, why))
                continue
            try:
                X_WF = self.graph.world_pose(frame)
            except SdfError as exc:  # e.g. a relative_to cycle among frames no link uses
                unread.append(UnreadVisual(pv.name, pv.collision.source, exc.message))
                continue
            X_BV = X_WB.inverse() @ X_WF @ pv.pose.X
            visuals.append(replace(pv.collision, X_BC=X_BV))
        return tuple(visuals), tuple(sorted(unread, key=lambda u: u.source.line))


def _read(
    root: etree._Element,
    file: str,
    model_paths: Sequence[str | Path],
    limits: ReadLimits | None = None,
) -> SdfDocument:
    version = _sdf_version(root, file)
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
    reader = _Reader(model_paths, limits)
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
    (default: :meth:`~gzinertia.limits.ReadLimits.from_environment`).
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


def _placement_frame(scope: Scope, placement: str) -> str:
    """The absolute name of a model's ``placement_frame`` (read inside the model's own scope):
    ``__model__`` is the model frame itself, which places the model as if there were none."""
    if not placement or placement == MODEL_FRAME:
        return ""
    return scope.absolute(placement)
