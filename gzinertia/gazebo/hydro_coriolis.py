"""The added-mass Coriolis-centripetal wrench of gz-sim's Hydrodynamics plugin, and what it loses.

What the plugin applies (gz-sim ``src/systems/hydrodynamics/Hydrodynamics.cc``, ``PreUpdate``, and
``HydrodynamicsUtils.hh``, main branch): with ``Ma`` the 36 ``<iDotJ>`` parameters as written
(row: force/moment ``x y z k m n``, column: ``U V W P Q R``) and ``ν = [v; ω]`` the link frame's
velocity relative to the current, linear-first, link axes,

* added mass: the wrench ``+Ma·ν̇`` (``kAmassVec = -Ma·stateDot``, applied ``-kTotalWrench``),
  from **all 36** terms;
* Coriolis-centripetal: the wrench ``+Cmat(Ma, ν)·ν`` (``kCmatVec = -Cmat·state``), where
  ``buildCoriolisMatrix`` reads **only the diagonal** ``Ma(i, i)``::

      Cmat(0,4) = -Ma22·w   Cmat(0,5) =  Ma11·v   Cmat(1,3) =  Ma22·w   Cmat(1,5) = -Ma00·u
      Cmat(2,3) = -Ma11·v   Cmat(2,4) =  Ma00·u   Cmat(3,1) = -Ma22·w   Cmat(3,2) =  Ma11·v
      Cmat(3,4) = -Ma55·r   Cmat(3,5) =  Ma44·q   Cmat(4,0) =  Ma22·w   Cmat(4,2) = -Ma00·u
      Cmat(4,3) =  Ma55·r   Cmat(4,5) = -Ma33·p   Cmat(5,0) = -Ma11·v   Cmat(5,1) =  Ma00·u
      Cmat(5,3) = -Ma44·q   Cmat(5,4) =  Ma33·p

Kirchhoff's equations for a body of added mass ``A`` (positive, symmetric, linear-first, about
Bo) give the fluid wrench ``-A·ν̇ - C_A(ν)·ν`` with Fossen's (2011, eq. 6.43)
``C_A(ν) = [[0, -S(a₁)], [-S(a₁), -S(a₂)]]``, ``[a₁; a₂] = A·ν`` — the plugin's own
``buildFullCoriolisMatrix``, used there only for the current correction of a
``<fluid_added_mass>``. So ``-C_A(ν)·ν = [a₁ × ω; a₁ × v + a₂ × ω]`` (MuJoCo's gyroscopic
added-mass terms for a diagonal ``A``).

Consequences, for a matrix that has couplings (any non-zero off-diagonal entry, as ``addmass``
writes whenever an ellipsoid is off the link origin or turned):

* the couplings reach ``Ma·ν̇`` but not ``Cmat·ν``: :func:`coriolis_coupling_loss` measures it;
* ``Cmat`` is linear in ``Ma``, so its sign follows the parameters': ``Cmat(diag A)·ν =
  -C_A(diag A)·ν`` for positive values (Kirchhoff's sign), and the opposite for Fossen-negative
  ones, which are the ones that make ``+Ma·ν̇`` resist acceleration. No sign makes both terms
  physical.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.spatial.rotation import skew

__all__ = [
    "REPRESENTATIVE_VELOCITIES",
    "CoriolisLoss",
    "coriolis_coupling_loss",
    "has_couplings",
    "kirchhoff_coriolis_wrench",
    "plugin_coriolis_wrench",
    "representative_velocities",
    "sdf_to_hydro_warnings",
]

#: How many velocities :func:`coriolis_coupling_loss` samples (fixed seed: reproducible).
REPRESENTATIVE_VELOCITIES: Final[int] = 2000
_SEED: Final[int] = 20261123


def _mat6(M: ArrayLike, name: str) -> NDArray[np.float64]:
    A = np.asarray(M, dtype=float)
    if A.shape != (6, 6) or not np.all(np.isfinite(A)):
        raise ValueError(f"{name} must be a finite 6x6 matrix")
    return A


def plugin_coriolis_wrench(Ma: ArrayLike, nu: ArrayLike) -> NDArray[np.float64]:
    """``Cmat(Ma, ν)·ν``: the Coriolis-centripetal wrench gz-sim's Hydrodynamics applies.

    :param Ma: the ``<iDotJ>`` parameters as written (6x6, linear-first rows ``x y z k m n``,
        columns ``U V W P Q R``; only the diagonal is read, as in the plugin).
    :param nu: ``[u v w p q r]``, link-frame velocity relative to the current, link axes.

    :returns: ``[f; τ]`` linear-first, link axes, at the link origin (the applied wrench).
    """
    m = np.diag(_mat6(Ma, "Ma"))
    s = np.asarray(nu, dtype=float).reshape(6)
    u, v, w, p, q, r = s
    return np.array(
        [
            -m[2] * w * q + m[1] * v * r,
            m[2] * w * p - m[0] * u * r,
            -m[1] * v * p + m[0] * u * q,
            -m[2] * w * v + m[1] * v * w - m[5] * r * q + m[4] * q * r,
            m[2] * w * u - m[0] * u * w + m[5] * r * p - m[3] * p * r,
            -m[1] * v * u + m[0] * u * v - m[4] * q * p + m[3] * p * q,
        ]
    )


def kirchhoff_coriolis_wrench(A_BBo_B: ArrayLike, nu: ArrayLike) -> NDArray[np.float64]:
    """``-C_A(ν)·ν = [a₁ × ω; a₁ × v + a₂ × ω]``, ``[a₁; a₂] = A·ν``: Kirchhoff's added-mass
    Coriolis-centripetal wrench of the full matrix ``A_BBo_B`` (about Bo in link axes,
    linear-first, as ``ν = [v; ω]`` and the wrench ``[f; τ]``)."""
    A = _mat6(A_BBo_B, "A_BBo_B")
    s = np.asarray(nu, dtype=float).reshape(6)
    a = A @ s
    v, w = s[:3], s[3:]
    return np.concatenate([skew(a[:3]) @ w, skew(a[:3]) @ v + skew(a[3:]) @ w])


class CoriolisLoss(NamedTuple):
    """What the plugin's diagonal-only ``C_A`` loses on a coupled matrix, over
    :data:`REPRESENTATIVE_VELOCITIES` velocities of equal kinetic energy (relative differences
    in the kinetic-energy norm, see :func:`coriolis_coupling_loss`)."""

    median: float
    maximum: float
    samples: int


def representative_velocities(M_total: ArrayLike) -> NDArray[np.float64]:
    """:data:`REPRESENTATIVE_VELOCITIES` velocities ``ν`` (rows, linear-first) uniform on the
    ellipsoid ``νᵀ·M_total·ν = 1`` (fixed seed): every translation and rotation at the same
    kinetic energy. ``M_total`` (6x6, linear-first) must be positive definite."""
    L = np.linalg.cholesky(_mat6(M_total, "M_total"))
    z = np.random.default_rng(_SEED).normal(size=(REPRESENTATIVE_VELOCITIES, 6))
    z /= np.linalg.norm(z, axis=1)[:, None]
    return np.asarray(np.linalg.solve(L.T, z.T).T)  # νᵀLLᵀν = |z|² = 1


def coriolis_coupling_loss(A_BBo_B: ArrayLike, M_BBo_B: ArrayLike) -> CoriolisLoss:
    """Relative difference between the Coriolis wrench of ``diag(A)`` and that of ``A``.

    For each velocity ν the difference is ``‖W_diag - W_full‖ / ‖W_full‖`` with
    ``W = -C_A(ν)·ν`` (:func:`kirchhoff_coriolis_wrench`, the sign set aside) and the norm
    ``‖W‖² = Wᵀ·(M + A)⁻¹·W``: twice the kinetic energy of the velocity change the wrench would
    cause in unit time, which weighs forces and moments by the body's own inertia. The velocities
    are :func:`representative_velocities` of ``M + A``: translations and rotations of equal
    kinetic energy.

    :param A_BBo_B: added mass about Bo in link axes, linear-first, symmetric positive
        semi-definite.
    :param M_BBo_B: the link's rigid spatial inertia about Bo, **linear-first**; ``M + A`` must be
        positive definite.
    """
    A = _mat6(A_BBo_B, "A_BBo_B")
    total = _mat6(M_BBo_B, "M_BBo_B") + A
    L = np.linalg.cholesky(total)  # raises LinAlgError if not positive definite
    nus = representative_velocities(total)
    A_diag = np.diag(np.diag(A))
    full = _kirchhoff_rows(A, nus)
    diff = _kirchhoff_rows(A_diag, nus) - full
    # ‖W‖² = Wᵀ(LLᵀ)⁻¹W = ‖L⁻¹W‖²
    den = np.sum(np.linalg.solve(L, full.T) ** 2, axis=0)
    num = np.sum(np.linalg.solve(L, diff.T) ** 2, axis=0)
    keep = den > 0.0
    r = np.sqrt(num[keep] / den[keep]) if np.any(keep) else np.zeros(1)
    return CoriolisLoss(float(np.median(r)), float(np.max(r)), int(np.count_nonzero(keep)))


def _kirchhoff_rows(A: NDArray[np.float64], nus: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`kirchhoff_coriolis_wrench` for each row of ``nus``."""
    a = nus @ A.T
    v, w = nus[:, :3], nus[:, 3:]
    return np.hstack([np.cross(a[:, :3], w), np.cross(a[:, :3], v) + np.cross(a[:, 3:], w)])


