"""Some variables of a NetCDF classic file (CDF-1, CDF-2), sized before they are read.

A NetCDF classic header lists each variable with its dimensions, type and the offset of its
data (``begin``). Nothing stops many variables from naming the same bytes, or a dimension from
declaring far more values than the file holds: a 1.1 MB file whose 800 variables all point at
one 1.1 MB block took 1.7 GB when every variable was copied (scipy's reader copies each one when
the file is opened, before anything can be asked of it).

:func:`subset` reads the header (every count and offset checked against the file's length, at
most :data:`MAX_HEADER_ENTRIES` dimensions, attributes and variables), sizes the variables it
is asked for from their dimensions (not from the header's ``vsize``), refuses them past a
budget **before a byte of them is copied**, and returns a small NetCDF classic file holding
only them, their data copied once each, for any NetCDF reader (xarray) to decode. The other
variables are never read.

The layout is the one of the NetCDF classic format specification
(https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html): big-endian
integers; names as a count and bytes padded to 4; ``begin`` 4 bytes in CDF-1, 8 in CDF-2.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable
from dataclasses import dataclass

from gzinertia.record_base import ValueRecord

__all__ = ["MAX_HEADER_ENTRIES", "NetcdfError", "is_classic", "subset"]

#: Dimensions, attributes (per list) and variables read from one header.
MAX_HEADER_ENTRIES = 10_000
#: Bytes of one value of each classic type (byte, char, short, int, float, double).
_TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 4, 6: 8}
_DIMENSION, _VARIABLE, _ATTRIBUTE = 0x0A, 0x0B, 0x0C


class NetcdfError(ValueError):
    """A NetCDF file (or a variable of it) that is not read: the text says why."""


def is_classic(data: bytes) -> bool:
    """Whether ``data`` starts as a NetCDF classic file (``CDF`` and a version byte)."""
    return data[:3] == b"CDF"


@dataclass(frozen=True, repr=False, eq=False)
class _Variable(ValueRecord):
    name: str
    shape: tuple[int, ...]
    record: bool
    nc_type: int
    #: the header's bytes of this variable up to its ``begin`` field
    entry: bytes
    begin: int

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * _TYPE_SIZES[self.nc_type]


class _Header:
    """A classic header read from ``data`` (the spans the subset copies, and the variables)."""

    def __init__(self, data: bytes) -> None:
        if len(data) < 8 or not is_classic(data):
            raise NetcdfError("not a NetCDF classic file")
        version = data[3]
        if version not in (1, 2):
            kind = "CDF-5 (64-bit data)" if version == 5 else f"version {version}"
            raise NetcdfError(f"a NetCDF classic file of {kind}, which is not read (write the "
                              "dataset as NETCDF3_64BIT or NETCDF4)")
        self.data, self.pos = data, 8
        self.offset_format = ">i" if version == 1 else ">q"
        self.dims: list[tuple[int, bool]] = []  # (length, is the record dimension)
        for _ in range(self._list(_DIMENSION, "dimensions")):
            self._name()
            length = self._int()
            self.dims.append((length, length == 0))
        self.dims_and_attributes_end = self._skip_attributes()
        self.variables: dict[str, _Variable] = {}
        for _ in range(self._list(_VARIABLE, "variables")):
            self._variable()

    def _take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise NetcdfError("the header ends before what it declares")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def _int(self, fmt: str = ">i") -> int:
        (value,) = struct.unpack(fmt, self._take(struct.calcsize(fmt)))
        return int(value)

    def _list(self, tag: int, what: str) -> int:
        found, count = self._int(), self._int()
        if (found, count) == (0, 0):
            return 0  # ABSENT
        if found != tag or count < 0:
            raise NetcdfError(f"the header's list of {what} is malformed")
        if count > MAX_HEADER_ENTRIES:
            raise NetcdfError(f"the header declares {count} {what}, more than the "
                              f"{MAX_HEADER_ENTRIES} read")
        return count

    def _name(self) -> str:
        n = self._int()
        raw = self._take(n + (-n % 4))[:n]
        return raw.decode("utf-8", errors="replace")

    def _skip_attributes(self) -> int:
        """Skips an attribute list; returns where it ends."""
        for _ in range(self._list(_ATTRIBUTE, "attributes")):
            self._name()
            nc_type, count = self._int(), self._int()
            if nc_type not in _TYPE_SIZES or count < 0:
                raise NetcdfError("an attribute of the header is malformed")
            size = count * _TYPE_SIZES[nc_type]
            self._take(size + (-size % 4))
        return self.pos

    def _variable(self) -> None:
        start = self.pos
        name = self._name()
        ndims = self._int()
        if not 0 <= ndims <= len(self.dims):
            raise NetcdfError(f"variable {name!r} has {ndims} dimensions")
        ids = [self._int() for _ in range(ndims)]
        if any(not 0 <= i < len(self.dims) for i in ids):
            raise NetcdfError(f"variable {name!r} names a dimension the header does not declare")
        self._skip_attributes()
        nc_type = self._int()
        if nc_type not in _TYPE_SIZES:
            raise NetcdfError(f"variable {name!r} has type {nc_type}, not a classic type")
        self._int()  # vsize: not trusted (the dimensions say the size)
        entry = self.data[start:self.pos]
        begin = self._int(self.offset_format)
        record = any(self.dims[i][1] for i in ids)
        shape = tuple(self.dims[i][0] for i in ids)
        self.variables.setdefault(name, _Variable(name, shape, record, nc_type, entry, begin))


def subset(data: bytes, names: Iterable[str], budget: int) -> bytes:
    """A NetCDF classic file holding only the variables ``names`` of ``data`` (those it has),
    each copied once; :class:`NetcdfError` when the file is malformed, when one of them runs
    along the unlimited (record) dimension, lies beyond the end of the file, or when together
    they take more than ``budget`` bytes (checked before anything is copied)."""
    header = _Header(data)
    chosen = [header.variables[n] for n in dict.fromkeys(names) if n in header.variables]
    for variable in chosen:
        if variable.record:
            raise NetcdfError(f"variable {variable.name!r} runs along the unlimited (record) "
                              "dimension, which is not read")
    total = sum(v.nbytes for v in chosen)
    if total > budget:
        sizes = ", ".join(f"{v.name} {v.nbytes}" for v in chosen)
        raise NetcdfError(f"the variables the import reads declare {total} bytes ({sizes}), "
                          f"more than the {budget} read")
    for variable in chosen:
        if not 0 <= variable.begin <= len(data) - variable.nbytes:
            raise NetcdfError(f"variable {variable.name!r} declares {variable.nbytes} bytes at "
                              f"offset {variable.begin}, beyond the end of the file "
                              f"({len(data)} bytes)")
    head = data[:4] + struct.pack(">i", 0) + data[8:header.dims_and_attributes_end]
    head += struct.pack(">ii", _VARIABLE, len(chosen)) if chosen else struct.pack(">ii", 0, 0)
    offset_size = struct.calcsize(header.offset_format)
    begin = len(head) + sum(len(v.entry) + offset_size for v in chosen)
    entries, blocks = [], []
    for variable in chosen:
        entries.append(variable.entry + struct.pack(header.offset_format, begin))
        block = data[variable.begin:variable.begin + variable.nbytes]
        block += b"\0" * (-len(block) % 4)
        blocks.append(block)
        begin += len(block)
    return head + b"".join(entries) + b"".join(blocks)
