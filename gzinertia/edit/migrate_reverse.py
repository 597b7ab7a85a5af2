"""``gzinertia migrate --to uuv-simulator``: a link's gz-sim hydrodynamics (``<fluid_added_mass>``
or the Hydrodynamics plugin's ``<iDotJ>``, its ``<iJ>`` and ``<iJabsK>`` terms) written as UUV
Simulator's underwater-object plugin block, for a model that stays on Gazebo classic (the
mathematics: :mod:`gzinertia.classic.reverse`).

Per model, one ``<plugin filename="libuuv_underwater_object_ros_plugin.so">`` holding a
``fossen`` block per link: ``<added_mass>`` and ``<linear_damping>`` (36 values, the plugin's
flipped axes), ``<quadratic_damping>`` (its diagonal), ``<volume>`` and
``<center_of_buoyancy>`` the collisions' (what gz-sim's Buoyancy system floats, so the net
buoyancy stays), in a URDF inside a ``<gazebo>`` element. The gz-sim elements converted are
removed (Gazebo classic ignores them, and numbers left in two places drift apart): the link's
``<fluid_added_mass>`` and its Hydrodynamics ``<plugin>``. What the plugin cannot hold (the
skew part of an added mass off the centre of mass, quadratic cross terms, ``<iJK>`` terms) is
said per link with its values; what the audit now reports on a link is said. A link that has a
classic block already, or whose added mass is given twice, is skipped and said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from lxml import etree

from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.classic import UUV_COMMIT
from gzinertia.classic.blocks import classic_plugins_in
from gzinertia.classic.migrate import uuv_equivalent
from gzinertia.classic.reverse import UuvBlock, uuv_block
from gzinertia.classic.uuv import CONSTRUCTION_DENSITY, UuvLink
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import (
    ascii_comment,
    format_value,
    link_element,
    plugin_element,
    remove_fluid_added_mass,
)
from gzinertia.edit.migrate_plans import links_by_name
from gzinertia.edit.migrate_request import (
    BuoyancyChange,
    MigratedLink,
    MigrateRequest,
    MigrateResult,
)
from gzinertia.edit.model_file import ModelFile, new_audit_codes
from gzinertia.edit.verify import WRITE_RTOL
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import added_mass_active, added_mass_of
from gzinertia.physics.negligible import entry_scales
from gzinertia.record_base import Record
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.vocabulary.scoped_names import leaf_name

__all__ = ["migrate_to_uuv"]

#: The plugin file ``--to uuv-simulator`` writes (UUV Simulator's ROS wrapper, as its
#: vehicles load it).
UUV_FILENAME = "libuuv_underwater_object_ros_plugin.so"


@dataclass(frozen=True, repr=False, eq=False)
class _Reverse(Record):
    """One link to write: its record, its block, and what is said about it."""

    link: LinkRecord
    block: UuvBlock
    warnings: tuple[str, ...]


def _added_mass(link: LinkRecord, skipped: list[str]) -> np.ndarray | None:
    """The gz-sim added mass of ``link`` (about Bo in link axes, linear-first): its
    ``<fluid_added_mass>`` or its Hydrodynamics plugin's, zero when none; ``None`` (and why in
    ``skipped``) when both apply or the plugin's signs are mixed."""
    A = link.inertial.A_BBo_B
    plugin = link.hydrodynamics[0] if link.hydrodynamics else None
    active = plugin is not None and added_mass_active(plugin) and bool(
        np.any(plugin.D_BBo_B))
    if A is not None and active:
        skipped.append(f"{link.name}: both <fluid_added_mass> and its Hydrodynamics plugin's "
                       "<iDotJ> apply added mass in gz-sim: keep one, then migrate")
        return None
    if A is not None:
        return A.linear_first()
    if not active:
        return np.zeros((6, 6))
    assert plugin is not None
    found = added_mass_of(plugin.D_BBo_B)
    if found is None:
        skipped.append(f"{link.name}: its <iDotJ> diagonal has mixed signs: the added mass "
                       "cannot be told (gzinertia convert reads them the same way)")
    return found


def _warnings(link: LinkRecord, block: UuvBlock) -> tuple[str, ...]:
    out = []
    if block.added_mass_gap > 1e-12 * (float(np.max(np.abs(block.Ma))) or 1.0):
        out.append(f"{link.name}: the plugin applies its added mass at the centre of mass: the "
                   "symmetric <added_mass> written differs from gz-sim's about the origin by up "
                   f"to {block.added_mass_gap:.4g} per unit acceleration")
    if block.unexpressed:
        shown = ", ".join(f"{n}={v:.6g}" for n, v in block.unexpressed.items())
        out.append(f"{link.name}: the plugin has no cell for these gz-sim terms (its quadratic "
                   f"damping is diagonal, at the centre of mass): {shown}; not written")
    if len(link.hydrodynamics) > 1:
        out.append(f"{link.name}: only its first Hydrodynamics plugin is converted")
    return tuple(out)


