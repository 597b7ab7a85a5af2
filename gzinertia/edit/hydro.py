"""``gzinertia hydro``: Gazebo Hydrodynamics damping written into the link's Hydrodynamics plugin
(created when absent, updated in place otherwise).

The terms come from MuJoCo's ellipsoid drag model by default
(:func:`gzinertia.physics.hydro_damping.hydrodynamics_damping` for each fitted ellipsoid, summed
over a ``mujoco`` fit's ellipsoids), or from a damping method on the link's geometry
(``damping``: strip theory, per-member drag, or the one its shape calls for:
:func:`gzinertia.physics.damping_estimate.damping_estimate`). When the link has
``<fluid_added_mass>`` the plugin gets ``<disable_added_mass>true</disable_added_mass>`` so added
mass counts once, unless the target (the Gazebo release and engine the file is for) ignores the
element: then the plugin's added mass is all the link has, and is left on (said).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

from gzinertia import hydrodynamics_terms as hydrodynamics
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.fin_table import FinTable
from gzinertia.edit.links import (
    ascii_comment,
    format_value,
    link_element,
    plugin_element,
    require_finite,
    same_file,
)
from gzinertia.edit.session import FileEdit
from gzinertia.edit.verify import WRITE_RTOL
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.hydrodynamics_terms import FORCE_AXES, TERM_PARTS, VELOCITY_AXES
from gzinertia.options import option
from gzinertia.physics.damping_estimate import damping_estimate
from gzinertia.physics.damping_record import DampingChoice, DampingEstimate
from gzinertia.physics.damping_strip import DEFAULT_SPEED
from gzinertia.physics.fits import EllipsoidFit, FitMethod, fit_link
from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.physics.hydro_damping import (
    CombinedMotionError,
    combined_motion_error,
    hydrodynamics_damping,
    quadratic_cross_terms,
    sum_damping,
)
from gzinertia.physics.negligible import exponent_scales
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord
from gzinertia.selection import select_links
from gzinertia.shell import command_line
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import bounded

__all__ = [
    "DIFFERENCE_FACTOR",
    "METHOD_COMMENT",
    "SAME_TERM_FLOOR",
    "WHAT_FOR",
    "HydroResult",
    "LinkDamping",
    "describe_replacements",
    "hydro",
    "link_damping",
    "new_plugin_lines",
    "replaced_terms",
    "term_scales",
]


@dataclass(frozen=True, repr=False, eq=False)
class LinkDamping(ValueRecord):
    """The damping terms written for one link (Gazebo's names and sign, about Bo in B axes), the
    fit they come from (MuJoCo's model) or the estimate (a damping method on the geometry:
    ``fit`` is then ``None``), and whether the plugin was created."""

    link: LinkRecord
    fit: EllipsoidFit | None
    terms: dict[str, float]
    created_plugin: bool
    #: the terms' error against MuJoCo's drag for motion in any direction
    combined: CombinedMotionError | None = None
    #: the damping method's estimate the terms come from (``None``: MuJoCo's model)
    estimate: DampingEstimate | None = None


#: What ``hydro`` made: per link written, its damping terms.
HydroResult = Edit[LinkDamping]


#: What the written numbers are good for: said by every refusal and replacement warning.
WHAT_FOR = (
    "MuJoCo's ellipsoid drag model gives a first estimate for vehicles without identified "
    "coefficients; measured or identified ones are better (for slender AUVs it is tens of times "
    "off: docs/fluid_forces.md compares it with MBARI's identified Tethys drag)"
)
#: Replacing a term by one more than this factor away from it is reported.
DIFFERENCE_FACTOR = 2.0


def _factor(old: float, new: float) -> float:
    """How many times apart two values are (``inf`` for a sign change or a zero)."""
    if old == new:
        return 1.0
    if old == 0.0 or new == 0.0 or (old < 0.0) != (new < 0.0):
        return float("inf")
    return max(old / new, new / old)


#: Terms within this fraction of the plugin's largest term of each other are the same: what a
#: re-run writes again (round-off written as 0 included), not a replacement.
SAME_TERM_FLOOR = 1e-8


def replaced_terms(
    existing: dict[str, float], terms: dict[str, float]
) -> list[tuple[str, float, float, float]]:
    """``(name, old, new, factor)`` for each term the plugin has that ``terms`` would change
    beyond the written precision (a re-run writing the same values replaces nothing)."""
    floor = SAME_TERM_FLOOR * max((abs(v) for v in terms.values()), default=0.0)
    out = []
    for name, new in terms.items():
        if name not in existing:
            continue
        old = existing[name]
        if abs(old - new) > max(WRITE_RTOL * max(abs(old), abs(new)), floor):
            out.append((name, old, new, _factor(old, new)))
    return out


def describe_replacements(replaced: list[tuple[str, float, float, float]]) -> str:
    """``name old -> new`` for replaced terms (the first eight), marking large differences."""
    shown = (
        f"{name} {old:g} -> {new:g}" + ("" if f <= DIFFERENCE_FACTOR else
                                         (" (sign or zero changes)" if f == float("inf")
                                          else f" ({f:.3g}x apart)"))
        for name, old, new, f in replaced
    )
    return bounded(shown, shown=8)


def link_damping(
    fit: EllipsoidFit,
    density: float,
    viscosity: float,
    coefs: EllipsoidFluidCoefficients,
    couplings: bool,
    cross_terms: bool = False,
) -> dict[str, float]:
    """The plugin's damping terms for the fit's ellipsoids, summed (link axes, about Bo).

    ``cross_terms`` adds the least-squares ``<ijabsk>`` terms of
    :func:`gzinertia.physics.hydro_damping.quadratic_cross_terms` (fitted on top of the couplings,
    so it implies ``couplings``)."""
    couplings = couplings or cross_terms
    terms = [
        hydrodynamics_damping(e.semi_axes, e.X_FE, density, viscosity, coefs, couplings=couplings)
        for e in fit.ellipsoids
    ]
    if cross_terms:
        terms += [
            quadratic_cross_terms(e.semi_axes, e.X_FE, density, coefs) for e in fit.ellipsoids
        ]
    return sum_damping(terms)


def term_scales(terms: dict[str, float]) -> dict[str, float]:
    """Each damping term's reference magnitude in its own unit, for zeroing round-off
    (:func:`gzinertia.physics.negligible.exponent_scales`), so that a moment term in kg·m² is never
    compared with a force term in kg/m. Linear terms ``iJ`` (row ``i`` in ``xyzkmn``, velocity
    ``J`` in ``UVWPQR``) have length exponent ``r_i + r_J`` and quadratic ones ``iJabsK``
    ``r_i + r_J + r_K`` (``r`` = 1 for moments and angular rates), each kind against its own
    largest; names of another form are judged against the largest term of all."""
    fallback = max((abs(v) for v in terms.values()), default=1.0)
    scales = dict.fromkeys(terms, fallback)
    force, velocity = f"[{FORCE_AXES}]", f"[{VELOCITY_AXES}]"
    pattern = re.compile(f"({force})({velocity})(?:abs({velocity}))?")
    kinds: dict[bool, list[tuple[str, int]]] = {False: [], True: []}
    for name in terms:
        match = pattern.fullmatch(name)
        if match:
            f, j, k = match.groups()
            exponent = int(FORCE_AXES.index(f) >= 3) + int(VELOCITY_AXES.index(j) >= 3)
            if k is not None:
                exponent += int(VELOCITY_AXES.index(k) >= 3)
            kinds[k is not None].append((name, exponent))
    for quadratic, members in kinds.items():
        if members:
            values = np.array([terms[n] for n, _ in members])
            exponents = np.array([e for _, e in members])
            found = exponent_scales(values, exponents, 3 if quadratic else 2)
            scales.update({n: float(x) for (n, _), x in zip(members, found, strict=True)})
    return scales


def _write_terms(
    editor: XmlEditor,
    link: LinkRecord,
    terms: dict[str, float],
    density: float,
    comment: str,
    target: Target = DEFAULT_TARGET,
) -> list[str]:
    """Updates the link's plugin in place, or returns the lines of a new one (to be appended to
    the model with the other new plugins of that model); the plugin's added mass is turned off
    where the link's ``<fluid_added_mass>`` takes its place under ``target``."""
    scales = term_scales(terms)
    values = {name: format_value(v, scales[name]) for name, v in terms.items()}
    if link.inertial.A_BBo_B is not None and target.applies_fluid_added_mass:
        values["disable_added_mass"] = "true"
    if link.hydrodynamics:
        plugin = plugin_element(editor, link.hydrodynamics[0])
        if (editor.gzinertia_comment(plugin) or "").startswith("gzinertia hydro"):
            editor.replace_gzinertia_comment(plugin, comment)  # the method may have changed
        editor.set_children_text(plugin, values)
        return []
    return new_plugin_lines(editor, link, density, values, comment)


