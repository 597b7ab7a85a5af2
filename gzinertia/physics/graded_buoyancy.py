"""Buoyancy of one shape in a graded fluid (layers of density by height, world frame W, z up
against gravity): as gz-sim's GradedFluidDensity computes it (slabs cut in the shape's own
axes, gz-sim#3892), and by exact geometry (slabs cut by true horizontal planes). Each returns
``(force_W, Σ w_i·p_i)``: the force (N, world axes) and the slabs' centres (world) weighted by
their force along "up", from which the centre of buoyancy follows (:func:`buoyancy_centre`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

import gzinertia.physics
from gzinertia.physics.volume_below import GRADED_SHAPES, volume_below, volume_below_plane
from gzinertia.records import BuoyancyWorld, Collision, Geometry
from gzinertia.spatial.rotation import Pose

if TYPE_CHECKING:
    import gzinertia.physics.collision_mesh

#: Gazebo's threshold under which a slab adds no force (``1e-10`` m³ in GradedFluidDensity).
GAZEBO_SLAB_EPSILON = 1e-10


def graded_gazebo(
    geometry: Geometry, X_WC: Pose, fluid: BuoyancyWorld, g_W: Any, centroid_top: bool = False
) -> tuple[Any, Any]:
    """Gazebo's GradedFluidDensity for one shape at world pose X_WC: ``(force_W, Σ w_i·p_i)``
    with ``w_i`` each slab's force along ``up`` (N) and ``p_i`` its centre (world; Gazebo
    places it with the full pose), from which the centre of buoyancy follows. The part above
    the highest layer is placed as if the whole shape's centre of volume were its origin, or
    (``centroid_top``, gazebosim/gz-sim#3909) its centroid."""
    force, moment = np.zeros(3), np.zeros(3)
    if geometry.kind not in GRADED_SHAPES:
        return force, moment
    z0 = float(X_WC.p[2])
    up = up_vector(g_W)
    prev_rho, prev_V, prev_M = fluid.density, 0.0, 0.0
    for height, rho in fluid.layers:
        V, M = volume_below(geometry, height - z0)
        if V <= 0.0 or abs(V - prev_V) < GAZEBO_SLAB_EPSILON:
            prev_rho = rho
            if V > 0.0:
                prev_V, prev_M = V, M
            continue
        f = -(V - prev_V) * prev_rho * np.asarray(g_W)
        z_slab = (M - prev_M) / (V - prev_V)
        point = X_WC.transform_point([0.0, 0.0, z_slab])
        force += f
        moment += float(f @ up) * point
        prev_rho, prev_V, prev_M = rho, V, M
    V_all, M_centroid = volume_below(geometry, math.inf)
    # before gz-sim#3909 the whole shape's centre of volume is taken at its origin (not a cone's)
    M_all = M_centroid if centroid_top else 0.0
    if abs(V_all - prev_V) >= GAZEBO_SLAB_EPSILON:
        f = -(V_all - prev_V) * prev_rho * np.asarray(g_W)
        point = X_WC.transform_point([0.0, 0.0, (M_all - prev_M) / (V_all - prev_V)])
        force += f
        moment += float(f @ up) * point
    return force, moment


def _is_upright(geometry: Geometry, X_WC: Pose, up: Any) -> bool:
    """A primitive whose own z axis is vertical (either way up, every primitive but the cone
    being symmetric about its z = 0 plane; a cone apex up), or a sphere: its horizontal slices
    are the closed forms'."""
    if geometry.kind == "sphere":
        return True
    if geometry.kind not in GRADED_SHAPES or not np.allclose(up, [0.0, 0.0, 1.0]):
        return False
    R_zz = float(np.asarray(X_WC.R)[2, 2])
    return (R_zz if geometry.kind == "cone" else abs(R_zz)) >= 1.0 - 1e-12


def _upright_fluid_force(
    geometry: Geometry, X_WC: Pose, fluid: BuoyancyWorld, g_W: Any, up: Any
) -> tuple[Any, Any]:
    """Exact graded buoyancy of an upright primitive (closed forms, slab centres on the
    vertical through the shape's centre)."""
    force, moment = np.zeros(3), np.zeros(3)
    z0 = float(X_WC.p[2])
    heights = [h for h, _ in fluid.layers] + [math.inf]
    densities = [fluid.density] + [rho for _, rho in fluid.layers]
    prev_V, prev_M = 0.0, 0.0
    for height, rho in zip(heights, densities, strict=True):
        V, M = volume_below(geometry, height - z0)
        dV = V - prev_V
        if dV > 0.0:
            f = -dV * rho * np.asarray(g_W)
            force += f
            moment += float(f @ up) * (np.asarray(X_WC.p) + up * (M - prev_M) / dV)
        prev_V, prev_M = V, M
    return force, moment


def exact_fluid_force(
    collision: Collision, X_WB: Pose, fluid: BuoyancyWorld, g_W: Any
) -> tuple[Any, Any]:
    """``(force_W, Σ w_i·p_i)`` on one collision by exact geometry in a graded fluid (as
    :func:`graded_gazebo`, slabs cut by true horizontal planes)."""
    X_WC = X_WB @ collision.X_BC
    up = up_vector(g_W)
    if _is_upright(collision.geometry, X_WC, up):
        return _upright_fluid_force(collision.geometry, X_WC, fluid, g_W, up)
    mesh = gzinertia.physics.collision_mesh.collision_trimesh(collision)
    if mesh is None:
        return np.zeros(3), np.zeros(3)
    return mesh_fluid_force(np.asarray(mesh.triangles), X_WC, fluid, g_W)


def mesh_fluid_force(
    triangles_F: Any, X_WF: Pose, fluid: BuoyancyWorld, g_W: Any
) -> tuple[Any, Any]:
    """``(force_W, Σ w_i·p_i)`` on the solid a closed, outward triangle surface ``(n, 3, 3)``
    (in frame F, posed ``X_WF``) bounds, in a graded fluid: slabs cut by true horizontal
    planes."""
    up = up_vector(g_W)
    force, moment = np.zeros(3), np.zeros(3)
    triangles = np.asarray(triangles_F, dtype=float) @ np.asarray(X_WF.R).T + np.asarray(X_WF.p)
    heights = [h for h, _ in fluid.layers] + [math.inf]
    densities = [fluid.density] + [rho for _, rho in fluid.layers]
    prev_V, prev_M = 0.0, np.zeros(3)
    for height, rho in zip(heights, densities, strict=True):
        V, M = volume_below_plane(triangles, height)
        dV = V - prev_V
        if dV > 0.0:
            f = -dV * rho * np.asarray(g_W)
            force += f
            moment += float(f @ up) * (M - prev_M) / dV
        prev_V, prev_M = V, M
    return force, moment


def up_vector(g_W: Any) -> Any:
    """The unit vector against gravity (+z without gravity)."""
    g = float(np.linalg.norm(g_W))
    return -np.asarray(g_W, dtype=float) / g if g > 0 else np.array([0.0, 0.0, 1.0])


def buoyancy_centre(force: Any, first_moment: Any, up: Any, fallback: Any) -> Any:
    """``Σ w_i·p_i / Σ w_i`` (``fallback`` when no force acts)."""
    w = float(force @ up)
    return np.asarray(first_moment) / w if w != 0.0 else np.asarray(fallback, dtype=float)