def _plans(doc: SdfDocument, classic: set[str], skipped: list[str]) -> list[_Reverse]:
    """A block per link with gz-sim added mass or Hydrodynamics terms (none: nothing to do)."""
    out = []
    for ctx in DocumentContext(doc).links:
        link = ctx.link
        if link.inertial.A_BBo_B is None and not link.hydrodynamics:
            continue
        if leaf_name(link.name) in classic:
            skipped.append(f"{link.name}: it has a classic plugin block already")
            continue
        A = _added_mass(link, skipped)
        if A is None:
            continue
        out.append(_reverse(ctx, A))
    return out


def _reverse(ctx: LinkContext, A: np.ndarray) -> _Reverse:
    link = ctx.link
    plugin = link.hydrodynamics[0] if link.hydrodynamics else None
    terms = {} if plugin is None else {n: v for n, v in plugin.terms.items() if "Dot" not in n}
    signed = {} if plugin is None else plugin.signed_quadratic
    volume, centroid = ctx.gazebo_volume
    block = uuv_block(leaf_name(link.name), A, terms, signed,
                      np.asarray(link.inertial.p_BoBcm_B, dtype=float), volume,
                      np.asarray(centroid, dtype=float))
    return _Reverse(link, block, _warnings(link, block))


def _values(values: np.ndarray, scales: np.ndarray) -> str:
    return " ".join(format_value(float(v), float(s)) for v, s in zip(values.ravel(),
                                                                       scales.ravel(),
                                                                       strict=True))


def block_lines(block: UuvBlock, unit: str) -> list[str]:
    """The ``<link>`` block of the plugin (lines, indented by ``unit`` per level)."""
    def vector(values: np.ndarray) -> str:
        return _values(values, np.full(values.shape, max(float(np.max(np.abs(values))),
                                                         1e-300)))

    forward = ([f"{unit * 2}<linear_damping_forward_speed>"
                f"{_values(block.D_fwd, entry_scales(block.D_fwd))}"
                "</linear_damping_forward_speed>"] if np.any(block.D_fwd) else [])
    return [
        f'<link name="{block.link}">',
        f"{unit}<volume>{vector(np.array([block.volume]))}</volume>",
        f"{unit}<center_of_buoyancy>{vector(block.p_BcmC_B)}</center_of_buoyancy>",
        f"{unit}<hydrodynamic_model>",
        f"{unit * 2}<type>fossen</type>",
        f"{unit * 2}<added_mass>{_values(block.Ma, entry_scales(block.Ma))}</added_mass>",
        f"{unit * 2}<linear_damping>{_values(block.D_lin, entry_scales(block.D_lin))}"
        "</linear_damping>",
        *forward,
        f"{unit * 2}<quadratic_damping>{vector(block.D_quad)}</quadratic_damping>",
        f"{unit}</hydrodynamic_model>",
        "</link>",
    ]


def _comment() -> str:
    return ascii_comment(f"gzinertia migrate to uuv-simulator: gz-sim's added mass and "
                         f"Hydrodynamics terms as UUV Simulator @ {UUV_COMMIT[:8]} applies "
                         "them (docs/migrate.md); volume and centre of buoyancy: the "
                         "collisions gz-sim's Buoyancy system floats")


def _write(editor: XmlEditor, plans: Sequence[_Reverse], urdf: bool) -> None:
    """The blocks (one plugin per model, or per robot), and the gz-sim elements removed."""
    unit = editor.indent_unit.decode()
    holders: dict[int, tuple[etree._Element, list[str]]] = {}
    for plan in plans:
        elem = link_element(editor, plan.link)
        holder = editor.root if urdf else elem.getparent()
        assert holder is not None
        holders.setdefault(id(holder), (holder, []))[1].extend(
            unit + line for line in block_lines(plan.block, unit))
        if not urdf:
            remove_fluid_added_mass(editor, elem)
        if plan.link.hydrodynamics:
            plugin = plugin_element(editor, plan.link.hydrodynamics[0])
            parent = plugin.getparent()
            alone = urdf and parent is not None and parent.tag == "gazebo" and len(
                [e for e in parent if isinstance(e.tag, str)]) == 1
            editor.remove_element(parent if alone and parent is not None else plugin,
                                  with_comment=True)
    for holder, lines in holders.values():
        written = [f"<!-- {_comment()} -->",
                   f'<plugin name="uuv_plugin" filename="{UUV_FILENAME}">', *lines, "</plugin>"]
        if urdf:
            written = ["<gazebo>", *(unit + line for line in written), "</gazebo>"]
        editor.append_child_lines(holder, written)


