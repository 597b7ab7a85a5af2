"""What ``gzinertia migrate`` writes, whatever the format (:mod:`gzinertia.edit.migrate`): the
classic marine plugin blocks of a file (UUV Simulator's underwater-object plugin, VRX's USV
dynamics) read into one :class:`Plan` per link (its gz-sim equivalent, about the link origin in
link axes, and what is said about it: :mod:`gzinertia.classic.migrate` holds the mathematics),
for both backends (the request and outcome records: :mod:`gzinertia.edit.migrate_request`).
The SDFormat writer is :mod:`gzinertia.edit.migrate_sdf`, the URDF one
:mod:`gzinertia.edit.migrate_urdf`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from gzinertia.checks.context import DocumentContext
from gzinertia.checks.explicit_added_mass import too_large_for_the_plugin
from gzinertia.classic import UUV_COMMIT, VRX_COMMIT
from gzinertia.classic.blocks import ClassicPlugins, classic_plugins_in
from gzinertia.classic.migrate import GzEquivalent, uuv_equivalent, vrx_equivalent
from gzinertia.classic.uuv import CONSTRUCTION_DENSITY, UuvLink, is_uuv_underwater_object
from gzinertia.classic.vrx import VrxDynamics, is_vrx_usv_dynamics
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.migrate_buoyancy import BuoyancyProxy, plan_proxy
from gzinertia.edit.migrate_request import (
    BuoyancyChange,
    MigrateRequest,
    MigrateResult,
    Plugin,
)
from gzinertia.edit.model_file import chosen_link
from gzinertia.edit.verify import WRITE_RTOL
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.hydrodynamics_terms import added_mass_of, derivatives
from gzinertia.record_base import Record
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.vocabulary.scoped_names import leaf_name

__all__ = ["Migration", "Plan", "added_mass_comment", "links_by_name",
           "migrated_already",
           "plan_migration", "remove_classic_blocks"]

#: Below this relative size a difference is round-off, not a difference to report.
_NEGLIGIBLE = 1e-12


@dataclass(repr=False, eq=False)
class Plan(Record):
    """What is to be written for one link, with what is said about it."""

    link: LinkRecord
    plugin: Plugin
    equivalent: GzEquivalent
    density: float
    buoyancy: BuoyancyChange | None
    warnings: list[str]
    #: The buoyancy proxy to add (``migrate --buoyancy proxy``), or ``None``.
    proxy: BuoyancyProxy | None = None


@dataclass(repr=False, eq=False)
class Migration(Record):
    """A file's migration planned: its bytes as read, an editor over them, the plans (none:
    nothing to migrate), the blocks skipped and the notes said whatever is written."""

    path: Path
    old: bytes
    editor: XmlEditor
    plans: list[Plan]
    skipped: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)

    @property
    def nothing(self) -> MigrateResult | None:
        """The result of a file without a classic marine plugin (unchanged, said in a note);
        ``None`` when there is something to migrate."""
        if self.plans or self.skipped or self.notes:
            return None
        return MigrateResult(self.path, self.old, self.old, notes=(
            f"{self.path}: no UUV Simulator underwater-object or VRX USV dynamics plugin: "
            "nothing to migrate",))


def plan_migration(request: MigrateRequest, old: bytes, doc: SdfDocument, dart: bool
                   ) -> Migration:
    """The plans of ``request``'s file (``old`` its bytes, ``doc`` its links as Gazebo builds
    them); ``dart``: the added mass goes to DART's ``<fluid_added_mass>`` (SDFormat), not to the
    Hydrodynamics plugin (URDF)."""
    path = request.path
    editor = XmlEditor(old, str(path))
    masses = {leaf_name(lk.name): lk.inertial.mass for lk in doc.links}
    plugins = classic_plugins_in(editor.root, str(path), masses)
    if not plugins.uuv and not plugins.vrx:
        return Migration(path, old, editor, [])
    if request.buoyancy == "proxy" and not dart:
        raise SettingError("buoyancy", f"{path}: " + "{buoyancy} proxy writes a collision that "
                           "collides with nothing (<collide_bitmask>), which a URDF cannot "
                           "carry: migrate the SDFormat file (gzinertia expand FILE --sdf), or "
                           "keep the collisions (the change in net buoyancy is said)")
    skipped: list[str] = []
    plans = plans_of(plugins, doc, path, dart, skipped, proxy=request.buoyancy == "proxy")
    notes = [source_note(plugins, dart=dart)]
    if request.keep_classic:
        notes.append("the classic plugin blocks are kept (--keep-classic): Gazebo classic still "
                     "applies them; gz-sim does not load them")
    else:
        notes.append("the classic plugin blocks are removed (gz-sim does not load them)")
    return Migration(path, old, editor, plans, tuple(skipped), notes)


def source_note(plugins: ClassicPlugins, dart: bool) -> str:
    """The note naming the classic plugins' source commits whose semantics the migration
    follows, and (``dart``) that gz-sim applies ``<fluid_added_mass>`` with DART only."""
    names = []
    if plugins.uuv:
        names.append(f"UUV Simulator @ {UUV_COMMIT[:8]}")
    if plugins.vrx:
        names.append(f"VRX gazebo_classic @ {VRX_COMMIT[:8]}")
    return ("semantics of " + " and ".join(names) + " (docs/classic_plugins.md)" + (
        "; gz-sim applies <fluid_added_mass> with the DART engine only" if dart else ""))


def links_by_name(doc: SdfDocument) -> dict[str, LinkRecord]:
    """``doc``'s links by scoped name (the first of a name, as :meth:`SdfDocument.link`),
    indexed once: a lookup per link stays linear in the links."""
    out: dict[str, LinkRecord] = {}
    for lk in doc.links:
        out.setdefault(lk.name, lk)
    return out


class _LinkNames:
    """The links of a document by name and by last part, indexed once (a search per block made
    ``migrate`` quadratic in the blocks)."""

    def __init__(self, doc: SdfDocument, path: Path) -> None:
        self.doc, self.path = doc, path
        self.by_name: dict[str, list[LinkRecord]] = {}
        self.by_leaf: dict[str, list[LinkRecord]] = {}
        for lk in doc.links:
            self.by_name.setdefault(lk.name, []).append(lk)
            self.by_leaf.setdefault(leaf_name(lk.name), []).append(lk)
        self.firsts: dict[str, LinkRecord | None] = {}

    def link(self, name: str, model: str) -> LinkRecord | None:
        """The link a plugin block of ``model`` (scoped, ``""`` outside a model) names; ``""``
        names the model's first link (VRX's default); ``None`` when the model has no such link
        (the plugins skip such a block with a warning); as
        :func:`~gzinertia.edit.model_file.chosen_link` chooses it."""
        def inside(lk: LinkRecord) -> bool:
            return not model or lk.name.startswith(model + "::")

        if not name:
            if model not in self.firsts:
                self.firsts[model] = next((lk for lk in self.doc.links if inside(lk)), None)
            return self.firsts[model]
        scoped = f"{model}::{name}" if model else name
        exact = self.by_name.get(scoped, [])
        if not any(map(inside, exact)) and not any(map(inside, self.by_leaf.get(name, []))):
            return None
        if not exact and "::" not in scoped:
            exact = self.by_leaf.get(scoped, [])
        return exact[0] if len(exact) == 1 else chosen_link(self.doc, scoped, self.path)


def plans_of(plugins: ClassicPlugins, doc: SdfDocument, path: Path, dart: bool,
           skipped: list[str], proxy: bool = False) -> list[Plan]:
    """What to write per link; ``dart``: the added mass goes to DART (SDFormat), not to the
    Hydrodynamics plugin (URDF), which says its own differences. Blocks naming no link of the
    model are added to ``skipped``; ``proxy``: each UUV link gets a buoyancy proxy."""
    context = DocumentContext(doc)
    by_name = {ctx.link.name: ctx for ctx in context.links}
    plans = []
    absent = "the model has no such link (the plugin skips its block too)"
    sources: list[tuple[str, str, Plugin, UuvLink | VrxDynamics, float]] = [
        *((b.link, u.model, "uuv-simulator", b, u.fluid_density)
          for u in plugins.uuv for b in u.links),
        *((v.link, v.model, "vrx", v, v.terms["waterDensity"]) for v in plugins.vrx),
    ]
    names = _LinkNames(doc, path)
    for name, model, kind, block, density in sources:
        link = names.link(name, model)
        if link is None:
            skipped.append(f"{name or model}: {absent}")
            continue
        p = np.asarray(link.inertial.p_BoBcm_B, dtype=float)
        if migrated_already(link, uuv_equivalent(block, p) if isinstance(block, UuvLink)
                             else vrx_equivalent(block, p)):
            skipped.append(f"{link.name}: migrated already (it carries the added mass and "
                           "Hydrodynamics terms this block migrates to)")
            continue
        extra: BuoyancyProxy | None = None
        if isinstance(block, UuvLink):
            eq = uuv_equivalent(block, p)
            floated = by_name[link.name].gazebo_volume
            buoyancy = _buoyancy(block, link, floated[0], density)
            extra = plan_proxy(block, link, floated) if proxy and buoyancy else None
            if extra is not None and buoyancy is not None:
                buoyancy = replace(buoyancy, collision_volume=extra.declared,
                                   net_gz=buoyancy.net_plugin)
            warnings = _uuv_warnings(block, link, eq, buoyancy, dart)
            warnings += [] if extra is None else [_proxy_words(link, extra)]
        else:
            eq, buoyancy = vrx_equivalent(block, p), None
            warnings = _vrx_warnings(link, eq, dart)
        if not dart:
            eq = _within_the_explicit_bound(eq, link, skipped)
        plans.append(Plan(link, kind, eq, density, buoyancy, warnings, extra))
    _refuse_doubles(plans, path)
    return plans


def _proxy_words(link: LinkRecord, proxy: BuoyancyProxy) -> str:
    """What the proxy does and where it differs from the plugin's buoyancy."""
    at = " ".join(f"{v:.4g}" for v in proxy.p_BoP_B)
    return (f"{link.name}: buoyancy proxy: a sphere of {proxy.volume:.6g} m^3 at ({at}) m that "
            "collides with nothing makes gz-sim's Buoyancy system float the plugin's "
            f"{proxy.declared:.6g} m^3 at its centre of buoyancy (the collisions float "
            f"{proxy.collisions:.6g} m^3); exact fully submerged, near the surface the sphere "
            "wets differently from the declared volume")


