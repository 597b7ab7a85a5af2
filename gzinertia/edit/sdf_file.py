"""An SDFormat file open for editing (:class:`SdfModelFile`, a
:class:`~gzinertia.edit.model_file.ModelFile`): added mass as ``<fluid_added_mass>`` (about the
link origin in link axes, the SDF version raised to 1.10 as ``addmass`` raises it), rigid inertia
as ``gzinertia fix`` writes it (only the ``<inertia>`` children, ``<mass>`` and pose position
that change; a whole ``<inertial>`` for a link without one), plugin terms in the link's
Hydrodynamics plugin (a new one appended to its model when it has none; several in one edit
side by side). Each change is read back before its :class:`Edit` is returned, or, in a
:meth:`~gzinertia.edit.model_file.EditedFile.batch`, every change once at its end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import gzinertia.edit as edits
from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.fix import check_pose_editable, fix, plan_reads_back, write_plan
from gzinertia.edit.fix_plan import RepairPlan
from gzinertia.edit.links import (
    ascii_comment,
    format_value,
    link_element,
    plugin_element,
    same_file,
)
from gzinertia.edit.model_file import (
    GIVEN_COMMENT,
    GIVEN_TERMS_COMMENT,
    AddedMassSet,
    EditedFile,
    PluginTermsSet,
    SetOutcome,
    chosen_link,
    given_added_mass,
    given_inertia,
    given_plan,
    given_terms,
)
from gzinertia.edit.session import FileEdit
from gzinertia.edit.verify import WRITE_RTOL, verify_edit
from gzinertia.errors import GzInertiaError
from gzinertia.physics.inertia_repair import RepairError
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Mat3, Vec3

if TYPE_CHECKING:
    from gzinertia.edit.added_mass_request import AddedMassRequest
    from gzinertia.edit.addmass import FitChooser, LinkAddedMass
    from gzinertia.edit.addmass_bem import BemRunProgress, BemSettings, LinkBem
    from gzinertia.edit.bem_import import ImportedLink
    from gzinertia.edit.fix import FixResult
    from gzinertia.edit.fix_options import FixOptions, FixTarget
    from gzinertia.edit.migrate_request import MigrateRequest, MigrateResult
    from gzinertia.io.result_files import ResultFile

__all__ = ["SdfModelFile"]


class SdfModelFile(EditedFile):
    """An SDFormat file open for editing; every ``set_*`` returns the edit of all so far."""

    format = "sdf"

    def __init__(self, session: FileEdit) -> None:
        super().__init__(session.path, session.doc, session.old)
        self._session = session
        self._added: dict[str, AddedMass] = {}
        self._plans: dict[str, RepairPlan] = {}
        self._terms: dict[str, dict[str, float]] = {}
        self._version_said = False

    @classmethod
    def open(
        cls, path: Path, model_paths: Sequence[str | Path] = (), data: bytes | None = None
    ) -> SdfModelFile:
        """Reads ``path`` (or ``data``, named ``path``) as SDFormat for editing."""
        return cls(FileEdit.open(path, model_paths, data))

    @classmethod
    def ellipsoid_edit(
        cls, request: AddedMassRequest, fit_for: FitChooser, density: float
    ) -> Edit[LinkAddedMass]:
        """:func:`gzinertia.edit.addmass.ellipsoid_links` of ``request``:
        ``<fluid_added_mass>``."""
        writer = edits.sdf_added_mass.SdfAddedMassWriter.open(request)
        return edits.addmass.ellipsoid_links(request, fit_for, density, writer)

    @classmethod
    def bem_edit(
        cls, request: AddedMassRequest, settings: BemSettings,
        progress: BemRunProgress | None = None,
    ) -> Edit[LinkBem]:
        """:func:`gzinertia.edit.addmass_bem.add_mass_bem` of ``request``: the solves are the
        :class:`Edit`'s links."""
        return edits.addmass_bem.add_mass_bem(request, settings, progress)

    @classmethod
    def import_edit(cls, request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
        """:func:`gzinertia.edit.bem_import.add_mass_from` of ``request``."""
        return edits.bem_import.add_mass_from(request, result)

    @classmethod
    def fix_edit(cls, target: FixTarget, options: FixOptions) -> FixResult:
        """:func:`gzinertia.edit.fix.fix` of ``target`` (model paths; standard input's bytes)."""
        return fix(target.path, options, target.model_paths, data=target.data)

    @classmethod
    def migrate_edit(cls, request: MigrateRequest) -> MigrateResult:
        """:func:`gzinertia.edit.migrate_sdf.migrate_sdf` of ``request`` through this backend
        (``<fluid_added_mass>`` and the Hydrodynamics terms; standard input's bytes too)."""
        return edits.migrate_sdf.migrate_sdf(cls, request)

    def _link(self, name: str) -> LinkRecord:
        link = chosen_link(self.doc, name, self.path)
        if not same_file(link.source.file, self.path):
            raise GzInertiaError(f"{self.path}: link {link.name!r} is defined in "
                                 f"{link.source.file}: edit that file")
        if link.name in self._outcomes:
            raise GzInertiaError(f"{self.path}: link {link.name!r} was set already in this edit")
        return link

    def set_added_mass(
        self, link: str, A_BBo_B: AddedMass, *, force: bool = False,
        replace_plugin_added_mass: bool = False, upgrade_version: bool = True,
        comment: str = GIVEN_COMMENT, allow_overlap: bool = False,
    ) -> Edit[SetOutcome]:
        """Writes ``A_BBo_B`` (about Bo in B axes) as ``link``'s ``<fluid_added_mass>``, with
        ``comment`` before it, as ``addmass`` writes a link it is told to
        (:meth:`gzinertia.edit.added_mass_run.AddedMassRun.admit`). Refused: a static link, a link
        with a ``<fluid_added_mass>`` already (unless ``force``), a link whose Hydrodynamics plugin
        applies added mass (unless ``replace_plugin_added_mass``: its ``<disable_added_mass>`` is
        set), a link whose fluid ellipsoid overlaps one of a link carrying added mass (GZI210;
        unless ``allow_overlap``, with a warning), a file older than SDF 1.10 whose meaning would
        change (unless ``upgrade_version=False``, which keeps the version with a warning)."""
        rec = self._link(link)
        if rec.static:
            raise GzInertiaError(f"{rec.source}: link {rec.name!r} is static: it does not move "
                                 "through the fluid")
        A, warnings = given_added_mass(A_BBo_B, rec)
        if rec.inertial.A_BBo_B is not None and not force:
            raise GzInertiaError(f"{rec.source}: link {rec.name!r} has a <fluid_added_mass> "
                                 "already: pass force=True to replace it")
        request = AddedMassRequest(self.path, rec.name, allow_overlap=allow_overlap,
                                   replace_plugin_added_mass=replace_plugin_added_mass)
        writer = edits.sdf_added_mass.SdfAddedMassWriter(self._session)
        run = edits.added_mass_run.AddedMassRun(writer, request, [rec], [])
        for name in self._added:  # set earlier in this edit: they carry added mass now
            run.guard.accept(self.doc.link(name))
        replaces = "): the matrix given replaces its <iDotJ> terms, which stay in the file"
        run.write(rec, run.admit_strictly(rec), (A, ascii_comment(comment)), replaces)
        self._notes += run.out.notes
        warnings += run.out.warnings
        editor = self._session.editor
        if not self._version_said:
            said = edits.sdf_version.check_version_for_added_mass(
                editor, self.doc.sdf_version, keep=not upgrade_version)
            self._version_said = True
            if said:
                (self._notes if upgrade_version else self._warnings).append(said)
        self._added[rec.name] = A
        self._warnings += warnings
        self._outcomes[rec.name] = AddedMassSet(rec, A)
        return self._result()

    def set_inertia(
        self, link: str, *, mass: float | None = None, I_BBcm_I: Mat3 | None = None,
        p_BoBcm_B: Vec3 | None = None,
    ) -> Edit[SetOutcome]:
        """Writes ``link``'s ``<mass>``, ``<inertia>`` (``I_BBcm_I``: about the centre of mass
        in the inertial frame's axes I, as written) and the position of ``<inertial><pose>``
        (``p_BoBcm_B``, m, its rotation kept), only the values that change. A link without
        ``<inertial>`` gets one (mass and inertia then required). Refused: ``<inertial
        auto="true">``, an invalid inertia, a mass not positive."""
        rec = self._link(link)
        inertial = rec.inertial
        if inertial.auto:
            raise GzInertiaError(f'{rec.source}: link {rec.name!r} has <inertial auto="true">: '
                                 "libsdformat computes its inertia")
        if inertial.defaulted and (mass is None or I_BBcm_I is None):
            raise GzInertiaError(f"{rec.source}: link {rec.name!r} has no <inertial>: give both "
                                 "mass and I_BBcm_I")
        m, I, p = given_inertia(rec, mass, I_BBcm_I, p_BoBcm_B)
        if p_BoBcm_B is not None:
            try:
                check_pose_editable(link_element(self._session.editor, rec))
            except RepairError as exc:
                raise GzInertiaError(f"{rec.source}: link {rec.name!r}: {exc}") from None
        plan = given_plan(rec, m, I, p, p_BoBcm_B is not None)
        write_plan(self._session.editor, plan)
        self._plans[rec.name] = plan
        self._outcomes[rec.name] = plan.fix
        return self._result()

    def set_plugin_terms(
        self, link: str, terms: Mapping[str, float], *, force: bool = False,
        water_density: float | None = None,
    ) -> Edit[SetOutcome]:
        """Sets ``terms`` (the plugin's names, signs and units: ``xDotU`` added mass, ``xU``
        linear and ``xUabsU`` quadratic damping; link frame, about the link origin) in
        ``link``'s Hydrodynamics plugin, only the values that change. Refused: values the plugin
        has already (unless ``force``), a plugin in another file, added-mass terms on a link
        with ``<fluid_added_mass>`` (counted twice: ``gzinertia.convert`` moves them), a link
        without a plugin unless ``water_density`` (kg/m³) is given for the new one."""
        rec = self._link(link)
        values = given_terms(rec, terms)
        where = f"{rec.source}: link {rec.name!r}"
        if any("Dot" in n and v != 0.0 for n, v in values.items()) and (
            rec.inertial.A_BBo_B is not None
        ):
            raise GzInertiaError(f"{where} has <fluid_added_mass>: added mass in the plugin "
                                 "as well would count twice (gzinertia.convert moves it)")
        scales = edits.hydro.term_scales(values)
        text = {name: format_value(v, scales[name]) for name, v in values.items()}
        editor = self._session.editor
        if rec.hydrodynamics:
            plugin = rec.hydrodynamics[0]
            if not same_file(plugin.source.file, self.path):
                raise GzInertiaError(f"{where}: its Hydrodynamics plugin is in "
                                     f"{plugin.source.file}: edit that file")
            written = plugin.written_terms
            replaced = sorted(n for n in values if written.get(n, values[n]) != values[n])
            if replaced and not force:
                raise GzInertiaError(f"{plugin.source}: the plugin of {rec.name!r} has "
                                     f"{', '.join(replaced)} already: pass force=True to "
                                     "replace them")
            editor.set_children_text(plugin_element(editor, plugin), text)
        elif water_density is None or not water_density > 0.0:
            raise GzInertiaError(f"{where} has no Hydrodynamics plugin: give water_density "
                                 "(kg/m^3) for the new one")
        else:
            model = link_element(editor, rec).getparent()
            if model is None:
                raise GzInertiaError(f"{where}: no model element to add its plugin to")
            lines = edits.hydro.new_plugin_lines(editor, rec, water_density, text,
                                     ascii_comment(GIVEN_TERMS_COMMENT))
            editor.append_child_lines(model, lines)
        self._terms[rec.name] = values
        self._outcomes[rec.name] = PluginTermsSet(rec, values)
        return self._result()

    def new_bytes(self) -> bytes:
        """The bytes with every change so far."""
        return self._session.editor.result()

    def verify(self, new: bytes) -> SdfDocument:
        """Reads ``new`` back: added mass as set, inertia as set, every other link as before."""
        plans = self._plans

        def rigid(old: LinkRecord, now: LinkRecord) -> bool:
            return plan_reads_back(plans[old.name], old, now)

        checks = {name: rigid for name in plans}
        after = verify_edit(self.path, self.doc, new, self._session.model_paths, self._added,
                            rigid=checks)
        for name, terms in self._terms.items():
            plugins = after.link(name).hydrodynamics
            read = plugins[0].written_terms if plugins else {}
            scale = max(max(abs(v) for v in terms.values()), 1e-300)
            if any(abs(read.get(n, 0.0) - v) > WRITE_RTOL * scale for n, v in terms.items()):
                raise GzInertiaError(f"{self.path}: internal error: the plugin terms of {name!r} "
                                     "do not read back as set; nothing written")
        return after

    def _made(self, check: bool) -> Edit[SetOutcome]:
        """The edit so far; ``check``: read back (:meth:`verify`) and audited."""
        new = self.new_bytes()
        return self._edit(new, self.verify(new) if check and new != self.old else None, self.doc)
