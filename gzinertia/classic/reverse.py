"""A link's gz-sim hydrodynamics as a classic plugin block: the mathematics of ``gzinertia migrate
--to uuv-simulator`` (the inverse of :mod:`gzinertia.classic.migrate`, whose conventions it
inverts: ``T`` from :func:`~gzinertia.classic.migrate.at_origin`, ``F`` =
:data:`~gzinertia.classic.uuv.NED_FLIP`).

Points, axes, ordering: every matrix is **linear-first** ``[u v w p q r]``. gz-sim's added mass
``A`` (``<fluid_added_mass>``, or the Hydrodynamics plugin's ``-sym(<iDotJ>)``) and its terms
``L`` (``<iJ>``) and ``Qabs`` (``<iJabsK>``) are about the link origin Bo in link axes; UUV
Simulator's matrices are in its flipped axes, their force applied at the centre of mass Bcm.
The forward direction writes ``A = sym(T·F·Ma·F)``, ``L = T·F·DLin·F``,
``Qabs_{·,j,j} = T·DQuad_j·e_j``; hence here

* ``Ma = sym(F·T⁻¹·A·F)``: exact when the centre of mass is at the origin (``T = 1``); else
  the skew part of ``F·T⁻¹·A·F`` (which no symmetric ``<added_mass>`` holds; the plugin's own
  rules, GZI501, flag an asymmetric one) is lost, its size reported;
* ``DLin = F·T⁻¹·L·F``: exact (36 values);
* ``DQuad_j = (T⁻¹·Qabs_{·,j,j})_j``: the plugin applies a diagonal quadratic damping only, so
  the rest of ``T⁻¹·Qabs_{·,j,j}`` and every ``<iJabsK>`` with ``j ≠ k`` have no cell: reported
  by name and value, as are gz-sim's signed quadratic ``<iJK>`` terms (whose meaning changed
  between releases, gazebosim/gz-sim#1784 and #1888).

``T⁻¹ = [[1, 0], [-[p]×, 1]]`` (``p = p_BoBcm_B``). The buoyancy the plugin floats is the
collisions' volume (what gz-sim's Buoyancy system floats) at their centroid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from gzinertia.classic.migrate import at_origin
from gzinertia.classic.uuv import NED_FLIP
from gzinertia.hydrodynamics_terms import TERM_PARTS, VELOCITY_AXES, linear_term, quadratic_term
from gzinertia.record_base import Record

__all__ = ["UuvBlock", "uuv_block"]

#: Below this relative size a left-over is round-off, not a term the plugin cannot hold.
_NEGLIGIBLE = 1e-12


@dataclass(frozen=True, repr=False, eq=False)
class UuvBlock(Record):
    """A UUV Simulator ``fossen`` link block equivalent to a link's gz-sim hydrodynamics.

    ``Ma``, ``D_lin``, ``D_fwd`` (``<linear_damping_forward_speed>``, from the signed
    ``<iJU>`` terms): 6x6, linear-first, the plugin's flipped axes, about Bo (applied at
    Bcm); ``D_quad``: the 6 diagonal values; ``volume`` (m³) and ``p_BcmC_B`` (the centre of
    buoyancy from the centre of mass, link axes, m): the collisions' volume and centroid;
    ``added_mass_gap``: the largest wrench difference per unit acceleration between gz-sim's
    added mass and the plugin's (the skew part lost); ``unexpressed``: gz-sim terms the
    plugin has no cell for, name → value (the part left over, gz-sim's sign)."""

    link: str
    Ma: np.ndarray
    D_lin: np.ndarray
    D_fwd: np.ndarray
    D_quad: np.ndarray
    volume: float
    p_BcmC_B: np.ndarray
    added_mass_gap: float
    unexpressed: dict[str, float]


def _from_origin(p_BoBcm_B: np.ndarray) -> np.ndarray:
    """``T⁻¹``: a wrench about Bo as the same wrench applied at Bcm."""
    return at_origin(-np.asarray(p_BoBcm_B, dtype=float))


def _quadratic(terms: Mapping[str, float], p_BoBcm_B: np.ndarray, scale: float
               ) -> tuple[np.ndarray, dict[str, float]]:
    """The plugin's quadratic diagonal from ``<iJabsK>`` terms, and what has no cell (the
    left-over moved back to Bo: gz-sim terms)."""
    Q = np.zeros((6, 6))  # Q[:, j]: the column of |s_j|·s_j
    unexpressed: dict[str, float] = {}
    for name, value in terms.items():
        parts = TERM_PARTS.match(name)
        if parts is None or parts.group(2) is not None or parts.group(4) is None:
            continue
        row, j, k = ("xyzkmn".index(parts.group(1)), VELOCITY_AXES.index(parts.group(3)),
                     VELOCITY_AXES.index(parts.group(4)))
        if j == k:
            Q[row, j] = value
        else:
            unexpressed[name] = value
    at_bcm = _from_origin(p_BoBcm_B) @ Q
    D_quad = np.diag(at_bcm).copy()
    back = at_origin(p_BoBcm_B) @ (at_bcm - np.diag(D_quad))
    for i in range(6):
        for j in range(6):
            if abs(back[i, j]) > _NEGLIGIBLE * scale:
                unexpressed[quadratic_term(i, j)] = float(back[i, j])
    return D_quad, unexpressed


def uuv_block(link: str, A_BBo_B: np.ndarray, terms: Mapping[str, float],
              signed_quadratic: Mapping[str, float], p_BoBcm_B: np.ndarray,
              volume: float, centroid_B: np.ndarray) -> UuvBlock:
    """The UUV Simulator block of a link with gz-sim added mass ``A_BBo_B`` (6x6,
    linear-first, about Bo in link axes, symmetric) and Hydrodynamics ``terms`` (``<iJ>``,
    ``<iJabsK>``; ``<iDotJ>`` are not read here: give them as ``A_BBo_B``) and
    ``signed_quadratic`` (``<iJK>``: the ``<iJU>`` ones are the forward-speed damping, the
    others have no cell), the centre of mass ``p_BoBcm_B`` and
    the collisions' ``volume`` and ``centroid_B`` (from Bo, link axes): module docstring."""
    F = NED_FLIP
    p = np.asarray(p_BoBcm_B, dtype=float)
    T_inv = _from_origin(p)
    exact = F @ T_inv @ np.asarray(A_BBo_B, dtype=float) @ F
    Ma = 0.5 * (exact + exact.T)
    skew_part = 0.5 * (exact - exact.T)
    L = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            L[i, j] = terms.get(linear_term(i, j), 0.0)
    scale = max((abs(v) for v in terms.values()), default=0.0) or 1.0
    D_quad, unexpressed = _quadratic(terms, p, scale)
    Q0 = np.zeros((6, 6))  # Q0[i, j]: <iJU>, u·s_j in row i
    for name, value in signed_quadratic.items():
        if value == 0.0:
            continue
        if name[2] == VELOCITY_AXES[0]:
            Q0["xyzkmn".index(name[0]), VELOCITY_AXES.index(name[1])] = float(value)
        else:
            unexpressed[name] = float(value)
    return UuvBlock(link, Ma, F @ T_inv @ L @ F, F @ T_inv @ Q0 @ F, D_quad, float(volume),
                    np.asarray(centroid_B, dtype=float) - p,
                    float(np.linalg.norm(at_origin(p) @ F @ skew_part @ F, 2)), unexpressed)
