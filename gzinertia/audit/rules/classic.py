"""Rules about Gazebo-classic marine plugins (:mod:`gzinertia.classic`): GZI501–GZI508.

The plugin blocks are read from the document's tree (:func:`gzinertia.classic.blocks.
classic_plugins_of_file`); each ``<link>`` block is matched with the link record of that name.
GZI506 judges gz-sim's Hydrodynamics plugin as well, which applies added mass from the last
steps' acceleration the same way (:mod:`gzinertia.checks.explicit_added_mass`); the edits that
write its ``<iDotJ>`` terms refuse the links beyond the bound. Semantics and sources:
``docs/classic_plugins.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.checks.explicit_added_mass import explicit_unstable_axes, rigid_diagonal
from gzinertia.classic.blocks import (
    ClassicPlugins,
    classic_plugins_of_file,
    mentions_classic_plugin,
)
from gzinertia.classic.uuv import CONSTRUCTION_DENSITY, UuvLink, UuvPlugin
from gzinertia.classic.vrx import ADDED_MASS_TERMS, LINEAR_TERMS, QUADRATIC_TERMS, VrxDynamics
from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.hydrodynamics_terms import added_mass_active, added_mass_term
from gzinertia.records import SourceRef
from gzinertia.vocabulary.scoped_names import leaf_name

__all__ = [
    "added_mass_asymmetric",
    "added_mass_not_psd",
    "buoyancy_centre_mismatch",
    "damping_injects_energy",
    "explicit_added_mass_unstable",
    "plugin_ignores",
    "plugin_unreadable",
    "volume_mismatch",
]

#: Relative asymmetry below which a matrix counts as symmetric (rounding of written numbers).
SYMMETRY_TOLERANCE = 1e-12
#: GZI504: a declared centre of buoyancy this far (as a fraction of the cube root of the
#: collisions' volume) from their centroid is reported.
CENTRE_TOLERANCE = 0.05
_AXES = ("u", "v", "w", "p", "q", "r")


def _written(value: float) -> str:
    """A value as the file writes it (up to 10 significant digits), not rounded for display."""
    return f"{value + 0.0:.10g}"


#: The last document's plugins and what refused to be read (the rules read them once).
_LAST: list[tuple[DocumentContext, ClassicPlugins, GzInertiaError | None]] = []


def _read(doc: DocumentContext) -> tuple[ClassicPlugins, GzInertiaError | None]:
    if _LAST and _LAST[0][0] is doc:
        return _LAST[0][1], _LAST[0][2]
    found, error = ClassicPlugins(), None
    files = [doc.doc.path, *(d.path for d in doc.doc.dependencies
                             if d.kind in ("file", "include") and d.path)]
    if doc.tree is not None or mentions_classic_plugin(files):
        masses = {_short(ctx): ctx.link.inertial.mass for ctx in doc.links}
        try:
            args = {d.uri: d.path for d in doc.doc.dependencies
                    if d.kind == "xacro-arg" and d.path is not None}
            roots = tuple(dict.fromkeys(str(Path(d.path).parent) for d in doc.doc.dependencies
                                        if d.kind == "package" and d.path))
            found = classic_plugins_of_file(doc.doc.path, doc.tree, masses, args, roots)
        except GzInertiaError as exc:
            error = exc  # GZI507 reports it
    _LAST[:] = [(doc, found, error)]
    return found, error


def _plugins(doc: DocumentContext) -> ClassicPlugins:
    return _read(doc)[0]


@document_rule("GZI508")
def plugin_ignores(doc: DocumentContext) -> Iterator[Finding]:
    """GZI508 classic-plugin-ignores: what the plugin does not do as the block says."""
    for _plugin, link, ctx in _uuv_links(doc):
        if link.notes:
            message = "UUV Simulator's plugin, on this block: " + "; ".join(link.notes)
            yield finding("GZI508", link.source, _name(ctx, link.link), message,
                          {"notes": list(link.notes)})


@document_rule("GZI507")
def plugin_unreadable(doc: DocumentContext) -> Iterator[Finding]:
    """GZI507 classic-plugin-unreadable: a block the plugin itself would refuse."""
    _found, error = _read(doc)
    if error is None:
        return
    if isinstance(error, SdfError):
        where, text = SourceRef(error.file, error.line or 0), error.message
    else:
        where, text = SourceRef(doc.doc.path, 0), str(error)
    message = (f"a classic marine plugin block could not be read ({text}); none of the "
               "GZI501-GZI506 checks ran on this file's classic plugins (a xacro file is "
               "expanded again for them, with the arguments and packages the audit used, "
               "under the default xacro policy)")
    yield finding("GZI507", where, None, message, {"error": text})


def _short(ctx: LinkContext) -> str:
    return leaf_name(ctx.link.name)


class _LinkIndex:
    """The links a plugin of ``model`` (scoped, ``""`` in URDF) may name, indexed once (a
    search per block made the audit quadratic in the blocks of a model)."""

    def __init__(self, doc: DocumentContext, model: str) -> None:
        mine = [c for c in doc.links if not model or c.link.name.startswith(model + "::")
                or c.link.name_in_file.startswith(model + "::")] or doc.links
        self.model = model
        self.first = mine[0] if mine else None
        self.scoped: dict[str, LinkContext] = {}
        self.named: dict[str, LinkContext] = {}
        for ctx in mine:  # the first link in document order wins, as a search finds it
            for key in (ctx.link.name, ctx.link.name_in_file):
                self.scoped.setdefault(key, ctx)
            for key in (ctx.link.name, ctx.link.name_in_file, _short(ctx)):
                self.named.setdefault(key, ctx)

    def find(self, name: str) -> LinkContext | None:
        """The link ``name`` names (``""``: the model's first): by its scoped name, else by
        its name, name in file or short name."""
        if not name:
            return self.first
        scoped = f"{self.model}::{name}" if self.model else name
        found = self.scoped.get(scoped)
        return found if found is not None else self.named.get(name)


def _link_of(doc: DocumentContext, name: str, model: str) -> LinkContext | None:
    """The link a plugin of ``model`` (scoped, ``""`` in URDF) names (``""``: its first)."""
    return _LinkIndex(doc, model).find(name)


def _uuv_links(doc: DocumentContext) -> Iterator[tuple[UuvPlugin, UuvLink, LinkContext | None]]:
    indexes: dict[str, _LinkIndex] = {}
    for plugin in _plugins(doc).uuv:
        index = indexes.get(plugin.model)
        if index is None:
            index = indexes[plugin.model] = _LinkIndex(doc, plugin.model)
        for link in plugin.links:
            yield plugin, link, index.find(link.link)


def _name(ctx: LinkContext | None, link: str) -> str:
    return link if ctx is None else ctx.name


def _added_mass_sources(doc: DocumentContext) -> Iterator[tuple[str, np.ndarray, SourceRef]]:
    """Every classic added-mass matrix: (link, matrix, where it is written)."""
    for _plugin, link, ctx in _uuv_links(doc):
        yield _name(ctx, link.link), link.Ma, link.added_mass_source or link.source
    for vrx in _plugins(doc).vrx:
        ctx = _link_of(doc, vrx.link, vrx.model)
        where = vrx.term_sources.get("xDotU", vrx.source)
        yield _name(ctx, vrx.link), vrx.Ma, where


@document_rule("GZI501")
def added_mass_asymmetric(doc: DocumentContext) -> Iterator[Finding]:
    """GZI501 classic-added-mass-asymmetric: ``Ma`` differs from its transpose."""
    for link, Ma, where in _added_mass_sources(doc):
        diff = np.abs(Ma - Ma.T)
        scale = float(np.max(np.abs(Ma))) if Ma.size else 0.0
        if scale == 0.0 or float(np.max(diff)) <= SYMMETRY_TOLERANCE * scale:
            continue
        i, j = np.unravel_index(int(np.argmax(np.triu(diff, 1))), diff.shape)
        message = (
            f"the added-mass matrix is not symmetric: ({i + 1},{j + 1}) = {_written(Ma[i, j])} "
            f"but ({j + 1},{i + 1}) = {_written(Ma[j, i])} (difference "
            f"{fmt(Ma[i, j] - Ma[j, i])}; "
            f"largest of the matrix). An added-mass matrix is symmetric (it comes from the "
            "fluid's kinetic energy); the plugin applies it as written, and <fluid_added_mass> "
            "takes 21 values: use the mean of the pair"
        )
        values = {"row": int(i) + 1, "column": int(j) + 1, "a_ij": Ma[i, j], "a_ji": Ma[j, i],
                  "difference": Ma[i, j] - Ma[j, i]}
        yield finding("GZI501", where, link, message, values)


@document_rule("GZI502")
def added_mass_not_psd(doc: DocumentContext) -> Iterator[Finding]:
    """GZI502 classic-added-mass-not-psd: the symmetric part has a negative eigenvalue."""
    for link, Ma, where in _added_mass_sources(doc):
        sym = 0.5 * (Ma + Ma.T)
        eig = np.linalg.eigvalsh(sym)
        scale = float(np.max(np.abs(sym)))
        if scale == 0.0 or eig[0] >= -SYMMETRY_TOLERANCE * scale:
            continue
        message = (
            "the added-mass matrix is not positive semi-definite (eigenvalues of its symmetric "
            f"part: {fmt_vec(eig + 0.0)}): along the eigenvector of {fmt(eig[0])} the fluid "
            "adds negative inertia, the plugin pushes the link along its acceleration"
        )
        yield finding("GZI502", where, link, message, {"eigenvalues": eig})


def _plugin_volume(link: UuvLink, mass: float) -> float:
    return mass / CONSTRUCTION_DENSITY if link.neutrally_buoyant else link.volume


@document_rule("GZI503")
def volume_mismatch(doc: DocumentContext) -> Iterator[Finding]:
    """GZI503 classic-volume-not-as-geometry: the plugin's volume against the collisions'."""
    for plugin, link, ctx in _uuv_links(doc):
        if ctx is None or ctx.geometry is None or not ctx.mass_is_positive:
            continue
        m = ctx.link.inertial.mass
        declared = _plugin_volume(link, m)
        geometric = ctx.gazebo_volume[0]  # what gz-sim floats: the sum, not the union
        if declared > 0 and abs(geometric - declared) <= doc.net_buoyancy * declared:
            continue
        rho = plugin.fluid_density
        classic = rho * declared / m - 1.0
        gz = rho * geometric / m - 1.0
        what = ("<neutrally_buoyant> makes it mass/1028" if link.neutrally_buoyant
                else "declared <volume>")
        message = (
            f"the plugin floats {fmt(declared)} m³ ({what}) but the link's collisions enclose "
            f"{fmt(geometric)} m³, which is what gz-sim's Buoyancy system would float: in the "
            f"plugin's fluid ({fmt(rho)} kg/m³) the net buoyancy is {classic:+.1%} of the "
            f"weight with the plugin and {gz:+.1%} in gz-sim"
        )
        values = {"declared_volume": declared, "collision_volume": geometric,
                  "fluid_density": rho, "net_buoyancy_plugin": classic, "net_buoyancy_gz": gz}
        yield finding("GZI503", link.source, ctx.name, message, values)


@document_rule("GZI504")
def buoyancy_centre_mismatch(doc: DocumentContext) -> Iterator[Finding]:
    """GZI504 classic-buoyancy-centre-not-as-geometry: ``<center_of_buoyancy>`` against the
    collisions' centroid."""
    for _plugin, link, ctx in _uuv_links(doc):
        if ctx is None or ctx.geometry is None or not ctx.gazebo_volume[0] > 0:
            continue
        volume, centroid = ctx.gazebo_volume  # where gz-sim applies it: Gazebo's sum
        # the plugin's point is from the centre of mass (ODE's body), in link axes
        declared = np.asarray(ctx.link.inertial.p_BoBcm_B, dtype=float) + np.asarray(
            link.p_BcmC_B, dtype=float)
        gap = float(np.linalg.norm(declared - centroid))
        if gap <= CENTRE_TOLERANCE * volume ** (1.0 / 3.0):
            continue
        message = (
            f"<center_of_buoyancy> {fmt_vec(link.p_BcmC_B)} (from the centre of mass, link axes: "
            f"{fmt_vec(declared)} from the link origin; "
            f"{'declared' if link.cob_declared else 'absent: the centre of mass'}) is "
            f"{fmt(gap)} m from Gazebo's centre of volume {fmt_vec(centroid)} (the collisions "
            "summed, each at its origin), where gz-sim's "
            "Buoyancy system applies the buoyancy: the righting moment changes by the "
            "buoyancy times the horizontal part of that offset"
        )
        values = {"declared": declared, "centroid": centroid, "distance": gap}
        yield finding("GZI504", link.source, ctx.name, message, values)


def _uuv_injection(link: UuvLink) -> list[str]:
    """What in a UUV link's damping adds energy (Fossen convention: negative dissipates)."""
    problems = []
    lin = np.linalg.eigvalsh(-0.5 * (link.D_lin + link.D_lin.T))
    if lin[0] < 0:
        problems.append(f"-<linear_damping> has the eigenvalue {fmt(lin[0])} (symmetric part)")
    fwd = np.linalg.eigvalsh(-0.5 * (link.D_forward + link.D_forward.T))
    if fwd[0] < 0:
        problems.append("-<linear_damping_forward_speed> has the eigenvalue "
                        f"{fmt(fwd[0])} (at forward speed u > 0)")
    for axis, q in zip(_AXES, np.diag(link.D_quad), strict=True):
        if q > 0:
            problems.append(f"<quadratic_damping> on {axis} is {_written(q)} > 0")
    return problems


def _vrx_injection(vrx: VrxDynamics) -> list[str]:
    names = (*LINEAR_TERMS, *QUADRATIC_TERMS)
    return [f"<{n}> = {_written(vrx.terms[n])} < 0" for n in names if vrx.terms[n] < 0]


@document_rule("GZI505")
def damping_injects_energy(doc: DocumentContext) -> Iterator[Finding]:
    """GZI505 classic-damping-injects-energy: damping signs that push along the motion."""
    for _plugin, link, ctx in _uuv_links(doc):
        problems = _uuv_injection(link)
        if problems:
            message = (
                "the plugin's damping adds energy: it applies -D(ν)·ν with D = -<linear_damping>"
                " - u·<linear_damping_forward_speed> - diag(<quadratic_damping>)·|ν| (Fossen: "
                "negative values dissipate); here " + "; ".join(problems)
            )
            yield finding("GZI505", link.source, _name(ctx, link.link), message,
                          {"problems": problems})
    for vrx in _plugins(doc).vrx:
        problems = _vrx_injection(vrx)
        if problems:
            message = (
                "the USV dynamics plugin's damping adds energy: it applies -(xU + xUU·|u|)·u "
                "and likewise on every axis (positive values dissipate); here "
                + "; ".join(problems)
            )
            owner = _name(_link_of(doc, vrx.link, vrx.model), vrx.link)
            yield finding("GZI505", vrx.source, owner, message, {"problems": problems})


def _explicit_cases(doc: DocumentContext) -> Iterator[tuple[str, LinkContext, np.ndarray,
                                                            SourceRef]]:
    """Every plugin applying added mass explicitly: (who, its link, the added-mass diagonal it
    applies, about Bo in link axes, where it is written)."""
    for _plugin, link, ctx in _uuv_links(doc):
        if ctx is not None:
            yield ("UUV Simulator's underwater-object plugin", ctx, np.diag(link.Ma),
                   link.added_mass_source or link.source)
    for vrx in _plugins(doc).vrx:
        ctx = _link_of(doc, vrx.link, vrx.model)
        if ctx is not None:
            yield ("VRX's USV dynamics plugin", ctx, np.diag(vrx.Ma),
                   vrx.term_sources.get(ADDED_MASS_TERMS[0], vrx.source))
    for ctx in doc.links:
        for plugin in ctx.link.hydrodynamics:
            if not added_mass_active(plugin):
                continue
            # Either sign diverges beyond the bound: the step's change is -(D/m) times the
            # last (gz-sim: the wrench +D·stateDot); the magnitude is what is compared.
            added = np.abs(np.diag(plugin.D_BBo_B))
            over = np.flatnonzero(added > rigid_diagonal(ctx.link))
            name = added_mass_term(over[0], over[0]) if over.size else ""
            yield (f"gz-sim's Hydrodynamics plugin (line {plugin.source.line})", ctx, added,
                   plugin.term_sources.get(name, plugin.source))


@document_rule("GZI506")
def explicit_added_mass_unstable(doc: DocumentContext) -> Iterator[Finding]:
    """GZI506 explicit-added-mass-unstable: a plugin's added mass (applied from the last steps'
    acceleration) larger than the rigid body's, element by element (gz-sim#1923): the
    diagonal about the link origin in link axes against the mass and ``I_BBo_B``'s diagonal
    (:mod:`gzinertia.checks.explicit_added_mass`)."""
    for who, ctx, added, where in _explicit_cases(doc):
        if not ctx.moves or not ctx.mass_is_positive:
            continue
        rigid = rigid_diagonal(ctx.link)
        over = explicit_unstable_axes(added, rigid)
        if not over:
            continue
        message = (
            f"{who} applies added mass as a force from the acceleration of the last steps "
            "(an explicit scheme); an added-mass diagonal element larger than the rigid "
            "one makes the motion on that axis diverge (gz-sim#1923): " + "; ".join(over)
            + ". Move the added mass to <fluid_added_mass> (DART applies it implicitly), or "
            "lower it below the rigid values"
        )
        values = {"added_diagonal": added, "rigid_diagonal": rigid}
        yield finding("GZI506", where, ctx.name, message, values)
