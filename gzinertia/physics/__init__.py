"""The numeric models above the records: ellipsoid fits and overlap, solids of collision shapes
and the geometry pipeline, hydrostatics and flotation, the BEM, MuJoCo's fluid forces and
damping. The spatial core they compute with (rotations, 6x6 algebra, inertia, added mass) is
:mod:`gzinertia.spatial`, below the records.

Every matrix is named with its point, axes and ordering (``docs/conventions.md``); nothing here
reads or writes files or knows SDF tag names beyond what :mod:`gzinertia.records` carries.

The face loads nothing: the names below are read from their modules when first asked for
(``gzinertia.physics.geometry_digest``, ...), so that a module on the audit's path reaches the
meshing pipeline (trimesh, SciPy) and the BEM's comments only when a link needs them; every
module of the package imports at its top (``docs/architecture.md``, Imports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.lazy_face import homes_getattr

if TYPE_CHECKING:
    from gzinertia.physics.bem_provenance import parse_provenance
    from gzinertia.physics.surface_mesh import geometry_digest

__all__ = ["geometry_digest", "parse_provenance"]

__getattr__ = homes_getattr(__name__, {
    "geometry_digest": "gzinertia.physics.surface_mesh",
    "parse_provenance": "gzinertia.physics.bem_provenance",
})
