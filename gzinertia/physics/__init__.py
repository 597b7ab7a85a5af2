"""The numeric core: rotations, 6x6 spatial algebra, rigid inertia, fluid added mass (Tuckerman
ellipsoids, fits, overlap), solids of collision shapes, MuJoCo's fluid forces and damping.

Every matrix is named with its point, axes and ordering (``docs/conventions.md``); nothing here
reads or writes files or knows SDF tag names beyond what :mod:`gzinertia.records` carries.
"""

__all__: list[str] = []
