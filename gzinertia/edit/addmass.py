"""``gzinertia addmass``: Tuckerman ellipsoid added mass for links, written to
``<fluid_added_mass>`` about the link origin in link axes (the spec's point and axes).

For each selected link: fit the ellipsoid(s) (:mod:`gzinertia.physics.fits`), compute ``A_EEo_E``
about each centre in its axes, rotate to link axes and move to the link origin, sum, and write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.added_mass_run import (
    AddedMassRun,
    AddedMassWriter,
    editable_links,
    negligible_geometry,
)
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.links import ascii_comment
from gzinertia.edit.sdf_added_mass import SdfAddedMassWriter
from gzinertia.errors import GzInertiaError
from gzinertia.model_input import ModelInput
from gzinertia.options import option
from gzinertia.physics.buoyancy_proxy import buoyancy_proxy
from gzinertia.physics.fits import EllipsoidFit, FitError, FitMethod, fit_link
from gzinertia.physics.mesh_fallback import approximated
from gzinertia.physics.plausibility import (
    added_to_rigid_warning,
    density_warning,
    floating_warning,
)
from gzinertia.physics.provenance_comment import fit_comment
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.sdf.visuals import link_visuals
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.scoped_names import top_scope

__all__ = [
    "AddMassResult",
    "FitChooser",
    "LinkAddedMass",
    "add_mass",
    "editable_links",
    "ellipsoid_links",
    "negligible_geometry",
    "plausibility_warnings",
    "provenance",
]


@dataclass(frozen=True, repr=False, eq=False)
class LinkAddedMass(ValueRecord):
    """The added mass computed for one link and how."""

    link: LinkRecord
    fit: EllipsoidFit
    density: float
    A_BBo_B: AddedMass


#: What an ellipsoid ``addmass`` made: per link written, the fit and ``A_BBo_B``.
AddMassResult = Edit[LinkAddedMass]


@dataclass(frozen=True, repr=False, eq=False)
class FitChooser(ValueRecord):
    """How each link's ellipsoid is obtained: a fit method, or one explicit ellipsoid."""

    method: FitMethod = "volume"
    fixed: EllipsoidFit | None = None

    @property
    def explicit(self) -> bool:
        """Whether one ellipsoid is given for every link (``addmass --ellipsoid``)."""
        return self.fixed is not None

    def __call__(self, link: LinkRecord) -> EllipsoidFit:
        """The fit for ``link``: the explicit ellipsoid, or ``method``'s fit of the link."""
        return self.fixed if self.fixed is not None else fit_link(link, self.method)


def provenance(fit: EllipsoidFit, density: float) -> str:
    """The comment written before ``<fluid_added_mass>`` (no ``--`` inside). The audit reads
    the fit back (:mod:`gzinertia.physics.provenance_comment`, which writes it) and judges the
    matrix against that fit of the link (GZI204, GZI207)."""
    return ascii_comment(fit_comment(fit, density))


def plausibility_warnings(doc: SdfDocument, results: Sequence[LinkAddedMass]) -> list[str]:
    """Warnings, with the numbers, for fits that cannot be what the user meant
    (:mod:`gzinertia.physics.plausibility`): per link the implied density and the added/rigid ratio,
    per top-level model the displaced mass against the model's mass."""
    warnings: list[str] = []
    displaced: dict[str, tuple[float, float, list[str]]] = {}
    for r in results:
        inertial = r.link.inertial
        volume = sum(e.volume for e in r.fit.ellipsoids)
        what = f"its {r.fit.method}-fit ellipsoid" + ("s" if len(r.fit.ellipsoids) > 1 else "")
        if approximated(r.fit.approximation):  # say it: a hull's volume is not the body's
            what += f" (fitted to an approximation: {r.fit.approximation})"
        for warning in (
            density_warning(inertial.mass, volume, what),
            added_to_rigid_warning(inertial.mass, r.A_BBo_B.linear_first()),
        ):
            if warning:
                warnings.append(f"{r.link.name}: {warning}")
        top = top_scope(r.link.name)
        total, density, names = displaced.get(top, (0.0, r.density, []))
        displaced[top] = (total + r.density * volume, density, [*names, r.link.name])
    for top, (total, density, names) in displaced.items():
        model_mass = sum(
            lk.inertial.mass
            for lk in doc.links
            if top_scope(lk.name) == top
            and not (lk.static or lk.welded_to_world)
            and lk.inertial.mass > 0.0
        )
        warning = floating_warning(top, model_mass, total, density, names)
        if warning:
            warnings.append(warning)
    return warnings


