"""When added mass applied explicitly diverges (gazebosim/gz-sim#1923, #1462): the condition
GZI506 judges and every edit that writes plugin added mass refuses.

A plugin that applies added mass as a force from the acceleration of the last steps (gz-sim's
Hydrodynamics system: ``kAmassVec = -Ma·stateDot`` with ``stateDot`` the difference of the
link-origin velocity over the last two steps, in link axes, the wrench applied at the link
origin by ``Link::AddWorldWrench``; UUV Simulator's underwater-object plugin; VRX's USV
dynamics) feeds the last step's velocity change back as a force. On an axis where the added
mass ``a`` exceeds the rigid body's ``m``, each step's change is ``-(a/m)`` times the previous
one: the motion diverges. The comparison is element by element on the diagonals, both about
the link origin Bo in link axes B: ``|a_ii|`` of the linear block against the mass, of the
angular block against the diagonal of ``I_BBo_B`` (the rotational inertia about Bo, not about
the centre of mass).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.records import LinkRecord

__all__ = ["AXES", "explicit_unstable_axes", "rigid_diagonal", "too_large_for_the_plugin"]

#: The plugin's velocity names, linear-first ``[u v w p q r]``.
AXES = ("u", "v", "w", "p", "q", "r")


def rigid_diagonal(link: LinkRecord) -> NDArray[np.float64]:
    """``[m, m, m, Ixx, Iyy, Izz]``: the link's rigid mass and the diagonal of ``I_BBo_B``
    (about the link origin Bo, link axes B), linear-first."""
    inertial = link.inertial
    I_Bo = np.asarray(inertial.I_BBo_B, dtype=float)
    m = inertial.mass
    return np.array([m, m, m, I_Bo[0, 0], I_Bo[1, 1], I_Bo[2, 2]], dtype=float)


def explicit_unstable_axes(added: ArrayLike, rigid: ArrayLike) -> list[str]:
    """``"u: added 12 > rigid 10"`` for each axis (``AXES``) on which the added-mass diagonal
    ``added`` (six values, linear-first, about Bo in link axes, as the plugin applies them)
    exceeds the ``rigid`` diagonal (:func:`rigid_diagonal`); values as the file writes them (up
    to 10 significant digits)."""
    pairs = zip(AXES, np.asarray(added, dtype=float), np.asarray(rigid, dtype=float),
                strict=True)
    return [f"{axis}: added {a + 0.0:.10g} > rigid {r + 0.0:.10g}" for axis, a, r in pairs
            if a > r]


def too_large_for_the_plugin(A_BBo_B: ArrayLike, link: LinkRecord) -> str | None:
    """Why the Hydrodynamics plugin must not be given ``A_BBo_B`` (6x6, linear-first, about Bo
    in link axes) as ``link``'s ``<iDotJ>`` terms: the axes on which it exceeds the rigid body
    (GZI506 would report them after the edit); ``None`` when it stays within the bound."""
    over = explicit_unstable_axes(np.abs(np.diag(np.asarray(A_BBo_B, dtype=float))),
                                  rigid_diagonal(link))
    if not over:
        return None
    return ("the Hydrodynamics plugin applies added mass explicitly, from the last steps' "
            "acceleration, and diverges where it exceeds the rigid body's (gz-sim#1923, the "
            "audit's GZI506): " + "; ".join(over))
