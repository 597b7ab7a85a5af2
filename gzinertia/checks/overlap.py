"""Which fluid ellipsoids of a model's links overlap, as GZI210 judges it and ``addmass``'s
overlap guard (:mod:`gzinertia.edit.overlap_guard`) avoids: the same ellipsoids, pair search and
threshold for both, so what ``addmass`` writes never adds a GZI210 finding."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.checks.context import LinkContext
from gzinertia.physics.overlap import contact
from gzinertia.physics.sphere_grid import near_pairs

if TYPE_CHECKING:
    from gzinertia.physics.ellipsoid import PosedEllipsoid
    from gzinertia.physics.overlap import Contact

__all__ = ["OVERLAP_THRESHOLD", "candidate_pairs", "fluid_ellipsoids", "fluid_overlap_of"]


#: GZI210 fires when both ellipsoids must shrink by more than this fraction to stop overlapping
#: (``1 - √F`` of Perram–Wertheim's contact function): touching or grazing shapes stay silent.
OVERLAP_THRESHOLD = 0.02


def fluid_ellipsoids(ctx: LinkContext) -> list[PosedEllipsoid]:
    """The fluid ellipsoids GZI210 compares, in world coordinates: every ellipsoid of the
    link's volume fit (:attr:`LinkContext.fluid_fit`; one per separate body), none without one."""
    fit = ctx.fluid_fit
    if fit is None:
        return []
    return [e.posed_in(ctx.link.X_WB) for e in fit.ellipsoids]


def fluid_overlap_of(a: PosedEllipsoid, b: PosedEllipsoid) -> tuple[float, Contact] | None:
    """GZI210's overlap measure ``1 - √F`` of two fluid ellipsoids, and their contact, when it
    is above :data:`OVERLAP_THRESHOLD` (the rule fires); else ``None``."""
    reach = float(max(a.semi_axes)) + float(max(b.semi_axes))
    if float(np.sum((a.X_FE.p - b.X_FE.p) ** 2)) > reach * reach:
        return None
    c = contact(a, b)
    measure = 1.0 - float(np.sqrt(c.F))
    return (measure, c) if measure > OVERLAP_THRESHOLD else None


def candidate_pairs(
    members: list[tuple[LinkContext, PosedEllipsoid]],
) -> Iterator[tuple[LinkContext, PosedEllipsoid, LinkContext, PosedEllipsoid]]:
    """Pairs of ellipsoids of two different links whose bounding spheres (radius: largest
    semi-axis) meet, earlier link first: only those can overlap, so the exact contact test runs
    on few pairs. They are found through a grid of cells (:func:`~gzinertia.physics.sphere_grid.
    near_pairs`), so the rule stays linear in the number of links plus the pairs that meet
    wherever the links lie (a sweep along x compared every pair of links stacked along z), and
    come in the order that sweep met them: by the left edge (x - r) of the later one, then of
    the earlier one. A link may bring several ellipsoids (one per separate body of its fit)."""
    rank: dict[int, int] = {}
    for ctx, _ in members:
        rank.setdefault(id(ctx), len(rank))
    radius = [float(max(e.semi_axes)) for _, e in members]
    x = [float(e.X_FE.p[0]) for _, e in members]
    order = sorted(range(len(members)), key=lambda k: x[k] - radius[k])
    position = [0] * len(members)
    for i, k in enumerate(order):
        position[k] = i
    found = []
    centres = [e.X_FE.p.tolist() for _, e in members]
    for ka, kb in near_pairs(centres, radius):
        if position[ka] > position[kb]:
            ka, kb = kb, ka
        (a_ctx, a), (b_ctx, b) = members[ka], members[kb]
        reach = radius[ka] + radius[kb]
        if (
            a_ctx is b_ctx
            or x[ka] + radius[ka] < x[kb] - radius[kb]
            or float(np.sum((a.X_FE.p - b.X_FE.p) ** 2)) > reach * reach
        ):
            continue
        found.append((position[kb], position[ka]))
    found.sort()
    for later, earlier in found:
        (a_ctx, a), (b_ctx, b) = members[order[earlier]], members[order[later]]
        if rank[id(a_ctx)] < rank[id(b_ctx)]:
            yield a_ctx, a, b_ctx, b
        else:
            yield b_ctx, b, a_ctx, a

