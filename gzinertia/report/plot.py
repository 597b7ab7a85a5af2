"""Pictures of links: three orthographic views (top x–y, side x–z, front y–z) with the collision
shapes' outlines, the link origin's axes, the centre of mass, the equivalent inertia ellipsoid and
the fluid ellipsoid used for added mass.

Outlines are the convex hulls of each shape's projected surface points (exact for the convex SDF
primitives; for meshes, the hull of each separate piece: a catamaran's two pontoons in one file
are two outlines, not one hull over the gap between them). An ellipsoid with shape matrix ``Q``
(axes in the drawing frame) projects onto the plane of coordinates ``(i, j)`` as the ellipse
with shape matrix ``Q[[i, j]][:, [i, j]]``, which is drawn exactly. One link is drawn in its own
frame B; several links (``--link`` matching many, or none given) are drawn together in the world
frame.

Equivalent inertia ellipsoids of light links with a placeholder inertia can be metres across (a
2 g thruster with 1e-3 kg·m² about each axis is an ellipsoid 2.2 m across): in a model's view
each is drawn between :data:`ELLIPSOID_FLOOR` and :data:`ELLIPSOID_CAP` of the model's extent,
shape kept (:func:`scale_inertia_ellipsoids`), the legend saying how many were scaled each way;
a chosen scale applies to all of them instead. The figure itself, with matplotlib, is
:mod:`gzinertia.report.plot_figure`'s (this module loads no matplotlib: the HTML report draws
these same outlines and ellipsoids in 3D).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import ConvexHull, QhullError

import gzinertia.physics
from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.fits import FitError, fit_link
from gzinertia.physics.shapes import load_mesh
from gzinertia.record_base import ValueRecord
from gzinertia.records import Geometry, LinkRecord
from gzinertia.spatial.inertia import equivalent_ellipsoid_semi_axes, principal_axes
from gzinertia.spatial.rotation import Pose

if TYPE_CHECKING:
    import gzinertia.physics.mesh_body
    from gzinertia.physics.fits import FitError, FitMethod

__all__ = [
    "AXIS_NAMES",
    "ELLIPSOID_CAP",
    "ELLIPSOID_FLOOR",
    "OUTLINE_LABEL",
    "VIEWS",
    "HydroMarks",
    "LinkDrawing",
    "ellipse",
    "link_drawing",
    "model_extent",
    "scale_inertia_ellipsoids",
    "surface_in_frame",
    "surface_pieces",
    "surface_points",
    "surface_trace",
]

#: What the shapes' outlines are, in the legend: a picture's approximation, said (issue 24).
OUTLINE_LABEL = "collision outline (each piece's convex hull, projected: hollows drawn filled)"
#: (horizontal axis, vertical axis, title) of each view.
VIEWS = ((0, 1, "top (x–y)"), (0, 2, "side (x–z)"), (1, 2, "front (y–z)"))
AXIS_NAMES = "xyz"
_RING = 48
#: In a model's view, an equivalent inertia ellipsoid's largest semi-axis is drawn at most this
#: fraction of the model's largest extent (outlines, origins and centres of mass). A uniform
#: solid's ellipsoid reaches about 0.65 of its own extent (a cube: √(5/3)/2), so the inertia of
#: a body that fills the model is drawn true; only larger ones (light links with placeholder
#: inertias) are scaled down, and the legend says how many.
ELLIPSOID_CAP = 0.75
#: ... and at least this fraction (when it has any size): a 2 g thruster's true ellipsoid,
#: millimetres across, would hide under its centre-of-mass mark; at 2 % of the model's extent
#: it is drawn a little wider than that mark in a view about as wide as the model.
ELLIPSOID_FLOOR = 0.02


@dataclass(frozen=True, repr=False, eq=False)
class LinkDrawing(ValueRecord):
    """What is drawn for one link, already in the drawing frame F (B for one link, W for many)."""

    name: str
    X_FB: Pose
    outlines: tuple[NDArray[np.float64], ...]  # (N, 3) surface points per collision, in F
    p_FoBcm_F: NDArray[np.float64]
    inertia_ellipsoid: tuple[NDArray[np.float64], NDArray[np.float64]] | None  # (centre, Q) in F
    fluid_ellipsoids: tuple[tuple[NDArray[np.float64], NDArray[np.float64]], ...]
    mass: float
    note: str


def _ring(n: int = _RING) -> NDArray[np.float64]:
    t = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    return np.stack([np.cos(t), np.sin(t)], axis=1)


def _unit_sphere_points() -> NDArray[np.float64]:
    u = np.linspace(0.0, np.pi, 13)
    v = np.linspace(0.0, 2.0 * np.pi, 25)
    uu, vv = np.meshgrid(u, v)
    return np.stack([np.sin(uu) * np.cos(vv), np.sin(uu) * np.sin(vv), np.cos(uu)], -1).reshape(
        -1, 3
    )


def surface_points(geometry: Geometry) -> NDArray[np.float64] | None:
    """Points on the shape's surface in its own frame C (``None`` for shapes with no outline)."""
    kind = geometry.kind
    if kind == "box" and geometry.size is not None:
        half = np.asarray(geometry.size) / 2.0
        corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
        return corners * half
    if kind == "sphere" and geometry.radius is not None:
        return _unit_sphere_points() * geometry.radius
    if kind == "ellipsoid" and geometry.size is not None:
        return _unit_sphere_points() * np.asarray(geometry.size)
    if kind in ("cylinder", "capsule") and None not in (geometry.radius, geometry.length):
        r, h = float(geometry.radius or 0.0), float(geometry.length or 0.0) / 2.0
        up = np.array([0.0, 0.0, h])
        if kind == "cylinder":
            ring = np.c_[_ring() * r, np.zeros(_RING)]
            return np.vstack([ring + up, ring - up])
        cap = _unit_sphere_points() * r
        return np.vstack([cap + up, cap - up])
    if kind == "cone" and None not in (geometry.radius, geometry.length):
        r, h = float(geometry.radius or 0.0), float(geometry.length or 0.0) / 2.0
        base = np.c_[_ring() * r, np.full(_RING, -h)]
        return np.vstack([base, [[0.0, 0.0, h]]])
    if kind == "mesh" and geometry.mesh_path is not None:
        try:
            mesh = load_mesh(geometry.mesh_path, geometry.scale)
        except GzInertiaError:
            return None
        try:
            hull = gzinertia.physics.mesh_body.convex_hull(geometry.mesh_path, mesh)
            return np.asarray(hull.vertices, dtype=float)
        except GzInertiaError:  # flat or degenerate: its own vertices outline it
            return np.asarray(mesh.vertices, dtype=float)
    return None


