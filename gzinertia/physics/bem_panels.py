"""The surface an ``addmass --bem`` solve was computed on, meshed again from what its provenance
comment records (the shapes, their element and the panel size: :mod:`gzinertia.physics.
provenance_comment`), for the HTML report to draw.

The remesh is the solve's own meshing step (:func:`gzinertia.physics.bem_meshes.mesh_link`, in
the limited meshing child, after the same checks of the shapes: :func:`gzinertia.physics.bem.
check_domain`) at the recorded panel size, so it gives the same closed surface, panel for
panel. Under a free surface the solve used the part of that closed surface below the waterline
(the comment records both counts); the closed surface is what is meshed here.
"""

from __future__ import annotations

from collections.abc import Sequence

from gzinertia.physics.bem import QUALITY_PANELS, check_domain, require_bem
from gzinertia.physics.bem_meshes import mesh_link
from gzinertia.physics.mesh_domain import shapes_place
from gzinertia.physics.mesh_sandbox import run_meshing
from gzinertia.physics.panel_surface import Surface
from gzinertia.records import Collision
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = ["bem_surface"]


def bem_surface(
    shapes: Sequence[Collision],
    panel_size: float,
    density: float,
    element: GeometryElement = "collision",
    link: str | None = None,
) -> Surface:
    """The closed surface (link frame B, metres, outward triangles) ``addmass --bem`` meshed
    ``shapes`` (posed in B by their ``X_BC``) into at ``panel_size`` (m): the surface solved on
    in unbounded fluid, the one the wetted part was cut from under a free surface.

    ``density`` (kg/m³) is the fluid's, for the checks the solve makes of the shapes; ``link``
    names the link in messages. Raises :class:`~gzinertia.errors.GzInertiaError` as the solve
    does (without the ``bem`` extra: the install hint; a shape that cannot be meshed: the file,
    the link and the shape)."""
    require_bem()
    check_domain(shapes, density, element, link, panel_size)
    _, meshes = run_meshing(
        mesh_link, (list(shapes), panel_size, QUALITY_PANELS["default"], None, element, link),
        shapes_place(shapes, element, link))
    return meshes.fine
