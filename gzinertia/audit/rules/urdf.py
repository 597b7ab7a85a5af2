"""Rules about what libsdformat's URDF→SDF conversion does to a URDF's links (GZI401–GZI403),
what a xacro expansion could not read (GZI404) and which of two ROS packages of one name it
took (GZI405).

They read the notes :mod:`gzinertia.urdf.lumping` and :mod:`gzinertia.urdf.reader` write while
converting and expanding (SDF files have none).
"""

from __future__ import annotations

from collections.abc import Iterator

from gzinertia.audit.emit import document_rule, finding
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext


@document_rule("GZI401")
def lumped_inertia_invalid(doc: DocumentContext) -> Iterator[Finding]:
    """GZI401 urdf-lumped-inertia-invalid: a link lumped by a fixed joint has invalid inertia."""
    for note in doc.notes("urdf-lumped-inertia-invalid"):
        yield finding("GZI401", note.source, note.link, note.message, {})


@document_rule("GZI402")
def massless_link_dropped(doc: DocumentContext) -> Iterator[Finding]:
    """GZI402 urdf-massless-link-dropped: a massless URDF link libsdformat drops."""
    for note in doc.notes("urdf-massless-link-dropped"):
        yield finding("GZI402", note.source, note.link, note.message, {})


@document_rule("GZI403")
def lumping_miscomputed(doc: DocumentContext) -> Iterator[Finding]:
    """GZI403 urdf-lumping-miscomputed: libsdformat's lumping computes this inertia wrongly."""
    for code in ("urdf-lumping-gimbal", "urdf-lumping-nan"):
        for note in doc.notes(code):
            yield finding("GZI403", note.source, note.link, note.message, {})


@document_rule("GZI405")
def duplicate_package(doc: DocumentContext) -> Iterator[Finding]:
    """GZI405 ros-package-duplicate: a package used by the file has more than one copy."""
    for note in doc.notes("duplicate-package"):
        yield finding("GZI405", note.source, None, note.message, dict(note.data))


@document_rule("GZI404")
def optenv_default(doc: DocumentContext) -> Iterator[Finding]:
    """GZI404 xacro-optenv-default: $(optenv) took its default for a variable not named."""
    for note in doc.notes("xacro-optenv-default"):
        yield finding("GZI404", note.source, None, note.message,
                      {"variables": note.data.get("variables", "")})
