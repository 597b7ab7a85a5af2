"""The links an SDFormat file declares, resolved once its frame graph is complete: each
pending link (:mod:`gzinertia.sdf.link_parts`) posed in the world, its collisions and visuals
in its link frame B, its Hydrodynamics plugins attached, its auto inertial computed, as a
:class:`~gzinertia.records.LinkRecord`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from gzinertia.errors import SdfError
from gzinertia.records import Collision, HydroPlugin, LinkRecord, Note, UnreadVisual
from gzinertia.sdf.auto_inertial import resolve_auto_inertial
from gzinertia.sdf.frames import FrameGraph, Scope
from gzinertia.sdf.joints import Joints
from gzinertia.sdf.link_parts import PendingLink
from gzinertia.spatial.rotation import Pose

__all__ = ["attach_plugins", "link_records", "resolve_collisions", "resolve_visuals"]


def attach_plugins(
    links: Sequence[PendingLink],
    plugins: Sequence[tuple[Scope, HydroPlugin]],
    incomplete_scopes: set[str],
) -> tuple[list[tuple[str, HydroPlugin]], list[Note]]:
    """Each model's Hydrodynamics plugins (with the model's scope, in file order) appended to
    the pending link they name; returns those left unattached because their model misses an
    include that did not resolve (with the scoped link name they give), and a note for each
    that names no link of its model (it does nothing)."""
    by_name = {p.name: p for p in links}
    unattached: list[tuple[str, HydroPlugin]] = []
    notes: list[Note] = []
    for scope, plugin in plugins:
        target = scope.absolute(plugin.link_name) if plugin.link_name else ""
        if target in by_name:
            by_name[target].hydrodynamics.append(plugin)
        elif scope.prefix in incomplete_scopes:
            unattached.append((target or plugin.link_name, plugin))
        else:
            notes.append(
                Note(
                    "warning",
                    "hydrodynamics-link",
                    f"Hydrodynamics plugin names link {plugin.link_name!r}, which is no link "
                    f"of model {scope.prefix or 'world'!r}: the plugin does nothing",
                    plugin.source,
                )
            )
    return unattached, notes


def link_records(
    links: Sequence[PendingLink], graph: FrameGraph, joints: Joints
) -> tuple[tuple[LinkRecord, ...], list[Note]]:
    """The records of ``links`` (file order): each posed in the world by ``graph``, its parts
    in its link frame, welded to the world and its free body as ``joints`` say, its auto
    inertial resolved; and the notes that resolution gave (naming their link)."""
    records = []
    notes: list[Note] = []
    welded = joints.welded_to_world()
    bodies = joints.free_bodies([p.name for p in links], graph.parent_of)
    for p in links:
        X_WB = graph.world_pose(p.name)
        collisions = resolve_collisions(p, X_WB, graph)
        visuals, unread_visuals = resolve_visuals(p, X_WB, graph)
        inertial, inertial_notes = resolve_auto_inertial(p.name, p.inertial, collisions, p.source)
        if p.inertial.auto:  # kept for a target whose libsdformat does not know auto
            inertial = replace(inertial, as_written=replace(p.inertial, auto=False))
        notes.extend(replace(n, link=p.name) for n in inertial_notes)
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
    return tuple(records), notes


def resolve_collisions(p: PendingLink, X_WB: Pose, graph: FrameGraph) -> list[Collision]:
    """``p``'s collisions posed in its link frame B (``X_WB``: the link's pose in the world):
    a ``<pose relative_to="F">`` as ``X_BC = X_WB⁻¹·X_WF·X_FC``, F looked up in the link's
    model scope (an error naming file and line when it names no frame)."""
    collisions = []
    for pc in p.collisions:
        if not pc.pose.relative_to:
            collisions.append(pc.collision)
            continue
        src = pc.collision.source
        ref = graph.resolve_name(
            pc.scope, pc.pose.relative_to, src.file, src.line, "collision <pose> relative_to"
        )
        X_BC = X_WB.inverse() @ graph.world_pose(ref) @ pc.pose.X
        collisions.append(replace(pc.collision, X_BC=X_BC))
    return collisions


def resolve_visuals(
    p: PendingLink, X_WB: Pose, graph: FrameGraph
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
        frame = graph.find_name(pv.scope, ref)
        if frame is None:
            why = f"its <pose relative_to={ref!r}> names no frame of its model"
            unread.append(UnreadVisual(pv.name, pv.collision.source, why))
            continue
        try:
            X_WF = graph.world_pose(frame)
        except SdfError as exc:  # e.g. a relative_to cycle among frames no link uses
            unread.append(UnreadVisual(pv.name, pv.collision.source, exc.message))
            continue
        X_BV = X_WB.inverse() @ X_WF @ pv.pose.X
        visuals.append(replace(pv.collision, X_BC=X_BV))
    return tuple(visuals), tuple(sorted(unread, key=lambda u: u.source.line))
