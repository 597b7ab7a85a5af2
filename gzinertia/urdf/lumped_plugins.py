"""The Hydrodynamics plugins of a URDF's ``<gazebo>`` extensions on the links libsdformat's
lumping (:mod:`gzinertia.urdf.lumping`) keeps: attached to the link that holds the one they
name, or a note that they do nothing."""

from __future__ import annotations

from dataclasses import replace

from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.records import HydroPlugin, LinkRecord, Note
from gzinertia.urdf.model import UrdfRobot

__all__ = ["plugin_notes", "with_plugins"]


def _plugin_target(
    ref: str, plugin: HydroPlugin, lumped_into: dict[str, str]
) -> tuple[str, str | None]:
    """(link the plugin names, the kept link holding it if it was lumped)."""
    target = ref or plugin.link_name
    return target, lumped_into.get(target)


def with_plugins(
    robot: UrdfRobot, records: list[LinkRecord], lumped_into: dict[str, str], prefix: str
) -> list[LinkRecord]:
    """``records`` (kept links, named ``prefix`` + link) with the Hydrodynamics plugins of
    ``robot``'s ``<gazebo>`` extensions appended to the link each names (a lumped link's to
    the kept link ``lumped_into`` says holds it), and their added-mass comment."""
    by_name = {r.name: i for i, r in enumerate(records)}
    extra: dict[int, list[HydroPlugin]] = {}
    for ref, plugin in robot.plugins:
        target, holder = _plugin_target(ref, plugin, lumped_into)
        if ref and holder:  # extensions of a lumped link move to the link that holds it
            target = holder
        i = by_name.get(prefix + target)
        if i is not None:
            extra.setdefault(i, []).append(plugin)
    return [
        _with_comment(replace(r, hydrodynamics=(*r.hydrodynamics, *extra[i])))
        if i in extra else r
        for i, r in enumerate(records)
    ]


def _with_comment(record: LinkRecord) -> LinkRecord:
    """The link with the comment of its (last) Hydrodynamics plugin that applies added mass as
    its added-mass comment, the way the SDF reader records the comment before
    ``<fluid_added_mass>``: ``addmass`` on URDF writes its provenance there (the audit's
    GZI204 and GZI212 read it)."""
    comments = [p.comment for p in record.hydrodynamics if p.comment and added_mass_active(p)]
    if not comments or record.inertial.added_mass_comment is not None:
        return record
    return replace(record, inertial=replace(record.inertial, added_mass_comment=comments[-1]))


def plugin_notes(
    robot: UrdfRobot, records: list[LinkRecord], lumped_into: dict[str, str], prefix: str
) -> list[Note]:
    """A warning for each of ``robot``'s Hydrodynamics plugins that names no link Gazebo
    builds (none, or one lumped into another by an extension naming the plugin's link)."""
    names = {r.name for r in records}
    notes = []
    for ref, plugin in robot.plugins:
        target, holder = _plugin_target(ref, plugin, lumped_into)
        if ref and holder:
            continue
        if prefix + target in names:
            continue
        why = (
            f"which fixed-joint lumping merged into {holder!r} (it is a frame in Gazebo, not a "
            "link)" if holder else "which is no link Gazebo builds from this URDF"
        )
        notes.append(
            Note(
                "warning", "hydrodynamics-link",
                f"Hydrodynamics plugin names link {target!r}, {why}: the plugin does nothing",
                plugin.source,
            )
        )
    return notes
