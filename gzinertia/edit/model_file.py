"""One format backend for edits: a :class:`ModelFile` is a model file open for editing (its
document as read, its bytes, a minimal-diff writer) that writes matrices the way its format
carries them, and what both formats share; a :class:`ModelFormat` is a backend's class-level
entry points, the edits of a whole file (the added-mass edits, the repair). The registry that
gives the right one by suffix is :func:`gzinertia.edit.backends.model_format`
(:func:`~gzinertia.edit.backends.open_model_file` opens a file with it).

* SDFormat (:class:`gzinertia.edit.sdf_file.SdfModelFile`): ``<fluid_added_mass>`` in the link's
  ``<inertial>`` (the version raised to 1.10 when the file's meaning allows), ``<mass>``,
  ``<inertia>`` and the inertial pose's position.
* URDF and xacro (:class:`gzinertia.edit.urdf_file.UrdfModelFile`): URDF has no
  ``<fluid_added_mass>`` (sdformat#1467), so added mass goes into a ``<gazebo>`` block with
  gz-sim's Hydrodynamics plugin holding it as ``<iDotJ>`` terms; inertia into the link's own
  ``<inertial>`` attributes.

Every ``set_*`` adds to the same edit and returns the :class:`~gzinertia.edit.edit_result.Edit`
of all of them so far, read back (:meth:`ModelFile.verify`) and audited before it is returned;
nothing is written until :meth:`Edit.write <gzinertia.edit.edit_result.Edit.write>`. Many links
in one edit: :meth:`ModelFile.batch` reads back and audits once, at its end, so that the time
grows with the number of links, not with its square.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Union

import numpy as np

from gzinertia.edit.edit_result import Edit
from gzinertia.edit.fix_options import FixOptions, LinkFix
from gzinertia.edit.fix_plan import RepairPlan, fix_findings
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import SIGNED_QUADRATIC_TERM, TERM
from gzinertia.numbers import MAX_MAGNITUDE
from gzinertia.physics.gz_math_inertia import gz_is_valid
from gzinertia.physics.inertia_repair import geometry_inertia_change
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Mat3, Vec3
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import bounded

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from gzinertia.edit.added_mass_request import AddedMassRequest
    from gzinertia.edit.addmass import FitChooser, LinkAddedMass
    from gzinertia.edit.addmass_bem import BemRunProgress, BemSettings, LinkBem
    from gzinertia.edit.bem_import import ImportedLink
    from gzinertia.edit.edit_result import Edit
    from gzinertia.edit.fix import FixResult
    from gzinertia.edit.fix_options import FixOptions, FixTarget, LinkFix
    from gzinertia.edit.fix_plan import RepairPlan
    from gzinertia.edit.migrate_request import MigrateRequest, MigrateResult
    from gzinertia.io.result_files import ResultFile

__all__ = [
    "GIVEN_COMMENT",
    "GIVEN_TERMS_COMMENT",
    "AddedMassSet",
    "EditBatch",
    "EditedFile",
    "ModelFile",
    "ModelFormat",
    "PluginTermsSet",
    "SetOutcome",
    "chosen_link",
    "given_added_mass",
    "given_inertia",
    "given_plan",
    "given_terms",
    "new_audit_codes",
    "new_codes",
]

#: The provenance comment written with a matrix the caller computed (read back by nobody: the
#: audit judges it as any hand-written matrix, and ``shift`` knows it is about the origin).
GIVEN_COMMENT = "gzinertia: A_BBo_B given to set_added_mass; about the link origin in link axes"


@dataclass(frozen=True, repr=False, eq=False)
class AddedMassSet(ValueRecord):
    """One link's added mass as written: ``A_BBo_B`` about the link origin Bo in link axes B
    (linear-first ``[x y z p q r]``), its symmetric part."""

    link: LinkRecord
    A_BBo_B: AddedMass


@dataclass(frozen=True, repr=False, eq=False)
class PluginTermsSet(ValueRecord):
    """One link's Hydrodynamics plugin terms as set (``xDotU``, ``xU``, ``xUabsU``...: the
    plugin's own names, signs and units; link frame, about the link origin)."""

    link: LinkRecord
    terms: Mapping[str, float]


