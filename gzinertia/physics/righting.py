"""The righting-moment curve of a floating hull (issue 30): the static stability curve naval
architects read, from the hull geometry.

From its equilibrium (:func:`gzinertia.physics.flotation.solve_flotation`), the hull is heeled
by ``φ`` about the horizontal axis ``u`` through G along the craft's heading, then heaved (level
solve of :func:`~gzinertia.physics.flotation.solve_flotation`, trim fixed) until it displaces its
weight again. With ``v = up × u`` (to port for a heading forward), the buoyancy's moment about
G along ``u`` is ``ρ g V (B - G)·v``; the righting arm is ``GZ = (G - B)·v`` (positive: the
moment turns the hull back) and the righting moment ``ρ g V·GZ`` (N·m; ``ρ V`` is the mass).
Fixed trim is the usual curve's assumption (a hull that trims as it heels rights a little
less); the triangles are sliced exactly, as every flotation figure is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.physics.flotation import GAZEBO_GRAVITY, model_hull, solve_flotation
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Vec3, rotation_from_rpy, skew

if TYPE_CHECKING:
    from gzinertia.physics.flotation import Flotation
    from gzinertia.physics.hydrostatics import ModelHydrostatics
    from gzinertia.records import BuoyancyWorld, LinkRecord

__all__ = ["HEELS", "RightingPoint", "model_righting_curve", "righting_curve"]

#: Heel angles of a curve (rad): 0 to 90° every 5°.
HEELS = tuple(math.radians(d) for d in range(0, 91, 5))


@dataclass(frozen=True, repr=False, eq=False)
class RightingPoint(ValueRecord):
    """The hull heeled by ``heel`` (rad) from its equilibrium and heaved to displace its weight:
    ``GZ`` the righting arm (m), ``moment`` the righting moment (N·m), ``p_WB``/``p_WG`` the
    centres of buoyancy and mass (world frame W), ``floats`` False when no heave balances it."""

    heel: float
    GZ: float
    moment: float
    p_WB: Vec3
    p_WG: Vec3
    floats: bool


def _about_axis(u: Any, angle: float) -> Any:
    """The rotation by ``angle`` about the unit axis ``u`` (Rodrigues)."""
    K = skew(u)
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * (K @ K)


def righting_curve(
    triangles: Any, mass: float, p_WG: Any, fluid: BuoyancyWorld, z_surface: float,
    heading_W: Any = (1.0, 0.0, 0.0), heels: Sequence[float] = HEELS, g: float = GAZEBO_GRAVITY,
) -> tuple[RightingPoint, ...]:
    """The curve of the hull ``triangles`` (closed, outward, world frame W, posed at the angle
    the heels are measured from: its equilibrium) of mass ``mass`` (kg) with its centre of mass
    at ``p_WG``, floating at the free surface ``z = z_surface`` of ``fluid`` (its density just
    below, and a graded fluid's layer above, else nothing); heeled about the horizontal axis
    along ``heading_W`` through G by each of ``heels`` (rad; positive: to starboard for a
    heading forward, z up); ``g`` (m/s²) scales the moment."""
    rho_water = fluid.density_at(z_surface - 1e-9)
    rho_above = fluid.density_at(z_surface + 1e-9) if fluid.kind == "graded" else 0.0
    T = np.asarray(triangles, dtype=float)
    G = np.asarray(p_WG, dtype=float)
    up = np.array([0.0, 0.0, 1.0])
    u = np.asarray(heading_W, dtype=float) - (np.asarray(heading_W, dtype=float) @ up) * up
    u = u / np.linalg.norm(u) if np.linalg.norm(u) > 0 else np.array([1.0, 0.0, 0.0])
    v = np.cross(up, u)
    points = []
    for heel in heels:
        heeled = (T - G) @ _about_axis(u, heel).T + G
        f = solve_flotation(heeled, mass, G, rho_water, z_surface, rho_above, u, trim=False, g=g)
        GZ = float((f.p_WG - f.p_WB) @ v)
        points.append(RightingPoint(float(heel), GZ, mass * g * GZ, f.p_WB, f.p_WG, f.floats))
    return tuple(points)


def model_righting_curve(
    model: ModelHydrostatics,
    links: Sequence[LinkRecord],
    fluid: BuoyancyWorld,
    flotation: Flotation,
) -> tuple[RightingPoint, ...]:
    """:func:`righting_curve` of a model's hull (the collisions of ``links`` that get buoyancy,
    :func:`gzinertia.physics.flotation.model_hull`) from its equilibrium ``flotation`` (the
    file's pose moved by its heave, roll and pitch about G), headed as
    :func:`~gzinertia.physics.flotation.model_flotation` heads it (the model frame's x, else the
    heaviest link's), in ``fluid`` with its free surface at ``flotation.z_surface``."""
    heaviest = max(links, key=lambda link: link.inertial.mass)
    X = model.X_WM if model.X_WM is not None else heaviest.X_WB
    R = np.asarray(rotation_from_rpy(flotation.roll, flotation.pitch, 0.0))
    G = np.asarray(model.p_WG, dtype=float)
    at_rest = (model_hull(links, fluid.is_enabled) - G) @ R.T + np.asarray(flotation.p_WG)
    return righting_curve(at_rest, model.mass, flotation.p_WG, fluid, flotation.z_surface,
                          R @ np.asarray(X.R)[:, 0], HEELS, model.g)
