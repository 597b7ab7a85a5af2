"""The argument checks of MuJoCo's fluid models (:mod:`gzinertia.physics.fluid_forces`):
vectors of a given length, finite, and the fluid's density and viscosity, finite and not
negative; each refusal a ``ValueError`` naming the argument."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def checked_vector(a: ArrayLike, n: int, name: str) -> NDArray[np.float64]:
    """``a`` as a float array of shape ``(n,)``, finite; a ``ValueError`` naming ``name``
    otherwise."""
    v = np.asarray(a, dtype=float)
    if v.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {v.shape}")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be finite")
    return v


def checked_medium(density: float, viscosity: float) -> tuple[float, float]:
    """``(ρ, β)`` as floats, each finite and not negative; a ``ValueError`` otherwise."""
    rho, beta = float(density), float(viscosity)
    if not (np.isfinite(rho) and rho >= 0.0 and np.isfinite(beta) and beta >= 0.0):
        raise ValueError(f"density and viscosity must be finite and >= 0, got {rho}, {beta}")
    return rho, beta

