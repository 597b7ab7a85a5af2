"""Do two ellipsoids overlap? Perram–Wertheim contact function (seed 002, shared DESIGN.md §6).

Every quantity is expressed in one common frame ``W``. An ellipsoid ``E`` with semi-axes
``(e₁, e₂, e₃)`` along the columns ``u_i`` of ``R_WE``, centred at ``Eo`` (``p_WEo``), is the set
``{x : (x - p_WEo)ᵀ·S_E·(x - p_WEo) ≤ 1}`` with the *shape matrix* ``S_E = Σ e_i⁻² u_i u_iᵀ``
(the seed writes ``e_i⁻¹``; ``e_i⁻²`` is meant). For ellipsoids ``A`` and ``B`` and
``r = p_AoBo_W`` (from A's centre to B's):

* ``G(λ) = (1 - λ)·S_A⁻¹ + λ·S_B⁻¹`` and ``S(λ) = λ(1 - λ)·rᵀ G(λ)⁻¹ r`` for ``λ ∈ [0, 1]``.
* ``F = max S(λ)`` (Perram & Wertheim 1985). ``F < 1``: they overlap; ``F = 1``: externally
  tangent; ``F > 1``: disjoint. ``√F`` is the factor by which both ellipsoids' semi-axes must be
  scaled about their own centres to make them tangent (two unit spheres 4 apart: ``F = 4``).
* At the maximiser ``Λ``: ``n = G(Λ)⁻¹ r`` is normal to both scaled surfaces (outward from A,
  i.e. pointing from A to B), and the contact point ``x_c = p_WAo + (1 - Λ)·S_A⁻¹ n =
  p_WBo - Λ·S_B⁻¹ n`` lies on both ellipsoids once they are scaled by ``√F`` (Donev et al. 2005,
  eq. 18). For overlapping ellipsoids ``x_c`` is inside both, on the boundary of neither.

How it is computed (exactly, then vectorised over any number of pairs): the affine map
``x ↦ diag(1/a)·R_WAᵀ·(x - p_WAo)`` turns A into the unit sphere and B into an ellipsoid whose
inverse shape matrix ``C = M Mᵀ``, ``M = diag(1/a)·R_WAᵀ·R_WB·diag(b)``, is ``Q·diag(μ)·Qᵀ``
(from the SVD ``M = Q·diag(σ)·Vᵀ``, ``μ = σ²``). With ``z = Qᵀ·diag(1/a)·R_WAᵀ·r``::

    S(λ)   = λ(1 - λ)·Σ z_i² / d_i,            d_i = 1 - λ + λ μ_i
    S'(λ)  = Σ z_i² ((1 - λ)² - λ² μ_i) / d_i²
    S''(λ) = -2 Σ z_i² μ_i / d_i³ < 0.

So ``S`` is strictly concave, ``S'(0) = |z|² > 0 > S'(1)``, and ``Λ`` is the single root of
``S'``. It is found by Newton's method on ``S'`` guarded by a shrinking bracket (bisection when
a step leaves it). The seed's Brent maximisation of ``S`` gets ``F`` to ~1e-13 but ``Λ`` only to
~1e-7 (the maximum is flat); the root of ``S'`` comes out to ~1e-14 relative (checked against
40-digit mpmath), which the contact point and normal need. When ``Λ > ½`` the same equation
is solved for ``1 - Λ`` with the roles of A and B exchanged (``z_i² → z_i²/μ_i``,
``μ_i → 1/μ_i``), so both ``Λ`` and ``1 - Λ`` keep their relative precision even when one
ellipsoid is much smaller than the other.

Penetration depth: the seed (Woo) estimates it as ``d·(1/√F - 1)·(r̂·n̂)``, ``d = |r|``. The
first factor is exact for any two ellipsoids: moving B along ``r`` by ``d·(1/√F - 1)`` makes
them tangent (scaling the sizes by ``√F`` at fixed centres is the same shape as scaling the
centre distance by ``1/√F`` at fixed sizes). The projection on ``n̂`` turns that into an
estimate of the depth along the normal, exact for spheres only. It is never below the true
penetration depth (the minimum translation that separates them): after that centre-line move
the tangent plane at the contact has normal ``n̂`` (a similarity keeps normals), so it is a
supporting plane of the Minkowski difference ``B - A`` at distance ``depth`` from the origin,
and the boundary of ``B - A`` is no farther than that. Likewise, for disjoint ellipsoids
``-depth`` is never above the true gap. Measured errors are in ``docs/overlap.md``.

Coincident centres (``r = 0``): ``F = 0`` (they overlap), but ``Λ``, the normal and the depth
are undefined there and are returned as NaN; the point is the common centre.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.physics.ellipsoid import PosedEllipsoid
from gzinertia.physics.forwarding import returning_part
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Vec3, frozen

FloatArray = NDArray[np.float64]

# Newton iterations on S' converge quadratically from the bracketed start; bisection fallbacks
# halve the bracket. 100 steps bound the worst case (the bracket is below 1 ulp long after ~60).
_MAX_STEPS: Final[int] = 100


@dataclass(frozen=True, repr=False, eq=False)
class Contact(ValueRecord):
    """Perram–Wertheim contact of ellipsoids A and B (all vectors in W).

    :ivar F: the contact function ``max_λ S(λ)``, ``λ ∈ [0, 1]``; ``√F`` scales both ellipsoids'
        semi-axes (about their centres) to tangency.
    :ivar lam: the maximiser ``Λ`` (NaN if the centres coincide).
    :ivar overlap: ``F < 1``.
    :ivar normal_W: unit contact normal, outward from A, i.e. from A towards B (NaN if the centres
        coincide).
    :ivar point_W: contact point ``p_WAo + (1 - Λ)·S_A⁻¹ n``, measured from Wo: on both surfaces
        after scaling by ``√F`` (inside both when they overlap).
    :ivar depth: Woo's penetration depth estimate ``d·(1/√F - 1)·(r̂·n̂)``, ``d = |p_AoBo|``:
        positive when they overlap, negative (minus a gap estimate) when not. Exact for
        spheres; otherwise an upper bound of the true depth (and ``-depth`` a lower bound
        of the gap): median excess 0.7 %, worst seen 190 % (``docs/overlap.md``).
    """

    F: float
    lam: float
    overlap: bool
    normal_W: Vec3
    point_W: Vec3
    depth: float


@dataclass(frozen=True, repr=False, eq=False)
class Contacts(ValueRecord):
    """:class:`Contact` fields for many pairs at once: arrays with leading shape ``(...)``.

    ``F``, ``lam``, ``depth`` and ``overlap`` have shape ``(...)``; ``normal_W`` and ``point_W``
    have shape ``(..., 3)``. Same meaning, frame and NaN conventions as :class:`Contact`.
    """

    F: FloatArray
    lam: FloatArray
    overlap: NDArray[np.bool_]
    normal_W: FloatArray
    point_W: FloatArray
    depth: FloatArray

    def __getitem__(self, index: int | tuple[int, ...]) -> Contact:
        return Contact(
            F=float(self.F[index]),
            lam=float(self.lam[index]),
            overlap=bool(self.overlap[index]),
            normal_W=frozen(self.normal_W[index], (3,)),
            point_W=frozen(self.point_W[index], (3,)),
            depth=float(self.depth[index]),
        )


def _stationary_point(w: FloatArray, nu: FloatArray) -> FloatArray:
    """Root ``t ∈ [0, ½]`` of ``Σ_i w_i ((1 - t)² - t² ν_i) / (1 - t + t ν_i)²`` (last axis: i).

    Requires ``w ≥ 0`` (not all 0), ``ν > 0`` and a root in ``[0, ½]`` (the sum is ≤ 0 at ½);
    the sum decreases strictly in t. Vectorised guarded Newton: each step that would leave the
    current bracket ``[lo, hi]`` is replaced by bisection.
    """
    shape = w.shape[:-1]
    lo = np.zeros(shape)
    hi = np.full(shape, 0.5)
    # Start from the exact root for one term, using the weighted mean of ν (a good guess when
    # the terms differ little), clipped inside the bracket.
    nu_mean = np.sum(w * nu, axis=-1) / np.sum(w, axis=-1)
    t = np.clip(1.0 / (1.0 + np.sqrt(nu_mean)), 0.0, 0.5)
    active = np.ones(shape, dtype=bool)
    for _ in range(_MAX_STEPS):
        ti = t[..., None]
        d = 1.0 - ti + ti * nu
        g = np.sum(w * ((1.0 - ti) ** 2 - ti**2 * nu) / d**2, axis=-1)
        dg = -2.0 * np.sum(w * nu / d**3, axis=-1)
        lo = np.where(active & (g > 0.0), t, lo)
        hi = np.where(active & (g < 0.0), t, hi)
        step = -g / dg
        t_new = t + step
        outside = ~((t_new > lo) & (t_new < hi))
        t_new = np.where(outside, 0.5 * (lo + hi), t_new)
        t_new = np.where(g == 0.0, t, t_new)
        converged = (g == 0.0) | (np.abs(t_new - t) <= 4.0 * np.finfo(float).eps * t_new)
        converged |= hi - lo <= 2.0 * np.finfo(float).eps * hi
        t = np.where(active, t_new, t)
        active &= ~converged
        if not np.any(active):
            break
    return t


def _broadcast(*arrays: ArrayLike) -> tuple[tuple[int, ...], list[FloatArray]]:
    """The leading shape the pairs' arrays broadcast to, and each array (in the order of
    :func:`contacts`' arguments: semi-axes, rotation, centre of A, then of B) broadcast to it:
    vectors ``(..., 3)``, rotations ``(..., 3, 3)``."""
    floats = [np.asarray(x, dtype=float) for x in arrays]
    tails = [2 if k % 3 == 1 else 1 for k in range(len(floats))]  # rotations are 3x3
    shape = np.broadcast_shapes(*(x.shape[: x.ndim - t]
                                  for x, t in zip(floats, tails, strict=True)))
    return shape, [np.broadcast_to(x, (*shape, *x.shape[x.ndim - t:]))
                   for x, t in zip(floats, tails, strict=True)]


def contacts(
    semi_axes_a: ArrayLike,
    R_WA: ArrayLike,
    p_WAo: ArrayLike,
    semi_axes_b: ArrayLike,
    R_WB: ArrayLike,
    p_WBo: ArrayLike,
) -> Contacts:
    """Perram–Wertheim contact of many ellipsoid pairs at once (vectorised; no validation).

    The leading shapes broadcast against each other. Use :func:`contact` for one validated
    pair.

    :param semi_axes_a: A's semi-axes along its own x, y, z axes, shape ``(..., 3)``, positive.
    :param R_WA: A's orientation in W, shape ``(..., 3, 3)``, proper rotations.
    :param p_WAo: A's centre measured from Wo, in W, shape ``(..., 3)``.
    :param semi_axes_b: the same for B.
    :param R_WB: the same for B.
    :param p_WBo: the same for B.

    :returns: :class:`Contacts` with the broadcast leading shape.
    """
    shape, (a, R_WA_, p_WAo_, b, R_WB_, _) = _broadcast(
        semi_axes_a, R_WA, p_WAo, semi_axes_b, R_WB, p_WBo
    )
    r_W = np.broadcast_to(np.asarray(p_WBo, dtype=float) - np.asarray(p_WAo, dtype=float),
                          (*shape, 3))  # p_AoBo_W

    # Frame U: A's axes scaled by its semi-axes (A is the unit sphere there).
    R_AW = np.swapaxes(R_WA_, -1, -2)
    M = (R_AW @ R_WB_) * b[..., None, :] / a[..., :, None]
    # C = M Mᵀ = Q·diag(σ²)·Qᵀ from the SVD of M: σ keeps relative precision eps·σ_max/σ_min,
    # an eigen-decomposition of C would square that.
    Q, sigma, _ = np.linalg.svd(M)
    mu = np.maximum(sigma * sigma, np.finfo(float).tiny)  # C is positive definite
    r_U = np.einsum("...ij,...j->...i", R_AW, r_W) / a
    z = np.einsum("...ji,...j->...i", Q, r_U)
    z2 = z * z

    coincident = np.sum(z2, axis=-1) == 0.0
    w = np.where(coincident[..., None], 1.0, z2)
    # S'(½) = 4·Σ z²(1 - μ)/(1 + μ)²: ≤ 0 puts Λ in [0, ½], else solve for 1 - Λ with A and B
    # exchanged (z² → z²/μ, μ → 1/μ).
    g_half = np.sum(w * (1.0 - mu) / (1.0 + mu) ** 2, axis=-1)
    swap = g_half > 0.0
    t = _stationary_point(
        np.where(swap[..., None], w / mu, w), np.where(swap[..., None], 1.0 / mu, mu)
    )
    lam = np.where(swap, 1.0 - t, t)
    kappa = np.where(swap, t, 1.0 - t)  # 1 - Λ, to full relative precision

    d = kappa[..., None] + lam[..., None] * mu
    F = lam * kappa * np.sum(z2 / d, axis=-1)
    # n = G⁻¹ r = R_WA·diag(1/a)·Q·(z/d);
    # x_c - p_WAo = (1 - Λ)·S_A⁻¹ n = (1 - Λ)·R_WA·diag(a)·Q·(z/d).
    y = np.einsum("...ij,...j->...i", Q, z / d)
    n_W = np.einsum("...ij,...j->...i", R_WA_, y / a)
    point_W = p_WAo_ + kappa[..., None] * np.einsum("...ij,...j->...i", R_WA_, y * a)
    dist = np.linalg.norm(r_W, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):  # only where the centres coincide
        n_hat = n_W / np.linalg.norm(n_W, axis=-1, keepdims=True)
        cos_rn = np.sum(r_W * n_hat, axis=-1) / dist
        depth = (dist / np.sqrt(F) - dist) * cos_rn

    nan = np.full(shape, np.nan)
    return Contacts(
        F=np.where(coincident, 0.0, F),
        lam=np.where(coincident, nan, lam),
        overlap=np.where(coincident, True, F < 1.0),
        normal_W=np.where(coincident[..., None], np.nan, n_hat),
        point_W=np.where(coincident[..., None], p_WAo_, point_W),
        depth=np.where(coincident, nan, depth),
    )


def contact(a: PosedEllipsoid, b: PosedEllipsoid) -> Contact:
    """Perram–Wertheim contact of ellipsoids A and B (both posed in W); see :class:`Contact`.

    Symmetric: ``contact(b, a)`` has the same ``F``, ``point_W`` and ``depth``, ``1 - lam`` and
    the opposite normal (to rounding).
    """
    return contacts(a.semi_axes, a.X_FE.R, a.X_FE.p, b.semi_axes, b.X_FE.R, b.X_FE.p)[()]


#: The Perram–Wertheim ``F`` of many pairs: :func:`contacts`' ``F``, taking its arguments
#: (forwarded: :func:`gzinertia.physics.forwarding.returning_part`).
contact_function = returning_part(
    contacts, lambda found: found.F, "contact_function",
    "The Perram–Wertheim ``F`` of many pairs (arguments as in :func:`contacts`).",
)


def overlap_measure(a: PosedEllipsoid, b: PosedEllipsoid) -> float:
    """``1 - √F``: the fraction by which both ellipsoids must shrink (about their centres) to touch.

    Positive when they overlap (0.1: shrinking both by 10 % makes them tangent), 0 when tangent,
    negative when apart (-0.25: both must grow by 25 % to touch); 1 when the centres coincide.
    Scale-free, so it suits an audit threshold.
    """
    return 1.0 - float(np.sqrt(contact(a, b).F))
