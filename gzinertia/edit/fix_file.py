"""``gzinertia fix`` on one file, in its format (:func:`gzinertia.edit.backends.model_format`):
SDFormat files (and standard input) are repaired by :func:`gzinertia.edit.fix.fix`, URDF and
xacro files in place of their own values by :func:`gzinertia.edit.urdf_fix.fix_urdf`. The
library's :func:`gzinertia.fix` (and through it the ``fix`` command) calls :func:`fix_file`;
``audit --fix`` calls the same backend entry point (``fix_edit``) with the audit's xacro read
roots and the folder a file was found in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.edit.backends import model_format
from gzinertia.edit.fix_options import FixTarget

if TYPE_CHECKING:
    from gzinertia.edit.fix import FixResult
    from gzinertia.edit.fix_options import FixOptions
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = ["fix_file"]


def fix_file(
    path: Path,
    options: FixOptions,
    model_paths: Sequence[str | Path] = (),
    *,
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
    xacro_policy: XacroPolicy | None = None,
    data: bytes | None = None,
    tree: str | None = None,
) -> FixResult:
    """Repairs the selected links of ``path`` as ``options`` say (in memory: the
    :class:`~gzinertia.edit.edit_result.Edit` of the repair). A URDF or xacro file searches
    ``package_paths`` then ``model_paths`` for its packages, expanded with ``xacro_args`` under
    ``xacro_policy``; ``tree`` is the folder it was found in by walking (``audit --fix``), which
    a xacro's temporary copy stays in. An SDFormat file, or ``data`` (the bytes of standard
    input, named ``path``), searches ``model_paths`` for ``model://`` URIs; the xacro settings
    do not apply to it."""
    target = FixTarget(path, model_paths, package_paths, xacro_args, xacro_policy, data, tree)
    return model_format(path, data).fix_edit(target, options)
