"""What the BEM's mesher and solver can take, judged from a link's shapes before any native code
runs (manifold3d, fast-simplification, Capytaine), so that a shape outside it is one line naming
the file, the link and the collision, why, and what would work.

Measured limits (docs/bem.md, *Limits of the mesher*; ``tests/test_hostile_bem.py``):

* **Edge divisions.** manifold3d's ``refine_to_length(h)`` (3.5.4) cuts an edge of length ``L``
  at ``floor(L/h)`` points; from :data:`MANIFOLD_EDGE_LIMIT` + 1 points on, an ``int`` overflows
  in its subdivision (products of division counts in ``Partition``), which then recurses without
  end and dies of SIGSEGV whatever the stack size. A NaN ``h`` crashes it as well. The issue's
  cylinder, 1e6 m long and 1e-6 m thick, asked for 1.15e7 points per edge. The mesher never
  refines a shape into more than :data:`MAX_REFINED_PANELS` triangles (:func:`panel_estimate`),
  far below that limit.
* **Aspect ratio.** A shape's largest over its smallest dimension. Measured on ellipsoids
  against Tuckerman's closed form: at 1:10 the error estimate bounds every entry's true error;
  from 1:30 on some entries fall outside their bound while the true error stays a few per cent
  up to 1:1000 (warned: :data:`WARN_ASPECT_RATIO`); at 1:10,000 it is 16-22 % and a needle's
  solve takes a hundred times longer. Shapes beyond :data:`MAX_ASPECT_RATIO` are refused.
* **Size.** The mesher and the solver work on the link scaled to unit size by a power of two
  (exact), so absolute size only matters to the result: the rotational added mass about the
  link origin is of order ``ρ·s³·R²`` (``s`` the geometry's size, ``R`` its reach from the
  origin), which must be a number SDF can hold (:data:`gzinertia.numbers.MAX_MAGNITUDE`);
  below ``ρ·s⁵ = 1/MAX_MAGNITUDE`` a body is refused as too small to mean anything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import NDArray

from gzinertia.errors import GzInertiaError
from gzinertia.numbers import MAX_MAGNITUDE
from gzinertia.options import option
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, Geometry
from gzinertia.wording import bounded

__all__ = [
    "MANIFOLD_EDGE_LIMIT",
    "MAX_ASPECT_RATIO",
    "MAX_PANELS",
    "MAX_REACH_RATIO",
    "MAX_REFINED_PANELS",
    "WARN_ASPECT_RATIO",
    "MeshDomainError",
    "ShapeSize",
    "aspect_warning",
    "mesh_size",
    "panel_estimate",
    "primitive_size",
    "require_refinable",
    "require_shape",
    "require_writable",
    "segments",
    "shape_place",
    "shapes_place",
    "smallest_panel_size",
]

#: Most points manifold3d 3.5.4's ``refine_to_length`` puts on one edge (measured: one more
#: overflows an ``int`` and the process dies of SIGSEGV).
MANIFOLD_EDGE_LIMIT: Final = 46_341
#: Most panels of one solve (the dense BEM needs about 64·N² bytes: 6.4 GB at 10,000).
MAX_PANELS: Final = 10_000
#: Most triangles the mesher refines one shape into: what one solve takes, five times (a
#: union's hidden parts are cut away after the refinement; the solve's own limit is checked on
#: the meshed surface). Any edge then has far fewer than :data:`MANIFOLD_EDGE_LIMIT` points.
MAX_REFINED_PANELS: Final = 5 * MAX_PANELS
#: Shapes thinner than 1:this are refused (module docstring: measured).
MAX_ASPECT_RATIO: Final = 1_000.0
#: Shapes thinner than 1:this are solved with a warning: the error estimate is no bound there.
WARN_ASPECT_RATIO: Final = 10.0
#: A shape whose smallest dimension is below 1/this of the geometry's reach from the link
#: origin is below what float64 coordinates (and manifold3d's tolerance, 1e-12 of the extent)
#: resolve at that distance.
MAX_REACH_RATIO: Final = 1e9


class MeshDomainError(GzInertiaError):
    """A shape the BEM's mesher or solver cannot take (the message names file, link, shape,
    why and what would work)."""


def shape_place(c: Collision, element: str = "collision", link: str | None = None) -> str:
    """``file:line: link 'L', collision 'c'``: where a shape is, for messages."""
    owner = f"link {link!r}, " if link else ""
    return f"{c.source}: {owner}{element} {c.name!r}"


def shapes_place(
    collisions: Sequence[Collision], element: str = "collision", link: str | None = None
) -> str:
    """:func:`shape_place` of one shape; of several, the first's file and line and a bounded
    list of their names (``collisions 'a', 'b', 'c' and 1597 more``)."""
    if len(collisions) == 1:
        return shape_place(collisions[0], element, link)
    owner = f"link {link!r}, " if link else ""
    names = bounded(repr(c.name) for c in collisions)
    where = collisions[0].source if collisions else "?"
    return f"{where}: {owner}{element}s {names}"


def segments(radius: float, h: float) -> int:
    """Segments round a circle of ``radius`` for edges about ``h`` long (a multiple of 4, >= 8;
    8 for an infinite ``h``: the coarsest)."""
    if not math.isfinite(h):
        return 8
    n = math.ceil(2.0 * math.pi * radius / h)
    return max(8, 4 * math.ceil(n / 4))


@dataclass(frozen=True, repr=False, eq=False)
class ShapeSize(ValueRecord):
    """What the mesher makes of one shape, in the shape's own frame: its surface ``area``
    (m²), its ``largest`` and ``smallest`` dimensions (m), the radius of a sphere about its
    frame's origin holding it (``radius``, m), and its tessellation before refinement: ``curve``
    the radius its segments are counted on (:func:`segments`; 0 for a shape without curves),
    ``edges`` the length (m) of the edges a refinement cuts, plus ``edges_per_segment`` for
    each of ``n`` segments (a cylinder's side edges and cap chords), and ``triangles``
    ``(c0, c1, c2)``: ``c0 + c1·n + c2·n²`` triangles (a sphere of ``n`` segments has
    ``n²/2``, a cylinder ``4n - 4``, a box 12, a mesh file its own)."""

    area: float
    largest: float
    smallest: float
    radius: float
    curve: float = 0.0
    edges: float = 0.0
    edges_per_segment: float = 0.0
    triangles: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def aspect_ratio(self) -> float:
        """Largest over smallest dimension."""
        return self.largest / self.smallest


def _positive(values: Sequence[float | None], what: str, where: str) -> list[float]:
    out = [float(v) if v is not None else float("nan") for v in values]
    if not all(math.isfinite(v) and v > 0.0 for v in out):
        raise MeshDomainError(f"{where}: {what} must be positive and finite, got {values}")
    return out


def primitive_size(geometry: Geometry, where: str) -> ShapeSize:
    """The :class:`ShapeSize` of a box, sphere, ellipsoid, cylinder, capsule or cone (a
    :class:`MeshDomainError` naming ``where`` for a dimension that is not positive and
    finite). Areas are exact, an ellipsoid's within 1.1 % (Knud Thomsen's formula)."""
    kind = geometry.kind
    if kind == "box":
        a, b, c = _positive(list(geometry.size or (None,) * 3), "box <size>", where)
        return ShapeSize(2.0 * (a * b + b * c + c * a), max(a, b, c), min(a, b, c),
                         0.5 * math.sqrt(a * a + b * b + c * c), edges=4.0 * (a + b + c),
                         triangles=(12.0, 0.0, 0.0))
    if kind in ("sphere", "ellipsoid"):
        if kind == "sphere":
            (r,) = _positive([geometry.radius], "sphere <radius>", where)
            a = b = c = r
        else:
            a, b, c = _positive(list(geometry.size or (None,) * 3), "ellipsoid <radii>", where)
        p = 1.6075
        area = 4.0 * math.pi * (((a * b) ** p + (b * c) ** p + (c * a) ** p) / 3.0) ** (1 / p)
        top = max(a, b, c)
        return ShapeSize(area, 2.0 * top, 2.0 * min(a, b, c), top, curve=top,
                         triangles=(0.0, 0.0, 1.0))
    if kind in ("cylinder", "capsule", "cone"):
        r, length = _positive([geometry.radius, geometry.length],
                              f"{kind} radius and length", where)
        # a refinement cuts the side edges (one per segment); the caps' chords lie inside
        # their area, which the area term counts
        if kind == "cylinder":
            area, side, extent = 2.0 * math.pi * r * (r + length), length, length
            triangles = (-4.0, 4.0, 0.0)
        elif kind == "capsule":
            area = 4.0 * math.pi * r * r + 2.0 * math.pi * r * length
            side, extent = length, length + 2.0 * r
            triangles = (0.0, 4.0, 1.0)
        else:
            slant = math.hypot(r, length)
            area, side, extent = math.pi * r * (r + slant), slant, length
            triangles = (0.0, 2.0, 0.0)
        return ShapeSize(area, max(extent, 2.0 * r), min(extent, 2.0 * r),
                         math.hypot(r, 0.5 * extent), curve=r, edges_per_segment=side,
                         triangles=triangles)
    raise MeshDomainError(f"{where}: a {kind} geometry displaces no volume the BEM can mesh")


def mesh_size(vertices: NDArray[np.float64], faces: NDArray[np.int64]) -> ShapeSize:
    """The :class:`ShapeSize` of a closed triangle mesh (vertices in its own frame, metres):
    its area, the total length of its distinct edges, its bounding box's largest and smallest
    extent, and its triangle count."""
    v = vertices[faces]
    area = float(0.5 * np.linalg.norm(np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]),
                                      axis=1).sum())
    pairs = np.sort(np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]),
                    axis=1)
    pairs = np.unique(pairs, axis=0)
    length = float(np.linalg.norm(vertices[pairs[:, 0]] - vertices[pairs[:, 1]], axis=1).sum())
    extent = np.ptp(vertices, axis=0)
    radius = float(np.max(np.linalg.norm(vertices, axis=1)))
    return ShapeSize(area, float(np.max(extent)), float(np.min(extent)), radius, edges=length,
                     triangles=(float(len(faces)), 0.0, 0.0))


#: Area of a refined triangle, in ``h²``, and triangles per point a refinement puts on an edge:
#: fitted so that :func:`panel_estimate` is 1.1-3.6 times manifold3d's count on boxes, spheres,
#: ellipsoids, cylinders, capsules and cones from isotropic to 1:1000, at panel sizes from a
#: twentieth to twice the shape (a disk 1:500: 0.74 times).
AREA_PER_PANEL: Final = 0.27
PANELS_PER_EDGE_POINT: Final = 6.0


def panel_estimate(size: ShapeSize, h: float) -> float:
    """About how many triangles (a little more, rather than fewer) the mesher makes of the
    shape at panel size ``h``: its area at :data:`AREA_PER_PANEL` ``·h²`` per triangle,
    :data:`PANELS_PER_EDGE_POINT` per point a refinement puts on an edge, and the triangles it
    starts from (module docstring)."""
    n = segments(size.curve, h) if size.curve > 0.0 else 0
    c0, c1, c2 = size.triangles
    edges = size.edges + size.edges_per_segment * n
    return (size.area / (AREA_PER_PANEL * h * h) + PANELS_PER_EDGE_POINT * edges / h
            + c0 + c1 * n + c2 * n * n)


#: The panel count :func:`smallest_panel_size` aims at: the solve's limit with the margin of the
#: estimate's worst undercount (0.74).
SUGGESTED_PANELS: Final = int(0.7 * MAX_PANELS)


def smallest_panel_size(sizes: Sequence[ShapeSize], panels: int = SUGGESTED_PANELS) -> float:
    """The smallest panel size at which the shapes together make at most ``panels`` triangles
    (:func:`panel_estimate`, decreasing in ``h``: bisection on its logarithm); ``inf`` when even
    the coarsest tessellation makes more."""
    low = min(s.smallest for s in sizes) * 1e-9
    high = 2.0 * max(max(s.largest for s in sizes), 1e-300)

    def total(h: float) -> float:
        return sum(panel_estimate(s, h) for s in sizes)

    if total(high) > panels:
        return math.inf
    for _ in range(200):
        mid = math.sqrt(low * high)
        if total(mid) > panels:
            low = mid
        else:
            high = mid
        if high <= low * (1.0 + 1e-6):
            break
    return high


def require_shape(size: ShapeSize, where: str) -> None:
    """Refuses a shape thinner than :data:`MAX_ASPECT_RATIO` (module docstring)."""
    if not size.aspect_ratio <= MAX_ASPECT_RATIO:
        raise MeshDomainError(
            f"{where}: its aspect ratio is {size.aspect_ratio:.3g} ({size.largest:.3g} m by "
            f"{size.smallest:.3g} m); the BEM takes shapes up to 1:{MAX_ASPECT_RATIO:g} (thinner, "
            "its panels cannot resolve the shape and its solves take a hundred times longer): "
            f"give the added mass with {option('ellipsoid')} (Tuckerman's closed form holds for "
            f"slender and flat ellipsoids) or with {option('bem_from')}"
        )


def aspect_warning(size: ShapeSize, where: str) -> str | None:
    """The warning for a shape thinner than :data:`WARN_ASPECT_RATIO`, ``None`` otherwise."""
    if size.aspect_ratio <= WARN_ASPECT_RATIO:
        return None
    return (
        f"{where}: its aspect ratio is {size.aspect_ratio:.3g}: beyond 1:{WARN_ASPECT_RATIO:g} "
        "the estimated discretisation error is no bound for every entry (measured on "
        "ellipsoids: from 1:30 some entries are outside it, true errors up to 5 % at 1:1000)"
    )


def require_reach(sizes: Sequence[ShapeSize], reach: float, places: Sequence[str]) -> None:
    """Refuses shapes too small for float64 coordinates at their distance from the link
    origin (:data:`MAX_REACH_RATIO`)."""
    for size, where in zip(sizes, places, strict=True):
        if not size.smallest * MAX_REACH_RATIO >= reach:
            raise MeshDomainError(
                f"{where}: it is {size.smallest:.3g} m across and the link's geometry reaches "
                f"{reach:.3g} m from the link origin: more than {MAX_REACH_RATIO:g} times its "
                "size, below what the mesher resolves there; pose the link's frame near its "
                f"geometry or give the added mass with {option('bem_from')}"
            )


def require_refinable(size: ShapeSize, h: float, where: str) -> None:
    """Refuses to refine a shape at panel size ``h`` into more than
    :data:`MAX_REFINED_PANELS` triangles (:func:`panel_estimate`), naming the smallest panel
    size at which the BEM takes it."""
    if not (math.isfinite(h) and h > 0.0):
        raise MeshDomainError(f"{where}: panel size must be positive and finite, got {h!r}")
    estimate = panel_estimate(size, h)
    if estimate <= MAX_REFINED_PANELS:
        return
    smallest = smallest_panel_size([size])
    points = math.floor(size.largest / h)
    what = (
        f"no panel size makes it {MAX_PANELS} panels or fewer: give its added mass with "
        f"{option('ellipsoid')} or {option('bem_from')}"
        if math.isinf(smallest)
        else f"use {option('panel_size')} {smallest:.3g} or larger"
    )
    raise MeshDomainError(
        f"{where}: at a panel size of {h:.3g} m its {size.largest:.3g} m would be cut at "
        f"{points} points and its surface into about {estimate:.3g} panels; the BEM solves at "
        f"most {MAX_PANELS}: {what}"
    )


def require_writable(
    collisions: Sequence[Collision], sizes: Sequence[ShapeSize], density: float, where: str
) -> None:
    """Refuses geometry whose added mass about the link origin cannot be written: of order
    ``ρ·s³·R²`` (``s`` the largest shape, ``R`` the reach from the origin) above
    :data:`~gzinertia.numbers.MAX_MAGNITUDE` (or beyond float64), or ``ρ·s⁵`` below its
    inverse."""
    s = max(size.largest for size in sizes)
    reach = max(
        float(np.linalg.norm(c.X_BC.p)) + size.radius
        for c, size in zip(collisions, sizes, strict=True)
    )
    if not (density > 0.0 and math.isfinite(density)):
        return  # the density is refused where it is read
    top = math.log10(density) + 3.0 * math.log10(s) + 2.0 * math.log10(reach)
    bottom = math.log10(density) + 5.0 * math.log10(s)
    limit = math.log10(MAX_MAGNITUDE)
    if top > limit:
        why = (
            "overflows float64" if top > math.log10(np.finfo(float).max)
            else f"is beyond the {MAX_MAGNITUDE:g} that SDF values may reach"
        )
        largest = 10.0 ** ((limit - math.log10(density)) / 5.0)
        raise MeshDomainError(
            f"{where}: {s:.3g} m across and {reach:.3g} m from the link origin, its added mass "
            f"about the origin, of order ρ·s³·R² = 1e{top:.0f}, {why}; the BEM takes bodies up "
            f"to about {largest:.2g} m at {density:g} kg/m^3"
        )
    if bottom < -limit:
        smallest = 10.0 ** ((-limit - math.log10(density)) / 5.0)
        raise MeshDomainError(
            f"{where}: {s:.3g} m across, its added mass, of order ρ·s⁵ = 1e{bottom:.0f}, is "
            f"below the 1/{MAX_MAGNITUDE:g} the BEM writes; the BEM takes bodies from about "
            f"{smallest:.2g} m at {density:g} kg/m^3"
        )
