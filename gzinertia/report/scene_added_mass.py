"""The equivalent added-mass ellipsoid of each link in the HTML report
(:mod:`gzinertia.physics.added_mass_ellipsoid`): drawn for the added mass Gazebo applies to the
link (its ``<fluid_added_mass>``, else its Hydrodynamics plugin's:
:func:`gzinertia.checks.added_mass.link_added_mass`), at its implied centre
(:func:`gzinertia.checks.matrices.implied_centre`), true size, in the fluid the page's
hydrostatics use (a model file's: Gazebo's default water, as ``hydrostatics`` assumes it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gzinertia.checks.added_mass import link_added_mass
from gzinertia.checks.matrices import implied_centre
from gzinertia.physics.added_mass_ellipsoid import equivalent_added_mass_ellipsoid
from gzinertia.records import LinkRecord

__all__ = ["added_mass_ellipsoid"]


def added_mass_ellipsoid(link: LinkRecord, density: float) -> tuple[dict[str, Any] | None,
                                                                      str | None]:
    """The link's equivalent added-mass ellipsoid as the page draws it (``centre``,
    ``semi_axes``, ``R_WP`` in the world frame, ``density`` kg/m³, ``source``), or why it has
    none when it has added mass (``(None, None)`` for a link without)."""
    applied = link_added_mass(link)
    if applied is None:
        return None, None
    A_BBo_B, source = applied
    try:
        semi_axes, R_BE = equivalent_added_mass_ellipsoid(A_BBo_B[:3, :3], density)
    except ValueError as exc:
        return None, f"{source}: {exc}"
    p_BoQ_B = implied_centre(A_BBo_B)
    centre = link.X_WB.R @ (np.zeros(3) if p_BoQ_B is None else p_BoQ_B) + link.X_WB.p
    return {"centre": centre.tolist(), "semi_axes": semi_axes.tolist(),
            "R_WP": (link.X_WB.R @ R_BE).tolist(), "density": density, "source": source}, None
