"""Fluid added mass of a closed surface by a boundary-element solve (Capytaine), with its
discretisation error.

``A_BBo_B`` (linear-first ``[x y z p q r]``, about the link origin Bo, in link axes B) of the
surface from :func:`gzinertia.physics.surface_mesh.link_surface`, whose coordinates are B's:
Capytaine's rigid-body dofs rotate about ``rotation_center=(0, 0, 0)`` = Bo, set explicitly
(it defaults to the centre of mass when one is set, capytaine#192), so the BEM itself is about
the spec's point in the spec's axes and no change of point is needed.

* **Fluid.** Unbounded (``free_surface=np.inf, water_depth=np.inf``): the Rankine kernel alone;
  the added mass is then the same at every frequency and ``omega=np.inf`` is used (Capytaine
  treats it symbolically). DESIGN.md §5, §11.
* **Method.** The direct BEM (the default indirect one is about 1.5 % off on a sphere at 7,200
  panels).
* **Error.** Flat panels converge about as ``N^-0.9`` (N the panel count). Every result is solved
  twice, at panel size ``h`` and ``h·√2`` (about half the panels); the error of the finer solve
  is estimated Richardson-style as ``|A_h - A_coarse| / ((N/N_coarse)^p - 1)`` with ``p = 0.5``,
  a slower rate than observed so the estimate errs on the safe side (2-4x the true error on
  ellipsoids at default quality). The bound is per
  3x3 block (linear, coupling, angular, each in its unit); the one figure reported is the
  largest relative to its block (:func:`estimated_error`).
* **Cache.** Results are kept in ``<cache dir>/bem/<key>.json`` (the audit's cache directory,
  ``$GZINERTIA_CACHE_DIR`` or ``.gzinertia_cache``), the key a sha256 of both panel meshes, the
  density, the method and the Capytaine version, so a CI re-run costs only the meshing.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from gzinertia.errors import GzInertiaError
from gzinertia.physics.added_mass import AddedMass
from gzinertia.physics.rotation import Pose
from gzinertia.physics.surface_mesh import Surface, link_surface, surface_area
from gzinertia.records import Collision

FloatArray = NDArray[np.float64]

Quality = Literal["fast", "default", "fine"]
#: Target panel count of the finer solve per quality (the coarser has about half).
QUALITY_PANELS: Final[dict[Quality, int]] = {"fast": 900, "default": 2000, "fine": 5000}
#: Convergence exponent assumed by the error estimate: smaller than the 0.9-1 observed on
#: sequences of similar meshes, because two meshes of one body at different panel sizes are not
#: exactly similar (measured on ellipsoids: the true error of the finer solve was 0.65-1.4 times
#: the fine-coarse difference at a panel ratio of about 2).
ASSUMED_ORDER: Final = 0.5
#: Most panels of one solve (memory grows as N²).
MAX_PANELS: Final = 10_000
#: Relative discretisation error above which a result is flagged.
WARN_ERROR: Final = 0.05
#: Ratio of the coarse panel size to the fine one (about half the panels).
COARSE_RATIO: Final = math.sqrt(2.0)
RIGID_BODY_DOFS: Final = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")
#: Bumped when what the solve computes changes, so old cache entries are not reused.
CACHE_VERSION: Final = 1
INSTALL_HINT: Final = (
    "--bem needs the optional boundary-element solver: pip install 'gzinertia[bem]' "
    "(capytaine and manifold3d)"
)


class BemUnavailableError(GzInertiaError):
    """Capytaine or manifold3d is not installed."""


def require_bem() -> str:
    """Capytaine's version, or :class:`BemUnavailableError` with the install hint."""
    try:
        import capytaine
        import manifold3d  # noqa: F401
    except ImportError:
        raise BemUnavailableError(INSTALL_HINT) from None
    return str(capytaine.__version__)


