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
* **Error.** Every result is solved twice, at panel size ``h`` and ``h·√2`` (about half the
  panels); the error of the finer solve is bounded per 3x3 block from the two, Richardson-style,
  and for a body with sharp edges at least by the edge error measured on boxes and cylinders
  (:mod:`gzinertia.physics.bem_error`).
* **Cache.** Results are kept in ``<cache dir>/bem/<key>.json`` (the audit's cache directory,
  ``$GZINERTIA_CACHE_DIR`` or ``.gzinertia_cache``), the key a sha256 of both panel meshes, the
  density, the method and the Capytaine version, so a CI re-run costs only the meshing.
* **Hostile shapes.** Before anything is meshed, the link's shapes are checked against what the
  mesher and the solver take (:func:`check_domain`: dimensions, aspect ratio, size, panel
  count); the meshing itself runs in a limited child process
  (:mod:`gzinertia.physics.mesh_sandbox`).
* **Scale.** Capytaine has absolute thresholds: the same panels 1 mm across gave an added mass
  6e-4 off the unit body's scaled, 0.1 mm 16-49 % off, 1 µm negative diagonal entries. Potential
  flow has no length scale, so a surface much smaller or larger than a metre is solved scaled
  to about unit size by a power of two (exact: :func:`~gzinertia.physics.surface_mesh.unit_scale`),
  and the result is scaled back: ``ℓ³`` for the linear block, ``ℓ⁴`` the coupling, ``ℓ⁵`` the
  angular one (:func:`solve_surface`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.bem_error import (
    SHARP_EDGE_DEGREES,
    block_error_bound,
    edge_share,
    estimated_error,
    sharpest_edge,
)
from gzinertia.physics.mesh_domain import MAX_PANELS, shapes_place
from gzinertia.physics.surface_mesh import (
    WATERPLANE_TOLERANCE,
    Surface,
    WettedSurface,
    link_surface,
    surface_area,
    unit_scale,
    wetted_surface,
)
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose

FloatArray = NDArray[np.float64]

Quality = Literal["fast", "default", "fine"]
#: Target panel count of the finer solve per quality (the coarser has about half).
QUALITY_PANELS: Final[dict[Quality, int]] = {"fast": 900, "default": 2000, "fine": 5000}
#: Relative discretisation error above which a result is flagged.
WARN_ERROR: Final = 0.05
#: Ratio of the coarse panel size to the fine one (about half the panels).
COARSE_RATIO: Final = math.sqrt(2.0)
RIGID_BODY_DOFS: Final = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")
#: Bumped when what the solve computes changes, so old cache entries are not reused.
CACHE_VERSION: Final = 2
#: ``{what}``: ``--bem`` on the command line, ``gzinertia.addmass_bem`` in Python
#: (:func:`gzinertia.options.option`); :func:`install_hint` fills it.
INSTALL_HINT: Final = (
    "{what} needs the optional boundary-element solver: pip install 'gzinertia[bem]' "
    "(capytaine and manifold3d)"
)


def install_hint() -> str:
    """:data:`INSTALL_HINT` naming the setting as the running interface spells it."""
    return INSTALL_HINT.format(what=option("bem"))


class BemUnavailableError(GzInertiaError):
    """Capytaine or manifold3d is not installed."""


def require_bem() -> str:
    """Capytaine's version, or :class:`BemUnavailableError` with the install hint."""
    try:
        import capytaine
        import manifold3d  # noqa: F401
    except ImportError:
        raise BemUnavailableError(install_hint()) from None
    return str(capytaine.__version__)


@dataclass(frozen=True, repr=False, eq=False)
class BemResult(ValueRecord):
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
    #: Under a free surface: the panels of the closed surface the wetted part (``panels``) was
    #: cut from (no lid is added); ``None`` in unbounded fluid (``panels`` is the closed surface).
    closed_panels: int | None = None
    #: What the solve should be read with (a shape thinner than the error estimate covers).
    warnings: tuple[str, ...] = ()
    #: The largest angle (degrees) between neighbouring panels of the fine surface: above
    #: :data:`~gzinertia.physics.bem_error.SHARP_EDGE_DEGREES` the body has sharp edges and the
    #: error bound is at least the edge error (:mod:`gzinertia.physics.bem_error`).
    sharpest_edge: float = 0.0

    @property
    def sharp_edges(self) -> bool:
        """Whether the body has sharp edges (:attr:`sharpest_edge`)."""
        return self.sharpest_edge > SHARP_EDGE_DEGREES

    #: The share of the fine surface's area in panels touching a sharp edge
    #: (:func:`~gzinertia.physics.bem_error.edge_share`).
    edge_share: float = 0.0

    @property
    def edge(self) -> tuple[float, float] | None:
        """``(s, ℓ)`` for the sharp-edge floor of the bound (:attr:`edge_share`, the length
        scale), ``None`` for a smooth body."""
        return (self.edge_share, self.length_scale) if self.sharp_edges else None

    @property
    def error_bound(self) -> FloatArray:
        """Per-entry absolute error estimate (6x6, the units of ``A_BBo_B``): per block
        (:func:`~gzinertia.physics.bem_error.block_error_bound`)."""
        return block_error_bound(
            self.A_BBo_B.linear_first(), self.A_coarse.linear_first(), self.panels,
            self.coarse_panels, self.edge,
        )


def panel_size_for(
    collisions: Sequence[Collision],
    panels: int,
    element: str = "collision",
    mesher: Callable[[float], Surface] | None = None,
    link: str | None = None,
) -> float:
    """The panel size giving about ``panels`` panels to solve on (within about 15 %): on the
    link's closed surface, or on what ``mesher(h)`` builds (the wetted part below a waterline).

    Refined surfaces have about ``area / (0.4·h²)`` triangles; the first guess from the area is
    corrected up to twice by ``sqrt(N/panels)`` (meshing costs milliseconds)."""
    mesh = mesher or (lambda size: link_surface(collisions, size, element, link))
    h = math.sqrt(surface_area(collisions, element, link) / (0.4 * panels))
    for _ in range(3):
        n = mesh(h).panels
        if abs(n / panels - 1.0) < 0.15:
            break
        h *= math.sqrt(n / panels)
    return h


def require_panel_count(
    collisions: Sequence[Collision], h: float, element: str = "collision",
    link: str | None = None,
) -> None:
    """Refuses a panel size that would give more than :data:`MAX_PANELS` panels (the dense BEM
    needs about 64·N² bytes: 6.4 GB at 10,000), before meshing."""
    area = surface_area(collisions, element, link)
    estimate = area / (0.4 * h * h)
    if not estimate <= MAX_PANELS:
        places = shapes_place(collisions, element, link)
        raise GzInertiaError(
            f"{places}: a panel size of {h:g} m gives about {estimate:.3g} panels on "
            f"{area:.3g} m^2 of surface; the dense BEM is limited to {MAX_PANELS} "
            f"(memory grows as the square): choose a larger {option('panel_size')}"
        )


def require_solvable(panels: int, places: str, h: float | None = None) -> None:
    """Refuses a solve on more than :data:`MAX_PANELS` panels, counted on the meshed surfaces
    themselves (:func:`require_panel_count` estimates before meshing, from the area);
    ``places`` names the shapes (:func:`~gzinertia.physics.mesh_domain.shapes_place`), ``h``
    the panel size they were meshed at (shapes smaller than it have their fewest triangles
    already: many of them need fewer shapes, not larger panels)."""
    if panels > MAX_PANELS:
        at = "" if h is None else f" at a panel size of {h:.3g} m"
        raise GzInertiaError(
            f"{places}: the surface to solve has {panels} panels{at}; the dense BEM is "
            f"limited to {MAX_PANELS} (memory grows as the square): choose a larger "
            f"{option('panel_size')}, or mesh fewer shapes ({option('geometry')} NAMES)"
        )


class SolveProgress(Protocol):
    """Told when a BEM solve starts (what it is, how many radiation problems: six per body)
    and when each of its radiation problems is solved."""

    def solve(self, description: str, problems: int) -> None:
        """A solve starts: ``description`` says what; ``problems`` radiation problems follow."""

    def advance(self) -> None:
        """One radiation problem of the current solve is solved."""


def require_free_surface(depth: float, frequency: str) -> None:
    """Refuses, before anything is read or meshed, a free surface the solver cannot take: a
    finite ``depth`` at the zero-frequency limit (Capytaine's finite-depth Green function needs
    ``kh >= 0.1``; at zero frequency the rigid lid over a sea bed is an infinite series of
    images it has no kernel for) and at the infinite-frequency limit (Capytaine 3.0's solve
    there differs from run to run on the same mesh: a figure no bound can hold;
    ``tests/test_bem_depth.py``), and a frequency other than the two limits."""
    if frequency not in ("zero", "infinite"):
        raise GzInertiaError(
            f"{option('frequency')} under a free surface is zero or infinite, not "
            f"{frequency!r}: a finite frequency's added mass varies with it and goes with "
            "radiation damping (seakeeping), where Gazebo takes one constant matrix; import "
            f"one frequency of a dataset computed elsewhere with {option('bem_from')}"
        )
    if frequency == "zero" and math.isfinite(depth):
        raise GzInertiaError(
            f"{option('depth')} {depth:g} m with {option('frequency')} zero cannot be solved: "
            "Capytaine has no finite-depth Green function at zero frequency (a rigid lid over a "
            f"sea bed); leave {option('depth')} out (deep water: close while the depth is "
            "several times the hull's draft and beam)"
        )
    if math.isfinite(depth):
        raise GzInertiaError(
            f"{option('depth')} {depth:g} m with {option('frequency')} infinite cannot be "
            "solved reliably: Capytaine 3.0's finite-depth solve at infinite frequency gives "
            "another added mass at each run on the same mesh (0.3-2 % apart on a sphere), "
            f"which no error bound can hold; leave {option('depth')} out (deep water: close "
            "while the depth is several times the hull's draft and beam)"
        )


@dataclass(frozen=True, repr=False, eq=False)
class FreeSurface(ValueRecord):
    """A free surface for the solve: the plane ``z_W = waterline`` of the world frame W (z up),
    the link posed in W by ``X_WB``, the sea bed ``depth`` metres below it (``inf``: deep
    water), and the frequency limit (``"zero"``: rigid lid ``∂φ/∂z = 0``; ``"infinite"``:
    ``φ = 0`` on the surface). The body is clipped at the waterline."""

    waterline: float
    X_WB: Pose
    frequency: Literal["zero", "infinite"] = "zero"
    depth: float = math.inf
    #: Where the waterline and pose came from, in words, when not given as such
    #: (``--waterline auto``: :meth:`gzinertia.edit.floating_draft.FloatingDraft.words`);
    #: said by :meth:`domain`, not part of the key (the waterline and pose are).
    origin: str = ""

    def __post_init__(self) -> None:
        require_free_surface(self.depth, self.frequency)

    def key(self) -> str:
        """The cache key of this free surface: every field, ``X_WB`` at full precision."""
        p = ",".join(f"{v:.17g}" for v in (*self.X_WB.p, *self.X_WB.R.ravel()))
        return f"fs|{self.waterline!r}|{p}|{self.frequency}|{self.depth!r}"

    def domain(self) -> str:
        """The domain in words (waterline in the world, depth) for messages and provenance."""
        depth = "deep water" if math.isinf(self.depth) else f"water depth {self.depth:g} m"
        said = f" ({self.origin})" if self.origin else ""
        return f"free surface at z = {self.waterline:g} m (world){said}, {depth}"

    def p_WaterBo_W(self) -> FloatArray:
        """Bo in the waterline frame (world axes, origin on the waterplane below W's origin)."""
        return np.asarray(self.X_WB.p, dtype=float) - np.array([0.0, 0.0, self.waterline])

    def wetted(
        self, collisions: Sequence[Collision], h: float, element: str = "collision",
        link: str | None = None,
    ) -> WettedSurface:
        """The link's surface below this waterline (:func:`surface_mesh.wetted_surface`)."""
        return wetted_surface(
            collisions, h, np.asarray(self.X_WB.R, dtype=float), self.p_WaterBo_W(), element,
            link,
        )


def _posed_body(
    surface: Surface, R_SB: FloatArray, p_SoBo_S: FloatArray, name: str, on_waterplane: bool,
    scale: float = 1.0,
) -> Any:
    """A Capytaine rigid body of ``surface`` (vertices in B) posed in the solve frame S and
    scaled by ``scale`` (a power of two: :func:`_solve_scale`), its rotations about Bo.
    ``on_waterplane``: S's ``z = 0`` is the free surface and the surface is a wetted one
    (:func:`surface_mesh.wetted_surface`): its rim is put exactly on it."""
    import capytaine as cpt

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
    import capytaine as cpt

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


def _cache_file(key: str) -> Path:
    from gzinertia.io.cache_folder import default_cache_dir

    return default_cache_dir() / "bem" / f"{key}.json"


def _load_cached(key: str) -> dict[str, Any] | None:
    """The cached JSON record under ``key`` (parsed JSON, so ``Any``), or ``None`` (also when
    the cache would be reached through a symbolic link:
    :func:`~gzinertia.io.cache_folder.load_cache_file`)."""
    from gzinertia.io.cache_folder import default_cache_dir, load_cache_file

    try:
        data = json.loads(load_cache_file(default_cache_dir(), _cache_file(key)))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data


def _store(key: str, data: dict[str, object]) -> None:
    """Stores a record atomically, through no symbolic link
    (:func:`~gzinertia.io.cache_folder.store_cache_file`); a cache that cannot be written only
    costs time."""
    from gzinertia.io.cache_folder import default_cache_dir, store_cache_file

    with contextlib.suppress(OSError, GzInertiaError):
        store_cache_file(default_cache_dir(), _cache_file(key), json.dumps(data).encode())


@dataclass(frozen=True, repr=False, eq=False)
class _Meshes(ValueRecord):
    """The fine and coarse surfaces of one link as solved: closed (unbounded fluid) or wetted
    (below a waterline), with the closed surfaces' panel counts when wetted, and the length
    scale of the error estimate (radius of the sphere of the displaced volume)."""

    fine: Surface
    coarse: Surface
    closed_panels: int | None
    length: float
    #: The largest angle between neighbouring panels of ``fine`` (degrees).
    sharpest_edge: float = 0.0
    #: The share of ``fine``'s area in panels touching a sharp edge.
    edge_share: float = 0.0


def solved_panels(panels: int, free_surface: FreeSurface | None) -> str:
    """``"N panels"`` for the progress line of a solve; ``"N wetted panels"`` under a free
    surface, where only the part below the waterline is solved on (as the provenance comment
    says)."""
    return f"{panels} panels" if free_surface is None else f"{panels} wetted panels"


def _meshes(
    collisions: Sequence[Collision],
    h: float,
    free_surface: FreeSurface | None,
    element: str,
    link: str | None = None,
) -> _Meshes:
    if free_surface is None:
        fine = link_surface(collisions, h, element, link)
        coarse = link_surface(collisions, h * COARSE_RATIO, element, link)
        volume, closed = fine.volume(), None
    else:
        wet_fine = free_surface.wetted(collisions, h, element, link)
        wet_coarse = free_surface.wetted(collisions, h * COARSE_RATIO, element, link)
        fine, coarse = wet_fine.surface, wet_coarse.surface
        volume, closed = wet_fine.displaced_volume, wet_fine.closed_panels
    require_solvable(fine.panels, shapes_place(collisions, element, link), h)
    length = (3.0 * volume / (4.0 * math.pi)) ** (1.0 / 3.0)
    # an edge of the body keeps its angle when refined; faceting (a decimated mesh file's
    # rim) turns less on the finer surface: not an edge
    turn = sharpest_edge(fine.vertices, fine.faces)
    if turn < 0.9 * sharpest_edge(coarse.vertices, coarse.faces):
        turn = 0.0
    return _Meshes(fine, coarse, closed, length, turn, edge_share(fine.vertices, fine.faces))


def _panel_size(
    collisions: Sequence[Collision],
    panel_size: float | None,
    quality: Quality,
    free_surface: FreeSurface | None,
    element: str,
    link: str | None = None,
) -> float:
    """The given panel size, or the one giving the quality's panel count on what is solved
    (the wetted part under a free surface)."""
    if panel_size is not None:
        return panel_size
    mesher = (
        None
        if free_surface is None
        else lambda size: free_surface.wetted(collisions, size, element, link).surface
    )
    return panel_size_for(collisions, QUALITY_PANELS[quality], element, mesher, link)


def check_domain(
    collisions: Sequence[Collision],
    density: float,
    element: str = "collision",
    link: str | None = None,
    panel_size: float | None = None,
) -> tuple[str, ...]:
    """Refuses, before anything is meshed (no native code runs), shapes the mesher or the
    solver cannot take (:mod:`gzinertia.physics.mesh_domain`: dimensions that are not positive
    and finite, an aspect ratio beyond 1:1000, a result SDF cannot hold, a mesh file that
    cannot be read or is over the caps, and at ``panel_size`` more triangles than the mesher
    makes), each with one message naming the file, ``link`` and the shape, why and what would
    work. Returns the warnings the solve is to be read with (a shape thinner than the error
    estimate covers)."""
    from gzinertia.physics.mesh_domain import aspect_warning, require_refinable, require_writable
    from gzinertia.physics.surface_mesh import checked_shapes

    shapes = checked_shapes(collisions, element, link)
    sizes = [shape.size for shape in shapes]
    require_writable(collisions, sizes, density, shapes_place(collisions, element, link))
    if panel_size is not None:
        for shape in shapes:
            if shape.mesh is None:  # a mesh file's: once it is decimated, in the mesher
                require_refinable(shape.size, panel_size, shape.where)
    said = (aspect_warning(shape.size, shape.where) for shape in shapes)
    return tuple(w for w in said if w)


def _mesh_link(
    collisions: Sequence[Collision],
    panel_size: float | None,
    quality: Quality,
    free_surface: FreeSurface | None,
    element: str,
    link: str | None,
) -> tuple[float, _Meshes]:
    """The meshing step of one link (in the meshing child: :func:`bem_added_mass`): the panel
    size and the fine and coarse surfaces."""
    h = _panel_size(collisions, panel_size, quality, free_surface, element, link)
    require_panel_count(collisions, h, element, link)
    return h, _meshes(collisions, h, free_surface, element, link)


def _mesh_links(
    links: Sequence[Sequence[Collision]],
    free_surfaces: Sequence[FreeSurface | None],
    panel_size: float | None,
    quality: Quality,
    element: str,
    names: Sequence[str | None],
) -> tuple[float, list[_Meshes]]:
    """The meshing step of several links solved together (in the meshing child:
    :func:`bem_added_mass_together`): one panel size (given, or from ``quality`` for the link
    with the most surface) and each link's surfaces."""
    if panel_size is None:
        k = max(range(len(links)), key=lambda i: surface_area(links[i], element, names[i]))
        panel_size = _panel_size(links[k], None, quality, free_surfaces[k], element, names[k])
    for collisions, name in zip(links, names, strict=True):
        require_panel_count(collisions, panel_size, element, name)
    return panel_size, [
        _meshes(c, panel_size, fs, element, name)
        for c, fs, name in zip(links, free_surfaces, names, strict=True)
    ]


def bem_added_mass(
    collisions: Sequence[Collision],
    density: float,
    *,
    panel_size: float | None = None,
    quality: Quality = "default",
    use_cache: bool = True,
    progress: SolveProgress | None = None,
    free_surface: FreeSurface | None = None,
    element: str = "collision",
    link: str | None = None,
) -> BemResult:
    """The BEM added mass ``A_BBo_B`` of the union of ``collisions`` (posed in link B), with its
    discretisation error from a second solve at ``panel_size·√2``.

    :param collisions: the displacing shapes, each with its pose ``X_BC`` in the link (the
        link's collisions, or its visuals: ``element="visual"``, named so in messages).
    :param density: fluid density ρ in kg/m³.
    :param panel_size: longest panel edge in metres; default from ``quality``
        (:data:`QUALITY_PANELS` panels solved on, :func:`panel_size_for`).
    :param quality: the panel count :data:`QUALITY_PANELS` aims at when ``panel_size`` is not
        given (``"fast"``, ``"default"``, ``"fine"``).
    :param use_cache: read and write the result cache (module docstring).
    :param progress: told when each solve starts and as its radiation problems are solved.
    :param free_surface: a waterline, sea bed and frequency limit (default: unbounded fluid); the
        surface is then cut at the waterline (:meth:`FreeSurface.wetted`).
    :param link: the link's name, for messages.

    The shapes are checked first (:func:`check_domain`), then meshed in a limited child process
    (:func:`gzinertia.physics.mesh_sandbox.run_meshing`); each refusal, crash or limit hit is a
    :class:`~gzinertia.errors.GzInertiaError` naming the file, the link and the shapes.
    """
    from gzinertia.physics.mesh_sandbox import run_meshing

    version = require_bem()
    warnings = check_domain(collisions, density, element, link, panel_size)
    h, meshes = run_meshing(
        _mesh_link, (list(collisions), panel_size, quality, free_surface, element, link),
        shapes_place(collisions, element, link),
    )
    fine, coarse = meshes.fine, meshes.coarse
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
        A_fine = solve_surface(
            fine, density, free_surface, progress,
            f"BEM solve, {solved_panels(fine.panels, free_surface)}",
        )
        A_coarse = solve_surface(
            coarse, density, free_surface, progress,
            f"BEM solve for the error estimate, {solved_panels(coarse.panels, free_surface)}",
        )
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
        (A_fine, A_coarse), meshes, h, density, version, seconds, cached is not None,
        "infinite" if free_surface is None else free_surface.frequency,
        "unbounded fluid" if free_surface is None else free_surface.domain(), warnings,
    )


