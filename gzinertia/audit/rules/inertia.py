"""Rules about a link's rigid inertia: GZI101–GZI113.

Validity follows shared DESIGN.md §7 (Drake's or gz-math's tolerance, ``--tolerance``);
plausibility compares the inertia with a uniform solid filling the link's collision geometry
(its visuals for a link without collisions; GZI113 when there is neither:
:mod:`gzinertia.physics.shapes`): mass against volume (density), radius of gyration against the
solid's, centre of mass against the collisions' bounding box.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec, link_rule, plot_hint
from gzinertia.audit.findings import Finding
from gzinertia.audit.message import Message, link_list
from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.checks.matrices import gyration_factors, gyration_factors_within

# Mean densities outside DENSITY_RANGE (kg/m³) are physically implausible for a rigid body:
# below a helium-filled envelope, above osmium (22 590 kg/m³) with a margin. addmass's
# warnings use the same range (gzinertia.physics.plausibility).
from gzinertia.physics.plausibility import DENSITY_RANGE
from gzinertia.spatial.inertia import equivalent_box_half_sizes, triangle_margin

__all__ = [
    "BOX_MARGIN",
    "GYRATION_FACTOR",
    "auto_inertial_failed",
    "com_outside",
    "inertia_implausible",
    "inertia_not_judged",
    "inertia_not_parsed",
    "inertia_not_psd",
    "inertia_triangle",
    "inertial_duplicate_pose",
    "inertial_missing",
    "inertial_relative_to",
    "mass_implausible",
    "mass_not_positive",
]

#: Radius-of-gyration ratio (rigid inertia against the uniform solid of the collisions) beyond
#: which the inertia does not belong to this geometry: a factor 3 in length is 9 in inertia.
GYRATION_FACTOR = 3.0
#: The centre of mass may lie outside the collisions' bounding box by this fraction of the box
#: diagonal before GZI107 fires: simplified collisions (a slab for an ROV frame) often miss the
#: mass by a little; a sign, unit or frame error puts it far outside.
BOX_MARGIN = 0.10


def _tolerance_name(ctx: LinkContext) -> str:
    if ctx.document.tolerance == "drake":
        return "Drake's ε = 16·DBL_EPSILON·max(1, ½·trace)"
    return "gz-math's ε = 10·DBL_EPSILON·½·trace"


@link_rule("GZI101")
def mass_not_positive(ctx: LinkContext) -> Iterator[Finding]:
    """GZI101 mass-not-positive: a written mass that is negative, not a number, or 0 on a mover."""
    inertial = ctx.link.inertial
    if not ctx.written_inertia:
        return
    m = inertial.mass
    if m > 0.0 and math.isfinite(m):
        return  # (the usual case: nothing below applies)
    where = inertial.mass_source or inertial.source or ctx.where
    values = {"mass": m, "static": ctx.link.static}
    if not np.isfinite(m):
        message = f"<mass> is {m}: not a finite number; give the link its mass in kg"
    elif m < 0.0:
        message = f"<mass> is {fmt(m)} kg: a mass cannot be negative; give the link its mass in kg"
    elif m == 0.0 and ctx.moves:
        message = (
            "<mass> is 0 kg on a link that moves: libsdformat accepts it, but the physics "
            "engines need a positive mass to integrate a moving link (a massless free body has "
            "no defined acceleration); give it its mass, or make the model <static>"
        )
    else:
        return
    yield finding("GZI101", where, ctx.name, message, values)


@link_rule("GZI102")
def inertial_missing(ctx: LinkContext) -> Iterator[Finding]:
    """GZI102 inertial-missing: no ``<inertial>`` (or commented out) on a link that moves."""
    inertial = ctx.link.inertial
    if not inertial.defaulted or not ctx.moves:
        return
    if not ctx.link.collisions and not inertial.commented_out:
        return  # a frame-like helper link: nothing to weigh
    what = "its <inertial> is commented out" if inertial.commented_out else "it has no <inertial>"
    size = ""
    solid = ctx.geometry
    values: dict[str, object] = {
        "mass": 1.0,
        "inertia": [1.0, 1.0, 1.0],
        "commented_out": inertial.commented_out,
        "collisions": len(ctx.link.collisions),
    }
    if solid is not None:
        size = (
            f" for {len(ctx.link.collisions)} collision(s) of {fmt(solid.volume)} m³ "
            f"(1 kg is a mean density of {fmt(1.0 / solid.volume)} kg/m³)"
        )
        values["collision_volume"] = solid.volume
    message = (
        f"{what}: libsdformat silently uses 1 kg and unit inertia (1 kg·m² about each axis, "
        f"centre of mass at the link origin){size}; write <mass> and <inertia>, or "
        '<inertial auto="true"> with a <density> (SDF 1.11+)'
    )
    yield finding("GZI102", inertial.source or ctx.where, ctx.name, message, values)


def _judged_moments(ctx: LinkContext) -> tuple[np.ndarray, str]:
    """The principal moments the chosen check judges, ascending, and how they were computed
    when that is not the eigenvalues: with ``--tolerance gz``, gz-math's closed form (what
    libsdformat uses; near a double moment it differs from the eigenvalues by up to ~1e-8
    relative, and it ignores products of inertia below 1e-6 of the largest diagonal entry)."""
    moments = np.asarray(ctx.principal_moments, dtype=float)
    if ctx.document.tolerance != "gz":
        return moments, ""
    gz = np.sort(np.asarray(ctx.gz_principal_moments, dtype=float))
    if fmt_vec(gz) == fmt_vec(moments):
        return gz, ""
    return gz, (f" (as gz-math computes them for libsdformat's check; the eigenvalues are "
                f"{fmt_vec(moments)})")


@link_rule("GZI103")
def inertia_not_psd(ctx: LinkContext) -> Iterator[Finding]:
    """GZI103 inertia-not-psd: ``I_BBcm_I`` not positive semi-definite (to the tolerance)."""
    inertial = ctx.link.inertial
    if not ctx.written_inertia or inertial.inertia_defaulted or ctx.inertia_is_psd:
        return
    moments = ctx.principal_moments
    where = inertial.inertia_source or inertial.source or ctx.where
    if not np.all(np.isfinite(moments)):
        message = "<inertia> holds a value that is not a finite number"
        values: dict[str, object] = {"I_BBcm_I": inertial.I_BBcm_I}
    else:
        judged, how = _judged_moments(ctx)
        minors = "" if judged[0] < -ctx.inertia_tolerance else (
            " (libsdformat's check: a leading principal minor of the matrix is below -ε)"
        )
        message = (
            f"<inertia> is not positive semi-definite: principal moments {fmt_vec(judged)} "
            f"kg·m²{how}, the smallest below -ε = {fmt(-ctx.inertia_tolerance)} "
            f"({_tolerance_name(ctx)}){minors}; "
            "libsdformat reports the link's inertia as invalid and Drake refuses it. Products of "
            "inertia are tensor entries (ixy = -∫xy dm): check their signs and units"
        )
        values = {
            "principal_moments": moments,
            "tolerance": ctx.inertia_tolerance,
            "I_BBcm_I": inertial.I_BBcm_I,
        }
    yield finding("GZI103", where, ctx.name, message, values)


@link_rule("GZI104")
def inertia_triangle(ctx: LinkContext) -> Iterator[Finding]:
    """GZI104 inertia-triangle-inequality: principal moments no rigid body has."""
    inertial = ctx.link.inertial
    if not ctx.written_inertia or inertial.inertia_defaulted or not ctx.inertia_is_psd:
        return
    if ctx.inertia_is_valid:
        return
    moments, how = _judged_moments(ctx)
    margin = triangle_margin(moments)
    message = (
        f"principal moments {fmt_vec(moments)} kg·m²{how} violate the triangle inequality: "
        f"λ₁ + λ₂ - λ₃ = {fmt(margin)} kg·m² < -ε = {fmt(-ctx.inertia_tolerance)} "
        f"({_tolerance_name(ctx)}); no rigid body has these moments (each is a sum of two "
        "second moments of mass), libsdformat reports the inertia as invalid and Drake refuses it; "
        "recompute <inertia> from the link's geometry and mass"
    )
    values = {"principal_moments": moments, "margin": margin, "tolerance": ctx.inertia_tolerance}
    yield finding("GZI104", inertial.inertia_source or inertial.source or ctx.where, ctx.name,
                  message, values)


def _judgeable(ctx: LinkContext) -> bool:
    """Written inertia and positive mass of a moving link: what the plausibility rules judge."""
    inertial = ctx.link.inertial
    return (
        ctx.written_inertia
        and ctx.moves
        and not inertial.inertia_defaulted
        and ctx.mass_is_positive
    )


def _plausibility_applies(ctx: LinkContext) -> bool:
    """:func:`_judgeable`, with geometry to judge by (collisions, else visuals)."""
    return _judgeable(ctx) and ctx.judged_geometry is not None


def _judged_by(shapes: str, note: str | None = None) -> str:
    """The words naming the geometry a plausibility finding used, and what the geometry
    pipeline did to it (``note``: :attr:`gzinertia.physics.shapes.SolidProperties.approximation`,
    a repair, a union, a convex hull)."""
    said = f" (geometry: {note})" if note else ""
    if shapes == "visuals":
        return ("its visual geometry (the link has no <collision>: judged from its visuals)"
                + said)
    return "the collision geometry" + said


@link_rule("GZI105")
def inertia_implausible(ctx: LinkContext) -> Iterator[Finding]:
    """GZI105 inertia-implausible-for-geometry: radius of gyration far from the geometry's."""
    if not _plausibility_applies(ctx) or not ctx.inertia_is_valid:
        return
    assert ctx.judged_geometry is not None
    solid, shapes = ctx.judged_geometry
    inertial = ctx.link.inertial
    m, V = inertial.mass, solid.volume
    I_over_m, G_over_V = inertial.I_BBcm_B / m, np.asarray(solid.G_FFc_F) / V
    if gyration_factors_within(I_over_m, G_over_V, GYRATION_FACTOR):
        return  # (the common case, without LAPACK: only a finding needs the factors)
    f_min, f_max = gyration_factors(I_over_m, G_over_V)
    if f_min >= 1.0 / GYRATION_FACTOR and f_max <= GYRATION_FACTOR:
        return
    factor = f_max if f_max * f_min > 1.0 else f_min
    box_rigid = np.sort(equivalent_box_half_sizes(m, ctx.principal_moments))[::-1]
    G_moments = np.linalg.eigvalsh(np.asarray(solid.G_FFc_F))
    box_solid = np.sort(equivalent_box_half_sizes(V, G_moments))[::-1]
    how = "larger" if factor > 1.0 else "smaller"
    message = (
        f"the inertia's radius of gyration is {fmt(factor)}× {how} about some axis than that of "
        f"a uniform solid filling {_judged_by(shapes, solid.approximation)} "
        f"(range {fmt(f_min)}–{fmt(f_max)}×): "
        f"its equivalent inertia box has half-sizes {fmt_vec(box_rigid)} m for {fmt(m)} kg, the "
        f"{shapes}' {fmt_vec(box_solid)} m; check <inertia> units (kg·m²) and values, or "
        f"whether the {shapes} stand for the body" + plot_hint(ctx.link.source.file, ctx.name)
    )
    values = {
        "factor": factor,
        "factor_min": f_min,
        "factor_max": f_max,
        "box_half_sizes_inertia": box_rigid,
        f"box_half_sizes_{shapes}": box_solid,
        "mass": m,
        f"{shapes[:-1]}_volume": V,
        "geometry": shapes,
        "geometry_note": solid.approximation,
    }
    where = inertial.inertia_source or inertial.source or ctx.where
    yield finding("GZI105", where, ctx.name, message, values)


