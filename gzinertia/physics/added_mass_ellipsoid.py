"""The equivalent added-mass ellipsoid: the solid ellipsoid whose translational added mass in a
fluid (Tuckerman's, :func:`gzinertia.spatial.tuckerman.ellipsoid_added_mass`) equals a link's,
as the equivalent inertia ellipsoid is the uniform solid with the link's principal moments.
Drawn beside the geometry, it shows at a glance whether a matrix is about the size of the body
it is written on (the link's own fit, or a BEM solve) or copied from a larger or smaller one.

Its axes and their lengths come from the linear block ``L`` of ``A_BBo_B`` (linear-first
``[x y z p q r]``, link axes B; the block is the same about every point): ``L = R·diag(m)·Rᵀ``,
each ``m_i > 0`` the added mass along the ellipsoid's axis ``i`` (the columns of ``R = R_BE``),
and the semi-axes ``r`` solve ``m_A(r) = m`` for the fluid's density. The added masses of an
ellipsoid scale as its volume (``r³``) and their ratios depend on its shape alone, so the
shape is solved on the ratios (two unknowns, least squares on their logarithms) and the size
follows in closed form. Its centre is the point about which ``A``'s coupling block is
symmetric (:func:`gzinertia.checks.matrices.implied_centre`), given by the caller.

Floor: physics (NumPy, SciPy).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import least_squares

from gzinertia.spatial.tuckerman import MAX_AXIS_RATIO, ellipsoid_added_mass

__all__ = ["SOLVE_TOLERANCE", "equivalent_added_mass_ellipsoid"]

#: Largest relative difference between the solved ellipsoid's added masses and the link's
#: for the ellipsoid to be drawn as its equivalent.
SOLVE_TOLERANCE = 1e-9


def _log_masses(log_shape: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log m_A`` (unit density) of the ellipsoid with semi-axes ``(1, e^u, e^v)``."""
    r = np.array([1.0, math.exp(log_shape[0]), math.exp(log_shape[1])])
    m_A, _ = ellipsoid_added_mass(r, 1.0)
    return np.log(m_A)


def equivalent_added_mass_ellipsoid(
    L_B: NDArray[np.float64], density: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(semi_axes, R_BE)``: the ellipsoid whose Tuckerman added masses in a fluid of
    ``density`` (kg/m³) are the eigenvalues of ``L_B`` (kg, the linear block of an added-mass
    matrix in B axes) along its axes, the columns of ``R_BE`` (a proper rotation); semi-axes in
    metres, in the order of those columns (ascending added mass, so descending length).

    :raises ValueError: ``L_B`` not symmetric positive definite, a density not positive, or no
        ellipsoid with axis ratios up to ``MAX_AXIS_RATIO`` matching to
        :data:`SOLVE_TOLERANCE` (the message says which).
    """
    L = np.asarray(L_B, dtype=float)
    if L.shape != (3, 3) or not np.all(np.isfinite(L)):
        raise ValueError("the linear block must be a finite 3x3 matrix")
    if not density > 0.0:
        raise ValueError(f"the fluid density must be positive, not {density:g}")
    masses, R_BE = np.linalg.eigh(0.5 * (L + L.T))
    if not masses[0] > 0.0:
        raise ValueError("its linear block is not positive definite (eigenvalues "
                         + ", ".join(f"{m:.4g}" for m in masses) + " kg)")
    if np.linalg.det(R_BE) < 0.0:
        R_BE[:, 2] *= -1.0
    want = np.log(masses)
    bound = math.log(MAX_AXIS_RATIO) * 0.999

    def residual(x: NDArray[np.float64]) -> NDArray[np.float64]:
        got = _log_masses(x)
        return (got[1:] - got[0]) - (want[1:] - want[0])

    # a shorter axis carries more added mass: start from lengths falling as the masses rise
    start = np.clip(-0.5 * (want[1:] - want[0]), -bound, bound)
    solved = least_squares(residual, start, bounds=(-bound, bound), xtol=1e-15, ftol=1e-15,
                           gtol=1e-15)
    shape = np.array([1.0, math.exp(solved.x[0]), math.exp(solved.x[1])])
    unit_masses, _ = ellipsoid_added_mass(shape, density)
    scale = float(np.cbrt(np.exp(np.mean(want - np.log(unit_masses)))))
    semi_axes = shape * scale
    reached, _ = ellipsoid_added_mass(semi_axes, density)
    error = float(np.max(np.abs(reached - masses) / masses))
    if not error <= SOLVE_TOLERANCE:
        raise ValueError(f"no ellipsoid with axis ratios up to {MAX_AXIS_RATIO:g} has these "
                         f"added masses (closest: {100 * error:.3g} % off)")
    return semi_axes, R_BE