def add_mass(
    path: Path,
    *,
    fit_for: FitChooser,
    density: float,
    pattern: str | None,
    upgrade_version: bool,
    model_paths: Sequence[str | Path],
    replace_plugin_added_mass: bool = False,
    allow_overlap: bool = False,
    data: bytes | None = None,
) -> AddMassResult:
    """:func:`ellipsoid_links` of the SDFormat file ``path`` (``data``: its bytes when they do
    not come from ``path``, standard input named ``<stdin>``: relative URIs resolve against the
    working directory), written as ``<fluid_added_mass>``."""
    request = AddedMassRequest(path, pattern, ModelInput.of(model_paths=[Path(p) for p in
                                                                          model_paths]),
                               data, upgrade_version, replace_plugin_added_mass, allow_overlap)
    return ellipsoid_links(request, fit_for, density, SdfAddedMassWriter.open(request))


def ellipsoid_links(
    request: AddedMassRequest, fit_for: FitChooser, density: float, writer: AddedMassWriter
) -> AddMassResult:
    """Computes and writes (in memory, through the format's ``writer``) the Tuckerman added
    mass of the ellipsoids ``fit_for`` fits to the links ``request`` selects, in a fluid of
    ``density`` kg/m³.

    A link whose Hydrodynamics plugin applies added mass (``<iDotJ>`` terms, not disabled) is
    skipped (an error when a pattern names it) unless ``request.replace_plugin_added_mass``
    (SDFormat: the plugin then gets ``<disable_added_mass>true</disable_added_mass>`` so the
    added mass counts once). Static links, links of other files and links without collisions
    (when no pattern names them) are skipped, each with why; an explicit ellipsoid needs
    exactly one link. A selected link whose ellipsoid cannot be fitted or whose added mass
    overflows (the input: a shape too large, a degenerate or unreadable mesh, a mesh over the
    caps) raises :class:`~gzinertia.physics.fits.FitError` and nothing is written: writing
    the other links would make an edit that depends on the order runs were made in.

    Links are written largest fluid ellipsoid first; one whose ellipsoid overlaps that of a
    link carrying added mass (as the audit's GZI210 judges it) is skipped, its fluid being
    counted by the other already, unless ``request.allow_overlap``
    (:class:`~gzinertia.edit.overlap_guard.OverlapGuard`).
    """
    path, doc = request.path, writer.doc
    links, skipped = editable_links(doc, path, request.pattern, fit_for.explicit,
                                    in_file=writer.in_file)
    if fit_for.explicit and len(links) != 1:
        raise GzInertiaError(
            f"{path}: an explicit ellipsoid needs {option('link')} to select exactly one editable "
            "link "
            f"({len(links)} selected)"
        )
    run = AddedMassRun(writer, request, links, skipped)
    warnings = run.out.warnings
    results = []
    for link in run.ordered(links):
        admitted = run.admit(link)
        if admitted is None:
            continue
        try:
            fit = fit_for(link)
        except FitError as exc:  # the input: an error (exit 2), never a link skipped silently
            raise FitError(f"{exc}; nothing written") from None
        if not fit_for.explicit:
            warnings += proxy_warnings(link)
        try:
            A_BBo_B = fit.added_mass(density)
        except FitError as exc:  # overflow: an error, never a skipped link or a zero written
            message = f"{link.source}: link {link.name!r}: {exc}; nothing written"
            raise GzInertiaError(message) from None
        replaces = (
            ", <disable_added_mass>true</disable_added_mass>): the ellipsoid estimate replaces "
            "its <iDotJ> terms, which stay in the file"
        )
        if not run.write(link, admitted, (A_BBo_B, provenance(fit, density)), replaces):
            continue
        results.append(LinkAddedMass(link, fit, density, A_BBo_B))
        if fit.approximation:
            warnings.append(f"{link.name}: {fit.approximation}")
    results.sort(key=lambda r: run.order[r.link.name])
    warnings += plausibility_warnings(doc, results)
    new = run.finish(version_in_notes=request.upgrade_version)
    return AddMassResult(path, writer.old, new, tuple(results), tuple(skipped), tuple(warnings),
                         tuple(run.out.notes))


def proxy_warnings(link: LinkRecord) -> list[str]:
    """A warning when the link's collisions look like a buoyancy proxy (GZI304): the fitted
    added mass then describes the proxy, not the hull."""
    visuals, skipped = link_visuals(link)
    found = None if skipped else buoyancy_proxy(link.collisions, visuals)
    if found is None or not found.reasons:
        return []
    return [f"{link.name}: its collisions look like a buoyancy proxy ({found.said()}):"
            " the added mass was fitted to them, not to the hull; give the hull's ellipsoid "
            "with --ellipsoid --semi-axes a,b,c [--center x,y,z] (GZI304)"]