def _unjudged_reason(ctx: LinkContext) -> str | None:
    """Why GZI105 and GZI106 cannot judge a moving link with written mass and inertia: it has
    no collision and no usable visual (``None`` when they can, or the link is not theirs)."""
    link = ctx.link
    if link.collisions or not _judgeable(ctx) or ctx.judged_geometry is not None:
        return None
    if link.unread_visuals:
        return f"its visuals could not all be read ({link.unread_visuals[0]})"
    if link.visuals:
        return "its visuals enclose no volume to speak of (below 1 mm³, or none computable)"
    return "no <visual> either"


@document_rule("GZI113")
def inertia_not_judged(doc: DocumentContext) -> Iterator[Finding]:
    """GZI113 inertia-not-judged: moving links with no collision and no usable visual, so
    GZI105 and GZI106 have nothing to compare their mass and inertia with; one finding per
    top-level model, at the heaviest such link, naming them all."""
    by_model: dict[str, list[tuple[LinkContext, str]]] = {}
    for ctx in doc.links:
        why = _unjudged_reason(ctx)
        if why is not None:
            by_model.setdefault(ctx.top_model, []).append((ctx, why))
    for group in by_model.values():
        anchor, why = max(group, key=lambda item: item[0].link.inertial.mass)
        names = [ctx.name for ctx, _ in group]
        what: Message | str
        if len(group) == 1:
            what = f"its mass and inertia were not judged: the link has no <collision> and {why}"
        else:
            what = (f"the mass and inertia of {len(group)} links of model "
                    f"{anchor.top_model!r} were not judged (" + link_list(names, anchor.name, 6)
                    + "): none has a <collision> "
                    f"or a usable visual (this one, the heaviest: {why})")
        message = what + (
            ", so nothing says whether <mass> and <inertia> fit the body (GZI105, "
            "GZI106); give the link its geometry, or check the numbers by hand"
        )
        inertial = anchor.link.inertial
        values = {"links": names, "masses": [ctx.link.inertial.mass for ctx, _ in group]}
        yield finding("GZI113", inertial.source or anchor.where, anchor.name, message, values)


