"""The suffixes that say a model file is URDF or xacro, and their predicates: every "is this
URDF/xacro" asks :func:`is_urdf_path` / :func:`is_xacro_path` or builds on these.

Floor: words (NumPy-free; imports nothing of gzinertia), so that the SDFormat and URDF readers
and the edits all ask here without importing each other.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "URDF_SUFFIX", "URDF_SUFFIXES", "XACRO_SUFFIX", "XACRO_SUFFIXES", "is_urdf_path",
    "is_xacro_path",
]

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
