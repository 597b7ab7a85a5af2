"""The BEM surface of each link in the HTML report: for a link whose applied added mass an
``addmass --bem`` solve wrote (its provenance comment, :mod:`gzinertia.physics.
provenance_comment`), the closed surface the solve meshed, meshed again from what the comment
records (:func:`gzinertia.physics.bem_panels.bem_surface`: the solve's own meshing at its panel
size), posed in the world frame W and drawn panel by panel in its own layer.

Never silent: a link whose added mass came from ``addmass --bem`` and whose panels cannot be
drawn gets a sentence saying why (a comment written before the panel size was recorded, a
geometry changed since the solve, the ``bem`` extra not installed, a shape that cannot be
meshed), and so does a remesh whose panel count is not the solve's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gzinertia.checks.added_mass import link_added_mass
from gzinertia.edit.bem_shapes import shapes_of
from gzinertia.errors import GzInertiaError
from gzinertia.physics.bem_panels import bem_surface
from gzinertia.physics.provenance_comment import BemProvenance, read_bem_comment
from gzinertia.physics.surface_mesh import geometry_digest
from gzinertia.records import LinkRecord
from gzinertia.report.scene_meshes import encoded

__all__ = ["bem_panels"]

#: What a link whose panels are not drawn says first.
NOT_DRAWN = "BEM surface not drawn: "


def _solved(link: LinkRecord) -> BemProvenance | None:
    """The provenance of the link's applied added mass when ``addmass --bem`` solved it."""
    if link_added_mass(link) is None:
        return None
    provenance = read_bem_comment(link.inertial.added_mass_comment)
    return provenance if provenance is not None and provenance.origin == "bem" else None


def _counted(provenance: BemProvenance, panels: int) -> str | None:
    """Why the remeshed surface is not the one solved on, when its panels say so."""
    solved = provenance.closed_panels or provenance.panels
    if solved is None or solved == panels:
        return None
    return (f"BEM surface drawn with {panels} panels, where the solve meshed {solved} "
            "(meshed again by this gzinertia, which meshes differently)")


def bem_panels(link: LinkRecord, density: float) -> tuple[dict[str, Any] | None, str | None]:
    """The link's BEM surface as the page draws it (``positions``, ``indices`` as
    :class:`~gzinertia.report.scene_meshes.ShapeMesh`'s, in W; ``panels``, ``area`` m²,
    ``panel_size`` m, ``solved_panels`` and ``closed_panels`` as the comment records them), and
    a sentence when something about it must be said; ``(None, None)`` for a link whose added
    mass no ``addmass --bem`` solve wrote. ``density`` (kg/m³): the fluid the page's
    hydrostatics use, for the checks the solve makes of the shapes."""
    provenance = _solved(link)
    if provenance is None:
        return None, None
    h = provenance.panel_size
    if h is None:
        return None, (NOT_DRAWN + "its provenance comment does not record the panel size "
                      "(written before it was): run addmass --bem again to draw it")
    try:
        shapes = shapes_of(link, provenance.collisions, provenance.element)
        if geometry_digest(shapes) != provenance.digest:
            return None, (NOT_DRAWN + f"the {provenance.element}s changed since the solve "
                          "(GZI212): the surface solved on is no longer the link's")
        surface = bem_surface(shapes, h, density, provenance.element, link.name)
    except GzInertiaError as exc:
        return None, NOT_DRAWN + str(exc)
    X_WB = link.X_WB
    p_W = np.asarray(surface.vertices, dtype=float) @ X_WB.R.T + X_WB.p
    return {"positions": encoded(p_W, "<f4"), "indices": encoded(surface.faces, "<u4"),
            "panels": surface.panels, "area": surface.area(), "panel_size": h,
            "solved_panels": provenance.panels, "closed_panels": provenance.closed_panels,
            }, _counted(provenance, surface.panels)
