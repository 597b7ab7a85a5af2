"""The link loop every added-mass edit shares, whatever the format: which links an edit may
write (:func:`editable_links`, each skip with its reason), who is admitted (the GZI210 overlap
guard, a Hydrodynamics plugin applying added mass: :meth:`AddedMassRun.admit`), and the write of
each matrix with what it calls for (:meth:`AddedMassRun.write`); the mode drivers
(:mod:`gzinertia.edit.addmass` for the ellipsoid fit, :mod:`gzinertia.edit.addmass_bem` for the
boundary-element solve, :mod:`gzinertia.edit.bem_import` for a matrix computed elsewhere) run it.

Where the matrix goes is the format's: an :class:`AddedMassWriter` (SDFormat's
``<fluid_added_mass>``: :class:`gzinertia.edit.sdf_added_mass.SdfAddedMassWriter`; URDF's
Hydrodynamics ``<gazebo>`` block: :class:`gzinertia.edit.urdf_addmass.UrdfAddedMassWriter`),
given by the file's backend (:func:`gzinertia.edit.backends.model_format`). Every matrix is
``A_BBo_B``: about the link origin Bo in link axes B, linear-first ``[x y z p q r]``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.overlap_guard import OverlapGuard
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.options import option
from gzinertia.physics.placeholder import placeholder_note
from gzinertia.record_base import Record, ValueRecord
from gzinertia.records import HydroPlugin, LinkRecord, SdfDocument
from gzinertia.selection import select_links
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = [
    "AddedMassRun",
    "AddedMassWriter",
    "Admitted",
    "RunOutput",
    "WritePolicy",
    "WrittenFile",
    "editable_links",
    "negligible_geometry",
    "overlap_reason",
    "plugins_applying_added_mass",
]

#: A link admitted: the overlap it is written with (``(other link, shrink)``, ``None``: none)
#: and the Hydrodynamics plugins whose own added mass it replaces.
Admitted = tuple["tuple[str, float] | None", list[HydroPlugin]]


@dataclass(frozen=True, repr=False, eq=False)
class WritePolicy(ValueRecord):
    """What an added-mass run lets through: the selection pattern (``None``: all links),
    whether overlapping fluid ellipsoids (GZI210) and plugins applying added mass are
    allowed."""

    path: Path
    pattern: str | None
    allow_overlap: bool
    replace_plugin_added_mass: bool


@dataclass(repr=False, eq=False)
class RunOutput(Record):
    """What a run says as it goes: links skipped (``"name: why"``), warnings and notes."""

    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, repr=False, eq=False)
class WrittenFile(ValueRecord):
    """A writer's file after the run: its new bytes (read back), the sentence about its
    version (SDFormat raised to 1.10, or kept: ``None`` when nothing to say) and the notes the
    format adds when something was written."""

    new: bytes
    version: str | None = None
    notes: tuple[str, ...] = ()


class AddedMassWriter(Protocol):
    """Where one format writes a link's added mass in an added-mass edit."""

    @property
    def doc(self) -> SdfDocument:
        """The document as read (the links as Gazebo builds them)."""

    @property
    def old(self) -> bytes:
        """The file's bytes as read."""

    def in_file(self, file: str | Path) -> bool:
        """Whether what ``file`` defines (a link, a plugin) is edited in this file."""

    def plugin_conflict(self, link: LinkRecord, plugin: HydroPlugin) -> str:
        """Why ``link`` gets no added mass while ``plugin`` applies added mass."""

    def write(self, link: LinkRecord, plugins: Sequence[HydroPlugin],
              written: tuple[AddedMass, str], replaces: str, policy: WritePolicy,
              out: RunOutput) -> bool:
        """Writes ``written`` (``A_BBo_B`` and its provenance comment) for ``link``, turning
        off the added mass of ``plugins`` (a note ending with ``replaces``); ``False`` when it
        was not written, what was said about it in ``out``."""

    def finish(self, written: Mapping[str, AddedMass], upgrade_version: bool) -> WrittenFile:
        """The file with every matrix ``written`` (scoped name → ``A_BBo_B``), read back."""


def plugins_applying_added_mass(link: LinkRecord) -> list[HydroPlugin]:
    """The link's Hydrodynamics plugins whose ``<iDotJ>`` added mass is on."""
    return [p for p in link.hydrodynamics if added_mass_active(p)]


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


def negligible_geometry(link: LinkRecord, pattern: str | None, element: str = "collision"
                        ) -> str | None:
    """Why ``addmass`` skips ``link``: its collisions are a placeholder (a 1e-6 m cylinder
    that keeps the link in Gazebo classic: :func:`gzinertia.physics.placeholder.
    placeholder_note`, the audit's definition), unless ``pattern`` names links or the solve
    meshes the visuals (``element``); ``None`` otherwise."""
    if pattern is not None or element != "collision":
        return None
    note = placeholder_note(link)
    return None if note is None else f"{note}; {option('link')} computes it anyway"


