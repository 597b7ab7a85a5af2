"""Buoyancy rules: GZI302 (buoyancy and weight differ beyond the configured fraction) and GZI305
(Gazebo's buoyancy volume or centre not the geometry's). Where they apply:
:mod:`gzinertia.audit.hydrostatics_scope`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.audit import hydrostatics_scope as scope
from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext
from gzinertia.physics.collision_volume import gazebo_volume_causes
from gzinertia.physics.volume_below import GRADED_SHAPES

if TYPE_CHECKING:  # lazy: a run without the hydrostatics rules does not load them
    from gzinertia.physics.hydrostatics import LinkHydrostatics, ModelHydrostatics

#: GZI305: relative volume difference, and centre offset as a fraction of the link's size.
VOLUME_TOLERANCE = 0.01
CENTRE_TOLERANCE = 0.01


def submerged_volume(h: scope.DocumentHydrostatics, model: ModelHydrostatics) -> float:
    """The volume Gazebo gives buoyancy to when the model is entirely in the bottom fluid (a
    graded fluid leaves meshes and other shapes out)."""
    if h.fluid.kind == "uniform":
        return model.volume

    return float(sum(c.volume_gz for link in model.links if link.enabled
                     for c in link.collisions if c.kind in GRADED_SHAPES))


@document_rule("GZI302")
def net_buoyancy(doc: DocumentContext) -> Iterator[Finding]:
    """GZI302 net-buoyancy: buoyancy and weight differ by more than the configured fraction."""
    h = scope.hydrostatics_of(doc)
    if not h.from_plugin:
        return  # the fluid is known only in a world with the plugin (a model file: any world)
    fraction = doc.net_buoyancy
    for model, body in scope.free_bodies(h):
        V = submerged_volume(h, body)
        buoyancy = h.fluid.density * V * body.g
        if not (body.weight > 0 and buoyancy > 0):
            continue
        net = buoyancy - body.weight
        if not abs(net) > fraction * body.weight:
            continue
        way = "rises" if net > 0 else "sinks"
        if net > 0 and h.fluid.kind == "graded":
            way = "rises to the surface and floats there"
        percent = 100.0 * net / body.weight
        yield scope.body_finding(
            "GZI302", h, model, body,
            f" submerged {scope.fluid_words(h)}: buoyancy {fmt(buoyancy)} N, "
            f"weight {fmt(body.weight)} N, net {net:+.4g} N ({percent:+.3g} % of its weight, "
            f"beyond {fmt(100 * fraction)} %): it {way} (Gazebo's volume {fmt(V)} m^3, its "
            f"collisions summed as gz-sim's Buoyancy system sums them; mass "
            f"{fmt(body.mass)} kg; neutral at {fmt(body.mass / h.fluid.density)} m^3)",
            {"buoyancy": buoyancy, "weight": body.weight, "net_percent": percent},
        )



def _link_differences(h: scope.DocumentHydrostatics, link: LinkHydrostatics) -> list[str]:
    out: list[str] = []
    size = max(link.volume_exact, 0.0) ** (1.0 / 3.0)
    if h.fluid.kind == "graded":
        meshes = [c.name for c in link.collisions if c.kind == "mesh"]
        if meshes:
            out.append(f"its mesh collision(s) {', '.join(meshes)} get no buoyancy in a graded "
                       "fluid (Gazebo computes graded buoyancy for primitives only)")
    if link.volume_exact > 0 and (abs(link.volume - link.volume_exact)
                                  > VOLUME_TOLERANCE * link.volume_exact):
        causes = gazebo_volume_causes(link.collisions)
        why = f" ({'; '.join(causes)})" if causes else ""
        out.append(f"Gazebo's volume {fmt(link.volume)} m^3, the geometry's "
                   f"{fmt(link.volume_exact)} m^3{why}")
    offset = float(np.linalg.norm(link.p_BoBv_B - link.p_BoBv_B_exact))
    if link.volume_exact > 0 and offset > CENTRE_TOLERANCE * size:
        out.append(f"Gazebo's centre of volume {fmt_vec(link.p_BoBv_B)} m (link frame: each "
                   f"collision counted at its origin), the geometry's "
                   f"{fmt_vec(link.p_BoBv_B_exact)} m, {fmt(offset)} m apart")
    elif h.fluid.kind == "graded" and not any(c.kind == "mesh" for c in link.collisions):
        f, fe = float(np.linalg.norm(link.f_W)), float(np.linalg.norm(link.f_W_exact))
        d = float(np.linalg.norm(link.p_WB - link.p_WB_exact))
        if abs(f - fe) > VOLUME_TOLERANCE * max(fe, 1e-300) or (
                fe > 0 and d > CENTRE_TOLERANCE * size):
            out.append(f"at its pose, a shape rotated across a fluid layer: Gazebo's buoyancy "
                       f"{fmt(f)} N at {fmt_vec(link.p_WB)}, the geometry's {fmt(fe)} N at "
                       f"{fmt_vec(link.p_WB_exact)} (gz-sim slices shapes in their own axes)")
    return out


def _hovers(h: scope.DocumentHydrostatics, model: ModelHydrostatics) -> bool:
    """In a model file: the model's mass over its exact volume is near the water's density."""
    if h.from_plugin:
        return True
    displaced = h.fluid.density * model.volume_exact
    low, high = scope.NEAR_NEUTRAL
    return displaced > 0 and low <= model.mass / displaced <= high


@document_rule("GZI305")
def buoyancy_not_as_geometry(doc: DocumentContext) -> Iterator[Finding]:
    """GZI305 buoyancy-not-as-geometry: Gazebo's volume or centre differs from the geometry's."""
    h = scope.hydrostatics_of(doc)
    for model in h.models:
        for link in (link for body in model.bodies if _hovers(h, body) for link in body.links):
            if not link.enabled or not math.isfinite(link.volume_exact):
                continue
            differences = _link_differences(h, link)
            if differences:
                record = h.records[link.name]
                yield finding(
                    "GZI305", record.source, link.name,
                    f"Gazebo's Buoyancy system {scope.fluid_words(h)}: " + "; ".join(differences),
                    {"volume": link.volume, "volume_exact": link.volume_exact},
                )

