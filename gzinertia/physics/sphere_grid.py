"""Which of many spheres may meet, without comparing every pair: a grid of cells per size class.

A sphere of radius ``r`` belongs to the class ``e`` with ``r < 2^(e-2)`` (``math.frexp``), and
sits in the cell of side ``s = 2^e`` (more than ``4r``) of its class that holds its centre. Two
spheres that meet are closer than the sum of their radii, which is less than ``s/2`` of the
larger one's class, so along each axis their cells of that class are the same or adjacent: each
sphere looks in the 27 cells around its centre in its own class and in every larger class that
holds a sphere. The work is linear in the spheres (times the number of size classes present,
a handful for any real model) plus the pairs of spheres close to each other, wherever the
spheres lie: a sweep along one axis compares every pair of spheres stacked along another.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

__all__ = ["near_pairs"]

_NEIGHBOURS = tuple((dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1))
#: Cell coordinates are clamped to this many cells (a centre far out in a tiny class would
#: overflow): clamping keeps centres closer than one cell in the same or adjacent cells.
_FAR = 1e300

Cell = tuple[int, int, int]


def _class_of(radius: float) -> int:
    return math.frexp(radius)[1] + 2


def _cell(centre: Sequence[float], side: float) -> Cell:
    x, y, z = (_clamped(v / side) for v in centre)
    return math.floor(x), math.floor(y), math.floor(z)


def _clamped(u: float) -> float:
    return 0.0 if u != u else max(-_FAR, min(_FAR, u))


def near_pairs(
    centres: Sequence[Sequence[float]], radii: Sequence[float]
) -> list[tuple[int, int]]:
    """Every pair ``(i, j)``, ``i < j``, of the spheres (``centres[k]``, a 3-vector, and
    ``radii[k] ≥ 0``) whose centres are closer than the sum of their radii, and some other
    pairs of nearby spheres (the caller decides on each); each pair once, in no particular
    order."""
    grids: dict[int, dict[Cell, list[int]]] = {}
    classes = [_class_of(float(r)) for r in radii]
    for k, (centre, e) in enumerate(zip(centres, classes, strict=True)):
        grids.setdefault(e, {}).setdefault(_cell(centre, math.ldexp(1.0, e)), []).append(k)
    present = sorted(grids)
    pairs = []
    for k, (centre, own) in enumerate(zip(centres, classes, strict=True)):
        for e in present[bisect.bisect_left(present, own) :]:
            grid = grids[e]
            cx, cy, cz = _cell(centre, math.ldexp(1.0, e))
            for dx, dy, dz in _NEIGHBOURS:
                for m in grid.get((cx + dx, cy + dy, cz + dz), ()):
                    # a pair in one class is found from both sides: kept from the lower index
                    if e > own or m > k:
                        pairs.append((k, m) if k < m else (m, k))
    return pairs
