"""A link's damping estimated from its geometry: the method chosen from its shape (or asked
for) and the estimate, one public function (:func:`damping_estimate`) for ``gzinertia hydro
--method`` and for comparisons.

The choice (:func:`choose_method`): the link's fluid-displacing body (the union of its
collisions, :func:`gzinertia.physics.link_union.link_solid`) as its equivalent solid ellipsoid
(semi-axes from the principal moments of volume, ``a_i² = 5/(2V)·(G_j + G_k - G_i)``); a body
at least :data:`SLENDER` times as long as it is wide across, with a round cross-section (the
two short semi-axes within :data:`ROUND` of each other), is a slender hull: ``strip``;
anything else is a bluff body or frame: ``morison``. The reason is said in words.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gzinertia.errors import GzInertiaError
from gzinertia.physics.damping_morison import morison_estimate
from gzinertia.physics.damping_record import DampingChoice, DampingEstimate, DampingMethod
from gzinertia.physics.damping_strip import DEFAULT_SPEED, SLENDERNESS, strip_estimate
from gzinertia.physics.fin_lift import Fin
from gzinertia.physics.fits import fit_link
from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.physics.hydro_damping import hydrodynamics_damping, sum_damping
from gzinertia.physics.link_union import link_solid
from gzinertia.physics.mesh_load import ShapeError
from gzinertia.physics.shapes import SolidProperties
from gzinertia.records import LinkRecord
from gzinertia.vocabulary.fluids import WATER_VISCOSITY

__all__ = ["ROUND", "SLENDER", "choose_method", "damping_estimate", "mujoco_estimate"]

#: Length over width from which a round body is a slender hull (torpedo AUVs are 5-10,
#: gliders more; Prestero's REMUS 100 is 7): strip theory's own bound.
SLENDER = SLENDERNESS
#: The largest ratio of the two short semi-axes of a round cross-section.
ROUND = 1.5
_AXES = "xyz"


def _where(link: LinkRecord) -> str:
    return f"{link.source}: link {link.name!r}"


def _body(link: LinkRecord) -> SolidProperties:
    """The link's fluid-displacing body, refused in one line naming the link (no collision,
    a shape without volume, a mesh that does not resolve)."""
    if not link.collisions:
        raise GzInertiaError(f"{_where(link)} has no collision: no shape to estimate damping "
                             "from")
    try:
        return link_solid(link.collisions)
    except ShapeError as exc:
        raise GzInertiaError(f"{_where(link)}: {exc}") from exc


def _semi_axes(solid: SolidProperties) -> tuple[np.ndarray, np.ndarray]:
    """The body's equivalent-ellipsoid semi-axes, ascending, and their directions in B
    (columns)."""
    moments, vectors = np.linalg.eigh(np.asarray(solid.G_FFc_F, dtype=float))
    total = float(np.sum(moments))
    semi = np.sqrt(np.maximum(2.5 / solid.volume * (total - 2.0 * moments), 0.0))
    order = np.argsort(semi)
    return semi[order], vectors[:, order]


def _axis_words(direction: np.ndarray) -> str:
    i = int(np.argmax(np.abs(direction)))
    if abs(direction[i]) > 1.0 - 1e-9:
        return f"the link's {_AXES[i]} axis"
    return "the direction (" + ", ".join(f"{v:.3g}" for v in direction) + ") in the link"


def choose_method(link: LinkRecord) -> tuple[DampingMethod, str]:
    """``strip`` or ``morison`` for the link's shape (module docstring), and why, in words.
    Raises :class:`GzInertiaError` for a link without a body (no collision, no volume)."""
    semi, vectors = _semi_axes(_body(link))
    slender, round_ = semi[2] / max(semi[1], 1e-300), semi[1] / max(semi[0], 1e-300)
    shape = (f"length/width {slender:.3g} along {_axis_words(vectors[:, 2])}, "
             f"cross-section {round_:.3g}:1")
    if slender >= SLENDER and round_ <= ROUND:
        return "strip", f"auto: a slender round hull ({shape})"
    return "morison", (f"auto: a bluff body or frame ({shape}; strip theory needs length/width "
                       f">= {SLENDER:g} and a round section within {ROUND:g}:1)")


def mujoco_estimate(
    link: LinkRecord, *, density: float, viscosity: float, reason: str = "asked for"
) -> DampingEstimate:
    """MuJoCo's ellipsoid drag model on MuJoCo's own ellipsoids, projected on the link axes
    (:func:`gzinertia.physics.hydro_damping.hydrodynamics_damping` with MuJoCo's default
    coefficients, without couplings): what ``gzinertia hydro`` writes by default."""
    fit = fit_link(link, "mujoco")
    coefs = EllipsoidFluidCoefficients()
    terms = sum_damping([hydrodynamics_damping(e.semi_axes, e.X_FE, density, viscosity, coefs)
                         for e in fit.ellipsoids])
    return DampingEstimate(
        method="mujoco",
        title=f"MuJoCo's ellipsoid drag model ({fit.description})",
        terms={k: v for k, v in terms.items() if v != 0.0},
        reason=reason,
        band=float("inf"),
        assumptions=("a phenomenological model: drag of each collision's ellipsoid, exact along "
                     "one link axis against MuJoCo, not against water",),
        validity="no published band: tens of times off identified drag on slender AUVs "
                 "(docs/fluid_forces.md)",
        sources=("MuJoCo's fluid model (mujoco.readthedocs.io, Fluid forces)",),
    )


def damping_estimate(
    link: LinkRecord,
    method: DampingChoice = "auto",
    *,
    density: float,
    viscosity: float = WATER_VISCOSITY,
    speed: float = DEFAULT_SPEED,
    fins: Sequence[Fin] = (),
) -> DampingEstimate:
    """The link's quadratic damping estimated by ``method`` (``auto``: chosen from its shape,
    :func:`choose_method`) in a fluid of ``density`` kg/m³ and dynamic ``viscosity`` Pa·s
    (``speed``, m/s: the design speed of strip theory's friction line). The terms are Gazebo
    Hydrodynamics parameters about the link origin Bo in link axes B, Fossen-negative, with the
    method, the reason, assumptions, validity and uncertainty band
    (:class:`~gzinertia.physics.damping_record.DampingEstimate`). ``fins``, described in link
    frame B (:class:`~gzinertia.physics.fin_lift.Fin`), are strip theory's: their lift and
    cross-flow drag join the hull's; any other method refuses them."""
    reason = "asked for"
    chosen: DampingMethod
    if method == "auto":
        chosen, reason = choose_method(link)
    else:
        chosen = method
    if fins and chosen != "strip":
        raise GzInertiaError(f"{_where(link)}: fins are described for strip theory, not for "
                             f"{chosen} ({reason})")
    if chosen == "mujoco":
        return mujoco_estimate(link, density=density, viscosity=viscosity, reason=reason)
    _body(link)  # refused in one line when there is none
    if chosen == "strip":  # their refusals name the link: ShapeError, one line
        return strip_estimate(link.collisions, _where(link), density=density,
                              viscosity=viscosity, speed=speed, reason=reason, fins=fins)
    return morison_estimate(link.collisions, _where(link), density=density, reason=reason)
