"""Is a fitted added mass what the user can have meant? Three checks, each with its physics.

A fit (:mod:`gzinertia.fits`) turns a link's collisions or inertia into ellipsoids that displace
``V`` of fluid (the sum of their volumes) and computes the added mass of that shape **fully
submerged in an unbounded fluid** (Tuckerman). ``addmass`` warns, with the numbers, when:

* **Implied density** ``m / V`` is outside :data:`DENSITY_RANGE` (0.2–25 000 kg/m³, the audit's
  GZI106 range): lighter than a helium-filled envelope or denser than osmium (22 590 kg/m³). No
  body has such a mean density, so the mass or the fitted shape is not the body's: a 1e-9 kg
  placeholder mass with an inertia fit that becomes a 0.5 m ellipsoid, grams as kilograms, a
  mesh in millimetres.
* **Displaced mass against the model's mass**: ``ρ·ΣV`` over the links written, against the
  total mass of the model's moving links, above :data:`FLOATING_RATIO` (2). At rest the model
  would float with less than ``1/ratio`` of its volume in the fluid, more than half of it out:
  a surface vessel, not a submersible (ROVs, AUVs and gliders carry a few per cent of reserve
  buoyancy). The added mass written is the fully submerged one, which a surface vessel does not
  have (it also counts any part of the shape above the water, such as a deck).
* **Added against rigid**: the largest ratio of the fluid's kinetic energy to the body's own,
  ``max_ν νᵀAν / νᵀMν`` (the largest generalized eigenvalue of ``A_BBo_B`` and ``M_BBo_B``,
  independent of the point), above :data:`ADDED_TO_RIGID_MAX` (100). For a submerged body
  of density ``ρ_b`` the translational ratio is ``k·ρ/ρ_b`` with the shape factor
  ``k = m_A/(ρV)`` (½ for a sphere; ``2a/(πc)`` broadside to a thin disk of radius ``a`` and
  half-thickness ``c``); rotations give at most about the same (``0.42·a/c`` for the disk
  about a diameter). Bodies lighter than half the fluid's density are caught by the previous
  check, so a ratio above 100 needs ``k > 50``: a disk thinner than 1:80 (thickness to
  diameter), a shape no fit of a real hull makes but a nearly flat rigid inertia does (the
  inertia fit of a 1 kg link with ``I = (1, 1, 2)`` kg·m² is a 2.24 m disk with ≈30 t of added
  mass).

The thresholds are deliberately loose: they flag inputs that cannot be the body meant, not
unusual designs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

#: Plausible mean densities of a body (kg/m³): a helium-filled envelope to osmium (22 590).
#: The audit's GZI106 uses the same range.
DENSITY_RANGE = (0.2, 25000.0)
#: Displaced fluid mass over the model's mass above which it floats with more than half its
#: volume out of the fluid.
FLOATING_RATIO = 2.0
#: Largest plausible ratio of the fluid's kinetic energy to the body's for any motion.
ADDED_TO_RIGID_MAX = 100.0


def _g(x: float) -> str:
    return f"{x:.4g}"


def density_warning(mass: float, volume: float, what: str) -> str | None:
    """A warning when ``mass / volume`` (kg, m³ of the fitted shape) is outside
    :data:`DENSITY_RANGE`; ``what`` names the shape in the message."""
    if not (mass > 0.0 and volume > 0.0):
        return None
    rho = mass / volume
    lo, hi = DENSITY_RANGE
    if lo <= rho <= hi:
        return None
    why = "lighter than a helium-filled envelope" if rho < lo else "denser than osmium"
    return (
        f"its mass {_g(mass)} kg in the {_g(volume)} m³ of {what} is a mean density of "
        f"{_g(rho)} kg/m³ ({why}; plausible {_g(lo)}-{_g(hi)} kg/m³): the mass or the fitted "
        "shape is not the body's, so neither is the added mass"
    )


def added_to_rigid_ratio(M_BBo_B: ArrayLike, A_BBo_B: ArrayLike) -> float | None:
    """``max_ν νᵀAν / νᵀMν``: the largest generalized eigenvalue of the added mass against the
    rigid spatial inertia, both 6x6 about the same point in the same axes and ordering (the
    value does not depend on them). ``None`` when ``M`` is not positive definite."""
    M = np.asarray(M_BBo_B, dtype=float)
    A = np.asarray(A_BBo_B, dtype=float)
    try:
        L = np.linalg.cholesky(0.5 * (M + M.T))
    except np.linalg.LinAlgError:
        return None
    Linv = np.linalg.inv(L)
    return float(np.linalg.eigvalsh(Linv @ (0.5 * (A + A.T)) @ Linv.T)[-1])


def added_to_rigid_warning(mass: float, M_BBo_B: ArrayLike, A_BBo_B: ArrayLike) -> str | None:
    """A warning when the fluid's kinetic energy can exceed the body's by more than
    :data:`ADDED_TO_RIGID_MAX` (6x6 matrices about one point, one ordering)."""
    ratio = added_to_rigid_ratio(M_BBo_B, A_BBo_B)
    if ratio is None or not ratio > ADDED_TO_RIGID_MAX:
        return None
    largest = float(np.max(np.diag(np.asarray(A_BBo_B, dtype=float))[:3]))
    return (
        f"the added mass outweighs the link {_g(ratio)}x (the fluid's kinetic energy against "
        f"the body's, worst motion; largest translational term {_g(largest)} kg for a "
        f"{_g(mass)} kg link; plausible up to {_g(ADDED_TO_RIGID_MAX)}x): a fitted shape far "
        "larger or flatter than the body, e.g. from a placeholder or nearly flat inertia"
    )


def floating_warning(
    model: str, model_mass: float, displaced: float, density: float, links: Sequence[str]
) -> str | None:
    """A warning when the fluid displaced by the fitted shapes of ``links`` (``displaced``, kg)
    exceeds :data:`FLOATING_RATIO` times the model's mass (kg)."""
    if not (model_mass > 0.0 and displaced > FLOATING_RATIO * model_mass):
        return None
    shown = ", ".join(links[:3]) + (f" and {len(links) - 3} more" if len(links) > 3 else "")
    return (
        f"model {model}: the fitted shapes of {shown} displace {_g(displaced)} kg of fluid "
        f"(ρ = {_g(density)} kg/m³), {_g(displaced / model_mass)}x the model's "
        f"{_g(model_mass)} kg: at rest it floats with {_g(100.0 * model_mass / displaced)} % of "
        "that volume in the fluid (unless the mass is wrong). The added mass written is that "
        "of the whole shape fully submerged in an unbounded fluid, which a floating body does "
        "not have (parts above the water count too); for a surface vessel use free-surface "
        "coefficients (BEM) or an explicit ellipsoid of the submerged hull (--semi-axes "
        "--center)"
    )