@dataclass(frozen=True)
class BemResult:
    """One link's BEM added mass and how it was obtained.

    ``A_BBo_B`` is the finer solve (linear-first, about Bo in B axes, as the BEM gives it:
    row = radiating dof); ``relative_error`` the estimated discretisation error of it relative
    to the largest unit-balanced entry; ``A_coarse`` the coarser solve.
    """

    A_BBo_B: AddedMass
    A_coarse: AddedMass
    panels: int
    coarse_panels: int
    panel_size: float
    relative_error: float
    density: float
    capytaine_version: str
    seconds: float
    cached: bool
    frequency: str = "infinite"
    fluid_domain: str = "unbounded fluid"
    method: str = "direct"

    length_scale: float = 1.0

    @property
    def error_bound(self) -> FloatArray:
        """Per-entry absolute error estimate (6x6, the units of ``A_BBo_B``): per block."""
        return block_error_bound(
            self.A_BBo_B.linear_first(), self.A_coarse.linear_first(), self.panels,
            self.coarse_panels,
        )


BLOCKS: Final = (
    (slice(0, 3), slice(0, 3)),
    (slice(0, 3), slice(3, 6)),
    (slice(3, 6), slice(0, 3)),
    (slice(3, 6), slice(3, 6)),
)


def block_error_bound(
    A_fine: FloatArray, A_coarse: FloatArray, n_fine: int, n_coarse: int
) -> FloatArray:
    """Richardson-style absolute error of ``A_fine``, one value per 3x3 block (linear,
    coupling, angular: each in its own unit): ``max|A_fine - A_coarse|`` over the block, divided
    by ``(N/N_coarse)^p - 1`` (module docstring); infinite when the two solves have nearly the
    same panel count."""
    ratio = n_fine / max(n_coarse, 1)
    factor = math.inf if ratio <= 1.05 else 1.0 / (ratio**ASSUMED_ORDER - 1.0)
    diff = np.abs(np.asarray(A_fine) - np.asarray(A_coarse))
    bound = np.empty((6, 6))
    for rows, cols in BLOCKS:
        bound[rows, cols] = float(np.max(diff[rows, cols])) * factor
    return bound


def estimated_error(
    A_fine: FloatArray, A_coarse: FloatArray, n_fine: int, n_coarse: int, length: float
) -> float:
    """The largest relative error over the blocks (:func:`block_error_bound`): linear block
    against its largest entry, angular block against its largest entry but at least 1 % of
    ``max|linear|·ℓ²`` (``ℓ = length``, the radius of the sphere of equal volume: a sphere's
    rotational added mass is zero and only noise would be left to compare with), coupling
    against the geometric mean of the two."""
    bound = block_error_bound(A_fine, A_coarse, n_fine, n_coarse)
    lin = float(np.max(np.abs(A_fine[:3, :3])))
    ang = max(float(np.max(np.abs(A_fine[3:, 3:]))), 0.01 * lin * length * length)
    if lin == 0.0:
        return 0.0
    scales = (lin, math.sqrt(lin * ang), math.sqrt(lin * ang), ang)
    errors = [float(bound[r, c].max()) / s for (r, c), s in zip(BLOCKS, scales, strict=False)]
    return max(errors)


def panel_size_for(collisions: Sequence[Collision], panels: int) -> float:
    """The panel size giving about ``panels`` panels on the link's surface (within about 15 %).

    Refined surfaces have about ``area / (0.4·h²)`` triangles; the first guess from the area is
    corrected up to twice by ``sqrt(N/panels)`` (meshing costs milliseconds)."""
    h = math.sqrt(surface_area(collisions) / (0.4 * panels))
    for _ in range(2):
        n = link_surface(collisions, h).panels
        if abs(n / panels - 1.0) < 0.15:
            break
        h *= math.sqrt(n / panels)
    return h


def require_panel_count(collisions: Sequence[Collision], h: float) -> None:
    """Refuses a panel size that would give more than :data:`MAX_PANELS` panels (the dense BEM
    needs about 64·N² bytes: 6.4 GB at 10,000), before meshing."""
    area = surface_area(collisions)
    estimate = area / (0.4 * h * h)
    if not estimate <= MAX_PANELS:
        places = ", ".join(str(c.source) for c in collisions)
        raise GzInertiaError(
            f"{places}: a panel size of {h:g} m gives about {estimate:.3g} panels on "
            f"{area:.3g} m^2 of surface; the dense BEM is limited to {MAX_PANELS} "
            "(memory grows as the square): choose a larger --panel-size"
        )


