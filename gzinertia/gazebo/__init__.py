"""What Gazebo builds from a model: the tensor gz-physics hands DART
(:mod:`~gzinertia.gazebo.dart`) and the Hydrodynamics system's Coriolis term
(:mod:`~gzinertia.gazebo.hydro_coriolis`), reproduced to compare with the true quantities.

The face loads nothing: the submodules named in :data:`SUBMODULES` are imported at their first
use (``gzinertia.gazebo.world_engine.document_target(...)``), for the audit's runner, which a
cached run loads without lxml.
"""

from gzinertia.lazy_face import lazy_submodules

__all__: list[str] = []

#: Submodules imported on first use, for modules outside the package.
SUBMODULES = ("world_engine",)

__getattr__ = lazy_submodules(__name__, SUBMODULES)
