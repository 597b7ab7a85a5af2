"""What the target release's Buoyancy system does, read from the release table
(:mod:`gzinertia.gazebo.releases`) as a
:class:`~gzinertia.physics.buoyancy_release.BuoyancyBehaviour`, with what is assumed where the
table does not know.

Rows used: ``graded-buoyancy-round-shapes`` (gz-sim#3423), ``gz-common-mesh-volume``
(gz-common#877), ``buoyancy-centroid-mesh-scale`` (gz-sim#3909) and ``graded-buoyancy-rotated``
(gz-sim#3880). The last two were merged in August 2026, after the newest tag of every release in
the table; whether a newer tag of the target has them is unknown here. They are **assumed
absent** (a release stands for its newest tag in the table, and none has them), and the
behaviour with them is computed too (:attr:`ReleaseBuoyancy.alternative`), so that every output
can show both and say which it assumed and why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from gzinertia.gazebo.releases import CHANGES
from gzinertia.gazebo.target import Target
from gzinertia.physics.buoyancy_release import (
    BuoyancyBehaviour,
    CollisionBuoyancy,
    collision_buoyancy,
)
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, LinkRecord
from gzinertia.spatial.rotation import Vec3

__all__ = ["FLAGS", "LinkReleaseBuoyancy", "ReleaseBuoyancy", "behaviour_of",
           "link_release_buoyancy"]

#: Each flag of :class:`BuoyancyBehaviour` and the row of the table it follows.
FLAGS = {
    "round_shapes": "graded-buoyancy-round-shapes",
    "signed_mesh_volume": "gz-common-mesh-volume",
    "centroid_and_scale": "buoyancy-centroid-mesh-scale",
    "rotated_graded": "graded-buoyancy-rotated",
}


@dataclass(frozen=True, repr=False, eq=False)
class ReleaseBuoyancy(ValueRecord):
    """The target's Buoyancy behaviour as assumed (``behaviour``), the behaviour with the rows
    of unknown first release present (``alternative``; ``None`` when every row used is known),
    and the sentence saying what was assumed and why (``assumption``; ``""`` when nothing
    was)."""

    target: Target
    behaviour: BuoyancyBehaviour
    alternative: BuoyancyBehaviour | None
    assumption: str


def behaviour_of(target: Target) -> ReleaseBuoyancy:
    """The Buoyancy behaviour of ``target``'s release (see the module)."""
    known = {flag: target.has(key) for flag, key in FLAGS.items()}
    unknown = [flag for flag, key in FLAGS.items() if not CHANGES[key].known]
    behaviour = BuoyancyBehaviour(**known)
    if not unknown:
        return ReleaseBuoyancy(target, behaviour, None, "")
    alternative = replace(behaviour, **dict.fromkeys(unknown, True))
    # gz-sim#3909 needs gz-common's Mesh::Centroid, which came with gz-common#877
    alternative = replace(alternative, signed_mesh_volume=True)
    info = target.info
    sources = " and ".join(CHANGES[FLAGS[flag]].source for flag in unknown)
    assumption = (f"assumed without {sources} (merged August 2026, after {info.newest}, the "
                  f"newest tag of Gazebo {info.title} known here; a newer tag may have them)")
    return ReleaseBuoyancy(target, behaviour, alternative, assumption)


@dataclass(frozen=True, repr=False, eq=False)
class LinkReleaseBuoyancy(ValueRecord):
    """A link's collisions' buoyancy under a release (:func:`link_release_buoyancy`):
    ``collisions`` as assumed, ``alternative`` with the rows of unknown first release present
    (empty when none is unknown), in the link's collision order."""

    name: str
    collisions: tuple[CollisionBuoyancy, ...]
    alternative: tuple[CollisionBuoyancy, ...] = ()

    @property
    def buoyancy(self) -> float:
        """The release's buoyancy of the link, along up (N): its collisions' sum."""
        return float(sum(c.buoyancy for c in self.collisions))

    @property
    def p_WB(self) -> Vec3 | None:
        """The release's centre of buoyancy of the link (world, m; ``None`` when none acts)."""
        return _centre(self.collisions)

    @property
    def alternative_buoyancy(self) -> float | None:
        """:attr:`buoyancy` with the unknown rows present (``None`` when none is unknown)."""
        return float(sum(c.buoyancy for c in self.alternative)) if self.alternative else None

    @property
    def alternative_p_WB(self) -> Vec3 | None:
        """:attr:`p_WB` with the unknown rows present."""
        return _centre(self.alternative) if self.alternative else None


def _centre(collisions: tuple[CollisionBuoyancy, ...]) -> Vec3 | None:
    total = sum(c.buoyancy for c in collisions)
    if total == 0.0:
        return None
    return np.asarray(sum((c.buoyancy * np.asarray(c.p_WB) for c in collisions), np.zeros(3))
                      / total)


def link_release_buoyancy(link: LinkRecord, release: ReleaseBuoyancy,
                          fluid: BuoyancyWorld) -> LinkReleaseBuoyancy:
    """Each collision of ``link`` at its pose ``link.X_WB`` in ``fluid`` under ``release``
    (:func:`~gzinertia.physics.buoyancy_release.collision_buoyancy`), as assumed and with the
    unknown rows present."""
    def under(behaviour: BuoyancyBehaviour) -> tuple[CollisionBuoyancy, ...]:
        return tuple(collision_buoyancy(c, behaviour, link.X_WB, fluid) for c in link.collisions)

    alternative = () if release.alternative is None else under(release.alternative)
    return LinkReleaseBuoyancy(link.name, under(release.behaviour), alternative)
