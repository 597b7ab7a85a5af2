"""Reading SDFormat files into link records (see :mod:`gzinertia.sdf.reader`; any model file by
suffix: :func:`gzinertia.model_reader.read_model_file`).

The reader (and NumPy with it) is imported on first use, so that light submodules such as
:mod:`gzinertia.sdf.includes` can be imported on their own.

The face also imports, on first use, the submodules named in :data:`SUBMODULES`
(``gzinertia.sdf.stdin.read_stdin_model(...)``) for modules outside the package: the command
line reaches them this way, so that ``--help`` loads no XML parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.lazy_face import names_and_submodules

if TYPE_CHECKING:
    from gzinertia.sdf.reader import read_sdf_bytes, read_sdf_file, read_sdf_string

__all__ = ["read_sdf_bytes", "read_sdf_file", "read_sdf_string"]

#: Submodules imported on first use, for modules outside the package.
SUBMODULES = ("buoyancy", "libsdformat", "stdin", "xml")

__getattr__ = names_and_submodules(__name__, "gzinertia.sdf.reader", __all__, SUBMODULES)
