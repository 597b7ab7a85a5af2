"""Quadratic damping of bluff bodies and frames (ROVs, buoys, boxes) from published drag
coefficients, integrated over the surface the boundary-element solve uses.

Each collision is a member (Morison's per-member drag, no shielding): its closed surface in
link axes (the solid the geometry pipeline builds for the union the hydrostatics and the BEM
use) is cut into panels, each with the drag coefficient of the face it lies on
(:data:`COEFFICIENTS`: a box's faces, a cylinder's side and ends, a sphere or a capsule's caps;
other shapes the generic bluff body). A panel ``k`` of area ``A_k``, outward normal ``n_k``
and centre ``c_k`` moving with ``v_k = v + ω × c_k`` facing the flow (``n_k·v_k > 0``) feels
the drag of its projected area

    ``dF_k = -½ρ C_d,k A_k (n_k·v_k) v_k``,

i.e. ``-½ρ C_d A_proj |v| v`` with ``A_proj = A_k (n_k·v̂_k)``, and the moment ``c_k × dF_k``
about Bo. For a translating convex member the panels' projected areas add up to the member's
(``½ρ C_d A |u| u``: a sphere's ``πr²``, a box face, a cylinder's ``D·L`` across and its end
along); rotation integrates the same drag over the surface (a body turning about an axis of
revolution feels none), not an equivalent ellipsoid's. The wrench at Bo becomes Gazebo terms
through :func:`gzinertia.physics.damping_record.single_axis_terms`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gzinertia.physics.damping_record import (
    NEGLIGIBLE,
    DampingEstimate,
    Wrench,
    single_axis_terms,
    unreversed_share,
)
from gzinertia.physics.link_union import solid_in_link
from gzinertia.physics.manifold_solids import manifold_triangles
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision

__all__ = [
    "COEFFICIENTS",
    "DIVISIONS",
    "MORISON_BAND",
    "DragCoefficient",
    "MemberPanels",
    "member_panels",
    "morison_estimate",
    "morison_wrench",
]

FloatArray = NDArray[np.float64]

#: A member's panels are at most its largest extent over this long: the moments of rotation
#: are integrated with one point per panel.
DIVISIONS = 40


@dataclass(frozen=True, repr=False, eq=False)
class DragCoefficient(ValueRecord):
    """A steady-flow drag coefficient on projected area: ``value``, the ``face`` it is for,
    where it is published (``source``) and where it holds (``validity``)."""

    value: float
    face: str
    source: str
    validity: str


_HOERNER = "Hoerner, S. F. (1965), Fluid-Dynamic Drag, ch. 3"
_DNV = "DNV-RP-C205 (2010), Environmental conditions and environmental loads, §6.7"
#: The coefficients by face (module docstring); a member's Reynolds number ``U·D/ν``.
COEFFICIENTS: dict[str, DragCoefficient] = {
    "sphere": DragCoefficient(
        0.47, "sphere", _HOERNER + " (sphere, subcritical)", "Re 1e3-2e5"),
    "box": DragCoefficient(
        1.05, "box face", _HOERNER + " (cube, flow normal to a face)",
        "Re > 1e4, sharp edges, faces of similar size (elongated boxes: 0.8-1.2)"),
    "cylinder_side": DragCoefficient(
        1.2, "cylinder across", _DNV + " (smooth circular cylinder in cross-flow, subcritical; "
        "1.21 digitised in Fossen's MSS, HYDRO/cylinderDrag.m)",
        "Re 1e4-2e5 (0.3-0.7 beyond the drag crisis); long cylinders (no finite-length "
        "reduction: short ones over-estimated by up to 1/0.6)"),
    "cylinder_end": DragCoefficient(
        0.9, "cylinder end", _HOERNER + " (flat-ended cylinder along its axis, 0.8-1.0 for "
        "length/diameter 1-7)", "Re > 1e4, length/diameter 1-7"),
    "bluff": DragCoefficient(
        1.0, "any other shape", "a generic bluff body (between a sphere's 0.47 and a flat "
        "plate's 1.17-1.9, " + _HOERNER + ")", "a rough first estimate only"),
}
#: The uncertainty of drag from tabulated coefficients on bodies that are not the tabulated
#: ones (edges, appendages, shielding between members, Reynolds number): ±50 %
#: (DNV-RP-H103 (2011) §4.6 asks for model tests or CFD where it matters).
MORISON_BAND = 0.5


@dataclass(frozen=True, repr=False, eq=False)
class MemberPanels(ValueRecord):
    """Panels of a link's members in link frame B: ``centres`` (n x 3, m), outward unit
    ``normals`` (n x 3), ``areas`` (m²) and drag ``cd`` per panel; ``faces`` the
    :data:`COEFFICIENTS` keys used."""

    centres: FloatArray
    normals: FloatArray
    areas: FloatArray
    cd: FloatArray
    faces: tuple[str, ...]


def _panel_faces(collision: Collision, centres_C: FloatArray, normals_C: FloatArray) -> list[str]:
    """Each panel's face kind, from its centre and normal in the collision's frame C."""
    g = collision.geometry
    if g.kind == "box":
        return ["box"] * len(centres_C)
    if g.kind == "sphere":
        return ["sphere"] * len(centres_C)
    if g.kind == "cylinder":
        return ["cylinder_end" if abs(n[2]) > 0.5 else "cylinder_side" for n in normals_C]
    if g.kind == "capsule" and g.length is not None:
        half = 0.5 * float(g.length)
        return ["sphere" if abs(c[2]) > half else "cylinder_side" for c in centres_C]
    return ["bluff"] * len(centres_C)


def member_panels(collisions: Sequence[Collision], where: str) -> MemberPanels:
    """Every collision's own closed surface in link axes (its solid as the geometry pipeline
    builds it for the union the hydrostatics and the BEM use,
    :func:`gzinertia.physics.link_union.solid_in_link`: round primitives with
    :data:`~gzinertia.physics.link_union.SECTIONS` segments around, mesh files at their own
    resolution), its edges refined to at most 1/:data:`DIVISIONS` of its largest extent, as
    panels, each with its face's drag coefficient. ``where`` names the link in errors."""
    parts: list[tuple[FloatArray, FloatArray, FloatArray]] = []
    kinds: list[str] = []
    for c in collisions:
        solid = solid_in_link(c, where)
        if solid is None:
            raise ShapeError(f"{where}: collision {c.name!r} ({c.source}) has no solid to take "
                             "drag from")
        box = np.asarray(solid.bounding_box(), dtype=float)
        t = manifold_triangles(solid.refine_to_length(float(np.max(box[3:] - box[:3]))
                                                      / DIVISIONS))
        cross = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
        twice = np.linalg.norm(cross, axis=1)
        keep = twice > 0.0
        t, cross, twice = t[keep], cross[keep], twice[keep]
        centres, normals = t.mean(axis=1), cross / twice[:, None]
        R, p = np.asarray(c.X_BC.R), np.asarray(c.X_BC.p)
        kinds += _panel_faces(c, (centres - p) @ R, normals @ R)
        parts.append((centres, normals, 0.5 * twice))
    cd = np.array([COEFFICIENTS[k].value for k in kinds])
    return MemberPanels(np.concatenate([q[0] for q in parts]),
                        np.concatenate([q[1] for q in parts]),
                        np.concatenate([q[2] for q in parts]), cd,
                        tuple(dict.fromkeys(kinds)))


