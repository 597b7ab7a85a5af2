"""Which of a link's collision shapes touch: the separate bodies the fluid flows around.

Two collisions belong to one body when their shapes overlap or touch, that is when the gap
between them is at most :data:`TOUCH_RTOL` times the equivalent radius ``(3V/4π)^(1/3)`` of the
smaller one (a tolerance for coordinates rounded when the model was written, not a physical
length). The groups are the connected components of that relation (a chain of touching shapes
is one body).

Shapes are judged by their convex hulls, in the link frame B: boxes, spheres, cylinders,
capsules, ellipsoids and cones exactly (they are convex), meshes by the convex hull of the
solid the geometry pipeline makes of the file (:mod:`gzinertia.physics.mesh_body`, after
``<scale>``), so a non-convex mesh reaches as far as its hull (shapes in a hollow of it count
as touching it: conservative, it merges rather than splits; only which shapes form one body is
decided here, never a volume). The gap between two
convex shapes comes from the Gilbert–Johnson–Keerthi algorithm on their support functions, which
gives an upper and a lower bound on the gap at each step; it stops as soon as one of them
decides.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

import gzinertia.physics
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.rotation import Vec3

if TYPE_CHECKING:
    import gzinertia.physics.mesh_body
    import gzinertia.physics.near_pairs

__all__ = [
    "TOUCH_RTOL",
    "ConvexShape",
    "Support",
    "convex_shape",
    "gap_at_most",
    "touching_groups",
]

#: Collisions closer than this fraction of the smaller one's equivalent radius touch.
TOUCH_RTOL = 0.01
_MAX_ITERATIONS = 64

Support = Callable[[Vec3], Vec3]


@dataclass(frozen=True, repr=False, eq=False)
class ConvexShape(ValueRecord):
    """A convex set in B given by its support function ``d ↦ argmax_{x ∈ S} d·x``, a bounding
    sphere (``centre``, ``radius``) and its equivalent radius (m)."""

    support: Support
    centre: Vec3
    radius: float
    equivalent_radius: float


def _primitive_support(collision: Collision) -> tuple[Callable[[Vec3], Vec3], float, Vec3]:
    """Support function in the collision frame C, bounding radius about ``centre_C``."""
    g = collision.geometry
    kind = g.kind
    if kind == "sphere" and g.radius is not None:
        r = g.radius
        return (lambda d: r * d / max(float(np.linalg.norm(d)), 1e-300)), r, np.zeros(3)
    if kind == "box" and g.size is not None:
        h = 0.5 * np.asarray(g.size, dtype=float)
        return (lambda d: np.where(d >= 0.0, h, -h)), float(np.linalg.norm(h)), np.zeros(3)
    if kind == "ellipsoid" and g.size is not None:
        a = np.asarray(g.size, dtype=float)

        def ellipsoid(d: Vec3) -> Vec3:
            scaled = a * d
            return a * scaled / max(float(np.linalg.norm(scaled)), 1e-300)

        return ellipsoid, float(np.max(a)), np.zeros(3)
    if kind in ("cylinder", "capsule") and g.radius is not None and g.length is not None:
        rr, half = g.radius, 0.5 * g.length
        capsule = kind == "capsule"

        def round_shape(d: Vec3) -> Vec3:
            tip = np.array([0.0, 0.0, half if d[2] >= 0.0 else -half])
            if capsule:
                return tip + rr * d / max(float(np.linalg.norm(d)), 1e-300)
            radial = np.array([d[0], d[1], 0.0])
            norm = float(np.linalg.norm(radial))
            return tip + (rr * radial / norm if norm > 0.0 else 0.0)

        return round_shape, (half + rr if capsule else float(np.hypot(rr, half))), np.zeros(3)
    if kind == "cone" and g.radius is not None and g.length is not None:
        return cone_support(g.radius, g.length), float(np.hypot(g.radius, 0.5 * g.length)), \
            np.zeros(3)
    if kind == "mesh" and g.mesh_path is not None:
        # the solid every consumer has, its hull here
        body = gzinertia.physics.mesh_body.mesh_body(g.mesh_path, g.scale)
        hull = np.asarray(body.trimesh().convex_hull.vertices, dtype=float)
        centre = 0.5 * (hull.min(axis=0) + hull.max(axis=0))
        radius = float(np.max(np.linalg.norm(hull - centre, axis=1)))
        return (lambda d: hull[int(np.argmax(hull @ d))]), radius, centre
    raise ValueError(f"collision {collision.name!r}: a {kind} geometry has no convex shape")


def cone_support(radius: float, length: float) -> Callable[[Vec3], Vec3]:
    """The support function of a cone along z (base of ``radius`` at ``-L/2``, apex at
    ``+L/2``): the apex or the base rim's point furthest along ``d``."""
    half = 0.5 * length

    def support(d: Vec3) -> Vec3:
        radial = np.array([d[0], d[1], 0.0])
        norm = float(np.linalg.norm(radial))
        rim = np.array([0.0, 0.0, -half]) + (radius * radial / norm if norm > 0.0 else 0.0)
        apex = np.array([0.0, 0.0, half])
        return apex if float(apex @ d) >= float(rim @ d) else rim

    return support


