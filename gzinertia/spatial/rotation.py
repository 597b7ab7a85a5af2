"""Rotations and rigid poses.

Conventions (``docs/conventions.md``):

* ``R_AB`` is the rotation matrix whose columns are B's unit vectors expressed in A, so a vector
  expressed in B is re-expressed in A as ``v_A = R_AB @ v_B``.
* ``X_AB`` is the pose of frame B in frame A: ``p_AoBo_A`` (``X_AB.p``) and ``R_AB`` (``X_AB.R``).
  Poses compose as ``X_AC = X_AB @ X_BC``.
* SDFormat's roll-pitch-yaw are fixed-axis (extrinsic) x-y-z rotations:
  ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``.
* SDFormat's ``rotation_format="quat_xyzw"`` lists the quaternion as ``x y z w``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.record_base import Record

__all__ = [
    "IDENTITY_POSE",
    "Mat3",
    "Pose",
    "Vec3",
    "frozen",
    "rotation_from_quaternion_xyzw",
    "rotation_from_rpy",
    "rpy_from_rotation",
    "skew",
]

Vec3 = NDArray[np.float64]
Mat3 = NDArray[np.float64]


def skew(v: ArrayLike) -> Mat3:
    """The cross-product matrix ``[v]×`` such that ``[v]× @ u == v × u``."""
    x, y, z = np.asarray(v, dtype=float)
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def rotation_from_rpy(roll: float, pitch: float, yaw: float) -> Mat3:
    """``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)`` (SDFormat's fixed-axis roll-pitch-yaw, radians;
    scalars: the sines and cosines are C's, as NumPy's for float64)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def rpy_from_rotation(R: ArrayLike) -> Vec3:
    """Inverse of :func:`rotation_from_rpy` (pitch in [-π/2, π/2])."""
    m = np.asarray(R, dtype=float)
    pitch = np.arcsin(np.clip(-m[2, 0], -1.0, 1.0))
    if abs(np.cos(pitch)) > 1e-12:
        roll = np.arctan2(m[2, 1], m[2, 2])
        yaw = np.arctan2(m[1, 0], m[0, 0])
    else:  # gimbal lock: put everything in yaw
        roll = 0.0
        yaw = np.arctan2(-m[0, 1], m[1, 1])
    return np.array([roll, pitch, yaw])


def rotation_from_quaternion_xyzw(x: float, y: float, z: float, w: float) -> Mat3:
    """Rotation of the unit quaternion ``w + xi + yj + zk`` (normalised here; zero is an error)."""
    n = np.sqrt(x * x + y * y + z * z + w * w)
    if not np.isfinite(n) or n == 0.0:
        raise ValueError("quaternion has zero or non-finite norm")
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def frozen(a: ArrayLike, shape: tuple[int, ...]) -> NDArray[np.float64]:
    """A read-only float array of ``a`` with this shape (for immutable records): ``a`` itself
    when it already is one that owns its data (such arrays are shared rather than copied: a
    file's records hold several per link), else a read-only copy."""
    if (
        isinstance(a, np.ndarray)
        and a.dtype == np.float64
        and a.shape == shape
        and not a.flags.writeable
        and a.flags.owndata  # not a read-only view of an array someone may still write
    ):
        return a
    arr = np.array(a, dtype=float)  # a copy that owns its data
    if arr.shape != shape:
        arr = np.array(arr.reshape(shape))  # (a reshaped copy is a view: copy it again)
    arr.setflags(write=False)
    return arr


#: The identity's translation and rotation, shared by every default :class:`Pose`.
_ZERO3 = frozen(np.zeros(3), (3,))
_EYE3 = frozen(np.eye(3), (3, 3))


@dataclass(frozen=True, repr=False, eq=False)
class Pose(Record):
    """A rigid transform ``X_AB``: ``p`` is ``p_AoBo_A``, ``R`` is ``R_AB`` (read-only arrays)."""

    p: Vec3 = field(default_factory=lambda: _ZERO3)
    R: Mat3 = field(default_factory=lambda: _EYE3)

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", frozen(self.p, (3,)))
        object.__setattr__(self, "R", frozen(self.R, (3, 3)))

    @staticmethod
    def adopt(p: Vec3, R: Mat3) -> Pose:
        """``X_AB`` from ``p = p_AoBo_A`` (float64, shape (3,)) and ``R = R_AB`` (float64,
        shape (3, 3)) that are fresh arrays owning their data, held by no one else: they are
        made read-only and kept, not copied (the cheap path for results just computed)."""
        p.setflags(write=False)
        R.setflags(write=False)
        X = object.__new__(Pose)
        object.__setattr__(X, "p", p)
        object.__setattr__(X, "R", R)
        return X

    @staticmethod
    def from_xyz_rpy(xyz: ArrayLike, rpy: ArrayLike) -> Pose:
        """``X_AB`` from ``p_AoBo_A = xyz`` and ``R_AB``'s SDFormat roll-pitch-yaw ``rpy`` (rad)."""
        r, p, y = np.asarray(rpy, dtype=float)
        return Pose(np.asarray(xyz, dtype=float), rotation_from_rpy(r, p, y))

    def __matmul__(self, other: Pose) -> Pose:
        """``X_AB @ X_BC = X_AC``."""
        return Pose.adopt(self.p + self.R @ other.p, self.R @ other.R)

    def inverse(self) -> Pose:
        """``X_AB.inverse() = X_BA``."""
        Rt = self.R.T
        return Pose.adopt(-Rt @ self.p, np.array(Rt))  # (a copy, laid out as Rt is)

    def transform_point(self, p_BoQ_B: ArrayLike) -> Vec3:
        """``p_AoQ_A = X_AB · p_BoQ_B``."""
        return self.p + self.R @ np.asarray(p_BoQ_B, dtype=float)

    def matrix(self) -> NDArray[np.float64]:
        """The 4x4 homogeneous matrix."""
        T = np.eye(4)
        T[:3, :3] = self.R
        T[:3, 3] = self.p
        return T

    def rpy(self) -> Vec3:
        """Roll, pitch, yaw of ``R`` (:func:`rpy_from_rotation`)."""
        return rpy_from_rotation(self.R)


#: The identity pose, shared (poses are immutable): what ``Pose()`` builds, without building it.
IDENTITY_POSE = Pose()
