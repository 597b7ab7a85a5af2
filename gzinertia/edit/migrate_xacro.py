"""``gzinertia migrate`` on a xacro file: each classic plugin block rewritten where it is written.

The expansion is read as the URDF path reads a URDF (:mod:`gzinertia.edit.migrate_urdf`: the
same plans, the same gz-sim terms, the same warnings), and each classic ``<plugin>`` of the
expansion is traced to the file and line its element is written at, through includes and
macros (:class:`~gzinertia.urdf.xacro_expand.XacroExpansion`'s sources). There it is replaced
by one Hydrodynamics ``<plugin>`` per link block (its ``<iDotJ>`` added mass, ``D = -A`` about
the link origin in link axes, and its damping terms), the link's name kept as written (a
``${namespace}`` in it stays an expression that xacro evaluates as before).

A block is rewritten only when every value that enters what is written is literal (the
``<hydrodynamic_model>``, ``<box>`` and ``<fluid_density>``; a ``<volume>`` or ``<debug>``
written as ``${...}`` is only reported, as on URDF). A plugin whose link blocks a macro call
writes (UUV Simulator's RexROV: ``<xacro:rexrov_hydro_model namespace="$(arg namespace)"/>``
inside the plugin, the macro in another file) is rewritten where the plugin is written, each
link's name the macro's with its parameters replaced by the call's arguments as written (so
the ``namespace`` argument still decides it), when the macro's link blocks are literal; the
macro itself is left as written, no longer called (said). A number written as a property or
an expression, another xacro element inside the plugin, or a macro whose calls give
different numbers (links of different inertials) is not guessed: nothing of that plugin is
written, and the edit's ``pending`` says per link block, at its file and line, what to write
there by hand (the numbers, computed). The edit is of one file, the one holding the first
block written; a block in another file is pending until a re-run (after this edit is written)
migrates it; a file outside ``FILE``'s folder, its ROS package and the model paths given is
never written (a package found through ``ROS_PACKAGE_PATH`` is an installation). What is
written is checked on the expansion (each link must carry what its block migrates to, and no
classic plugin may remain) before anything is returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

from gzinertia.classic.blocks import placer
from gzinertia.classic.uuv import is_uuv_underwater_object
from gzinertia.classic.vrx import is_vrx_usv_dynamics
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.hydro import new_plugin_lines, term_scales
from gzinertia.edit.links import ascii_comment, format_value
from gzinertia.edit.migrate_plans import (
    Migration,
    Plan,
    added_mass_comment,
    links_by_name,
    migrated_already,
    plan_migration,
)
from gzinertia.edit.migrate_request import MigratedLink, MigrateRequest, MigrateResult
from gzinertia.edit.migrate_urdf import TERMS_COMMENT, UrdfLinkPlan, explicit_warnings
from gzinertia.edit.model_file import new_audit_codes
from gzinertia.edit.urdf_addmass import EXPLICIT_NOTE, added_mass_texts, explicit_comment
from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.record_base import Record
from gzinertia.records import SdfDocument, SourceRef
from gzinertia.sdf.xml import child, children, line_of, read_file_bytes
from gzinertia.urdf.fragments import refuse_fragment
from gzinertia.urdf.reader import read_urdf_bytes
from gzinertia.urdf.xacro_expand import XacroExpansion, expand_xacro_sourced
from gzinertia.urdf.xacro_policy import XacroPolicy, default_roots
from gzinertia.vocabulary.scoped_names import leaf_name

__all__ = ["XacroBlock", "migrate_xacro"]

#: What marks a value xacro computes.
_EXPRESSIONS = ("${", "$(")


@dataclass(repr=False, eq=False)
class XacroBlock(Record):
    """One classic ``<plugin>`` of the expansion: where its element is written (``written``,
    file and line; ``called``: the outermost macro call that made it, if any), its plans (one
    per link block it migrates) and the lines to write in its place (``lines``, link names as
    written; empty until computed)."""

    element: etree._Element
    written: tuple[str, int]
    called: tuple[str, int] | None
    plans: list[Plan]
    lines: list[str] = field(default_factory=list)
    #: Where each ``<link>`` block of the plugin is written (file, line), in order.
    link_places: list[tuple[str, int]] = field(default_factory=list)


def _is_classic(elem: etree._Element) -> bool:
    filename = elem.get("filename") or ""
    return is_uuv_underwater_object(filename) or is_vrx_usv_dynamics(filename)


def _expand(request: MigrateRequest) -> tuple[XacroExpansion, bytes]:
    """The expansion of ``request``'s xacro file and its URDF bytes."""
    expansion = expand_xacro_sourced(request.path, request.xacro_args, request.model_paths,
                                     policy=request.xacro_policy)
    return expansion, expansion.text.encode("utf-8")


