"""``-`` on the command line: the model file read from standard input, by every command that
takes a model FILE (``show``, ``audit``, ``plot``, ``hydrostatics``, and the editing commands
``addmass``, ``shift``, ``convert``, ``hydro`` and ``fix``, which then write the edited file
to standard output).

The text is reported under the name :data:`STDIN_NAME` (``<stdin>``) in every message and
output format; relative ``<include>`` and mesh URIs resolve against the working directory (as if
the text were a file there); it is read once, at most
:data:`~gzinertia.sdf.xml.MAX_FILE_BYTES` bytes (more is an error, as for a file, and nothing
past the limit is read: an endless stream is not drained), and never cached between runs.
It is SDFormat: there is no suffix to tell URDF by, and a ``<robot>`` root is refused with a
message that says to pass the file name. A terminal is refused (it would wait for typing).

This module reads (the SDFormat reader, lxml and NumPy load with it); the names alone
(``-``, ``<stdin>``) are :mod:`gzinertia.sdf.stdin_names`, which modules on the command line's
start-up import instead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.errors import SdfError
from gzinertia.io.safe_read import size_text
from gzinertia.sdf.reader import read_sdf_bytes
from gzinertia.sdf.stdin_names import (
    STDIN_ARG,
    STDIN_NAME,
    STDIN_PATH,
    URDF_ON_STDIN,
    is_stdin_arg,
)
from gzinertia.sdf.xml import MAX_FILE_BYTES, parse_xml_bytes

if TYPE_CHECKING:
    from lxml import etree

    from gzinertia.records import SdfDocument

__all__ = [
    "STDIN_ARG",
    "STDIN_NAME",
    "STDIN_PATH",
    "URDF_ON_STDIN",
    "is_stdin_arg",
    "read_stdin_document",
    "read_stdin_model",
    "stdin_bytes",
]

def stdin_bytes() -> bytes:
    """Standard input's bytes, at most :data:`~gzinertia.sdf.xml.MAX_FILE_BYTES`: one byte
    more is read to tell an oversized input, which is an :class:`~gzinertia.errors.SdfError`
    (an endless stream is never drained); a terminal is refused before anything is read."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise SdfError(STDIN_NAME, None, "standard input is not available")
    try:
        if stream.isatty():
            raise SdfError(
                STDIN_NAME, None,
                "standard input is a terminal: pipe the model in (gzinertia COMMAND - < model.sdf)",
            )
        data = bytes(stream.read(MAX_FILE_BYTES + 1))
    except OSError as exc:
        raise SdfError(STDIN_NAME, None, f"cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a closed stream
        raise SdfError(STDIN_NAME, None, f"cannot read: {exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise SdfError(
            STDIN_NAME, None,
            f"standard input is larger than {size_text(MAX_FILE_BYTES)} (the file size limit): "
            "not read past that",
        )
    return data


def read_stdin_document(model_paths: Sequence[str | Path] = ()) -> SdfDocument:
    """The SDFormat document on standard input, named :data:`STDIN_NAME`."""
    return read_sdf_bytes(stdin_bytes(), STDIN_NAME, model_paths)


def read_stdin_model(
    model_paths: Sequence[str | Path] = (),
) -> tuple[SdfDocument, etree._Element]:
    """The SDFormat document on standard input and its parsed tree (for what the records do
    not hold: a world's Buoyancy plugin, gravity, model poses), both named
    :data:`STDIN_NAME`."""
    data = stdin_bytes()
    doc = read_sdf_bytes(data, STDIN_NAME, model_paths)
    return doc, parse_xml_bytes(data, STDIN_NAME)
