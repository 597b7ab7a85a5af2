"""Reading SDFormat files into link records (see :mod:`gzinertia.sdf.reader`)."""

from gzinertia.sdf.reader import read_sdf_bytes, read_sdf_file, read_sdf_string

__all__ = ["read_sdf_bytes", "read_sdf_file", "read_sdf_string"]
