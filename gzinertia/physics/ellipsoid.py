"""Ellipsoids: the one home of the semi-axes rules.

* :func:`primitive_semi_axes`: the semi-axes of the ellipsoid MuJoCo gives a primitive
  collision geometry (``mju_geomSemiAxes``), from SDFormat's dimensions, in the geometry's own
  frame: sphere ``(r, r, r)``; capsule ``(r, r, L/2 + r)`` (SDF ``length`` L excludes the
  caps); cylinder ``(r, r, L/2)``; box its half-sizes; ellipsoid its radii. These are also the
  half-extents of the primitive's bounding box.
* :func:`semi_axes_problem` / :func:`validated_semi_axes`: what makes three numbers usable as
  semi-axes (finite, positive, and for the closed-form added mass not thinner than
  :data:`~gzinertia.spatial.tuckerman.MAX_AXIS_RATIO`).
* :class:`PosedEllipsoid`: the one posed-ellipsoid type (a fit's fluid ellipsoid in the link
  frame, an ellipsoid in the world for the overlap test, a MuJoCo geom's ellipsoid).
* :func:`quadric_matrix` / :func:`inverse_quadric_matrix`: an ellipsoid with semi-axes ``e``
  along the axes of a frame E posed by ``R_FE`` holds the points ``x`` (from its centre, in F)
  with ``xᵀ·Q·x ≤ 1``, ``Q = R_FE·diag(e⁻²)·R_FEᵀ``; ``Q⁻¹ = R_FE·diag(e²)·R_FEᵀ`` is the
  matrix whose eigenvectors are the axes and eigenvalues the squared semi-axes, independent of
  how E's axes are ordered or signed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Mat3, Pose, Vec3
from gzinertia.wording import vector

if TYPE_CHECKING:
    from gzinertia.records import Geometry

__all__ = [
    "PosedEllipsoid",
    "inverse_quadric_matrix",
    "primitive_semi_axes",
    "quadric_matrix",
    "semi_axes_problem",
    "validated_semi_axes",
]


def primitive_semi_axes(geometry: Geometry) -> Vec3 | None:
    """The semi-axes (m) of a primitive geometry's ellipsoid in its own frame, as MuJoCo sizes
    it (see the module docstring); ``None`` for meshes, planes, heightmaps, other shapes and a
    primitive missing its dimensions. The values are not validated (a zero radius gives a 0)."""
    g = geometry
    if g.kind == "sphere" and g.radius is not None:
        return np.full(3, float(g.radius))
    if g.kind == "capsule" and g.radius is not None and g.length is not None:
        return np.array([g.radius, g.radius, 0.5 * g.length + g.radius], dtype=float)
    if g.kind == "cylinder" and g.radius is not None and g.length is not None:
        return np.array([g.radius, g.radius, 0.5 * g.length], dtype=float)
    if g.kind == "box" and g.size is not None:
        return 0.5 * np.asarray(g.size, dtype=float)
    if g.kind == "ellipsoid" and g.size is not None:
        return np.asarray(g.size, dtype=float)
    return None


def _fmt(v: ArrayLike) -> str:
    return vector(np.asarray(v, dtype=float).ravel(), 6)


def semi_axes_problem(semi_axes: ArrayLike, max_ratio: float | None = None) -> str | None:
    """Why these three numbers are no ellipsoid's semi-axes, as a phrase (``None`` if they
    are): not three numbers, not finite, not all positive, or (``max_ratio``) the longest more
    than ``max_ratio`` times the shortest."""
    r = np.asarray(semi_axes, dtype=float)
    if r.shape != (3,):
        return f"semi-axes must be 3 numbers, got shape {r.shape}"
    if not np.all(np.isfinite(r)):
        return f"non-finite semi-axes {_fmt(r)}"
    if not np.all(r > 0.0):
        return f"degenerate: semi-axes {_fmt(r)} m include zero or a negative value"
    if max_ratio is not None:
        with np.errstate(over="ignore"):  # max_ratio·min = inf compares as it should
            too_thin = bool(r.max() > max_ratio * r.min())
        if too_thin:
            return f"degenerate: semi-axes {_fmt(r)} m differ by more than {max_ratio:g}"
    return None


def validated_semi_axes(
    semi_axes: ArrayLike, name: str = "semi_axes", max_ratio: float | None = None
) -> Vec3:
    """``semi_axes`` as a read-only float array of shape (3,); a ValueError naming ``name``
    with :func:`semi_axes_problem`'s reason otherwise."""
    if max_ratio is None:  # the usual case in plain floats: three finite positive numbers
        r = np.array(semi_axes, dtype=float)
        if r.shape == (3,) and all(0.0 < x < math.inf for x in r.tolist()):
            r.setflags(write=False)
            return r
    problem = semi_axes_problem(semi_axes, max_ratio)
    if problem is not None:
        raise ValueError(f"{name}: {problem}")
    r = np.array(semi_axes, dtype=float)
    r.setflags(write=False)
    return r


