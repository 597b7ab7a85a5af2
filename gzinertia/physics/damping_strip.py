"""Quadratic damping of a slender hull by strip theory, as Prestero (2001) built REMUS 100's.

The hull is a body of revolution along an axis of the link (:class:`HullProfile`): its radius
``R(x)`` at stations ``x`` along the unit axis ``a`` from a point ``Ho`` on it. Two drags act:

* **Axial drag** from skin friction: the ITTC 1957 correlation line
  ``C_f = 0.075 / (log10 Re - 2)²``, ``Re = U·l/ν`` at the design speed ``U``, times Hoerner's
  form factor for streamlined bodies of revolution ``1 + k = 1 + 1.5 (d/l)^1.5 + 7 (d/l)³``
  (Hoerner 1965, *Fluid-Dynamic Drag*, ch. 6), on the wetted area ``S``:
  ``F = -½ρ C_f (1+k) S |u_a| u_a · a`` at Ho, ``u_a`` the axial velocity of Ho. The same shear
  on the hull turning about its axis gives the roll moment ``-½ρ C_f Σ 2π R⁴ ds |p_a| p_a``.
* **Cross-flow drag** by strip integration (Prestero 2001, §4.3; Hoerner's cross-flow
  coefficient of a circular cylinder, ``C_dc`` = 1.1 as Prestero took it): each strip of
  length ``ds`` at ``c = Ho + x·a`` moving with ``v_c = v + ω × c`` feels
  ``dF = -½ρ C_dc 2R ds |v⊥| v⊥``, ``v⊥`` the part of ``v_c`` normal to the axis; its moment
  about Bo is ``c × dF``.

Summed, that is a wrench at Bo in link axes, homogeneous of degree 2 in the velocity; its
single-axis terms (:func:`gzinertia.physics.damping_record.single_axis_terms`) are Prestero's
``X_u|u|``, ``Y_v|v|``, ``Z_w|w|``, ``K_p|p|``, ``M_q|q|``, ``N_r|r|`` on the diagonal and the
couplings the strips give (``M_w|w|``, ``N_v|v|``, ``Y_r|r|``, ``Z_q|q|`` and, for a hull off
the link origin, more), about the link origin in gz-sim's names. Fins are not read from the
geometry: a caller describes them (:class:`gzinertia.physics.fin_lift.Fin`) and their cross-flow
drag joins the strips, their lift the ``<iJabsA>`` terms (:mod:`gzinertia.physics.fin_lift`);
without them the assumptions say "no fins".

The profile comes from the link's collisions: a single cylinder or capsule in closed form
(:func:`primitive_profile`), anything else from cross-sections of the union of the collisions'
solids (the exact union the hydrostatics use, :mod:`gzinertia.physics.link_union`), sliced
along the union's long principal axis through its centroid (:func:`sampled_profile`), each
section taken as the circle of its area.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gzinertia.physics.damping_record import DampingEstimate, Wrench, single_axis_terms
from gzinertia.physics.fin_lift import (
    Fin,
    fin_drag_wrench,
    fin_lift_terms,
    lift_axis,
)
from gzinertia.physics.link_union import solid_in_link
from gzinertia.physics.manifold_solids import manifold_triangles, triangle_moments
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision

__all__ = [
    "CROSS_FLOW_CD",
    "DEFAULT_SPEED",
    "SLENDERNESS",
    "STRIPS",
    "STRIP_BAND",
    "HullProfile",
    "form_factor",
    "hull_profile",
    "ittc_friction",
    "primitive_profile",
    "sampled_profile",
    "strip_estimate",
    "strip_wrench",
]

FloatArray = NDArray[np.float64]

#: Hoerner's cross-flow drag coefficient of a circular cylinder at subcritical Reynolds number,
#: the value Prestero (2001) used for REMUS 100 (Hoerner 1965 gives 1.1-1.2).
CROSS_FLOW_CD = 1.1
#: The speed (m/s) whose Reynolds number sets the friction coefficient unless one is given:
#: REMUS 100's nominal 1.5 m/s (Prestero 2001).
DEFAULT_SPEED = 1.5
#: Strips along the hull (midpoint rule; the closed-form profiles' integrals are exact for
#: constant radius, within 1e-5 for the moments).
STRIPS = 400
#: The relative uncertainty of strip-theory drag estimates: ±30 % (Prestero 2001 reports his
#: predicted and measured REMUS coefficients within this; Fossen 2021, Handbook of Marine Craft
#: Hydrodynamics, §6.4, treats cross-flow drag as a first estimate of this order).
STRIP_BAND = 0.3
#: The length over diameter below which a body is no slender hull.
SLENDERNESS = 3.0
#: Reynolds numbers where the ITTC 1957 line holds (turbulent boundary layer).
ITTC_RE_RANGE = (1e5, 1e9)


@dataclass(frozen=True, repr=False, eq=False)
class HullProfile(ValueRecord):
    """A body of revolution in link frame B: the unit axis ``axis_B``, a point ``p_BoHo_B`` on
    it, strips at ``stations`` (m along the axis from Ho, midpoints) of lengths ``widths`` and
    radii ``radii`` (m), the wetted area ``wetted_area`` (m²) and ``source``, in words (which
    collisions, in closed form or sampled)."""

    axis_B: FloatArray
    p_BoHo_B: FloatArray
    stations: FloatArray
    widths: FloatArray
    radii: FloatArray
    wetted_area: float
    source: str

    @property
    def length(self) -> float:
        """Overall length ``l`` along the axis (m)."""
        return float(np.sum(self.widths))

    @property
    def diameter(self) -> float:
        """Largest diameter ``d`` (m)."""
        return 2.0 * float(np.max(self.radii))


def _midpoints(start: float, stop: float, n: int = STRIPS) -> tuple[FloatArray, FloatArray]:
    edges = np.linspace(start, stop, n + 1)
    return 0.5 * (edges[:-1] + edges[1:]), np.diff(edges)


def primitive_profile(collision: Collision) -> HullProfile | None:
    """The closed-form profile of a cylinder or capsule collision along its own z axis
    through its origin; ``None`` for other shapes."""
    g = collision.geometry
    if g.kind not in ("cylinder", "capsule") or g.radius is None or g.length is None:
        return None
    r, half = float(g.radius), 0.5 * float(g.length)
    end = half + (r if g.kind == "capsule" else 0.0)
    x, ds = _midpoints(-end, end)
    beyond = np.clip(np.abs(x) - half, 0.0, r)
    radii = np.sqrt(r * r - beyond * beyond) if g.kind == "capsule" else np.full_like(x, r)
    area = 2.0 * math.pi * r * 2.0 * half + (4.0 if g.kind == "capsule" else 2.0) * math.pi * r * r
    X = collision.X_BC
    return HullProfile(np.array(X.R[:, 2]), np.array(X.p), x, ds, radii, area,
                       f"{g.kind} {collision.name!r} (closed form)")


def _long_axis(triangles: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The centroid and the long principal axis (smallest moment) of the solid the closed
    triangles bound, the axis signed so that its largest component is positive."""
    V, first, J = triangle_moments(triangles)
    c = first / V
    G = J - V * (float(c @ c) * np.eye(3) - np.outer(c, c))
    _, vectors = np.linalg.eigh(G)
    axis = vectors[:, 0]
    if axis[int(np.argmax(np.abs(axis)))] < 0.0:
        axis = -axis
    return np.asarray(c, dtype=float), np.asarray(axis, dtype=float)


