"""What an ellipsoid fit of a link gives (:class:`EllipsoidFit`: ellipsoids posed in the link
frame B, and their added mass about Bo, linear-first), the fit methods' names, and the error a
fit raises (:class:`FitError`, advising another fit). :mod:`gzinertia.physics.fits` computes
the fits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.errors import Float64OverflowError, GzInertiaError
from gzinertia.options import option
from gzinertia.physics.ellipsoid import PosedEllipsoid, semi_axes_problem
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.added_mass import AddedMass, ellipsoid_added_mass
from gzinertia.spatial.rotation import Vec3
from gzinertia.spatial.tuckerman import MAX_AXIS_RATIO
from gzinertia.vocabulary.choices import FitMethod as FitMethod
from gzinertia.wording import vector

#: The fit methods, the default (``volume``) first.
FIT_METHODS: tuple[FitMethod, ...] = ("volume", "mujoco", "inertia", "explicit")


DEFAULT_FIT: FitMethod = "volume"


def _explicit_hint() -> str:
    return option("explicit_ellipsoid")


class FitError(GzInertiaError):
    """A link (or explicit input) that the requested ellipsoid fit cannot handle.

    ``problem``: the message without its advice; ``fallback``: the fit that does not need what
    this one lacked (``"inertia"`` when the collisions cannot be fitted, ``"volume"`` when the
    inertia cannot), ``None`` when no other fit helps. A command that has no explicit ellipsoid
    (``plot``) words its own advice from these."""

    def __init__(self, message: str, *, problem: str | None = None,
                 fallback: FitMethod | None = None) -> None:
        super().__init__(message)
        self.problem = message if problem is None else problem
        self.fallback = fallback


def unfit(problem: str, fallback: FitMethod) -> FitError:
    """``problem``, advising the ``fallback`` fit or an explicit ellipsoid (spelled when raised,
    so as the caller's interface spells options: :func:`gzinertia.options.option`)."""
    if fallback == "inertia":
        hint = f"use the 'inertia' fit or give the ellipsoid with {_explicit_hint()}"
    else:
        hint = f"use the 'volume' fit (from the collisions) or {_explicit_hint()}"
    return FitError(f"{problem}; {hint}", problem=problem, fallback=fallback)


@dataclass(frozen=True, repr=False, eq=False)
class EllipsoidFit(ValueRecord):
    """The ellipsoids of one fit of a link, and what to tell the user about it.

    ``ellipsoids`` holds one ellipsoid, except for ``mujoco`` (one per collision) and ``volume``
    (one per separate body); ``description``
    is one line naming the method; ``approximation`` says what the shapes approximated (e.g. a
    non-watertight mesh replaced by its convex hull), ``None`` when nothing was.
    """

    method: FitMethod
    ellipsoids: tuple[PosedEllipsoid, ...]
    description: str
    approximation: str | None = None

    def added_mass(self, density: float) -> AddedMass:
        """``A_BBo_B`` in a fluid of ``density`` (kg/m³): the sum over the ellipsoids of each
        Tuckerman ``A_EEo_E`` rotated to link axes and moved from its centre Eo to the link
        origin Bo (exact congruences). Linear-first ``[x y z p q r]``."""
        total: AddedMass | None = None
        try:
            for ellipsoid in self.ellipsoids:
                _, A_BBo_B = ellipsoid_added_mass(ellipsoid.semi_axes, density, ellipsoid.X_FE)
                total = A_BBo_B if total is None else total + A_BBo_B
        except Float64OverflowError as exc:
            raise FitError(f"{self.description}: {exc}") from None
        if total is None:
            raise FitError(f"{self.description}: no ellipsoid to compute added mass from")
        return total


def check_semi_axes(semi_axes: Vec3, what: str) -> str | None:
    """Why these semi-axes cannot make an ellipsoid (``None`` when they can)."""
    problem = semi_axes_problem(semi_axes, MAX_AXIS_RATIO)
    return None if problem is None else f"{what}: {problem}"


def fmt(v: ArrayLike) -> str:
    """A vector in a fit's words: six significant digits."""
    return vector(np.asarray(v, dtype=float).ravel(), 6)

