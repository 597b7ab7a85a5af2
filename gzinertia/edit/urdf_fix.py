"""``gzinertia fix`` on URDF and xacro: the same repairs, written into the URDF elements.

**What is repaired.** The audit of a URDF judges the links Gazebo builds, after libsdformat
lumps each fixed-joint child into its parent (:mod:`gzinertia.urdf.lumping`). A lumped body is
a sum, and a sum cannot be edited: the repair is made where the numbers are written, in each
URDF link's *own* ``<inertial>`` (the body Drake's URDF parser reads, which does not lump).
A link is repaired when the audit of its own inertial reports a code the method repairs (or
with ``--all-links``), as for SDF. When the audit reports GZI103/GZI104 on a lumped body and
none of the links lumped into it has an invalid inertia of its own, the finding cannot be
attributed to any written ``<inertial>`` (in exact arithmetic a sum of valid inertias is
valid): the body is reported as not repaired, with the links that make it. Links libsdformat
drops (no mass) are not repaired, and no ``<inertial>`` is added to a link without one
(Gazebo would then model a link it now drops: a change of the model, not a repair).

**What is written.** The six attributes of ``<inertia ixx=".." .../>`` whose value changes,
``<mass value>`` when the mass changes (GZI101 with ``--density``/``--mass``), and the ``xyz``
of ``<inertial><origin>`` with ``--move-com`` (its ``rpy``, the inertia's axes, kept); values
are the shortest text that reads back as the double that was checked. Nothing else changes.

**xacro.** The source file is edited only where the link is written literally
(``<link name="hull">``) and each value to change is a literal number; a value written as
``${...}`` (a property or an expression) or a link made by a macro is not edited: the value is
printed with the file and line of the attribute, and of the ``<xacro:property>`` it names when
it is a single property, and the run reports the repair as pending (exit status 1).

Every result is read back (a xacro is expanded again, beside the original so its relative
includes resolve) and re-audited, lumped and unlumped: each repaired link must read back what
was meant, and no link may gain a finding (such a repair is withdrawn and reported).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from lxml import etree

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.fix import FixResult
from gzinertia.edit.fix_options import INERTIA_INDEX, INERTIA_TAGS, FixOptions
from gzinertia.edit.fix_plan import (
    RepairPlan,
    fix_findings,
    format_value,
    plan_repair,
    visual_shapes,
)
from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.io.safe_write import resolved_in_tree, temporary_copy
from gzinertia.numbers import c_double
from gzinertia.physics.inertia_repair import RepairError
from gzinertia.record_base import ValueRecord
from gzinertia.records import SdfDocument
from gzinertia.sdf.xml import child, line_of, parse_xml_bytes, read_file_bytes
from gzinertia.selection import select_links
from gzinertia.urdf.fragments import refuse_fragment
from gzinertia.urdf.lumping import convert
from gzinertia.urdf.model import parse_robot
from gzinertia.urdf.reader import read_urdf_bytes
from gzinertia.urdf.xacro_expand import XacroExpansion, expand_xacro_sourced
from gzinertia.vocabulary.model_suffixes import XACRO_SUFFIX, is_xacro_path
from gzinertia.vocabulary.scoped_names import within_top
from gzinertia.wording import bounded

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = [
    "InertialWriter",
    "UrdfInertials",
    "fix_urdf",
    "read_inertials",
    "verify_inertials",
]

_PROPERTY = re.compile(r"^\$\{\s*([A-Za-z_][\w]*)\s*\}$")


@dataclass(frozen=True, repr=False, eq=False)
class UrdfInertials(ValueRecord):
    """The file as Gazebo sees it (lumped), as written per link (own), and the lumping."""

    lumped: SdfDocument
    own: SdfDocument
    members: dict[str, list[str]]  # kept link (scoped) -> the links lumped into it (scoped)
    dropped: frozenset[str]  # links libsdformat does not model (scoped)


def _expand(path: Path, data: bytes, package_paths: Sequence[str | Path],
            xacro_args: Mapping[str, str] | None, tree: str | None,
            policy: XacroPolicy | None = None) -> XacroExpansion | None:
    """The xacro expansion ``data`` stands for (``None`` for plain URDF): expanded from a copy
    beside ``path`` when ``data`` is not the file as it is (so its relative includes resolve as
    the original's); places in the copy are reported as ``path``'s. ``tree``: the folder
    ``path`` was found in by walking it, which the copy stays in (through no link)."""
    if not is_xacro_path(path):
        return None
    if data == read_file_bytes(path):  # the file as it is: expanded where it is
        return expand_xacro_sourced(path, xacro_args, package_paths, policy=policy)
    # found by walking: beside the real file in the tree (its folder, links resolved)
    beside = path if tree is None else resolved_in_tree(path.absolute().parent, tree) / path.name
    why = "expanding the edited xacro needs one, as its includes are relative"
    with temporary_copy(beside, data, suffix=XACRO_SUFFIX, root=tree, why=why) as tmp:
        try:
            expansion = expand_xacro_sourced(tmp, xacro_args, package_paths, policy=policy)
        except SdfError as exc:  # name the user's file, not the copy
            if exc.file == tmp:
                raise SdfError(str(path), exc.line, exc.message) from None
            raise

    def named(place: tuple[str, int]) -> tuple[str, int]:
        return (str(path), place[1]) if place[0] == tmp else place

    sources = {
        k: (named(written), None if called is None else named(called))
        for k, (written, called) in expansion.sources.items()
    }
    return replace(expansion, sources=sources)


def read_inertials(path: Path, data: bytes, package_paths: Sequence[str | Path],
                   xacro_args: Mapping[str, str] | None, tree: str | None = None,
                   policy: XacroPolicy | None = None) -> UrdfInertials:
    """``data`` (the bytes of ``path``, or an edit of them) read as Gazebo builds it (lumped)
    and link by link as written (own), with the lumping (expanded first when a xacro)."""
    expansion = _expand(path, data, package_paths, xacro_args, tree, policy)
    urdf = data if expansion is None else expansion.text.encode("utf-8")
    places: dict[str, Any] = {}
    if expansion is not None:
        places = {
            "line_sources": {k: v[0] for k, v in expansion.sources.items()},
            "macro_calls": {k: v[1] for k, v in expansion.sources.items() if v[1] is not None},
        }
    lumped, own = (
        read_urdf_bytes(urdf, str(path), package_paths, lump=lump, **places)
        for lump in (True, False)
    )
    robot = parse_robot(parse_xml_bytes(urdf, str(path)), str(path))
    conversion = convert(robot)
    prefix = f"{robot.name}::"
    members: dict[str, list[str]] = {}
    for small, big in conversion.lumped_into.items():
        members.setdefault(prefix + big, []).append(prefix + small)
    return UrdfInertials(lumped, own, members, frozenset(prefix + d for d in conversion.dropped))


def _number(text: str | None) -> float | None:
    if text is None:
        return None
    value = c_double(text.strip())
    return value if value is not None and np.isfinite(value) else None


def _defines_link(elem: etree._Element, root: etree._Element) -> bool:
    """Whether ``elem`` is a ``<link>`` URDF defines: a child of ``<robot>``, directly or
    through xacro's own elements (a macro, a condition), and not one that a ``<gazebo>``
    block's plugin parameters repeat (UUV Simulator's ``<plugin><link name="X">``)."""
    parent = elem.getparent()
    while parent is not None and parent is not root:
        if parent.prefix != "xacro":
            return False
        parent = parent.getparent()
    return True


class InertialWriter:
    """Writes plans into the URDF/xacro source; what it cannot write literally is pending."""

    def __init__(self, path: Path, data: bytes, xacro: bool) -> None:
        self.path = path
        self.editor = XmlEditor(data, str(path))
        self.xacro = xacro
        self.pending: list[str] = []
        # indexes built once (linear in the file): literal link names, property definitions
        self.links: dict[str, list[etree._Element]] = {}
        for e in self.editor.root.iter("link"):
            if _defines_link(e, self.editor.root):
                self.links.setdefault((e.get("name") or "").strip(), []).append(e)
        self.properties: dict[str, int] = {}
        pattern = re.compile(r"<xacro:property\s[^>]*name\s*=\s*[\"']([^\"']+)[\"']")
        for i, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            for m in pattern.finditer(line):
                self.properties.setdefault(m.group(1), i)

    def _literal_link(self, short: str) -> etree._Element | None:
        """The one ``<link>`` written with this literal name (``None``: none, or several)."""
        found = self.links.get(short, [])
        return found[0] if len(found) == 1 else None

    def _where(self, elem: etree._Element) -> str:
        return f"{self.path}:{line_of(elem)}"

    def _property_line(self, name: str) -> int | None:
        return self.properties.get(name)

    def _set(self, elem: etree._Element, attr: str, value: float, what: str,
             edits: list[tuple[etree._Element, str, str]]) -> list[str]:
        """Plans setting ``attr`` to ``value`` (into ``edits``) when it is a literal number
        that differs; the message saying where to write it when it is not literal."""
        old = elem.get(attr)
        if old is not None and _number(old) == value:
            return []
        text = format_value(value)
        if old is not None and _number(old) is not None:
            edits.append((elem, attr, text))
            return []
        if old is None:
            return [f"{self._where(elem)}: {what} has no {attr}: add {attr}=\"{text}\""]
        match = _PROPERTY.match(old.strip())
        where = ""
        if match:
            line = self._property_line(match.group(1))
            where = (f" (property {match.group(1)!r}" +
                     (f" at {self.path}:{line})" if line else ", defined elsewhere)"))
        return [f"{self._where(elem)}: {what} {attr}=\"{old}\" is not a literal number{where}: "
                f"set it to {text}"]

    def write(self, plan: RepairPlan) -> bool:
        """Writes one plan, all of it or nothing; ``False`` (and where to write what) when a
        value to change is not written literally."""
        short = within_top(plan.link.name)
        values = {tag: float(plan.I_BBcm_I[INERTIA_INDEX[tag]]) for tag in INERTIA_TAGS}
        block = "<inertia " + " ".join(
            f'{t}="{format_value(values[t])}"' for t in INERTIA_TAGS) + "/>"
        if plan.fix.mass_after != plan.fix.mass_before:
            block += f' <mass value="{format_value(plan.fix.mass_after)}"/>'
        if _moves(plan):
            block += f' <origin xyz="{_xyz(plan)}"/> (rpy as written)'
        link_elem = self._literal_link(short)
        if link_elem is None:
            self.pending.append(
                f"{plan.link.source}: link {short!r} is not written literally in {self.path} "
                f"(made by a macro): write its <inertial> values there: {block}"
            )
            return False
        inertial = child(link_elem, "inertial")
        inertia = None if inertial is None else child(inertial, "inertia")
        mass = None if inertial is None else child(inertial, "mass")
        if inertial is None or inertia is None or mass is None:
            self.pending.append(
                f"{self._where(link_elem)}: the <inertial> of link {short!r} is not written "
                f"literally (made by a macro): write its values there: {block}"
            )
            return False
        edits: list[tuple[etree._Element, str, str]] = []
        problems: list[str] = []
        for tag in INERTIA_TAGS:
            problems += self._set(inertia, tag, values[tag], "<inertia>", edits)
        if plan.fix.mass_after != plan.fix.mass_before:
            problems += self._set(mass, "value", plan.fix.mass_after, "<mass>", edits)
        origin = None if inertial is None else child(inertial, "origin")
        if _moves(plan) and origin is not None and origin.get("xyz") is not None:
            old = (origin.get("xyz") or "").split()
            if len(old) != 3 or any(_number(v) is None for v in old):
                problems.append(f"{self._where(origin)}: <origin xyz=\"{origin.get('xyz')}\"> "
                                f"is not three literal numbers: set it to {_xyz(plan)}")
            else:
                edits.append((origin, "xyz", _xyz(plan)))
        if problems:
            self.pending.extend(problems)
            self.pending.append(f"link {short!r}: nothing of its repair written (all of it "
                                f"or none): {block}")
            return False
        for elem, attr, text in edits:
            self.editor.set_attribute(elem, attr, text)
        if _moves(plan) and origin is None:
            self.editor.append_child_lines(inertial, [f'<origin xyz="{_xyz(plan)}" rpy="0 0 0"/>'])
        elif _moves(plan) and origin is not None and origin.get("xyz") is None:
            rpy = origin.get("rpy") or "0 0 0"
            self.editor.replace_element(origin, [f'<origin xyz="{_xyz(plan)}" rpy="{rpy}"/>'])
        return True


def _moves(plan: RepairPlan) -> bool:
    return plan.write_pose and not np.array_equal(plan.fix.p_after, plan.fix.p_before)


def _xyz(plan: RepairPlan) -> str:
    return " ".join(format_value(float(v)) for v in plan.fix.p_after)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    scale = max(float(np.max(np.abs(b))), 1e-300)
    return bool(np.all(np.isfinite(a))) and float(np.max(np.abs(a - b))) <= 1e-14 * scale


def verify_inertials(path: Path, before: SdfDocument, after: SdfDocument,
                     plans: Mapping[str, RepairPlan]) -> None:
    """Each written plan reads back (own inertial) as meant; every other link as before."""
    old_by = {r.name: r for r in before.links}
    new_by = {r.name: r for r in after.links}
    if list(old_by) != list(new_by):
        raise GzInertiaError(f"{path}: internal error: the edit changed the set of links")
    for name, old in old_by.items():
        new, plan = new_by[name], plans.get(name)
        ni, oi = new.inertial, old.inertial
        if plan is None:
            ok = (ni.mass == oi.mass and np.array_equal(ni.I_BBcm_I, oi.I_BBcm_I)
                  and np.array_equal(ni.X_BI.matrix(), oi.X_BI.matrix()))
        else:
            ok = (ni.mass == plan.fix.mass_after
                  and _same(np.asarray(ni.p_BoBcm_B, float), plan.fix.p_after)
                  and _same(np.asarray(ni.I_BBcm_I, float), plan.I_BBcm_I)
                  and np.array_equal(ni.R_BI, oi.R_BI))
        ok = ok and np.array_equal(new.X_WB.matrix(), old.X_WB.matrix())
        if not ok:
            raise GzInertiaError(f"{path}: internal error: link {name!r} does not read back as "
                                 "meant; nothing written")


def fix_urdf(
    path: Path,
    options: FixOptions,
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
    *,
    tree: str | None = None,
    xacro_policy: XacroPolicy | None = None,
) -> FixResult:
    """Repairs the selected links of a URDF or xacro file as ``options`` say (in memory).
    ``package_paths`` resolve ``package://`` and ``$(find)``. Repairs that cannot be written
    literally into a xacro are in ``pending`` (with where to write them). ``tree``: the folder
    ``path`` was found in by walking it (``audit --fix``), which the temporary copy a xacro's
    check needs stays in, through no link."""
    options.validate()
    refuse_fragment(path, "fix")
    codes = set(options.codes())
    old = read_file_bytes(path)
    xacro = is_xacro_path(path)
    state = read_inertials(path, old, package_paths, xacro_args, tree, xacro_policy)
    found_own = fix_findings(state.own, options)
    found_lumped = fix_findings(state.lumped, options)
    plans: dict[str, RepairPlan] = {}
    skipped: list[str] = []
    for link in select_links(state.own.links, options.pattern, str(path)):
        here = found_own.get(link.name, set()) & codes
        if "GZI107" in here and not options.move_com:
            here.discard("GZI107")
        if link.inertial.defaulted or link.name in state.dropped:
            if here - {"GZI101", "GZI102"}:
                skipped.append(f"{link.name}: not repaired: libsdformat does not model it "
                               "(no <inertial> or no mass)")
            continue
        if not here and not options.all_links:
            continue
        try:
            shapes = None
            if options.method == "geometry" and options.geometry == "visual":
                shapes = visual_shapes(link)
            plan = plan_repair(link, here, options, shapes)
        except RepairError as exc:
            skipped.append(f"{link.name}: not repaired: {exc}")
            continue
        if not np.array_equal(plan.I_BBcm_I, link.inertial.I_BBcm_I) or (
            plan.fix.mass_after != plan.fix.mass_before
        ) or _moves(plan):
            plans[link.name] = plan
    for name, lumped_codes in found_lumped.items():
        parts = [name, *state.members.get(name, [])]
        hits = lumped_codes & codes & {"GZI103", "GZI104"}
        attributed = any(found_own.get(p, set()) & {"GZI103", "GZI104"} for p in parts)
        if hits and len(parts) > 1 and not attributed:
            shorts = bounded(within_top(p) for p in parts)
            skipped.append(
                f"{name}: {', '.join(sorted(hits))} on the body libsdformat lumps from links "
                f"{shorts} (fixed joints), whose own <inertial>s are each valid: the sum cannot "
                "be attributed to one of them; not repaired (check their values and origins)"
            )
    while True:
        writer = InertialWriter(path, old, xacro)
        written = {name: plan for name, plan in plans.items() if writer.write(plan)}
        new = writer.editor.result()
        if new == old:
            return FixResult(path, old, new, (), tuple(skipped), pending=tuple(writer.pending))
        after = read_inertials(path, new, package_paths, xacro_args, tree, xacro_policy)
        verify_inertials(path, state.own, after.own, written)
        own_after = fix_findings(after.own, options)
        lumped_after = fix_findings(after.lumped, options)
        withdrawn = _withdrawn(written, found_own, own_after, found_lumped, lumped_after, state)
        if not withdrawn:
            fixed = tuple(p.fix for p in written.values())
            return FixResult(path, old, new, fixed, tuple(skipped), pending=tuple(writer.pending))
        for name, added in withdrawn.items():
            skipped.append(
                f"{name}: not repaired: after the {options.method} repair the audit would "
                f"report {', '.join(sorted(added))}"
            )
            del plans[name]


def _withdrawn(
    written: Mapping[str, RepairPlan],
    own_before: Mapping[str, set[str]],
    own_after: Mapping[str, set[str]],
    lumped_before: Mapping[str, set[str]],
    lumped_after: Mapping[str, set[str]],
    state: UrdfInertials,
) -> dict[str, set[str]]:
    """The written links whose repair leaves a finding it should have removed or adds one: on
    the link itself (unlumped), or on the body libsdformat lumps it into."""
    holder = {small: big for big, smalls in state.members.items() for small in smalls}
    out: dict[str, set[str]] = {}
    for name, plan in written.items():
        kept = own_before.get(name, set()) - set(plan.fix.codes)
        added = own_after.get(name, set()) - kept
        body = holder.get(name, name)
        added |= lumped_after.get(body, set()) - lumped_before.get(body, set())
        if added:
            out[name] = added
    return out
