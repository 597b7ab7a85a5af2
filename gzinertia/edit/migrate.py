"""``gzinertia migrate``: the classic marine plugins of an SDFormat or URDF file (UUV Simulator's
underwater-object plugin, VRX's USV dynamics) written as their gz-sim equivalent, over the
:class:`~gzinertia.edit.model_file.ModelFile` backend.

Per link (the mathematics: :mod:`gzinertia.classic.migrate`): the added mass as
``<fluid_added_mass>`` about the link origin in link axes (its symmetric part; the skew part's
size, and how DART's Coriolis wrench differs from the plugin's, in the outcome, the warnings and
the comment written with it), the damping as gz-sim Hydrodynamics terms (gz-sim's sign), and the
buoyancy left to gz-sim's Buoyancy system, which floats the collisions: the net buoyancy
before and after is reported, never changed silently. The classic block is removed (gz-sim does
not load it, and numbers left in two places drift apart) unless ``keep_classic``. A URDF file
takes the added mass in the Hydrodynamics plugin instead (:mod:`gzinertia.edit.migrate_urdf`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from gzinertia.checks.context import DocumentContext
from gzinertia.classic import UUV_COMMIT, VRX_COMMIT
from gzinertia.classic.blocks import ClassicPlugins, classic_plugins_in
from gzinertia.classic.migrate import GzEquivalent, uuv_equivalent, vrx_equivalent
from gzinertia.classic.uuv import CONSTRUCTION_DENSITY, UuvLink
from gzinertia.classic.vrx import VrxDynamics
from gzinertia.edit.backends import model_format
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import plugin_element
from gzinertia.edit.migrate_urdf import (
    UrdfLinkPlan,
    refuse_unmigratable,
    remove_classic_blocks,
    write_urdf,
)
from gzinertia.edit.model_file import chosen_link
from gzinertia.edit.sdf_file import SdfModelFile
from gzinertia.edit.urdf_file import UrdfModelFile
from gzinertia.edit.verify import WRITE_RTOL
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.hydrodynamics_terms import added_mass_of, derivatives
from gzinertia.model_reader import read_model_file
from gzinertia.record_base import Record, ValueRecord
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.vocabulary.scoped_names import leaf_name

__all__ = ["TARGETS", "BuoyancyChange", "MigrateResult", "MigratedLink", "migrate"]

#: What ``--to`` accepts.
TARGETS = ("gz-sim",)
Plugin = Literal["uuv-simulator", "vrx"]
#: Below this relative size a difference is round-off, not a difference to report.
_NEGLIGIBLE = 1e-12


@dataclass(frozen=True, repr=False, eq=False)
class BuoyancyChange(ValueRecord):
    """A UUV link's buoyancy: the volume the plugin floated (``<volume>``, or mass/1028 with
    ``<neutrally_buoyant>``) and the collisions' volume gz-sim's Buoyancy system floats (m³),
    and the net buoyancy of each as a fraction of the weight in the plugin's fluid."""

    plugin_volume: float
    collision_volume: float
    net_plugin: float
    net_gz: float


@dataclass(frozen=True, repr=False, eq=False)
class MigratedLink(Record):
    """One link migrated: the plugin it came from, its gz-sim equivalent (about the link origin
    in link axes), what was written and the buoyancy change (``None`` for VRX, whose hull
    buoyancy is not converted)."""

    link: LinkRecord
    plugin: Plugin
    equivalent: GzEquivalent
    added_mass_written: bool
    terms_written: bool
    buoyancy: BuoyancyChange | None


#: What ``migrate`` made: per link migrated, its outcome.
MigrateResult = Edit[MigratedLink]


@dataclass(repr=False, eq=False)
class _Plan(Record):
    """What is to be written for one link, with what is said about it."""

    link: LinkRecord
    plugin: Plugin
    equivalent: GzEquivalent
    density: float
    buoyancy: BuoyancyChange | None
    warnings: list[str]


