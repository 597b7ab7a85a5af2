"""Reading SDFormat files into link records (see :mod:`gzinertia.sdf.reader`).

The reader (and NumPy with it) is imported on first use, so that light submodules such as
:mod:`gzinertia.sdf.includes` can be imported on their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gzinertia.sdf.model_file import read_model_file
    from gzinertia.sdf.reader import read_sdf_bytes, read_sdf_file, read_sdf_string

__all__ = ["read_model_file", "read_sdf_bytes", "read_sdf_file", "read_sdf_string"]


def __getattr__(name: str) -> Any:
    if name == "read_model_file":
        from gzinertia.sdf import model_file

        return model_file.read_model_file
    if name in __all__:
        from gzinertia.sdf import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
