"""``-`` on the command line: SDFormat text read from standard input (``show -``,
``audit -``).

The text is reported under the name :data:`STDIN_NAME` (``<stdin>``) in every message and
output format; relative ``<include>`` URIs resolve against the working directory (as if the
text were a file there); it is read once, at most
:data:`~gzinertia.sdf.xml.MAX_FILE_BYTES` bytes (more is an error, as for a file), and never
cached between runs.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gzinertia.records import SdfDocument

__all__ = [
    "STDIN_ARG",
    "STDIN_NAME",
    "read_stdin_document",
    "stdin_bytes",
]

STDIN_ARG = "-"
STDIN_NAME = "<stdin>"


def stdin_bytes() -> bytes:
    """Standard input's bytes (at most one byte over the file size limit, so that the reader
    reports an oversized input without reading all of it)."""
    from gzinertia.errors import SdfError
    from gzinertia.sdf.xml import MAX_FILE_BYTES

    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise SdfError(STDIN_NAME, None, "standard input is not available")
    try:
        return bytes(stream.read(MAX_FILE_BYTES + 1))
    except OSError as exc:
        raise SdfError(STDIN_NAME, None, f"cannot read: {exc.strerror or exc}") from None


def read_stdin_document(model_paths: Sequence[str | Path] = ()) -> SdfDocument:
    """The SDFormat document on standard input, named :data:`STDIN_NAME`."""
    from gzinertia.sdf import read_sdf_bytes

    return read_sdf_bytes(stdin_bytes(), STDIN_NAME, model_paths)