@link_rule("GZI106")
def mass_implausible(ctx: LinkContext) -> Iterator[Finding]:
    """GZI106 mass-implausible-for-volume: a mean density outside any real material's."""
    if not _plausibility_applies(ctx):
        return
    assert ctx.judged_geometry is not None
    solid, shapes = ctx.judged_geometry
    m, V = ctx.link.inertial.mass, solid.volume
    rho = m / V
    lo, hi = DENSITY_RANGE
    if lo <= rho <= hi:
        return
    why = "lighter than a helium-filled envelope" if rho < lo else "denser than osmium"
    message = (
        f"<mass> {fmt(m)} kg in a {shapes[:-1]} volume of {fmt(V)} m³ is a mean density of "
        f"{fmt(rho)} kg/m³ ({why}; plausible {fmt(lo)}–{fmt(hi)} kg/m³); check the mass units "
        f"(kg), mesh <scale> and whether the {shapes} stand for the body"
        + ("" if shapes == "collisions" else " (the link has no <collision>: judged from its "
           "visuals)")
        + (f" (geometry: {solid.approximation})" if solid.approximation else "")
    )
    values = {"mass": m, f"{shapes[:-1]}_volume": V, "density": rho,
              "range": list(DENSITY_RANGE), "geometry": shapes,
              "geometry_note": solid.approximation}
    inertial = ctx.link.inertial
    yield finding("GZI106", inertial.mass_source or inertial.source or ctx.where, ctx.name,
                  message, values)