def new_plugin_lines(
    editor: XmlEditor, link: LinkRecord, density: float | None, values: Mapping[str, str],
    comment: str, name: str | None = None,
) -> list[str]:
    """The lines of a new Hydrodynamics ``<plugin>`` for ``link`` (``name``, by default its
    short name, as the plugin names links of its model) with ``values`` as children after
    ``<water_density>`` (kg/m³; none when ``density`` is ``None``), preceded by the
    ``comment``; to be appended to the link's model."""
    unit = editor.indent_unit.decode()
    short = leaf_name(link.name) if name is None else name
    water = [] if density is None else [f"{unit}<water_density>{density:g}</water_density>"]
    return [
        f"<!-- {comment} -->",
        f'<plugin filename="{hydrodynamics.FILENAME}" name="{hydrodynamics.NAME}">',
        f"{unit}<link_name>{short}</link_name>",
        *water,
        *(f"{unit}<{n}>{v}</{n}>" for n, v in values.items()),
        "</plugin>",
    ]


def _refuse_mujoco_settings(
    damping: DampingChoice, method: FitMethod, coefs: EllipsoidFluidCoefficients,
    couplings: bool, cross_terms: bool,
) -> None:
    """A damping method on the geometry takes none of MuJoCo's model's settings: refused, not
    ignored."""
    if damping == "mujoco":
        return
    if method != "mujoco" or couplings or cross_terms or coefs != EllipsoidFluidCoefficients():
        raise SettingError(
            "method", "{method} " + damping + " takes none of MuJoCo's ellipsoid model's "
            "settings ({fit}, coefficients, couplings, cross terms): they apply to "
            "{method} mujoco only")


