"""What ``gzinertia fix`` writes for one link (:class:`RepairPlan`, made by :func:`plan_repair`):
the new ``I_BBcm_I`` (about the centre of mass, in the inertial frame's axes), mass and centre of
mass, as the SDF and URDF repairs both write them, and the audit's codes per link that decide
which links are repaired (:func:`fix_findings`).

:func:`fix_findings` is the edits' one way into the audit (the whole audit, as ``gzinertia
audit`` runs it, on a document in memory): a repair is chosen by the audit's findings before
and judged by them after, so ``fix`` then ``audit`` never disagree. Taking the findings as an
argument instead would not do: the repair loop re-audits what it wrote."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from lxml import etree

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.runner import check_document
from gzinertia.edit.fix_options import (
    INERTIA_DEFAULT,
    INERTIA_TAGS,
    FixOptions,
    LinkFix,
)
from gzinertia.errors import GzInertiaError
from gzinertia.numbers import c_double
from gzinertia.physics.gz_math_inertia import gz_is_valid
from gzinertia.physics.inertia_repair import (
    RepairError,
    balanced_inertia,
    geometry_inertia_change,
    moments_margin,
    nearest_valid_inertia,
    solid_inertia,
    validity_margin,
)
from gzinertia.physics.link_union import link_solid
from gzinertia.physics.shapes import ShapeError, collision_solid
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, LinkRecord, SdfDocument
from gzinertia.sdf.visuals import link_visuals
from gzinertia.sdf.xml import child
from gzinertia.spatial.rotation import Mat3, Vec3
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = [
    "RepairPlan",
    "fix_findings",
    "format_value",
    "inertia_attributes",
    "plan_repair",
    "visual_shapes",
    "written_inertia",
]


def format_value(x: float) -> str:
    """The shortest text that reads back as exactly ``x`` (``0`` for zeros)."""
    if x == 0.0:
        return "0"
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def written_inertia(I_target: Mat3, I_old: Mat3) -> Mat3:
    """``I_target`` as it will be written: each entry rounded to the fewest of 10, 12, 14 or 16
    significant digits (17, exact, as the last resort) that keep it as valid as the target,
    i.e. ``min(λ_i, λ_i + λ_j - λ_k)`` at least half of ``min(target's, ε)`` (ε the repair's
    margin, :func:`~gzinertia.physics.inertia_repair.validity_margin`) and that libsdformat's
    own check (:func:`~gzinertia.physics.gz_math_inertia.gz_is_valid`) accepts: readable
    numbers, and a read-back that Drake and libsdformat accept. Entries equal to the written
    ones stay as written (a re-run changes nothing)."""
    I_target = 0.5 * (I_target + I_target.T)
    lam = np.linalg.eigvalsh(I_target)
    target = moments_margin(lam)
    need = 0.5 * min(target, validity_margin(lam))
    same = I_target == I_old
    if target > 0.0:
        for digits in (10, 12, 14, 16):
            rounded = np.array([[float(f"{x:.{digits}g}") for x in row] for row in I_target])
            rounded = np.where(same, I_old, rounded)
            if np.all(np.isfinite(rounded)) and moments_margin(
                np.linalg.eigvalsh(rounded)
            ) >= need and gz_is_valid(1.0, rounded):
                return np.asarray(rounded, dtype=float)
    return I_target


def fix_findings(doc: SdfDocument, options: FixOptions) -> dict[str, set[str]]:
    """Codes per link, every rule, as the audit reports them (with ``options.tolerance``)."""
    config = AuditConfig(tolerance=options.tolerance)
    found: dict[str, set[str]] = {}
    for f in check_document(doc, config):
        if f.link is not None:
            found.setdefault(f.link, set()).add(f.code)
    return found


def visual_shapes(link: LinkRecord) -> tuple[Collision, ...]:
    """The link's ``<visual>`` shapes posed in the link frame (read with its collisions:
    :func:`gzinertia.sdf.visuals.link_visuals`, ``relative_to`` resolved as libsdformat does);
    a :class:`RepairError` naming the first that cannot be read: an inertia computed with a
    part of the body missing would be wrong."""
    visuals, skipped = link_visuals(link)
    if skipped:
        more = f" (and {skipped - 1} more)" if skipped > 1 else ""
        raise RepairError(f"{link.unread_visuals[0]}{more}")
    return tuple(visuals)


def _solid(
    link: LinkRecord, shapes: tuple[Collision, ...] | None = None
) -> tuple[float, Vec3, Mat3, str | None]:
    """``(V, p_BoBc_B, G_BBc_B, note)`` of the union of the link's collisions (or of
    ``shapes``, its visuals), overlaps counted once: the body the geometry pipeline makes of
    them (:func:`gzinertia.physics.link_union.link_solid`; a mesh file's own closed pieces are
    united too: :mod:`gzinertia.physics.mesh_body`); the note says what the pipeline did
    (shapes united, a mesh repaired or replaced by a hull; ``None``: nothing). A link without
    shapes is a :class:`RepairError` (not repaired, said); a shape that cannot be computed (too
    large, a degenerate or unreadable mesh, a mesh over the caps) is the input's fault: a
    :class:`GzInertiaError` naming the file, the link and the shape (exit status 2, nothing
    written)."""
    what = "<collision>" if shapes is None else "<visual>"
    shapes = link.collisions if shapes is None else shapes
    if not shapes:
        raise RepairError(f"it has no {what} to compute the inertia from")
    for c in shapes:
        try:
            collision_solid(c)
        except ShapeError as exc:
            raise GzInertiaError(
                f"{c.source}: link {link.name!r}: {what[1:-1]} {c.name!r}: {exc}; nothing written"
            ) from None
    try:
        solid = link_solid(shapes)
    except ShapeError:  # no volume between them, or their union's moment overflows
        solid = None
    if solid is None or not solid.volume > 0.0:
        raise GzInertiaError(
            f"{link.source}: link {link.name!r}: its {what[1:-1]}s enclose no finite volume; "
            "nothing written"
        )
    return (solid.volume, np.asarray(solid.p_FoFc_F, float), np.asarray(solid.G_FFc_F, float),
            solid.approximation)


@dataclass(frozen=True, repr=False, eq=False)
class RepairPlan(ValueRecord):
    """What to write for one link: the repair (``fix``), ``I_BBcm_I`` as written (about Bcm in
    I axes), whether the pose's position (the centre of mass) is written too."""

    link: LinkRecord
    fix: LinkFix
    I_BBcm_I: Mat3
    write_pose: bool
    #: Rewrite the whole ``<inertia>`` element (GZI109: its values were attributes or absent).
    replace_inertia: bool = False


