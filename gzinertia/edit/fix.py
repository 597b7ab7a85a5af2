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

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from lxml import etree

from gzinertia.edit.edit_result import Edit
from gzinertia.edit.editor import XmlEditor

# The settings and the per-link record, imported from here by callers too (re-exported).
from gzinertia.edit.fix_options import FIXABLE, INERTIA_DEFAULT, INERTIA_INDEX, INERTIA_TAGS
from gzinertia.edit.fix_options import METHODS as METHODS
from gzinertia.edit.fix_options import SAFE_RELATIVE_CHANGE as SAFE_RELATIVE_CHANGE
from gzinertia.edit.fix_options import FixOptions as FixOptions
from gzinertia.edit.fix_options import LinkFix as LinkFix
from gzinertia.edit.fix_plan import (
    RepairPlan,
    fix_findings,
    format_value,
    inertia_attributes,
    plan_repair,
    visual_shapes,
)
from gzinertia.edit.links import link_element, require_finite, same_file
from gzinertia.edit.session import FileEdit
from gzinertia.edit.verify import same_added_mass, same_rigid
from gzinertia.errors import GzInertiaError
from gzinertia.numbers import c_double
from gzinertia.physics.inertia_repair import RepairError
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.sdf import read_sdf_bytes
from gzinertia.sdf.xml import child, children
from gzinertia.selection import select_links

__all__ = ["FixResult", "check_pose_editable", "fix", "plan_reads_back", "write_plan"]

#: What a repair made: per repaired link its :class:`LinkFix` (``links``, also ``fixed``);
#: ``pending``: repairs that could not be written into a xacro (where to write which value;
#: the command then exits 1).
FixResult = Edit[LinkFix]



def _old_value(elem: etree._Element | None, tag: str) -> float | None:
    if elem is None:
        return INERTIA_DEFAULT[tag]
    return c_double((elem.text or "").strip())


def write_plan(editor: XmlEditor, plan: RepairPlan) -> None:
    """The plan's edits: changed ``<inertia>`` children, the pose's position, or a new
    ``<inertial>``."""
    link_elem = link_element(editor, plan.link)
    I = plan.I_BBcm_I
    values = {tag: float(I[INERTIA_INDEX[tag]]) for tag in INERTIA_TAGS}
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


def _changes_nothing(plan: RepairPlan) -> bool:
    """The plan writes the values the link already has."""
    fix, inertial = plan.fix, plan.link.inertial
    return (
        not fix.inserted
        and fix.mass_after == fix.mass_before
        and (not plan.write_pose or np.array_equal(fix.p_after, fix.p_before))
        and np.array_equal(plan.I_BBcm_I, np.asarray(inertial.I_BBcm_I, dtype=float))
    )


def check_pose_editable(link_elem: etree._Element) -> None:
    """Refuses (:class:`RepairError`) to move the centre of mass of a link whose
    ``<inertial>`` has two ``<pose>`` elements or a ``relative_to`` on it."""
    inertial = child(link_elem, "inertial")
    poses = [] if inertial is None else children(inertial, "pose")
    if len(poses) > 1:
        raise RepairError("its <inertial> has two <pose> elements (GZI110): remove one first")
    if poses and poses[0].get("relative_to") is not None:
        raise RepairError("its <inertial><pose> has relative_to (GZI108): remove it first")


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    scale = max(float(np.max(np.abs(b))), 1e-300)
    return bool(np.all(np.isfinite(a))) and float(np.max(np.abs(a - b))) <= 1e-14 * scale


def plan_reads_back(plan: RepairPlan, old: LinkRecord, new: LinkRecord) -> bool:
    """Whether the link read back (``new``) holds what ``plan`` wrote over ``old``: same pose,
    the mass, ``p_BoBcm_B`` and ``I_BBcm_I`` (about Bcm in I axes) meant, the inertial frame's
    rotation kept (unless the plan inserted the whole ``<inertial>``)."""
    ni = new.inertial
    return (
        np.array_equal(old.X_WB.matrix(), new.X_WB.matrix())
        and ni.mass == plan.fix.mass_after
        and _same(np.asarray(ni.p_BoBcm_B, float), plan.fix.p_after)
        and _same(np.asarray(ni.I_BBcm_I, float), plan.I_BBcm_I)
        and (plan.fix.inserted or np.array_equal(ni.R_BI, old.inertial.R_BI))
    )


def _verify(
    path: Path, before: SdfDocument, after: SdfDocument, plans: dict[str, RepairPlan]
) -> None:
    """Each planned link reads back what was meant; every other link as before."""
    if [lk.name for lk in after.links] != [lk.name for lk in before.links]:
        raise GzInertiaError(f"{path}: internal error: the edit changed the set of links")
    for old, new in zip(before.links, after.links, strict=True):
        plan = plans.get(old.name)
        if plan is None:
            ok = same_rigid(old, new) and same_added_mass(
                new.inertial.A_BBo_B, old.inertial.A_BBo_B, 0.0
            )
        else:
            ok = plan_reads_back(plan, old, new)
        if not ok:
            raise GzInertiaError(
                f"{path}: internal error: link {old.name!r} does not read back as meant; "
                "nothing written"
            )


def _link_plan(
    editor: XmlEditor, link: LinkRecord, codes: set[str], options: FixOptions
) -> RepairPlan:
    """One link's repair (:func:`plan_repair`) with what the SDF file adds: a pose that can be
    moved, the URDF-style attributes of an ``<inertia>`` without children, the safe-only
    limit of ``audit --fix`` (a :class:`RepairError` saying why not)."""
    if options.move_com and options.method == "geometry":
        check_pose_editable(link_element(editor, link))
    shapes = None
    if options.method == "geometry" and options.geometry == "visual":
        shapes = visual_shapes(link)
    attributes = None
    if link.inertial.inertia_defaulted:
        attributes = inertia_attributes(link_element(editor, link))
    plan = plan_repair(link, codes, options, shapes, attributes)
    if options.safe_only and np.max(np.abs(plan.fix.repair.relative_change)) > (
        SAFE_RELATIVE_CHANGE
    ):
        raise RepairError(
            "the repair changes a principal moment by more than "
            f"{SAFE_RELATIVE_CHANGE:g} of the largest: not a safe fix "
            "(run gzinertia fix to apply it)"
        )
    return plan


def fix(
    path: Path,
    options: FixOptions,
    model_paths: Sequence[str | Path],
    data: bytes | None = None,
) -> FixResult:
    """Repairs the selected links of ``path`` as ``options`` say (nothing is written here;
    ``path``, ``model_paths`` and ``data`` as :meth:`~gzinertia.edit.session.FileEdit.open`
    reads them)."""
    options.validate()
    edit = FileEdit.open(path, model_paths, data)
    doc = edit.doc
    codes = set(options.codes())
    found = fix_findings(doc, options)
    plans: dict[str, RepairPlan] = {}
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
            plan = _link_plan(edit.editor, link, here, options)
        except RepairError as exc:
            skipped.append(f"{link.name}: not repaired: {exc}")
            continue
        if _changes_nothing(plan):
            continue  # e.g. --all-links on a link an earlier run repaired
        plans[link.name] = plan

    editor = edit.editor
    while True:
        for plan in plans.values():
            write_plan(editor, plan)
        new = editor.result()
        if new == edit.old:
            return FixResult(path, edit.old, new, (), tuple(skipped))
        after = read_sdf_bytes(new, str(path), model_paths)
        _verify(path, doc, after, plans)
        found_after = fix_findings(after, options)
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