@link_rule("GZI107")
def com_outside(ctx: LinkContext) -> Iterator[Finding]:
    """GZI107 com-outside-collisions: ``p_BoBcm_B`` outside the collisions' bounding box."""
    if not _plausibility_applies(ctx):
        return
    if ctx.certainly_inside_bounding_box(ctx.link.inertial.p_BoBcm_B):
        return  # (the common case, without building the box: distance 0)
    box = ctx.bounding_box
    if box is None:
        return
    lo, hi = box
    c = np.asarray(ctx.link.inertial.p_BoBcm_B, dtype=float)
    outside = np.maximum(np.maximum(lo - c, c - hi), 0.0)
    distance = float(np.linalg.norm(outside))
    diagonal = float(np.linalg.norm(hi - lo))
    if distance <= BOX_MARGIN * diagonal:
        return
    message = (
        f"the centre of mass {fmt_vec(c)} m (link frame) is {fmt(distance)} m outside the "
        f"collisions' bounding box {fmt_vec(lo)}–{fmt_vec(hi)} m; <inertial><pose> is relative to "
        "the link frame (not to a collision or visual): check its position and sign"
        + plot_hint(ctx.link.source.file, ctx.name)
    )
    values = {"p_BoBcm_B": c, "box_min": lo, "box_max": hi, "distance": distance}
    inertial = ctx.link.inertial
    yield finding("GZI107", inertial.source or ctx.where, ctx.name, message, values)


