"""Reading URDF and xacro files into link records, as Gazebo (libsdformat) converts them.

See :mod:`gzinertia.urdf.reader` (entry point :func:`read_urdf_file`),
:mod:`gzinertia.urdf.model` (urdfdom's reading), :mod:`gzinertia.urdf.lumping` (libsdformat's
fixed-joint lumping and massless links) and :mod:`gzinertia.urdf.xacro_expand`.
NumPy and xacro are imported on first use.

The face also imports, on first use, the submodules named in :data:`SUBMODULES`
(``gzinertia.urdf.xacro_expand.expand_xacro_sourced(...)``) for modules outside the package:
the command line reaches them this way, so that its start-up and an SDF file's commands load
nothing of the URDF package but this face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.lazy_face import names_and_submodules

if TYPE_CHECKING:
    from gzinertia.urdf.reader import is_urdf, read_urdf_bytes, read_urdf_file

__all__ = ["is_urdf", "read_urdf_bytes", "read_urdf_file"]

#: Submodules imported on first use, for modules outside the package.
SUBMODULES = (
    "fragments", "reader", "ros_packages", "sdf_text", "xacro_expand", "xacro_policy",
    "xacro_sandbox",
)

__getattr__ = names_and_submodules(__name__, "gzinertia.urdf.reader", __all__, SUBMODULES)
