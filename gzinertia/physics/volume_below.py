"""Volumes below a horizontal plane: of a primitive below ``z_C = d`` in its own axes (closed
forms, as gz-math's ``VolumeBelow`` for a horizontal plane), and of the solid a closed
triangle surface bounds below ``z = height`` (exact slices of any solid). Each returns the
volume (m³) and its first moment (``V·centroid``, m⁴) in the frame the shape or triangles are
given in.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gzinertia.records import Geometry

#: Shapes gz-sim's graded buoyancy computes (meshes and the rest get nothing).
GRADED_SHAPES = ("box", "sphere", "cylinder", "capsule", "ellipsoid", "cone")


def _cap(r: float, d: float) -> tuple[float, float]:
    """Part of a sphere of radius r (centre 0) below z = d: (volume, volume·z_centroid)."""
    if d <= -r:
        return 0.0, 0.0
    if d >= r:
        return 4.0 / 3.0 * math.pi * r**3, 0.0
    h = r + d
    V = math.pi * h * h * (3.0 * r - h) / 3.0
    z = -3.0 * (2.0 * r - h) ** 2 / (4.0 * (3.0 * r - h))
    return V, V * z


def _cone_below(r: float, length: float, d: float) -> tuple[float, float]:
    """A cone along z (base of radius r at ``-L/2``, apex at ``+L/2``) below z = d: the whole
    cone minus the tip of height ``u = L/2 - d`` above the plane (gz-math's
    ``Cone::VolumeBelow``/``CenterOfVolumeBelow`` for a plane normal to its axis):
    ``V = π·r²·(L³ - u³)/(3L²)``, ``V·z_c = π·r²/L²·(L/2·(L³ - u³)/3 - (L⁴ - u⁴)/4)``."""
    L = length
    if L <= 0.0 or r <= 0.0:
        return 0.0, 0.0
    half = 0.5 * L
    u = half - min(max(d, -half), half)
    k = math.pi * r * r / (L * L)
    return k * (L**3 - u**3) / 3.0, k * (half * (L**3 - u**3) / 3.0 - (L**4 - u**4) / 4.0)


def _prism(area: float, length: float, d: float) -> tuple[float, float]:
    """A straight prism along z of this cross-section, centred, below z = d."""
    h = min(max(d + 0.5 * length, 0.0), length)
    return area * h, area * h * (-0.5 * length + 0.5 * h)


def volume_below(geometry: Geometry, d: float) -> tuple[float, float]:
    """``(V, V·z_c)`` of the shape below the plane ``z_C = d`` in its own axes (the part's
    centroid is on the shape's z axis for every primitive): gz-math's ``VolumeBelow`` and
    ``CenterOfVolumeBelow`` for a plane normal to the shape's z. ``(0, 0)`` for other shapes."""
    kind = geometry.kind
    if kind == "box" and geometry.size is not None:
        x, y, z = geometry.size
        return _prism(x * y, z, d)
    if kind == "sphere" and geometry.radius is not None:
        return _cap(geometry.radius, d)
    if kind == "cylinder" and geometry.radius is not None and geometry.length is not None:
        return _prism(math.pi * geometry.radius**2, geometry.length, d)
    if kind == "capsule" and geometry.radius is not None and geometry.length is not None:
        r, half = geometry.radius, 0.5 * geometry.length
        Vc, Mc = _prism(math.pi * r * r, geometry.length, d)
        # lower hemisphere (centre -half, z <= -half): the sphere below min(d, -half)
        Vl, Ml = _cap(r, min(d, -half) + half)
        Ml += -half * Vl
        # upper hemisphere (centre +half, z >= +half): the sphere below d minus its lower half
        Vs, Ms = _cap(r, d - half) if d > half else (0.0, 0.0)
        if d > half:
            V0, M0 = _cap(r, 0.0)
            Vs, Ms = Vs - V0, Ms - M0
        Ms += half * Vs
        return Vc + Vl + Vs, Mc + Ml + Ms
    if kind == "ellipsoid" and geometry.size is not None:
        a, b, c = geometry.size
        V, M = _cap(c, d)  # the sphere of radius c stretched by a/c and b/c across z
        return V * a * b / (c * c), M * a * b / (c * c)
    if kind == "cone" and geometry.radius is not None and geometry.length is not None:
        return _cone_below(geometry.radius, geometry.length, d)
    return 0.0, 0.0


def clip_below(triangles: Any, height: float) -> Any:
    """The parts of triangles ``(n, 3, 3)`` (world frame) below the plane ``z = height``, as
    triangles with the same winding (a triangle cut once gives one triangle or two)."""
    t = np.asarray(triangles, dtype=float)
    below = t[:, :, 2] <= height
    count = below.sum(axis=1)
    out = [t[count == 3]]
    for lone_below, n in ((True, 1), (False, 2)):
        sel = t[count == n]
        if len(sel) == 0:
            continue
        flags = below[count == n] if lone_below else ~below[count == n]
        first = np.argmax(flags, axis=1)  # the lone vertex, rotated to the front (same cycle)
        order = (first[:, None] + np.arange(3)[None, :]) % 3
        a, b, c = (np.take_along_axis(sel, order[:, k, None, None], axis=1)[:, 0]
                   for k in range(3))

        def cut(p: Any, q: Any) -> Any:
            s = (height - p[:, 2]) / (q[:, 2] - p[:, 2])
            return p + s[:, None] * (q - p)

        p_ab, p_ac = cut(a, b), cut(a, c)
        if lone_below:
            out.append(np.stack([a, p_ab, p_ac], axis=1))
        else:
            out.append(np.stack([p_ab, b, c], axis=1))
            out.append(np.stack([p_ab, c, p_ac], axis=1))
    return np.concatenate(out, axis=0)


def volume_below_plane(triangles: Any, height: float) -> tuple[float, Any]:
    """Volume (m³) and first moment of volume (m⁴, ``V·p_centroid``) of the closed, outward
    wound triangle surface's solid below the plane ``z = height``.

    Signed tetrahedra from an apex on the plane: the cap the cut would add lies in the plane
    through the apex, so it adds nothing, and the clipped triangles alone give the exact
    volume and centroid of the part below (no cap is built)."""
    t = clip_below(triangles, height)
    if len(t) == 0:
        return 0.0, np.zeros(3)
    apex = np.array([0.0, 0.0, height if math.isfinite(height) else 0.0])
    r = t - apex
    v = np.einsum("ij,ij->i", r[:, 0], np.cross(r[:, 1], r[:, 2])) / 6.0
    V = float(v.sum())
    centroids = apex + r.sum(axis=1) / 4.0  # of each tetrahedron (apex, r0, r1, r2)
    return V, (v[:, None] * centroids).sum(axis=0)

