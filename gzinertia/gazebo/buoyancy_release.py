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

from gzinertia.gazebo.releases import CHANGES
from gzinertia.gazebo.target import Target
from gzinertia.physics.buoyancy_release import BuoyancyBehaviour
from gzinertia.record_base import ValueRecord

__all__ = ["FLAGS", "ReleaseBuoyancy", "behaviour_of"]

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
