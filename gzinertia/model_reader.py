"""One entry point for every model file a command reads: SDFormat, URDF or xacro, by suffix.

``*.urdf``, ``*.xacro`` and ``*.urdf.xacro`` go to :func:`gzinertia.urdf.read_urdf_file`
(converted as libsdformat converts them for Gazebo); everything else to
:func:`gzinertia.sdf.read_sdf_file`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia import sdf, urdf
from gzinertia.vocabulary.model_suffixes import (
    URDF_SUFFIX,
    URDF_SUFFIXES,
    XACRO_SUFFIX,
    XACRO_SUFFIXES,
    is_urdf_path,
    is_xacro_path,
)

if TYPE_CHECKING:
    from gzinertia.io.limits import ReadLimits
    from gzinertia.records import SdfDocument
    from gzinertia.urdf.xacro_policy import XacroPolicy

#: The suffixes and their predicates live in :mod:`gzinertia.vocabulary.model_suffixes` (below
#: both readers); they are named here too, where they were documented.
__all__ = [
    "URDF_SUFFIX", "URDF_SUFFIXES", "XACRO_SUFFIX", "XACRO_SUFFIXES", "is_urdf_path",
    "is_xacro_path", "read_model_file",
]


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
        # each format's reader is loaded through its package face only when a file of that
        # format is read (an SDF audit never loads the URDF converter:
        # tests/test_audit_lazy_imports.py)
        return urdf.read_urdf_file(path, model_paths, xacro_args=xacro_args, limits=limits,
                              xacro_policy=xacro_policy)
    return sdf.read_sdf_file(path, model_paths, limits)