def editable_links(
    doc: SdfDocument, path: Path, pattern: str | None, explicit: bool,
    element: GeometryElement = "collision",
    in_file: Callable[[str | Path], bool] = lambda file: True,
) -> tuple[list[LinkRecord], list[str]]:
    """The links of ``path`` that ``pattern`` selects and an added-mass edit may write, and
    the others as ``"name: why"`` (defined in a file ``in_file`` says is not edited here;
    static; no collision to fit or only a placeholder's when nothing was asked of them:
    :func:`negligible_geometry`, for the geometry ``element`` solved). ``explicit``: one
    matrix for the links selected (an explicit ellipsoid, an imported result): no geometry is
    asked of them."""
    chosen = select_links(doc.links, pattern, str(path))
    links, skipped = [], []
    for link in chosen:
        if not in_file(link.source.file):
            skipped.append(f"{link.name}: defined in {link.source.file} (edit that file)")
        elif link.static:
            skipped.append(f"{link.name}: static (does not move through the fluid)")
        elif not explicit and not link.collisions and pattern is None:
            skipped.append(f"{link.name}: no collision geometry to fit")
        elif not explicit and (negligible := negligible_geometry(link, pattern, element)):
            skipped.append(f"{link.name}: {negligible}")
        else:
            links.append(link)
    return links, skipped


class AddedMassRun:
    """One added-mass edit of one file in progress, through its format's ``writer``: the
    overlap guard, the matrices written so far (scoped name → ``A_BBo_B``) and what was said.
    Links are visited largest fluid ellipsoid first (:meth:`ordered`), so that a link inside
    the hull's ellipsoid is the one skipped (GZI210)."""

    def __init__(self, writer: AddedMassWriter, request: AddedMassRequest,
                 links: Sequence[LinkRecord], skipped: list[str]) -> None:
        self.writer, self.request = writer, request
        self.policy = WritePolicy(request.path, request.pattern, request.allow_overlap,
                                  request.replace_plugin_added_mass)
        self.guard = OverlapGuard(writer.doc, links)
        self.out = RunOutput(skipped)
        self.written: dict[str, AddedMass] = {}
        self.order = {link.name: i for i, link in enumerate(links)}

    def ordered(self, links: Sequence[LinkRecord]) -> list[LinkRecord]:
        """``links``, largest fluid ellipsoid first."""
        return sorted(links, key=lambda lk: -self.guard.volume(lk))

    def admit(self, link: LinkRecord) -> Admitted | None:
        """``(overlap clash, plugins applying added mass)`` if ``link`` may get added mass;
        ``None`` after saying in the skipped links why not (the overlap guard, a Hydrodynamics
        plugin that applies added mass, one in another file). A plugin conflict on links the
        user selected raises :class:`~gzinertia.errors.GzInertiaError` instead."""
        policy, skipped = self.policy, self.out.skipped
        clash = self.guard.clash(link)
        if clash is not None and not policy.allow_overlap:
            skipped.append(overlap_reason(link, *clash))
            return None
        plugins = plugins_applying_added_mass(link)
        if plugins and not policy.replace_plugin_added_mass:
            reason = self.writer.plugin_conflict(link, plugins[0])
            if policy.pattern is not None:
                raise GzInertiaError(f"{plugins[0].source}: {reason}")
            skipped.append(f"{link.name}: {reason}")
            return None
        if any(not self.writer.in_file(p.source.file) for p in plugins):
            skipped.append(f"{link.name}: its Hydrodynamics plugin is in another file")
            return None
        return clash, plugins

    def admit_strictly(self, link: LinkRecord) -> Admitted:
        """:meth:`admit` of the one link a matrix belongs to: a refusal is an error naming
        the link's file and line, not a skip."""
        admitted = self.admit(link)
        if admitted is None:
            raise GzInertiaError(f"{link.source}: {self.out.skipped.pop()}")
        return admitted

    def write(self, link: LinkRecord, admitted: Admitted, written: tuple[AddedMass, str],
              replaces: str) -> bool:
        """Writes ``written`` (``A_BBo_B`` and its comment) for the admitted ``link``; ``True``
        when written (the link then carries added mass for the overlap guard, and an overlap
        allowed is said), ``False`` when the writer could not (said by it)."""
        clash, plugins = admitted
        if not self.writer.write(link, plugins, written, replaces, self.policy, self.out):
            return False
        self.written[link.name] = written[0]
        self.guard.accept(link)
        if clash is not None:
            self.out.warnings.append(overlap_reason(link, *clash, written=True))
        return True

    def finish(self, version_in_notes: bool) -> bytes:
        """The file with every matrix written, read back; the sentence about its version
        among the notes when ``version_in_notes`` (else a warning: the version was kept)."""
        done = self.writer.finish(self.written, self.request.upgrade_version)
        if done.version:
            (self.out.notes if version_in_notes else self.out.warnings).append(done.version)
        self.out.notes.extend(done.notes)
        return done.new
