"""A free surface for the BEM solve: the waterline in the world frame W (z up), the link's pose
in W, the sea bed and the frequency limit, refused before anything is read when Capytaine
cannot solve it (DESIGN.md §11)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.panel_surface import WettedSurface
from gzinertia.physics.surface_mesh import wetted_surface
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.rotation import Pose

FloatArray = NDArray[np.float64]


def require_free_surface(depth: float, frequency: str) -> None:
    """Refuses, before anything is read or meshed, a free surface the solver cannot take: a
    finite ``depth`` at the zero-frequency limit (Capytaine's finite-depth Green function needs
    ``kh >= 0.1``; at zero frequency the rigid lid over a sea bed is an infinite series of
    images it has no kernel for) and at the infinite-frequency limit (Capytaine 3.0's solve
    there differs from run to run on the same mesh: a figure no bound can hold;
    ``tests/test_bem_depth.py``), and a frequency other than the two limits."""
    if frequency not in ("zero", "infinite"):
        raise GzInertiaError(
            f"{option('frequency')} under a free surface is zero or infinite, not "
            f"{frequency!r}: a finite frequency's added mass varies with it and goes with "
            "radiation damping (seakeeping), where Gazebo takes one constant matrix; import "
            f"one frequency of a dataset computed elsewhere with {option('bem_from')}"
        )
    if frequency == "zero" and math.isfinite(depth):
        raise GzInertiaError(
            f"{option('depth')} {depth:g} m with {option('frequency')} zero cannot be solved: "
            "Capytaine has no finite-depth Green function at zero frequency (a rigid lid over a "
            f"sea bed); leave {option('depth')} out (deep water: close while the depth is "
            "several times the hull's draft and beam)"
        )
    if math.isfinite(depth):
        raise GzInertiaError(
            f"{option('depth')} {depth:g} m with {option('frequency')} infinite cannot be "
            "solved reliably: Capytaine 3.0's finite-depth solve at infinite frequency gives "
            "another added mass at each run on the same mesh (0.3-2 % apart on a sphere), "
            f"which no error bound can hold; leave {option('depth')} out (deep water: close "
            "while the depth is several times the hull's draft and beam)"
        )


@dataclass(frozen=True, repr=False, eq=False)
class FreeSurface(ValueRecord):
    """A free surface for the solve: the plane ``z_W = waterline`` of the world frame W (z up),
    the link posed in W by ``X_WB``, the sea bed ``depth`` metres below it (``inf``: deep
    water), and the frequency limit (``"zero"``: rigid lid ``∂φ/∂z = 0``; ``"infinite"``:
    ``φ = 0`` on the surface). The body is clipped at the waterline."""

    waterline: float
    X_WB: Pose
    frequency: Literal["zero", "infinite"] = "zero"
    depth: float = math.inf
    #: Where the waterline and pose came from, in words, when not given as such
    #: (``--waterline auto``: :meth:`gzinertia.edit.floating_draft.FloatingDraft.words`);
    #: said by :meth:`domain`, not part of the key (the waterline and pose are).
    origin: str = ""

    def __post_init__(self) -> None:
        require_free_surface(self.depth, self.frequency)

    def key(self) -> str:
        """The cache key of this free surface: every field, ``X_WB`` at full precision."""
        p = ",".join(f"{v:.17g}" for v in (*self.X_WB.p, *self.X_WB.R.ravel()))
        return f"fs|{self.waterline!r}|{p}|{self.frequency}|{self.depth!r}"

    def domain(self) -> str:
        """The domain in words (waterline in the world, depth) for messages and provenance."""
        depth = "deep water" if math.isinf(self.depth) else f"water depth {self.depth:g} m"
        said = f" ({self.origin})" if self.origin else ""
        return f"free surface at z = {self.waterline:g} m (world){said}, {depth}"

    def p_WaterBo_W(self) -> FloatArray:
        """Bo in the waterline frame (world axes, origin on the waterplane below W's origin)."""
        return np.asarray(self.X_WB.p, dtype=float) - np.array([0.0, 0.0, self.waterline])

    def wetted(
        self, collisions: Sequence[Collision], h: float, element: str = "collision",
        link: str | None = None,
    ) -> WettedSurface:
        """The link's surface below this waterline
        (:func:`gzinertia.physics.surface_mesh.wetted_surface`)."""
        X_WaterB = Pose(self.p_WaterBo_W(), np.asarray(self.X_WB.R, dtype=float))
        return wetted_surface(collisions, h, X_WaterB, element, link)