def _stale_terms(link: LinkRecord, terms: dict[str, float]) -> dict[str, float]:
    """The damping terms (linear ``<iJ>``, quadratic ``<iJabsK>``) the link's plugin has and
    ``terms`` lacks, as 0, so that the plugin applies the new estimate and nothing of the old."""
    if not link.hydrodynamics:
        return {}
    old = link.hydrodynamics[0].terms
    return {name: 0.0 for name in old
            if name not in terms and (m := TERM_PARTS.match(name)) and m.group(2) is None
            and old[name] != 0.0}


@dataclass(frozen=True, repr=False, eq=False)
class _DampingSettings(ValueRecord):
    """What ``hydro`` computes a link's terms with."""

    damping: DampingChoice
    method: FitMethod
    density: float
    viscosity: float
    speed: float
    coefs: EllipsoidFluidCoefficients
    couplings: bool
    cross_terms: bool
    #: Strip theory's fins, by the link name their table gives (:mod:`gzinertia.edit.fin_table`).
    fins: FinTable = field(default_factory=dict)


#: How the provenance comment of a plugin whose terms a damping method wrote begins.
METHOD_COMMENT = "gzinertia hydro: damping by "


def _terms_of(editor: XmlEditor, link: LinkRecord, how: _DampingSettings) -> tuple[
    dict[str, float], str, EllipsoidFit | None, DampingEstimate | None
]:
    """The link's terms, the provenance comment, and the fit or estimate they come from. Terms
    of the plugin the new ones lack are written as 0 when a damping method wrote the plugin or
    writes it now (MuJoCo's model over its own terms keeps what it does not write, as always)."""
    if how.damping == "mujoco":
        fit = fit_link(link, how.method)
        terms = link_damping(fit, how.density, how.viscosity, how.coefs, how.couplings,
                             how.cross_terms)
        if link.hydrodynamics and (editor.gzinertia_comment(plugin_element(
                editor, link.hydrodynamics[0])) or "").startswith(METHOD_COMMENT):
            terms.update(_stale_terms(link, terms))
        # Kept generic so that it stays true when a later run updates the terms in place.
        return terms, ascii_comment(
            "gzinertia hydro: damping from MuJoCo's ellipsoid drag model projected on the link "
            "axes (exact for motion along one axis, approximate for combined motion)"
        ), fit, None
    fins = how.fins.get(link.name) or how.fins.get(leaf_name(link.name)) or ()
    estimate = damping_estimate(link, how.damping, density=how.density,
                                viscosity=how.viscosity, speed=how.speed, fins=fins)
    terms = dict(estimate.terms)
    terms.update(_stale_terms(link, terms))
    with_fins = "".join(f"; fin {f.name}: S {f.area:g} m^2, C_La {f.lift_slope:.4g}/rad at "
                        f"{' '.join(f'{v:g}' for v in f.p_BoFp_B)}" for f in fins)
    return terms, ascii_comment(
        f"{METHOD_COMMENT}{estimate.summary()}, in a fluid of {how.density:g} "
        f"kg/m^3{with_fins}; exact for motion along one link axis, approximate for combined "
        "motion"
    ), None, estimate