#: What a ``set_*`` reports per link: the added mass written, the plugin terms set, or the
#: inertia change (:class:`~gzinertia.edit.fix_options.LinkFix`, method ``"given"``).
SetOutcome = Union[AddedMassSet, PluginTermsSet, "LinkFix"]

#: The comment before a Hydrodynamics plugin ``set_plugin_terms`` adds.
GIVEN_TERMS_COMMENT = "gzinertia: Hydrodynamics terms given to set_plugin_terms"


class ModelFile(Protocol):
    """A model file open for editing, in one format."""

    @property
    def path(self) -> Path:
        """The file (``<stdin>`` for standard input)."""

    @property
    def doc(self) -> SdfDocument:
        """The document as read (the links as Gazebo builds them)."""

    @property
    def old(self) -> bytes:
        """The file's bytes as read."""

    def set_added_mass(
        self, link: str, A_BBo_B: AddedMass, *, force: bool = False,
        replace_plugin_added_mass: bool = False, upgrade_version: bool = True,
        comment: str = GIVEN_COMMENT, allow_overlap: bool = False,
    ) -> Edit[SetOutcome]:
        """Writes ``A_BBo_B`` (about the link origin Bo, in link axes B) as ``link``'s added
        mass; an existing one is replaced only with ``force``; a Hydrodynamics plugin that
        applies added mass is turned off only with ``replace_plugin_added_mass``; a fluid
        ellipsoid overlapping one of a link with added mass (GZI210) only with
        ``allow_overlap``."""

    def set_inertia(
        self, link: str, *, mass: float | None = None, I_BBcm_I: Mat3 | None = None,
        p_BoBcm_B: Vec3 | None = None,
    ) -> Edit[SetOutcome]:
        """Writes ``link``'s mass, rotational inertia about its centre of mass in the inertial
        frame's axes I, and the centre of mass from the link origin in link axes (the inertial
        frame's orientation kept); what is ``None`` stays as it is."""

    def set_plugin_terms(
        self, link: str, terms: Mapping[str, float], *, force: bool = False,
        water_density: float | None = None,
    ) -> Edit[SetOutcome]:
        """Sets named terms (``xDotU``, ``xU``, ``xUabsU``...: the plugin's names, signs and
        units) of ``link``'s Hydrodynamics plugin; values it has already are replaced only
        with ``force``; a link without a plugin gets one (``water_density`` kg/m³ then
        required)."""

    def verify(self, new: bytes) -> SdfDocument:
        """Reads ``new`` back and checks every link reads as meant (a
        :class:`~gzinertia.errors.GzInertiaError` otherwise); the document read."""

    def new_bytes(self) -> bytes:
        """The file's bytes with every change so far."""

    def batch(self) -> AbstractContextManager[EditBatch]:
        """A context in which ``set_*`` calls are neither read back nor audited one by one:
        the :class:`EditBatch`'s :attr:`~EditBatch.edit`, made when it closes, is the edit of
        every change so far, read back and audited once (as the last ``set_*`` outside a batch
        would return it)."""


