"""Capytaine (linear potential-flow BEM) as an oracle for fluid added mass in an unbounded fluid.

The oracle is independent of gzinertia's closed form and of its change of point: the ellipsoid is
meshed where it sits in the link frame B (centre ``Eo`` at ``p_BoEo_B``, axes ``R_BE``) and
Capytaine's rigid-body dofs rotate about the link origin ``Bo``, so the BEM itself produces the
6x6 about ``Bo`` in B axes.

Facts this module relies on (capytaine 3.0, checked in ``tests/test_added_mass_vs_capytaine.py``
and shared DESIGN.md §5):

* **Unbounded fluid** is ``free_surface=np.inf, water_depth=np.inf``: the Green function is then
  the Rankine source ``1/(4π|x - ξ|)`` alone (``Delhommeau.evaluate_rankine_only``), with no
  free-surface image and no wave term.
* **Frequency.** Capytaine imposes ``∂φ/∂n = -iω·(dof motion)·n`` on the hull, takes the
  pressure ``iωρφ`` and reports ``added_mass = Re(F)/ω²``: ``φ`` is ``-iω`` times the
  unit-velocity potential, so without a free surface (Rankine kernel, no ω in it) the result is
  the same at every ω. With a free surface the two limits differ: ``ω → ∞`` imposes ``φ = 0``
  on it (a negative image) and ``ω → 0`` a rigid lid ``∂φ/∂z = 0`` (a positive image); both
  tend to the unbounded-fluid value as the body goes deep. We use ``ω = ∞``: Capytaine treats it
  symbolically (no 0·∞ rounding) and defines the radiation damping there as exactly zero, which
  is the pure potential-flow added mass of a fully submerged body; a test checks that ``ω = 0``
  and a finite ω give the same numbers here.
* **Method.** The direct BEM (potential unknown, ``BEMSolver(method="direct")``); the default
  indirect (source) method is about 1.5 % off on a sphere at 7200 panels.
* **Ordering and point.** The six rigid-body dofs ``Surge, Sway, Heave, Roll, Pitch, Yaw`` are
  translations along and rotations about the mesh's x, y, z axes, the rotations about the
  ``rotation_center`` given to ``rigid_body_dofs``: the matrix is linear-first ``[x y z p q r]``
  (SDFormat ``<fluid_added_mass>`` order) about that centre, in the mesh's axes.
* **Convergence.** The error of the flat-panel mesh (vertices on the ellipsoid, so the
  polyhedron is inscribed and the added mass is underestimated) falls about as ``N^-0.9`` with the
  panel count N: ≈ 1e-3 of the largest entry at 3200 panels, ≈ 4.5e-4 at 8192 (20-30 s on 2
  cores; memory grows as N², two dense real N×N matrices).
"""

from __future__ import annotations

import functools
from typing import Final

import numpy as np
from conftest import oracle_module
from numpy.typing import ArrayLike, NDArray

#: Capytaine, imported on first use: a test that needs it is skipped when it is missing.
cpt = oracle_module("capytaine")

__all__ = [
    "RIGID_BODY_DOFS",
    "bem_added_mass",
    "bem_added_mass_of_mesh",
    "ellipsoid_mesh",
    "ellipsoid_mesh_resolution",
    "richardson_reference",
    "structured_mesh",
]

FloatArray = NDArray[np.float64]

#: Capytaine's rigid-body dof names in linear-first ``[x y z p q r]`` order.
RIGID_BODY_DOFS: Final[tuple[str, ...]] = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")


def ellipsoid_mesh_resolution(n_panels: int) -> tuple[int, int]:
    """``(n_theta, n_phi)`` of the latitude-longitude mesh used for about ``n_panels`` panels.

    ``n_phi = 2·n_theta`` (Capytaine's sphere convention: as many panels along a half meridian as
    along a quarter parallel), ``n_theta = round(sqrt(n_panels / 2))``, at least 4. The mesh has
    exactly ``n_theta·n_phi`` panels: 3200 gives (40, 80), 8192 gives (64, 128).
    """
    if n_panels < 1:
        raise ValueError(f"n_panels must be positive, got {n_panels}")
    n_theta = max(4, round(float(np.sqrt(n_panels / 2.0))))
    return n_theta, 2 * n_theta


def _validated_rotation(R: ArrayLike) -> FloatArray:
    m = np.asarray(R, dtype=np.float64)
    if m.shape != (3, 3) or not np.all(np.isfinite(m)):
        raise ValueError(f"R_BE must be a finite 3x3 matrix, got shape {m.shape}")
    if not np.allclose(m.T @ m, np.eye(3), atol=1e-9) or np.linalg.det(m) < 0.0:
        raise ValueError("R_BE must be a proper rotation (orthonormal, det +1)")
    return m