def _within_the_explicit_bound(eq: GzEquivalent, link: LinkRecord, skipped: list[str]
                               ) -> GzEquivalent:
    """``eq`` for a URDF, where the added mass can only go to the Hydrodynamics plugin, which
    applies it explicitly: without its added mass when that exceeds the rigid body's on an axis
    (it would diverge: gz-sim#1923, the audit's GZI506), said in ``skipped`` with the matrix
    not written and the way out; the damping is migrated either way."""
    A = eq.A_BBo_B.linear_first()
    why = too_large_for_the_plugin(A, link)
    if why is None:
        return eq
    rows = "; ".join(" ".join(f"{v:.6g}" for v in row) for row in A)
    skipped.append(
        f"{link.name}: added mass not migrated: {why}. URDF cannot carry <fluid_added_mass> "
        "(sdformat#1467): convert the URDF to SDFormat (gzinertia expand FILE --sdf) and "
        "migrate that for DART's implicit added mass. The matrix not written (about the "
        f"link origin, link axes, linear-first, symmetric part): [{rows}]")
    return replace(eq, A_BBo_B_exact=np.zeros((6, 6)))


def migrated_already(link: LinkRecord, eq: GzEquivalent) -> bool:
    """Whether ``link`` carries what ``eq`` writes (a block kept with ``--keep-classic`` and
    migrated before): its added mass (``<fluid_added_mass>``, or the Hydrodynamics plugin's
    ``<iDotJ>`` in a URDF) and damping terms, to the written precision."""
    plugin = link.hydrodynamics[0] if link.hydrodynamics else None
    terms = {} if plugin is None else plugin.terms
    written = {} if plugin is None else plugin.written_terms
    A = link.inertial.A_BBo_B
    have = A.linear_first() if A is not None else added_mass_of(derivatives(terms))
    want = eq.A_BBo_B.linear_first()
    if have is None:
        have = np.zeros((6, 6))
    scale = max(float(np.max(np.abs(want))), *(abs(v) for v in eq.terms.values()), 1e-300)
    if not (np.any(want) or eq.terms):
        return False  # nothing to write: never "migrated already"
    if np.max(np.abs(have - want)) > WRITE_RTOL * scale:
        return False
    return all(abs(written.get(n, np.inf) - v) <= WRITE_RTOL * scale
               for n, v in eq.terms.items())


