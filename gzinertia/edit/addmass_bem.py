"""``gzinertia addmass --bem``: each selected link's added mass from a boundary-element solve of
its displacing geometry (:mod:`gzinertia.physics.bem`), about the link origin in link axes,
written where the file's format carries added mass, with everything the ellipsoid path
guarantees: the same link loop (:mod:`gzinertia.edit.added_mass_run`: selection and skips, the
overlap guard, GZI210, the Hydrodynamics-plugin handling), the same writer and read-back check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from gzinertia.edit.added_mass_run import AddedMassRun, AddedMassWriter, Admitted, editable_links
from gzinertia.edit.bem_shapes import shapes_of
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.floating_draft import FloatingDraft, floating_drafts
from gzinertia.edit.links import ascii_comment
from gzinertia.edit.sdf_added_mass import SdfAddedMassWriter
from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.bem import (
    WARN_ERROR,
    BemResult,
    Quality,
    bem_added_mass,
    bem_added_mass_together,
    check_domain,
    require_bem,
)
from gzinertia.physics.bem_provenance import format_provenance
from gzinertia.physics.free_surface import FreeSurface
from gzinertia.physics.surface_mesh import geometry_digest, mesh_notes
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, LinkRecord, SdfDocument
from gzinertia.sdf.xml import parse_xml_bytes
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    from gzinertia.edit.added_mass_request import AddedMassRequest



@dataclass(frozen=True, repr=False, eq=False)
class BemSettings(ValueRecord):
    """How the solve is set up: fluid density (kg/m³), panel size (m) or quality, which
    collisions (``None``: all of the link's), cache on or off."""

    density: float
    panel_size: float | None = None
    quality: Quality = "default"
    collisions: tuple[str, ...] | None = None
    use_cache: bool = True
    #: Free surface: height in the world frame (None: unbounded fluid; ``"auto"``: at each
    #: link's floating draft, :mod:`gzinertia.edit.floating_draft`), depth, frequency limit.
    waterline: float | Literal["auto"] | None = None
    depth: float = float("inf")
    frequency: Literal["zero", "infinite"] = "zero"
    #: Solve the selected links in one problem (in unbounded fluid or under the free surface).
    together: bool = False
    #: Mesh the link's collisions (default) or its visuals (``--geometry visual``: the
    #: collision is a buoyancy proxy); ``collisions`` then names visuals.
    element: GeometryElement = "collision"


class BemRunProgress(Protocol):
    """What ``add_mass_bem`` tells about a run: each link as it is reached (``index`` of
    ``total`` selected), then each solve and its radiation problems
    (:class:`gzinertia.physics.bem.SolveProgress`)."""

    def link(self, name: str, index: int, total: int) -> None:
        """Link ``name`` is reached, ``index`` (from 0) of ``total`` selected."""

    def solve(self, description: str, problems: int) -> None:
        """A solve starts: ``description`` says what; ``problems`` radiation problems follow."""

    def advance(self) -> None:
        """One radiation problem of the current solve is solved."""


@dataclass(frozen=True, repr=False, eq=False)
class LinkBem(ValueRecord):
    """One link's BEM result (:class:`gzinertia.physics.bem.BemResult`) and its geometry."""

    link: LinkRecord
    collisions: tuple[str, ...]
    digest: str
    result: object  # BemResult (typed loosely: physics.bem imports capytaine lazily)
    #: What the geometry pipeline did to the shapes' mesh files, ``"<shape>: <note>"``
    #: (:func:`gzinertia.physics.surface_mesh.mesh_notes`; empty when nothing).
    geometry_notes: tuple[str, ...] = ()
    #: Under ``--waterline auto``: the floating draft the link was solved at (its body's
    #: equilibrium: waterline, heel, trim, draft), else ``None``.
    floating: FloatingDraft | None = None


def displacing_shapes(link: LinkRecord, settings: BemSettings) -> list[Collision]:
    """What ``settings`` says to mesh for ``link`` (:func:`shapes_of`)."""
    return shapes_of(link, settings.collisions, settings.element)


def link_bem(
    link: LinkRecord, shapes: Sequence[Collision], result: object,
    floating: FloatingDraft | None = None,
) -> LinkBem:
    """The record of one link's solve on ``shapes``: their names, digest and geometry notes,
    and the floating draft it was solved at (``--waterline auto``)."""
    return LinkBem(link, tuple(c.name for c in shapes), geometry_digest(shapes), result,
                   tuple(mesh_notes(shapes)), floating)


def solve_outcome(
    link: LinkRecord, shapes: Sequence[Collision], result: BemResult, settings: BemSettings,
    draft: FloatingDraft | None = None,
) -> tuple[LinkBem, tuple[AddedMass, str]]:
    """One link's solve on ``shapes`` as both formats write it: its record (:func:`link_bem`)
    and ``(A_BBo_B, provenance comment)``, about the link origin Bo in link axes B."""
    item = link_bem(link, shapes, result, draft)
    return item, (result.A_BBo_B, provenance(result, item, settings.element))


def provenance(result: object, solved: LinkBem, element: GeometryElement = "collision") -> str:
    """The comment written before ``<fluid_added_mass>``
    (:func:`gzinertia.physics.bem_provenance.format_provenance`): the shapes meshed by name,
    their digest, and what the geometry pipeline did to their mesh files, in words."""
    assert isinstance(result, BemResult)
    return ascii_comment(
        format_provenance(
            capytaine_version=result.capytaine_version,
            method=result.method,
            panels=result.panels,
            frequency=result.frequency,
            fluid_domain=result.fluid_domain,
            relative_error=result.relative_error,
            collisions=solved.collisions,
            digest=solved.digest,
            density=result.density,
            element=element,
            closed_panels=result.closed_panels,
            geometry_notes=solved.geometry_notes,
            panel_size=result.panel_size,
        )
    )


def _free_surface(
    link: LinkRecord, settings: BemSettings, draft: FloatingDraft | None
) -> tuple[float, Pose, str] | None:
    """The link's free surface: ``(waterline z, link pose X_WB, origin in words)``: the
    settings' waterline at the file's pose, or under ``--waterline auto`` the link's floating
    draft (its body heeled and trimmed about G, :meth:`FloatingDraft.pose`); ``None`` for
    unbounded fluid."""
    if settings.waterline is None:
        return None
    if settings.waterline == "auto":
        if draft is None:
            raise GzInertiaError(f"{link.source}: link {link.name!r}: no floating draft found")
        return draft.waterline, draft.pose(link.X_WB), draft.words()
    return settings.waterline, link.X_WB, ""


def bem_drafts(
    doc: SdfDocument, links: Sequence[LinkRecord], settings: BemSettings, tree: object = None
) -> dict[str, FloatingDraft]:
    """Under ``--waterline auto``, each of ``links``' floating draft
    (:func:`gzinertia.edit.floating_draft.floating_drafts`, in water of the solve's
    density); otherwise none."""
    if settings.waterline != "auto":
        return {}

    return floating_drafts(doc, links, settings.density, tree)


def solve_link(
    link: LinkRecord,
    shapes: Sequence[Collision],
    settings: BemSettings,
    progress: BemRunProgress | None,
    draft: FloatingDraft | None = None,
) -> BemResult:
    """One link's BEM solve with ``settings`` (panels, quality, cache, fluid, element), its free
    surface, when there is one, at the link's pose ``X_WB`` (at its floating ``draft`` under
    ``--waterline auto``)."""
    surface = _free_surface(link, settings, draft)
    free_surface = (
        None
        if surface is None
        else FreeSurface(surface[0], surface[1], settings.frequency, settings.depth, surface[2])
    )
    return bem_added_mass(
        list(shapes),
        settings.density,
        panel_size=settings.panel_size,
        quality=settings.quality,
        use_cache=settings.use_cache,
        progress=progress,
        free_surface=free_surface,
        element=settings.element,
        link=link.name,
    )


def _check_links(links: Sequence[LinkRecord], settings: BemSettings) -> None:
    """Refuses, before any link is solved, a link whose shapes the BEM cannot take
    (:func:`gzinertia.physics.bem.check_domain`): the run stops at its first such link with
    nothing written, and no solve is wasted on the others."""
    for link in links:
        shapes = displacing_shapes(link, settings)
        if shapes:
            check_domain(shapes, settings.density, settings.element, link.name,
                         settings.panel_size)


def error_warnings(link_name: str, result: BemResult) -> list[str]:
    """The warnings of a solve: its own (a shape thinner than the error estimate covers), and
    one when its estimated discretisation error is above ``WARN_ERROR``."""
    if result.relative_error <= WARN_ERROR:
        return list(result.warnings)
    return [*result.warnings, (
        f"{link_name}: estimated discretisation error "
        f"{100.0 * result.relative_error:.2g} % (above {100.0 * WARN_ERROR:g} %): "
        f"use a smaller {option('panel_size')} or {option('quality_fine')}"
    )]


#: A link admitted to a ``--together`` solve: its shapes, and its admission (the overlap it is
#: written with, the plugins whose added mass it replaces).
_Pending = tuple[LinkRecord, list[Collision], Admitted]


class _BemRun:
    """One ``addmass --bem`` in progress: the added-mass run (its writer, the overlap guard and
    what has been written, skipped, noted and warned so far) and the solves written."""

    def __init__(self, run: AddedMassRun, settings: BemSettings) -> None:
        self.run, self.settings = run, settings
        self.solved: list[LinkBem] = []
        self.drafts: dict[str, FloatingDraft] = {}

    def write(self, pending: _Pending, result: BemResult) -> None:
        """Writes one link's solved ``A_BBo_B`` (about Bo in B) with its provenance."""
        link, collisions, admitted = pending
        item, written_A = solve_outcome(link, collisions, result, self.settings,
                                        self.drafts.get(link.name))
        replaces = "): the BEM result replaces its <iDotJ> terms"
        warnings = self.run.out.warnings
        before = len(warnings)
        if not self.run.write(link, admitted, written_A, replaces):
            return
        warnings[before:before] = error_warnings(link.name, result)  # before the overlap's
        self.solved.append(item)

    def solve_together(self, pending: Sequence[_Pending], progress: BemRunProgress | None,
                       total: int) -> None:
        """``--together``: one problem for every admitted link, each written with its own
        matrix (the cross-link coupling said in a note, not written)."""
        settings = self.settings
        if progress is not None:
            progress.link(f"{len(pending)} links together", total, total)
        surfaces = _together_surfaces([p[0] for p in pending], settings, self.drafts)
        results, cross = bem_added_mass_together(
            [(p[1], X_WB) for p, X_WB in zip(pending, surfaces.poses, strict=True)],
            settings.density, panel_size=settings.panel_size, quality=settings.quality,
            use_cache=settings.use_cache, progress=progress, waterline=surfaces.waterline,
            element=settings.element, names=[p[0].name for p in pending], origin=surfaces.origin,
        )
        for item, result in zip(pending, results, strict=True):
            self.write(item, result)
        self.run.out.notes.append(
            f"{len(pending)} links solved together: each link's matrix includes the others' "
            f"presence; the cross-link coupling, up to {100.0 * cross:.2g} % of the largest "
            "translational entry, has no place in SDF (one matrix per link) and is not written"
        )


def add_mass_bem(
    request: AddedMassRequest, settings: BemSettings, progress: BemRunProgress | None = None
) -> Edit[LinkBem]:
    """:func:`bem_links` of ``request``'s SDFormat file (``request.data``: the file's bytes
    when they do not come from its path, standard input named ``<stdin>``, relative URIs
    resolved against the working directory), written as ``<fluid_added_mass>``."""
    return bem_links(request, settings, progress, SdfAddedMassWriter.open(request))


def bem_links(
    request: AddedMassRequest, settings: BemSettings, progress: BemRunProgress | None,
    writer: AddedMassWriter,
) -> Edit[LinkBem]:
    """Solves and writes (in memory, through the format's ``writer``) the BEM added mass of
    the links ``request`` selects.

    Links are handled as :func:`gzinertia.edit.addmass.ellipsoid_links` handles them (skips,
    plugin conflicts, overlap guard: :class:`~gzinertia.edit.added_mass_run.AddedMassRun`); a
    link whose geometry cannot be meshed stops the run with an error naming the file, the link
    and the problem (nothing is written): the shapes of every selected link are checked before
    the first solve (:func:`_check_links`). The :class:`~gzinertia.edit.edit_result.Edit`'s
    links are the solves written."""
    require_bem()
    path, data, doc = request.path, request.data, writer.doc
    links, skipped = editable_links(doc, path, request.pattern, False, settings.element,
                                    in_file=writer.in_file)
    run = AddedMassRun(writer, request, links, skipped)
    bem = _BemRun(run, settings)
    pending: list[_Pending] = []
    _check_links(links, settings)
    bem.drafts = bem_drafts(doc, links, settings, None if data is None else _tree(data, path))
    for index, link in enumerate(run.ordered(links)):
        if progress is not None:
            progress.link(link.name, index, len(links))
        admitted = run.admit(link)
        if admitted is None:
            continue
        collisions = displacing_shapes(link, settings)
        if not collisions:
            skipped.append(f"{link.name}: no {settings.element} geometry to mesh")
        elif settings.together:
            pending.append((link, collisions, admitted))
            run.guard.accept(link)
        else:
            bem.write((link, collisions, admitted), solve_link(
                link, collisions, settings, progress, bem.drafts.get(link.name)))
    if pending:
        bem.solve_together(pending, progress, len(links))
    bem.solved.sort(key=lambda r: run.order[r.link.name])
    new = run.finish(version_in_notes=request.upgrade_version)
    out = run.out
    return Edit(path, writer.old, new, tuple(bem.solved), tuple(skipped), tuple(out.warnings),
                tuple(out.notes))


@dataclass(frozen=True, repr=False, eq=False)
class _TogetherSurface(ValueRecord):
    """The one free surface of a ``--together`` solve: ``(z, frequency, depth)`` or ``None``,
    each link's pose, and where they came from (``--waterline auto``)."""

    waterline: tuple[float, Literal["zero", "infinite"], float] | None
    poses: tuple[Pose, ...]
    origin: str


def _together_surfaces(
    links: Sequence[LinkRecord], settings: BemSettings, drafts: Mapping[str, FloatingDraft]
) -> _TogetherSurface:
    """The free surface of links solved together (:func:`_free_surface` of each): one
    waterline for all, so under ``--waterline auto`` they must float as one body (links of
    several free bodies float at drafts of their own: refused in one line)."""
    surfaces = [_free_surface(link, settings, drafts.get(link.name)) for link in links]
    first = surfaces[0]
    if first is None:
        return _TogetherSurface(None, tuple(link.X_WB for link in links), "")
    bodies = {drafts[link.name].body for link in links if link.name in drafts}
    if len(bodies) > 1:
        raise GzInertiaError(
            f"{links[0].source}: {option('waterline_auto')} with {option('together')}: the "
            f"links belong to {len(bodies)} free bodies ({', '.join(sorted(bodies))}), each "
            "floating at its own draft; solve them apart, or together under one "
            f"{option('waterline_z')}"
        )
    return _TogetherSurface(
        (first[0], settings.frequency, settings.depth),
        tuple(s[1] for s in surfaces if s is not None), first[2],
    )


def _tree(data: bytes, path: Path) -> object:
    """The parsed XML of a file's bytes (standard input, which cannot be read again)."""
    return parse_xml_bytes(data, str(path))
