"""A catalogue entry's published numbers in gz-sim's form: :func:`gz_terms` → :class:`GzTerms`.

gz-sim's form: about the link origin Bo, in link axes B (x forward, y port, z up), added mass as
``<fluid_added_mass>`` (positive, symmetric, linear-first ``[x y z p q r]``), damping as the
Hydrodynamics system's Fossen-negative ``<iJ>`` and ``<iJabsK>`` terms (negative values
dissipate). Per convention (:data:`gzinertia.catalogue.published.CONVENTIONS`):

* ``fossen`` and ``gz_hydrodynamics``: Bo is the published reference point and B the published
  axes turned to forward-port-up when they are forward-starboard-down: ``F = diag(1, -1, -1, 1,
  -1, -1)``, a rotation by π about x, so a term ``X_ij`` (row ``i``, velocities ``j``, ``k``;
  ``|ν_k|`` does not change sign) becomes ``F_i·F_j·X_ij``; positive magnitudes
  (``sign = "positive"``, force ``= -X·ν``) are negated to Fossen's sign. The added mass is
  ``-sym(D)`` of the converted ``<iDotJ>`` terms plus a published ``<fluid_added_mass>``
  (turned the same way), both counted as Gazebo counts them.
* ``uuv_simulator``: UUV Simulator's plugin block, converted by the one conversion of ``gzinertia
  migrate`` (:func:`gzinertia.classic.migrate.uuv_equivalent`: the plugin's flip, its force at
  the centre of mass moved to Bo; Bo is the link origin).
* ``vrx_simple_hydrodynamics``: VRX's SimpleHydrodynamics (positive terms, its defaults where
  the block is silent, the wrench applied at the link origin: ``AddWorldWrench`` without an
  offset, ``vrx_gz/src/SimpleHydrodynamics.cc``), converted by
  :func:`gzinertia.classic.migrate.vrx_equivalent` with no offset.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gzinertia.catalogue.published import Published
from gzinertia.classic.migrate import GzEquivalent, uuv_equivalent, vrx_equivalent
from gzinertia.classic.uuv import NED_FLIP, UuvLink
from gzinertia.classic.vrx import (
    ADDED_MASS_TERMS,
    DEFAULTS,
    LINEAR_TERMS,
    QUADRATIC_TERMS,
    VrxDynamics,
)
from gzinertia.hydrodynamics_terms import FORCE_AXES, TERM_PARTS, VELOCITY_AXES, derivatives
from gzinertia.record_base import Record
from gzinertia.records import SourceRef
from gzinertia.sdf.fluid_added_mass import added_mass_from_values
from gzinertia.spatial.added_mass import AddedMass

__all__ = ["GzTerms", "flip_signs", "gz_terms"]

#: The sign each of ``x y z k m n`` (and ``u v w p q r``) takes from forward-starboard-down to
#: forward-port-up axes (the diagonal of :data:`gzinertia.classic.uuv.NED_FLIP`).
_FLIP = tuple(float(s) for s in np.diag(NED_FLIP))


@dataclass(frozen=True, repr=False, eq=False)
class GzTerms(Record):
    """An entry's numbers about the link origin Bo in link axes B (module docstring).

    ``A_BBo_B``: the ``<fluid_added_mass>`` (symmetric, linear-first; ``None`` when the entry
    publishes no added mass); ``A_BBo_B_exact``: the added mass as the source applies it (its
    skew part, if any, cannot be written: :attr:`added_mass_gap`); ``damping``: ``<iJ>`` and
    ``<iJabsK>`` terms, Fossen-negative; ``forward_speed``: ``<iJU>`` terms; ``mass`` (kg),
    ``p_BoBcm_B``, ``p_BoBcb_B`` (m, link axes; ``None`` when not published); ``volume`` (m³);
    ``link_frame``: Bo and B in words; ``notes``: what was assumed or left out."""

    entry: str
    A_BBo_B: AddedMass | None
    A_BBo_B_exact: np.ndarray | None
    damping: dict[str, float]
    forward_speed: dict[str, float]
    mass: float | None
    p_BoBcm_B: np.ndarray | None
    p_BoBcb_B: np.ndarray | None
    volume: float | None
    link_frame: str
    notes: tuple[str, ...]

    @property
    def added_mass_gap(self) -> float:
        """The spectral norm of the skew part of :attr:`A_BBo_B_exact` (0 when symmetric)."""
        if self.A_BBo_B_exact is None:
            return 0.0
        skew_part = 0.5 * (self.A_BBo_B_exact - self.A_BBo_B_exact.T)
        return float(np.linalg.norm(skew_part, 2))


def flip_signs(name: str, frd: bool) -> float:
    """The factor ``F_i·F_j`` a term ``name`` (``xUabsU``, ``yDotR``, ``nV``) takes from
    forward-starboard-down to forward-port-up axes (1 when ``frd`` is false)."""
    parts = TERM_PARTS.match(name)
    if parts is None:
        raise ValueError(f"not a Hydrodynamics term name: {name!r}")
    if not frd:
        return 1.0
    row, _, velocity, _ = parts.groups()
    return _FLIP[FORCE_AXES.index(row)] * _FLIP[VELOCITY_AXES.index(velocity)]


def _vector_B(p: tuple[float, float, float] | None, frd: bool) -> np.ndarray | None:
    if p is None:
        return None
    return np.asarray(p, dtype=float) * (np.asarray(_FLIP[:3]) if frd else 1.0)


def _fluid_added_mass(published: Published) -> np.ndarray:
    """The published ``<fluid_added_mass>`` (linear-first, positive) in forward-port-up axes;
    zero when none is published."""
    A = added_mass_from_values(published.fluid_added_mass).linear_first()
    flip = np.asarray(_FLIP) if published.frd else np.ones(6)
    return np.asarray(A * np.outer(flip, flip), dtype=float)


def _derivative_terms(entry: str, published: Published) -> GzTerms:
    sign = 1.0 if published.sign == "negative" else -1.0
    converted = {name: sign * flip_signs(name, published.frd) * value + 0.0
                 for name, value in published.terms.items()}
    added = {n: v for n, v in converted.items() if "Dot" in n}
    D = derivatives(added) - _fluid_added_mass(published)
    A = -0.5 * (D + D.T) + 0.0
    has_added = bool(added) or bool(published.fluid_added_mass)
    notes = [] if not published.not_converted else [published.not_converted]
    if published.frd:
        notes.append("published in forward-starboard-down axes: turned by π about x to "
                     "forward-port-up link axes")
    frame = (f"Bo at the published reference point ({published.point}); B: x forward, "
             "y port, z up")
    return GzTerms(
        entry=entry, A_BBo_B=AddedMass(A, ordering="linear-first") if has_added else None,
        A_BBo_B_exact=-D if has_added else None,
        damping={n: v for n, v in converted.items() if "Dot" not in n}, forward_speed={},
        mass=published.rigid_mass, p_BoBcm_B=_vector_B(published.p_PoG, published.frd),
        p_BoBcb_B=_vector_B(published.p_PoB, published.frd), volume=published.volume,
        link_frame=frame, notes=tuple(notes),
    )


def _matrix(values: tuple[float, ...]) -> np.ndarray:
    if len(values) == 6:
        return np.diag(values)
    return np.asarray(values, dtype=float).reshape(6, 6)


def _from_equivalent(entry: str, published: Published, eq: GzEquivalent,
                     p_BoBcm_B: np.ndarray, p_BoBcb_B: np.ndarray | None,
                     notes: list[str]) -> GzTerms:
    A = eq.A_BBo_B_exact
    has_added = bool(np.any(A != 0.0))
    if eq.added_mass_gap > 0.0:
        notes.append(f"the published added mass is not symmetric as it acts: its skew part "
                     f"({eq.added_mass_gap:.3g}) cannot be written as <fluid_added_mass>")
    return GzTerms(
        entry=entry, A_BBo_B=eq.A_BBo_B if has_added else None,
        A_BBo_B_exact=A if has_added else None, damping=dict(eq.damping),
        forward_speed=dict(eq.forward_speed), mass=published.rigid_mass, p_BoBcm_B=p_BoBcm_B,
        p_BoBcb_B=p_BoBcb_B, volume=published.volume,
        link_frame="Bo: the link origin; B: the link axes (x forward, y port, z up)",
        notes=tuple(notes),
    )


def _uuv_terms(entry: str, published: Published) -> GzTerms:
    m = published.matrices
    zero = np.zeros((6, 6))
    D_quad = _matrix(m["quadratic_damping"]) if "quadratic_damping" in m else zero
    p_PoB = published.p_PoB or (0.0, 0.0, 0.0)
    link = UuvLink(
        link=entry, model_type="fossen", volume=published.volume or 0.0,
        volume_declared=published.volume is not None, p_BcmC_B=p_PoB,
        cob_declared=published.p_PoB is not None, neutrally_buoyant=False, box=None,
        Ma=_matrix(m["added_mass"]) if "added_mass" in m else zero,
        D_lin=_matrix(m["linear_damping"]) if "linear_damping" in m else zero,
        D_forward=_matrix(m["linear_damping_forward_speed"])
        if "linear_damping_forward_speed" in m else zero,
        D_quad=np.diag(np.diag(D_quad)), surface=None, source=SourceRef(f"catalogue:{entry}", 0),
    )
    p_BoBcm_B = np.asarray(published.p_PoG or (0.0, 0.0, 0.0), dtype=float)
    notes = ["UUV Simulator's flipped axes and its force at the centre of mass converted as "
             "gzinertia migrate converts them"]
    return _from_equivalent(entry, published, uuv_equivalent(link, p_BoBcm_B), p_BoBcm_B,
                            p_BoBcm_B + np.asarray(p_PoB), notes)


def _vrx_terms(entry: str, published: Published) -> GzTerms:
    defaulted = tuple(n for n in DEFAULTS if n not in published.terms)
    plugin = VrxDynamics(
        link=entry, terms={**DEFAULTS, **published.terms}, defaulted=defaulted,
        source=SourceRef(f"catalogue:{entry}", 0),
    )
    terms = (*ADDED_MASS_TERMS, *LINEAR_TERMS, *QUADRATIC_TERMS)
    used = [n for n in defaulted if n in terms]
    notes = [f"SimpleHydrodynamics's defaults where the block is silent: {', '.join(used)}"]
    p_BoBcm_B = np.asarray(published.p_PoG or (0.0, 0.0, 0.0), dtype=float)
    return _from_equivalent(entry, published, vrx_equivalent(plugin, np.zeros(3)), p_BoBcm_B,
                            _vector_B(published.p_PoB, False), notes)


def gz_terms(entry: str, published: Published) -> GzTerms:
    """The published numbers of catalogue entry ``entry`` in gz-sim's form, about the link
    origin in link axes (module docstring for each convention)."""
    if published.convention == "uuv_simulator":
        return _uuv_terms(entry, published)
    if published.convention == "vrx_simple_hydrodynamics":
        return _vrx_terms(entry, published)
    if published.convention == "gz_hydrodynamics" and published.frd:
        raise ValueError(f"{entry}: gz-sim's Hydrodynamics terms are in link axes, not "
                         "forward-starboard-down ones")
    return _derivative_terms(entry, published)
