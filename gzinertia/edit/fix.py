"""``gzinertia fix``: repair invalid and implausible rigid inertia with a minimal diff.

For each link the audit flags with a code the chosen method repairs (or every selected link
with ``all_links``), compute a new ``I_BBcm_I`` (:mod:`gzinertia.physics.inertia_repair`) and
write only the ``<inertia>`` children whose value changes; ``<pose>`` (the centre of mass) only
with ``move_com``; a whole ``<inertial>`` only for a link that has none (GZI102).

Values are written with the fewest digits that read back as the very same double (Python's
``repr``): what the tool checked is what the file holds, so a repair that sits just inside the
validity margin stays inside it after a round trip.

Every result is re-read and re-audited before it is returned: each repaired link must read back
what was meant, every other link exactly as before, and no repaired link may gain a finding it
did not have (the tool never contradicts itself). A repair that would add one (say, the nearest
valid inertia is implausible for the geometry: GZI105) is withdrawn and reported as skipped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np
from lxml import etree

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import link_element, require_finite, same_file
from gzinertia.edit.session import FileEdit
from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.gz_math_inertia import gz_is_valid
from gzinertia.physics.inertia_repair import (
    InertiaRepair,
    RepairError,
    balanced_inertia,
    geometry_inertia_change,
    moments_margin,
    nearest_valid_inertia,
    solid_inertia,
    validity_margin,
)
from gzinertia.physics.rotation import Mat3, Vec3
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, LinkRecord, SdfDocument
from gzinertia.sdf import read_sdf_bytes
from gzinertia.sdf.xml import child, children
from gzinertia.selection import select_links

Method = Literal["nearest", "geometry", "balance"]
METHODS: tuple[Method, ...] = ("nearest", "geometry", "balance")
#: Which of a link's geometry ``--method geometry`` uses.
ShapeSource = Literal["collision", "visual"]
SHAPE_SOURCES: tuple[ShapeSource, ...] = ("collision", "visual")

#: The codes each method repairs. GZI101 (mass not positive) and GZI102 (no ``<inertial>``)
#: need a density or a mass; GZI107 (centre of mass outside the geometry) needs ``move_com``;
#: GZI109 (URDF-style ``<inertia ixx=".."/>`` attributes, which SDFormat ignores) is repaired
#: by writing those values as child elements (``geometry``: the solid's values instead).
FIXABLE: dict[Method, tuple[str, ...]] = {
    "nearest": ("GZI103", "GZI104", "GZI109"),
    "balance": ("GZI104", "GZI109"),
    "geometry": ("GZI101", "GZI102", "GZI103", "GZI104", "GZI105", "GZI107", "GZI109"),
}

#: ``audit --fix`` applies a nearest-valid repair only when no principal moment moves by more
#: than this fraction of the largest one: round-off and near misses (values written with a few
#: significant digits). Larger changes mean the inertia is wrong, not rounded: a judgement.
SAFE_RELATIVE_CHANGE = 1e-3

INERTIA_TAGS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
_INDEX = {"ixx": (0, 0), "ixy": (0, 1), "ixz": (0, 2), "iyy": (1, 1), "iyz": (1, 2), "izz": (2, 2)}
_DEFAULT = {"ixx": 1.0, "iyy": 1.0, "izz": 1.0, "ixy": 0.0, "ixz": 0.0, "iyz": 0.0}


@dataclass(frozen=True, repr=False, eq=False)
class FixOptions(ValueRecord):
    """What the user asked for (see ``gzinertia fix --help``)."""

    method: Method = "nearest"
    pattern: str | None = None
    select: tuple[str, ...] = ()
    all_links: bool = False
    #: Which of the link's geometries stands for the body: its collisions or its visuals.
    geometry: ShapeSource = "collision"
    move_com: bool = False
    density: float | None = None
    mass: float | None = None
    tolerance: Literal["gz", "drake"] = "gz"
    #: Only repairs within :data:`SAFE_RELATIVE_CHANGE` (``audit --fix``).
    safe_only: bool = False

    def codes(self) -> tuple[str, ...]:
        """The codes this run repairs: ``select`` (codes or prefixes) among the method's."""
        own = FIXABLE[self.method]
        if not self.select:
            return own
        return tuple(c for c in own if any(c.startswith(s) for s in self.select))

    def validate(self) -> None:
        """Refuses settings that do not go together (:class:`FixOptionsError`, spelled as the
        caller's interface spells them: :func:`gzinertia.options.option`): an unknown method,
        geometry or tolerance; both a density and a mass, or either not a positive number;
        the geometry method's settings with another method; a selection of codes the method
        does not repair."""
        choices = ((self.method, "method", METHODS), (self.geometry, "geometry", SHAPE_SOURCES),
                   (self.tolerance, "tolerance", ("gz", "drake")))
        for value, key, allowed in choices:
            if value not in allowed:
                raise FixOptionsError(
                    f"{option(key)} must be one of {', '.join(allowed)}, not {value!r}"
                )
        if self.density is not None and self.mass is not None:
            raise FixOptionsError(f"give either {option('density')} or {option('mass')}, not both")
        for number, key, unit in ((self.density, "density", "kg/m^3"), (self.mass, "mass", "kg")):
            if number is not None and not (math.isfinite(number) and number > 0.0):
                raise FixOptionsError(
                    f"{option(key)} must be a positive number of {unit}, not {number!r}"
                )
        geometry_only = (self.density is not None or self.mass is not None or self.move_com
                         or self.geometry != "collision")
        if geometry_only and self.method != "geometry":
            raise FixOptionsError(
                f"{option('fix_geometry_only')} go with {option('method_geometry')}"
            )
        if not self.codes() and not self.all_links:
            raise FixOptionsError(
                f"{option('select')} {','.join(self.select)}: {option('method')} {self.method} "
                f"repairs {', '.join(FIXABLE[self.method])} only"
            )


