"""What the HTML report (:mod:`gzinertia.report.html_report`) shows of one model file, as the
page's data: plain JSON-ready values, every point in the world frame W, every rotation
``R_WX`` (3x3, rows).

* ``links``: per link its frame (``p_WBo``, ``R_WB``), its centre of mass ``p_WBcm``, mass,
  and its equivalent inertia ellipsoid (centre, semi-axes, ``R_WP``: columns the principal
  axes) drawn as :func:`gzinertia.report.plot.scale_inertia_ellipsoids` draws it in a model's
  view (between 2 % and 75 % of the model's extent; ``scale`` its factor, 1 for true size);
  its fluid ellipsoids (:func:`gzinertia.fit` by :data:`FLUID_FIT`, true size: the
  ellipsoids Tuckerman's added mass is computed for); and the equivalent ellipsoid of the
  added mass Gazebo applies to it (:mod:`gzinertia.report.scene_added_mass`, true size); and,
  when ``addmass --bem`` computed that added mass, ``bem_surface``: the panels it was solved on
  (:mod:`gzinertia.report.scene_bem`), else ``None``;
* ``meshes``: the collisions and visuals (:mod:`gzinertia.report.scene_meshes`);
* ``hydrostatics``: ``gzinertia hydrostatics --json``'s fluid and models (G, Gazebo's B, the
  exact B, flotation: waterline, draft, heel) and each floating model's righting-moment curve;
* ``findings``: the audit's (:func:`gzinertia.audit_paths`), each with its rule page;
* ``show``: ``gzinertia show --json``'s object (angular-first);
* ``not_drawn``: a sentence per thing the page could not show or drew approximated (a mesh's
  hull fallback or repair), and the reader's warnings and errors, each naming the file (never
  silent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np

from gzinertia.errors import GzInertiaError
from gzinertia.hydrostatics_result import document_hydrostatics
from gzinertia.physics.righting import model_righting_curve
from gzinertia.report.hydrostatics import result_summary
from gzinertia.report.json_text import json_safe
from gzinertia.report.plot import link_drawing, scale_inertia_ellipsoids
from gzinertia.report.scene_added_mass import added_mass_ellipsoid
from gzinertia.report.scene_bem import bem_panels
from gzinertia.report.scene_meshes import link_meshes
from gzinertia.report.show import document_summary
from gzinertia.vocabulary.fluids import FRESHWATER_DENSITY as DEFAULT_DENSITY

if TYPE_CHECKING:
    from gzinertia.audit.findings import Finding
    from gzinertia.hydrostatics_result import HydrostaticsResult
    from gzinertia.physics.fits import FitMethod
    from gzinertia.records import LinkRecord, SdfDocument
    from gzinertia.report.plot import LinkDrawing

__all__ = ["FLUID_FIT", "model_scene"]

#: The fluid ellipsoids drawn (:func:`gzinertia.fit`'s method; ``plot``'s default).
FLUID_FIT: FitMethod = "volume"


def _vec(values: Any) -> list[float] | None:
    """A point or rotation as nested lists (``None`` when any number is not finite)."""
    arr = np.asarray(values, dtype=float)
    return arr.tolist() if np.all(np.isfinite(arr)) else None


def _posed(centre: Any, Q: Any) -> dict[str, Any]:
    """An ellipsoid ``{p : (p - centre)ᵀ Q⁻¹ (p - centre) ≤ 1}`` (``Q`` in W) as its centre,
    semi-axes (ascending) and ``R_WP`` (columns: the axes)."""
    squares, R_WP = np.linalg.eigh(Q)
    return {"centre": _vec(centre), "semi_axes": _vec(np.sqrt(np.maximum(squares, 0.0))),
            "R_WP": _vec(R_WP)}


def _ellipsoid(drawn: LinkDrawing, true: LinkDrawing) -> dict[str, Any] | None:
    """The drawn inertia ellipsoid (:func:`_posed`) and its scale factor against true size."""
    if drawn.inertia_ellipsoid is None or true.inertia_ellipsoid is None:
        return None
    posed = _posed(*drawn.inertia_ellipsoid)
    true_largest = float(np.sqrt(max(np.linalg.eigvalsh(true.inertia_ellipsoid[1]).max(), 0.0)))
    largest = max(posed["semi_axes"] or [0.0])
    return {**posed, "scale": largest / true_largest if true_largest > 0 else 1.0}


def _no_ellipsoid(link: LinkRecord) -> str:
    """Why a link has no equivalent inertia ellipsoid to draw."""
    if link.inertial.defaulted:
        return "its <inertial> is missing or not read (Gazebo's default 1 kg, unit inertia)"
    return ("its mass is not positive or its principal moments violate the triangle "
            "inequality (no solid has them)")


def _links(doc: SdfDocument, scale: float | None) -> tuple[list[dict[str, Any]], str]:
    """Each link's frame, centre of mass and inertia ellipsoid, and the ellipsoids' legend."""
    true = [link_drawing(lk, lk.X_WB, FLUID_FIT) for lk in doc.links]
    drawn, label = scale_inertia_ellipsoids(true, scale)
    links = [{
        "name": lk.name, "mass": lk.inertial.mass, "p_WBo": _vec(lk.X_WB.p),
        "R_WB": _vec(lk.X_WB.R), "p_WBcm": _vec(d.p_FoBcm_F),
        "ellipsoid": _ellipsoid(d, t), "note": d.note,
        "fluid_ellipsoids": [_posed(*e) for e in d.fluid_ellipsoids],
    } for lk, d, t in zip(doc.links, drawn, true, strict=True)]
    return links, label


def _righting(result: HydrostaticsResult, doc: SdfDocument) -> dict[str, Any]:
    """Each floating model's righting-moment curve
    (:func:`gzinertia.physics.righting.model_righting_curve`): heels (degrees), ``GZ`` (m) and
    ``moment`` (N·m), by model name; models that do not float are left out."""
    curves: dict[str, Any] = {}
    for m in result.models:
        f = result.flotation.get(m.name)
        if f is None or not f.floats:
            continue
        names = {link.name for link in m.links}
        points = model_righting_curve(m, [lk for lk in doc.links if lk.name in names],
                                      result.fluid, f)
        curves[m.name] = {"heel_deg": [np.degrees(p.heel) for p in points],
                          "GZ": [p.GZ for p in points], "moment": [p.moment for p in points]}
    return curves


def _hydrostatics(doc: SdfDocument, waterline: float | None) -> dict[str, Any]:
    """``hydrostatics --json``'s object for the document (G, B, exact B, flotation per
    model; a model of several free bodies floats per body, listed under ``bodies``), the free
    surface at ``waterline`` when given, and ``righting``: :func:`_righting`'s curves."""
    result = document_hydrostatics(doc, waterline=waterline)
    summary = {**result_summary(result, doc.path), "righting": _righting(result, doc)}
    return cast("dict[str, Any]", json_safe(summary))