def _check_fin_links(fins: FinTable, links: Sequence[LinkRecord], damping: str) -> None:
    """Refuses fins for a method other than strip theory's, or fixed to a link ``hydro`` does
    not compute (none of ``links`` has that scoped name or last part): never ignored."""
    if fins and damping in ("mujoco", "morison"):
        raise SettingError("fins", "{fins} describe strip theory's fins: they go with "
                           "{method} strip or auto, not " + damping)
    names = {lk.name for lk in links} | {leaf_name(lk.name) for lk in links}
    for link in fins:
        if link not in names:
            raise SettingError("fins", "{fins}: no link selected is named {value!r} (the fins "
                               "of " + ", ".join(f.name for f in fins[link]) + ")", value=link)


def hydro(
    path: Path,
    *,
    pattern: str,
    method: FitMethod,
    density: float,
    viscosity: float,
    coefs: EllipsoidFluidCoefficients,
    couplings: bool,
    model_paths: Sequence[str | Path],
    cross_terms: bool = False,
    force: bool = False,
    data: bytes | None = None,
    damping: DampingChoice = "mujoco",
    speed: float = DEFAULT_SPEED,
    target: Target = DEFAULT_TARGET,
    fins: FinTable | None = None,
) -> HydroResult:
    """Computes and writes (in memory) the damping terms of the selected links: MuJoCo's
    ellipsoid model on the ``method`` fit (``damping="mujoco"``), or the damping method
    ``damping`` on the link's geometry (``strip``, ``morison``, or ``auto``: chosen per link
    from its shape; ``speed`` m/s: strip theory's design speed).

    Terms a plugin already has are replaced only with ``force`` (or when gzinertia wrote the
    plugin): they may be identified values, better than this estimate. Replacements more than
    :data:`DIFFERENCE_FACTOR` apart are reported in :attr:`HydroResult.warnings`.
    ``data``: the file's bytes when they do not come from ``path`` (standard input, named
    ``<stdin>``: relative URIs resolve against the working directory). ``target``: where it
    ignores ``<fluid_added_mass>``, a plugin's added mass is left on (module docstring).
    ``fins``: strip theory's fins by link name (:mod:`gzinertia.edit.fin_table`), refused for
    another method or a link not selected."""
    if not viscosity >= 0.0:
        raise SettingError("viscosity", "{viscosity} must be >= 0, not {value}", value=viscosity)
    if not (speed > 0.0 and speed < float("inf")):
        raise SettingError("speed", "{speed} must be a positive speed in m/s, not {value}",
                           value=speed)
    _refuse_mujoco_settings(damping, method, coefs, couplings, cross_terms)
    how = _DampingSettings(damping, method, density, viscosity, speed, coefs, couplings,
                           cross_terms, fins or {})
    edit = FileEdit.open(path, model_paths, data)
    doc, editor = edit.doc, edit.editor
    results: list[LinkDamping] = []
    skipped: list[str] = []
    warnings: list[str] = []
    new_plugins: dict[int, tuple[etree._Element, list[str]]] = {}
    selected = select_links(doc.links, pattern, str(path))
    _check_fin_links(how.fins, selected, damping)
    for link in selected:
        if not same_file(link.source.file, path):
            skipped.append(f"{link.name}: defined in {link.source.file} (edit that file)")
            continue
        if link.static:
            skipped.append(f"{link.name}: static")
            continue
        plugin_file = link.hydrodynamics[0].source.file if link.hydrodynamics else str(path)
        if not same_file(plugin_file, path):
            skipped.append(f"{link.name}: its Hydrodynamics plugin is in {plugin_file}")
            continue
        terms, comment, fit, estimate = _terms_of(editor, link, how)
        link_elem = link_element(editor, link)
        require_finite(editor, link_elem, "damping terms", list(terms.values()))
        if estimate is not None:
            warnings += [f"{link.name}: {estimate.method}: {o}" for o in estimate.outside]
        if link.hydrodynamics:
            warning = _check_replacement(editor, link, terms, force, _what_for(estimate))
            if warning:
                warnings.append(warning)
        lines = _write_terms(editor, link, terms, density, comment, target)
        warnings += _element_ignored(link, target)
        model = link_elem.getparent()
        if lines and model is not None:
            new_plugins.setdefault(id(model), (model, []))[1].extend(lines)
        combined = None if fit is None else combined_motion_error(
            ((e.semi_axes, e.X_FE) for e in fit.ellipsoids), density, coefs, terms
        )
        results.append(LinkDamping(link, fit, terms, bool(lines), combined, estimate))
    for model, lines in new_plugins.values():
        editor.append_child_lines(model, lines)
    new = edit.finish({})
    return HydroResult(path, edit.old, new, tuple(results), tuple(skipped), tuple(warnings))