def _plan(request: MigrateRequest, expansion: XacroExpansion, urdf: bytes
          ) -> tuple[Migration, list[XacroBlock], SdfDocument]:
    """The migration of the expansion (``plan_migration``, places moved to the xacro source),
    its classic blocks, in document order, and its links as read."""
    path = str(request.path)
    sources = expansion.sources
    doc = read_urdf_bytes(urdf, path, request.model_paths,
                          line_sources={k: v[0] for k, v in sources.items()},
                          macro_calls={k: v[1] for k, v in sources.items() if v[1] is not None})
    try:
        migration = plan_migration(request, urdf, doc, dart=False)
    except SdfError as exc:
        where = placer(path, {k: v[0] for k, v in sources.items()})(
            SourceRef(exc.file, exc.line or 1))
        raise SdfError(where.file, where.line, exc.message) from None
    by_link = {leaf_name(pl.link.name): pl for pl in migration.plans}
    blocks = []
    for elem in migration.editor.root.iter("plugin"):
        if not _is_classic(elem):
            continue
        written, called = sources.get(line_of(elem), ((path, 1), None))
        names = [(e.get("name") or "").strip() for e in children(elem, "link")]
        body = child(elem, "bodyName")
        if is_vrx_usv_dynamics(elem.get("filename") or ""):
            names = [] if body is None else [(body.text or "").strip()]
            names = names or [pl.link.name for pl in migration.plans if pl.plugin == "vrx"][:1]
        plans = [by_link[leaf_name(n)] for n in names if leaf_name(n) in by_link]
        places = [sources.get(line_of(e), ((path, 1), None))[0] for e in children(elem, "link")]
        blocks.append(XacroBlock(elem, written, called, plans, link_places=places))
    return migration, blocks, doc


#: The tags whose values enter what is written (the damping and added mass, the shape models'
#: box, the fluid density of a plugin of damping alone): these must be literal numbers. The
#: others (``<volume>``, ``<center_of_buoyancy>``, ``<debug>``, topics) are only reported.
_WRITTEN_FROM = ("hydrodynamic_model", "box", "fluid_density")


def _literal_problem(source: etree._Element, calls: Sequence[etree._Element] = ()
                     ) -> str | None:
    """Why the classic ``<plugin>`` ``source`` (as written in the xacro) cannot be rewritten
    literally: a xacro element in it (but the macro ``calls`` that write its link blocks), or
    an expression in a value that enters what is written (:data:`_WRITTEN_FROM`); ``None``
    when it can."""
    for elem in source.iter():
        if not isinstance(elem.tag, str) or elem in calls:
            continue
        if elem.prefix == "xacro":
            return f"<{elem.tag}> at line {line_of(elem)} (a xacro element) is inside the plugin"
        if not any(a.tag in _WRITTEN_FROM for a in (elem, *elem.iterancestors())
                   if isinstance(a.tag, str)):
            continue
        values = [elem.text or "", *elem.attrib.values()]
        if any(x in v for v in values for x in _EXPRESSIONS):
            shown = " ".join((elem.text or "").split())[:60]
            return (f"<{elem.tag}> at line {line_of(elem)} holds {shown!r}, not literal numbers "
                    "(a property or an expression)")
    return None


