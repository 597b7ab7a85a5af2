"""A surface craft's equilibrium waterline and its metacentric heights, from the hull geometry.

The hull is a closed, outward-wound triangle surface in the world frame W (the union of a
model's collision solids, :func:`hull_triangles`). Water of density ``rho_water`` fills
``z < z_surface`` and a lighter fluid ``rho_above`` (air, or nothing) the rest. The body is
moved as a rigid body: heave along z, then roll and pitch about its centre of mass G, until

* buoyancy equals weight: ``rho_water·V_sub + rho_above·(V - V_sub) = m``, and
* B and G lie on one vertical (no static moment),

solved by Newton's method on (heave, roll, pitch) with a finite-difference Jacobian, starting
from the level pose at the heave where the volumes balance (found by bisection first).
At the equilibrium, the waterplane (the hull's section by ``z = z_surface``) gives the area
``A_wp``, the centre of flotation F and its second moments about F along the craft's heading
``u`` (longitudinal) and ``v = up × u`` (transverse): ``BM_T = I_T / V_sub``,
``BM_L = I_L / V_sub`` and ``GM = KB + BM - KG = (z_B - z_G) + BM`` (the submerged volume's
centroid B; the air's small buoyancy is left out of GM).

Every slice is exact on the triangles (:func:`gzinertia.physics.volume_below.clip_below` and
Green's theorem over the cut edges): no cap polygon is built.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

import gzinertia.physics
from gzinertia.physics.link_union import link_union
from gzinertia.physics.shapes import ShapeError, solid_properties
from gzinertia.physics.volume_below import volume_below_plane
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Vec3, rotation_from_rpy

#: |g| of Gazebo's default ``<gravity>`` (m/s²), for the stiffness when none is given.
GAZEBO_GRAVITY = 9.8

if TYPE_CHECKING:
    import gzinertia.physics.collision_mesh
    from gzinertia.physics.hydrostatics import ModelHydrostatics
    from gzinertia.records import BuoyancyWorld, LinkRecord


@dataclass(frozen=True, repr=False, eq=False)
class Waterplane(ValueRecord):
    """The section of the hull by the plane ``z = height`` (world frame): area ``area`` (m²),
    centroid ``p_WF`` (the centre of flotation, m) and second moments about F,
    ``J_F = [[∫x'², ∫x'y'], [∫x'y', ∫y'²]]`` (m⁴, x' y' along W's x and y from F)."""

    area: float
    p_WF: Vec3
    J_F: Any


def waterplane(triangles: Any, height: float) -> Waterplane:
    """The hull's waterplane at ``z = height``, by Green's theorem over the cut edges of the
    triangles (each cut triangle gives one directed segment; their orientation is consistent
    for a closed, consistently wound surface, and the sign is fixed by a positive area)."""
    t = np.asarray(triangles, dtype=float)
    below = t[:, :, 2] <= height
    count = below.sum(axis=1)
    segments = []
    for lone_below, n in ((True, 1), (False, 2)):
        sel = t[count == n]
        if len(sel) == 0:
            continue
        flags = below[count == n] if lone_below else ~below[count == n]
        first = np.argmax(flags, axis=1)
        order = (first[:, None] + np.arange(3)[None, :]) % 3
        a, b, c = (np.take_along_axis(sel, order[:, k, None, None], axis=1)[:, 0]
                   for k in range(3))
        sb = (height - a[:, 2]) / (b[:, 2] - a[:, 2])
        sc = (height - a[:, 2]) / (c[:, 2] - a[:, 2])
        p_ab = a + sb[:, None] * (b - a)
        p_ac = a + sc[:, None] * (c - a)
        segments.append(np.stack([p_ab, p_ac] if lone_below else [p_ac, p_ab], axis=1))
    if not segments:
        return Waterplane(0.0, np.full(3, math.nan), np.full((2, 2), math.nan))
    s = np.concatenate(segments, axis=0)
    x0, y0, x1, y1 = s[:, 0, 0], s[:, 0, 1], s[:, 1, 0], s[:, 1, 1]
    cross = x0 * y1 - x1 * y0
    A = cross.sum() / 2.0
    if A == 0.0:
        return Waterplane(0.0, np.full(3, math.nan), np.full((2, 2), math.nan))
    sign = 1.0 if A > 0 else -1.0
    A, cross = sign * A, sign * cross
    Sx = ((x0 + x1) * cross).sum() / 6.0
    Sy = ((y0 + y1) * cross).sum() / 6.0
    Ixx = ((x0 * x0 + x0 * x1 + x1 * x1) * cross).sum() / 12.0  # ∫x² dA
    Iyy = ((y0 * y0 + y0 * y1 + y1 * y1) * cross).sum() / 12.0  # ∫y² dA
    Ixy = ((x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * cross).sum() / 24.0
    xF, yF = Sx / A, Sy / A
    J = np.array([[Ixx - A * xF * xF, Ixy - A * xF * yF], [Ixy - A * xF * yF, Iyy - A * yF * yF]])
    return Waterplane(float(A), np.array([xF, yF, height]), J)


@dataclass(frozen=True, repr=False, eq=False)
class HullFigures(ValueRecord):
    """The hydrostatic figures of a hull in water below ``z_surface`` (SI units, world frame W),
    shared by the hull as posed (:class:`PosedHull`) and at equilibrium (:class:`Flotation`).

    ``volume`` the submerged volume (m³) and ``p_WB`` its centroid, the centre of buoyancy;
    ``p_WG`` the centre of mass; ``draft`` the depth of the lowest hull point below the
    surface; ``waterplane_area`` (m²), ``p_WF`` the centre of flotation; ``I_T``/``I_L`` the
    waterplane's second moments about F across and along the heading (m⁴); ``BM_T``, ``BM_L``,
    ``KB``, ``KG`` (from the keel, the lowest point), ``GM_T``, ``GM_L`` (m)."""

    z_surface: float
    volume: float
    p_WB: Vec3
    p_WG: Vec3
    draft: float
    waterplane_area: float
    p_WF: Vec3
    I_T: float
    I_L: float
    BM_T: float
    BM_L: float
    KB: float
    KG: float
    GM_T: float
    GM_L: float


@dataclass(frozen=True, repr=False, eq=False)
class Flotation(HullFigures):
    """A surface craft at equilibrium (SI units, world frame W): its hull's figures there
    (:class:`HullFigures`: ``z_surface`` the free surface, ``volume``, ``p_WB``/``p_WG`` the
    centres of buoyancy and mass at equilibrium, ``draft``, the waterplane, ``GM_T``, ...).

    ``heave`` (m) and ``roll``/``pitch`` (rad, about G, world x then y) are the motion from the
    pose the file gives to the equilibrium. ``converged`` says whether the trim was found (else
    the numbers are those of the level pose at the balancing heave, with the static moment
    left); ``floats`` is False when the hull cannot carry the weight with any part dry.
    """

    heave: float
    roll: float
    pitch: float
    converged: bool
    floats: bool
    #: Hydrostatic stiffness at equilibrium about G (:func:`hydrostatic_stiffness`): 6×6,
    #: linear-first ``[x y z p q r]``, world axes.
    K_G_W: Any = None
    #: Largest relative error of the figures (volume, draft, KB, BM, waterplane, GM's terms)
    #: against the hull's exact ones, and why (:func:`flotation_tolerance`); said with them.
    tolerance: float = 0.0
    tolerance_note: str = ""


def _moved(triangles: Any, p_WG: Any, dz: float, roll: float, pitch: float) -> Any:
    """The triangles rotated about G by roll (about x) then pitch (about y), then heaved."""
    R = rotation_from_rpy(roll, pitch, 0.0)
    G = np.asarray(p_WG, dtype=float)
    return (np.asarray(triangles) - G) @ np.asarray(R).T + G + np.array([0.0, 0.0, dz])


def solve_flotation(
    triangles: Any,
    mass: float,
    p_WG: Any,
    rho_water: float,
    z_surface: float = 0.0,
    rho_above: float = 0.0,
    heading_W: Any = (1.0, 0.0, 0.0),
    trim: bool = True,
    g: float = GAZEBO_GRAVITY,
) -> Flotation:
    """The equilibrium of the hull ``triangles`` (world frame) of mass ``mass`` (kg) with its
    centre of mass at ``p_WG``, in water of ``rho_water`` below ``z_surface`` (see module).
    ``heading_W``: the craft's longitudinal axis (projected on the horizontal); ``trim``:
    also solve roll and pitch (else heave only, level as posed); ``g`` (m/s²) only scales
    the stiffness."""
    T = np.asarray(triangles, dtype=float)
    G0 = np.asarray(p_WG, dtype=float)
    V_total, _ = volume_below_plane(T, math.inf)
    target = mass  # kg of fluid to displace
    lo_z, hi_z = float(T[:, :, 2].min()), float(T[:, :, 2].max())
    floats = rho_water * V_total + 1e-12 * max(mass, 1.0) >= target and rho_water > rho_above

    def displaced(tris: Any) -> tuple[float, Any]:
        V, M = volume_below_plane(tris, z_surface)
        return rho_water * V + rho_above * (V_total - V), M

    if floats:  # 1) level: the heave where the volumes balance
        x = np.array([_level_heave(T, displaced, target, z_surface, (lo_z, hi_z)), 0.0, 0.0])
    else:
        x = np.array([z_surface - hi_z, 0.0, 0.0])  # fully under: it sinks

    size = max(hi_z - lo_z, float(np.ptp(T[:, :, 0])), float(np.ptp(T[:, :, 1])))

    def residual(v: Any) -> Any:
        tris = _moved(T, G0, v[0], v[1], v[2])
        D, M = displaced(tris)
        V, _ = volume_below_plane(tris, z_surface)
        B = M / V if V > 0 else np.full(3, math.nan)
        G = G0 + np.array([0.0, 0.0, v[0]])
        return np.array([(D - target) / max(target, 1e-300), (B[0] - G[0]) / size,
                         (B[1] - G[1]) / size])

    converged = floats
    if floats and trim:  # 2) trimmed; no trim found (e.g. several free bodies): the level one
        found = _trimmed(residual, x, size)
        converged = found is not None
        x = x if found is None else found
    tris = _moved(T, G0, x[0], x[1], x[2]) if floats else T + np.array([0.0, 0.0, x[0]])
    p_WG_eq = G0 + np.array([0.0, 0.0, x[0]])
    h = posed_hydrostatics(tris, mass, p_WG_eq, rho_water, z_surface, heading_W, g)
    return Flotation(
        **{f.name: getattr(h, f.name) for f in fields(HullFigures)},
        heave=float(x[0]), roll=float(x[1]) if floats else 0.0,
        pitch=float(x[2]) if floats else 0.0, converged=converged, floats=bool(floats),
        K_G_W=h.K_O_W,
    )


def _level_heave(
    T: Any, displaced: Callable[[Any], tuple[float, Any]], target: float, z_surface: float,
    lo_hi_z: tuple[float, float],
) -> float:
    """The heave (m, along world z) of the level hull ``T`` (its lowest and highest points at
    ``lo_hi_z``) at which it displaces ``target`` kg, by bisection on the hull's height between
    all above the surface ``z_surface`` and all below."""
    lo_z, hi_z = lo_hi_z
    a, b = z_surface - hi_z, z_surface - lo_z
    for _ in range(200):
        mid = 0.5 * (a + b)
        if displaced(T + np.array([0.0, 0.0, mid]))[0] > target:
            a = mid
        else:
            b = mid
        if b - a <= 1e-15 * max(1.0, hi_z - lo_z):
            break
    return 0.5 * (a + b)


def _trimmed(residual: Callable[[Any], Any], x: Any, size: float) -> Any:
    """``[heave, roll, pitch]`` where ``residual`` (displacement and the horizontal offsets of
    B from G, made relative) vanishes, by Newton's method with central differences from ``x``
    (steps limited to a tenth of the hull's ``size`` and 0.2 rad); ``None`` when not found."""
    for _ in range(30):
        r = residual(x)
        if np.max(np.abs(r)) < 1e-11:
            return x
        J = np.empty((3, 3))
        for k, step in enumerate((1e-7 * size, 1e-7, 1e-7)):
            e = np.zeros(3)
            e[k] = step
            J[:, k] = (residual(x + e) - residual(x - e)) / (2 * step)
        try:
            dx = np.linalg.solve(J, -r)
        except np.linalg.LinAlgError:
            return None
        limit = np.array([0.1 * size, 0.2, 0.2])
        x = x + np.clip(dx, -limit, limit)
    return None


@dataclass(frozen=True, repr=False, eq=False)
class PosedHull(HullFigures):
    """A hull's hydrostatics as posed (heeled, trimmed, at any height: not necessarily at
    equilibrium), SI units, world frame W, water below ``z_surface``: its figures
    (:class:`HullFigures`) and ``K_O_W`` the hydrostatic stiffness (see
    :func:`hydrostatic_stiffness`) about ``p_WO``."""

    p_WO: Vec3
    K_O_W: Any


def hydrostatic_stiffness(
    wp: Waterplane, volume: float, p_WB: Any, mass: float, p_WG: Any, p_WO: Any,
    rho_water: float, g: float,
) -> Any:
    """The rigid body's hydrostatic stiffness ``K_O_W`` about O, in world axes, linear-first.

    ``K_O_W`` is 6×6, ``[x y z p q r]`` = surge, sway, heave, roll, pitch, yaw, about the point
    O at ``p_WO``, world axes (N/m, N, N·m/rad): the change of the hydrostatic and gravity
    force and moment about O, ``-K·δ``, for a small displacement ``δ`` (translation, then
    rotation about O) of the body as posed, from its waterplane ``wp``, submerged ``volume``
    and centroid ``p_WB``, ``mass`` at ``p_WG``, water density ``rho_water`` and gravity ``g``
    (m/s²). With ``(x, y)`` waterplane coordinates and ``(x_c, y_c, z_c)`` O's (the general
    rigid-body formulas, Newman's and Capytaine's ``compute_hydrostatic_stiffness``):

    * ``K_zz = ρg·A``; ``K_zp = K_pz = ρg·∫(y-y_c)``; ``K_zq = K_qz = -ρg·∫(x-x_c)``;
    * ``K_pp = ρg·(∫(y-y_c)² + V·(z_B-z_c)) - mg·(z_G-z_c)``, ``K_qq`` the same with x;
      ``K_pq = K_qp = -ρg·∫(x-x_c)(y-y_c)``;
    * ``K_pr = -ρg·V·(x_B-x_c) + mg·(x_G-x_c)``, ``K_qr = -ρg·V·(y_B-y_c) + mg·(y_G-y_c)``
      (zero at equilibrium; ``K_rp = K_rq = 0``: the matrix is not symmetric off it).

    The waterplane integrals are exact (Green's theorem on the cut edges)."""
    K = np.zeros((6, 6))
    O = np.asarray(p_WO, dtype=float)
    B = np.asarray(p_WB, dtype=float) - O
    Gv = np.asarray(p_WG, dtype=float) - O
    m_over_rho = mass / rho_water
    if wp.area > 0:
        dx, dy = float(wp.p_WF[0] - O[0]), float(wp.p_WF[1] - O[1])
        A = wp.area
        Sx, Sy = A * dx, A * dy  # ∫(x-x_c), ∫(y-y_c)
        Ixx = float(wp.J_F[0, 0]) + A * dx * dx
        Iyy = float(wp.J_F[1, 1]) + A * dy * dy
        Ixy = float(wp.J_F[0, 1]) + A * dx * dy
    else:
        A = Sx = Sy = Ixx = Iyy = Ixy = 0.0
    K[2, 2] = A
    K[2, 3] = K[3, 2] = Sy
    K[2, 4] = K[4, 2] = -Sx
    K[3, 3] = Iyy + volume * B[2] - m_over_rho * Gv[2]
    K[4, 4] = Ixx + volume * B[2] - m_over_rho * Gv[2]
    K[3, 4] = K[4, 3] = -Ixy
    K[3, 5] = -volume * B[0] + m_over_rho * Gv[0]
    K[4, 5] = -volume * B[1] + m_over_rho * Gv[1]
    return rho_water * g * K


def posed_hydrostatics(
    triangles: Any,
    mass: float,
    p_WG: Any,
    rho_water: float,
    z_surface: float = 0.0,
    heading_W: Any = (1.0, 0.0, 0.0),
    g: float = GAZEBO_GRAVITY,
    p_WO: Any = None,
) -> PosedHull:
    """The hull ``triangles`` (closed, outward wound, world frame) as posed, in water of
    ``rho_water`` below ``z_surface``: submerged volume and centroid, waterplane, metacentric
    radii and heights (as :func:`solve_flotation`'s, about the centre of flotation, across and
    along ``heading_W``) and the stiffness about ``p_WO`` (default: G)."""
    tris = np.asarray(triangles, dtype=float)
    G = np.asarray(p_WG, dtype=float)
    V, M = volume_below_plane(tris, z_surface)
    p_WB = M / V if V > 0 else np.full(3, math.nan)
    wp = waterplane(tris, z_surface)
    up = np.array([0.0, 0.0, 1.0])
    u = np.asarray(heading_W, dtype=float)
    u = u - (u @ up) * up
    u = u / np.linalg.norm(u) if np.linalg.norm(u) > 0 else np.array([1.0, 0.0, 0.0])
    v = np.cross(up, u)
    I_L = float(u[:2] @ wp.J_F @ u[:2]) if wp.area > 0 else math.nan
    I_T = float(v[:2] @ wp.J_F @ v[:2]) if wp.area > 0 else math.nan
    keel = float(tris[:, :, 2].min())
    BM_T = I_T / V if V > 0 else math.nan
    BM_L = I_L / V if V > 0 else math.nan
    KB, KG = float(p_WB[2]) - keel, float(G[2]) - keel
    O = G if p_WO is None else np.asarray(p_WO, dtype=float)
    K = hydrostatic_stiffness(wp, float(V), p_WB if V > 0 else np.zeros(3), mass, G, O,
                              rho_water, g)
    return PosedHull(
        z_surface, float(V), p_WB, G, z_surface - keel, wp.area, wp.p_WF, I_T, I_L, BM_T,
        BM_L, KB, KG, KB + BM_T - KG, KB + BM_L - KG, O, K,
    )


def hull_triangles(meshes_W: Sequence[Any]) -> Any:
    """The triangles ``(n, 3, 3)`` of several closed surfaces already in the world frame (each
    its triangles ``(k, 3, 3)``; their union counted as disjoint: overlapping collisions count
    twice, as in Gazebo)."""
    parts = [np.asarray(m, dtype=float).reshape(-1, 3, 3) for m in meshes_W]
    return np.concatenate(parts, axis=0) if parts else np.zeros((0, 3, 3))


#: Segments around round primitives when they are meshed for flotation.
FLOTATION_SECTIONS = 96
#: Round primitives meshed for flotation, and whether their correction scales all three axes
#: (sphere, ellipsoid) or only those across the axis (the polygon of a cylinder, capsule, cone).
ROUND_SHAPES = {"sphere": True, "ellipsoid": True, "cylinder": False, "capsule": False,
                "cone": False}
#: Largest relative error of a round primitive's flotation figures (draft, KB, BM_T, BM_L,
#: waterplane area) against the closed forms with :data:`FLOTATION_SECTIONS` segments and the
#: volume correction (:func:`true_volume_mesh`), measured on a sphere floating at 20, 50 and
#: 80 % of its volume and a horizontal and an upright cylinder
#: (``tests/test_flotation_round_shapes.py``): 1.07e-3 (a horizontal cylinder's BM_T, whose
#: waterplane is the corrected polygon's width; sphere figures at most 3.1e-4, the upright
#: cylinder's exact). Without the correction: 1.9e-3, and 7.1e-4 in volume. 128 segments
#: would give 6.0e-4 for a third more time.
ROUND_SHAPE_TOLERANCE = 1.1e-3


def true_volume_mesh(mesh: Any, geometry: Any) -> Any:
    """A round primitive's mesh (its own frame, centred) scaled so that its volume equals the
    solid's closed form (:func:`gzinertia.physics.shapes.solid_properties`): about the centre
    in all axes for a sphere or an ellipsoid, across the axis (x, y) for a cylinder, capsule
    or cone, whose inscribed polygon is so given the circle's area. Without it an inscribed
    polygon of N segments lacks ``(2π/N)²/6`` of the area (7.1e-4 at 96). Other shapes as
    they are."""
    every_axis = ROUND_SHAPES.get(geometry.kind)
    if every_axis is None or not mesh.volume > 0:
        return mesh
    try:
        ratio = solid_properties(geometry).volume / float(mesh.volume)
    except ShapeError:
        return mesh
    s = ratio ** (1.0 / 3.0) if every_axis else math.sqrt(ratio)
    S = np.diag([s, s, s if every_axis else 1.0, 1.0])
    return mesh.copy().apply_transform(S)


def model_hull(links: Sequence[Any], enabled: Any = None) -> Any:
    """The triangles (world frame) of the collisions of ``links``
    (:class:`~gzinertia.records.LinkRecord`) that get buoyancy (``enabled(name)``, default
    all), each a closed mesh (:func:`~gzinertia.physics.collision_mesh.collision_trimesh`);
    a link's collisions that overlap as their union (:func:`~gzinertia.physics.link_union.
    link_union`: the overlap displaces its water once)."""
    meshes = []
    for link in links:
        if enabled is not None and not enabled(link.name):
            continue
        union = link_union(link.collisions)
        united = set()
        if union is not None and union.union_B is not None:
            united = {id(c) for c in union.members}
            R_WB, p_WB = np.asarray(link.X_WB.R), np.asarray(link.X_WB.p)
            meshes.append(np.asarray(union.union_B) @ R_WB.T + p_WB)
        for collision in (c for c in link.collisions if id(c) not in united):
            mesh = gzinertia.physics.collision_mesh.collision_trimesh(
                collision, sections=FLOTATION_SECTIONS)
            if mesh is None:
                continue
            mesh = true_volume_mesh(mesh, collision.geometry)
            X_WC = link.X_WB @ collision.X_BC
            T = np.eye(4)
            T[:3, :3], T[:3, 3] = X_WC.R, X_WC.p
            mesh = mesh.copy()
            mesh.apply_transform(T)
            meshes.append(np.asarray(mesh.triangles))
    return hull_triangles(meshes)


def model_flotation(
    model: ModelHydrostatics,
    links: list[LinkRecord],
    fluid: BuoyancyWorld,
    waterline: float | None,
    trim: bool,
) -> Flotation | None:
    """The model's floating equilibrium: at ``--waterline`` (water of the fluid's density
    there below it, nothing above), else at a graded fluid's lowest layer (its densities
    below and above) for a model that floats there; ``None`` otherwise (static models too)."""
    if model.anchored:
        return None  # static, or held by a joint to the world: it does not float freely
    if waterline is not None:
        z, rho_water, rho_above = waterline, fluid.density_at(waterline - 1e-9), 0.0
    elif fluid.kind == "graded" and fluid.layers:
        z, rho_above = fluid.layers[0]
        rho_water = fluid.density
        if not rho_water * model.volume_exact > model.mass:
            return None  # sinks: a submerged body (hydrostatics above), not a surface craft
    else:
        return None
    hull = model_hull(links, fluid.is_enabled)
    if len(hull) == 0 or not model.mass > 0:
        return None
    heaviest = max(links, key=lambda link: link.inertial.mass)
    X = model.X_WM if model.X_WM is not None else heaviest.X_WB
    heading = np.asarray(X.R)[:, 0]
    found = solve_flotation(hull, model.mass, model.p_WG, rho_water, z, rho_above, heading, trim,
                            model.g)
    tolerance, note = flotation_tolerance(links, fluid.is_enabled)
    return replace(found, tolerance=tolerance, tolerance_note=note)


#: Largest relative error of a polyhedral hull's flotation figures (boxes, meshes): the
#: equilibrium's residual is below 1e-11 (:func:`solve_flotation`); measured on a floating
#: box against its closed forms (``tests/test_flotation_tolerance.py``).
POLYHEDRAL_TOLERANCE = 1e-9


def flotation_tolerance(links: Sequence[Any], enabled: Any = None) -> tuple[float, str]:
    """The relative tolerance of the flotation figures of the collisions of ``links`` that get
    buoyancy (``enabled(name)``, default all), and why, in words: a round primitive's
    (:data:`ROUND_SHAPE_TOLERANCE`, from its :data:`FLOTATION_SECTIONS`-segment mesh), else
    the solver's (:data:`POLYHEDRAL_TOLERANCE`)."""
    kinds = sorted({c.geometry.kind for link in links
                    if enabled is None or enabled(link.name)
                    for c in link.collisions if c.geometry.kind in ROUND_SHAPES})
    if kinds:
        return ROUND_SHAPE_TOLERANCE, (
            f"{', '.join(kinds)} meshed with {FLOTATION_SECTIONS} segments around, volume "
            "corrected to the closed form")
    return POLYHEDRAL_TOLERANCE, "polyhedral hull: exact but for the equilibrium's residual"
