"""Hydrostatic stability rules: GZI301 (a submerged body's centre of buoyancy B below its centre
of mass G) and GZI303 (a surface craft with a negative metacentric height GM). Where they apply:
:mod:`gzinertia.audit.hydrostatics_scope`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import gzinertia.physics
from gzinertia.audit import hydrostatics_scope as scope
from gzinertia.audit.emit import document_rule, fmt, fmt_vec
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext

if TYPE_CHECKING:  # lazy: a run without the hydrostatics rules does not load them
    import gzinertia.physics.flotation
    from gzinertia.physics.hydrostatics import ModelHydrostatics

#: GZI301: B must lie below G by more than this fraction of the body's size (V^(1/3)).
VERTICAL_TOLERANCE = 1e-3


def _submerged(h: scope.DocumentHydrostatics, model: ModelHydrostatics) -> bool:
    """Every buoyant link entirely in the bottom fluid (always, in a uniform fluid)."""
    if h.fluid.kind == "uniform":
        return True
    full = h.fluid.density * model.volume * model.g
    return full > 0 and abs(model.buoyancy - full) <= 1e-9 * full


@document_rule("GZI301")
def buoyancy_centre_below_mass_centre(doc: DocumentContext) -> Iterator[Finding]:
    """GZI301 buoyancy-centre-below-mass-centre: a near-neutral submerged body, B below G."""
    h = scope.hydrostatics_of(doc)
    for model, body in scope.free_bodies(h):
        if not (body.weight > 0 and body.buoyancy > 0 and body.volume > 0):
            continue
        ratio = body.buoyancy / body.weight
        if not (scope.NEAR_NEUTRAL[0] <= ratio <= scope.NEAR_NEUTRAL[1]) or not _submerged(h, body):
            continue
        up = body._up()
        dz = float((body.p_WB - body.p_WG) @ up)
        size = body.volume ** (1.0 / 3.0)
        if not dz < -VERTICAL_TOLERANCE * size:
            continue
        yield scope.body_finding(
            "GZI301", h, model, body,
            f" submerged {scope.fluid_words(h)}: its centre of buoyancy B "
            f"{fmt_vec(body.p_WB)} m (Gazebo's: its collisions summed) lies {fmt(-dz)} m below "
            "its centre of mass G "
            f"{fmt_vec(body.p_WG)} m (buoyancy {fmt(body.buoyancy)} N, weight "
            f"{fmt(body.weight)} N): statically unstable, restoring stiffness "
            f"{fmt(body.restoring_stiffness)} N m/rad; it rolls over until B is above G "
            "(move the ballast down or the buoyant volume up)",
            {"z_B_minus_z_G": dz, "restoring_stiffness": body.restoring_stiffness,
             "buoyancy": body.buoyancy, "weight": body.weight},
        )


#: GZI303: GM below minus this fraction of the hull's size (tessellation noise on a sphere).
GM_TOLERANCE = 1e-3


@document_rule("GZI303")
def surface_craft_negative_gm(doc: DocumentContext) -> Iterator[Finding]:
    """GZI303 surface-craft-negative-gm: a body floating at the surface with GM < 0."""
    h = scope.hydrostatics_of(doc)
    if not h.from_plugin or h.fluid.kind != "graded" or not h.fluid.layers:
        return

    for model, body in scope.free_bodies(h):
        links = [h.records[link.name] for link in body.links]
        f = gzinertia.physics.flotation.model_flotation(body, links, h.fluid, None, True)
        if f is None or not (f.floats and f.converged):
            continue
        size = max(body.volume_exact, 0.0) ** (1.0 / 3.0)
        negative = [(name, gm) for name, gm in (("GM_T", f.GM_T), ("GM_L", f.GM_L))
                    if gm < -GM_TOLERANCE * size]
        if not negative:
            continue
        worst = ", ".join(f"{name} = {fmt(gm)} m" for name, gm in negative)
        yield scope.body_finding(
            "GZI303", h, model, body,
            f" floats at the surface (z = {fmt(f.z_surface)} m, draft "
            f"{fmt(f.draft)} m, {scope.fluid_words(h)}) with {worst} (KB {fmt(f.KB)} m + BM_T "
            f"{fmt(f.BM_T)} m / BM_L {fmt(f.BM_L)} m - KG {fmt(f.KG)} m): upright is unstable, "
            "it capsizes; lower the centre of mass or widen the waterplane "
            f"(`gzinertia hydrostatics {doc.doc.path}` shows the numbers)",
            {"GM_T": f.GM_T, "GM_L": f.GM_L},
        )