def _bem_result(
    A_fine_coarse: tuple[NDArray[np.float64], NDArray[np.float64]],
    meshes: _Meshes,
    panel_size: float,
    density: float,
    version: str,
    seconds: float,
    cached: bool,
    frequency: str,
    fluid_domain: str,
    warnings: tuple[str, ...] = (),
) -> BemResult:
    """The :class:`BemResult` of one link's fine and coarse solves (6×6 linear-first blocks about
    Bo in link axes B, from the fine and coarse surfaces solved on), with the error estimate on
    the length scale of the displaced volume."""
    A_fine, A_coarse = A_fine_coarse
    fine, coarse = meshes.fine, meshes.coarse
    edge = (meshes.edge_share, meshes.length) if meshes.sharpest_edge > SHARP_EDGE_DEGREES else None
    return BemResult(
        A_BBo_B=AddedMass(A_fine, ordering="linear-first", point="Bo", axes="B"),
        A_coarse=AddedMass(A_coarse, ordering="linear-first", point="Bo", axes="B"),
        panels=fine.panels,
        coarse_panels=coarse.panels,
        panel_size=panel_size,
        relative_error=estimated_error(
            A_fine, A_coarse, fine.panels, coarse.panels, meshes.length, edge
        ),
        density=float(density),
        capytaine_version=version,
        seconds=seconds,
        cached=cached,
        length_scale=meshes.length,
        frequency=frequency,
        fluid_domain=fluid_domain,
        closed_panels=meshes.closed_panels,
        warnings=warnings,
        sharpest_edge=meshes.sharpest_edge,
        edge_share=meshes.edge_share,
    )


