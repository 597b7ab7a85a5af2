"""The ``volume`` ellipsoid fit (the default): one ellipsoid per separate body of the link,
with the volume, centroid and principal axes of the union of its collision solids
(:mod:`gzinertia.physics.fits` describes the rule), posed in the link frame B."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gzinertia.physics.contact_groups import convex_shape, touching_groups
from gzinertia.physics.ellipsoid import PosedEllipsoid
from gzinertia.physics.ellipsoid_fit import EllipsoidFit, check_semi_axes, unfit
from gzinertia.physics.fit_collisions import (
    approximations,
    kinds,
    plural,
    shape_error,
    usable_collisions,
    where,
)
from gzinertia.physics.link_union import link_solid
from gzinertia.physics.principal_frame import nearest_to_link, principal_frame
from gzinertia.physics.shapes import ShapeError, SolidProperties, collision_solid
from gzinertia.records import Collision, LinkRecord
from gzinertia.spatial.rotation import Pose, Vec3
from gzinertia.wording import bounded


def ellipsoid_of_solid(solid: SolidProperties) -> tuple[Vec3, Pose]:
    """The ellipsoid with the solid's volume, centroid and principal axes, its axis ratios those
    of the solid's second moments: semi-axes along E's axes and ``X_FE`` in the solid's frame F.

    ``S = ½·tr(G)·1 - G = R_FE·diag(s)·R_FEᵀ``, ``a_i = k·√s_i`` with ``4/3·π·abc = V``.
    Non-positive second moments give NaN or zero semi-axes (for the caller to report).
    """
    G = np.asarray(solid.G_FFc_F, dtype=float)
    s, R_FP = principal_frame(0.5 * np.trace(G) * np.eye(3) - G)
    s, R_FE = nearest_to_link(s, R_FP)
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(s / np.max(s))  # in (0, 1]: no overflow in the product
        k = np.cbrt(3.0 * solid.volume / (4.0 * np.pi * np.prod(root)))
        semi_axes = k * root
    return semi_axes, Pose(solid.p_FoFc_F, R_FE)


def _bodies(collisions: Sequence[Collision], solids: Sequence[SolidProperties]) -> list[list[int]]:
    """The collisions grouped into separate bodies: those that touch or overlap are one body
    (:mod:`gzinertia.physics.contact_groups`)."""
    if len(collisions) == 1:
        return [[0]]
    shapes = [convex_shape(c, s.volume) for c, s in zip(collisions, solids, strict=True)]
    return touching_groups(shapes)


#: Why separate bodies get separate ellipsoids (said in every such fit's description).
SEPARATE_BODIES_REASON = (
    "one ellipsoid per body, summed at the link origin (one ellipsoid around all of them would "
    "put fluid between them; the interaction this neglects falls as (size/distance)^3)"
)


def volume_fit(link: LinkRecord) -> EllipsoidFit:
    """The ``volume`` fit of the link: one ellipsoid per separate body of its collisions
    (:func:`ellipsoid_of_solid` of the body's united solid), posed in the link frame B; a
    :class:`~gzinertia.physics.ellipsoid_fit.FitError` naming the collision otherwise."""
    collisions = usable_collisions(link, "volume")
    solids: list[SolidProperties] = []
    for c in collisions:
        try:
            solids.append(collision_solid(c))
        except ShapeError as exc:
            raise shape_error(link, c, exc) from exc
    bodies = _bodies(collisions, solids)
    ellipsoids: list[PosedEllipsoid] = []
    volume = 0.0
    unions: list[str] = []
    for body in bodies:
        try:  # the body's solids united (overlaps once): the one pipeline's body
            part = link_solid([collisions[i] for i in body])
        except ShapeError as exc:
            raise unfit(f"{where(link)}: {exc}", "inertia") from exc
        volume += part.volume
        own = {s.approximation for s in (solids[i] for i in body)}
        if part.approximation and part.approximation not in own:  # what uniting did
            unions.append(part.approximation.rsplit("; ", 1)[-1])
        semi_axes, X_BE = ellipsoid_of_solid(part)
        what = "the volume-equivalent ellipsoid of its collisions"
        if len(bodies) > 1:
            names = bounded(f"'{collisions[i].name}'" for i in body)
            what = f"the volume-equivalent ellipsoid of collision(s) {names}"
        problem = check_semi_axes(semi_axes, what)
        if problem:
            raise unfit(f"{where(link)}: {problem}", "inertia")
        label = None if len(bodies) == 1 else "+".join(collisions[i].name for i in body)
        ellipsoids.append(PosedEllipsoid(semi_axes, X_BE, label))
    n = len(collisions)
    description = (
        f"volume fit to {plural(n, 'collision')} ({kinds(collisions)}): V = {volume:.6g} m³"
    )
    if len(bodies) > 1:
        description += f", {len(bodies)} separate bodies: {SEPARATE_BODIES_REASON}"
    elif n > 1:
        description += ", one body (the collisions touch): one ellipsoid"
    notes = [approximations([(c, s.approximation) for c, s in zip(collisions, solids,
                                                                    strict=True)]), *unions]
    return EllipsoidFit(
        "volume", tuple(ellipsoids), description, "; ".join(n for n in notes if n) or None
    )