def _element_ignored(link: LinkRecord, target: Target) -> list[str]:
    """What ``hydro`` says of a link whose ``<fluid_added_mass>`` ``target`` ignores: the
    plugin's added mass is left on (GZI601 reports the element)."""
    if link.inertial.A_BBo_B is None or target.applies_fluid_added_mass:
        return []
    return [f"{link.source}: link {link.name!r}: its <fluid_added_mass> is ignored under "
            f"{target.words()} (the audit's GZI601), so <disable_added_mass> is not set: the "
            "plugin's own <iDotJ> added mass, if any, is what the link gets (`"
            + command_line("convert", str(link.source.file), "--sdf-to-hydro", "--sign",
                           "fossen", "--engine", target.engine, "--gazebo", target.release)
            + "` moves the element there)"]


def _what_for(estimate: DampingEstimate | None) -> str:
    """What the numbers about to be written are good for, said by refusals and warnings."""
    if estimate is None:
        return WHAT_FOR
    return (f"{estimate.title} is an estimate within +-{100 * estimate.band:.0f} % at best; "
            "measured or identified coefficients are better")


def _check_replacement(
    editor: XmlEditor, link: LinkRecord, terms: dict[str, float], force: bool,
    what_for: str = WHAT_FOR,
) -> str | None:
    """Refuses to replace another author's damping terms without ``force``; with it, a
    warning naming the terms more than :data:`DIFFERENCE_FACTOR` apart (``None`` if none)."""
    plugin = link.hydrodynamics[0]
    replaced = replaced_terms(plugin.terms, terms)
    if not replaced:
        return None
    ours = (editor.gzinertia_comment(plugin_element(editor, plugin)) or "").startswith(
        "gzinertia hydro"
    )
    if not force and not ours:
        raise GzInertiaError(
            f"{plugin.source}: the Hydrodynamics plugin of {link.name!r} already has damping "
            f"terms, and this estimate would replace them: {describe_replacements(replaced)}. "
            f"{what_for}. Pass {option('force')} to replace them"
        )
    far = [r for r in replaced if r[3] > DIFFERENCE_FACTOR]
    if not far or ours:
        return None
    return (
        f"{plugin.source}: replaced damping terms of {link.name!r} by values more than "
        f"{DIFFERENCE_FACTOR:g}x apart: {describe_replacements(far)}. {what_for}"
    )