#: The xacro elements that are not macro calls.
_XACRO_KEYWORDS = frozenset({
    "arg", "call", "element", "attribute", "if", "unless", "include", "insert_block", "macro",
    "property", "eval-comments"})


def _macro_calls(source: etree._Element) -> list[etree._Element] | None:
    """The macro calls among ``source``'s children (UUV Simulator's RexROV writes its link
    block as ``<xacro:rexrov_hydro_model namespace="..."/>`` in the plugin); ``None`` when a
    xacro element other than a call, or one deeper down, is in it."""
    found = [e for e in source.iter() if isinstance(e.tag, str) and e.prefix == "xacro"]
    calls = [e for e in found if e.getparent() is source
             and etree.QName(e).localname not in _XACRO_KEYWORDS and not len(e)]
    return calls if len(calls) == len(found) else None


def _called_link_names(block: XacroBlock, calls: Sequence[etree._Element]
                       ) -> list[str] | str:
    """The names of ``block``'s link blocks as the xacro writes them at the plugin, each the
    macro's ``<link name>`` with the macro's parameters replaced by the call's arguments as
    written (``${namespace}/base_link`` called with ``namespace="$(arg namespace)"``: the
    ``namespace`` argument still decides it); why not, when a block is not a literal block of
    one of ``calls``' macros."""
    by_name = {etree.QName(c).localname: c for c in calls}
    trees = {file: XmlEditor(read_file_bytes(Path(file)), file).root
             for file in dict.fromkeys(f for f, _ in block.link_places)}  # each file read once
    names = []
    for file, line in block.link_places:
        found = [e for e in trees[file].iter("link") if line_of(e) == line]
        macro = next((a for e in found for a in e.iterancestors()
                      if isinstance(a.tag, str) and etree.QName(a).localname == "macro"), None)
        call = None if macro is None else by_name.get(macro.get("name") or "")
        if len(found) != 1 or macro is None or call is None:
            return f"its link block at {file}:{line} is not one of a macro called in the plugin"
        problem = _literal_problem(found[0])
        if problem is not None:
            return f"{problem} (in {file})"
        name = (found[0].get("name") or "").strip()
        for param in (macro.get("params") or "").split():
            key = param.split(":=")[0].split("=")[0].lstrip("*")
            if key in call.attrib:
                name = name.replace("${" + key + "}", str(call.get(key)))
        if "${" in name:
            return f"the name of its link block at {file}:{line}, {name!r}, is an expression"
        names.append(name)
    return names


def _plugin_lines(plan: Plan, name: str, editor: XmlEditor) -> list[str]:
    """The Hydrodynamics ``<plugin>`` (with its comment) of one link block, as the URDF path
    writes it: the added mass's ``<iDotJ>`` terms then the damping terms; ``<water_density>``
    only in a plugin of damping alone; ``name``: the link's name as the xacro writes it."""
    eq = plan.equivalent
    scales = term_scales(eq.terms)
    damping = {n: format_value(v, scales[n]) for n, v in eq.terms.items()}
    if np.any(eq.A_BBo_B.linear_first()):
        comment = explicit_comment(ascii_comment(added_mass_comment(plan, False)))
        return new_plugin_lines(editor, plan.link, None,
                                {**added_mass_texts(eq.A_BBo_B), **damping}, comment, name)
    return new_plugin_lines(editor, plan.link, plan.density, damping,
                            ascii_comment(TERMS_COMMENT), name)


def _source_plugin(editor: XmlEditor, line: int) -> etree._Element | None:
    """The classic ``<plugin>`` whose start tag is on ``line`` of the file open in ``editor``."""
    found = [e for e in editor.root.iter("plugin") if line_of(e) == line and _is_classic(e)]
    return found[0] if len(found) == 1 else None


