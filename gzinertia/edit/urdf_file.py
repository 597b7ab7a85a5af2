"""A URDF or xacro file open for editing (:class:`UrdfModelFile`, a
:class:`~gzinertia.edit.model_file.ModelFile`). Added mass goes where ``gzinertia addmass``
writes it in URDF, which has no ``<fluid_added_mass>`` (sdformat#1467): a ``<gazebo>`` block with
gz-sim's Hydrodynamics plugin holding ``D = -A`` as ``<iDotJ>`` terms, about the link origin in
link axes, before ``</robot>`` (:func:`gzinertia.edit.urdf_addmass.add_given_urdf`). Rigid inertia
goes where ``gzinertia fix`` writes it: the attributes of the URDF link's own ``<inertial>``
(:mod:`gzinertia.edit.urdf_fix`). A xacro is edited only where the values are literal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import gzinertia.edit as edits
import gzinertia.urdf
from gzinertia.edit import model_file as backend
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.fix_plan import RepairPlan
from gzinertia.edit.links import ascii_comment
from gzinertia.edit.model_file import GIVEN_COMMENT, EditedFile, SetOutcome
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.io.safe_write import temporary_copy
from gzinertia.model_reader import read_model_file
from gzinertia.records import SdfDocument
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Mat3, Vec3
from gzinertia.vocabulary.model_suffixes import XACRO_SUFFIX, is_xacro_path

if TYPE_CHECKING:
    import gzinertia.urdf.fragments
    from gzinertia.edit.added_mass_request import AddedMassRequest
    from gzinertia.edit.addmass import FitChooser, LinkAddedMass
    from gzinertia.edit.addmass_bem import BemRunProgress, BemSettings, LinkBem
    from gzinertia.edit.bem_import import ImportedLink
    from gzinertia.edit.fix import FixResult
    from gzinertia.edit.fix_options import FixOptions, FixTarget
    from gzinertia.edit.migrate_request import MigrateRequest, MigrateResult
    from gzinertia.edit.urdf_fix import UrdfInertials
    from gzinertia.io.result_files import ResultFile

__all__ = ["UrdfModelFile"]


def _refuse_replacing_plugin(request: AddedMassRequest) -> None:
    """``replace_plugin_added_mass`` refused: on URDF the matrix goes into the Hydrodynamics
    plugin, not beside it."""
    if request.replace_plugin_added_mass:
        raise SettingError(
            "replace_plugin_added_mass",
            "{path}: {replace_plugin_added_mass} is for SDF (<fluid_added_mass> beside the "
            "plugin); on URDF/xacro remove the link's <gazebo> Hydrodynamics block and run "
            "addmass again", path=request.path,
        )


class UrdfModelFile(EditedFile):
    """A URDF/xacro file open for editing; every ``set_*`` returns the edit of all so far
    (added mass or inertia: one kind per edit)."""

    format = "urdf"

    def __init__(self, path: Path, package_paths: Sequence[str | Path]) -> None:

        gzinertia.urdf.fragments.refuse_fragment(path)
        super().__init__(path, read_model_file(path, package_paths), read_file_bytes(path))
        self._package_paths = tuple(package_paths)
        self._matrices: dict[str, tuple[AddedMass, str]] = {}
        self._blocks_due = False  # added mass set in a batch, its blocks not yet written
        self._plans: dict[str, RepairPlan] = {}
        self._written: dict[str, RepairPlan] = {}
        self._pending: tuple[str, ...] = ()
        self._inertials: UrdfInertials | None = None
        self._new = self._old

    @classmethod
    def open(
        cls, path: Path, package_paths: Sequence[str | Path] = (), data: bytes | None = None
    ) -> UrdfModelFile:
        """Reads ``path`` (URDF, or xacro expanded without Python) for editing;
        ``package_paths`` resolve ``package://`` and ``$(find)``; ``data`` is refused (a URDF
        or xacro file is edited from the file itself)."""
        if data is not None:
            raise GzInertiaError(f"{path}: a URDF or xacro file is edited from the file itself")
        return cls(path, package_paths)

    @classmethod
    def ellipsoid_edit(
        cls, request: AddedMassRequest, fit_for: FitChooser, density: float
    ) -> Edit[LinkAddedMass]:
        """:func:`gzinertia.edit.urdf_addmass.add_mass_urdf` of ``request``: a Hydrodynamics
        block per link."""
        _refuse_replacing_plugin(request)
        return edits.urdf_addmass.add_mass_urdf(request, fit_for, density)

    @classmethod
    def bem_edit(
        cls, request: AddedMassRequest, settings: BemSettings,
        progress: BemRunProgress | None = None,
    ) -> Edit[LinkBem]:
        """:func:`gzinertia.edit.urdf_addmass.add_mass_bem_urdf` of ``request``."""
        _refuse_replacing_plugin(request)
        return edits.urdf_addmass.add_mass_bem_urdf(request, settings, progress)

    @classmethod
    def import_edit(cls, request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
        """:func:`gzinertia.edit.urdf_addmass.add_mass_from_urdf` of ``request``."""
        _refuse_replacing_plugin(request)
        return edits.urdf_addmass.add_mass_from_urdf(request, result)

    @classmethod
    def fix_edit(cls, target: FixTarget, options: FixOptions) -> FixResult:
        """:func:`gzinertia.edit.urdf_fix.fix_urdf` of ``target``: its own values, packages
        searched in the package paths then the model paths."""
        return edits.urdf_fix.fix_urdf(
            target.path, options, [*target.package_paths, *target.model_paths],
            target.xacro_args, tree=target.tree, xacro_policy=target.xacro_policy)

    @classmethod
    def migrate_edit(cls, request: MigrateRequest) -> MigrateResult:
        """:func:`gzinertia.edit.migrate_urdf.migrate_urdf` of ``request`` through this
        backend (a xacro file: :func:`gzinertia.edit.migrate_xacro.migrate_xacro`, in its
        source); URDF bytes from standard input refused
        (:func:`~gzinertia.edit.migrate_urdf.refuse_unmigratable`)."""
        edits.migrate_urdf.refuse_unmigratable(request.path, request.data)
        if is_xacro_path(request.path):
            return edits.migrate_xacro.migrate_xacro(request)
        return edits.migrate_urdf.migrate_urdf(cls, request)

    def _one_kind(self, other: Mapping[str, object], name: str) -> None:
        if other:
            raise GzInertiaError(f"{self._path}: a URDF edit sets added mass or inertia, not "
                                 f"both: write this edit, then open the file again to set {name}")

    def set_added_mass(
        self, link: str, A_BBo_B: AddedMass, *, force: bool = False,
        replace_plugin_added_mass: bool = False, upgrade_version: bool = True,
        comment: str = GIVEN_COMMENT, allow_overlap: bool = False,
    ) -> Edit[SetOutcome]:
        """Writes ``A_BBo_B`` (about Bo in link axes) for ``link`` (a link Gazebo builds) as
        a Hydrodynamics ``<gazebo>`` block. Refused: a link whose Hydrodynamics plugin applies
        added mass already (a second block would count it twice; ``force`` and
        ``replace_plugin_added_mass`` cannot remove a block: remove it by hand); a link set
        already in this edit. ``upgrade_version`` has no meaning for URDF; nor has
        ``allow_overlap`` (``addmass`` on URDF has no overlap guard either)."""
        self._one_kind(self._plans, "added mass")
        rec = backend.chosen_link(self._doc, link, self._path)
        if rec.name in self._matrices:
            raise GzInertiaError(f"{self._path}: link {rec.name!r} was set already in this edit")
        A, warnings = backend.given_added_mass(A_BBo_B, rec)
        matrices = {**self._matrices, rec.name: (A, ascii_comment(comment))}
        if self._batch is not None:  # the blocks are written once, as the batch closes
            self._matrices, self._blocks_due = matrices, True
            self._warnings += warnings
            return self._result()
        self._write_blocks(matrices, warnings)
        return self._result()

    def _write_blocks(self, matrices: dict[str, tuple[AddedMass, str]],
                      warnings: Sequence[str] = ()) -> None:
        """The Hydrodynamics block of every link of ``matrices`` written (one pass over the
        file), read back."""
        result, written = edits.urdf_addmass.add_given_urdf(
            self._path, self._package_paths, matrices)
        self._matrices, self._blocks_due = matrices, False
        self._warnings += [*warnings, *result.warnings]
        self._notes = list(result.notes)
        self._outcomes = {lk.name: backend.AddedMassSet(lk, A) for lk, A in written}
        self._new = result.new

    def set_inertia(
        self, link: str, *, mass: float | None = None, I_BBcm_I: Mat3 | None = None,
        p_BoBcm_B: Vec3 | None = None,
    ) -> Edit[SetOutcome]:
        """Writes the mass, ``I_BBcm_I`` (about the centre of mass in the axes of
        ``<inertial><origin rpy>``) and ``p_BoBcm_B`` (``<origin xyz>``) of the URDF link
        ``link`` as written (its own ``<inertial>``, not the body libsdformat lumps it into).
        Values a xacro makes by an expression are not written: the edit's ``pending`` says
        where to write which value."""
        self._one_kind(self._matrices, "inertia")
        state = self._own_inertials()
        rec = backend.chosen_link(state.own, link, self._path)
        if rec.inertial.defaulted or rec.name in state.dropped:
            raise GzInertiaError(f"{rec.source}: link {rec.name!r} has no <inertial> or no mass: "
                                 "libsdformat does not model it; write its <inertial> by hand")
        m, I, p = backend.given_inertia(rec, mass, I_BBcm_I, p_BoBcm_B)
        self._plans[rec.name] = backend.given_plan(rec, m, I, p, p_BoBcm_B is not None)
        writer = edits.urdf_fix.InertialWriter(self._path, self._old,
                                                        is_xacro_path(self._path))
        self._written = {n: plan for n, plan in self._plans.items() if writer.write(plan)}
        self._new = writer.editor.result()
        self._pending = tuple(writer.pending)
        self._outcomes = {n: plan.fix for n, plan in self._written.items()}
        return self._result()

    def _own_inertials(self) -> UrdfInertials:
        """The URDF links' own inertials as read (read once)."""
        if self._inertials is None:
            self._inertials = edits.urdf_fix.read_inertials(
                self._path, self._old, self._package_paths, None)
        return self._inertials

    def _made(self, check: bool) -> Edit[SetOutcome]:
        """The edit so far; ``check``: read back and audited (added mass: as Gazebo builds the
        file; inertia: each URDF link's own inertial as set, the audit skipped while a value is
        pending)."""
        if check and self._blocks_due:
            self._write_blocks(self._matrices)
        changed = check and self._new != self._old
        if not self._plans:
            return self._edit(self._new, self.verify(self._new) if changed else None, self._doc)
        state = self._own_inertials()
        after = None
        if changed:
            after = edits.urdf_fix.read_inertials(
                self._path, self._new, self._package_paths, None).own
            edits.urdf_fix.verify_inertials(self._path, state.own, after, self._written)
        return self._edit(self._new, None if self._pending else after, state.own,
                          self._pending)

    def new_bytes(self) -> bytes:
        """The bytes with every change so far."""
        return self._new

    def verify(self, new: bytes) -> SdfDocument:
        """Reads ``new`` back as Gazebo builds it (each ``set_*`` has checked its own values
        already); a :class:`~gzinertia.errors.GzInertiaError` when it cannot be read."""
        if not is_xacro_path(self._path):
            return gzinertia.urdf.read_urdf_bytes(new, str(self._path), self._package_paths)

        with temporary_copy(self._path, new, suffix=XACRO_SUFFIX,
                            why="reading the edited xacro back needs one") as tmp:
            return read_model_file(tmp, self._package_paths)
