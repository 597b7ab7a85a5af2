"""Angular-first spatial velocities and wrenches moved from one point to another (same axes)
and re-expressed in other axes, as the fluid models need them (Drake's ``SpatialVelocity``
and ``SpatialForce`` conventions; ``docs/conventions.md``)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.physics.fluid_inputs import checked_vector
from gzinertia.spatial.algebra import shift_operator
from gzinertia.spatial.rotation import Mat3

Vec6 = NDArray[np.float64]


def shift_velocity(V_WB_B: ArrayLike, p_BoQ_B: ArrayLike) -> Vec6:
    """``V_WBq_B``: the spatial velocity (angular-first) of the frame B shifted to point Q.

    ``v_WQ = v_WBo + w_WB × p_BoQ`` (same axes B), via
    :func:`gzinertia.spatial.algebra.shift_operator`.
    """
    return shift_operator(p_BoQ_B, "angular-first") @ checked_vector(V_WB_B, 6, "V_WB_B")


def shift_spatial_force(F_BP_B: ArrayLike, p_PQ_B: ArrayLike) -> Vec6:
    """``F_BQ_B``: a wrench (angular-first) applied at point P moved to point Q (same axes B).

    ``p_PQ_B`` runs **from the old point P to the new point Q** (Drake's
    ``SpatialForce.Shift(p_PQ_E)``, the direction of :func:`shift_velocity`):
    ``τ_Q = τ_P - p_PQ × f``, ``f`` unchanged. Power ``F·V`` is invariant.
    """
    return shift_operator(-checked_vector(p_PQ_B, 3, "p_PQ_B"), "angular-first").T @ checked_vector(
        F_BP_B, 6, "F_BP_B"
    )


def rotate6(R: Mat3, X: Vec6) -> Vec6:
    """A 6-vector (either ordering) re-expressed by the rotation ``R`` applied to both halves:
    ``R_AB`` takes B components to A."""
    return np.concatenate([R @ X[:3], R @ X[3:]])