def _pending(block: XacroBlock, why: str, source: etree._Element | None) -> list[str]:
    """Per link block of ``block``: its file and line, why nothing is written, and what to
    write there by hand (its gz-sim plugin, computed)."""
    file, line = block.written
    places = [] if source is None else [line_of(e) for e in children(source, "link")]
    if len(places) != len(block.plans):
        places = [line] * len(block.plans)
    out = []
    for plan, at in zip(block.plans, places, strict=True):
        short = leaf_name(plan.link.name)
        lines = _plugin_lines(plan, short, XmlEditor(b"<a/>", "text"))
        out.append(f"{file}:{at}: the classic block of link {short!r}: {why}; nothing of its "
                   "plugin is written: replace it by hand with\n" + "\n".join(lines))
    return out


@dataclass(repr=False, eq=False)
class _Rewrite(Record):
    """What is written in one source file: its editor and the blocks written there."""

    file: Path
    editor: XmlEditor
    done: list[XacroBlock] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _confined(file: Path, request: MigrateRequest) -> bool:
    """Whether ``file`` may be written: it lies in ``FILE``'s folder, its ROS package or a
    model path given (:func:`~gzinertia.urdf.xacro_policy.default_roots`), never in a package
    found through the environment (``ROS_PACKAGE_PATH``: an installation, not the checkout)."""
    given = [Path(p) for p in request.model_paths]
    return default_roots(request.path, given, XacroPolicy()).allows(file)


def _rewrite(request: MigrateRequest, blocks: Sequence[XacroBlock]) -> _Rewrite:
    """Every block written in the first block's file replaced (or, ``keep_classic``, followed)
    by its plugins where it can be written literally; the rest pending."""
    first = Path(blocks[0].written[0])
    out = _Rewrite(first, XmlEditor(read_file_bytes(first), str(first)))
    if not _confined(first, request):
        why = (f"{first} is not in {request.path.parent}, its ROS package or a model path "
               "given, where migrate writes (pass its package folder with -m to write it)")
        out.pending += [p for b in blocks for p in _pending(b, why, None)]
        return out
    groups: dict[tuple[str, int], list[XacroBlock]] = {}
    for block in blocks:
        groups.setdefault(block.written, []).append(block)
    for (file, line), group in groups.items():
        source = _source_plugin(out.editor, line) if Path(file) == first else None
        problem = _why_not(group, source, file, first)
        if problem is not None:
            out.pending += [p for b in group for p in _pending(b, problem, source)]
            continue
        assert source is not None
        calls = _macro_calls(source) or []
        if calls:
            called = ", ".join(f"<{etree.QName(c).localname}>" for c in calls)
            out.notes.append(f"{file}:{line}: the classic plugin called {called} for its link "
                             "blocks; the migrated plugin does not, so that macro's <link> "
                             "blocks are no longer used (left as written)")
        lines = group[0].lines
        if request.keep_classic:
            parent = source.getparent()
            assert parent is not None
            out.editor.append_child_lines(parent, lines)
        else:
            out.editor.replace_element(source, lines)
        out.done += group
    return out


def _why_not(group: Sequence[XacroBlock], source: etree._Element | None, file: str,
             first: Path) -> str | None:
    """Why the blocks ``group`` (one element written once, expanded ``len(group)`` times)
    are not rewritten in ``source``; ``None`` when they are (their lines set)."""
    if Path(file) != first:
        return (f"written in {file}, not in {first}: run migrate again once this edit is "
                "written")
    if source is None:
        return "its <plugin> element is not found where the expansion says it is written"
    calls = _macro_calls(source) or []
    problem = _literal_problem(source, calls)
    if problem is not None:
        return problem
    names = [(e.get("name") or "").strip() for e in children(source, "link")]
    body = child(source, "bodyName")
    for block in group:
        if calls:
            called = _called_link_names(block, calls)
            if isinstance(called, str):
                return called
            names = called
        if is_vrx_usv_dynamics(source.get("filename") or ""):
            names = [(body.text or "").strip()] if body is not None else [
                leaf_name(pl.link.name) for pl in block.plans]
        if len(names) != len(block.plans):
            return "its link blocks do not each name a link the model has"
        block.lines = [line for plan, name in zip(block.plans, names, strict=True)
                       for line in _plugin_lines(plan, name, XmlEditor(b"<a/>", "text"))]
    if any(b.lines != group[0].lines for b in group):
        where = ", ".join(f"{c[0]}:{c[1]}" for b in group if (c := b.called) is not None)
        return (f"the macro holding it is called {len(group)} times ({where}) with links "
                "whose migrated numbers differ")
    return None


