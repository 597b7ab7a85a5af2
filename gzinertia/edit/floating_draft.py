"""``addmass --bem --waterline auto``: where each link floats, from its free body's hydrostatic
equilibrium (:func:`gzinertia.physics.flotation.model_flotation`, as ``hydrostatics
--waterline`` solves it), so that the free-surface solve is posed at the floating draft.

The equilibrium moves the body from the pose the file gives: heave along z, roll then pitch
about its centre of mass G (:class:`~gzinertia.physics.flotation.Flotation`). The solve keeps
the file's heights and moves the free surface instead: the surface crosses G's vertical at
``z = z_surface - heave`` (world frame, the file's pose: :attr:`FloatingDraft.waterline`), and
each link is turned about G by the heel and trim (:meth:`FloatingDraft.pose`). On a level
equilibrium the solve is then exactly ``--waterline <that z>``'s. The added mass comes out
about each link origin in link axes, so the pose change does not reach the matrix's frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.errors import GzInertiaError
from gzinertia.hydrostatics_result import document_hydrostatics
from gzinertia.options import option
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Pose, Vec3, rotation_from_rpy

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gzinertia.records import LinkRecord, SdfDocument

#: The free-surface height the equilibrium is solved at (world z, m); any height gives the same
#: draft, heel and trim, since the body is free to heave.
Z_SURFACE = 0.0


@dataclass(frozen=True, repr=False, eq=False)
class FloatingDraft(ValueRecord):
    """A free body floating at equilibrium in water of ``density`` (kg/m³), nothing above.

    ``body``: the free body's name (as ``hydrostatics`` names it); ``mass`` (kg); ``p_WG`` its
    centre of mass in the file's pose (world, m); ``heave`` (m), ``heel`` and ``trim`` (rad:
    roll about world x, then pitch about world y, about G) the motion from the file's pose to
    the equilibrium; ``draft`` the depth of the lowest hull point (m); ``waterline`` the free
    surface's height where it crosses G's vertical, in the file's pose (world z, m);
    ``tolerance`` and ``tolerance_note``: the relative tolerance of these figures and why
    (:attr:`gzinertia.physics.flotation.Flotation.tolerance`, as ``hydrostatics`` says it)."""

    body: str
    mass: float
    density: float
    p_WG: Vec3
    heave: float
    heel: float
    trim: float
    draft: float
    waterline: float
    tolerance: float = 0.0
    tolerance_note: str = ""

    def pose(self, X_WB: Pose) -> Pose:
        """A link posed at ``X_WB`` by the file, turned about G by the heel and trim (not
        heaved: the surface is at :attr:`waterline` instead)."""
        if self.heel == 0.0 and self.trim == 0.0:
            return X_WB
        R = np.asarray(rotation_from_rpy(self.heel, self.trim, 0.0))
        G = np.asarray(self.p_WG, dtype=float)
        return Pose(R @ (np.asarray(X_WB.p, dtype=float) - G) + G, R @ np.asarray(X_WB.R))

    def words(self) -> str:
        """What the solve was posed at, for messages and the provenance comment (after the
        surface's height, :attr:`waterline`: the surface moved by ``-heave`` rather than the
        body by ``heave``)."""
        return (
            f"waterline auto: the floating equilibrium of {self.body}, {self.mass:g} kg in "
            f"{self.density:g} kg/m^3: heave {self.heave:+.6g} m, heel "
            f"{math.degrees(self.heel):+.3g} deg, trim {math.degrees(self.trim):+.3g} deg from "
            f"the file's pose (as hydrostatics reports them), draft {self.draft:.6g} m; "
            f"these figures within {self.tolerance:.2g} relative ({self.tolerance_note})"
        )


def _refusal(file: str, link: str, body: str, why: str) -> GzInertiaError:
    """The one line refusing ``--waterline auto`` for ``link``: why, and what works."""
    return GzInertiaError(
        f"{file}: {option('waterline_auto')}: link {link!r} (body {body!r}) {why}; give "
        f"{option('waterline_z')} for a surface at a height of your choosing, or leave it out "
        "for the added mass fully submerged (unbounded fluid)"
    )


def floating_drafts(
    doc: SdfDocument,
    links: Sequence[LinkRecord],
    density: float,
    tree: Any = None,
) -> dict[str, FloatingDraft]:
    """Each of ``links``' floating draft (by link name), from its free body's equilibrium in
    water of ``density`` (kg/m³) with nothing above, solved as ``hydrostatics --waterline 0
    --density <density>`` solves it (heave, heel and trim; :data:`Z_SURFACE`).

    ``tree``: the document's parsed XML when its file cannot be read again (standard input).
    Raises :class:`~gzinertia.errors.GzInertiaError` (one line naming the file, the link and
    its body) when a link's body sinks, floats only fully submerged (neutral), is static or
    joined to the world, has no hull, or has no heel and trim that balance it."""
    wanted = {link.name for link in links}
    result = document_hydrostatics(doc, tree=tree, density=density, waterline=Z_SURFACE)
    drafts: dict[str, FloatingDraft] = {}
    for model in result.models:
        for body in model.bodies:
            names = [lk.name for lk in body.links if lk.name in wanted]
            if not names:
                continue
            fl = result.flotation[body.name]
            if fl is None:
                why = ("is static or joined to the world, or has no mass or no collision to "
                       "float on: it has no floating equilibrium")
                raise _refusal(doc.path, names[0], body.name, why)
            if not fl.floats:
                raise _refusal(doc.path, names[0], body.name, (
                    f"sinks: {fl.volume * density:.6g} kg of water displaced at most against "
                    f"{body.mass:.6g} kg: it has no floating draft"))
            if not fl.waterplane_area > 0.0 or fl.volume >= body.volume_exact * (1.0 - 1e-9):
                raise _refusal(doc.path, names[0], body.name, (
                    f"is neutrally buoyant ({body.mass:.6g} kg, displacing as much fully "
                    "submerged): it floats at any depth, with no waterline of its own"))
            if not fl.converged:
                raise _refusal(doc.path, names[0], body.name, (
                    "has no heel and trim at which its centres of buoyancy and mass line up "
                    "(hydrostatics --waterline shows the level pose)"))
            draft = FloatingDraft(
                body.name, body.mass, density,
                np.asarray(fl.p_WG, dtype=float) - np.array([0.0, 0.0, fl.heave]),
                fl.heave, fl.roll, fl.pitch, fl.draft, fl.z_surface - fl.heave,
                fl.tolerance, fl.tolerance_note,
            )
            for name in names:
                drafts[name] = draft
    return drafts
