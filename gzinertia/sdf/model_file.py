"""One entry point for every model file a command reads: SDFormat, URDF or xacro, by suffix.

``*.urdf``, ``*.xacro`` and ``*.urdf.xacro`` go to :func:`gzinertia.urdf.read_urdf_file`
(converted as libsdformat converts them for Gazebo); everything else to
:func:`gzinertia.sdf.read_sdf_file`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gzinertia.limits import ReadLimits
    from gzinertia.records import SdfDocument
    from gzinertia.urdf.xacro_policy import XacroPolicy

#: The one home of the URDF and xacro suffixes: every "is this URDF/xacro" asks
#: :func:`is_urdf_path` / :func:`is_xacro_path` or builds on these.
URDF_SUFFIX = ".urdf"
XACRO_SUFFIX = ".xacro"
XACRO_SUFFIXES = (XACRO_SUFFIX,)
URDF_SUFFIXES = (URDF_SUFFIX, *XACRO_SUFFIXES)


def is_urdf_path(path: str | Path) -> bool:
    """Whether ``path`` is read as URDF (``.urdf``, ``.xacro``, ``.urdf.xacro``)."""
    return str(path).lower().endswith(URDF_SUFFIXES)


def is_xacro_path(path: str | Path) -> bool:
    """Whether ``path`` is expanded as xacro before it is read (``.xacro``, ``.urdf.xacro``)."""
    return str(path).lower().endswith(XACRO_SUFFIXES)


def read_model_file(
    path: str | Path,
    model_paths: Sequence[str | Path] = (),
    limits: ReadLimits | None = None,
    *,
    xacro_args: Mapping[str, str] | None = None,
    xacro_policy: XacroPolicy | None = None,
) -> SdfDocument:
    """Reads an SDFormat, URDF or xacro file into link records. For URDF/xacro, ``model_paths``
    are the package paths (``$(find)``, ``package://``); ``xacro_policy`` says what a xacro
    expansion may do (default: evaluate without Python, read no environment variable)."""
    if is_urdf_path(path):
        from gzinertia.urdf import read_urdf_file

        return read_urdf_file(path, model_paths, xacro_args=xacro_args, limits=limits,
                              xacro_policy=xacro_policy)
    from gzinertia.sdf import read_sdf_file

    return read_sdf_file(path, model_paths, limits)
