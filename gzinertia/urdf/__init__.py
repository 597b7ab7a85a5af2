"""Reading URDF and xacro files into link records, as Gazebo (libsdformat) converts them.

See :mod:`gzinertia.urdf.reader` (entry point :func:`read_urdf_file`),
:mod:`gzinertia.urdf.model` (urdfdom's reading), :mod:`gzinertia.urdf.lumping` (libsdformat's
fixed-joint lumping and massless links) and :mod:`gzinertia.urdf.xacro_expand`.
NumPy and xacro are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.lazy_face import face_getattr

if TYPE_CHECKING:
    from gzinertia.urdf.reader import is_urdf, read_urdf_bytes, read_urdf_file

__all__ = ["is_urdf", "read_urdf_bytes", "read_urdf_file"]

__getattr__ = face_getattr(__name__, "gzinertia.urdf.reader", __all__)
