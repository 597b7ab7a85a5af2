"""The discretisation error a BEM added mass is reported with (:mod:`gzinertia.physics.bem`).

Every result is solved twice, on a fine surface (``N`` panels of size ``h``) and a coarse one
(``N_coarse``, panels ``h·√2``). The error of the fine solve is bounded per 3x3 block (linear,
coupling, angular; each in its own unit) of the linear-first 6x6 ``A_BBo_B``:

* **Richardson.** ``max|A_fine - A_coarse| / ((N/N_coarse)^p - 1)`` over the block, with the
  assumed order ``p = 0.5`` (:data:`ASSUMED_ORDER`): slower than the ``N^-0.9`` flat panels
  show on smooth bodies, because two meshes of one body at different panel sizes are not
  exactly similar. On ellipsoids this is 2-4 times the true error at default quality.
* **Sharp edges.** At a sharp edge (a box's, a cylinder's rim, a fin's) the potential flow is
  singular and flat panels converge only as ``h`` (``N^-0.5``), pre-asymptotically slower, and
  the panels manifold3d cuts near an edge change from one panel size to the next, so two solves
  can agree by chance (a cube at 3,168 and 1,356 panels: 0.06 % apart, 1.5 % from the
  converged value). When the fine surface has an edge turning by more than
  :data:`SHARP_EDGE_DEGREES` (:func:`sharpest_edge`), each block's bound is at least
  ``k·s`` times the block's scale (:data:`EDGE_FLOOR`), ``s`` the share of the surface's area
  in panels that touch a sharp edge (:func:`edge_share`): the edge error is made in those
  panels, so a body whose sharp edges are a small part of it (four thin fins on a torpedo) is
  not judged as a box, all of whose panels are near an edge. ``k`` is the edge error measured on
  boxes and cylinders against structured Capytaine references (docs/bem.md, *Sharp edges*),
  relative to ``s``, with a margin of at least 1.6. (It was ``k·(h/ℓ)``, ``ℓ`` the radius of the
  sphere of the displaced volume: on a cube ``s ≈ h/ℓ``, on the finned torpedo
  ``s ≈ 0.22-0.42·h/ℓ``, whose true error the old floor overstated 48 times at default.)

The one figure reported is the largest block bound relative to its block
(:func:`estimated_error`).
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

#: Convergence exponent assumed by the Richardson estimate: smaller than the 0.9-1 observed on
#: sequences of similar meshes, because two meshes of one body at different panel sizes are not
#: exactly similar (measured on ellipsoids: the true error of the finer solve was 0.65-1.4 times
#: the fine-coarse difference at a panel ratio of about 2).
ASSUMED_ORDER: Final = 0.5
#: An edge of the panel surface whose two faces' normals differ by more than this (degrees) is
#: a sharp edge of the body: curved shapes are meshed with at least 8 segments round a circle
#: (45° between neighbouring panels at the coarsest), a box's edges turn by 90°.
SHARP_EDGE_DEGREES: Final = 60.0
#: ``k`` per block (linear, coupling, angular) of the sharp-edge floor ``k·s`` of the relative
#: error, ``s`` the :func:`edge_share` (module docstring).
EDGE_FLOOR: Final = (0.25, 0.6, 0.9)

BLOCKS: Final = (
    (slice(0, 3), slice(0, 3)),
    (slice(0, 3), slice(3, 6)),
    (slice(3, 6), slice(0, 3)),
    (slice(3, 6), slice(3, 6)),
)


def _edge_turns(
    vertices: FloatArray, faces: NDArray[np.int64]
) -> tuple[FloatArray, NDArray[np.int64], NDArray[np.int64], FloatArray]:
    """For each edge two triangles share (``faces`` index ``vertices``; coincident vertices are
    not merged: the surfaces the BEM solves on are conforming): the cosine between their
    normals and the two triangles; and each triangle's area. Edges with one triangle (a wetted
    surface's rim on the waterplane) are not edges of the body and are left out."""
    v = np.asarray(vertices, dtype=float)[faces]
    normals = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    normals = normals / np.where(lengths > 0.0, lengths, 1.0)[:, None]
    edges = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    owner = np.tile(np.arange(len(faces)), 3)
    key = np.sort(edges, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, owner = key[order], owner[order]
    pair = np.all(key[1:] == key[:-1], axis=1)
    a, b = owner[:-1][pair], owner[1:][pair]
    cosines = np.clip(np.einsum("ij,ij->i", normals[a], normals[b]), -1.0, 1.0)
    return cosines, a, b, 0.5 * lengths


def sharpest_edge(vertices: FloatArray, faces: NDArray[np.int64]) -> float:
    """The largest angle (degrees) between the normals of two triangles sharing an edge of the
    surface (:func:`_edge_turns`: a wetted surface's rim is not an edge); 0 when no edge has
    two."""
    cosines, _, _, _ = _edge_turns(vertices, faces)
    return float(np.degrees(np.arccos(np.min(cosines)))) if len(cosines) else 0.0


def edge_share(vertices: FloatArray, faces: NDArray[np.int64]) -> float:
    """The share (0 to 1) of the surface's area in triangles that have an edge turning by more
    than :data:`SHARP_EDGE_DEGREES` (:func:`_edge_turns`): the panels where a sharp edge's
    error is made; 0 for a smooth surface."""
    cosines, a, b, areas = _edge_turns(vertices, faces)
    total = float(areas.sum())
    if total == 0.0:
        return 0.0
    sharp = cosines < math.cos(math.radians(SHARP_EDGE_DEGREES))
    touched = np.zeros(len(areas), dtype=bool)
    touched[a[sharp]] = True
    touched[b[sharp]] = True
    return float(areas[touched].sum()) / total


def block_scales(A_fine: FloatArray, length: float) -> tuple[float, float, float, float]:
    """What each block's error is relative to (linear, coupling, coupling, angular): the linear
    block's largest entry, the angular block's largest entry but at least 1 % of
    ``max|linear|·ℓ²`` (``ℓ = length``: a sphere's rotational added mass is zero and only noise
    would be left to compare with), the coupling the geometric mean of the two."""
    lin = float(np.max(np.abs(A_fine[:3, :3])))
    ang = max(float(np.max(np.abs(A_fine[3:, 3:]))), 0.01 * lin * length * length)
    return (lin, math.sqrt(lin * ang), math.sqrt(lin * ang), ang)


def block_error_bound(
    A_fine: FloatArray,
    A_coarse: FloatArray,
    n_fine: int,
    n_coarse: int,
    edge: tuple[float, float] | None = None,
) -> FloatArray:
    """The absolute error bound of ``A_fine``, one value per 3x3 block (linear, coupling,
    angular: each in its own unit): ``max|A_fine - A_coarse|`` over the block divided by
    ``(N/N_coarse)^p - 1`` (module docstring), infinite when the two solves have nearly the
    same panel count (the difference then says nothing); with ``edge = (s, ℓ)`` (the body has
    sharp edges: their :func:`edge_share` and the length scale ℓ in metres) at least the
    sharp-edge floor ``k·s`` times the block's scale."""
    ratio = n_fine / max(n_coarse, 1)
    A = np.asarray(A_fine, dtype=float)
    if ratio <= 1.05:
        return np.full((6, 6), math.inf)
    factor = 1.0 / (ratio**ASSUMED_ORDER - 1.0)
    diff = np.abs(A - np.asarray(A_coarse, dtype=float))
    floors: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0)
    if edge is not None:
        share, length = edge
        k = (EDGE_FLOOR[0], EDGE_FLOOR[1], EDGE_FLOOR[1], EDGE_FLOOR[2])
        floors = tuple(
            ki * share * s for ki, s in zip(k, block_scales(A, length), strict=True)
        )
    bound = np.empty((6, 6))
    for (rows, cols), floor in zip(BLOCKS, floors, strict=True):
        bound[rows, cols] = max(float(np.max(diff[rows, cols])) * factor, floor)
    return bound


def estimated_error(
    A_fine: FloatArray,
    A_coarse: FloatArray,
    n_fine: int,
    n_coarse: int,
    length: float,
    edge: tuple[float, float] | None = None,
) -> float:
    """The largest relative error over the blocks (:func:`block_error_bound`, ``edge`` as
    there), each block against its scale (:func:`block_scales`, ``length`` = ℓ); 0 for a
    zero linear block."""
    bound = block_error_bound(A_fine, A_coarse, n_fine, n_coarse, edge)
    scales = block_scales(A_fine, length)
    if scales[0] == 0.0:
        return 0.0
    errors = [float(bound[r, c].max()) / s for (r, c), s in zip(BLOCKS, scales, strict=True)]
    return max(errors)