def migrate(
    path: str | Path,
    *,
    to: str = "gz-sim",
    keep_classic: bool = False,
    force: bool = False,
    upgrade_version: bool = True,
    model_paths: Sequence[str | Path] = (),
    data: bytes | None = None,
) -> MigrateResult:
    """The classic marine plugin blocks of the SDFormat or URDF file ``path`` as gz-sim
    ``<fluid_added_mass>`` and Hydrodynamics terms (module docstring). ``force`` replaces a
    ``<fluid_added_mass>`` or plugin terms the link has already; ``upgrade_version``: raise a
    file older than SDF 1.10 to 1.10 (``<fluid_added_mass>``'s version) when its meaning
    allows; ``data``: the file's bytes when they do not come from ``path`` (standard input).
    Writes nothing: see :meth:`Edit.write`."""
    if to not in TARGETS:
        raise SettingError("to", "{to} must be one of " + ", ".join(TARGETS) + ", not {value}",
                           value=to)
    p = Path(path)
    urdf = model_format(p) is UrdfModelFile
    if urdf:
        refuse_unmigratable(p, data)
    old = read_file_bytes(p) if data is None else data
    editor = XmlEditor(old, str(p))
    doc = read_model_file(p, model_paths) if urdf else SdfModelFile.open(p, model_paths,
                                                                         old).doc
    masses = {leaf_name(lk.name): lk.inertial.mass for lk in doc.links}
    plugins = classic_plugins_in(editor.root, str(p), masses)
    if not plugins.uuv and not plugins.vrx:
        return MigrateResult(p, old, old, notes=(f"{p}: no UUV Simulator underwater-object or "
                                                  "VRX USV dynamics plugin: nothing to migrate",))
    skipped: list[str] = []
    plans = _plans(plugins, doc, p, not urdf, skipped)
    notes = [_source_note(plugins, dart=not urdf)]
    if keep_classic:
        notes.append("the classic plugin blocks are kept (--keep-classic): Gazebo classic still "
                     "applies them; gz-sim does not load them")
    else:
        notes.append("the classic plugin blocks are removed (gz-sim does not load them)")
    if urdf:
        result = _write_urdf(p, old, plans, (keep_classic, force), model_paths, notes)
        return replace(result, skipped=tuple(skipped))
    if not keep_classic:
        remove_classic_blocks(editor)
    result = _write(p, old, editor.result(), plans, (force, upgrade_version), model_paths,
                    notes)
    return replace(result, skipped=tuple(skipped))


def _write_urdf(path: Path, old: bytes, plans: list[_Plan], flags: tuple[bool, bool],
                package_paths: Sequence[str | Path], notes: list[str]) -> MigrateResult:
    """The URDF path (:mod:`gzinertia.edit.migrate_urdf`): added mass and damping in a
    Hydrodynamics ``<gazebo>`` block, read back."""
    keep_classic, force = flags
    written = write_urdf(path, [UrdfLinkPlan(pl.link, pl.equivalent, pl.density,
                                             _comment(pl, False))
                                for pl in plans], keep_classic, force, package_paths)
    warnings = [w for plan in plans for w in plan.warnings]
    warnings += [w for w in written.warnings if w not in warnings]
    links = tuple(MigratedLink(pl.link, pl.plugin, pl.equivalent,
                               pl.link.name in written.with_mass,
                               pl.link.name in written.with_terms, pl.buoyancy) for pl in plans)
    return MigrateResult(path, old, written.new, links, (), tuple(warnings),
                         (*notes, *written.notes))


def _source_note(plugins: ClassicPlugins, dart: bool) -> str:
    names = []
    if plugins.uuv:
        names.append(f"UUV Simulator @ {UUV_COMMIT[:8]}")
    if plugins.vrx:
        names.append(f"VRX gazebo_classic @ {VRX_COMMIT[:8]}")
    return ("semantics of " + " and ".join(names) + " (docs/classic_plugins.md)" + (
        "; gz-sim applies <fluid_added_mass> with the DART engine only" if dart else ""))


def _link(doc: SdfDocument, name: str, model: str, path: Path) -> LinkRecord | None:
    """The link a plugin block of ``model`` (scoped, ``""`` outside a model) names; ``""``
    names the model's first link (VRX's default); ``None`` when the model has no such link
    (the plugins skip such a block with a warning)."""
    mine = [lk for lk in doc.links if not model or lk.name.startswith(model + "::")]
    if not name:
        return mine[0] if mine else None
    scoped = f"{model}::{name}" if model else name
    if not any(lk.name == scoped or leaf_name(lk.name) == name for lk in mine):
        return None
    return chosen_link(doc, scoped, path)


def _plans(plugins: ClassicPlugins, doc: SdfDocument, path: Path, dart: bool,
           skipped: list[str]) -> list[_Plan]:
    """What to write per link; ``dart``: the added mass goes to DART (SDFormat), not to the
    Hydrodynamics plugin (URDF), which says its own differences. Blocks naming no link of the
    model are added to ``skipped``."""
    context = DocumentContext(doc)
    by_name = {ctx.link.name: ctx for ctx in context.links}
    plans = []
    absent = "the model has no such link (the plugin skips its block too)"
    sources: list[tuple[str, str, Plugin, UuvLink | VrxDynamics, float]] = [
        *((b.link, u.model, "uuv-simulator", b, u.fluid_density)
          for u in plugins.uuv for b in u.links),
        *((v.link, v.model, "vrx", v, v.terms["waterDensity"]) for v in plugins.vrx),
    ]
    for name, model, kind, block, density in sources:
        link = _link(doc, name, model, path)
        if link is None:
            skipped.append(f"{name or model}: {absent}")
            continue
        p = np.asarray(link.inertial.p_BoBcm_B, dtype=float)
        if _migrated_already(link, uuv_equivalent(block, p) if isinstance(block, UuvLink)
                             else vrx_equivalent(block, p)):
            skipped.append(f"{link.name}: migrated already (it carries the added mass and "
                           "Hydrodynamics terms this block migrates to)")
            continue
        if isinstance(block, UuvLink):
            eq = uuv_equivalent(block, p)
            buoyancy = _buoyancy(block, link, by_name[link.name].gazebo_volume[0], density)
            warnings = _uuv_warnings(block, link, eq, buoyancy, dart)
        else:
            eq, buoyancy = vrx_equivalent(block, p), None
            warnings = _vrx_warnings(link, eq, dart)
        plans.append(_Plan(link, kind, eq, density, buoyancy, warnings))
    _refuse_doubles(plans, path)
    return plans


