"""The pairs of balls that meet, by a k-d tree (SciPy): the candidates of
:mod:`gzinertia.physics.contact_groups` (which reaches this module through the package face, so
that a link of one collision never loads SciPy).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

__all__ = ["near_pairs"]


def near_pairs(centres: NDArray[np.float64], reach: NDArray[np.float64]) -> list[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, sorted, of the balls (``centres`` n x 3 and radii
    ``reach``, any one frame and unit) that meet. Each pair is found from its larger member's
    neighbourhood (a k-d tree ball of twice its reach)."""
    tree = cKDTree(centres)
    pairs = []
    for i, near in enumerate(tree.query_ball_point(centres, 2.0 * reach)):
        for j in near:
            larger_is_i = reach[j] < reach[i] or (reach[j] == reach[i] and j > i)
            if larger_is_i and np.sum((centres[i] - centres[j]) ** 2) <= (reach[i] + reach[j]) ** 2:
                pairs.append((min(i, j), max(i, j)))
    return sorted(pairs)
