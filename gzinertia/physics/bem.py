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
  to about unit size by a power of two (exact: :func:`~gzinertia.physics.panel_surface.unit_scale`),
  and the result is scaled back: ``ℓ³`` for the linear block, ``ℓ⁴`` the coupling, ``ℓ⁵`` the
  angular one (:func:`~gzinertia.physics.bem_solve.solve_surface`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

import gzinertia.physics
from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.bem_cache import cached_solve
from gzinertia.physics.bem_error import SHARP_EDGE_DEGREES, block_error_bound, estimated_error
from gzinertia.physics.bem_meshes import Meshes, mesh_link, mesh_links, require_solvable
from gzinertia.physics.free_surface import FreeSurface
from gzinertia.physics.manifold_solids import manifold3d
from gzinertia.physics.mesh_domain import (
    aspect_warning,
    require_refinable,
    require_writable,
    shapes_place,
)
from gzinertia.physics.mesh_sandbox import run_meshing
from gzinertia.physics.surface_mesh import checked_shapes
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose
from gzinertia.wording import bounded

if TYPE_CHECKING:
    import gzinertia.physics.bem_solve
    from gzinertia.physics.bem_solve import SolveProgress

FloatArray = NDArray[np.float64]

Quality = Literal["fast", "default", "fine"]
#: Target panel count of the finer solve per quality (the coarser has about half).
QUALITY_PANELS: Final[dict[Quality, int]] = {"fast": 900, "default": 2000, "fine": 5000}
#: Relative discretisation error above which a result is flagged.
WARN_ERROR: Final = 0.05
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
        manifold3d()
        return gzinertia.physics.bem_solve.capytaine_version()  # the solver, loaded here
    except ImportError:
        raise BemUnavailableError(install_hint()) from None


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


def solved_panels(panels: int, free_surface: FreeSurface | None) -> str:
    """``"N panels"`` for the progress line of a solve; ``"N wetted panels"`` under a free
    surface, where only the part below the waterline is solved on (as the provenance comment
    says)."""
    return f"{panels} panels" if free_surface is None else f"{panels} wetted panels"


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
    shapes = checked_shapes(collisions, element, link)
    sizes = [shape.size for shape in shapes]
    require_writable(collisions, sizes, density, shapes_place(collisions, element, link))
    if panel_size is not None:
        for shape in shapes:
            if shape.mesh is None:  # a mesh file's: once it is decimated, in the mesher
                require_refinable(shape.size, panel_size, shape.where)
    said = (aspect_warning(shape.size, shape.where) for shape in shapes)
    return tuple(w for w in said if w)


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
        (:data:`QUALITY_PANELS` panels solved on,
        :func:`~gzinertia.physics.bem_meshes.panel_size_for`).
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
    version = require_bem()
    warnings = check_domain(collisions, density, element, link, panel_size)
    h, meshes = run_meshing(
        mesh_link,
        (list(collisions), panel_size, QUALITY_PANELS[quality], free_surface, element, link),
        shapes_place(collisions, element, link),
    )
    fine, coarse = meshes.fine, meshes.coarse
    key = hashlib.sha256(
        f"{CACHE_VERSION}|{fine.digest()}|{coarse.digest()}|{density!r}|direct|"
        f"{free_surface.key() if free_surface else 'inf'}|{version}".encode()
    ).hexdigest()

    def solve() -> dict[str, Any]:
        return {
            name: gzinertia.physics.bem_solve.solve_surface(
                surface, density, free_surface, progress,
                f"{what}, {solved_panels(surface.panels, free_surface)}",
            ).ravel().tolist()
            for name, surface, what in (
                ("A_fine", fine, "BEM solve"),
                ("A_coarse", coarse, "BEM solve for the error estimate"),
            )
        }

    record, cached, seconds = cached_solve(key, use_cache, solve)
    A_fine, A_coarse = (np.asarray(record[n], dtype=float).reshape(6, 6)
                        for n in ("A_fine", "A_coarse"))
    return _bem_result(
        (A_fine, A_coarse), meshes, h, density, version, seconds, cached,
        "infinite" if free_surface is None else free_surface.frequency,
        "unbounded fluid" if free_surface is None else free_surface.domain(), warnings,
    )


def _bem_result(
    A_fine_coarse: tuple[NDArray[np.float64], NDArray[np.float64]],
    meshes: Meshes,
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
        mesh_links,
        ([list(c) for c, _ in links], surfaces, panel_size, QUALITY_PANELS[quality], element,
         link_names),
        places,
    )
    fine = [m.fine for m in meshes]
    coarse = [m.coarse for m in meshes]
    require_solvable(sum(s.panels for s in fine), places, h)
    key = _together_key(meshes, [X for _, X in links], waterline, density, version)

    def solve() -> dict[str, Any]:
        solved = [
            gzinertia.physics.bem_solve.solve_together(
                [(s, X) for s, (_, X) in zip(posed, links, strict=True)], density, surfaces[0],
                progress, f"{what}, {solved_panels(sum(s.panels for s in posed), surfaces[0])}",
            )
            for posed, what in (
                (fine, f"BEM solve of {len(links)} links together"),
                (coarse, "BEM solve for the error estimate"),
            )
        ]
        return {
            "fine": [b.ravel().tolist() for b in solved[0][0]],
            "coarse": [b.ravel().tolist() for b in solved[1][0]],
            "cross": solved[0][1],
        }

    record, cached, seconds = cached_solve(key, use_cache, solve)
    fine_blocks, coarse_blocks = (
        [np.asarray(b, dtype=float).reshape(6, 6) for b in record[n]] for n in ("fine", "coarse")
    )
    others = f"solved with {len(links) - 1} other link(s)"
    results = [
        _bem_result(
            (fine_blocks[k], coarse_blocks[k]), meshes[k], h, density, version, seconds, cached,
            "infinite" if fs is None else fs.frequency,
            f"unbounded fluid, {others}" if fs is None else f"{fs.domain()}, {others}",
            warnings[k],
        )
        for k, fs in enumerate(surfaces)
    ]
    return results, float(record["cross"])


def _together_key(
    meshes: Sequence[Meshes], poses: Sequence[Pose],
    waterline: tuple[float, str, float] | None, density: float, version: str,
) -> str:
    """The cache key of several links solved together: a sha256 of their fine and coarse panel
    meshes, their poses ``X_WB`` at full precision, the free surface (``inf``: unbounded
    fluid), the density and the Capytaine version."""
    fine = "|".join(m.fine.digest() for m in meshes)
    coarse = "|".join(m.coarse.digest() for m in meshes)
    posed = "|".join(",".join(f"{v:.17g}" for v in (*X.p, *X.R.ravel())) for X in poses)
    domain = "inf" if waterline is None else "|".join(repr(v) for v in waterline)
    return hashlib.sha256(
        f"{CACHE_VERSION}|together|{fine}|{coarse}|{posed}|{domain}|{density!r}|{version}".encode()
    ).hexdigest()


def _links_place(
    links: Sequence[tuple[Sequence[Collision], Pose]], names: Sequence[str | None], element: str
) -> str:
    """Where several links solved together are, for messages: the first shape's file and line,
    and the links' names (bounded: :func:`gzinertia.wording.bounded`)."""
    shapes = [c for cs, _ in links for c in cs]
    known = [repr(n) for n in names if n]
    if not known:
        return shapes_place(shapes, element)
    return f"{shapes[0].source}: links {bounded(known)}"
