"""The numeric models above the records: ellipsoid fits and overlap, solids of collision shapes
and the geometry pipeline, hydrostatics and flotation, the BEM, MuJoCo's fluid forces and
damping. The spatial core they compute with (rotations, 6x6 algebra, inertia, added mass) is
:mod:`gzinertia.spatial`, below the records.

Every matrix is named with its point, axes and ordering (``docs/conventions.md``); nothing here
reads or writes files or knows SDF tag names beyond what :mod:`gzinertia.records` carries.
"""

__all__: list[str] = []