def ellipsoid_mesh(
    semi_axes: ArrayLike, R_BE: ArrayLike, p_BoEo_B: ArrayLike, n_panels: int
) -> cpt.Mesh:
    """A flat-panel mesh of the ellipsoid E posed in frame B, vertices in B coordinates.

    A unit latitude-longitude sphere (``cpt.mesh_sphere``, resolution from
    :func:`ellipsoid_mesh_resolution`, poles on its z axis) is turned by a cyclic permutation of
    axes so its poles lie on E's longest semi-axis (the sharp tips get the fine polar rings),
    scaled by ``semi_axes`` along E's axes (every vertex then lies on the ellipsoid), and posed in
    B: ``p_B = R_BE·p_E + p_BoEo_B``. Panels keep the sphere's outward orientation (the maps
    have positive determinant).

    Args:
        semi_axes: ``(r_x, r_y, r_z)`` of E in metres along E's axes, positive.
        R_BE: rotation of E's axes in B (columns: E's unit vectors expressed in B).
        p_BoEo_B: position of the ellipsoid centre Eo from the link origin Bo, in B.
        n_panels: target panel count (see :func:`ellipsoid_mesh_resolution`).
    """
    r_E = np.asarray(semi_axes, dtype=np.float64)
    if r_E.shape != (3,) or not np.all(np.isfinite(r_E)) or not np.all(r_E > 0.0):
        raise ValueError(f"semi_axes must be three finite positive numbers, got {semi_axes!r}")
    R = _validated_rotation(R_BE)
    p = np.asarray(p_BoEo_B, dtype=np.float64)
    if p.shape != (3,) or not np.all(np.isfinite(p)):
        raise ValueError(f"p_BoEo_B must be three finite numbers, got {p_BoEo_B!r}")

    n_theta, n_phi = ellipsoid_mesh_resolution(n_panels)
    sphere = cpt.mesh_sphere(radius=1.0, resolution=(n_theta, n_phi))
    k = int(np.argmax(r_E))
    # Cyclic permutation (det +1) with column j = e_{(j + k + 1) mod 3}: sends z to axis k.
    P = np.eye(3)[:, [(j + k + 1) % 3 for j in range(3)]]
    p_E = (np.asarray(sphere.vertices) @ P.T) * r_E
    p_B = p_E @ R.T + p
    # Capytaine already merged and checked the sphere and the map is one-to-one and smooth, so
    # cleaning and checking again would only cost time (≈ 2 s at 8192 panels).
    return cpt.Mesh(
        vertices=p_B,
        faces=np.asarray(sphere.faces),
        name="ellipsoid",
        auto_clean=False,
        auto_check=False,
    )


def bem_added_mass_of_mesh(
    mesh: cpt.Mesh, p_BoQ_B: ArrayLike, density: float, omega: float = np.inf
) -> FloatArray:
    """``A_BQ_B``: Capytaine's rigid-body added mass of a closed mesh about point Q, in B axes.

    The mesh's coordinates are B's (origin Bo); ``p_BoQ_B`` is the rotation centre Q. The fluid
    is unbounded (no free surface, no sea bed) and of density ``density`` (kg/m³); the direct
    BEM is used. See the module docstring for the choice of ``omega`` (any value gives the same
    result without a free surface).

    Returns:
        6x6 linear-first ``[x y z p q r]`` about Q in B axes (kg, kg·m, kg·m²), as the BEM gives
        it: row i is the radiating dof, column j the influenced one (asymmetry is discretisation
        error, of order 1e-6 of the largest entry).
    """
    center = np.asarray(p_BoQ_B, dtype=np.float64)
    body = cpt.FloatingBody(
        mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=center), name="bem_oracle_body"
    )
    solver = cpt.BEMSolver(method="direct")
    A = np.empty((6, 6))
    for i, radiating in enumerate(RIGID_BODY_DOFS):
        problem = cpt.RadiationProblem(
            body=body,
            radiating_dof=radiating,
            omega=omega,
            free_surface=np.inf,
            water_depth=np.inf,
            rho=float(density),
        )
        # solve() raises on failure (solve_all would return NaN-filled results instead); the
        # engine keeps the matrices and their LU factors between the six problems.
        added_mass = solver.solve(problem, keep_details=False).added_mass
        A[i] = [added_mass[influenced] for influenced in RIGID_BODY_DOFS]
    if not np.all(np.isfinite(A)):
        raise RuntimeError("Capytaine returned a non-finite added mass")
    return A


@functools.lru_cache(maxsize=32)
def _bem_added_mass_cached(
    semi_axes: tuple[float, float, float],
    R_BE: tuple[tuple[float, float, float], ...],
    p_BoEo_B: tuple[float, float, float],
    density: float,
    n_panels: int,
) -> FloatArray:
    mesh = ellipsoid_mesh(semi_axes, R_BE, p_BoEo_B, n_panels)
    A = bem_added_mass_of_mesh(mesh, np.zeros(3), density)
    A.setflags(write=False)
    return A


