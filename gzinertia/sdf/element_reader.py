"""The walk of an SDFormat file's elements (:mod:`gzinertia.sdf.reader` starts it): worlds,
models (nested and included, to any depth), links, frames and joints, into the pose graph
(:mod:`gzinertia.sdf.frames`) and pending links (:mod:`gzinertia.sdf.link_parts`), resolved
into :class:`~gzinertia.records.LinkRecord` records at the end
(:mod:`gzinertia.sdf.link_resolution`). Unresolvable or unreadable includes become notes;
the rest of the file is still read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote

from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.io.limits import ENV_MAX_INCLUDED_MODELS, ENV_MAX_LINKS, ReadLimits
from gzinertia.options import option
from gzinertia.physics.provenance_comment import names_visuals
from gzinertia.records import (
    Dependency,
    HydroPlugin,
    LinkRecord,
    Note,
    SourceRef,
    UnresolvedInclude,
)
from gzinertia.sdf.frames import MODEL_FRAME, WORLD_SCOPE, FrameGraph, FrameNode, Scope
from gzinertia.sdf.hydro import is_gz_hydrodynamics, read_hydrodynamics
from gzinertia.sdf.includes import (
    Resolved,
    UnknownSchemeError,
    UnresolvedIncludeError,
    resolve_uri,
    unknown_scheme_message,
)
from gzinertia.sdf.inertial import read_inertial
from gzinertia.sdf.joints import Joints
from gzinertia.sdf.link_parts import (
    PendingCollision,
    PendingLink,
    element_name,
    mesh_dependency,
    own_pose,
    read_collision,
    read_visuals,
    suppressed_codes,
)
from gzinertia.sdf.link_resolution import attach_plugins, link_records
from gzinertia.sdf.stdin_names import STDIN_NAME, URDF_ON_STDIN
from gzinertia.sdf.values import (
    PoseSpec,
    attr_bool,
    child_pose,
    parse_bool,
    text_of,
)
from gzinertia.sdf.xml import (
    child,
    first_children,
    line_of,
    parse_xml_file_shared,
)
from gzinertia.spatial.rotation import IDENTITY_POSE
from gzinertia.vocabulary.sdf_version import NEWEST_KNOWN_VERSION, SdfVersion

__all__ = ["MAX_INCLUDE_DEPTH", "ElementReader", "sdf_version"]

MAX_INCLUDE_DEPTH = 32


def _uri_label(uri: str) -> str:
    """A name for what ``uri`` names when its file is unknown: its last path segment that is
    no version number (``.../models/MBARI%20Tethys%20LRAUV/2`` -> ``MBARI Tethys LRAUV``)."""
    parts = [unquote(p) for p in uri.split("://", 1)[-1].split("/") if p]
    while len(parts) > 1 and (parts[-1].isdigit() or parts[-1] == "tip"):
        parts.pop()
    return parts[-1].strip() if parts else ""


def sdf_version(root: etree._Element, file: str) -> str:
    """The ``<sdf>`` root's declared version; an error naming file and line for another root
    (URDF: how to convert it) or no version."""
    if root.tag != "sdf":
        hint = " (this is URDF; convert it with `gz sdf -p`)" if root.tag == "robot" else ""
        if root.tag == "robot" and file == STDIN_NAME:  # no suffix to read it as URDF by
            raise SdfError(file, line_of(root), URDF_ON_STDIN)
        raise SdfError(file, line_of(root), f"root element is <{root.tag}>, not <sdf>{hint}")
    version = (root.get("version") or "").strip()
    if not version:
        raise SdfError(file, line_of(root), "<sdf> has no version attribute")
    return version


class ElementReader:
    """One file's walk: what it read so far (frames, pending links, notes, dependencies,
    includes that did not resolve), under the read limits."""

    def __init__(self, model_paths: Sequence[str | Path], limits: ReadLimits | None = None) -> None:
        self.model_paths = list(model_paths)
        self.limits = limits or ReadLimits.from_environment()
        self.included_models = 0  # <include> elements met, at any depth
        self.link_count = 0
        self.graph = FrameGraph()
        self.links: list[PendingLink] = []
        self.notes: list[Note] = []
        self.plugins: list[tuple[Scope, HydroPlugin]] = []
        self.versions: dict[str, str] = {}  # each file's declared <sdf version>
        self.version_values: dict[str, SdfVersion] = {}  # the same, parsed once per file
        self.joints = Joints()
        self.incomplete_scopes: set[str] = set()
        self.dependencies: list[Dependency] = []
        self.unresolved: list[UnresolvedInclude] = []
        self.unattached: list[tuple[str, HydroPlugin]] = []

    def register_version(self, file: str, version: str) -> None:
        """Remembers ``file``'s declared ``<sdf version>``."""
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
        """Reads a ``<world>``'s models, includes, frames and fixed joints (``stack``: the
        real paths of the files being read, outermost first)."""
        for c in elem:
            if c.tag == "model":
                self.model(c, file, WORLD_SCOPE, stack)
            elif c.tag == "include":
                self.include(c, file, WORLD_SCOPE, False, stack)
            elif c.tag == "frame":
                self.frame(c, file, WORLD_SCOPE)
            elif c.tag == "joint":
                self.joints.note(c, WORLD_SCOPE, first_children(c), fixed_only=True)

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
        written = element_name(elem, file) if name is None else (elem.get("name") or name).strip()
        own_in_file = f"{in_file}::{written}" if in_file else written
        name = name or written
        if pose is None:
            pose = own_pose(elem, file)
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
        """Reads a ``<link>`` of ``model`` (``model_in_file``: its scoped name as written in
        ``file``) into a pending link: its frame, inertial, collisions, visuals and plugins."""
        self.link_count += 1
        _within_cap(self.link_count, self.limits.max_links, "links in one file, included models "
                    "counted", "max_links", ENV_MAX_LINKS, file, elem)
        own = element_name(elem, file)
        name = scope.absolute(own)
        pose = own_pose(elem, file)
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
            elif tag == "collision":
                part, dependency, note = read_collision(c, file, scope, self.model_paths, name)
                collisions.append(part)
                self.dependencies.extend([dependency] if dependency else [])
                self.notes.extend([note] if note else [])
        visuals, unread_visuals = read_visuals(visual_elems, file, scope, self.model_paths)
        comment = inertial.added_mass_comment
        if comment and names_visuals(comment):
            self.visual_mesh_dependencies(visuals, file)
        pending = PendingLink(
            name=name,
            model=model,
            scope=scope,
            inertial=inertial,
            collisions=collisions,
            source=SourceRef(file, line_of(elem)),
            static=static,
            suppressed=suppressed_codes(elem),
            hydrodynamics=hydrodynamics,
            name_in_file=f"{model_in_file}::{own}" if model_in_file else own,
            visuals=visuals,
            unread_visuals=unread_visuals,
        )
        self.links.append(pending)

    def visual_mesh_dependencies(self, visuals: Sequence[PendingCollision], file: str) -> None:
        """The mesh files of a link's visuals, as dependencies, for a link whose added mass was
        computed from its visuals (``addmass --bem --geometry visual``; GZI212 compares them):
        the audit cache then re-checks the file when one changes, and GZI212 finds them where
        this reading's model paths resolve them."""
        for v in visuals:
            dependency = mesh_dependency(v.collision.geometry, file)
            self.dependencies.extend([dependency] if dependency else [])

    def frame(self, elem: etree._Element, file: str, scope: Scope) -> None:
        """Adds a ``<frame>`` of ``scope`` to the pose graph."""
        name = scope.absolute(element_name(elem, file))
        pose = own_pose(elem, file)
        attached_to = (elem.get("attached_to") or "").strip()
        self.add_frame("frame", name, elem, file, scope, pose, attached_to or MODEL_FRAME)

    def joint(self, elem: etree._Element, file: str, scope: Scope) -> None:
        """Remembers a ``<joint>`` of ``scope`` and adds its frame to the pose graph."""
        name = scope.absolute(element_name(elem, file))
        parts = first_children(elem)
        child_elem = parts.get("child")
        if child_elem is None or not text_of(child_elem):
            raise SdfError(file, line_of(elem), f"joint {name!r} has no <child>")
        self.joints.note(elem, scope, parts)
        if self.version_of(file) < (1, 7) and name in self.graph:
            # Before 1.7 a joint may share a link's name; the name then means the link.
            return
        pose = own_pose(elem, file, parts)
        self.add_frame("joint", name, elem, file, scope, pose, text_of(child_elem))

    def include(
        self, elem: etree._Element, file: str, scope: Scope, static: bool, stack: tuple[str, ...]
    ) -> None:
        """Reads the ``<include>`` ``elem`` of ``file`` into ``scope``: the model of the file
        its URI names, renamed, posed and placed as the include says (a URI that does not
        resolve, or a file that cannot be read: notes, and the include recorded unresolved)."""
        self.included_models += 1
        _within_cap(self.included_models, self.limits.max_included_models, "included models "
                    "in one file, each <include> counted at any depth", "max_included_models",
                    ENV_MAX_INCLUDED_MODELS, file, elem)
        where = SourceRef(file, line_of(elem))
        found = self.include_target(elem, file, scope, where)
        if found is None:
            return
        uri, uri_elem, target = found
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
            self.register_version(str(target.path), sdf_version(root, str(target.path)))
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

    def include_target(
        self, elem: etree._Element, file: str, scope: Scope, where: SourceRef
    ) -> tuple[str, etree._Element, Resolved] | None:
        """The ``<include>`` ``elem``'s URI, its element and the file it names (a dependency
        either way); ``None`` when it has no URI or does not resolve (with the notes saying
        why, and the include recorded unresolved)."""
        uri_elem = child(elem, "uri")
        if uri_elem is None or not text_of(uri_elem):
            self.notes.append(Note("error", "unresolved-include", "<include> has no <uri>", where,
                                   data={"uri": "", "not_downloaded": "false"}))
            self.unresolved_include(elem, file, scope, "", where)
            return None
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
            return None
        self.dependencies.append(Dependency("include", uri, file, str(target.path)))
        return uri, uri_elem, target

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

    # ---- resolution -------------------------------------------------------------------------
    def finish(self) -> tuple[LinkRecord, ...]:
        """The links read, resolved; notes for frames left unchecked in unresolved includes."""
        records = self.resolve()
        for (file, line, _), message in self.graph.unchecked.items():
            self.notes.append(
                Note("warning", "frame-in-unresolved-include", message, SourceRef(file, line))
            )
        return records

    def resolve(self) -> tuple[LinkRecord, ...]:
        """Every link read, posed in the world, its parts in its frame, its plugins attached."""
        unattached, notes = attach_plugins(self.links, self.plugins, self.incomplete_scopes)
        self.unattached.extend(unattached)
        self.notes.extend(notes)
        records, notes = link_records(self.links, self.graph, self.joints)
        self.notes.extend(notes)
        return records


def _within_cap(
    count: int, cap: int, what: str, key: str, env: str, file: str, elem: etree._Element
) -> None:
    """An error at ``elem`` when ``count`` (of ``what``) is over ``cap``, naming the option
    ``key`` and the environment variable ``env`` that set the cap."""
    if count > cap:
        raise SdfError(file, line_of(elem), f"more than {cap} {what} (cap: {option(key)} or {env})")


def _placement_frame(scope: Scope, placement: str) -> str:
    """The absolute name of a model's ``placement_frame`` (read inside the model's own scope):
    ``__model__`` is the model frame itself, which places the model as if there were none."""
    if not placement or placement == MODEL_FRAME:
        return ""
    return scope.absolute(placement)