def sampled_profile(collisions: Sequence[Collision], where: str) -> HullProfile:
    """The profile of the union of ``collisions`` (each collision's solid in the link frame:
    :func:`gzinertia.physics.link_union.solid_in_link`, round primitives with
    :data:`~gzinertia.physics.link_union.SECTIONS` segments, mesh files at their own
    resolution), sliced at :data:`STRIPS` stations along its long principal axis through its
    centroid, each section's area ``A`` taken as a circle's (``R = √(A/π)``). ``where`` names
    the link in errors."""
    import manifold3d as m3  # noqa: PLC0415 (optional bem extra: a sampled profile only)

    solids = [s for s in (solid_in_link(c, where) for c in collisions) if s is not None]
    if not solids:
        raise ShapeError(f"{where}: no collision has a solid to take a hull profile from")
    union = m3.Manifold.batch_boolean(solids, m3.OpType.Add)
    centre, axis = _long_axis(manifold_triangles(union))
    helper = np.eye(3)[int(np.argmin(np.abs(axis)))]
    e1 = np.cross(axis, helper)
    e1 /= np.linalg.norm(e1)
    T = np.zeros((3, 4))  # B to section axes (e1, e2, axis), from the centroid
    T[:, :3] = np.array([e1, np.cross(axis, e1), axis])
    T[:, 3] = -T[:, :3] @ centre
    moved = union.transform(T)
    low, high = moved.bounding_box()[2], moved.bounding_box()[5]
    x, ds = _midpoints(float(low), float(high))
    areas = np.array([moved.slice(float(z)).area() for z in x])
    names = ", ".join(repr(c.name) for c in collisions)
    return HullProfile(axis, centre, x, ds, np.sqrt(areas / math.pi), float(union.surface_area()),
                       f"sections of the collisions {names}")


