"""``gzinertia hydro``: Gazebo Hydrodynamics damping from MuJoCo's ellipsoid drag model, written
into the link's Hydrodynamics plugin (created when absent, updated in place otherwise).

The coefficients come from :func:`gzinertia.hydro_damping.hydrodynamics_damping` for each fitted
ellipsoid (summed over a ``mujoco`` fit's ellipsoids). When the link has ``<fluid_added_mass>``
the plugin gets ``<disable_added_mass>true</disable_added_mass>`` so added mass counts once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import ascii_comment, format_value, link_element, same_file
from gzinertia.edit.session import FileEdit
from gzinertia.errors import GzInertiaError
from gzinertia.fits import EllipsoidFit, FitMethod, fit_link
from gzinertia.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.hydro_damping import hydrodynamics_damping, sum_damping
from gzinertia.records import LinkRecord
from gzinertia.sdf.hydro import is_gz_hydrodynamics
from gzinertia.sdf.xml import child
from gzinertia.selection import select_links

PLUGIN_FILENAME = "gz-sim-hydrodynamics-system"
PLUGIN_NAME = "gz::sim::systems::Hydrodynamics"


@dataclass(frozen=True)
class LinkDamping:
    link: LinkRecord
    fit: EllipsoidFit
    terms: dict[str, float]
    created_plugin: bool


@dataclass(frozen=True)
class HydroResult:
    path: Path
    old: bytes
    new: bytes
    links: tuple[LinkDamping, ...]
    skipped: tuple[str, ...]


def link_damping(
    fit: EllipsoidFit,
    density: float,
    viscosity: float,
    coefs: EllipsoidFluidCoefficients,
    couplings: bool,
) -> dict[str, float]:
    """The plugin's damping terms for the fit's ellipsoids, summed (link axes, about Bo)."""
    return sum_damping(
        hydrodynamics_damping(e.semi_axes, e.X_BE, density, viscosity, coefs, couplings=couplings)
        for e in fit.ellipsoids
    )


def _plugin_for(editor: XmlEditor, link_elem: etree._Element, short: str) -> etree._Element | None:
    model = link_elem.getparent()
    if model is None:
        return None
    for plugin in model.iter("plugin"):
        name_elem = child(plugin, "link_name")
        if (
            is_gz_hydrodynamics(plugin)
            and name_elem is not None
            and (name_elem.text or "").strip() == short
        ):
            return plugin
    return None


def _write_terms(
    editor: XmlEditor,
    link_elem: etree._Element,
    link: LinkRecord,
    terms: dict[str, float],
    density: float,
    comment: str,
) -> list[str]:
    """Updates the link's plugin in place, or returns the lines of a new one (to be appended to
    the model with the other new plugins of that model)."""
    short = link.name.rsplit("::", 1)[-1]
    scale = max((abs(v) for v in terms.values()), default=1.0)
    values = {name: format_value(v, scale) for name, v in terms.items()}
    has_added_mass = link.inertial.A_BBo_B is not None
    plugin = _plugin_for(editor, link_elem, short)
    if plugin is None:
        unit = editor.indent_unit.decode()
        lines = [
            f"<!-- {comment} -->",
            f'<plugin filename="{PLUGIN_FILENAME}" name="{PLUGIN_NAME}">',
            f"{unit}<link_name>{short}</link_name>",
            f"{unit}<water_density>{density:g}</water_density>",
        ]
        lines += [f"{unit}<{n}>{v}</{n}>" for n, v in values.items()]
        if has_added_mass:
            lines.append(f"{unit}<disable_added_mass>true</disable_added_mass>")
        lines.append("</plugin>")
        return lines
    missing = []
    for name, value in values.items():
        existing = child(plugin, name)
        if existing is None:
            missing.append(f"<{name}>{value}</{name}>")
        else:
            editor.set_text(existing, value)
    disable = child(plugin, "disable_added_mass")
    if has_added_mass and disable is None:
        missing.append("<disable_added_mass>true</disable_added_mass>")
    elif has_added_mass and disable is not None:
        editor.set_text(disable, "true")
    if missing:
        editor.append_child_lines(plugin, missing)
    return []


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
) -> HydroResult:
    """Computes and writes (in memory) the damping terms of the selected links."""
    if not viscosity >= 0.0:
        raise GzInertiaError(f"--viscosity must be >= 0, not {viscosity}")
    edit = FileEdit.open(path, model_paths)
    doc, editor = edit.doc, edit.editor
    results: list[LinkDamping] = []
    skipped: list[str] = []
    new_plugins: dict[int, tuple[etree._Element, list[str]]] = {}
    for link in select_links(doc.links, pattern, str(path)):
        if not same_file(link.source.file, path):
            skipped.append(f"{link.name}: defined in {link.source.file} (edit that file)")
            continue
        if link.static:
            skipped.append(f"{link.name}: static")
            continue
        fit = fit_link(link, method)
        terms = link_damping(fit, density, viscosity, coefs, couplings)
        # Kept generic so that it stays true when a later run updates the terms in place.
        comment = ascii_comment(
            "gzinertia hydro: damping from MuJoCo's ellipsoid drag model projected on the link "
            "axes (exact for motion along one axis, approximate for combined motion)"
        )
        link_elem = link_element(editor, link)
        lines = _write_terms(editor, link_elem, link, terms, density, comment)
        model = link_elem.getparent()
        if lines and model is not None:
            new_plugins.setdefault(id(model), (model, []))[1].extend(lines)
        results.append(LinkDamping(link, fit, terms, bool(lines)))
    for model, lines in new_plugins.values():
        editor.append_child_lines(model, lines)
    new = edit.finish({})
    return HydroResult(path, edit.old, new, tuple(results), tuple(skipped))