def convex_shape(collision: Collision, volume: float) -> ConvexShape:
    """The convex hull of a collision's geometry in the link frame B; ``volume`` is its solid's
    volume (for the equivalent radius). A ValueError for geometries without a solid."""
    support_C, radius, centre_C = _primitive_support(collision)
    R, p = collision.X_BC.R, collision.X_BC.p

    def support_B(d: Vec3) -> Vec3:
        return np.asarray(p + R @ support_C(R.T @ d), dtype=float)

    return ConvexShape(
        support_B, p + R @ centre_C, radius, float(np.cbrt(3.0 * volume / (4.0 * np.pi)))
    )


def _closest_on_simplex(points: NDArray[np.float64]) -> tuple[Vec3, NDArray[np.float64]]:
    """The point of the simplex (convex hull of 1-4 points) nearest the origin, and the smallest
    subset of the points whose hull holds it (every subset tried: at most 15)."""
    best: tuple[float, Vec3, NDArray[np.float64]] | None = None
    n = len(points)
    for k in range(1, n + 1):
        for subset in itertools.combinations(range(n), k):
            P = points[list(subset)]
            if k == 1:
                x, lam = P[0], np.ones(1)
            else:
                E = P[1:] - P[0]
                mu, *_ = np.linalg.lstsq(E @ E.T, -E @ P[0], rcond=None)
                lam = np.concatenate([[1.0 - mu.sum()], mu])
                if np.any(lam < -1e-12):
                    continue
                x = P[0] + mu @ E
            norm = float(x @ x)
            if best is None or norm < best[0] - 1e-300:
                best = (norm, x, P[lam > 1e-12] if np.any(lam > 1e-12) else P[:1])
    assert best is not None  # every single point is a candidate
    return best[1], best[2]


def gap_at_most(a: ConvexShape, b: ConvexShape, tolerance: float) -> bool:
    """Whether the gap between two convex shapes (0 when they overlap) is at most
    ``tolerance`` (m). GJK on the Minkowski difference ``A - B``: the nearest point ``v`` found
    so far bounds the gap from above, ``v·w/|v|`` (``w`` the support point along ``-v``) from
    below; it returns as soon as either bound decides (undecided after 64 steps: the upper
    bound decides)."""

    def support(d: Vec3) -> Vec3:
        return a.support(d) - b.support(-d)

    start = a.centre - b.centre
    if not np.any(start):
        start = np.array([1.0, 0.0, 0.0])
    simplex = np.array([support(-start)])
    v = simplex[0]
    for _ in range(_MAX_ITERATIONS):
        norm = float(np.linalg.norm(v))
        if norm <= tolerance:
            return True
        w = support(-v)
        lower = float(v @ w) / norm
        if lower > tolerance:
            return False
        if norm * norm - float(v @ w) <= 1e-12 * norm * norm:
            return norm <= tolerance  # converged: v is the nearest point
        if any(np.array_equal(w, s) for s in simplex):
            return norm <= tolerance  # no progress possible
        v, simplex = _closest_on_simplex(np.vstack([simplex, w]))
    return float(np.linalg.norm(v)) <= tolerance


def _candidate_pairs(shapes: Sequence[ConvexShape]) -> list[tuple[int, int]]:
    """The pairs whose bounding spheres, grown by the touch tolerance, meet
    (:func:`gzinertia.physics.near_pairs.near_pairs`: a k-d tree, SciPy loaded here, for links
    with several collisions only), so the work grows with the number of close pairs, not with
    the square of the number of shapes."""
    centres = np.array([s.centre for s in shapes], dtype=float)
    reach = np.array([s.radius + TOUCH_RTOL * s.equivalent_radius for s in shapes])
    return gzinertia.physics.near_pairs.near_pairs(centres, reach)


def touching_groups(shapes: Sequence[ConvexShape]) -> list[list[int]]:
    """Indices of the shapes grouped into bodies: connected components of "the gap is at most
    :data:`TOUCH_RTOL` times the smaller equivalent radius", each sorted, in order of their
    first member. Only pairs whose bounding spheres come that close are tested, and a pair
    already in one body is not tested again."""
    parent = list(range(len(shapes)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in _candidate_pairs(shapes) if len(shapes) > 1 else []:
        if root(i) == root(j):
            continue
        a, b = shapes[i], shapes[j]
        tolerance = TOUCH_RTOL * min(a.equivalent_radius, b.equivalent_radius)
        if gap_at_most(a, b, tolerance):
            parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(shapes)):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])