def _refuse_doubles(plans: list[Plan], path: Path) -> None:
    """One line when two blocks act on one link: Gazebo classic adds their forces, and a sum
    is not migrated."""
    seen: dict[str, Plan] = {}
    for plan in plans:
        first = seen.setdefault(plan.link.name, plan)
        if first is not plan:
            raise GzInertiaError(
                f"{path}: link {plan.link.name!r} has two classic plugin blocks ({first.plugin} "
                f"and {plan.plugin}): Gazebo classic adds their forces; migrate does not merge "
                "them: keep one block per link")


def _buoyancy(block: UuvLink, link: LinkRecord, collision_volume: float,
              density: float) -> BuoyancyChange | None:
    """The net buoyancy both ways; ``None`` for a link whose mass is not positive."""
    m = link.inertial.mass
    if not (np.isfinite(m) and m > 0.0):
        return None
    declared = m / CONSTRUCTION_DENSITY if block.neutrally_buoyant else block.volume
    return BuoyancyChange(declared, collision_volume, density * declared / m - 1.0,
                          density * collision_volume / m - 1.0)


def _inertial_warnings(link: LinkRecord, eq: GzEquivalent, dart: bool) -> list[str]:
    """The added-mass difference, and with ``dart`` DART's Coriolis one, for both plugins."""
    out = []
    scale = float(np.max(np.abs(eq.A_BBo_B_exact))) or 1.0
    if eq.added_mass_gap > _NEGLIGIBLE * scale:
        out.append(
            f"{link.name}: the plugin's added mass about the link origin is not symmetric (its "
            f"force acts at the centre of mass from the origin's acceleration, or its matrix is "
            f"not symmetric): its symmetric part is written, and the wrench "
            f"differs by up to {eq.added_mass_gap:.4g} per unit acceleration")
    if dart and eq.coriolis_gap > 1e-9:
        what = ("the plugin applies none" if not eq.source_coriolis
                else "the plugin's own, at the centre of mass, differs")
        out.append(
            f"{link.name}: DART applies the Coriolis wrench of <fluid_added_mass> (Kirchhoff); "
            f"{what}: up to {100 * eq.coriolis_gap:.3g} % of the larger of the two over unit "
            "velocities")
    return out


