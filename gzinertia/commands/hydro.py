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
from gzinertia.edit.links import (
    ascii_comment,
    format_value,
    link_element,
    plugin_element,
    require_finite,
    same_file,
)
from gzinertia.edit.session import FileEdit
from gzinertia.errors import GzInertiaError
from gzinertia.fits import EllipsoidFit, FitMethod, fit_link
from gzinertia.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.hydro_damping import hydrodynamics_damping, sum_damping
from gzinertia.records import LinkRecord
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


def _write_terms(
    editor: XmlEditor,
    link: LinkRecord,
    terms: dict[str, float],
    density: float,
    comment: str,
) -> list[str]:
    """Updates the link's plugin in place, or returns the lines of a new one (to be appended to
    the model with the other new plugins of that model)."""
    scale = max((abs(v) for v in terms.values()), default=1.0)
    values = {name: format_value(v, scale) for name, v in terms.items()}
    if link.inertial.A_BBo_B is not None:
        values["disable_added_mass"] = "true"
    if link.hydrodynamics:
        editor.set_children_text(plugin_element(editor, link.hydrodynamics[0]), values)
        return []
    unit = editor.indent_unit.decode()
    short = link.name.rsplit("::", 1)[-1]
    return [
        f"<!-- {comment} -->",
        f'<plugin filename="{PLUGIN_FILENAME}" name="{PLUGIN_NAME}">',
        f"{unit}<link_name>{short}</link_name>",
        f"{unit}<water_density>{density:g}</water_density>",
        *(f"{unit}<{n}>{v}</{n}>" for n, v in values.items()),
        "</plugin>",
    ]


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
        plugin_file = link.hydrodynamics[0].source.file if link.hydrodynamics else str(path)
        if not same_file(plugin_file, path):
            skipped.append(f"{link.name}: its Hydrodynamics plugin is in {plugin_file}")
            continue
        fit = fit_link(link, method)
        terms = link_damping(fit, density, viscosity, coefs, couplings)
        # Kept generic so that it stays true when a later run updates the terms in place.
        comment = ascii_comment(
            "gzinertia hydro: damping from MuJoCo's ellipsoid drag model projected on the link "
            "axes (exact for motion along one axis, approximate for combined motion)"
        )
        link_elem = link_element(editor, link)
        require_finite(editor, link_elem, "damping terms", list(terms.values()))
        lines = _write_terms(editor, link, terms, density, comment)
        model = link_elem.getparent()
        if lines and model is not None:
            new_plugins.setdefault(id(model), (model, []))[1].extend(lines)
        results.append(LinkDamping(link, fit, terms, bool(lines)))
    for model, lines in new_plugins.values():
        editor.append_child_lines(model, lines)
    new = edit.finish({})
    return HydroResult(path, edit.old, new, tuple(results), tuple(skipped))