def _solve_together(
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


def bem_added_mass_together(
    links: Sequence[tuple[Sequence[Collision], Pose]],
    density: float,
    *,
    panel_size: float | None = None,
    quality: Quality = "default",
    use_cache: bool = True,
    progress: SolveProgress | None = None,
    waterline: tuple[float, Literal["zero", "infinite"], float] | None = None,
    element: str = "collision",
    names: Sequence[str] | None = None,
    origin: str = "",
) -> tuple[list[BemResult], float]:
    """Like :func:`bem_added_mass` for several links solved in one problem (``--together``):
    each link's shapes posed in the world by its ``X_WB``; every result is that link's own
    ``A_BBo_B`` in the presence of the others. The panel size (given, or from ``quality`` for
    the link with the most surface) is common to all. ``waterline``: ``(z_W, frequency limit,
    depth)`` of a free surface, every link cut there (:class:`FreeSurface`); default unbounded
    fluid. Also returns the largest cross-link coupling relative to the largest translational
    entry (written nowhere: SDF has one matrix per link). ``names``: the links' names, for
    messages; ``origin``: where the waterline and poses came from (:attr:`FreeSurface.origin`).
    Checked and meshed as :func:`bem_added_mass` checks and meshes one link."""
    from gzinertia.physics.mesh_sandbox import run_meshing

    version = require_bem()
    link_names: list[str | None] = list(names) if names is not None else [None] * len(links)
    surfaces = [
        None if waterline is None else FreeSurface(waterline[0], X, waterline[1], waterline[2],
                                                 origin)
        for _, X in links
    ]
    warnings = [
        check_domain(c, density, element, name, panel_size)
        for (c, _), name in zip(links, link_names, strict=True)
    ]
    places = _links_place(links, link_names, element)
    h, meshes = run_meshing(
        _mesh_links,
        ([list(c) for c, _ in links], surfaces, panel_size, quality, element, link_names),
        places,
    )
    fine = [m.fine for m in meshes]
    coarse = [m.coarse for m in meshes]
    require_solvable(sum(s.panels for s in fine), places, h)
    poses = "|".join(",".join(f"{v:.17g}" for v in (*X.p, *X.R.ravel())) for _, X in links)
    domain = "inf" if waterline is None else "|".join(repr(v) for v in waterline)
    key = hashlib.sha256(
        (
            f"{CACHE_VERSION}|together|{'|'.join(s.digest() for s in fine)}|"
            f"{'|'.join(s.digest() for s in coarse)}|{poses}|{domain}|{density!r}|{version}"
        ).encode()
    ).hexdigest()
    cached = _load_cached(key) if use_cache else None
    start = time.perf_counter()
    if cached is not None:
        fine_blocks = [np.asarray(b, dtype=float).reshape(6, 6) for b in cached["fine"]]
        coarse_blocks = [np.asarray(b, dtype=float).reshape(6, 6) for b in cached["coarse"]]
        cross = float(cached["cross"])
    else:
        fine_blocks, cross = _solve_together(
            [(s, X) for s, (_, X) in zip(fine, links, strict=True)], density, surfaces[0],
            progress,
            f"BEM solve of {len(links)} links together, "
            f"{solved_panels(sum(s.panels for s in fine), surfaces[0])}",
        )
        coarse_blocks, _ = _solve_together(
            [(s, X) for s, (_, X) in zip(coarse, links, strict=True)], density, surfaces[0],
            progress,
            "BEM solve for the error estimate, "
            f"{solved_panels(sum(s.panels for s in coarse), surfaces[0])}",
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
    others = f"solved with {len(links) - 1} other link(s)"
    results = []
    for k, fs in enumerate(surfaces):
        results.append(
            _bem_result(
                (fine_blocks[k], coarse_blocks[k]), meshes[k], h, density, version,
                seconds, cached is not None, "infinite" if fs is None else fs.frequency,
                f"unbounded fluid, {others}" if fs is None else f"{fs.domain()}, {others}",
                warnings[k],
            )
        )
    return results, cross


def _links_place(
    links: Sequence[tuple[Sequence[Collision], Pose]], names: Sequence[str | None], element: str
) -> str:
    """Where several links solved together are, for messages: the first shape's file and line,
    and the links' names (bounded: :func:`gzinertia.wording.bounded`)."""
    from gzinertia.wording import bounded

    shapes = [c for cs, _ in links for c in cs]
    known = [repr(n) for n in names if n]
    if not known:
        return shapes_place(shapes, element)
    return f"{shapes[0].source}: links {bounded(known)}"
