"""Principal frames of a symmetric 3x3 (a second moment or an inertia, in the link frame B):
ascending principal values and a proper rotation ``R_BP`` whose columns are their axes, turned
as close to B's axes as the eigenspaces allow, so that a shape aligned with B keeps B's axes."""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.spatial.inertia import DBL_EPSILON, principal_axes, reverses_orientation
from gzinertia.spatial.rotation import Mat3, Vec3


def _snap_symmetric(M: ArrayLike) -> Mat3:
    """The symmetric part of ``M`` with off-diagonal rounding noise (below ``16·ε·tr``) set to
    zero, so that a shape aligned with B keeps exactly B's axes even where moments are equal."""
    A = np.asarray(M, dtype=float)
    A = 0.5 * (A + A.T)
    noise = 16.0 * DBL_EPSILON * abs(float(np.trace(A)))
    off = ~np.eye(3, dtype=bool)
    A[off & (np.abs(A) <= noise)] = 0.0
    return A


def _proper(R: Mat3) -> Mat3:
    """``R`` with its last column negated if needed so that ``det R = +1``."""
    R = np.array(R, dtype=float)
    if reverses_orientation(R):
        R[:, 2] = -R[:, 2]
    return R


#: Principal values closer than this (relative to the largest) are treated as equal: within such
#: a group any orthonormal axes are principal, and the ones nearest B's axes are taken. Changing
#: the axes within a group changes the fitted ellipsoid by at most this much (relative).
_EQUAL_VALUES_RTOL = 1e-12


def _align_degenerate(values: Vec3, R_BP: Mat3) -> Mat3:
    """``R_BP`` (eigenvector columns of ascending ``values``) with the axes of each group of
    equal values turned, within their plane, onto the link axes nearest to it (the identity for
    three equal values)."""
    v = np.asarray(values, dtype=float)
    R = np.array(R_BP, dtype=float)
    tol = _EQUAL_VALUES_RTOL * float(np.max(np.abs(v)))
    if v[2] - v[0] <= tol:
        return np.eye(3)
    for i, j in ((0, 1), (1, 2)):
        if v[j] - v[i] <= tol:
            plane = R[:, [i, j]]  # orthonormal basis of the eigenplane
            # the link axis with the largest component in the plane, and its in-plane direction
            row = int(np.argmax(np.linalg.norm(plane, axis=1)))
            c = plane[row] / np.linalg.norm(plane[row])
            R[:, i] = plane @ c
            R[:, j] = plane @ np.array([-c[1], c[0]])
    return R


def principal_frame(M: ArrayLike) -> tuple[Vec3, Mat3]:
    """Ascending principal values of a symmetric 3x3 and a rotation whose columns are their
    axes, with equal values' axes on the link axes where the eigenspace allows."""
    values, R = principal_axes(_snap_symmetric(M))
    return values, _proper(_align_degenerate(values, R))


def nearest_to_link(
    values: Vec3, R_BP: Mat3, descending: bool = False
) -> tuple[Vec3, Mat3]:
    """Permutes and signs the columns of ``R_BP`` (with ``values``) so that the result is a proper
    rotation as close to the identity as the principal directions allow; with ``descending``,
    only among the orders that keep ``values`` non-increasing (equal values in any order)."""
    v = np.asarray(values, dtype=float)
    tol = _EQUAL_VALUES_RTOL * float(np.max(np.abs(v)))
    perms = [
        p
        for p in itertools.permutations(range(3))
        if not descending or all(v[p[k]] >= v[p[k + 1]] - tol for k in range(2))
    ]
    rows = np.asarray(R_BP, dtype=float).tolist()  # the same sums, without NumPy scalars
    best = max(perms, key=lambda perm: sum(abs(rows[j][perm[j]]) for j in range(3)))
    order = list(best)
    R = R_BP[:, order].copy()
    signs = np.where(np.diag(R) < 0.0, -1.0, 1.0)
    R = R * signs
    if reverses_orientation(R):
        weakest = int(np.argmin(np.abs(np.diag(R))))
        R[:, weakest] = -R[:, weakest]
    return v[order], R

