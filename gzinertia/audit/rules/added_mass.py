"""Rules about ``<fluid_added_mass>``: GZI201–GZI204, GZI206, GZI207.

The matrix is ``A_BBo_B``: about the link origin Bo, in link axes B, linear-first
``[x y z p q r]`` (shared DESIGN.md §3). Checks use :mod:`gzinertia.spatial.added_mass`
(eigenvalues,
change of point, kinetic-energy error) and the Tuckerman added mass of the link's volume-fit
fluid ellipsoid (:mod:`gzinertia.physics.fits`,
:meth:`gzinertia.physics.fits.EllipsoidFit.added_mass`), or, for a matrix ``addmass
--ellipsoid`` wrote, of the fit its comment names
(:func:`~gzinertia.checks.added_mass.recorded_fit_of`, :mod:`gzinertia.physics.fit_provenance`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator

import numpy as np

from gzinertia.audit.emit import (
    LinkCheck,
    document_rule,
    finding,
    fmt,
    fmt_vec,
    link_rule,
    plot_hint,
)
from gzinertia.audit.findings import Finding
from gzinertia.audit.message import command, link_glob, link_list
from gzinertia.checks.added_mass import (
    ELEMENT,
    RecordedFit,
    added_mass_where,
    applied_added_mass,
    recorded_fit_of,
)
from gzinertia.checks.bem import bem_is_current, bem_of_visuals_is_current
from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.checks.matrices import implied_centre
from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.records import SourceRef
from gzinertia.shell import command_line
from gzinertia.spatial.added_mass import (
    AddedMass,
    kinetic_energy_error,
    total_is_positive_definite,
)
from gzinertia.vocabulary.sdf_version import FLUID_ADDED_MASS_VERSION, SdfVersion

__all__ = [
    "CENTRE_SIDE_FRACTION",
    "KE_ERROR_THRESHOLD",
    "MAGNITUDE_FACTOR",
    "added_mass_magnitude",
    "added_mass_magnitude_findings",
    "added_mass_not_psd",
    "added_mass_version",
    "added_mass_wrong_point",
    "auto_drops_added_mass",
    "total_not_pd",
]

#: GZI204 fires when leaving the matrix unshifted changes the kinetic energy by this fraction.
KE_ERROR_THRESHOLD = 0.10
#: GZI204: the implied centre counts as on the fluid's side when its projection on the
#: direction of the fluid's centre is at least this fraction of that centre's distance.
CENTRE_SIDE_FRACTION = 0.1
#: GZI207 fires when a written diagonal term is this many times above or below the estimate.
MAGNITUDE_FACTOR = 10.0


@document_rule("GZI201")
def added_mass_version(doc: DocumentContext) -> Iterator[Finding]:
    """GZI201 added-mass-sdf-version: ``<fluid_added_mass>`` in a file declaring SDF < 1.10."""
    by_file: dict[str, list[LinkContext]] = {}
    for ctx in doc.links:
        inertial = ctx.link.inertial
        if inertial.added_mass_source is not None:
            by_file.setdefault(ctx.link.source.file, []).append(ctx)
    for file, links in by_file.items():
        version = doc.sdf_version(file)
        if not SdfVersion(version).known_before(FLUID_ADDED_MASS_VERSION):
            continue
        names = [c.name for c in links]
        message = (
            f"<fluid_added_mass> (in {len(names)} link(s): " + link_list(names, names[0])
            + ") is SDFormat 1.10 "
            f"(libsdformat 13, Gazebo Garden), but this file declares version {version}: "
            "libsdformat 13+ still reads it (it converts files to its own version); older "
            "libsdformat and tools that follow the declared version drop it. Declare "
            '<sdf version="1.10"> (`gzinertia addmass` and `convert` do so by default when the '
            "file means the same under 1.10; others need `gz sdf -p` first)"
        )
        yield finding(
            "GZI201", added_mass_where(links[0]), links[0].name, message,
            {"sdf_version": version, "links": names},
        )


#: A check of the added mass a link applies: ``check(ctx, A_BBo_B, where, what)`` with what
#: :func:`~gzinertia.checks.added_mass.applied_added_mass` gives.
AppliedCheck = Callable[[LinkContext, np.ndarray, SourceRef, str], Iterator[Finding]]


def applied_added_mass_rule(code: str) -> Callable[[AppliedCheck], LinkCheck]:
    """Marks ``check(ctx, A_BBo_B, where, what)`` as rule ``code``'s check of each link that
    applies added mass (:func:`~gzinertia.checks.added_mass.applied_added_mass`: its
    ``<fluid_added_mass>``, else its active plugin's); links that apply none are passed over."""

    def register(check: AppliedCheck) -> LinkCheck:
        @functools.wraps(check)
        def each_link(ctx: LinkContext) -> Iterator[Finding]:
            applied = applied_added_mass(ctx)
            if applied is not None:
                yield from check(ctx, *applied)

        return link_rule(code)(each_link)

    return register


@applied_added_mass_rule("GZI202")
def added_mass_not_psd(
    ctx: LinkContext, A_BBo_B: np.ndarray, where: SourceRef, what: str
) -> Iterator[Finding]:
    """GZI202 added-mass-not-psd: the applied ``A_BBo_B`` (6x6 about the link origin in link
    axes, linear-first ``[v; ω]``) is not positive semi-definite."""
    added = AddedMass(A_BBo_B, ordering="linear-first")
    if added.is_positive_semidefinite():
        return
    eig = added.eigenvalues()
    diag = np.diag(A_BBo_B)
    hint = ""
    if what == ELEMENT and np.all(diag[diag != 0.0] < 0.0):
        hint = (
            " Every diagonal term is negative: these look like Fossen's derivatives (xDotU…); "
            "the spec wants the positive added mass A = -D."
        )
    message = (
        f"{what} is not positive semi-definite: eigenvalues {fmt_vec(eig)} "
        "(kg, kg·m, kg·m²; linear-first [x y z p q r] about the link origin), so some motion "
        "would give the fluid negative kinetic energy and DART, which adds the matrix to the "
        f"link's inertia, can accelerate the link on its own.{hint} Check signs, units and any "
        "coupling term; `gzinertia addmass --ellipsoid` computes a consistent matrix"
    )
    values = {"eigenvalues": eig, "A_BBo_B": A_BBo_B}
    yield finding("GZI202", where, ctx.name, message, values)


@applied_added_mass_rule("GZI203")
def total_not_pd(
    ctx: LinkContext, A_BBo_B: np.ndarray, where: SourceRef, what: str
) -> Iterator[Finding]:
    """GZI203 rigid-plus-added-not-pd: ``M_BBo_B + A_BBo_B`` (6x6 about the link origin in link
    axes, linear-first ``[v; ω]``) is not positive definite."""
    if not ctx.moves or not np.all(np.isfinite(ctx.link.inertial.I_BBcm_I)):
        return
    M_BBo_B = ctx.link.inertial.M_BBo_B
    A = AddedMass(A_BBo_B, ordering="linear-first")
    ok, smallest = total_is_positive_definite(M_BBo_B, A)
    if ok:
        return
    total = (M_BBo_B + A).linear_first()
    w, V = np.linalg.eigh(total)
    direction = V[:, 0] / np.max(np.abs(V[:, 0]))
    message = (
        f"rigid + added mass about the link origin (M_BBo_B + A_BBo_B) is not positive definite: "
        f"smallest eigenvalue {fmt(smallest)} along [x y z p q r] = {fmt_vec(direction)}; DART "
        "inverts this matrix for the link's accelerations and misbehaves (gz-sim#3246). Fix the "
        "added mass (GZI202) or the rigid inertia (GZI101/GZI103/GZI104)"
    )
    values = {"eigenvalues": w, "direction": direction, "mass": ctx.link.inertial.mass}
    yield finding("GZI203", where, ctx.name, message, values)


@applied_added_mass_rule("GZI204")
def added_mass_wrong_point(
    ctx: LinkContext, A_BBo_B: np.ndarray, where: SourceRef, what_matrix: str
) -> Iterator[Finding]:
    """GZI204 added-mass-wrong-point: ``A_BBo_B`` (6x6 in link axes, linear-first ``[v; ω]``)
    looks computed about another point than Bo."""
    if bem_is_current(ctx):  # <fluid_added_mass> or (URDF) the block addmass wrote
        return  # computed about the link origin by a BEM solve of the hull it has (GZI212)
    # Written by `addmass --ellipsoid`: judged against the fit its comment names, refitted now.
    recorded = recorded_fit_of(ctx) if what_matrix == ELEMENT else None
    reference = ctx.fluid_centre()
    if recorded is not None:
        centre = implied_centre(recorded.A_per_density)
        reference = None if centre is None else (centre, f"centre of the {recorded.what}")
    r = implied_centre(A_BBo_B)
    if reference is None or r is None:
        return
    c, what = reference
    norm_c = float(np.linalg.norm(c))
    coupling = float(np.max(np.abs(A_BBo_B[:3, 3:])))
    if norm_c == 0.0:
        return
    if what == "centre of mass":
        # Without collisions the fluid's centre is unknown: only an uncoupled matrix with the
        # centre of mass away from the origin is suspicious.
        if coupling > 1e-9 * float(np.max(np.abs(A_BBo_B))):
            return
    elif float(np.dot(r, c)) >= CENTRE_SIDE_FRACTION * norm_c**2:
        return  # the implied centre is on the fluid's side of the origin
    # The written matrix re-centred: its implied centre Q (at r) put where the fluid is (at c).
    written = AddedMass(A_BBo_B, ordering="linear-first")
    A_fixed = written.shift(r - c, "Bo")
    error = kinetic_energy_error(A_fixed, written)
    if error < KE_ERROR_THRESHOLD:
        return
    distance = float(np.linalg.norm(c - r))
    if coupling == 0.0:
        how = (
            "the matrix has no linear/angular coupling terms, as it would about the fluid's own "
            f"centre, not about a link origin {fmt(distance)} m away"
        )
    else:
        how = (
            f"its coupling terms put its centre at {fmt_vec(r)} m, on the other side of the "
            f"origin, {fmt(distance)} m from the {what}"
        )
    shift_from = c - r
    point = "com" if what == "centre of mass" else ",".join(f"{v:.6g}" for v in shift_from)
    error_text = "without bound" if math.isinf(error) else f"by up to {fmt(100.0 * error)} %"
    file = ctx.link.source.file
    link = link_glob(ctx.name)
    recompute = () if recorded is None else recorded.options
    convert_first = (
        ""
        if what_matrix == ELEMENT
        else f"`{command_line('convert', file, '--hydro-to-sdf')}`, then "
    )
    message = (
        f"{what_matrix} looks computed about another point than the link origin: the "
        f"{what} is at {fmt_vec(c)} m, yet {how}. The spec (and DART) take it about the link "
        f"origin; left as written it changes the fluid's kinetic energy {error_text}. Fix: "
        f"{convert_first}`" + command("shift", file, "--link", link, "--from", point) + "`, or "
        "recompute it with `" + command("addmass", file, "--ellipsoid", *recompute, "--link", link)
        + "`" + plot_hint(file, ctx.name)
    )
    values = {
        "implied_centre": r,
        "reference": what,
        "reference_point": c,
        "distance": distance,
        "kinetic_energy_error": error,
        "shift_from": shift_from,
    }
    yield finding("GZI204", where, ctx.name, message, values)


@link_rule("GZI206")
def auto_drops_added_mass(ctx: LinkContext) -> Iterator[Finding]:
    """GZI206 auto-inertial-drops-added-mass: ``<inertial auto="true">`` drops the added mass."""
    inertial = ctx.link.inertial
    if not inertial.added_mass_dropped:
        return
    message = (
        '<fluid_added_mass> inside <inertial auto="true">: libsdformat replaces the whole '
        "inertial by the one it computes from the collisions and drops the added mass without a "
        'word; write mass and inertia explicitly (remove auto="true") to keep the added mass'
    )
    yield finding("GZI206", added_mass_where(ctx), ctx.name, message, {})


def _magnitude_problems(
    ctx: LinkContext, written: np.ndarray, recorded: RecordedFit | None = None
) -> tuple[str, float, np.ndarray, list[tuple[int, float]]] | None:
    """Picks the candidate fluid whose Tuckerman estimate (of ``recorded``, else of the volume
    fit) fits the written linear diagonal best; returns (fluid, density, expected diagonal,
    [(axis, ratio) off by MAGNITUDE_FACTOR])."""
    best: tuple[float, str, float, np.ndarray, np.ndarray] | None = None
    nonzero = [i for i in range(3) if written[i] != 0.0]
    if not nonzero:
        return None
    for name, rho in ctx.document.densities:
        expected = (
            ctx.expected_added_mass(rho) if recorded is None else rho * recorded.A_per_density
        )
        if expected is None:
            return None
        e = np.diag(expected)[:3]
        ratios = np.array([abs(written[i]) / e[i] for i in nonzero])
        score = float(np.mean(np.abs(np.log(ratios))))
        if best is None or score < best[0]:
            best = (score, name, rho, e, ratios)
    assert best is not None
    _, name, rho, e, ratios = best
    bad = [
        (i, float(q))
        for i, q in zip(nonzero, ratios, strict=True)
        if not 1.0 / MAGNITUDE_FACTOR <= q <= MAGNITUDE_FACTOR
    ]
    return (name, rho, e, bad) if bad else None


def added_mass_magnitude_findings(
    ctx: LinkContext,
    written: np.ndarray,
    labels: tuple[str, str, str],
    where: SourceRef,
    recorded: RecordedFit | None = None,
) -> Iterator[Finding]:
    """GZI207 for one written linear diagonal (``<fluid_added_mass>`` ``xx yy zz``, or the
    plugin's ``|xDotU| |yDotV| |zDotW|``), named by ``labels``; estimated by the ``recorded``
    fit (:func:`~gzinertia.checks.added_mass.recorded_fit_of`) when given, else by the
    collisions' volume fit."""
    solid = ctx.geometry
    if solid is None or ctx.link.static:
        return
    result = _magnitude_problems(ctx, written, recorded)
    if result is None:
        return
    fluid, rho, expected, bad = result
    parts = [
        f"{labels[i]} = {fmt(written[i])} kg is {fmt(q)}× the estimate {fmt(expected[i])} kg"
        for i, q in bad
    ]
    basis = (
        f"ellipsoid of the collisions' {fmt(solid.volume)} m³"
        if recorded is None
        else f"added mass of the {recorded.what}, refitted to the link as it is now; the "
        f"collisions' volume {fmt(solid.volume)} m³"
    )
    message = (
        f"added mass implausible for the displaced volume: {'; '.join(parts)} (Tuckerman "
        f"{basis} in {fluid}, ρ = {fmt(rho)} kg/m³, "
        f"ρV = {fmt(rho * solid.volume)} kg); a matrix from another vehicle, or wrong units? "
        "`gzinertia addmass --ellipsoid` estimates it from the geometry"
    )
    values = {
        "written": written,
        "expected": expected,
        "ratios": {labels[i]: q for i, q in bad},
        "fluid": fluid,
        "density": rho,
        "collision_volume": solid.volume,
    }
    yield finding("GZI207", where, ctx.name, message, values)


@link_rule("GZI207")
def added_mass_magnitude(ctx: LinkContext) -> Iterator[Finding]:
    """GZI207 added-mass-implausible-magnitude: far from the displaced-fluid estimate."""
    A_BBo_B = ctx.added_mass
    # A BEM solve of the visuals (the collisions a buoyancy proxy): the collisions' estimate
    # is not the reference (GZI212 watches that geometry instead).
    if A_BBo_B is not None and not bem_of_visuals_is_current(ctx):
        # Written by `addmass --ellipsoid`: estimated by the fit its comment names.
        yield from added_mass_magnitude_findings(ctx, np.diag(A_BBo_B)[:3], ("xx", "yy", "zz"),
                                                 added_mass_where(ctx), recorded_fit_of(ctx))
    names = ("xDotU", "yDotV", "zDotW")
    if A_BBo_B is None and bem_of_visuals_is_current(ctx):
        return  # URDF: the block addmass --bem --geometry visual wrote (GZI212 watches it)
    for plugin in ctx.link.hydrodynamics:
        if not added_mass_active(plugin):
            continue
        D = plugin.D_BBo_B
        where = next(
            (plugin.term_sources[n] for n in names if n in plugin.term_sources), plugin.source
        )
        labels = ("|xDotU|", "|yDotV|", "|zDotW|")
        yield from added_mass_magnitude_findings(ctx, np.abs(np.diag(D)[:3]), labels, where)