def _migrated_already(link: LinkRecord, eq: GzEquivalent) -> bool:
    """Whether ``link`` carries what ``eq`` writes (a block kept with ``--keep-classic`` and
    migrated before): its added mass (``<fluid_added_mass>``, or the Hydrodynamics plugin's
    ``<iDotJ>`` in a URDF) and damping terms, to the written precision."""
    terms = link.hydrodynamics[0].terms if link.hydrodynamics else {}
    A = link.inertial.A_BBo_B
    have = A.linear_first() if A is not None else added_mass_of(derivatives(terms))
    want = eq.A_BBo_B.linear_first()
    if have is None:
        have = np.zeros((6, 6))
    scale = max(float(np.max(np.abs(want))), *(abs(v) for v in eq.damping.values()), 1e-300)
    if not (np.any(want) or eq.damping):
        return False  # nothing to write: never "migrated already"
    if np.max(np.abs(have - want)) > WRITE_RTOL * scale:
        return False
    return all(abs(terms.get(n, np.inf) - v) <= WRITE_RTOL * scale for n, v in eq.damping.items())


def _refuse_doubles(plans: list[_Plan], path: Path) -> None:
    """One line when two blocks act on one link: Gazebo classic adds their forces, and a sum
    is not migrated."""
    seen: dict[str, _Plan] = {}
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
            f"{link.name}: <linear_damping_forward_speed> is not written: its gz-sim terms "
            f"({shown}) are <iJK> names whose meaning changed between gz-sim releases "
            "(gz-sim#1784, #1888) and that gzinertia does not read back; add them by hand for "
            "gz-sim 8 or later")
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


def _comment(plan: _Plan, dart: bool) -> str:
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


def _write(path: Path, old: bytes, stripped: bytes, plans: list[_Plan],
           flags: tuple[bool, bool], model_paths: Sequence[str | Path],
           notes: list[str]) -> MigrateResult:
    """Writes the added mass (one backend batch), then the plugin terms (a second: a backend
    sets a link once per edit) into ``stripped``; each batch is read back and audited once
    (a code the audit did not report before is a warning)."""
    force, upgrade_version = flags
    warnings = [w for plan in plans for w in plan.warnings]
    with_mass = [pl for pl in plans if np.any(pl.equivalent.A_BBo_B_exact)]
    with_terms = [pl for pl in plans if pl.equivalent.damping]
    masses = SdfModelFile.open(path, model_paths, stripped)
    with masses.batch() as mass_batch:
        for pl in with_mass:
            masses.set_added_mass(pl.link.name, pl.equivalent.A_BBo_B, force=force,
                                  upgrade_version=upgrade_version, comment=_comment(pl, True))
    current = masses.new_bytes()
    edits = [mass_batch.edit] if with_mass else []
    if with_terms:
        terms = SdfModelFile.open(path, model_paths, current)
        with terms.batch() as term_batch:
            for pl in with_terms:
                terms.set_plugin_terms(pl.link.name, pl.equivalent.damping, force=force,
                                       water_density=pl.density)
        current = terms.new_bytes()
        edits.append(term_batch.edit)
    for edit in edits:
        notes += [n for n in edit.notes if n not in notes]
        warnings += [w for w in edit.warnings if w not in warnings]
    both = [pl.link.name for pl in with_terms if pl in with_mass]
    new = _added_mass_off(path, model_paths, current, both) if both else current
    links = tuple(MigratedLink(pl.link, pl.plugin, pl.equivalent, pl in with_mass,
                               pl in with_terms, pl.buoyancy) for pl in plans)
    return MigrateResult(path, old, new, links, (), tuple(warnings), tuple(notes))


def _added_mass_off(path: Path, model_paths: Sequence[str | Path], written: bytes,
                    names: list[str]) -> bytes:
    """``written`` with ``<disable_added_mass>true`` in the Hydrodynamics plugin of each link of
    ``names`` (they carry ``<fluid_added_mass>``: added mass counts once, as ``gzinertia hydro``
    writes it), read back."""
    backend = SdfModelFile.open(path, model_paths, written)
    editor = XmlEditor(written, str(path))
    for name in names:
        plugin = backend.doc.link(name).hydrodynamics[0]
        if not plugin.disable_added_mass:
            editor.set_children_text(plugin_element(editor, plugin),
                                     {"disable_added_mass": "true"})
    new = editor.result()
    backend.verify(new)
    return new