def inertia_attributes(link_elem: etree._Element) -> dict[str, float] | None:
    """URDF-style ``<inertia ixx="..." .../>`` values (SDFormat reads none of them: GZI109),
    or ``None`` when there are none or one is not a number."""
    inertial = child(link_elem, "inertial")
    inertia = None if inertial is None else child(inertial, "inertia")
    if inertia is None:
        return None
    values = {}
    for tag in INERTIA_TAGS:
        text = inertia.get(tag)
        if text is not None:
            value = c_double(text.strip())
            if value is None or not math.isfinite(value):
                return None
            values[tag] = value
    return values or None


def _matrix_of(values: dict[str, float]) -> Mat3:
    """The symmetric matrix of the six values (the spec's defaults for missing ones)."""
    v = {**INERTIA_DEFAULT, **values}
    return np.array(
        [[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
         [v["ixz"], v["iyz"], v["izz"]]]
    )


def plan_repair(
    link: LinkRecord,
    codes: set[str],
    options: FixOptions,
    shapes: tuple[Collision, ...] | None = None,
    attributes: dict[str, float] | None = None,
) -> RepairPlan:
    """What to write for one link (:class:`RepairError` saying why not)."""
    inertial = link.inertial
    p_before = np.asarray(inertial.p_BoBcm_B, dtype=float)
    if inertial.auto:
        raise RepairError('it has <inertial auto="true">: libsdformat computes it')
    if inertial.inertia_defaulted:
        if "GZI109" not in codes:
            raise RepairError("its <inertia> has no child elements (GZI109): write them first")
        if options.method != "geometry":
            if attributes is None:
                raise RepairError(
                    "its <inertia> holds no values (GZI109): use --method geometry"
                )
            # what the author wrote, URDF-style, as the child elements SDFormat reads
            written = _matrix_of(attributes)
            repair = geometry_inertia_change(inertial.I_BBcm_I, written)
            repair = replace(repair, method="transcribed")
            fix = LinkFix(link.name, tuple(sorted(codes)), repair, inertial.mass, inertial.mass,
                          p_before, p_before)
            return RepairPlan(link, fix, written, False, replace_inertia=True)
    if inertial.defaulted:
        if options.method != "geometry":
            raise RepairError("it has no <inertial> (GZI102): use --method geometry")
        if options.density is None and options.mass is None:
            raise RepairError("it has no <inertial> (GZI102): give --density or --mass")
        V, centroid, G, note = _solid(link, shapes)
        mass = options.mass if options.mass is not None else float(options.density or 0.0) * V
        I_B = solid_inertia(mass, V, G)
        repair = geometry_inertia_change(inertial.I_BBcm_I, I_B)
        fix = LinkFix(
            link.name, tuple(sorted(codes)), repair, inertial.mass, mass, p_before, centroid,
            centroid, inserted=True, shapes="collisions" if shapes is None else "visuals",
            geometry_note=note,
        )
        return RepairPlan(link, fix, written_inertia(I_B, np.full((3, 3), np.nan)), True)
    mass = inertial.mass
    R_BI = np.asarray(inertial.R_BI, dtype=float)
    if options.method != "geometry":
        repair = (nearest_valid_inertia if options.method == "nearest" else balanced_inertia)(
            inertial.I_BBcm_I
        )
        available: GeometryElement | None = (
            "collision" if link.collisions else "visual" if link.visuals else None
        )
        fix = LinkFix(link.name, tuple(sorted(codes)), repair, mass, mass, p_before, p_before,
                      geometry_available=available)
        return RepairPlan(link, fix, written_inertia(repair.I_after, inertial.I_BBcm_I), False)
    V, centroid, G, note = _solid(link, shapes)
    mass_before = mass
    if not (math.isfinite(mass) and mass > 0.0):
        if "GZI101" not in codes or (options.density is None and options.mass is None):
            raise RepairError(
                f"its <mass> is {mass!r}: a uniform solid needs a positive mass "
                "(GZI101: give --density or --mass)"
            )
        mass = options.mass if options.mass is not None else float(options.density or 0.0) * V
    I_B = solid_inertia(mass, V, G)
    I_I = R_BI.T @ I_B @ R_BI
    I_I = 0.5 * (I_I + I_I.T)
    repair = geometry_inertia_change(inertial.I_BBcm_I, I_I)
    p_after = centroid if options.move_com else p_before
    fix = LinkFix(
        link.name, tuple(sorted(codes)), repair, mass_before, mass, p_before, p_after, centroid,
        shapes="collisions" if shapes is None else "visuals", geometry_note=note,
    )
    return RepairPlan(
        link,
        fix,
        written_inertia(I_I, inertial.I_BBcm_I),
        options.move_com,
        replace_inertia=inertial.inertia_defaulted,
    )

