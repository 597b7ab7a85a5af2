"""The names standard input goes by (``-`` on the command line, ``<stdin>`` in messages) and
what the reader says of URDF read from it; reading it is :mod:`gzinertia.sdf.stdin`.

Floor: reading; imports nothing of gzinertia, so that the SDFormat reader and
:mod:`gzinertia.sdf.stdin` (which calls the reader) both use these without importing each other.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STDIN_ARG", "STDIN_NAME", "STDIN_PATH", "URDF_ON_STDIN", "is_stdin_arg"]

STDIN_ARG = "-"
STDIN_NAME = "<stdin>"
#: :data:`STDIN_NAME` as the path an edit reports (relative: includes resolve against the
#: working directory; a diff names ``a/<stdin>`` and ``b/<stdin>``).
STDIN_PATH = Path(STDIN_NAME)
#: What the reader says of a ``<robot>`` root read from standard input.
URDF_ON_STDIN = (
    "standard input holds URDF (root element <robot>): pass the file name (URDF and xacro are "
    "read by their .urdf/.xacro suffix), or convert it first (gz sdf -p)"
)


def is_stdin_arg(path: str | Path | None) -> bool:
    """Whether the command-line FILE ``path`` is ``-`` (standard input)."""
    return path is not None and str(path) == STDIN_ARG