def surface_pieces(geometry: Geometry) -> list[NDArray[np.float64]]:
    """:func:`surface_points` split into the shape's separate pieces (in C): one for a
    primitive, one per connected piece of a mesh (vertices shared by triangles, merged where
    they coincide), each piece's convex hull vertices (its own vertices when flat); ``[]`` for
    shapes with no outline."""
    if geometry.kind != "mesh" or geometry.mesh_path is None:
        pts = surface_points(geometry)
        return [] if pts is None else [pts]


    try:
        mesh = load_mesh(geometry.mesh_path, geometry.scale)
    except GzInertiaError:
        return []
    vertices, index = np.unique(np.asarray(mesh.vertices, dtype=float), axis=0,
                                return_inverse=True)
    faces = index.reshape(-1)[np.asarray(mesh.faces)]
    rows = np.concatenate([faces[:, 0], faces[:, 1]])
    cols = np.concatenate([faces[:, 1], faces[:, 2]])
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(vertices),) * 2)
    count, label = connected_components(graph, directed=False)
    used = np.zeros(len(vertices), dtype=bool)
    used[faces.ravel()] = True
    return [_hull_points(vertices[(label == k) & used]) for k in range(count)
            if np.any((label == k) & used)]


def _hull_points(pts: NDArray[np.float64]) -> NDArray[np.float64]:
    """The vertices of the points' convex hull (the points themselves when flat or few)."""
    try:
        return pts[ConvexHull(pts).vertices]
    except (QhullError, ValueError):
        return pts