class EditBatch:
    """The changes made inside :meth:`ModelFile.batch`: its :attr:`edit` once the batch has
    closed without an error."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._edit: Edit[SetOutcome] | None = None

    @property
    def edit(self) -> Edit[SetOutcome]:
        """The edit of every change so far, read back and audited when the batch closed."""
        if self._edit is None:
            raise GzInertiaError(f"{self._path}: no edit: the batch has not closed, or a change "
                                 "in it failed")
        return self._edit


class ModelFormat(Protocol):
    """A format's edits of a whole file, the backend's class-level entry points (the backend
    class itself: :func:`gzinertia.edit.backends.model_format` gives it by suffix). Every
    matrix is ``A_BBo_B``: about the link origin Bo in link axes B, linear-first."""

    def open(self, path: Path, model_paths: Sequence[str | Path] = (),
             data: bytes | None = None) -> ModelFile:
        """``path`` (or ``data``, standard input's bytes, named ``path``) open for editing."""

    def ellipsoid_edit(
        self, request: AddedMassRequest, fit_for: FitChooser, density: float
    ) -> Edit[LinkAddedMass]:
        """The selected links' Tuckerman added mass of the ellipsoids ``fit_for`` fits, in a
        fluid of ``density`` kg/m³, written as the format carries added mass."""

    def bem_edit(
        self, request: AddedMassRequest, settings: BemSettings,
        progress: BemRunProgress | None = None,
    ) -> Edit[LinkBem]:
        """The selected links' added mass from a boundary-element solve with ``settings``."""

    def import_edit(self, request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
        """The one selected link given the matrix of ``result``, moved to Bo in link axes."""

    def fix_edit(self, target: FixTarget, options: FixOptions) -> FixResult:
        """The inertia repair of ``target``'s selected links as ``options`` say."""

    def migrate_edit(self, request: MigrateRequest) -> MigrateResult:
        """The classic marine plugin blocks of ``request``'s file as their gz-sim equivalent
        (:mod:`gzinertia.edit.migrate`), written as the format carries added mass and
        Hydrodynamics terms; a file the format cannot migrate is refused in one line."""


def chosen_link(doc: SdfDocument, name: str, path: Path) -> LinkRecord:
    """The one link named ``name``: its scoped name (``boat::hull``), or, unscoped, the last
    part of exactly one link's name (``hull``). No glob: a name is a name."""
    exact = [lk for lk in doc.links if lk.name == name]
    if not exact and "::" not in name:
        exact = [lk for lk in doc.links if leaf_name(lk.name) == name]
    if len(exact) == 1:
        return exact[0]
    known = bounded(lk.name for lk in (exact or doc.links)) or "none"
    what = "several links are named" if exact else "no link is named"
    raise GzInertiaError(f"{path}: {what} {name!r} (links: {known}); give its scoped name")


def given_added_mass(A_BBo_B: AddedMass, link: LinkRecord) -> tuple[AddedMass, list[str]]:
    """The symmetric part of ``A_BBo_B`` to write and the warnings it calls for. Refuses (one
    line naming the link) a matrix not about the link origin in link axes (``point="Bo"``,
    ``axes="B"``: move it first with ``.shift`` and ``.reexpressed``), or with a non-finite
    entry."""
    if not isinstance(A_BBo_B, AddedMass):
        raise GzInertiaError(
            f"{link.source}: link {link.name!r}: give the added mass as gzinertia.AddedMass("
            "matrix, ordering=..., point='Bo', axes='B'), not a bare array: its ordering and "
            "point must be said"
        )
    if (A_BBo_B.point, A_BBo_B.axes) != ("Bo", "B"):
        raise GzInertiaError(
            f"{link.source}: link {link.name!r}: the added mass is about {A_BBo_B.point} in "
            f"{A_BBo_B.axes} axes; <fluid_added_mass> is about the link origin in link axes: "
            "move it with .shift(p, 'Bo') and .reexpressed('B', R) first"
        )
    A = A_BBo_B.linear_first()
    if not np.all(np.isfinite(A)):
        raise GzInertiaError(f"{link.source}: link {link.name!r}: the added mass has a "
                             "non-finite entry; nothing written")
    warnings = []
    scale = float(np.max(np.abs(A)))
    if A_BBo_B.asymmetry > 1e-12 * scale:
        warnings.append(
            f"{link.name}: the added mass given is not symmetric (max |A - A^T| = "
            f"{A_BBo_B.asymmetry:.3g}, {A_BBo_B.asymmetry / scale:.3g} of its largest entry): "
            "its symmetric part was written"
        )
    return A_BBo_B.symmetric(), warnings


def given_inertia(
    link: LinkRecord, mass: float | None, I_BBcm_I: Mat3 | None, p_BoBcm_B: Vec3 | None
) -> tuple[float, Mat3, Vec3]:
    """``(mass, I_BBcm_I, p_BoBcm_B)`` to write: the given values, the link's own for those not
    given. Refuses what libsdformat would not accept as an inertial (a mass not positive and
    finite, a non-symmetric or invalid inertia: gz-math's check), one line naming the link."""
    inertial = link.inertial
    m = float(inertial.mass if mass is None else mass)
    I = np.asarray(inertial.I_BBcm_I if I_BBcm_I is None else I_BBcm_I, dtype=float)
    p = np.asarray(inertial.p_BoBcm_B if p_BoBcm_B is None else p_BoBcm_B, dtype=float)
    where = f"{link.source}: link {link.name!r}"
    if not (np.isfinite(m) and m > 0.0):
        raise GzInertiaError(f"{where}: the mass must be a positive number of kg, not {m!r}")
    if I.shape != (3, 3) or p.shape != (3,):
        raise GzInertiaError(f"{where}: I_BBcm_I is a 3x3 matrix and p_BoBcm_B 3 numbers")
    if not (np.all(np.isfinite(I)) and np.all(np.isfinite(p))):
        raise GzInertiaError(f"{where}: the inertia or centre of mass has a non-finite entry")
    if not np.array_equal(I, I.T):
        raise GzInertiaError(f"{where}: I_BBcm_I is not symmetric; nothing written")
    if not gz_is_valid(m, I):
        raise GzInertiaError(
            f"{where}: the inertia given is not valid (libsdformat's check: positive "
            "semi-definite, principal moments meeting the triangle inequality); nothing written"
        )
    return m, I, p


def given_plan(link: LinkRecord, mass: float, I_BBcm_I: Mat3, p_BoBcm_B: Vec3,
               moves: bool) -> RepairPlan:
    """The inertia given for ``link`` (:func:`given_inertia`) as the plan ``gzinertia fix``'s
    writers write (method ``"given"``, no audit code): a whole ``<inertial>`` for a link without
    one, the ``<inertia>`` element rewritten when it has no children, the pose's position only
    when ``moves``."""
    inertial = link.inertial
    before = np.asarray(inertial.p_BoBcm_B, dtype=float)
    repair = replace(geometry_inertia_change(inertial.I_BBcm_I, I_BBcm_I), method="given")
    fix = LinkFix(link.name, (), repair, inertial.mass, mass, before, p_BoBcm_B,
                  inserted=inertial.defaulted)
    return RepairPlan(link, fix, I_BBcm_I, moves, replace_inertia=inertial.inertia_defaulted)


def _outcome_name(outcome: SetOutcome) -> str:
    """The scoped name of the link a ``set_*`` outcome is about."""
    return outcome.link if isinstance(outcome.link, str) else outcome.link.name


def given_terms(link: LinkRecord, terms: Mapping[str, float]) -> dict[str, float]:
    """``terms`` checked: Hydrodynamics plugin names (:data:`gzinertia.hydrodynamics_terms.TERM`,
    or the signed quadratic ``<iJK>`` of :data:`~gzinertia.hydrodynamics_terms.
    SIGNED_QUADRATIC_TERM`, ``s_k·s_j`` since gazebosim/gz-sim#1784) and finite values the
    reader accepts; one line naming the link otherwise."""
    where = f"{link.source}: link {link.name!r}"
    unknown = [name for name in terms
               if not (TERM.match(name) or SIGNED_QUADRATIC_TERM.match(name))]
    if unknown or not terms:
        raise GzInertiaError(f"{where}: not Hydrodynamics plugin terms: {unknown or 'none'} "
                             "(xDotU for added mass, xU linear, xUabsU quadratic damping, xUV "
                             "signed quadratic)")
    values = {name: float(v) for name, v in terms.items()}
    if not all(abs(v) <= MAX_MAGNITUDE for v in values.values()):
        raise GzInertiaError(f"{where}: a plugin term is not a finite number; nothing written")
    return values


def new_audit_codes(
    before: SdfDocument, after: SdfDocument, names: Sequence[str]
) -> list[str]:
    """A warning per link of ``names`` whose audit (every rule, default settings) reports a code
    it did not report before: values the caller gave are written as given, and said."""
    return new_codes(audit_codes(before), audit_codes(after), names)


def audit_codes(doc: SdfDocument) -> dict[str, set[str]]:
    """The codes the audit (every rule, default settings) reports on each link of ``doc``."""
    return fix_findings(doc, FixOptions())


def new_codes(was: Mapping[str, set[str]], now: Mapping[str, set[str]],
              names: Sequence[str]) -> list[str]:
    """:func:`new_audit_codes` of the audits ``was`` and ``now`` (:func:`audit_codes`)."""
    out = []
    for name in names:
        added = sorted(now.get(name, set()) - was.get(name, set()))
        if added:
            out.append(f"{name}: the audit now reports {', '.join(added)} on it (the values "
                       "given are written as given)")
    return out


class EditedFile:
    """What both formats' :class:`ModelFile` hold: the file, its document and bytes as read, and
    the outcomes, warnings and notes of the changes so far; :meth:`_edit` makes their
    :class:`~gzinertia.edit.edit_result.Edit`. A format makes its edit in :meth:`_made`."""

    def __init__(self, path: Path, doc: SdfDocument, old: bytes) -> None:
        self._path, self._doc, self._old = path, doc, old
        self._outcomes: dict[str, SetOutcome] = {}
        self._warnings: list[str] = []
        self._notes: list[str] = []
        self._batch: EditBatch | None = None
        #: The audit of a document as read (it never changes), by the document's id.
        self._audited: dict[int, tuple[SdfDocument, dict[str, set[str]]]] = {}

    @contextmanager
    def batch(self) -> Iterator[EditBatch]:
        """A context in which ``set_*`` calls return the edit so far neither read back nor
        audited; when it closes without an error, the :class:`EditBatch`'s
        :attr:`~EditBatch.edit` is the edit of every change so far, read back and audited once
        (the same as the last ``set_*`` outside a batch returns). Batches do not nest."""
        if self._batch is not None:
            raise GzInertiaError(f"{self._path}: a batch is open already on this file")
        self._batch = batch = EditBatch(self._path)
        try:
            yield batch
        finally:
            self._batch = None
        batch._edit = self._made(check=True)

    def _made(self, check: bool) -> Edit[SetOutcome]:
        """The edit of every change so far; ``check``: read back and audited."""
        raise NotImplementedError

    def _result(self) -> Edit[SetOutcome]:
        """What a ``set_*`` returns: the edit so far, checked unless a batch is open."""
        return self._made(check=self._batch is None)

    @property
    def path(self) -> Path:
        """The file (``<stdin>`` for standard input)."""
        return self._path

    @property
    def doc(self) -> SdfDocument:
        """The document as read."""
        return self._doc

    @property
    def old(self) -> bytes:
        """The bytes as read."""
        return self._old

    def set_plugin_terms(
        self, link: str, terms: Mapping[str, float], *, force: bool = False,
        water_density: float | None = None,
    ) -> Edit[SetOutcome]:
        """Not offered by this format: a refusal naming what writes plugin terms there."""
        raise GzInertiaError(f"{self._path}: set_plugin_terms is not offered for this format: "
                             "use gzinertia.addmass or gzinertia.hydro")

    def _edit(
        self, new: bytes, read_back: SdfDocument | None, before: SdfDocument,
        pending: Sequence[str] = (),
    ) -> Edit[SetOutcome]:
        """The edit of every change so far: ``new`` bytes, ``read_back`` (``None``: not read
        back, nothing changed or something pending) compared with ``before`` by the audit."""
        warnings = list(self._warnings)
        if read_back is not None:
            if id(before) not in self._audited:
                self._audited[id(before)] = (before, audit_codes(before))
            was = self._audited[id(before)][1]
            warnings += new_codes(was, audit_codes(read_back), list(self._outcomes))
        order = {lk.name: i for i, lk in enumerate(before.links)}
        links = sorted(self._outcomes.values(), key=lambda o: order.get(_outcome_name(o), 0))
        return Edit(self._path, self._old, new, tuple(links), (), tuple(warnings),
                    tuple(self._notes), tuple(pending))
