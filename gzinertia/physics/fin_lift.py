"""The fins of a slender hull: their lift and their cross-flow drag, as Prestero (2001) added
them to REMUS 100's hull.

A fin (:class:`Fin`) is a flat lifting surface whose plane contains the hull's axis: its centre
of pressure ``c = p_BoFp_B``, its unit normal ``n = normal_B`` (the direction it lifts along),
its planform ``area`` ``S`` and its lift slope ``C_Lα`` (per radian). A pair of opposite fins
that act as one wing through the hull (a rudder pair, a stern-plane pair) is one surface of
their planform. The normal velocity of the fin is ``v_n = n·(v + ω × c) = J·s`` with
``J = [n; c × n]`` and ``s = [u v w p q r]`` the link origin's velocity in link axes.

* **Lift** at a small angle of attack ``α ≈ v_n/U``: ``L = ½ρ C_Lα S α U² = ½ρ C_Lα S U v_n``,
  opposing ``v_n``. A symmetric plate lifts the same way in either direction of travel, so the
  force is ``F = -½ρ C_Lα S |u_a| v_n n`` with ``u_a`` the axial speed of the link origin, and
  its moment about Bo is ``c × F``. That is linear in each velocity times the axial speed:
  gz-sim's Hydrodynamics system applies it exactly with the terms ``<iJabsA>`` (``A`` the
  hull's axis, ``Q_ijA = -½ρ C_Lα S g_i J_j`` with ``g = J``: ``yVabsU``, ``nVabsU``,
  ``yRabsU``, ``nRabsU``, ... for a hull along x), and only when the hull's axis is a link
  axis (otherwise no single ``|s_k|`` is the axial speed: the lift is left out, and said). The
  terms reverse with the motion (``w(-s) = -w(s)``), so they are written; the signed
  ``<iJK>`` terms (``yUV``) would carry Prestero's ``Y_uv·u·v`` too, but push the wrong way
  when the vehicle backs, and gz-sim warns that they may make a simulation unstable
  (gazebosim/gz-sim#1888).
* **Cross-flow drag** of the fin moving along its normal: ``F = -½ρ C_df S |v_n| v_n n``
  (Prestero's fin cross-flow term, ``C_df`` = :data:`FIN_CROSS_FLOW_CD`), a quadratic drag
  that adds to the strip wrench (:func:`fin_drag_wrench`).

The lift slope of a low aspect-ratio fin (:func:`lift_slope`) is Whicker and Fehlner's
(1958) formula as Hoerner (*Fluid-Dynamic Lift*, 1985) gives it for unswept surfaces,
``C_Lα = 1.8π A / (1.8 + √(A² + 4))``, ``A`` the effective aspect ratio (twice the geometric
one for a fin on a hull, which acts as a reflection plane).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gzinertia.hydrodynamics_terms import quadratic_term
from gzinertia.physics.damping_record import ROUND_OFF, Wrench
from gzinertia.record_base import ValueRecord

FloatArray = NDArray[np.float64]

__all__ = [
    "FIN_CROSS_FLOW_CD",
    "Fin",
    "fin_drag_wrench",
    "fin_lift_terms",
    "fin_lift_wrench",
    "lift_axis",
    "lift_slope",
]

#: The cross-flow drag coefficient of a fin moving along its normal, the value Prestero (2001)
#: used for REMUS 100's fins (a low aspect-ratio flat plate, Hoerner 1965).
FIN_CROSS_FLOW_CD = 0.56


@dataclass(frozen=True, repr=False, eq=False)
class Fin(ValueRecord):
    """A lifting surface in link frame B (module docstring): centre of pressure ``p_BoFp_B``
    (m), unit normal ``normal_B``, planform ``area`` (m²), ``lift_slope`` ``C_Lα`` (1/rad),
    ``cross_flow_cd`` ``C_df`` and a ``name`` for the words."""

    p_BoFp_B: FloatArray
    normal_B: FloatArray
    area: float
    lift_slope: float
    cross_flow_cd: float = FIN_CROSS_FLOW_CD
    name: str = "fin"

    def __post_init__(self) -> None:
        c = np.asarray(self.p_BoFp_B, dtype=float)
        n = np.asarray(self.normal_B, dtype=float)
        if c.shape != (3,) or not np.all(np.isfinite(c)):
            raise ValueError(f"fin {self.name!r}: p_BoFp_B must be 3 finite numbers, got {c}")
        if n.shape != (3,) or not abs(float(np.linalg.norm(n)) - 1.0) < 1e-9:
            raise ValueError(f"fin {self.name!r}: normal_B must be a unit vector, got {n}")
        for what in ("area", "lift_slope", "cross_flow_cd"):
            value = getattr(self, what)
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(f"fin {self.name!r}: {what} must be finite and not negative, "
                                 f"got {value!r}")
        object.__setattr__(self, "p_BoFp_B", c)
        object.__setattr__(self, "normal_B", n)

    @property
    def J(self) -> FloatArray:
        """``[n; c × n]``: the fin's normal velocity is ``J·s`` for the velocity ``s``."""
        n = np.asarray(self.normal_B, dtype=float)
        return np.concatenate([n, np.cross(np.asarray(self.p_BoFp_B, dtype=float), n)])