def ellipse(centre: NDArray[np.float64], Q: NDArray[np.float64], i: int, j: int) -> Any:
    """The closed outline (points, the first repeated last) of the ellipsoid of shape matrix
    ``Q`` centred at ``centre`` projected on the plane of coordinates ``i``, ``j``."""
    Q2 = Q[np.ix_([i, j], [i, j])]
    L = np.linalg.cholesky(Q2 + 1e-300 * np.eye(2))
    pts = _ring(96) @ L.T + centre[[i, j]]
    return np.vstack([pts, pts[:1]])


def _fit_advice(exc: FitError) -> str:
    """What a failed fit says in a picture's notes: the problem and the other ``--fit`` that
    works without what this one lacked (a picture has no explicit ellipsoid to advise)."""
    if exc.fallback is None:
        return exc.problem
    source = "the inertia" if exc.fallback == "inertia" else "the collisions"
    return f"{exc.problem}; {option('fit')} {exc.fallback} draws the ellipsoid of {source}"


def link_drawing(
    link: LinkRecord, X_FB: Pose, fit: FitMethod | None, note: str = ""
) -> LinkDrawing:
    """The drawing of ``link`` in frame F, where ``X_FB`` poses the link in F."""
    outlines = []
    for c in link.collisions:
        X_FC = X_FB @ c.X_BC
        outlines += [pts @ X_FC.R.T + X_FC.p for pts in surface_pieces(c.geometry)]
    inertial = link.inertial
    p_FoBcm_F = X_FB.R @ inertial.p_BoBcm_B + X_FB.p
    inertia_ellipsoid = None
    if inertial.mass > 0 and not inertial.defaulted:
        moments, R_BP = principal_axes(inertial.I_BBcm_B)
        semi = equivalent_ellipsoid_semi_axes(inertial.mass, moments)
        if np.all(np.isfinite(semi)):
            R = X_FB.R @ R_BP
            inertia_ellipsoid = (p_FoBcm_F, R @ np.diag(semi**2) @ R.T)
    fluid = []
    if fit is not None:
        try:
            for e in fit_link(link, fit).ellipsoids:
                X_FE = X_FB @ e.X_FE
                fluid.append((X_FE.p, X_FE.R @ np.diag(e.semi_axes**2) @ X_FE.R.T))
        except FitError as exc:
            note = (note + "; " if note else "") + f"no fluid ellipsoid: {_fit_advice(exc)}"
    return LinkDrawing(
        link.name, X_FB, tuple(outlines), p_FoBcm_F, inertia_ellipsoid, tuple(fluid),
        inertial.mass, note,
    )


def model_extent(drawings: Sequence[LinkDrawing]) -> float:
    """The largest extent (m) along x, y or z of the links' outlines, origins and centres of
    mass in the drawing frame (ellipsoids left out): the size of what is drawn."""
    pts = [d.X_FB.p[None, :] for d in drawings] + [o for d in drawings for o in d.outlines]
    pts += [d.p_FoBcm_F[None, :] for d in drawings]
    return float(np.max(np.ptp(np.vstack(pts), axis=0)))