def bem_added_mass(
    semi_axes: ArrayLike,
    R_BE: ArrayLike,
    p_BoEo_B: ArrayLike,
    density: float,
    n_panels: int,
) -> FloatArray:
    """``A_BBo_B``: BEM added mass of the ellipsoid E posed in link B, about Bo, in B axes.

    The ellipsoid is meshed in B (:func:`ellipsoid_mesh`) and Capytaine's rotations are about Bo
    (B's origin), so no change of point or axes is done here. Unbounded fluid, direct BEM
    (:func:`bem_added_mass_of_mesh`). Results are cached per argument values (the BEM is slow:
    ≈ 5 s at 3200 panels, 20-30 s at 8192 on 2 cores).

    Args:
        semi_axes: ``(r_x, r_y, r_z)`` of E in metres, along E's axes.
        R_BE: 3x3 rotation of E's axes in B.
        p_BoEo_B: position of E's centre from Bo, in B (metres).
        density: fluid density ρ in kg/m³.
        n_panels: target panel count (:func:`ellipsoid_mesh_resolution`); the relative error
            falls about as ``n_panels^-0.9``.

    Returns:
        6x6 linear-first ``[x y z p q r]`` (SDFormat ``<fluid_added_mass>`` order), a new array.
    """
    key_r = tuple(float(v) for v in np.asarray(semi_axes, dtype=np.float64).reshape(3))
    key_R = tuple(
        tuple(float(v) for v in row) for row in np.asarray(R_BE, dtype=np.float64).reshape(3, 3)
    )
    key_p = tuple(float(v) for v in np.asarray(p_BoEo_B, dtype=np.float64).reshape(3))
    A = _bem_added_mass_cached(
        (key_r[0], key_r[1], key_r[2]),
        key_R,
        (key_p[0], key_p[1], key_p[2]),
        float(density),
        int(n_panels),
    )
    result: FloatArray = A.copy()
    return result


def structured_mesh(kind: str, dims: tuple[float, ...], n: int) -> cpt.Mesh:
    """A structured quadrilateral mesh, centred at the origin, of a box (``dims`` its sizes along
    x, y, z, ``n`` panels along the longest side, about square panels) or of a cylinder along z
    (``dims = (radius, length)``, ``n`` panels round the circle, about square panels on the side
    and on the end disks). Capytaine's own meshers (``mesh_parallelepiped``,
    ``mesh_vertical_cylinder``): independent of gzinertia's manifold3d meshes."""
    if kind == "box":
        longest = max(dims)
        resolution = tuple(max(2, round(n * d / longest)) for d in dims)
        return cpt.mesh_parallelepiped(size=dims, resolution=resolution)
    radius, length = dims
    step = 2.0 * np.pi * radius / n
    resolution = (max(2, round(radius / step)), n, max(2, round(length / step)))
    return cpt.mesh_vertical_cylinder(length=length, radius=radius, resolution=resolution)


def richardson_reference(
    kind: str, dims: tuple[float, ...], levels: tuple[int, int, int], density: float
) -> tuple[FloatArray, FloatArray]:
    """``(A, u)``: the converged added mass (6x6 linear-first about the shape's centre, unbounded
    fluid) of a box or cylinder (:func:`structured_mesh`) by Richardson extrapolation of three
    structured solves at ``levels`` (panels along the longest side or round the circle), and the
    uncertainty of that extrapolation per entry.

    The order ``q`` of ``A(n) = A + C·n^-q`` is fitted per 3x3 block on the block's largest
    diagonal entry (three levels, three unknowns) and applied to every entry of the block; ``u``
    is the spread between that extrapolation and the one from the two finest levels with
    ``q = 1`` (flat panels at an edge singularity converge as ``h``), and at least a tenth of
    the extrapolation's own correction."""
    from scipy.optimize import brentq

    solves = [
        bem_added_mass_of_mesh(structured_mesh(kind, dims, n), np.zeros(3), density)
        for n in levels
    ]
    A0, A1, A2 = (0.5 * (A + A.T) for A in solves)
    n0, n1, n2 = (float(n) for n in levels)
    A = np.empty((6, 6))
    u = np.empty((6, 6))
    for block in ((slice(0, 3), slice(0, 3)), (slice(0, 3), slice(3, 6)),
                  (slice(3, 6), slice(0, 3)), (slice(3, 6), slice(3, 6))):
        diagonal = np.abs(np.diag(A2[block[0], block[1]])) if block[0] == block[1] else None
        q = 1.0
        if diagonal is not None:
            k = int(np.argmax(diagonal))
            a, b, c = (M[block][k, k] for M in (A0, A1, A2))
            ratio = (a - b) / (b - c) if b != c else np.nan

            def gap(order: float, ratio: float = ratio) -> float:
                return float((n0**-order - n1**-order) / (n1**-order - n2**-order) - ratio)

            if np.isfinite(ratio) and gap(0.3) * gap(3.0) < 0.0:
                q = float(brentq(gap, 0.3, 3.0))
        fitted = A2[block] - (A1[block] - A2[block]) * n2**-q / (n1**-q - n2**-q)
        linear = A2[block] - (A1[block] - A2[block]) * n2**-1.0 / (n1**-1.0 - n2**-1.0)
        A[block] = fitted
        u[block] = np.maximum(np.abs(fitted - linear), 0.1 * np.abs(fitted - A2[block]))
    return A, u