def has_couplings(A_BBo_B: ArrayLike) -> bool:
    """Whether any off-diagonal entry of ``A_BBo_B`` (about Bo in link axes, either ordering: a
    block swap keeps the diagonal) is non-zero, what the plugin's ``C_A`` cannot carry."""
    A = _mat6(A_BBo_B, "A_BBo_B")
    return bool(np.any(A - np.diag(np.diag(A))))


def sdf_to_hydro_warnings(
    where: str, link_name: str, A_BBo_B: ArrayLike, M_BBo_B: ArrayLike, sign: str
) -> list[str]:
    """What ``convert --sdf-to-hydro`` says about the dynamics it does not preserve.

    :param where: file and line of the link, for the message.
    :param A_BBo_B: the added mass being moved into the plugin (linear-first, about Bo).
    :param M_BBo_B: the link's rigid spatial inertia about Bo, linear-first.
    :param sign: ``fossen`` or ``physical``, the sign of the ``<iDotJ>`` values written.

    :returns: One line when the matrix has couplings (with :func:`coriolis_coupling_loss`'s
        median and maximum), and one on the sign of the plugin's Coriolis term for ``fossen``
        values.
    """
    lines = []
    if has_couplings(A_BBo_B):
        try:
            loss: CoriolisLoss | None = coriolis_coupling_loss(A_BBo_B, M_BBo_B)
        except np.linalg.LinAlgError:
            loss = None
        size = (
            f": over {loss.samples} velocities of equal kinetic energy its C_A(nu)nu differs "
            f"from the full matrix's by a median {100 * loss.median:.3g} % and up to "
            f"{100 * loss.maximum:.3g} % (kinetic-energy norm)"
            if loss is not None
            else " (rigid + added mass is not positive definite: size not computed)"
        )
        lines.append(
            f"{where}: link {link_name!r}: the added mass has couplings; gz-sim's Hydrodynamics "
            "applies all 36 <iDotJ> terms in Ma*nu_dot but builds its Coriolis-centripetal term "
            f"C_A(nu)nu from the diagonal only{size} (docs/added_mass.md)"
        )
    if sign == "fossen":
        lines.append(
            f"{where}: link {link_name!r}: with negative (Fossen) <iDotJ> values gz-sim's "
            "C_A(nu)nu has the opposite sign of Kirchhoff's (the Munk moment stabilises instead "
            "of destabilising); positive values would fix that but make Ma*nu_dot push along the "
            "acceleration (GZI208); see docs/added_mass.md"
        )
    return lines