@dataclass(frozen=True)
class FreeSurface:
    """A free surface for the solve: the plane ``z_W = waterline`` of the world frame W (z up),
    the link posed in W by ``X_WB``, the sea bed ``depth`` metres below it (``inf``: deep
    water), and the frequency limit (``"zero"``: rigid lid ``∂φ/∂z = 0``; ``"infinite"``:
    ``φ = 0`` on the surface). The body is clipped at the waterline."""

    waterline: float
    X_WB: Pose
    frequency: Literal["zero", "infinite"] = "zero"
    depth: float = math.inf

    def key(self) -> str:
        """The cache key of this free surface: every field, ``X_WB`` at full precision."""
        p = ",".join(f"{v:.17g}" for v in (*self.X_WB.p, *self.X_WB.R.ravel()))
        return f"fs|{self.waterline!r}|{p}|{self.frequency}|{self.depth!r}"

    def domain(self) -> str:
        """The domain in words (waterline in the world, depth) for messages and provenance."""
        depth = "deep water" if math.isinf(self.depth) else f"water depth {self.depth:g} m"
        return f"free surface at z = {self.waterline:g} m (world), {depth}"


def solve_surface(
    surface: Surface, density: float, free_surface: FreeSurface | None = None
) -> FloatArray:
    """``A_BBo_B`` of the closed surface (coordinates in B, rotations about Bo), direct BEM,
    linear-first; row i is the radiating dof, column j the influenced one.

    Unbounded fluid by default. With ``free_surface`` the surface is posed in the world with
    the waterline moved to ``z = 0`` (Capytaine's free surface), clipped there, solved in world
    axes about Bo at the frequency limit asked for, and the result re-expressed in B axes."""
    import capytaine as cpt

    vertices = surface.vertices
    centre = np.zeros(3)
    R_WB = np.eye(3)
    if free_surface is not None:
        R_WB = np.asarray(free_surface.X_WB.R)
        shift = np.asarray(free_surface.X_WB.p) - np.array([0.0, 0.0, free_surface.waterline])
        vertices = vertices @ R_WB.T + shift
        centre = shift
    mesh = cpt.Mesh(
        vertices=vertices, faces=surface.faces, name="link", auto_clean=False, auto_check=False
    )
    if free_surface is not None:
        if float(np.min(vertices[:, 2])) >= 0.0:
            raise GzInertiaError(
                f"the link is entirely above the waterline z = {free_surface.waterline:g} m: "
                "no wetted surface"
            )
        mesh = mesh.immersed_part()
    body = cpt.FloatingBody(
        mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=centre), name="link"
    )
    solver = cpt.BEMSolver(method="direct")
    if free_surface is None:
        omega, fs, depth = np.inf, np.inf, np.inf
    else:
        omega = 0.0 if free_surface.frequency == "zero" else np.inf
        fs, depth = 0.0, free_surface.depth
    A = np.empty((6, 6))
    for i, radiating in enumerate(RIGID_BODY_DOFS):
        problem = cpt.RadiationProblem(
            body=body,
            radiating_dof=radiating,
            omega=omega,
            free_surface=fs,
            water_depth=depth,
            rho=float(density),
        )
        added = solver.solve(problem, keep_details=False).added_mass
        A[i] = [added[j] for j in RIGID_BODY_DOFS]
    if not np.all(np.isfinite(A)):
        raise GzInertiaError("Capytaine returned a non-finite added mass")
    if free_surface is not None:  # about Bo in W axes -> B axes: Rb·A·Rbᵀ with R_BW = R_WBᵀ
        A_BBo_W = AddedMass(A, ordering="linear-first", point="Bo", axes="W")
        A = A_BBo_W.reexpressed("B", R_WB.T).linear_first()
    return A


def _cache_file(key: str) -> Path:
    from gzinertia.audit.cache import default_cache_dir

    return default_cache_dir() / "bem" / f"{key}.json"


def _load_cached(key: str) -> dict[str, Any] | None:
    """The cached JSON record under ``key`` (parsed JSON, so ``Any``), or ``None``."""
    path = _cache_file(key)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data


