"""Which element of a link a shape is read from: its ``<collision>`` (what displaces fluid,
what Gazebo's Buoyancy system measures) or its ``<visual>`` (the shape as drawn)."""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["GEOMETRY_ELEMENTS", "GeometryElement"]

#: A link's geometry element: ``"collision"`` or ``"visual"``.
GeometryElement = Literal["collision", "visual"]
#: Both, collisions first (the default everywhere).
GEOMETRY_ELEMENTS: Final[tuple[GeometryElement, ...]] = ("collision", "visual")