def _read_back(path: Path, new: bytes, plans: Sequence[_Reverse], after: SdfDocument) -> None:
    """Each block reads back as meant, and its link carries no gz-sim added mass or terms."""
    editor = XmlEditor(new, str(path))
    read = {b.link: b for p in classic_plugins_in(editor.root, str(path)).uuv for b in p.links}
    by_name = links_by_name(after)
    for plan in plans:
        got: UuvLink | None = read.get(plan.block.link)
        want = plan.block
        link = by_name[plan.link.name]
        ok = got is not None and link.inertial.A_BBo_B is None and not link.hydrodynamics
        if got is not None:
            for a, b in ((got.Ma, want.Ma), (got.D_lin, want.D_lin),
                         (np.diag(got.D_quad), want.D_quad)):
                scale = max(float(np.max(np.abs(b))), 1e-300)
                ok = ok and float(np.max(np.abs(a - b))) <= WRITE_RTOL * scale
        if not ok:
            raise GzInertiaError(f"{path}: internal error: the block of {plan.link.name!r} does "
                                 "not read back as meant; nothing written")


def _outcome(plan: _Reverse) -> MigratedLink:
    """What the written block means in gz-sim terms, and its buoyancy (unchanged)."""
    b = plan.block
    p = np.asarray(plan.link.inertial.p_BoBcm_B, dtype=float)
    m = plan.link.inertial.mass
    read = UuvLink(link=b.link, model_type="fossen", volume=b.volume, volume_declared=True,
                   p_BcmC_B=(float(b.p_BcmC_B[0]), float(b.p_BcmC_B[1]),
                             float(b.p_BcmC_B[2])),
                   cob_declared=True, neutrally_buoyant=False, box=None, Ma=b.Ma,
                   D_lin=b.D_lin, D_forward=np.zeros((6, 6)), D_quad=np.diag(b.D_quad),
                   surface=None, source=plan.link.source)
    net = (CONSTRUCTION_DENSITY * b.volume / m - 1.0) if m > 0 else float("nan")
    buoyancy = BuoyancyChange(b.volume, b.volume, net, net) if m > 0 else None
    return MigratedLink(plan.link, "uuv-simulator", uuv_equivalent(read, p),
                        bool(np.any(b.Ma)), bool(np.any(b.D_lin) or np.any(b.D_quad)),
                        buoyancy, to="uuv-simulator")


def migrate_to_uuv(request: MigrateRequest, opened: ModelFile,
                   read_back: Callable[[bytes], SdfDocument]) -> MigrateResult:
    """``request``'s SDFormat or URDF file (open in ``opened``; ``read_back`` reads edited
    bytes as its backend does) with each link's gz-sim hydrodynamics as a UUV Simulator block
    (module docstring), read back."""
    path, old, doc = request.path, opened.old, opened.doc
    editor = XmlEditor(old, str(path))
    classic = {leaf_name(b.link) for p in classic_plugins_in(editor.root, str(path)).uuv
               for b in p.links}
    skipped: list[str] = []
    plans = _plans(doc, classic, skipped)
    if not plans:
        return MigrateResult(path, old, old, (), tuple(skipped), (), (
            f"{path}: no <fluid_added_mass> nor Hydrodynamics plugin to migrate to UUV "
            "Simulator",))
    _write(editor, plans, urdf=editor.root.tag == "robot")
    new = editor.result()
    after = read_back(new)
    _read_back(path, new, plans, after)
    warnings = [w for plan in plans for w in plan.warnings]
    warnings += new_audit_codes(doc, after, [plan.link.name for plan in plans])
    notes = (f"semantics of UUV Simulator @ {UUV_COMMIT[:8]} (docs/classic_plugins.md); the "
             "gz-sim <fluid_added_mass> and Hydrodynamics plugins converted are removed",
             "the plugin floats its <volume> in its <fluid_density> (1028 kg/m^3 by default); "
             "gz-sim's Buoyancy system floated the collisions in the world's fluid")
    return MigrateResult(path, old, new, tuple(_outcome(p) for p in plans), tuple(skipped),
                         tuple(warnings), notes)
