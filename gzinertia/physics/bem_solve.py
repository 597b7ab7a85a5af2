"""The Capytaine solve of posed surfaces: ``A_BBo_B`` of one surface, or each link's own block
of several surfaces solved in one problem, in unbounded fluid or under a free surface
(:class:`~gzinertia.physics.free_surface.FreeSurface`).

Results are linear-first ``[x y z p q r]`` (row i the radiating dof, column j the influenced
one), about each link's origin Bo (Capytaine's ``rotation_center``, set explicitly:
capytaine#192), in the link's axes B. Surfaces far from unit size are solved scaled by a power
of two and scaled back exactly (:mod:`gzinertia.physics.bem`'s docstring: Capytaine's absolute
thresholds).

Capytaine (the ``gzinertia[bem]`` extra) is imported here only (:data:`cpt`, ``None`` when it is
not installed: :func:`capytaine_version`); :mod:`gzinertia.physics.bem` reaches this module through
the package face when it solves, so that importing the BEM's settings loads no solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol

import numpy as np
from numpy.typing import NDArray

from gzinertia.errors import GzInertiaError
from gzinertia.physics.free_surface import FreeSurface
from gzinertia.physics.panel_surface import WATERPLANE_TOLERANCE, Surface, unit_scale
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose

try:
    import capytaine as cpt
except ImportError:  # the optional extra gzinertia[bem]: capytaine_version says so
    cpt = None  # type: ignore[assignment]

FloatArray = NDArray[np.float64]

RIGID_BODY_DOFS: Final = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")



def capytaine_version() -> str:
    """Capytaine's version; ImportError when it is not installed (the ``gzinertia[bem]``
    extra)."""
    if cpt is None:
        raise ImportError("capytaine is not installed (pip install 'gzinertia[bem]')")
    return str(cpt.__version__)

class SolveProgress(Protocol):
    """Told when a BEM solve starts (what it is, how many radiation problems: six per body)
    and when each of its radiation problems is solved."""

    def solve(self, description: str, problems: int) -> None:
        """A solve starts: ``description`` says what; ``problems`` radiation problems follow."""

    def advance(self) -> None:
        """One radiation problem of the current solve is solved."""


def _posed_body(
    surface: Surface, R_SB: FloatArray, p_SoBo_S: FloatArray, name: str, on_waterplane: bool,
    scale: float = 1.0,
) -> Any:
    """A Capytaine rigid body of ``surface`` (vertices in B) posed in the solve frame S and
    scaled by ``scale`` (a power of two: :func:`_solve_scale`), its rotations about Bo.
    ``on_waterplane``: S's ``z = 0`` is the free surface and the surface is a wetted one
    (:func:`gzinertia.physics.surface_mesh.wetted_surface`): its rim is put exactly on it."""
    vertices = scale * (surface.vertices @ np.asarray(R_SB).T + np.asarray(p_SoBo_S))
    p_SoBo_S = scale * np.asarray(p_SoBo_S, dtype=float)
    if on_waterplane:
        scale = max(float(np.max(np.abs(vertices))), 1e-300)
        vertices[np.abs(vertices[:, 2]) <= WATERPLANE_TOLERANCE * scale, 2] = 0.0
    mesh = cpt.Mesh(
        vertices=vertices, faces=surface.faces, name=name, auto_clean=False, auto_check=False
    )
    return cpt.FloatingBody(
        mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=np.asarray(p_SoBo_S)), name=name
    )


def _solve_scale(
    surfaces: Sequence[Surface], R_SB: Sequence[FloatArray], p_SoBo_S: Sequence[FloatArray]
) -> float:
    """The power of two that brings the posed surfaces (and their rotation centres) to about
    unit size in the solve frame (module docstring: Capytaine's absolute thresholds)."""
    reach = max(
        float(np.max(np.abs(s.vertices @ np.asarray(R).T + np.asarray(p))))
        for s, R, p in zip(surfaces, R_SB, p_SoBo_S, strict=True)
    )
    return unit_scale(max(reach, 1e-300))


def _unscaled(A: FloatArray, scale: float) -> FloatArray:
    """The added mass of the body at its own size from the solve of the scaled one (6n x 6n,
    linear-first): each entry times ``ℓ^(3 + angular row + angular column)``, ``ℓ = 1/scale``
    (exact for a power of two that does not overflow)."""
    angular = np.tile(np.repeat([0, 1], 3), A.shape[0] // 6)
    powers = 3 + np.add.outer(angular, angular)
    with np.errstate(over="ignore"):
        return np.asarray(A * (1.0 / scale) ** powers, dtype=float)


def _solve_bodies(
    bodies: Sequence[Any],
    density: float,
    free_surface: FreeSurface | None,
    progress: SolveProgress | None,
    description: str,
    scale: float = 1.0,
) -> FloatArray:
    """The joint added mass (6n x 6n, linear-first, body after body, each about its own
    rotation centre, in the solve frame's axes; row i the radiating dof) of ``bodies`` in
    unbounded fluid or under ``free_surface`` (the solve frame's ``z = 0``), the bodies scaled
    by ``scale`` (the result is the unscaled bodies', :func:`_unscaled`)."""
    if len(bodies) == 1:
        joined, names = bodies[0], list(RIGID_BODY_DOFS)
    else:
        joined = bodies[0]
        for body in bodies[1:]:
            joined = joined + body
        names = [f"{b.name}__{d}" for b in bodies for d in RIGID_BODY_DOFS]
    if free_surface is None:
        omega, fs, depth = np.inf, np.inf, np.inf
    else:
        omega = 0.0 if free_surface.frequency == "zero" else np.inf
        fs, depth = 0.0, free_surface.depth * scale
    if progress is not None:
        progress.solve(description, len(names))
    solver = cpt.BEMSolver(method="direct")
    A = np.empty((len(names), len(names)))
    for i, radiating in enumerate(names):
        problem = cpt.RadiationProblem(
            body=joined, radiating_dof=radiating, omega=omega, free_surface=fs,
            water_depth=depth, rho=float(density),
        )
        added = solver.solve(problem, keep_details=False).added_mass
        A[i] = [added[j] for j in names]
        if progress is not None:
            progress.advance()
    if not np.all(np.isfinite(A)):
        raise GzInertiaError("Capytaine returned a non-finite added mass")
    return _unscaled(A, scale)


def solve_surface(
    surface: Surface,
    density: float,
    free_surface: FreeSurface | None = None,
    progress: SolveProgress | None = None,
    description: str = "BEM solve",
) -> FloatArray:
    """``A_BBo_B`` of the surface (coordinates in B, rotations about Bo), direct BEM,
    linear-first; row i is the radiating dof, column j the influenced one.

    Unbounded fluid by default (``surface`` closed). With ``free_surface``, ``surface`` is the
    wetted part (:meth:`FreeSurface.wetted`), posed in the waterline frame (world axes, the free
    surface at ``z = 0``), solved about Bo at the frequency limit asked for, and the result
    re-expressed in B axes."""
    if free_surface is None:
        scale = _solve_scale([surface], [np.eye(3)], [np.zeros(3)])
        body = _posed_body(surface, np.eye(3), np.zeros(3), "link", False, scale)
        return _solve_bodies([body], density, None, progress, description, scale)
    R_WB = np.asarray(free_surface.X_WB.R, dtype=float)
    p = free_surface.p_WaterBo_W()
    scale = _solve_scale([surface], [R_WB], [p])
    body = _posed_body(surface, R_WB, p, "link", True, scale)
    A = _solve_bodies([body], density, free_surface, progress, description, scale)
    A_BBo_W = AddedMass(A, ordering="linear-first", point="Bo", axes="W")
    return A_BBo_W.reexpressed("B", R_WB.T).linear_first()


def solve_together(
    surfaces: Sequence[tuple[Surface, Pose]],
    density: float,
    free_surface: FreeSurface | None,
    progress: SolveProgress | None,
    description: str,
) -> tuple[list[FloatArray], float]:
    """Several surfaces (each in its link's coordinates, the link posed by ``X_WB``) in one
    problem: unbounded fluid (closed surfaces, posed in W) or under ``free_surface`` (wetted
    surfaces, posed in the waterline frame: world axes, origin on the waterplane). Returns each
    link's own 6x6 about its Bo in its B axes (the diagonal blocks of the joint matrix), and
    the largest cross-link coupling relative to the largest diagonal translational entry (what
    one matrix per link cannot carry)."""
    down = np.zeros(3) if free_surface is None else np.array([0.0, 0.0, free_surface.waterline])
    scale = _solve_scale(
        [s for s, _ in surfaces], [np.asarray(X.R) for _, X in surfaces],
        [np.asarray(X.p) - down for _, X in surfaces],
    )
    bodies = [
        _posed_body(
            surface, np.asarray(X_WB.R), np.asarray(X_WB.p) - down, f"l{k}",
            free_surface is not None, scale,
        )
        for k, (surface, X_WB) in enumerate(surfaces)
    ]
    A = _solve_bodies(bodies, density, free_surface, progress, description, scale)
    blocks = []
    cross = 0.0
    for k, (_, X_WB) in enumerate(surfaces):
        s = slice(6 * k, 6 * k + 6)
        block_W = AddedMass(A[s, s], ordering="linear-first", point="Bo", axes="W")
        block = block_W.reexpressed("B", np.asarray(X_WB.R).T).linear_first()
        blocks.append(block)
        off = np.abs(A[s, :]).copy()
        off[:, s] = 0.0
        cross = max(cross, float(np.max(off[:, :3])))  # force on link k from others' motion
    top = max(float(np.max(np.abs(b[:3, :3]))) for b in blocks)
    return blocks, (cross / top if top > 0 else 0.0)