def quadric_matrix(semi_axes: ArrayLike, R_FE: ArrayLike) -> Mat3:
    """``Q = R_FE·diag(e⁻²)·R_FEᵀ``: a point ``x`` from the centre, in F, is inside iff
    ``xᵀ·Q·x ≤ 1``."""
    R = np.asarray(R_FE, dtype=float)
    return np.asarray(R @ np.diag(np.asarray(semi_axes, dtype=float) ** -2.0) @ R.T)


def inverse_quadric_matrix(semi_axes: ArrayLike, R_FE: ArrayLike) -> Mat3:
    """``Q⁻¹ = R_FE·diag(e²)·R_FEᵀ``: eigenvectors the axes in F, eigenvalues the squared
    semi-axes (m²)."""
    R = np.asarray(R_FE, dtype=float)
    return np.asarray(R @ np.diag(np.asarray(semi_axes, dtype=float) ** 2) @ R.T)


#: How far from orthonormal with determinant 1 a pose's rotation may be.
_ROTATION_TOL: Final[float] = 1e-9


def _plainly_proper(R: Mat3, p: Vec3) -> bool:
    """A finite centre and a rotation within half of :data:`_ROTATION_TOL` of orthonormal
    with determinant 1, in plain floats (the sum of the errors' magnitudes bounds each, and
    NaN or infinity propagates into it); False: let the NumPy checks decide."""
    if len(p) != 3 or not all(math.isfinite(x) for x in np.asarray(p, dtype=float).tolist()):
        return False
    if np.shape(R) != (3, 3):
        return False
    (a, b, c), (d, e, f), (g, h, i) = np.asarray(R, dtype=float).tolist()
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    errors = (abs(a * a + d * d + g * g - 1.0) + abs(b * b + e * e + h * h - 1.0)
              + abs(c * c + f * f + i * i - 1.0) + 2.0 * (abs(a * b + d * e + g * h)
              + abs(a * c + d * f + g * i) + abs(b * c + e * f + h * i)) + abs(det - 1.0))
    return errors < 0.5 * _ROTATION_TOL


@dataclass(frozen=True, repr=False, eq=False)
class PosedEllipsoid(ValueRecord):
    """A solid ellipsoid E posed in a frame F.

    ``semi_axes`` are the half-lengths along E's x, y, z axes (m; finite, positive); ``X_FE``
    poses E in F: ``X_FE.p`` is the centre ``p_FoEo_F``, ``X_FE.R`` is ``R_FE`` (a proper
    rotation). F is the link frame B for a fit's fluid ellipsoids (``X_BE``), the world W for the
    overlap test (``X_WE``, see :meth:`posed_in`). ``label`` says where it came from (the
    collision it was fitted to, or the collisions of its body joined by ``+``), else ``None``.
    """

    semi_axes: Vec3
    X_FE: Pose = field(default_factory=Pose)
    label: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "semi_axes", validated_semi_axes(self.semi_axes))
        if not isinstance(self.X_FE, Pose):
            raise TypeError(f"X_FE must be a Pose, not {type(self.X_FE).__name__}")
        R, p = self.X_FE.R, self.X_FE.p
        if _plainly_proper(R, p):
            return  # (the usual case, in plain floats; near the tolerance: the checks below)
        if not np.all(np.isfinite(p)):
            raise ValueError(f"the centre p_FoEo_F must be finite, got {p}")
        if not (
            np.all(np.isfinite(R))
            and np.max(np.abs(R.T @ R - np.eye(3))) < _ROTATION_TOL
            and abs(np.linalg.det(R) - 1.0) < _ROTATION_TOL
        ):
            raise ValueError("R_FE must be a proper rotation matrix")

    @property
    def volume(self) -> float:
        """``4/3·π·abc`` (m³)."""
        return float(4.0 / 3.0 * np.pi * np.prod(self.semi_axes))

    def quadric_matrix(self) -> Mat3:
        """``Q = R_FE·diag(e⁻²)·R_FEᵀ`` in F (1/m²): ``x`` (from Fo, in F) is inside iff
        ``(x - p_FoEo_F)ᵀ·Q·(x - p_FoEo_F) ≤ 1``."""
        return quadric_matrix(self.semi_axes, self.X_FE.R)

    def inverse_quadric_matrix(self) -> Mat3:
        """``Q⁻¹ = R_FE·diag(e²)·R_FEᵀ`` in F (m²): the axes and squared semi-axes, independent
        of how E's axes are ordered or signed."""
        return inverse_quadric_matrix(self.semi_axes, self.X_FE.R)

    def scaled(self, factor: float) -> PosedEllipsoid:
        """The same ellipsoid with its semi-axes multiplied by ``factor`` about its centre."""
        return PosedEllipsoid(self.semi_axes * factor, self.X_FE, self.label)

    def posed_in(self, X_GF: Pose) -> PosedEllipsoid:
        """The same ellipsoid posed in frame G, where F is posed in G by ``X_GF``:
        ``X_GE = X_GF·X_FE`` (e.g. a link's fit ellipsoid in the world with ``X_WB``)."""
        return PosedEllipsoid(self.semi_axes, X_GF @ self.X_FE, self.label)