def _verify(request: MigrateRequest, editor: XmlEditor, done: Sequence[XacroBlock],
            before: SdfDocument) -> list[str]:
    """The expansion (open in ``editor``; ``before``: its links) with the written blocks
    replaced as in the source (``link_name`` as expanded): each link must carry what its block
    migrates to; a code the audit now reports on a link is returned, to be said."""
    path = str(request.path)
    for block in done:
        lines = [line for plan in block.plans for line in _plugin_lines(
            plan, leaf_name(plan.link.name), editor)]
        if request.keep_classic:
            parent = block.element.getparent()
            assert parent is not None
            editor.append_child_lines(parent, lines)
        else:
            editor.replace_element(block.element, lines)
    after = read_urdf_bytes(editor.result(), path, request.model_paths)
    by_name = links_by_name(after)
    for block in done:
        for plan in block.plans:
            if not migrated_already(by_name[plan.link.name], plan.equivalent):
                raise GzInertiaError(f"{path}: internal error: link {plan.link.name!r} does not "
                                     "read back as migrated; nothing written")
    return new_audit_codes(before, after, [pl.link.name for b in done for pl in b.plans])


def migrate_xacro(request: MigrateRequest) -> MigrateResult:
    """The classic blocks of ``request``'s xacro file migrated in its source (module
    docstring): the edit of the file holding the first block, per link migrated its outcome,
    the blocks not written in ``pending``."""
    if request.to != "gz-sim":
        raise GzInertiaError(f"{request.path}: --to {request.to} edits SDFormat and URDF files: "
                             "`gzinertia expand FILE` prints the URDF of a xacro")
    refuse_fragment(request.path, "migrate")
    expansion, urdf = _expand(request)
    migration, blocks, doc = _plan(request, expansion, urdf)
    old = read_file_bytes(request.path)
    if not migration.plans:
        nothing = migration.nothing
        notes = migration.notes if nothing is None else list(nothing.notes)
        return MigrateResult(request.path, old, old, (), migration.skipped, (), tuple(notes))
    rewrite = _rewrite(request, [b for b in blocks if b.plans])
    audited = _verify(request, migration.editor, rewrite.done, doc)
    done = [plan for block in rewrite.done for plan in block.plans]
    warnings = [w for plan in done for w in plan.warnings]
    for plan in done:
        warnings += [w for w in explicit_warnings(UrdfLinkPlan(
            plan.link, plan.equivalent, plan.density, "")) if w not in warnings]
    warnings += audited
    notes = [*migration.notes, *rewrite.notes]
    if any(np.any(pl.equivalent.A_BBo_B.linear_first()) for pl in done):
        notes.append(EXPLICIT_NOTE)
    links = tuple(MigratedLink(pl.link, pl.plugin, pl.equivalent,
                               bool(np.any(pl.equivalent.A_BBo_B.linear_first())),
                               bool(pl.equivalent.terms), pl.buoyancy) for pl in done)
    if not rewrite.done:
        return MigrateResult(request.path, old, old, links, migration.skipped,
                             tuple(warnings), tuple(notes), tuple(rewrite.pending))
    return MigrateResult(rewrite.file, rewrite.editor.data, rewrite.editor.result(), links,
                         migration.skipped, tuple(warnings), tuple(notes),
                         tuple(rewrite.pending))