def scale_inertia_ellipsoids(
    drawings: Sequence[LinkDrawing], scale: float | None
) -> tuple[list[LinkDrawing], str]:
    """The drawings with their equivalent inertia ellipsoids scaled about their centres, and
    the legend's words for them. ``scale`` multiplies every semi-axis (``1``: true size);
    ``None`` draws each ellipsoid's largest semi-axis between :data:`ELLIPSOID_FLOOR` and
    :data:`ELLIPSOID_CAP` of :func:`model_extent` (shape kept; the others true size)."""
    if scale is not None:
        label = ("equivalent inertia ellipsoid (true size)" if scale == 1.0
                 else f"equivalent inertia ellipsoid (× {scale:g})")
        return [_scaled(d, scale) for d in drawings], label
    extent = model_extent(drawings)
    low, high = ELLIPSOID_FLOOR * extent, ELLIPSOID_CAP * extent
    out, capped, raised, drawn = [], 0, 0, 0
    for d in drawings:
        if d.inertia_ellipsoid is None:
            out.append(d)
            continue
        drawn += 1
        largest = float(np.sqrt(max(np.linalg.eigvalsh(d.inertia_ellipsoid[1]).max(), 0.0)))
        if high > 0.0 and largest > high:
            capped += 1
            out.append(_scaled(d, high / largest))
        elif 0.0 < largest < low:
            raised += 1
            out.append(_scaled(d, low / largest))
        else:
            out.append(d)
    words = ([f"{capped} of {drawn} scaled down to {100 * ELLIPSOID_CAP:g} % of the model's "
              "extent"] if capped else [])
    words += ([f"{raised} of {drawn} scaled up to {100 * ELLIPSOID_FLOOR:g} % of it"]
              if raised else [])
    if not words:
        return out, "equivalent inertia ellipsoid (true size)"
    return out, f"equivalent inertia ellipsoid ({', '.join(words)})"


def _scaled(d: LinkDrawing, scale: float) -> LinkDrawing:

    if d.inertia_ellipsoid is None or scale == 1.0:
        return d
    centre, Q = d.inertia_ellipsoid
    return replace(d, inertia_ellipsoid=(centre, Q * scale**2))


@dataclass(frozen=True, repr=False, eq=False)
class HydroMarks(ValueRecord):
    """What ``plot`` adds for buoyancy, in the row's frame F: each model's centre of mass G
    and centre of buoyancy B (``(label, p_FoG_F, p_FoB_F)``) and the free surface's height
    ``waterline_z`` (a graded world's lowest layer; ``None``: no free surface)."""

    centres: tuple[tuple[str, NDArray[np.float64], NDArray[np.float64]], ...] = ()
    waterline_z: float | None = None
    #: The free surface as a plane ``n_F·p_F = c`` in F (``(n_F, c)``, unit ``n_F`` pointing
    #: up), for rows drawn in a link's frame, where the surface need not be level; each view
    #: draws its trace in the view's plane through F's origin. Unused when ``waterline_z`` is
    #: set (F is the world).
    surface_F: tuple[NDArray[np.float64], float] | None = None


def surface_in_frame(waterline_z: float, X_WF: Pose) -> tuple[NDArray[np.float64], float]:
    """The horizontal plane ``z_W = waterline_z`` as ``(n_F, c)`` with ``n_F·p_F = c`` in a
    frame F posed at ``X_WF``: ``n_F = R_WFᵀ·e_z``, ``c = waterline_z - z_WFo``."""
    n_F = np.asarray(X_WF.R, dtype=float).T @ np.array([0.0, 0.0, 1.0])
    return n_F, float(waterline_z - np.asarray(X_WF.p, dtype=float)[2])


def surface_trace(
    surface_F: tuple[NDArray[np.float64], float], i: int, j: int
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Two points ``(u, v)`` of the plane's trace in the view plane (axes ``i``, ``j``)
    through F's origin, ``None`` when the view plane is parallel to it (the top view of a
    level surface)."""
    n, c = surface_F
    a, b = float(n[i]), float(n[j])
    norm = math.hypot(a, b)
    if norm < 1e-9:
        return None
    p0 = (a * c / norm**2, b * c / norm**2)  # the trace's point nearest the origin
    return p0, (p0[0] - b / norm, p0[1] + a / norm)
