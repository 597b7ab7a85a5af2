"""The fit an ``addmass --ellipsoid`` comment names, refitted to the link as it is now.

``addmass --ellipsoid`` writes a comment before ``<fluid_added_mass>`` naming the fit's method
(``volume fit``, ``mujoco fit``, ``inertia fit``, an explicit ellipsoid), the fluid density and
the hull fallback, as a sentence and as data (:mod:`gzinertia.physics.provenance_comment`
writes and reads it, older comments too). The audit refits the link that way
(:func:`recorded_fit`): a matrix is then judged against the fit that produced it (GZI204's
centre, GZI207's magnitude), not against the default volume fit, which other fits legitimately
differ from (MuJoCo's ellipsoid of a cone holds about three times the cone's volume; the inertia
fit is centred at the centre of mass). A fit made with ``--hull convex`` or ``--hull wrap`` is
refitted with that fallback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.physics.fits import FitError, explicit_fit, fit_link
from gzinertia.physics.mesh_fallback import hull_fallback
from gzinertia.physics.provenance_comment import FIT_PREFIX as PREFIX
from gzinertia.physics.provenance_comment import FitProvenance
from gzinertia.physics.provenance_comment import read_fit_comment as parse_fit_provenance

if TYPE_CHECKING:
    from gzinertia.physics.fits import EllipsoidFit
    from gzinertia.records import LinkRecord

__all__ = ["PREFIX", "FitProvenance", "parse_fit_provenance", "recorded_fit"]


def recorded_fit(link: LinkRecord, provenance: FitProvenance) -> EllipsoidFit | None:
    """The fit the comment names, of ``link`` as it is now (``None`` when the link can no
    longer be fitted that way: its collisions or inertia became unusable)."""
    try:
        if provenance.explicit is not None:
            return explicit_fit(*provenance.explicit)
        with hull_fallback(provenance.hull):  # as the comment says the fit was made
            return fit_link(link, provenance.method)
    except FitError:
        return None