class FixOptionsError(GzInertiaError, ValueError):
    """Settings of a repair that do not go together (:meth:`FixOptions.validate`)."""


@dataclass(frozen=True, repr=False, eq=False)
class LinkFix(ValueRecord):
    """One repaired link: the inertia change (``repair``, in I axes), the mass, the centre of
    mass before and after (``p_BoBcm_B``, m) and, for geometry, the geometry's centroid."""

    link: str
    codes: tuple[str, ...]
    repair: InertiaRepair
    mass_before: float
    mass_after: float
    p_before: Vec3
    p_after: Vec3
    centroid: Vec3 | None = None
    inserted: bool = False
    #: What the geometry method filled: ``"collisions"`` or ``"visuals"``.
    shapes: str = "collisions"
    #: Which geometry ``--method geometry`` could use for a link another method repaired:
    #: ``"collision"``, ``"visual"`` (it has visuals only) or ``None`` (it has none).
    geometry_available: ShapeSource | None = None
    #: What the geometry pipeline did to the shapes (pieces united, repairs, a convex hull:
    #: :attr:`gzinertia.physics.mesh_body.MeshBody.note`), ``None`` when nothing.
    geometry_note: str | None = None

    @property
    def com_move(self) -> float:
        """How far the centre of mass moved (m): ``|p_after - p_before|``."""
        return float(np.linalg.norm(self.p_after - self.p_before))

    @property
    def com_offset(self) -> float | None:
        """Distance from the written centre of mass to the geometry's centroid (m)."""
        if self.centroid is None:
            return None
        return float(np.linalg.norm(self.centroid - self.p_after))