def morison_wrench(panels: MemberPanels, density: float) -> Wrench:
    """The members' drag wrench ``[X Y Z K M N]`` at Bo in B axes as a function of the
    velocity ``[u v w p q r]`` (module docstring)."""
    k = 0.5 * density * panels.cd * panels.areas
    c, n = panels.centres, panels.normals

    def wrench(s: FloatArray) -> FloatArray:
        local = s[:3] + np.cross(s[3:], c)
        facing = np.maximum(np.einsum("ij,ij->i", n, local), 0.0)
        forces = -(k * facing)[:, None] * local
        return np.concatenate([forces.sum(axis=0), np.cross(c, forces).sum(axis=0)])

    return wrench


def morison_estimate(
    collisions: Sequence[Collision], where: str, *, density: float, reason: str = "asked for"
) -> DampingEstimate:
    """Per-member drag damping of the ``collisions`` (module docstring) in a fluid of
    ``density`` kg/m³; terms about Bo in B axes, Fossen-negative. ``where`` names the link."""
    panels = member_panels(collisions, where)
    wrench = morison_wrench(panels, density)
    used = [COEFFICIENTS[f] for f in panels.faces]
    assumptions = [
        "steady-flow drag on each panel's projected area (no added mass, no lift, no "
        "Keulegan-Carpenter dependence)",
    ]
    share = unreversed_share(wrench)
    if share > NEGLIGIBLE:
        assumptions.append(
            f"the part of the drag that does not reverse with the motion (up to {100 * share:.2g}"
            " % of the wrench: faces tilted to the link axes) has no Hydrodynamics term and is "
            "left out")
    if len(collisions) > 1:
        assumptions.append(
            f"{len(collisions)} collisions as separate members: no shielding between them, "
            "faces hidden inside another member counted (an over-estimate where they touch)")
    return DampingEstimate(
        method="morison",
        title="per-member drag on the collisions' surfaces: " + ", ".join(
            f"C_d {c.value:g} ({c.face})" for c in used),
        terms=single_axis_terms(wrench, NEGLIGIBLE),
        reason=reason,
        band=MORISON_BAND,
        assumptions=tuple(assumptions),
        validity="; ".join(f"{c.face}: {c.validity}" for c in used),
        sources=tuple(dict.fromkeys(c.source for c in used)),
    )
