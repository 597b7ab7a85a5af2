"""gzinertia's own estimates of a link's added mass and damping, for ``gzinertia compare``.

Every estimate is about the link origin Bo in link axes B: added mass as ``A_BBo_B``
(linear-first ``[x y z p q r]``, positive), damping as gz-sim Hydrodynamics terms (Fossen's
negative sign). :data:`ESTIMATES` lists the providers ``compare`` runs, in order: this is the
one place a new method is added (``name → provider``). A provider raises
:class:`~gzinertia.errors.GzInertiaError` when it cannot estimate a link; ``compare`` says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gzinertia.physics import damping_estimate as damping
from gzinertia.physics.bem import bem_added_mass
from gzinertia.physics.fits import fit_link
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.fluids import WATER_VISCOSITY

__all__ = [
    "BEM_ESTIMATE",
    "ESTIMATES",
    "Estimate",
    "EstimateProvider",
    "bem_estimate",
    "ellipsoid_estimate",
    "geometry_estimate",
    "mujoco_estimate",
]


@dataclass(frozen=True, repr=False, eq=False)
class Estimate(ValueRecord):
    """One method's estimate for one link: ``A_BBo_B`` (``None``: the method gives no added
    mass), ``damping`` (Hydrodynamics terms; empty: no damping) and ``basis``: the method, its
    assumptions and what it is good for, in one line."""

    method: str
    A_BBo_B: AddedMass | None
    basis: str
    damping: dict[str, float] = field(default_factory=dict)


#: A provider: ``(link, fluid density kg/m³) → Estimate``.
EstimateProvider = Callable[[LinkRecord, float], Estimate]


def ellipsoid_estimate(link: LinkRecord, density: float) -> Estimate:
    """Tuckerman's added mass of the link's volume-fitted ellipsoids (one per separate body of
    its collisions), moved to the link origin."""
    fit = fit_link(link, "volume")
    basis = (f"Tuckerman's ellipsoid added mass ({fit.description}); exact for ellipsoids, "
             "a first estimate for other shapes")
    return Estimate("ellipsoid", fit.added_mass(density), basis)


def mujoco_estimate(link: LinkRecord, density: float) -> Estimate:
    """MuJoCo's ellipsoid drag model, one ellipsoid per collision, as ``gzinertia hydro``
    writes it by default (:func:`gzinertia.physics.damping_estimate.mujoco_estimate`)."""
    found = damping.mujoco_estimate(link, density=density, viscosity=WATER_VISCOSITY)
    basis = ("MuJoCo's phenomenological ellipsoid drag (gzinertia hydro): tens of times off "
             "identified drag on slender hulls (docs/fluid_forces.md)")
    return Estimate("mujoco", None, basis, dict(found.terms))


def geometry_estimate(link: LinkRecord, density: float) -> Estimate:
    """Quadratic damping from the link's geometry by the method its shape calls for
    (``gzinertia hydro --method auto``: strip theory for a slender hull, per-member drag
    otherwise; :func:`gzinertia.physics.damping_estimate.damping_estimate`), in water's
    viscosity at strip theory's default design speed."""
    found = damping.damping_estimate(link, "auto", density=density)
    return Estimate("geometry", None, f"{found.method}: {found.summary()} (docs/damping.md)",
                    dict(found.terms))


def bem_estimate(link: LinkRecord, density: float) -> Estimate:
    """Capytaine's boundary-element added mass of the link's collisions in unbounded fluid
    (needs the ``bem`` extra)."""
    result = bem_added_mass(link.collisions, density, link=link.name)
    basis = ("boundary-element method (Capytaine) on the collisions' closed surface, unbounded "
             "fluid; overestimates open frames")
    return Estimate("bem", result.A_BBo_B, basis)


#: The estimates ``compare`` runs for every link, by name, in order.
ESTIMATES: dict[str, EstimateProvider] = {
    "ellipsoid": ellipsoid_estimate,
    "mujoco": mujoco_estimate,
    "geometry": geometry_estimate,
}
#: The estimate ``compare`` adds with ``bem=True`` (slow: a BEM solve per link).
BEM_ESTIMATE: tuple[str, EstimateProvider] = ("bem", bem_estimate)
