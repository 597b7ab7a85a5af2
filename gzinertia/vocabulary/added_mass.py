"""Whether Gazebo's Hydrodynamics system applies added mass: the one definition.

gz-sim's Hydrodynamics reads every ``<iDotJ>`` parameter into its added-mass matrix ``Ma``
(whatever the signs: since 6.12/7.0 it applies ``+Ma·ν̇``, so Fossen-negative terms resist
acceleration and positive ones push along it) and applies none of them when
``<disable_added_mass>`` is true. So a plugin applies added mass exactly when it is not
disabled and some ``<iDotJ>`` is not zero; a mixed-sign plugin does (its matrix is physical or
not: that is GZI208's question, not this one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

__all__ = ["ADDED_MASS_TERM", "applies_added_mass"]

#: An ``<iDotJ>`` name: force row in ``xyzkmn``, ``Dot``, velocity column in ``UVWPQR``.
ADDED_MASS_TERM: Final = re.compile(r"^[xyzkmn]Dot[UVWPQR]$")


def applies_added_mass(terms: Mapping[str, float], disabled: bool) -> bool:
    """Whether a Hydrodynamics plugin with these parameters (``name → value``, any of them)
    and ``<disable_added_mass>`` = ``disabled`` applies added mass: not disabled and some
    ``<iDotJ>`` is not 0 (either sign)."""
    return not disabled and any(
        value != 0.0 for name, value in terms.items() if ADDED_MASS_TERM.match(name)
    )
