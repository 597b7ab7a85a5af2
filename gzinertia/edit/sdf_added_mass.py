"""One link's added mass in an SDFormat file, as every SDF edit writes it (the ellipsoid fit,
boundary elements, a matrix the caller gives): who may get it (:func:`admit_link`: a
Hydrodynamics plugin applying added mass, one in another file, the GZI210 overlap guard) and
how it is written (:func:`write_link_added_mass`: ``<fluid_added_mass>`` about the link origin
in link axes, the plugin's own added mass turned off when it is replaced)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import (
    NotEditableError,
    link_element,
    plugin_element,
    same_file,
    write_fluid_added_mass,
)
from gzinertia.edit.overlap_guard import OverlapGuard
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.options import option
from gzinertia.record_base import ValueRecord
from gzinertia.records import HydroPlugin, LinkRecord
from gzinertia.spatial.added_mass import AddedMass

__all__ = [
    "WritePolicy",
    "admit_link",
    "overlap_reason",
    "plugin_conflict",
    "plugins_applying_added_mass",
    "write_link_added_mass",
]


def plugins_applying_added_mass(link: LinkRecord) -> list[HydroPlugin]:
    """The link's Hydrodynamics plugins whose ``<iDotJ>`` added mass is on."""
    return [
        p for p in link.hydrodynamics if added_mass_active(p)
    ]


def plugin_conflict(link: LinkRecord, plugin: HydroPlugin, path: Path) -> str:
    """Why ``link`` gets no ``<fluid_added_mass>`` while ``plugin`` applies added mass."""
    return (
        f"its Hydrodynamics plugin (line {plugin.source.line}) applies added mass from its "
        "<iDotJ> terms, and <fluid_added_mass> as well would count it twice: move those "
        f"values with `{option('hydro_to_sdf_command', path=path)}`, or pass "
        f"{option('replace_plugin_added_mass')} to write the ellipsoid estimate and turn the "
        "plugin's "
        "added mass off (<disable_added_mass>true</disable_added_mass>)"
    )


def overlap_reason(link: LinkRecord, other: str, measure: float, written: bool = False) -> str:
    """Why ``link`` gets no added mass (or, ``written``, why it should not have): its fluid
    ellipsoid overlaps ``other``'s."""
    text = (
        f"{link.name}: its fluid ellipsoid overlaps that of {other}, which carries added mass "
        f"(both would have to shrink by {100.0 * measure:.3g} % to touch), so the fluid they "
        "share "
    )
    if written:
        return text + f"counts twice ({option('allow_overlap')}; the audit reports GZI210)"
    return text + (
        "would count twice (GZI210) and the larger ellipsoid already stands for it; pass "
        f"{option('allow_overlap')} to write it anyway"
    )




@dataclass(frozen=True, repr=False, eq=False)
class WritePolicy(ValueRecord):
    """What an addmass run lets through: the selection pattern (``None``: all links), whether
    overlapping fluid ellipsoids (GZI210) and plugins applying added mass are allowed."""

    path: Path
    pattern: str | None
    allow_overlap: bool
    replace_plugin_added_mass: bool


def admit_link(
    link: LinkRecord, guard: OverlapGuard, policy: WritePolicy, skipped: list[str]
) -> tuple[tuple[str, float] | None, list[HydroPlugin]] | None:
    """``(overlap clash, plugins applying added mass)`` if ``link`` may get added mass; ``None``
    after appending to ``skipped`` why it may not (the overlap guard, a Hydrodynamics plugin
    that applies added mass, or one in another file). A plugin conflict on an explicitly
    selected link raises :class:`GzInertiaError` instead. Shared by the ellipsoid and BEM paths."""
    clash = guard.clash(link)
    if clash is not None and not policy.allow_overlap:
        skipped.append(overlap_reason(link, *clash))
        return None
    plugins = plugins_applying_added_mass(link)
    if plugins and not policy.replace_plugin_added_mass:
        reason = plugin_conflict(link, plugins[0], policy.path)
        if policy.pattern is not None:
            raise GzInertiaError(f"{plugins[0].source}: {reason}")
        skipped.append(f"{link.name}: {reason}")
        return None
    if any(not same_file(p.source.file, policy.path) for p in plugins):
        skipped.append(f"{link.name}: its Hydrodynamics plugin is in another file")
        return None
    return clash, plugins


def write_link_added_mass(
    editor: XmlEditor,
    link: LinkRecord,
    plugins: Sequence[HydroPlugin],
    written: tuple[AddedMass, str],
    policy: WritePolicy,
    out: tuple[list[str], list[str]],
    replaces: str,
) -> bool:
    """Writes ``written`` (``A_BBo_B``, about Bo in link axes B, linear-first; and its comment)
    as the link's ``<fluid_added_mass>`` and turns off the added mass of its ``plugins``, with a
    note in ``out[1]`` that ends with ``replaces`` (after the plugin's line number). ``False``
    after appending to ``out[0]`` (skipped) why the link's element cannot be edited (raised
    instead when the link was selected explicitly)."""
    A_BBo_B, comment = written
    skipped, notes = out
    try:
        write_fluid_added_mass(editor, link_element(editor, link), A_BBo_B, comment)
    except NotEditableError as exc:
        if policy.pattern is not None:
            raise
        skipped.append(f"{link.name}: {exc.message}")
        return False
    for plugin in plugins:
        editor.set_children_text(plugin_element(editor, plugin), {"disable_added_mass": "true"})
        notes.append(
            f"{link.name}: turned off the added mass of its Hydrodynamics plugin (line "
            f"{plugin.source.line}{replaces}"
        )
    return True