# duplicates: the result dataclasses of the edits (path, old, new, ...) are alike by shape only
@dataclass(frozen=True, repr=False, eq=False)
class FixResult(ValueRecord):
    """The file's old and new bytes, the repaired links, and the links skipped and why."""

    path: Path
    old: bytes
    new: bytes
    fixed: tuple[LinkFix, ...]
    skipped: tuple[str, ...] = field(default_factory=tuple)
    #: Repairs that could not be written (a xacro value that is not a literal number, a link
    #: made by a macro): where to write which value. The command then exits 1.
    pending: tuple[str, ...] = field(default_factory=tuple)


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


def _findings(doc: SdfDocument, options: FixOptions) -> dict[str, set[str]]:
    """Codes per link, every rule, as the audit reports them (with ``options.tolerance``)."""
    from gzinertia.audit.config import AuditConfig
    from gzinertia.audit.runner import check_document

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
    from gzinertia.sdf.visuals import link_visuals

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
    from gzinertia.physics.link_union import link_solid
    from gzinertia.physics.shapes import ShapeError, collision_solid

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
class _Plan(ValueRecord):
    link: LinkRecord
    fix: LinkFix
    I_BBcm_I: Mat3
    write_pose: bool
    #: Rewrite the whole ``<inertia>`` element (GZI109: its values were attributes or absent).
    replace_inertia: bool = False


