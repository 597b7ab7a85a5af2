"""The surfaces a BEM solve is run on: the panel size (given, or the one giving a target panel
count), the refusals of a surface too large for the dense solver, and each link's fine and
coarse surfaces (closed, or wetted below a free surface) with the length scale and sharp edges
of its error estimate (:mod:`gzinertia.physics.bem_error`). Surfaces are in the link frame B.
The meshing functions run in the meshing child (:func:`gzinertia.physics.mesh_sandbox.run_meshing`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.physics.bem_error import edge_share, sharpest_edge
from gzinertia.physics.free_surface import FreeSurface
from gzinertia.physics.mesh_domain import MAX_PANELS, shapes_place
from gzinertia.physics.panel_surface import Surface
from gzinertia.physics.surface_mesh import link_surface, surface_area
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision

#: Ratio of the coarse panel size to the fine one (about half the panels).
COARSE_RATIO: Final = math.sqrt(2.0)


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


@dataclass(frozen=True, repr=False, eq=False)
class Meshes(ValueRecord):
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


def _meshes(
    collisions: Sequence[Collision],
    h: float,
    free_surface: FreeSurface | None,
    element: str,
    link: str | None = None,
) -> Meshes:
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
    return Meshes(fine, coarse, closed, length, turn, edge_share(fine.vertices, fine.faces))


def _panel_size(
    collisions: Sequence[Collision],
    panel_size: float | None,
    target: int,
    free_surface: FreeSurface | None,
    element: str,
    link: str | None = None,
) -> float:
    """The given panel size, or the one giving about ``target`` panels on what is solved
    (the wetted part under a free surface)."""
    if panel_size is not None:
        return panel_size
    mesher = (
        None
        if free_surface is None
        else lambda size: free_surface.wetted(collisions, size, element, link).surface
    )
    return panel_size_for(collisions, target, element, mesher, link)


def mesh_link(
    collisions: Sequence[Collision],
    panel_size: float | None,
    target: int,
    free_surface: FreeSurface | None,
    element: str,
    link: str | None,
) -> tuple[float, Meshes]:
    """The meshing step of one link (in the meshing child:
    :func:`~gzinertia.physics.bem.bem_added_mass`): the panel size (given, or the one giving
    about ``target`` panels) and the fine and coarse surfaces."""
    h = _panel_size(collisions, panel_size, target, free_surface, element, link)
    require_panel_count(collisions, h, element, link)
    return h, _meshes(collisions, h, free_surface, element, link)


def mesh_links(
    links: Sequence[Sequence[Collision]],
    free_surfaces: Sequence[FreeSurface | None],
    panel_size: float | None,
    target: int,
    element: str,
    names: Sequence[str | None],
) -> tuple[float, list[Meshes]]:
    """The meshing step of several links solved together (in the meshing child:
    :func:`~gzinertia.physics.bem.bem_added_mass_together`): one panel size (given, or giving
    about ``target`` panels on the link
    with the most surface) and each link's surfaces."""
    if panel_size is None:
        k = max(range(len(links)), key=lambda i: surface_area(links[i], element, names[i]))
        panel_size = _panel_size(links[k], None, target, free_surfaces[k], element, names[k])
    for collisions, name in zip(links, names, strict=True):
        require_panel_count(collisions, panel_size, element, name)
    return panel_size, [
        _meshes(c, panel_size, fs, element, name)
        for c, fs, name in zip(links, free_surfaces, names, strict=True)
    ]

