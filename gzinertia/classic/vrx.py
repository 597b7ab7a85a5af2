"""VRX's classic USV dynamics plugin: the one home of its vocabulary and semantics.

Read from ``usv_gazebo_plugins/src/usv_gazebo_dynamics_plugin.cc`` on VRX's
``gazebo_classic`` branch at commit ``c9b9388308f8976c724da4af6685f69c9c378983`` (line
references in ``docs/classic_plugins.md``). The plugin file is
``libusv_gazebo_dynamics_plugin.so``; ``<bodyName>`` names the link (default: the model's first
link).

Points, axes, ordering: velocities are the **link origin**'s, in **link axes** (Gazebo
classic's ``RelativeLinearVel``/``RelativeAngularVel``), linear-first ``[u v w p q r]``; the
acceleration is the finite difference of the last two steps (no filter); the force
``-Ma·a - D(nu)·nu`` is applied in link axes at the link's **centre of mass** (``AddRelativeForce``)
and the torque in link axes. ``Ma = diag(xDotU, yDotV, zDotW, kDotP, mDotQ, nDotR)``,
``D(nu) = diag(xU + xUU·|u|, yV + yVV·|v|, ...)``: **positive** values resist motion (gz-sim's
Hydrodynamics takes the same terms negative). The plugin computes an added-mass Coriolis matrix
but never applies it. Buoyancy and waves (the hull grid) are not part of this record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from gzinertia.record_base import Record
from gzinertia.records import SourceRef
from gzinertia.sdf.values import parse_float, text_of
from gzinertia.sdf.xml import child, line_of

__all__ = [
    "ADDED_MASS_TERMS",
    "DEFAULTS",
    "FILENAME",
    "LINEAR_TERMS",
    "QUADRATIC_TERMS",
    "VrxDynamics",
    "is_vrx_usv_dynamics",
    "read_vrx_plugin",
    "vrx_wrench",
]

FILENAME = "usv_gazebo_dynamics_plugin"
#: Diagonal added-mass terms, in ``[u v w p q r]`` order.
ADDED_MASS_TERMS = ("xDotU", "yDotV", "zDotW", "kDotP", "mDotQ", "nDotR")
#: Linear and quadratic damping terms, in ``[u v w p q r]`` order.
LINEAR_TERMS = ("xU", "yV", "zW", "kP", "mQ", "nR")
QUADRATIC_TERMS = ("xUU", "yVV", "zWW", "kPP", "mQQ", "nRR")
#: The plugin's defaults when a tag is absent.
DEFAULTS: dict[str, float] = {
    "xDotU": 5.0, "yDotV": 5.0, "zDotW": 0.1, "kDotP": 0.1, "mDotQ": 0.1, "nDotR": 1.0,
    "xU": 20.0, "yV": 20.0, "zW": 20.0, "kP": 20.0, "mQ": 20.0, "nR": 20.0,
    "xUU": 0.0, "yVV": 0.0, "zWW": 0.0, "kPP": 0.0, "mQQ": 0.0, "nRR": 0.0,
    "waterLevel": 0.5, "waterDensity": 997.7735, "hullRadius": 0.213, "boatWidth": 1.0,
    "boatLength": 1.35,
}


def is_vrx_usv_dynamics(filename: str) -> bool:
    """Whether a ``<plugin filename>`` is VRX's classic USV dynamics plugin."""
    base = filename.strip().rsplit("/", 1)[-1]
    return base.removeprefix("lib").removesuffix(".so") == FILENAME


@dataclass(frozen=True, repr=False, eq=False)
class VrxDynamics(Record):
    """One USV dynamics ``<plugin>``: every term (declared or defaulted) and which were
    defaulted. ``link``: ``<bodyName>``, empty for the model's first link."""

    link: str
    terms: dict[str, float]
    defaulted: tuple[str, ...]
    source: SourceRef
    term_sources: dict[str, SourceRef] = field(default_factory=dict)
    #: The scoped name of the SDF ``<model>`` holding the plugin (``""``: none, as in URDF).
    model: str = ""

    @property
    def Ma(self) -> np.ndarray:
        """The added mass (6x6 diagonal, linear-first, link axes, applied at Bcm)."""
        return np.diag([self.terms[t] for t in ADDED_MASS_TERMS])

    @property
    def linear(self) -> np.ndarray:
        """The linear damping diagonal (positive resists)."""
        return np.array([self.terms[t] for t in LINEAR_TERMS])

    @property
    def quadratic(self) -> np.ndarray:
        """The quadratic damping diagonal (positive resists)."""
        return np.array([self.terms[t] for t in QUADRATIC_TERMS])


def read_vrx_plugin(plugin: etree._Element, file: str) -> VrxDynamics:
    """Reads a USV dynamics ``<plugin>`` element (defaults as the plugin's)."""
    terms: dict[str, float] = {}
    sources: dict[str, SourceRef] = {}
    defaulted = []
    for name, default in DEFAULTS.items():
        elem = child(plugin, name)
        if elem is None:
            terms[name] = default
            defaulted.append(name)
        else:
            terms[name] = parse_float(elem, file)
            sources[name] = SourceRef(file, line_of(elem))
    body = child(plugin, "bodyName")
    return VrxDynamics(
        link="" if body is None else text_of(body), terms=terms, defaulted=tuple(defaulted),
        source=SourceRef(file, line_of(plugin)), term_sources=sources,
    )


def vrx_wrench(plugin: VrxDynamics, nu: np.ndarray, nu_dot: np.ndarray) -> np.ndarray:
    """The wrench ``[f_B; t_B]`` the plugin applies (force at Bcm, link axes) for the link
    origin's velocity ``nu`` and its finite-difference acceleration ``nu_dot`` (both
    linear-first, link axes)."""
    D = np.diag(plugin.linear + plugin.quadratic * np.abs(nu))
    result: np.ndarray = -plugin.Ma @ nu_dot - D @ nu
    return result