def inertia_attributes(link_elem: etree._Element) -> dict[str, float] | None:
    """URDF-style ``<inertia ixx="..." .../>`` values (SDFormat reads none of them: GZI109),
    or ``None`` when there are none or one is not a number."""
    from gzinertia.numbers import c_double

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
    v = {**_DEFAULT, **values}
    return np.array(
        [[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
         [v["ixz"], v["iyz"], v["izz"]]]
    )


def _plan(
    link: LinkRecord,
    codes: set[str],
    options: FixOptions,
    shapes: tuple[Collision, ...] | None = None,
    attributes: dict[str, float] | None = None,
) -> _Plan:
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
            return _Plan(link, fix, written, False, replace_inertia=True)
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
        return _Plan(link, fix, written_inertia(I_B, np.full((3, 3), np.nan)), True)
    mass = inertial.mass
    R_BI = np.asarray(inertial.R_BI, dtype=float)
    if options.method != "geometry":
        repair = (nearest_valid_inertia if options.method == "nearest" else balanced_inertia)(
            inertial.I_BBcm_I
        )
        available: ShapeSource | None = (
            "collision" if link.collisions else "visual" if link.visuals else None
        )
        fix = LinkFix(link.name, tuple(sorted(codes)), repair, mass, mass, p_before, p_before,
                      geometry_available=available)
        return _Plan(link, fix, written_inertia(repair.I_after, inertial.I_BBcm_I), False)
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
    return _Plan(
        link,
        fix,
        written_inertia(I_I, inertial.I_BBcm_I),
        options.move_com,
        replace_inertia=inertial.inertia_defaulted,
    )


def _old_value(elem: etree._Element | None, tag: str) -> float | None:
    from gzinertia.numbers import c_double

    if elem is None:
        return _DEFAULT[tag]
    return c_double((elem.text or "").strip())


def _write(editor: XmlEditor, plan: _Plan) -> None:
    """The plan's edits: changed ``<inertia>`` children, the pose's position, or a new
    ``<inertial>``."""
    link_elem = link_element(editor, plan.link)
    I = plan.I_BBcm_I
    values = {tag: float(I[_INDEX[tag]]) for tag in INERTIA_TAGS}
    require_finite(editor, link_elem, "<inertia>", list(values.values()))
    require_finite(editor, link_elem, "<pose>", plan.fix.p_after.tolist())
    if plan.fix.inserted:
        unit = editor.indent_unit.decode()
        p = " ".join(format_value(float(v)) for v in plan.fix.p_after)
        lines = [
            "<inertial>",
            f"{unit}<pose>{p} 0 0 0</pose>",
            f"{unit}<mass>{format_value(plan.fix.mass_after)}</mass>",
            f"{unit}<inertia>",
            *(f"{unit}{unit}<{t}>{format_value(values[t])}</{t}>" for t in INERTIA_TAGS),
            f"{unit}</inertia>",
            "</inertial>",
        ]
        editor.append_child_lines(link_elem, lines)
        return
    inertial = child(link_elem, "inertial")
    assert inertial is not None
    inertia = child(inertial, "inertia")
    if inertia is not None and plan.replace_inertia:
        unit = editor.indent_unit.decode()
        editor.replace_element(
            inertia,
            ["<inertia>", *(f"{unit}<{t}>{format_value(values[t])}</{t}>" for t in INERTIA_TAGS),
             "</inertia>"],
        )
    elif inertia is None:
        unit = editor.indent_unit.decode()
        editor.append_child_lines(
            inertial,
            ["<inertia>", *(f"{unit}<{t}>{format_value(values[t])}</{t}>" for t in INERTIA_TAGS),
             "</inertia>"],
        )
    else:
        changed = {}
        for tag in INERTIA_TAGS:
            elem = child(inertia, tag)
            if _old_value(elem, tag) != values[tag]:
                changed[tag] = format_value(values[tag])
        if changed:
            editor.set_children_text(inertia, changed)
    if plan.fix.mass_after != plan.fix.mass_before:
        require_finite(editor, link_elem, "<mass>", [plan.fix.mass_after])
        editor.set_children_text(inertial, {"mass": format_value(plan.fix.mass_after)})
    if plan.write_pose and not np.array_equal(plan.fix.p_after, plan.fix.p_before):
        poses = children(inertial, "pose")
        xyz = [format_value(float(v)) for v in plan.fix.p_after]
        if not poses:
            editor.append_child_lines(inertial, [f"<pose>{' '.join(xyz)} 0 0 0</pose>"])
        else:
            tokens = (poses[0].text or "").split()
            rest = tokens[3:] if len(tokens) >= 3 else ["0", "0", "0"]
            editor.set_text(poses[0], " ".join([*xyz, *rest]))


def _changes_nothing(plan: _Plan) -> bool:
    """The plan writes the values the link already has."""
    fix, inertial = plan.fix, plan.link.inertial
    return (
        not fix.inserted
        and fix.mass_after == fix.mass_before
        and (not plan.write_pose or np.array_equal(fix.p_after, fix.p_before))
        and np.array_equal(plan.I_BBcm_I, np.asarray(inertial.I_BBcm_I, dtype=float))
    )


def _check_pose_editable(link_elem: etree._Element) -> None:
    inertial = child(link_elem, "inertial")
    poses = [] if inertial is None else children(inertial, "pose")
    if len(poses) > 1:
        raise RepairError("its <inertial> has two <pose> elements (GZI110): remove one first")
    if poses and poses[0].get("relative_to") is not None:
        raise RepairError("its <inertial><pose> has relative_to (GZI108): remove it first")


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    scale = max(float(np.max(np.abs(b))), 1e-300)
    return bool(np.all(np.isfinite(a))) and float(np.max(np.abs(a - b))) <= 1e-14 * scale


def _verify(path: Path, before: SdfDocument, after: SdfDocument, plans: dict[str, _Plan]) -> None:
    """Each planned link reads back what was meant; every other link as before."""
    from gzinertia.edit.verify import _same_added_mass, _same_rigid

    if [lk.name for lk in after.links] != [lk.name for lk in before.links]:
        raise GzInertiaError(f"{path}: internal error: the edit changed the set of links")
    for old, new in zip(before.links, after.links, strict=True):
        plan = plans.get(old.name)
        if plan is None:
            ok = _same_rigid(old, new) and _same_added_mass(
                new.inertial.A_BBo_B, old.inertial.A_BBo_B, 0.0
            )
        else:
            ni = new.inertial
            ok = (
                np.array_equal(old.X_WB.matrix(), new.X_WB.matrix())
                and ni.mass == plan.fix.mass_after
                and _same(np.asarray(ni.p_BoBcm_B, float), plan.fix.p_after)
                and _same(np.asarray(ni.I_BBcm_I, float), plan.I_BBcm_I)
                and (plan.fix.inserted or np.array_equal(ni.R_BI, old.inertial.R_BI))
            )
        if not ok:
            raise GzInertiaError(
                f"{path}: internal error: link {old.name!r} does not read back as meant; "
                "nothing written"
            )


def fix(
    path: Path,
    options: FixOptions,
    model_paths: Sequence[str | Path],
    data: bytes | None = None,
) -> FixResult:
    """Repairs the selected links of ``path`` as ``options`` say (nothing is written here);
    ``data``: the file's bytes when they do not come from ``path`` (standard input, named
    ``<stdin>``: relative includes resolve against the working directory)."""
    options.validate()
    edit = FileEdit.open(path, model_paths, data)
    doc = edit.doc
    codes = set(options.codes())
    found = _findings(doc, options)
    plans: dict[str, _Plan] = {}
    skipped: list[str] = []
    for link in select_links(doc.links, options.pattern, str(path)):
        here = found.get(link.name, set()) & codes
        others = found.get(link.name, set()) & ({"GZI103", "GZI104"} - codes)
        if others and not options.select and not options.safe_only:
            skipped.append(
                f"{link.name}: {', '.join(sorted(others))} not repaired: --method "
                f"{options.method} repairs {', '.join(FIXABLE[options.method])}"
            )
        if "GZI107" in here and not options.move_com:
            here.discard("GZI107")
        if not here:
            if not options.all_links or link.inertial.auto:
                continue
            if link.inertial.defaulted and options.density is None and options.mass is None:
                continue
        if not same_file(link.source.file, path):
            skipped.append(f"{link.name}: defined in {link.source.file}; fix that file")
            continue
        try:
            if options.move_com and options.method == "geometry":
                _check_pose_editable(link_element(edit.editor, link))
            shapes = None
            if options.method == "geometry" and options.geometry == "visual":
                shapes = visual_shapes(link)
            attributes = None
            if link.inertial.inertia_defaulted:
                attributes = inertia_attributes(link_element(edit.editor, link))
            plan = _plan(link, here, options, shapes, attributes)
            if options.safe_only and np.max(np.abs(plan.fix.repair.relative_change)) > (
                SAFE_RELATIVE_CHANGE
            ):
                raise RepairError(
                    "the repair changes a principal moment by more than "
                    f"{SAFE_RELATIVE_CHANGE:g} of the largest: not a safe fix "
                    "(run gzinertia fix to apply it)"
                )
        except RepairError as exc:
            skipped.append(f"{link.name}: not repaired: {exc}")
            continue
        if _changes_nothing(plan):
            continue  # e.g. --all-links on a link an earlier run repaired
        plans[link.name] = plan

    editor = edit.editor
    while True:
        for plan in plans.values():
            _write(editor, plan)
        new = editor.result()
        if new == edit.old:
            return FixResult(path, edit.old, new, (), tuple(skipped))
        after = read_sdf_bytes(new, str(path), model_paths)
        _verify(path, doc, after, plans)
        found_after = _findings(after, options)
        withdrawn = [
            name for name, plan in plans.items()
            if found_after.get(name, set()) - (found.get(name, set()) - set(plan.fix.codes))
        ]
        if not withdrawn:
            fixed = tuple(p.fix for p in plans.values())
            return FixResult(path, edit.old, new, fixed, tuple(skipped))
        for name in withdrawn:
            kept = found.get(name, set()) - set(plans[name].fix.codes)
            added = sorted(found_after.get(name, set()) - kept)
            skipped.append(
                f"{name}: not repaired: after the {options.method} repair the audit would "
                f"report {', '.join(added)} on it ("
                + ("the written inertia is not a near miss: try --method geometry)"
                   if options.method != "geometry"
                   else "the collisions may not stand for the body)")
            )
            del plans[name]
        editor = XmlEditor(edit.old, str(path))
