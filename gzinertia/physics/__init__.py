"""The numeric models above the records: ellipsoid fits and overlap, solids of collision shapes
and the geometry pipeline, hydrostatics and flotation, the BEM, MuJoCo's fluid forces and
damping. The spatial core they compute with (rotations, 6x6 algebra, inertia, added mass) is
:mod:`gzinertia.spatial`, below the records.

Every matrix is named with its point, axes and ordering (``docs/conventions.md``); nothing here
reads or writes files or knows SDF tag names beyond what :mod:`gzinertia.records` carries.

The face loads nothing: the submodules named in :data:`__all__` are imported at their first use
(``gzinertia.physics.mesh_body.mesh_body(...)``), so that a module on the audit's path reaches
the meshing pipeline (trimesh, SciPy) and the BEM's comments only when a link needs them. A
module that reaches one this way imports ``gzinertia.physics`` at its top and, for the type
checker, the submodule under ``if TYPE_CHECKING:`` (the face itself imports none of them: each
module's import edges stay its own, and no circle runs through the face). Every module of the
package imports at its top (``docs/architecture.md``, Imports).
"""

from __future__ import annotations

from gzinertia.lazy_face import lazy_submodules

__all__ = [
    "bem", "bem_provenance", "bem_solve", "collision_mesh", "damping_strip", "fits", "flotation",
    "fluid_forces",
    "hydrostatics", "link_union", "mesh_body", "mesh_fallback", "mesh_file_surface", "near_pairs",
    "shapes", "surface_mesh",
]

__getattr__ = lazy_submodules(__name__, __all__)