def hull_profile(collisions: Sequence[Collision], where: str) -> HullProfile:
    """The hull of a link's ``collisions``: in closed form for one cylinder or capsule,
    sampled otherwise (module docstring)."""
    if len(collisions) == 1:
        profile = primitive_profile(collisions[0])
        if profile is not None:
            return profile
    return sampled_profile(collisions, where)


def ittc_friction(reynolds: float) -> float:
    """The ITTC 1957 model-ship correlation line ``C_f = 0.075/(log10 Re - 2)²``."""
    return 0.075 / (math.log10(reynolds) - 2.0) ** 2


def form_factor(d_over_l: float) -> float:
    """Hoerner's form factor of a streamlined body of revolution,
    ``1 + 1.5 (d/l)^1.5 + 7 (d/l)³``."""
    return 1.0 + 1.5 * d_over_l**1.5 + 7.0 * d_over_l**3


def strip_wrench(
    profile: HullProfile, density: float, friction: float, cross_flow_cd: float = CROSS_FLOW_CD
) -> Wrench:
    """The hull's drag wrench ``[X Y Z K M N]`` at Bo in B axes as a function of the velocity
    ``[u v w p q r]`` (module docstring); ``friction`` is ``C_f·(1+k)``."""
    a = profile.axis_B
    centres = profile.p_BoHo_B + np.outer(profile.stations, a)
    strip = 0.5 * density * cross_flow_cd * 2.0 * profile.radii * profile.widths
    axial = 0.5 * density * friction * profile.wetted_area
    roll = 0.5 * density * friction * float(np.sum(2.0 * math.pi * profile.radii**4
                                                   * profile.widths))

    def wrench(s: FloatArray) -> FloatArray:
        v, w = s[:3], s[3:]
        local = v + np.cross(w, centres)
        normal = local - np.outer(local @ a, a)
        forces = -(strip * np.linalg.norm(normal, axis=1))[:, None] * normal
        u_a = float((v + np.cross(w, profile.p_BoHo_B)) @ a)
        f_axial = -axial * abs(u_a) * u_a * a
        p_a = float(w @ a)
        force = forces.sum(axis=0) + f_axial
        moment = (np.cross(centres, forces).sum(axis=0) + np.cross(profile.p_BoHo_B, f_axial)
                  - roll * abs(p_a) * p_a * a)
        return np.concatenate([force, moment])

    return wrench


