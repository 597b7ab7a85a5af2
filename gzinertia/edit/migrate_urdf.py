"""``gzinertia migrate`` on a URDF file: what it writes where URDF cannot carry
``<fluid_added_mass>`` (sdformat#1467).

The stable path available: the added mass goes where ``gzinertia addmass`` writes it in URDF, a
``<gazebo>`` block with gz-sim's Hydrodynamics plugin holding ``D = -A`` as ``<iDotJ>`` terms
about the link origin in link axes (:meth:`gzinertia.edit.urdf_file.UrdfModelFile.
set_added_mass`); the damping terms join that plugin (or a new ``<gazebo>`` block for a link
without added mass). The plugin applies added mass explicitly, from the last steps'
acceleration: a link whose added mass exceeds the rigid body's would diverge (gz-sim#1923,
GZI506's condition), so its added mass is not migrated, said in the skipped links
(:func:`gzinertia.edit.migrate_plans.plans_of`); and its Coriolis term reads the diagonal only,
with Fossen's sign (:func:`gzinertia.gazebo.hydro_coriolis.sdf_to_hydro_warnings`): said. The
URDF stays a
URDF: the classic ``<plugin>`` is removed from its ``<gazebo>`` element (the element too when
nothing else is left in it) unless kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gzinertia.classic.migrate import GzEquivalent
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.hydro import new_plugin_lines, term_scales
from gzinertia.edit.links import ascii_comment, format_value, plugin_element
from gzinertia.edit.migrate_plans import (
    added_mass_comment,
    links_by_name,
    plan_migration,
    remove_classic_blocks,
)
from gzinertia.edit.migrate_request import MigratedLink, MigrateRequest, MigrateResult
from gzinertia.edit.migrate_reverse import migrate_to_uuv
from gzinertia.edit.model_file import ModelFile, ModelFormat
from gzinertia.edit.verify import WRITE_RTOL
from gzinertia.errors import GzInertiaError
from gzinertia.gazebo.hydro_coriolis import sdf_to_hydro_warnings
from gzinertia.record_base import Record
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.urdf.reader import read_urdf_bytes

__all__ = ["TERMS_COMMENT", "UrdfLinkPlan", "UrdfWritten",
           "explicit_warnings", "migrate_urdf", "refuse_unmigratable", "write_urdf"]

#: The comment before a Hydrodynamics plugin migrate adds for damping alone.
TERMS_COMMENT = "gzinertia migrate: Hydrodynamics damping from a classic plugin, gz-sim's sign"


@dataclass(frozen=True, repr=False, eq=False)
class UrdfLinkPlan(Record):
    """One link to write: its record, its gz-sim equivalent, the fluid density (kg/m³) for a
    new plugin, and the provenance comment of its added mass."""

    link: LinkRecord
    equivalent: GzEquivalent
    density: float
    comment: str


@dataclass(repr=False, eq=False)
class UrdfWritten(Record):
    """What :func:`write_urdf` wrote: the bytes, the links given added mass and terms, what
    it says."""

    new: bytes
    with_mass: set[str] = field(default_factory=set)
    with_terms: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def refuse_unmigratable(path: Path, data: bytes | None) -> None:
    """Refuses, naming ``path``, URDF or xacro bytes from standard input (``data``): a URDF
    or xacro file is migrated from the file itself."""
    if data is not None:
        raise GzInertiaError(f"{path}: migrate edits URDF and xacro files, not URDF from "
                             "standard input: give the file")


def migrate_urdf(backend: ModelFormat, request: MigrateRequest) -> MigrateResult:
    """The classic blocks of ``request``'s URDF file migrated, written through ``backend``
    (:class:`~gzinertia.edit.urdf_file.UrdfModelFile`, which has refused what it does not
    migrate: :func:`refuse_unmigratable`): added mass and damping in a Hydrodynamics
    ``<gazebo>`` block, read back; to UUV Simulator:
    :func:`gzinertia.edit.migrate_reverse.migrate_to_uuv`."""
    path = request.path
    opened = backend.open(path, request.model_paths)
    if request.to == "uuv-simulator":
        return migrate_to_uuv(request, opened,
                              lambda new: read_urdf_bytes(new, str(path), request.model_paths))
    migration = plan_migration(request, opened.old, opened.doc, dart=False)
    if migration.nothing is not None:
        return migration.nothing
    plans = migration.plans
    written = write_urdf(opened, [UrdfLinkPlan(pl.link, pl.equivalent, pl.density,
                                               added_mass_comment(pl, False))
                                  for pl in plans], request.keep_classic, request.force,
                         request.model_paths)
    warnings = [w for plan in plans for w in plan.warnings]
    warnings += [w for w in written.warnings if w not in warnings]
    links = tuple(MigratedLink(pl.link, pl.plugin, pl.equivalent,
                               pl.link.name in written.with_mass,
                               pl.link.name in written.with_terms, pl.buoyancy) for pl in plans)
    return MigrateResult(path, opened.old, written.new, links, migration.skipped,
                         tuple(warnings), (*migration.notes, *written.notes))


def write_urdf(backend: ModelFile, plans: Sequence[UrdfLinkPlan], keep_classic: bool,
               force: bool, package_paths: Sequence[str | Path]) -> UrdfWritten:
    """Writes every plan into the URDF file open in ``backend`` (module docstring), read
    back."""
    path = backend.path
    out = UrdfWritten(backend.old)
    explicit = []
    with backend.batch() as batch:  # the blocks written and read back once, not per link
        for plan in plans:
            A = plan.equivalent.A_BBo_B
            if np.any(A.linear_first()):
                backend.set_added_mass(plan.link.name, A, force=force, comment=plan.comment)
                out.with_mass.add(plan.link.name)
                explicit += explicit_warnings(plan)
    if out.with_mass:
        out.warnings += list(dict.fromkeys(batch.edit.warnings))
        out.notes += list(dict.fromkeys(batch.edit.notes))
        out.warnings += explicit
    written = backend.new_bytes()
    after = links_by_name(read_urdf_bytes(written, str(path), package_paths))
    editor = XmlEditor(written, str(path))
    for plan in plans:
        if plan.equivalent.terms:
            _write_terms(editor, after, plan, force)
            out.with_terms.add(plan.link.name)
    if not keep_classic:
        remove_classic_blocks(editor)
    out.new = editor.result()
    _verify(read_urdf_bytes(out.new, str(path), package_paths), plans, path)
    return out


def explicit_warnings(plan: UrdfLinkPlan) -> list[str]:
    """What the Hydrodynamics plugin's explicit added mass costs ``plan``'s link: its Coriolis
    term's losses (added mass beyond the explicit scheme's bound never reaches a plan: the
    planning skips it, :func:`gzinertia.edit.migrate_plans.plans_of`)."""
    link = plan.link
    return sdf_to_hydro_warnings(str(link.source), link.name,
                                 plan.equivalent.A_BBo_B.linear_first(),
                                 link.M_BBo_B.linear_first(), "fossen")


def _write_terms(editor: XmlEditor, after: Mapping[str, LinkRecord], plan: UrdfLinkPlan,
                 force: bool) -> None:
    """The damping terms into the link's Hydrodynamics plugin; for a link without one, a new
    ``<gazebo>`` block at the end of the robot (after those of the links before it)."""
    terms = plan.equivalent.terms
    scales = term_scales(terms)
    text = {name: format_value(v, scales[name]) for name, v in terms.items()}
    plugins = after[plan.link.name].hydrodynamics
    if plugins:
        plugin = plugins[0]
        written = plugin.written_terms
        replaced = sorted(n for n in terms if written.get(n, terms[n]) != terms[n])
        if replaced and not force:
            raise GzInertiaError(f"{plugin.source}: the plugin of {plan.link.name!r} has "
                                 f"{', '.join(replaced)} already: pass --force to replace them")
        editor.set_children_text(plugin_element(editor, plugin), text)
        return
    unit = editor.indent_unit.decode()
    lines = new_plugin_lines(editor, plan.link, plan.density, text, ascii_comment(TERMS_COMMENT))
    editor.append_child_lines(editor.root, ["<gazebo>", *(unit + line for line in lines),
                                            "</gazebo>"])


def _verify(after: SdfDocument, plans: Sequence[UrdfLinkPlan], path: Path) -> None:
    """Every plan's damping terms read back as written."""
    by_name = links_by_name(after)
    for plan in plans:
        terms = plan.equivalent.terms
        if not terms:
            continue
        plugins = by_name[plan.link.name].hydrodynamics
        read = plugins[0].written_terms if plugins else {}
        scale = max(abs(v) for v in terms.values())
        if any(abs(read.get(n, 0.0) - v) > WRITE_RTOL * scale for n, v in terms.items()):
            raise GzInertiaError(f"{path}: internal error: the plugin terms of "
                                 f"{plan.link.name!r} do not read back as set; nothing written")
