"""What to do with a mesh surface that cannot be closed even after repair: refuse it
(``none``, the default), use its convex hull (``convex``) or a closed surface that follows it
(``wrap``: :mod:`gzinertia.physics.mesh_wrap`). The physics applies the choice
(:func:`gzinertia.physics.mesh_body.hull_fallback`); the command line's ``--hull`` and the
audit's ``hull`` setting offer it."""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = ["HULL_CHOICES", "HullChoice"]

#: A fallback for a mesh that is not closed: ``"none"``, ``"convex"`` or ``"wrap"``.
HullChoice = Literal["none", "convex", "wrap"]
#: The three, in the order ``--help`` lists them (the default first).
HULL_CHOICES: Final[tuple[HullChoice, ...]] = get_args(HullChoice)
