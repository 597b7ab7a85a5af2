"""What a damping estimate from geometry is: the record the methods return and the one way
their wrench becomes Gazebo Hydrodynamics terms.

Every method (:mod:`gzinertia.physics.damping_strip`, :mod:`gzinertia.physics.damping_morison`)
computes a quadratic drag wrench ``w(s)`` at the link origin Bo in link axes B, from the link's
velocity ``s = [u v w p q r]`` (linear-first, link axes, the origin's velocity relative to the
fluid), homogeneous of degree 2: ``w(t·s) = t·|t|·w(s)``. Gazebo's Hydrodynamics system
applies ``wrench_i = Σ_j Σ_k Q_ijk·|s_k|·s_j`` (:mod:`gzinertia.physics.hydro_damping`), so for
a motion along one axis ``s = t·e_j`` it applies ``Q_ijj·|t|·t``: the terms ``<iJabsJ>`` equal
to ``w_i(e_j)`` reproduce the method's whole wrench (all six components, couplings included)
for every single-axis motion (:func:`single_axis_terms`). Combined motions are approximate:
the methods' drag depends on the speed of the combined motion, the plugin's on each
component's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from gzinertia.hydrodynamics_terms import FORCE_AXES, VELOCITY_AXES, quadratic_term
from gzinertia.physics.negligible import exponent_scales
from gzinertia.record_base import ValueRecord

__all__ = [
    "DAMPING_CHOICES",
    "DAMPING_METHODS",
    "NEGLIGIBLE",
    "ROUND_OFF",
    "DampingChoice",
    "DampingEstimate",
    "DampingMethod",
    "Wrench",
    "single_axis_terms",
    "unreversed_share",
]

#: The methods that estimate damping from a link's geometry, and MuJoCo's ellipsoid model.
DampingMethod = Literal["strip", "morison", "mujoco"]
#: What a user may ask for: a method, or ``auto`` (chosen per link from its shape).
DampingChoice = Literal["strip", "morison", "mujoco", "auto"]
DAMPING_METHODS: tuple[DampingMethod, ...] = ("strip", "morison", "mujoco")
DAMPING_CHOICES: tuple[DampingChoice, ...] = ("strip", "morison", "mujoco", "auto")

#: A wrench ``[X Y Z K M N]`` (N, N·m) at Bo in B axes from a velocity ``[u v w p q r]``.
Wrench = Callable[[NDArray[np.float64]], NDArray[np.float64]]

#: A term below this fraction of its unit's reference magnitude is not written: below the
#: precision of the geometry it comes from (a pose's π/2 written as 1.570796327 tilts an axis by
#: 2e-10 rad, and the couplings that makes are not the author's).
ROUND_OFF = 1e-9
#: The same for integrals over panels (one point per panel, round shapes tessellated), whose
#: quadrature noise is about this size, far below every method's band.
NEGLIGIBLE = 1e-4


@dataclass(frozen=True, repr=False, eq=False)
class DampingEstimate(ValueRecord):
    """A link's quadratic damping estimated from its geometry.

    ``terms``: Gazebo Hydrodynamics parameters ``<iJabsJ>`` (``xUabsU``, ``mWabsW``, ...):
    about the link origin Bo, in link axes B, Fossen-negative as gz-sim reads them (a term
    opposing the motion is negative), units kg/m (force from translation), kg (moment from
    translation), kg·m (force from rotation), kg·m² (moment from rotation); zero terms are left
    out.
    ``method`` names the method, ``title`` says it in words with its parameters; ``reason`` why
    it was used (asked for, or chosen from the shape); ``band`` the relative uncertainty the
    literature gives the method (``0.3`` for ±30 %); ``assumptions``, ``validity`` and
    ``sources`` what the numbers rest on, in words; ``outside`` what of the link lies outside the
    method's validity (empty when nothing does), each said as a warning by ``hydro``."""

    method: DampingMethod
    title: str
    terms: Mapping[str, float]
    reason: str
    band: float
    assumptions: tuple[str, ...]
    validity: str
    sources: tuple[str, ...]
    outside: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line: the method, why, and the band."""
        return f"{self.title} ({self.reason}); uncertainty +-{100 * self.band:.0f} %"


def _length_exponent(i: int, j: int) -> int:
    """Powers of metres the term ``<iJabsJ>`` has beyond kg/m: 1 per moment row, 2 per
    angular velocity column (``|j|·j``)."""
    return int(i >= 3) + 2 * int(j >= 3)


def _odd_and_even(wrench: Wrench) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``W[i, j]``: the part of ``w_i(±e_j)`` that reverses with the motion, and the part that
    does not."""
    ahead = np.array([wrench(np.eye(6)[j]) for j in range(6)]).T
    back = np.array([wrench(-np.eye(6)[j]) for j in range(6)]).T
    return 0.5 * (ahead - back), 0.5 * (ahead + back)


def single_axis_terms(wrench: Wrench, floor: float = ROUND_OFF) -> dict[str, float]:
    """The ``<iJabsJ>`` terms (rows ``i`` in ``xyzkmn``, columns ``J`` in ``UVWPQR``) with which
    gz-sim's Hydrodynamics applies ``wrench`` (at Bo, B axes, homogeneous of degree 2 in the
    velocity) for motion along or about each link axis: ``Q_ijj = ½(w_i(e_j) - w_i(-e_j))``,
    exactly the wrench when it reverses with the motion (``w(-s) = -w(s)``, a body symmetric
    about its centre), its reversing part otherwise (:func:`unreversed_share` says how much is
    left out). Terms below ``floor`` times the largest of their unit (:data:`ROUND_OFF`, or
    :data:`NEGLIGIBLE` for panel integrals) are left out."""
    W, _ = _odd_and_even(wrench)
    exponents = np.array([[_length_exponent(i, j) for j in range(6)] for i in range(6)])
    scales = exponent_scales(W, exponents, 3)
    return {
        quadratic_term(i, j): float(W[i, j])
        for j in range(len(VELOCITY_AXES))
        for i in range(len(FORCE_AXES))
        if abs(W[i, j]) > floor * scales[i, j]
    }


def unreversed_share(wrench: Wrench) -> float:
    """How much of ``wrench`` along or about the link axes does not reverse with the motion
    (a face-on tilted member's moment, the same for ``+u`` and ``-u``), which the plugin's
    ``|k|·j`` terms cannot apply: the largest ``|w_i(e_j) + w_i(-e_j)|/2`` over the largest
    ``|w_i(±e_j)|`` of the same unit, 0 for a wrench that reverses."""
    odd, even = _odd_and_even(wrench)
    exponents = np.array([[_length_exponent(i, j) for j in range(6)] for i in range(6)])
    scales = exponent_scales(np.abs(odd) + np.abs(even), exponents, 3)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(scales > 0.0, np.abs(even) / scales, 0.0)
    return float(np.max(share))
