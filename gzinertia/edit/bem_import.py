"""``gzinertia addmass FILE --from RESULT --link L``: an added mass computed elsewhere (a
Capytaine dataset written with ``assemble_dataset`` + ``to_netcdf``), moved exactly to the link
origin in link axes and written to ``<fluid_added_mass>``.

The dataset's ``added_mass`` (dims ``omega``, ``radiating_dof``, ``influenced_dof``; Capytaine's
rigid-body dofs Surge..Yaw are linear-first ``[x y z p q r]``) is about the dataset's
``rotation_center`` P, in the axes F of the mesh. ``--about "x y z"`` gives ``p_BoP_B`` (default:
the dataset's ``rotation_center``, read as link coordinates: the usual case of a hull mesh built
in the link frame), ``--axes "roll pitch yaw"`` gives ``R_BF`` (default: the identity). The
matrix is re-expressed in B (``Rb·A·Rbᵀ``) and moved from P to Bo (``Tᵀ·A·T``, DESIGN.md §4).
Capytaine writes datasets for free-surface problems only (an unbounded-fluid solve has no
dataset): the frequency matters, and is chosen with ``--frequency``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.edit.added_mass_run import AddedMassRun, AddedMassWriter, editable_links
from gzinertia.edit.bem_shapes import shapes_of
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.links import ascii_comment
from gzinertia.edit.sdf_added_mass import SdfAddedMassWriter, refuse_for_target
from gzinertia.errors import Float64OverflowError, GzInertiaError
from gzinertia.io.result_files import ImportedAddedMass, ResultFile, read_result
from gzinertia.numbers import (
    MAX_MAGNITUDE,
)
from gzinertia.options import option
from gzinertia.physics.bem_provenance import IMPORT_PREFIX, format_import_geometry
from gzinertia.physics.surface_mesh import geometry_digest
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose
from gzinertia.vocabulary.geometry import GeometryElement
from gzinertia.wording import bounded

if TYPE_CHECKING:
    from gzinertia.edit.added_mass_request import AddedMassRequest

@dataclass(frozen=True, repr=False, eq=False)
class ImportedLink(ValueRecord):
    """The outcome of an import: the link it belongs to (its scoped name; the pattern given
    when no link was written) and the result moved to ``A_BBo_B``, about the link origin Bo in
    link axes B."""

    name: str
    A_BBo_B: AddedMass


def _vector_text(values: Sequence[float] | np.ndarray) -> str:
    return " ".join(f"{v:.6g}" for v in values)


def _check_vector(values: Sequence[float], name: str) -> None:
    """Three finite numbers within ±1e100 (the numbers an SDF file holds)."""
    if len(values) != 3 or not all(abs(v) <= MAX_MAGNITUDE for v in values):  # NaN too
        raise GzInertiaError(
            f"{name} must be three finite numbers within ±{MAX_MAGNITUDE:g}, not "
            f"({_vector_text(values)})"
        )


def imported_in_link(
    imported: ImportedAddedMass,
    p_BoP_B: Sequence[float] | None,
    rpy_BF: Sequence[float],
    density: float | None,
) -> tuple[AddedMass, str]:
    """``A_BBo_B`` from the dataset's ``A_FP_F``: scaled to ``density`` when given (added mass
    is proportional to ρ), re-expressed in B with ``R_BF`` and moved from P to Bo; and the
    provenance text."""
    about_given = p_BoP_B is not None
    if p_BoP_B is None:
        if imported.rotation_center is None:
            raise GzInertiaError(
                "the dataset names no rotation_center: give the point it is about with "
                f"{option('about')}"
            )
        p_BoP_B = imported.rotation_center
    A = imported.A
    rho = imported.density
    note = f"fluid density {rho:g} kg/m^3"
    if density is not None and math.isfinite(rho) and rho > 0 and density != rho:
        A = A * (density / rho)
        note = f"scaled from {rho:g} to {density:g} kg/m^3"
    point = option("about") if about_given else "the dataset's rotation_center"
    _check_vector(p_BoP_B, point)
    _check_vector(rpy_BF, option("axes"))
    X_BF = Pose.from_xyz_rpy(np.asarray(p_BoP_B, dtype=float), np.asarray(rpy_BF, dtype=float))
    try:
        A_BBo_B = AddedMass(A, ordering="linear-first", point="P", axes="F").in_link(X_BF)
        peak = float(np.max(np.abs(A_BBo_B.linear_first())))
    except Float64OverflowError:
        peak = math.inf
    if not peak <= MAX_MAGNITUDE:
        raise GzInertiaError(
            f"the imported added mass ({note}), moved from {point} ({_vector_text(p_BoP_B)} m) "
            f"to the link origin, reaches {peak:g}, beyond the {MAX_MAGNITUDE:g} an SDF file "
            "holds"
        )
    p = _vector_text(X_BF.p)
    rpy = _vector_text(rpy_BF)
    text = (
        f"{IMPORT_PREFIX} ({imported.description}, {note}), computed "
        f"about ({p}) in axes rpy ({rpy}) of the link; moved to the link origin in link axes"
    )
    return A_BBo_B, text


def geometry_record(
    link: LinkRecord,
    geometry: tuple[tuple[str, ...] | None, GeometryElement],
    digest: str,
) -> str:
    """``; geometry ...; mesh digest ...; dataset digest ...`` for the link's shapes (none when
    the link has none: there is then nothing to go stale)."""
    names, element = geometry
    shapes = shapes_of(link, names, element)
    if not shapes:
        return ""
    return "; " + format_import_geometry(
        element, [c.name for c in shapes], geometry_digest(shapes), digest
    )


def import_comment(
    link: LinkRecord, text: str, result: ResultFile, imported: ImportedAddedMass
) -> str:
    """The comment written with an imported matrix on ``link``, as both formats write it: the
    import's ``text`` (:func:`imported_in_link`) and the geometry it describes
    (:func:`geometry_record`), made a valid XML comment."""
    return ascii_comment(text + geometry_record(link, result.geometry, imported.digest))


def import_pattern(request: AddedMassRequest) -> str:
    """The link pattern an import needs (one link: the result belongs to it)."""
    if request.pattern is None:
        raise GzInertiaError(f"{option('from_link')} naming the one link the result belongs to")
    return request.pattern


def add_mass_from(request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
    """:func:`import_links` of ``request``'s SDFormat file, written as ``<fluid_added_mass>``
    (refused before the result is read where the target ignores the element)."""
    refuse_for_target(request)
    return import_links(request, result, SdfAddedMassWriter.open)


def import_links(request: AddedMassRequest, result: ResultFile,
                 open_writer: Callable[[AddedMassRequest], AddedMassWriter]
                 ) -> Edit[ImportedLink]:
    """Reads ``result``, moves it to the one link ``request.pattern`` selects and writes it
    (in memory, through the format's writer ``open_writer`` opens): the :class:`Edit` with the
    link's :class:`ImportedLink` (named by the pattern when the writer could not write it: a
    xacro link made by a macro, its block to paste in the warnings), notes and warnings.

    The link is admitted as the ellipsoid and BEM edits admit it
    (:meth:`gzinertia.edit.added_mass_run.AddedMassRun.admit`), a refusal being an error: a
    Hydrodynamics plugin applying added mass is refused unless ``replace_plugin_added_mass``
    (SDFormat: its ``<disable_added_mass>`` is then set), a fluid ellipsoid overlapping that of
    a link carrying added mass (GZI210) unless ``allow_overlap`` (then said in the warnings).
    The comment also records the link's displacing geometry the result is taken to describe
    (``result.geometry``: shape names or all, collisions or visuals, as ``--bem`` meshes them)
    with its digest, and the digest of the result file: the audit reports the matrix as stale
    (GZI212) once that geometry changes."""
    path, pattern = request.path, import_pattern(request)
    imported = read_result(result)
    writer = open_writer(request)
    links, skipped = editable_links(writer.doc, path, pattern, True, in_file=writer.in_file)
    if len(links) != 1:
        names = bounded(link.name for link in links)
        raise GzInertiaError(f"{path}: {option('link')} {pattern!r} selects {len(links)} links "
                             f"({names or 'none'}); the result belongs to one")
    link = links[0]
    run = AddedMassRun(writer, request, links, skipped)
    admitted = run.admit_strictly(link)
    A_BBo_B, text = imported_in_link(imported, result.about, result.axes_rpy, result.density)
    replaces = "): the imported matrix replaces its <iDotJ> terms, which stay in the file"
    comment = import_comment(link, text, result, imported)
    name = link.name if run.write(link, admitted, (A_BBo_B, comment), replaces) else pattern
    new = run.finish(version_in_notes=True)
    out = run.out
    return Edit(path, writer.old, new, (ImportedLink(name, A_BBo_B),), tuple(skipped),
                tuple(out.warnings), tuple(out.notes))