def _uuv_warnings(block: UuvLink, link: LinkRecord, eq: GzEquivalent,
                  buoyancy: BuoyancyChange | None, dart: bool) -> list[str]:
    out = _inertial_warnings(link, eq, dart)
    if eq.forward_speed:
        shown = ", ".join(f"{n}={v:.6g}" for n, v in eq.forward_speed.items())
        out.append(
            f"{link.name}: <linear_damping_forward_speed> is written as the signed terms "
            f"{shown} (<iJU>: u·s_j, as every release since gazebosim/gz-sim#1784 reads them): "
            "the plugin's -D_fs·u·ν exactly, so when the link backs (u < 0) they push it along "
            "its motion, as the plugin did")
    if block.surface is not None:
        out.append(f"{link.name}: the surface-vessel buoyancy (metacentric width, length, "
                   "submerged height) is not converted")
    if buoyancy is None:
        out.append(f"{link.name}: the mass is not positive: the net buoyancy is not computed "
                   "(gz-sim's Buoyancy system floats the collisions)")
    elif abs(buoyancy.net_gz - buoyancy.net_plugin) > _NEGLIGIBLE:
        out.append(
            f"{link.name}: the plugin floated {buoyancy.plugin_volume:.6g} m^3 (net buoyancy "
            f"{buoyancy.net_plugin:+.1%} of the weight); gz-sim's Buoyancy system floats the "
            f"collisions' {buoyancy.collision_volume:.6g} m^3 (net {buoyancy.net_gz:+.1%}): "
            "the net buoyancy changes unless the collisions or the mass change (GZI503)")
    return out


def _vrx_warnings(link: LinkRecord, eq: GzEquivalent, dart: bool) -> list[str]:
    return [*_inertial_warnings(link, eq, dart),
            f"{link.name}: VRX's hull buoyancy and waves (waterLevel, hullRadius, boatWidth, "
            "boatLength) are not converted: gz-sim's Buoyancy system floats the collisions"]


def added_mass_comment(plan: Plan, dart: bool) -> str:
    """The provenance comment of the added mass (``dart``: as ``<fluid_added_mass>``, with
    DART's Coriolis difference; else as the Hydrodynamics plugin's terms)."""
    eq = plan.equivalent
    source = "UUV Simulator" if plan.plugin == "uuv-simulator" else "VRX"
    buoyancy = "" if plan.buoyancy is None else (
        f"; net buoyancy {plan.buoyancy.net_plugin:+.1%} with the plugin's volume, "
        f"{plan.buoyancy.net_gz:+.1%} with the collisions gz-sim floats")
    return (f"gzinertia migrate: A_BBo_B from {source}'s added mass about the link origin in "
            f"link axes, symmetric part (wrench difference up to {eq.added_mass_gap:.4g} per "
            f"unit acceleration" + (f"; Coriolis difference {100 * eq.coriolis_gap:.3g} %"
                                    if dart else "") + f"{buoyancy})")


def remove_classic_blocks(editor: XmlEditor) -> None:
    """Removes every classic marine ``<plugin>``; a URDF ``<gazebo>`` element left with
    nothing else goes with it."""
    for plugin in list(editor.root.iter("plugin")):
        filename = plugin.get("filename") or ""
        if not (is_uuv_underwater_object(filename) or is_vrx_usv_dynamics(filename)):
            continue
        parent = plugin.getparent()
        alone = parent is not None and parent.tag == "gazebo" and len(
            [e for e in parent if isinstance(e.tag, str)]) == 1
        editor.remove_element(parent if alone and parent is not None else plugin)