def strip_estimate(
    collisions: Sequence[Collision],
    where: str,
    *,
    density: float,
    viscosity: float,
    speed: float = DEFAULT_SPEED,
    reason: str = "asked for",
    fins: Sequence[Fin] = (),
) -> DampingEstimate:
    """Strip-theory damping of the hull the ``collisions`` make (module docstring) in a fluid
    of ``density`` kg/m³ and dynamic ``viscosity`` Pa·s, the friction line taken at ``speed``
    m/s; terms about Bo in B axes, Fossen-negative. ``where`` names the link in errors
    (:class:`~gzinertia.physics.mesh_load.ShapeError` for a hull without length or width).
    ``fins`` (described by the caller, link frame) add their cross-flow drag to the strips and
    their lift as ``<iJabsA>`` terms (:mod:`gzinertia.physics.fin_lift`)."""
    profile = hull_profile(collisions, where)
    l, d = profile.length, profile.diameter
    if not (0.0 < d < math.inf and 0.0 < l < math.inf):
        raise ShapeError(f"{where}: the hull has no length or no width (l {l:g} m, d {d:g} m)")
    reynolds = speed * l * density / viscosity
    cf, k1 = ittc_friction(reynolds), form_factor(d / l)
    hull = strip_wrench(profile, density, cf * k1)
    terms = single_axis_terms(hull if not fins else _with_fin_drag(hull, fins, density))
    fin_words, fin_outside = _fin_lift(fins, profile, density, terms)
    low, high = ITTC_RE_RANGE
    validity = (f"slender bodies of revolution (l/d >= {SLENDERNESS:g}, 5-10 typical), Re "
                f"{low:.0e}-{high:.0e} (the ITTC line), small angles of attack")
    outside = list(fin_outside)
    if l / d < SLENDERNESS:
        outside.append(f"l/d {l / d:.3g} is below {SLENDERNESS:g}: not a slender hull, strip "
                       "theory does not hold (per-member drag, morison, suits a bluff body)")
    if not low <= reynolds <= high:
        outside.append(f"Re {reynolds:.3g} at {speed:g} m/s is outside the ITTC line's range")
    return DampingEstimate(
        method="strip",
        title=(f"strip theory on the {profile.source}: l {l:.4g} m, d {d:.4g} m, C_f {cf:.4g} "
               f"x form factor {k1:.4g}, cross-flow C_d {CROSS_FLOW_CD:g}{fin_words}"),
        terms=terms,
        reason=reason,
        band=STRIP_BAND,
        assumptions=_assumptions(speed, fins),
        validity=validity,
        outside=tuple(outside),
        sources=(
            "Prestero, T. (2001), Verification of a six-degree of freedom simulation model "
            "for the REMUS AUV, MIT/WHOI MS thesis, ch. 4",
            "ITTC (1957) model-ship correlation line",
            "Hoerner, S. F. (1965), Fluid-Dynamic Drag",
        ),
    )


def _with_fin_drag(hull: Wrench, fins: Sequence[Fin], density: float) -> Wrench:
    drag = fin_drag_wrench(fins, density)
    return lambda s: hull(s) + drag(s)


def _fin_lift(
    fins: Sequence[Fin], profile: HullProfile, density: float, terms: dict[str, float]
) -> tuple[str, tuple[str, ...]]:
    """Adds the fins' lift terms to ``terms`` when the hull lies along a link axis; returns
    the words for the title and what was left out."""
    if not fins:
        return "", ()
    names = ", ".join(fin.name for fin in fins)
    axis = lift_axis(profile.axis_B)
    if axis is None:
        return (f"; fins {names}: cross-flow drag only",
                ("the hull's axis is along no link axis: the fins' lift (|u|*v) has no "
                 "Hydrodynamics term and is left out",))
    for name, value in fin_lift_terms(fins, axis, density).items():
        terms[name] = terms.get(name, 0.0) + value
    return f"; fins {names}: lift and cross-flow drag", ()


def _assumptions(speed: float, fins: Sequence[Fin]) -> tuple[str, ...]:
    drag = ("axial drag is skin friction only (ITTC 1957 x Hoerner's form factor); no fins, "
            "appendages, propeller or base drag")
    cross = ("cross-flow drag of each strip with a circular cylinder's coefficient, no "
             "finite-length reduction, no fin lift")
    if fins:
        drag = ("axial drag is skin friction only (ITTC 1957 x Hoerner's form factor); no "
                "appendages, propeller or base drag; fins as described: lift at small angles "
                "of attack (|u_a|*v_n as <iJabsA> terms, A the hull's axis), cross-flow drag "
                "along their normals")
        cross = cross.removesuffix(", no fin lift")
    return (
        "hull taken as a body of revolution, each cross-section a circle of its area",
        drag,
        f"friction coefficient at the design speed {speed:g} m/s (quadratic terms cannot "
        "follow Re)",
        cross,
    )