def _finding(finding: Finding, docs_base: str | None) -> dict[str, Any]:
    """A finding with its rule page (under ``docs_base`` when given, else the page's path)."""
    page = f"docs/rules/{finding.code}.md"
    return {"code": finding.code, "severity": finding.severity, "file": finding.file,
            "line": finding.line, "link": finding.link, "message": finding.message,
            "page": page if docs_base is None else docs_base + page}


def model_scene(
    doc: SdfDocument,
    findings: list[Finding],
    *,
    scale: float | None = None,
    docs_base: str | None = None,
    waterline: float | None = None,
) -> dict[str, Any]:
    """The page's data for ``doc`` (see the module): ``findings`` are the audit's for its
    file; ``scale`` multiplies every inertia ellipsoid (``None``: capped to the model's
    extent); ``docs_base`` the absolute URI the rule pages' ``docs/rules/CODE.md`` are under;
    ``waterline`` the free surface's height (m, world) at which floating models are solved
    (:func:`gzinertia.hydrostatics`'s)."""
    meshes: list[dict[str, str]] = []
    said: list[str] = []  # about the links: prefixed with the file below
    for link in doc.links:
        shapes, missing = link_meshes(link)
        meshes += [m.as_json() for m in shapes]
        said += missing + [f"{m.link}: {m.role} {m.name!r} drawn as {m.note}"
                           for m in shapes if m.note]
    links, label = _links(doc, scale) if doc.links else ([], "")
    if not doc.links:
        said.append("no links to draw")
    said += [f"{lk['name']}: {lk['note']}" for lk in links if lk["note"]]
    said += [f"{lk.name}: no inertia ellipsoid: {_no_ellipsoid(lk)}"
             for lk, drawn in zip(doc.links, links, strict=True) if not drawn["ellipsoid"]]
    try:
        hydro: dict[str, Any] | None = _hydrostatics(doc, waterline)
    except GzInertiaError as exc:
        hydro = None
        said.append(f"hydrostatics not computed: {exc}")
    density = float(hydro["fluid"]["density"]) if hydro else DEFAULT_DENSITY
    for lk, drawn in zip(doc.links, links, strict=True):
        drawn["added_mass_ellipsoid"], problem = added_mass_ellipsoid(lk, density)
        if problem:
            said.append(f"{lk.name}: no added-mass ellipsoid: {problem}")
        drawn["bem_surface"], note = bem_panels(lk, density)
        if note:
            said.append(f"{lk.name}: {note}")
    not_drawn = [f"{doc.path}: {s}" for s in said]
    not_drawn += [str(n) for n in doc.notes if n.level != "info"]  # each names its file
    return {
        "file": doc.path, "links": links, "ellipsoid_label": label, "meshes": meshes,
        "hydrostatics": hydro, "findings": [_finding(f, docs_base) for f in findings],
        "show": json_safe(document_summary(doc, list(doc.links), "angular-first")),
        "not_drawn": not_drawn,
    }
