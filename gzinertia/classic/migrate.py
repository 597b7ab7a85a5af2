"""The gz-sim equivalent of a classic marine plugin's link block, exactly: the mathematics of
``gzinertia migrate`` (the edit that writes it is :mod:`gzinertia.edit.migrate`).

Points, axes, ordering: every matrix here is **linear-first** ``[u v w p q r]``, about the link
origin Bo, in link axes B; ``s`` is the link origin's velocity relative to the current in link
axes. ``T = [[1, 0], [[p]×, 1]]`` (``p = p_BoBcm_B``) moves a wrench applied at the centre of
mass to the same wrench about Bo; ``F = diag(1, -1, -1, 1, -1, -1)`` is UUV Simulator's flip
(:data:`gzinertia.classic.uuv.NED_FLIP`, a rotation by π about x, so ``F⁻¹ = F``).

gz-sim's Hydrodynamics system applies, at Bo in link axes, ``L·s + Σ_k (Qabs_·,·,k·|s_k| +
Q_·,·,k·s_k)·s`` (``L`` from ``<iJ>``, ``Qabs`` from ``<iJabsK>``, ``Q`` from ``<iJK>``, gz-sim 8
and later: gazebosim/gz-sim#1888; Fossen-negative values dissipate). DART, with
``<fluid_added_mass>`` ``A`` added to the link's spatial inertia about Bo, applies ``-A·ṡ`` and
Kirchhoff's Coriolis wrench of ``A`` (:func:`gzinertia.gazebo.hydro_coriolis.
kirchhoff_coriolis_wrench`) on the link's velocity.

* UUV Simulator (``τ = DLin·ν + u·DFwd·ν + diag(DQuad)·|ν|∘ν - Ma·a - Ca(ν)·ν``, ``ν = F·s``,
  applied at Bcm after the flip back): ``L = T·F·DLin·F``, ``Qabs_{i,j,j} = (T·diag(DQuad))_{ij}``
  (``|F·s| = |s|`` and diagonal matrices commute with ``F``), ``Q_{i,j,0} = (T·F·DFwd·F)_{ij}``
  (``u = s_0``), added mass ``T·F·Ma·F`` (:func:`gzinertia.classic.uuv.added_mass_Bo_B`).
* VRX (``-Ma·ν̇ - D(ν)·ν`` with positive terms, ``ν = s`` without current, at Bcm):
  ``L = -T·diag(xU…)``, ``Qabs_{i,j,j} = -(T·diag(xUU…))_{ij}``, added mass ``T·diag(xDotU…)``.

What cannot be exact is measured, never dropped: ``<fluid_added_mass>`` is symmetric, so the
skew part of the exact matrix is lost (:attr:`GzEquivalent.added_mass_gap`: the largest wrench
difference per unit acceleration, N per m/s²); DART's Coriolis wrench of the symmetric matrix
against the plugin's own (:attr:`GzEquivalent.coriolis_gap`); the forward-speed terms ``Q`` need
``<iJK>`` names whose meaning changed between gz-sim releases (#1784, #1888).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from gzinertia.classic.uuv import NED_FLIP, UuvLink, added_mass_Bo_B
from gzinertia.classic.vrx import VrxDynamics
from gzinertia.gazebo.hydro_coriolis import (
    kirchhoff_coriolis_wrench,
    representative_velocities,
)
from gzinertia.hydrodynamics_terms import FORCE_AXES, VELOCITY_AXES, linear_term, quadratic_term
from gzinertia.record_base import Record
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import skew

__all__ = [
    "GzEquivalent",
    "at_origin",
    "forward_term",
    "gz_terms",
    "quadratic_rows",
    "unit_velocities",
    "uuv_equivalent",
    "vrx_equivalent",
]

def at_origin(p_BoBcm_B: np.ndarray) -> np.ndarray:
    """``T = [[1, 0], [[p]×, 1]]`` (6x6, linear-first): ``T·w`` is a wrench ``w = [f; t]``
    applied at the centre of mass (``p = p_BoBcm_B``, link axes) as the same wrench about Bo."""
    T = np.eye(6)
    T[3:, :3] = skew(np.asarray(p_BoBcm_B, dtype=float))
    return T


def forward_term(i: int, j: int) -> str:
    """``<iJU>``, the Hydrodynamics term ``Q_{i,j,0}`` (``u·s_j`` in row ``i``), as gz-sim 8 and
    later read it (before gazebosim/gz-sim#1784 ``<xUU>`` meant ``|u|·u``)."""
    return f"{FORCE_AXES[i]}{VELOCITY_AXES[j]}{VELOCITY_AXES[0]}"


def gz_terms(L: np.ndarray, Qabs: np.ndarray, Q0: np.ndarray) -> tuple[dict[str, float],
                                                                        dict[str, float]]:
    """The Hydrodynamics terms of ``L`` (``<iJ>``), ``Qabs`` (``Qabs[i, j]`` is
    ``Qabs_{i,j,j}``: ``<iJabsJ>``) and ``Q0`` (``Q0[i, j]`` is ``Q_{i,j,0}``: ``<iJU>``), the
    non-zero ones only, row by row: ``(damping, forward_speed)``."""
    damping: dict[str, float] = {}
    for i in range(6):
        for j in range(6):
            if L[i, j] != 0.0:
                damping[linear_term(i, j)] = float(L[i, j])
    for i in range(6):
        for j in range(6):
            if Qabs[i, j] != 0.0:
                damping[quadratic_term(i, j)] = float(Qabs[i, j])
    forward = {forward_term(i, j): float(Q0[i, j])
               for i in range(6) for j in range(6) if Q0[i, j] != 0.0}
    return damping, forward


@dataclass(frozen=True, repr=False, eq=False)
class GzEquivalent(Record):
    """A classic link block's gz-sim equivalent, about Bo in link axes (module docstring).

    ``A_BBo_B_exact``: the added mass the plugin applies (``-A_BBo_B_exact·a``), about Bo in
    link axes, 6x6 linear-first, not necessarily symmetric; ``damping``: Hydrodynamics ``<iJ>``
    and ``<iJabsJ>`` terms, gz-sim's sign; ``forward_speed``: ``<iJU>`` terms (``Q_{i,j,0}``);
    ``source_coriolis``: whether the plugin applies an added-mass Coriolis wrench (UUV: yes,
    VRX: no); ``Ma_F``, ``T_BoBcm``: the plugin's added mass in its own (flipped) axes and the
    change of point of a wrench from Bcm to Bo, for the Coriolis comparison."""

    link: str
    A_BBo_B_exact: np.ndarray
    damping: dict[str, float]
    forward_speed: dict[str, float]
    source_coriolis: bool
    Ma_F: np.ndarray
    T_BoBcm: np.ndarray
    flip: np.ndarray = field(default_factory=lambda: NED_FLIP)

    @property
    def terms(self) -> dict[str, float]:
        """Every Hydrodynamics term written: :attr:`damping` and :attr:`forward_speed` (the
        plugin's law exactly, astern too: UUV's ``-D_fs·u·ν`` is ``<iJU>``'s ``u·s_j``)."""
        return {**self.damping, **self.forward_speed}

    @property
    def A_BBo_B(self) -> AddedMass:
        """The ``<fluid_added_mass>`` written: the symmetric part of :attr:`A_BBo_B_exact`."""
        A = self.A_BBo_B_exact
        return AddedMass(0.5 * (A + A.T), ordering="linear-first")

    @property
    def added_mass_gap(self) -> float:
        """``max_a |(A_BBo_B_exact - A_BBo_B)·a| / |a|``: the skew part's spectral norm (N per
        m/s² mixed with N·m per rad/s², as the 6-vectors are), 0 when :attr:`A_BBo_B_exact` is
        symmetric."""
        skew_part = 0.5 * (self.A_BBo_B_exact - self.A_BBo_B_exact.T)
        return float(np.linalg.norm(skew_part, 2))

    def source_coriolis_wrench(self, s: np.ndarray) -> np.ndarray:
        """The plugin's added-mass Coriolis wrench about Bo in link axes (``[f; t]``) for the
        link origin's velocity ``s`` relative to the current (0 for VRX)."""
        if not self.source_coriolis:
            return np.zeros(6)
        F = self.flip
        result: np.ndarray = self.T_BoBcm @ F @ kirchhoff_coriolis_wrench(self.Ma_F, F @ s)
        return result

    def dart_coriolis_wrench(self, s: np.ndarray) -> np.ndarray:
        """What DART applies for :attr:`A_BBo_B` at velocity ``s`` (Kirchhoff's coupling)."""
        return kirchhoff_coriolis_wrench(self.A_BBo_B.linear_first(), s)

    @functools.cached_property
    def coriolis_gap(self) -> float:
        """The largest ``|source - DART|`` Coriolis wrench over the unit velocities of
        :func:`unit_velocities`, relative to the largest of the two over the same velocities
        (0: they coincide, as for a symmetric ``Ma`` with the centre of mass at the origin)."""
        velocities = unit_velocities()
        source = quadratic_rows(self.source_coriolis_wrench, velocities)
        dart = quadratic_rows(self.dart_coriolis_wrench, velocities)
        scale = max(float(np.max(np.linalg.norm(source, axis=1))),
                    float(np.max(np.linalg.norm(dart, axis=1))))
        if scale == 0.0:
            return 0.0
        return float(np.max(np.linalg.norm(source - dart, axis=1)) / scale)


def quadratic_rows(wrench: Callable[[np.ndarray], np.ndarray],
                   velocities: np.ndarray) -> np.ndarray:
    """``wrench(s)`` for every row ``s`` of ``velocities``, for a wrench quadratic in ``s`` (a
    Coriolis wrench): its 6x6x6 form from 21 evaluations (polarisation), then one contraction,
    exact to round-off."""
    E = np.eye(6)
    H = np.zeros((6, 6, 6))
    for j in range(6):
        H[j, j] = wrench(E[j])
        for k in range(j):
            H[j, k] = H[k, j] = 0.5 * (wrench(E[j] + E[k]) - H[j, j] - H[k, k])
    return np.asarray(np.einsum("nj,nk,jki->ni", velocities, velocities, H))


def unit_velocities() -> np.ndarray:
    """The unit velocities (rows, linear-first) :attr:`GzEquivalent.coriolis_gap` is taken
    over: :func:`~gzinertia.gazebo.hydro_coriolis.representative_velocities` of the identity."""
    return representative_velocities(np.eye(6))


def uuv_equivalent(link: UuvLink, p_BoBcm_B: np.ndarray) -> GzEquivalent:
    """The gz-sim equivalent of a UUV Simulator link block (``p_BoBcm_B``: the link's centre of
    mass from its origin in link axes, where the plugin applies its force)."""
    T = at_origin(p_BoBcm_B)
    F = NED_FLIP
    L = T @ F @ link.D_lin @ F
    Qabs = T @ np.diag(np.diag(link.D_quad))
    Q0 = T @ F @ link.D_forward @ F
    damping, forward = gz_terms(L, Qabs, Q0)
    return GzEquivalent(link.link, added_mass_Bo_B(link, p_BoBcm_B), damping, forward, True,
                        np.asarray(link.Ma, dtype=float), T)


def vrx_equivalent(plugin: VrxDynamics, p_BoBcm_B: np.ndarray) -> GzEquivalent:
    """The gz-sim equivalent of a VRX USV dynamics block (positive terms at Bcm → gz-sim's
    negative terms about Bo)."""
    T = at_origin(p_BoBcm_B)
    L = -T @ np.diag(plugin.linear)
    Qabs = -T @ np.diag(plugin.quadratic)
    damping, forward = gz_terms(L, Qabs, np.zeros((6, 6)))
    return GzEquivalent(plugin.link, T @ plugin.Ma, damping, forward, False, plugin.Ma, T)
