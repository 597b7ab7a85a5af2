"""Reading SDFormat files into link records (see :mod:`gzinertia.sdf.reader`; any model file by
suffix: :func:`gzinertia.model_reader.read_model_file`).

The reader (and NumPy with it) is imported on first use, so that light submodules such as
:mod:`gzinertia.sdf.includes` can be imported on their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.lazy_face import face_getattr

if TYPE_CHECKING:
    from gzinertia.sdf.reader import read_sdf_bytes, read_sdf_file, read_sdf_string

__all__ = ["read_sdf_bytes", "read_sdf_file", "read_sdf_string"]

__getattr__ = face_getattr(__name__, "gzinertia.sdf.reader", __all__)
