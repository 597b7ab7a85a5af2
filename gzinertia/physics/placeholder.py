"""A link whose geometry encloses (almost) nothing: a placeholder, not the body's shape.

UUV Simulator's links carry 1e-6 m collision cylinders so that Gazebo classic keeps them (a
link without a collision was dropped); sensor links carry stubs of the same kind. The audit's
geometry rules skip such links (:attr:`gzinertia.checks.context.LinkContext.is_placeholder`),
and ``addmass`` does not compute added mass for them (about 1e-15 kg, or a 1,000-panel BEM solve
of a speck) unless the link is named. Both ask :func:`is_placeholder`: one definition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from gzinertia.physics.link_union import link_solid
from gzinertia.physics.shapes import ShapeError

if TYPE_CHECKING:
    from gzinertia.physics.shapes import SolidProperties
    from gzinertia.records import LinkRecord

__all__ = [
    "DEGENERATE_GYRATION_RADIUS", "PLACEHOLDER_GYRATION_RADIUS", "PLACEHOLDER_VOLUME",
    "gyration_radius", "is_placeholder", "placeholder_note",
]

#: A union of collisions below this volume (a 1 mm cube), and small in every direction
#: (:data:`PLACEHOLDER_GYRATION_RADIUS`), is a placeholder, not the body's shape: geometry-based
#: rules skip it (e.g. 1 µm cylinders used to switch collisions off).
PLACEHOLDER_VOLUME = 1e-9


#: A placeholder is small in every direction, not only in volume: its radius of gyration is
#: below this (m). A thin plate or disk of little volume but large extent is a body (a disk's
#: added mass normal to it, 8/3 ρ a³, owes nothing to its volume).
PLACEHOLDER_GYRATION_RADIUS = 1e-3
#: Below this radius of gyration (m) ``addmass`` does not skip a placeholder but leaves it to
#: the fit's or the solve's own refusal, which names the collision: its numbers are degenerate.
DEGENERATE_GYRATION_RADIUS = 1e-12


def gyration_radius(solid: SolidProperties) -> float:
    """The largest radius of gyration (m) of ``solid`` about its centroid: the square root of
    the largest eigenvalue of its unit-density inertia ``G_FFc_F`` over its volume."""
    largest = float(np.max(np.linalg.eigvalsh(np.asarray(solid.G_FFc_F, dtype=float))))
    return (max(largest, 0.0) / solid.volume) ** 0.5 if solid.volume > 0.0 else 0.0


def is_placeholder(solid: SolidProperties | None) -> bool:
    """Whether the body ``solid`` (a link's union of collisions) is a placeholder: it encloses
    less than :data:`PLACEHOLDER_VOLUME` and its radius of gyration is below
    :data:`PLACEHOLDER_GYRATION_RADIUS`; ``False`` for no solid (not known to be negligible)."""
    return (solid is not None and solid.volume < PLACEHOLDER_VOLUME
            and gyration_radius(solid) < PLACEHOLDER_GYRATION_RADIUS)


def placeholder_note(link: LinkRecord) -> str | None:
    """Why ``addmass`` skips ``link``: its collisions are a placeholder (:func:`is_placeholder`
    of their union, :func:`gzinertia.physics.link_union.link_solid`) that is not degenerate
    (:data:`DEGENERATE_GYRATION_RADIUS`), in words; ``None`` when they are not, or
    have no solid to measure (no collision, a mesh that cannot be read: said elsewhere)."""
    if not link.collisions:
        return None
    try:
        solid = link_solid(link.collisions)
    except ShapeError:
        return None
    if not is_placeholder(solid) or gyration_radius(solid) < DEGENERATE_GYRATION_RADIUS:
        return None
    return (f"its collisions enclose {solid.volume:.3g} m^3, negligible (below "
            f"{PLACEHOLDER_VOLUME:g} m^3, a 1 mm cube: a placeholder, not the body's shape, as "
            "the audit treats it)")
