"""Is a fitted added mass what the user can have meant? Three checks, each with its physics.

A fit (:mod:`gzinertia.physics.fits`) turns a link's collisions or inertia into ellipsoids that
displace ``V`` of fluid (the sum of their volumes) and computes the added mass of that shape **fully
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
* **Added against rigid mass**: the largest translational added mass (the largest eigenvalue of
  the linear block of ``A_BBo_B``, the same about every point) over the link's mass, above
  :data:`ADDED_TO_RIGID_MAX` (100). For a submerged body of density ``ρ_b`` it is ``k·ρ/ρ_b``
  with the shape factor ``k = m_A/(ρV)`` (½ for a sphere, ``2a/(πc)`` broadside to a thin disk of
  radius ``a`` and half-thickness ``c``). Bodies lighter than half the fluid's density are caught
  by the previous check, so a ratio above 100 needs ``k > 50``: a disk thinner than 1:80
  (thickness to diameter), a shape no fit of a real hull makes but a nearly flat rigid inertia
  does (the inertia fit of a 1 kg link with ``I = (1, 1, 2)`` kg·m² is a 2.24 m disk with ≈30 t
  of heave added mass). Rotations are left out: their ratio also judges the rigid inertia, which
  is often a placeholder and has its own audit rules (GZI105).

The thresholds are deliberately loose: they flag inputs that cannot be the body meant, not
unusual designs.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.options import option
from gzinertia.wording import bounded, number

__all__ = [
    "ADDED_TO_RIGID_MAX",
    "DENSITY_RANGE",
    "FLOATING_RATIO",
    "added_to_rigid_ratio",
    "added_to_rigid_warning",
    "density_warning",
    "floating_warning",
]

#: Plausible mean densities of a body (kg/m³): a helium-filled envelope to osmium (22 590).
#: The audit's GZI106 uses the same range.
DENSITY_RANGE = (0.2, 25000.0)
#: Displaced fluid mass over the model's mass above which it floats with more than half its
#: volume out of the fluid.
FLOATING_RATIO = 2.0
#: Largest plausible ratio of the fluid's kinetic energy to the body's for any motion.
ADDED_TO_RIGID_MAX = 100.0


def _g(x: float) -> str:
    return number(x)


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


def added_to_rigid_ratio(mass: float, A_BBo_B: ArrayLike) -> float | None:
    """The largest translational added mass over the link's mass: the largest eigenvalue of the
    linear (top-left, kg) block of a linear-first 6x6 added mass, which no change of point or
    of axes alters, divided by ``mass``. ``None`` for a non-positive mass."""
    if not mass > 0.0:
        return None
    L = np.asarray(A_BBo_B, dtype=float)[:3, :3]
    return float(np.linalg.eigvalsh(0.5 * (L + L.T))[-1]) / mass


def added_to_rigid_warning(mass: float, A_BBo_B: ArrayLike) -> str | None:
    """A warning when the largest translational added mass exceeds :data:`ADDED_TO_RIGID_MAX`
    times the link's mass (``A_BBo_B`` linear-first)."""
    ratio = added_to_rigid_ratio(mass, A_BBo_B)
    if ratio is None or not ratio > ADDED_TO_RIGID_MAX:
        return None
    return (
        f"its largest translational added mass {_g(ratio * mass)} kg is {_g(ratio)}x the "
        f"link's {_g(mass)} kg (plausible up to {_g(ADDED_TO_RIGID_MAX)}x, a disk thinner than "
        "1:80 at half the fluid's density): a fitted shape far larger or flatter than the body, "
        "e.g. from a placeholder mass or a nearly flat inertia"
    )


def floating_warning(
    model: str, model_mass: float, displaced: float, density: float, links: Sequence[str]
) -> str | None:
    """A warning when the fluid displaced by the fitted shapes of ``links`` (``displaced``, kg)
    exceeds :data:`FLOATING_RATIO` times the model's mass (kg)."""
    if not (model_mass > 0.0 and displaced > FLOATING_RATIO * model_mass):
        return None

    shown = bounded(links)
    return (
        f"model {model}: the fitted shapes of {shown} displace {_g(displaced)} kg of fluid "
        f"(ρ = {_g(density)} kg/m³), {_g(displaced / model_mass)}x the model's "
        f"{_g(model_mass)} kg: at rest it floats with {_g(100.0 * model_mass / displaced)} % of "
        "that volume in the fluid (unless the mass is wrong). The added mass written is that "
        "of the whole shape fully submerged in an unbounded fluid, which a floating body does "
        "not have (parts above the water count too); for a surface vessel use free-surface "
        "coefficients (BEM) or an explicit ellipsoid of the submerged hull "
        f"({option('explicit_ellipsoid_short')})"
    )
