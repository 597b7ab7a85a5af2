"""The triangle surfaces the boundary-element solve runs on (:mod:`gzinertia.physics.bem`):
a closed outward surface in link axes B, the wetted part of one below a waterline, what makes
a panel degenerate, and the exact power-of-two scale that brings a link to about unit size
(the mesher's and the solver's tolerances are absolute). Coordinates in metres, in B, from Bo.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

#: A triangle whose area is below this fraction of ``h²`` (h the panel size) is degenerate.
DEGENERATE_AREA = 1e-9


#: So is a triangle whose height (twice its area over its longest edge) is below this fraction
#: of that edge: a needle along a long edge has an area above the bound but no normal the BEM
#: can use (the Desistek Saga's union: Capytaine's Green function gave NaN on its panels). It
#: is also the fraction of the mesh's size within which a needle is collapsed (as vertices are
#: welded: :mod:`gzinertia.physics.mesh_repair`).
DEGENERATE_SHAPE = 1e-6


class SurfaceMeshError(GzInertiaError):
    """The geometry cannot be turned into one closed outward surface (message names the file,
    the shape and the problem)."""


@dataclass(frozen=True, repr=False, eq=False)
class Surface(ValueRecord):
    """A closed triangle surface in link axes: ``vertices`` (n x 3, metres, in B, from Bo) and
    ``faces`` (m x 3 vertex indices, counter-clockwise seen from outside: normals point out of
    the body into the fluid)."""

    vertices: FloatArray
    faces: IntArray

    @property
    def panels(self) -> int:
        """The number of triangles (BEM panels)."""
        return len(self.faces)

    def digest(self) -> str:
        """sha256 of the vertex coordinates and faces (the panel mesh the BEM solves on)."""
        h = hashlib.sha256()
        h.update(np.ascontiguousarray(self.vertices, dtype="<f8").tobytes())
        h.update(np.ascontiguousarray(self.faces, dtype="<i8").tobytes())
        return h.hexdigest()

    def area(self) -> float:
        """Total triangle area (m²)."""
        v = self.vertices[self.faces]
        return float(
            0.5 * np.linalg.norm(np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0]), axis=1).sum()
        )

    def volume(self) -> float:
        """Signed volume (positive for an outward-oriented closed surface)."""
        v = self.vertices[self.faces]
        return float(np.einsum("ij,ij->i", v[:, 0], np.cross(v[:, 1], v[:, 2])).sum() / 6.0)


#: Reaches (m) of a link's geometry from its origin that the mesher and the solver take as they
#: are (the results of every link of ordinary size are those of a solve at its own size); any
#: other is scaled to about unit size (:func:`unit_scale`). Measured: Capytaine is 1e-9 off at
#: 0.1 m, 1e-5 at 1 cm; manifold3d's absolute tolerances are felt below about 1e-6 m.
UNSCALED_REACH = (0.125, 64.0)


def unit_scale(length: float) -> float:
    """1 for a length within :data:`UNSCALED_REACH`; otherwise the power of two ``s`` with
    ``s·length`` in ``[0.5, 1)`` (multiplying by it is exact)."""
    if UNSCALED_REACH[0] <= length <= UNSCALED_REACH[1]:
        return 1.0
    return math.ldexp(1.0, -math.frexp(length)[1])


@dataclass(frozen=True, repr=False, eq=False)
class WettedSurface(ValueRecord):
    """The part of a link's surface below a waterline: ``surface`` (vertices in B, from Bo; an
    open surface whose rim lies on the waterplane, no lid: the faces of the cut are dropped),
    the panels of the closed surface it was cut from (``closed_panels``), and the displaced
    volume (m³) below the waterplane."""

    surface: Surface
    closed_panels: int
    displaced_volume: float


#: Vertices this close to the waterplane (relative to the body's size) are on it.
WATERPLANE_TOLERANCE = 1e-9

