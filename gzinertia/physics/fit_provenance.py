"""The comment ``addmass --ellipsoid`` writes before ``<fluid_added_mass>``, read back.

``addmass --ellipsoid`` writes ``gzinertia addmass: Tuckerman ellipsoid added mass, <the fit's
description>, fluid density <ρ> kg/m^3; about the link origin in link axes``
(:func:`gzinertia.edit.addmass.provenance`). The description opens with the fit's method
(``volume fit``, ``mujoco fit``, ``inertia fit``, ``explicit ellipsoid: semi-axes (a, b, c) m,
centre (x, y, z) m, rpy (r, p, y) rad``; :mod:`gzinertia.physics.fits`). The audit reads the
method back and refits the link as it is now (:func:`recorded_fit`): a matrix is then judged
against the fit that produced it (GZI204's centre, GZI207's magnitude), not against the default
volume fit, which other fits legitimately differ from (MuJoCo's ellipsoid of a cone holds about
three times the cone's volume; the inertia fit is centred at the centre of mass). A fit made
with ``--hull convex`` or ``--hull wrap`` says so in the comment (``geometry: convex hull of a
mesh that is not closed``, ``closed wrap of a mesh that is not closed``) and is refitted with
that fallback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gzinertia.numbers import NumberError, read_number
from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.physics.fits import EllipsoidFit, FitMethod
    from gzinertia.physics.mesh_body import HullChoice
    from gzinertia.records import LinkRecord

__all__ = ["PREFIX", "FitProvenance", "parse_fit_provenance", "recorded_fit"]

PREFIX = "gzinertia addmass: Tuckerman ellipsoid added mass, "
_FITS: dict[str, FitMethod] = {"volume": "volume", "mujoco": "mujoco", "inertia": "inertia"}
_METHOD = re.compile(r"(volume|mujoco|inertia) fit|(explicit) ellipsoid")
_TRIPLE = r"\(([^,()]+), ([^,()]+), ([^,()]+)\)"
_EXPLICIT = re.compile(
    rf"explicit ellipsoid: semi-axes {_TRIPLE} m, centre {_TRIPLE} m, rpy {_TRIPLE} rad"
)
_DENSITY = re.compile(r"fluid density ([^ ]+) kg/m\^3")


@dataclass(frozen=True, repr=False, eq=False)
class FitProvenance(ValueRecord):
    """What an ``addmass --ellipsoid`` comment says: the fit method, the fluid density
    (kg/m³) and, for ``explicit``, the ellipsoid (semi-axes in m, centre ``p_BoEo_B`` in m and
    roll-pitch-yaw in rad, all in the link frame B, as written: 6 significant digits)."""

    method: FitMethod
    density: float
    explicit: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] | None = None
    #: The hull fallback the fit was made with (``convex`` or ``wrap`` when the comment names
    #: a convex hull or a wrap: :mod:`gzinertia.physics.mesh_body`), so the audit refits the
    #: link the same way.
    hull: HullChoice = "none"


def parse_fit_provenance(comment: str | None) -> FitProvenance | None:
    """The fit an ``addmass --ellipsoid`` comment names; ``None`` for any other text (a BEM or
    import comment, a user's comment, an explicit ellipsoid whose numbers do not read back)."""
    if not comment or PREFIX not in comment:
        return None
    rest = comment.split(PREFIX, 1)[1]
    method, density = _METHOD.match(rest), _DENSITY.search(rest)
    if method is None or density is None:
        return None
    from gzinertia.physics.mesh_body import HULL_USED, WRAP_USED

    hull: HullChoice = "convex" if HULL_USED in rest else "wrap" if WRAP_USED in rest else "none"
    try:  # the numbers as written (a comment that is not ours may spell 1_000: not ours)
        rho = read_number(density.group(1))
        if method.group(2) is None:
            return FitProvenance(_FITS[method.group(1)], rho, hull=hull)
        numbers = _EXPLICIT.match(rest)
        if numbers is None:
            return None
        v = tuple(read_number(x.strip()) for x in numbers.groups())
    except NumberError:
        return None
    return FitProvenance("explicit", rho, (v[0:3], v[3:6], v[6:9]))


def recorded_fit(link: LinkRecord, provenance: FitProvenance) -> EllipsoidFit | None:
    """The fit the comment names, of ``link`` as it is now (``None`` when the link can no
    longer be fitted that way: its collisions or inertia became unusable)."""
    from gzinertia.physics.fits import FitError, explicit_fit, fit_link
    from gzinertia.physics.mesh_body import hull_fallback

    try:
        if provenance.explicit is not None:
            return explicit_fit(*provenance.explicit)
        with hull_fallback(provenance.hull):  # as the comment says the fit was made
            return fit_link(link, provenance.method)
    except FitError:
        return None