def lift_slope(aspect_ratio: float) -> float:
    """Whicker and Fehlner's lift slope (1/rad) of an unswept surface of effective
    ``aspect_ratio`` ``A``: ``1.8π A / (1.8 + √(A² + 4))``."""
    return 1.8 * math.pi * aspect_ratio / (1.8 + math.sqrt(aspect_ratio**2 + 4.0))


def lift_axis(axis_B: FloatArray) -> int | None:
    """The link axis (0, 1, 2 for x, y, z) the hull's unit ``axis_B`` lies along, ``None`` when
    it lies along none (within :data:`~gzinertia.physics.damping_record.ROUND_OFF`)."""
    i = int(np.argmax(np.abs(axis_B)))
    return i if abs(float(axis_B[i])) >= 1.0 - ROUND_OFF else None


def fin_lift_wrench(fins: Sequence[Fin], axis_B: FloatArray, density: float) -> Wrench:
    """The fins' lift ``[X Y Z K M N]`` at Bo in B axes from the velocity ``s`` (module
    docstring), the axial speed ``|a·v|`` taken at the link origin along the unit ``axis_B``."""
    a = np.asarray(axis_B, dtype=float)

    def wrench(s: FloatArray) -> FloatArray:
        speed = abs(float(a @ s[:3]))
        total = np.zeros(6)
        for fin in fins:
            J = fin.J
            total -= 0.5 * density * fin.lift_slope * fin.area * speed * float(J @ s) * J
        return total

    return wrench


def fin_lift_terms(fins: Sequence[Fin], axis: int, density: float) -> dict[str, float]:
    """The gz-sim Hydrodynamics terms ``<iJabsA>`` (``A`` the link axis ``axis`` the hull lies
    along) that apply the fins' lift exactly: ``Q_ijA = -Σ ½ρ C_Lα S J_i J_j``,
    Fossen-negative, about Bo in B axes; terms below round-off left out."""
    Q = np.zeros((6, 6))
    for fin in fins:
        J = fin.J
        Q -= 0.5 * density * fin.lift_slope * fin.area * np.outer(J, J)
    floor = ROUND_OFF * float(np.max(np.abs(Q))) if Q.size else 0.0
    return {quadratic_term(i, j, axis): float(Q[i, j])
            for j in range(6) for i in range(6) if abs(Q[i, j]) > floor}


def fin_drag_wrench(fins: Sequence[Fin], density: float) -> Wrench:
    """The fins' cross-flow drag ``[X Y Z K M N]`` at Bo in B axes from the velocity ``s``:
    ``-½ρ C_df S |v_n| v_n`` along each fin's normal, with its moment ``c × F``."""

    def wrench(s: FloatArray) -> FloatArray:
        total = np.zeros(6)
        for fin in fins:
            J = fin.J
            v_n = float(J @ s)
            total -= 0.5 * density * fin.cross_flow_cd * fin.area * abs(v_n) * v_n * J
        return total

    return wrench