@link_rule("GZI108")
def inertial_relative_to(ctx: LinkContext) -> Iterator[Finding]:
    """GZI108 inertial-pose-relative-to: ``<inertial><pose relative_to>``, ignored since 1.8."""
    for note in ctx.notes_with("inertial-relative-to"):
        message = (
            f"{note.message}; Drake refuses the attribute. Express the pose in the link frame "
            "and remove relative_to"
        )
        yield finding("GZI108", note.source, ctx.name, message, {})


@link_rule("GZI109")
def inertia_not_parsed(ctx: LinkContext) -> Iterator[Finding]:
    """GZI109 inertia-not-parsed: ``<inertia>`` without the spec's children (defaults apply)."""
    inertial = ctx.link.inertial
    if not inertial.inertia_defaulted:
        return
    where = inertial.inertia_source or inertial.source or ctx.where
    attributes = next(
        (n.data.get("attributes", "") for n in ctx.notes_with("inertia-defaulted")
         if n.source.line == where.line),
        "",
    )
    detail = "<inertia> has none of <ixx>..<izz>" + (
        f" (attributes {attributes} are URDF style and not read)" if attributes else ""
    )
    message = (
        f"{detail}, so the spec's defaults apply: the link simulates with ixx = iyy = izz = "
        f"1 kg·m² for {fmt(inertial.mass)} kg; "
        "write the six values as child elements <ixx>…</ixx> … <izz>…</izz>"
    )
    yield finding("GZI109", where, ctx.name, message, {"mass": inertial.mass})


@link_rule("GZI112")
def mass_not_parsed(ctx: LinkContext) -> Iterator[Finding]:
    """GZI112 mass-not-parsed: ``<mass>`` without text (libsdformat's default 1 kg applies)."""
    for note in ctx.notes_with("mass-defaulted"):
        attributes = note.data.get("attributes", "")
        written = note.data.get("value")
        said = (f"its value attribute says {written} kg" if written is not None
                else f"its attributes {attributes} are not read" if attributes
                else "the element is empty")
        message = (
            f"<mass> has no text, so libsdformat reads the spec's default, 1 kg ({said}): the "
            f"link simulates with 1 kg and the written inertia, which was probably computed "
            f"for another mass; write the mass as the element's text, <mass>"
            f"{written if written is not None else 'M'}</mass>, and check <inertia> against it"
        )
        yield finding("GZI112", note.source, ctx.name, message,
                      {"mass": ctx.link.inertial.mass, "attribute_mass": written})


@link_rule("GZI110")
def inertial_duplicate_pose(ctx: LinkContext) -> Iterator[Finding]:
    """GZI110 inertial-duplicate-pose: more than one ``<pose>`` in ``<inertial>``."""
    for note in ctx.notes_with("duplicate-pose"):
        p = ctx.link.inertial.p_BoBcm_B
        message = (
            f"{note.message} (centre of mass {fmt_vec(p)} m); delete the pose you did not mean"
        )
        yield finding("GZI110", note.source, ctx.name, message, {"p_BoBcm_B": p})


@link_rule("GZI111")
def auto_inertial_failed(ctx: LinkContext) -> Iterator[Finding]:
    """GZI111 auto-inertial-failed: ``<inertial auto="true">`` cannot be computed."""
    for code in ("auto-inertial-collision", "auto-inertial-no-collisions"):
        for note in ctx.notes_with(code):
            yield finding("GZI111", note.source, ctx.name, note.message, {})
