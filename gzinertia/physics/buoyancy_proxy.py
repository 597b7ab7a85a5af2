"""Collisions that look like a buoyancy proxy: hand-tuned boxes or spheres placed to set the
volume and centre of buoyancy Gazebo's Buoyancy system computes, not the body's shape.

A link's collisions are a proxy when, against its visuals (the shape the author drew),
their total volume is below :data:`PROXY_VOLUME_FRACTION` of the visuals', or their centre of
volume lies more than :data:`PROXY_OFFSET_FRACTION` of the visuals' size (``V^(1/3)``) from
the visuals' centre of volume. Added mass fitted to such collisions (``addmass``) describes
the proxy, not the hull.

Both sides are the link's bodies as every other consumer takes them
(:func:`gzinertia.physics.link_union.link_solid`): the union of the collisions, and the union
of the visuals, overlaps counted once (visual meshes of real vehicles overlap a lot: their sum
would inflate the visuals' volume and shift its centre). What was united, or, without
manifold3d, counted twice, is said with the reasons (:meth:`ProxyEvidence.said`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gzinertia.physics.link_union import link_solid
from gzinertia.physics.shapes import ShapeError
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.rotation import Vec3

PROXY_VOLUME_FRACTION = 0.25
PROXY_OFFSET_FRACTION = 0.25


@dataclass(frozen=True, repr=False, eq=False)
class ProxyEvidence(ValueRecord):
    """Collision and visual volumes (m³) and centres of volume (link frame, m) of their
    unions, why the collisions look like a proxy (``reasons``, empty when they do not), and how
    the two bodies were measured (``notes``: overlaps united, or counted twice; a mesh's
    repair or hull), empty when exactly as drawn."""

    collision_volume: float
    visual_volume: float
    p_BoCc_B: Vec3
    p_BoVc_B: Vec3
    offset: float
    reasons: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def said(self) -> str:
        """The reasons, then how the volumes were measured, in words."""
        measured = f" (measured as: {'; '.join(self.notes)})" if self.notes else ""
        return "; ".join(self.reasons) + measured


def _union(parts: Sequence[Collision], element: str) -> tuple[float, Vec3, str | None] | None:
    """The volume, centroid (link frame) and note of the union of ``parts``
    (:func:`~gzinertia.physics.link_union.link_solid`), ``None`` without a solid."""
    try:
        solid = link_solid(parts, element)
    except ShapeError:
        return None
    return solid.volume, np.asarray(solid.p_FoFc_F), solid.approximation


def buoyancy_proxy(
    collisions: Sequence[Collision], visuals: Sequence[Collision]
) -> ProxyEvidence | None:
    """The comparison of a link's collisions with its visuals (both in the link frame B), or
    ``None`` when either has no solid to compare (none, a plane, an unresolved mesh)."""
    if not collisions or not visuals:
        return None
    col, vis = _union(collisions, "collision"), _union(visuals, "visual")
    if col is None or vis is None or not vis[0] > 0:
        return None
    (Vc, pc, col_note), (Vv, pv, vis_note) = col, vis
    offset = float(np.linalg.norm(pc - pv))
    size = Vv ** (1.0 / 3.0)
    reasons = []
    if Vc < PROXY_VOLUME_FRACTION * Vv:
        reasons.append(f"collision volume {Vc:.4g} m^3 is {100 * Vc / Vv:.3g} % of the "
                       f"visuals' {Vv:.4g} m^3")
    if offset > PROXY_OFFSET_FRACTION * size:
        reasons.append(f"collision centre of volume {np.array2string(pc, precision=4)} m is "
                       f"{offset:.4g} m from the visuals' {np.array2string(pv, precision=4)} m")
    notes = tuple(n for n in (col_note, vis_note) if n)
    return ProxyEvidence(Vc, Vv, pc, pv, offset, tuple(reasons), notes)