def _store(key: str, data: dict[str, object]) -> None:
    path = _cache_file(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written only costs time


def bem_added_mass(
    collisions: Sequence[Collision],
    density: float,
    *,
    panel_size: float | None = None,
    quality: Quality = "default",
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    free_surface: FreeSurface | None = None,
) -> BemResult:
    """The BEM added mass ``A_BBo_B`` of the union of ``collisions`` (posed in link B), with its
    discretisation error from a second solve at ``panel_size·√2``.

    :param collisions: the displacing shapes, each with its pose ``X_BC`` in the link.
    :param density: fluid density ρ in kg/m³.
    :param panel_size: longest panel edge in metres; default from ``quality``
        (:data:`QUALITY_PANELS`, :func:`panel_size_for`).
    :param quality: the panel count :data:`QUALITY_PANELS` aims at when ``panel_size`` is not
        given (``"fast"``, ``"default"``, ``"fine"``).
    :param use_cache: read and write the result cache (module docstring).
    :param progress: called with a short message before each solve.
    :param free_surface: a waterline, sea bed and frequency limit (default: unbounded fluid).
    """
    version = require_bem()
    h = (
        panel_size
        if panel_size is not None
        else panel_size_for(collisions, QUALITY_PANELS[quality])
    )
    require_panel_count(collisions, h)
    fine = link_surface(collisions, h)
    coarse = link_surface(collisions, h * COARSE_RATIO)
    key = hashlib.sha256(
        f"{CACHE_VERSION}|{fine.digest()}|{coarse.digest()}|{density!r}|direct|"
        f"{free_surface.key() if free_surface else 'inf'}|{version}".encode()
    ).hexdigest()
    cached = _load_cached(key) if use_cache else None
    start = time.perf_counter()
    if cached is not None:
        A_fine = np.asarray(cached["A_fine"], dtype=float).reshape(6, 6)
        A_coarse = np.asarray(cached["A_coarse"], dtype=float).reshape(6, 6)
    else:
        if progress:
            progress(f"BEM solve, {fine.panels} panels")
        A_fine = solve_surface(fine, density, free_surface)
        if progress:
            progress(f"BEM solve for the error estimate, {coarse.panels} panels")
        A_coarse = solve_surface(coarse, density, free_surface)
        if use_cache:
            _store(
                key,
                {
                    "key": key,
                    "A_fine": A_fine.ravel().tolist(),
                    "A_coarse": A_coarse.ravel().tolist(),
                },
            )
    seconds = time.perf_counter() - start
    return _bem_result(
        (A_fine, A_coarse), (fine, coarse), h, density, version, seconds, cached is not None,
        "infinite" if free_surface is None else free_surface.frequency,
        "unbounded fluid" if free_surface is None else free_surface.domain(),
    )


def _bem_result(
    A_fine_coarse: tuple[NDArray[np.float64], NDArray[np.float64]],
    surfaces: tuple[Surface, Surface],
    panel_size: float,
    density: float,
    version: str,
    seconds: float,
    cached: bool,
    frequency: str,
    fluid_domain: str,
) -> BemResult:
    """The :class:`BemResult` of one link's fine and coarse solves (6×6 linear-first blocks about
    Bo in link axes B, from the fine and coarse ``surfaces``), with the error estimate on the
    length scale of the fine surface's volume."""
    A_fine, A_coarse = A_fine_coarse
    fine, coarse = surfaces
    length = (3.0 * fine.volume() / (4.0 * math.pi)) ** (1.0 / 3.0)
    return BemResult(
        A_BBo_B=AddedMass(A_fine, ordering="linear-first", point="Bo", axes="B"),
        A_coarse=AddedMass(A_coarse, ordering="linear-first", point="Bo", axes="B"),
        panels=fine.panels,
        coarse_panels=coarse.panels,
        panel_size=panel_size,
        relative_error=estimated_error(A_fine, A_coarse, fine.panels, coarse.panels, length),
        density=float(density),
        capytaine_version=version,
        seconds=seconds,
        cached=cached,
        length_scale=length,
        frequency=frequency,
        fluid_domain=fluid_domain,
    )


def _solve_together(
    surfaces: Sequence[tuple[Surface, Pose]], density: float
) -> tuple[list[FloatArray], float]:
    """Several closed surfaces (each in its link's coordinates, the link posed by ``X_WB``) in
    one unbounded-fluid problem: each link's own 6x6 about its Bo in its B axes (the diagonal
    blocks of the joint matrix), and the largest cross-link coupling relative to the largest
    diagonal entry (what one matrix per link cannot carry)."""
    import capytaine as cpt

    bodies = []
    for k, (surface, X_WB) in enumerate(surfaces):
        R, p = np.asarray(X_WB.R), np.asarray(X_WB.p)
        mesh = cpt.Mesh(
            vertices=surface.vertices @ R.T + p,
            faces=surface.faces,
            name=f"l{k}",
            auto_clean=False,
            auto_check=False,
        )
        dofs = cpt.rigid_body_dofs(rotation_center=p)
        bodies.append(cpt.FloatingBody(mesh=mesh, dofs=dofs, name=f"l{k}"))
    joined = bodies[0]
    for body in bodies[1:]:
        joined = joined + body
    names = [f"l{k}__{d}" for k in range(len(bodies)) for d in RIGID_BODY_DOFS]
    n = len(names)
    A = np.empty((n, n))
    solver = cpt.BEMSolver(method="direct")
    for i, radiating in enumerate(names):
        problem = cpt.RadiationProblem(
            body=joined,
            radiating_dof=radiating,
            omega=np.inf,
            free_surface=np.inf,
            water_depth=np.inf,
            rho=float(density),
        )
        added = solver.solve(problem, keep_details=False).added_mass
        A[i] = [added[j] for j in names]
    if not np.all(np.isfinite(A)):
        raise GzInertiaError("Capytaine returned a non-finite added mass")
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


def bem_added_mass_together(
    links: Sequence[tuple[Sequence[Collision], Pose]],
    density: float,
    *,
    panel_size: float | None = None,
    quality: Quality = "default",
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
) -> tuple[list[BemResult], float]:
    """Like :func:`bem_added_mass` for several links solved in one problem (``--together``):
    each link's shapes posed in the world by its ``X_WB``; every result is that link's own
    ``A_BBo_B`` in the presence of the others. The panel size (given, or from ``quality`` for
    the link with the most surface) is common to all. Also returns the largest cross-link
    coupling relative to the largest translational entry (written nowhere: SDF has one matrix
    per link)."""
    version = require_bem()
    if panel_size is None:
        biggest = max(links, key=lambda item: surface_area(item[0]))[0]
        panel_size = panel_size_for(biggest, QUALITY_PANELS[quality])
    h = panel_size
    for collisions, _ in links:
        require_panel_count(collisions, h)
    fine = [link_surface(c, h) for c, _ in links]
    coarse = [link_surface(c, h * COARSE_RATIO) for c, _ in links]
    poses = "|".join(",".join(f"{v:.17g}" for v in (*X.p, *X.R.ravel())) for _, X in links)
    key = hashlib.sha256(
        (
            f"{CACHE_VERSION}|together|{'|'.join(s.digest() for s in fine)}|"
            f"{'|'.join(s.digest() for s in coarse)}|{poses}|{density!r}|{version}"
        ).encode()
    ).hexdigest()
    cached = _load_cached(key) if use_cache else None
    start = time.perf_counter()
    if cached is not None:
        fine_blocks = [np.asarray(b, dtype=float).reshape(6, 6) for b in cached["fine"]]
        coarse_blocks = [np.asarray(b, dtype=float).reshape(6, 6) for b in cached["coarse"]]
        cross = float(cached["cross"])
    else:
        if progress:
            progress(
                f"BEM solve of {len(links)} links together, {sum(s.panels for s in fine)} panels"
            )
        fine_blocks, cross = _solve_together(
            [(s, X) for s, (_, X) in zip(fine, links, strict=True)], density
        )
        if progress:
            progress(f"BEM solve for the error estimate, {sum(s.panels for s in coarse)} panels")
        coarse_blocks, _ = _solve_together(
            [(s, X) for s, (_, X) in zip(coarse, links, strict=True)], density
        )
        if use_cache:
            _store(
                key,
                {
                    "key": key,
                    "fine": [b.ravel().tolist() for b in fine_blocks],
                    "coarse": [b.ravel().tolist() for b in coarse_blocks],
                    "cross": cross,
                },
            )
    seconds = time.perf_counter() - start
    results = []
    for k, surface in enumerate(fine):
        results.append(
            _bem_result(
                (fine_blocks[k], coarse_blocks[k]), (surface, coarse[k]), h, density, version,
                seconds, cached is not None, "infinite",
                f"unbounded fluid, solved with {len(links) - 1} other link(s)",
            )
        )
    return results, cross
