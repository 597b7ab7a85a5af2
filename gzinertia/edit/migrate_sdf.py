"""``gzinertia migrate`` on an SDFormat file (the backend's entry point:
:meth:`gzinertia.edit.sdf_file.SdfModelFile.migrate_edit`): the added mass as
``<fluid_added_mass>`` about the link origin in link axes, the damping as gz-sim Hydrodynamics
terms, each written in one :meth:`~gzinertia.edit.model_file.ModelFile.batch` of the backend
(:mod:`gzinertia.edit.migrate_plans` plans them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import plugin_element
from gzinertia.edit.migrate_buoyancy import write_proxy
from gzinertia.edit.migrate_plans import (
    Plan,
    added_mass_comment,
    links_by_name,
    plan_migration,
    remove_classic_blocks,
)
from gzinertia.edit.migrate_request import MigratedLink, MigrateRequest, MigrateResult
from gzinertia.edit.migrate_reverse import migrate_to_uuv
from gzinertia.edit.model_file import ModelFormat
from gzinertia.gazebo.target import refuse_ignored_element
from gzinertia.sdf.xml import read_file_bytes

__all__ = ["migrate_sdf"]


def migrate_sdf(backend: ModelFormat, request: MigrateRequest) -> MigrateResult:
    """The classic blocks of ``request``'s SDFormat file (or standard input's bytes) migrated,
    written through ``backend`` (:class:`~gzinertia.edit.sdf_file.SdfModelFile`); to UUV
    Simulator: :func:`gzinertia.edit.migrate_reverse.migrate_to_uuv`."""
    path, model_paths = request.path, request.model_paths
    old = read_file_bytes(path) if request.data is None else request.data
    opened = backend.open(path, model_paths, old)
    if request.to == "uuv-simulator":
        return migrate_to_uuv(request, opened,
                              lambda new: backend.open(path, model_paths, new).doc)
    doc = opened.doc
    migration = plan_migration(request, old, doc, dart=True)
    if migration.nothing is not None:
        return migration.nothing
    if any(np.any(pl.equivalent.A_BBo_B_exact) for pl in migration.plans):
        refuse_ignored_element(
            request.target, "migrate", "migrate the file for dartsim, then move its added mass "
            "into the Hydrodynamics plugin with convert {sdf_to_hydro} for this target")
    if not request.keep_classic:
        remove_classic_blocks(migration.editor)
    for plan in migration.plans:
        if plan.proxy is not None:
            write_proxy(migration.editor, plan.link, plan.proxy)
    result = _write(backend, path, old, migration.editor.result(), migration.plans,
                    (request.force, request.upgrade_version), model_paths, migration.notes)
    return replace(result, skipped=migration.skipped)


def _write(backend: ModelFormat, path: Path, old: bytes, stripped: bytes, plans: list[Plan],
           flags: tuple[bool, bool], model_paths: Sequence[str | Path],
           notes: list[str]) -> MigrateResult:
    """Writes the added mass (one backend batch), then the plugin terms (a second: a backend
    sets a link once per edit) into ``stripped``; each batch is read back and audited once
    (a code the audit did not report before is a warning)."""
    force, upgrade_version = flags
    warnings = [w for plan in plans for w in plan.warnings]
    with_mass = [pl for pl in plans if np.any(pl.equivalent.A_BBo_B_exact)]
    with_terms = [pl for pl in plans if pl.equivalent.terms]
    masses = backend.open(path, model_paths, stripped)
    with masses.batch() as mass_batch:
        for pl in with_mass:
            masses.set_added_mass(pl.link.name, pl.equivalent.A_BBo_B, force=force,
                                  upgrade_version=upgrade_version,
                                  comment=added_mass_comment(pl, True))
    current = masses.new_bytes()
    edits = [mass_batch.edit] if with_mass else []
    if with_terms:
        terms = backend.open(path, model_paths, current)
        with terms.batch() as term_batch:
            for pl in with_terms:
                terms.set_plugin_terms(pl.link.name, pl.equivalent.terms, force=force,
                                       water_density=pl.density)
        current = terms.new_bytes()
        edits.append(term_batch.edit)
    for edit in edits:
        notes += [n for n in edit.notes if n not in notes]
        warnings += [w for w in edit.warnings if w not in warnings]
    both = [pl.link.name for pl in with_terms if pl in with_mass]
    new = _added_mass_off(backend, path, model_paths, current, both) if both else current
    links = tuple(MigratedLink(pl.link, pl.plugin, pl.equivalent, pl in with_mass,
                               pl in with_terms, pl.buoyancy) for pl in plans)
    return MigrateResult(path, old, new, links, (), tuple(warnings), tuple(notes))


def _added_mass_off(backend: ModelFormat, path: Path, model_paths: Sequence[str | Path],
                    written: bytes, names: list[str]) -> bytes:
    """``written`` with ``<disable_added_mass>true`` in the Hydrodynamics plugin of each link of
    ``names`` (they carry ``<fluid_added_mass>``: added mass counts once, as ``gzinertia hydro``
    writes it), read back."""
    opened = backend.open(path, model_paths, written)
    editor = XmlEditor(written, str(path))
    by_name = links_by_name(opened.doc)
    for name in names:
        plugin = by_name[name].hydrodynamics[0]
        if not plugin.disable_added_mass:
            editor.set_children_text(plugin_element(editor, plugin),
                                     {"disable_added_mass": "true"})
    new = editor.result()
    opened.verify(new)
    return new
