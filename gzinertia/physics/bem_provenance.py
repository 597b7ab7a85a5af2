"""The comment ``addmass --bem`` writes before ``<fluid_added_mass>``, and reading it back.

One line (an XML comment, ASCII, no ``--``) naming the method, the panel count, the frequency,
the fluid domain, the estimated discretisation error, the collisions meshed, the digest of that
geometry (:func:`gzinertia.physics.surface_mesh.geometry_digest`), the fluid density and the
point and axes. The audit reads the collisions and the digest back (GZI212: stale when the
geometry changed since; GZI204 defers to a current one, which states the point).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.geometry import GeometryElement

PREFIX = "gzinertia addmass: BEM added mass"
#: The comment ``addmass --from`` writes starts so; since it also names the geometry the result
#: was imported for (and the dataset's digest), GZI212 reads it as it reads :data:`PREFIX`.
IMPORT_PREFIX = "gzinertia addmass: imported added mass"
_DATASET = re.compile(r"dataset digest (sha256:[0-9a-f]{16})")
_DIGEST = re.compile(r"mesh digest (sha256:[0-9a-f]{16})")
_COLLISIONS = re.compile(r"geometry (collisions|visuals)=([^;]*);")


@dataclass(frozen=True, repr=False, eq=False)
class BemProvenance(ValueRecord):
    """What a BEM provenance comment says about the geometry it was computed from: the names
    of the shapes meshed, which element they are (``"collision"``, or ``"visual"`` after
    ``--geometry visual``), and their digest."""

    collisions: tuple[str, ...]
    digest: str
    element: GeometryElement = "collision"
    #: ``"bem"``: solved by ``addmass --bem``; ``"imported"``: brought in by ``addmass --from``
    #: for the geometry named, from the dataset whose digest is ``dataset_digest``.
    origin: Literal["bem", "imported"] = "bem"
    dataset_digest: str = ""


def format_provenance(
    *,
    capytaine_version: str,
    method: str,
    panels: int,
    frequency: str,
    fluid_domain: str,
    relative_error: float,
    collisions: Sequence[str],
    digest: str,
    density: float,
    element: GeometryElement = "collision",
    closed_panels: int | None = None,
    geometry_notes: Sequence[str] = (),
) -> str:
    """The comment text (callers pass it through :func:`gzinertia.edit.links.ascii_comment`).

    ``panels`` are the panels solved on; under a free surface (``closed_panels`` given) the
    wetted ones, cut at the waterline from a closed surface of ``closed_panels`` (no lid).
    ``geometry_notes``: what the geometry pipeline did to each mesh (``"<shape>: <note>"``,
    :func:`gzinertia.physics.surface_mesh.mesh_notes`), said last, in words."""
    solved = (
        f"{panels} panels"
        if closed_panels is None
        else f"{panels} wetted panels (cut at the waterline from {closed_panels}, no lid)"
    )
    return (
        f"{PREFIX} (Capytaine {capytaine_version}, {method} method, {solved}, "
        f"{frequency} frequency, {fluid_domain}, estimated discretisation error "
        f"{100.0 * relative_error:.2g} %); geometry {element}s={','.join(collisions)}; "
        f"mesh digest {digest}; fluid density {density:g} kg/m^3; about the link origin in "
        "link axes" + "".join(f"; geometry of {note}" for note in geometry_notes)
    )


def format_import_geometry(
    element: GeometryElement,
    names: Sequence[str],
    digest: str,
    dataset_digest: str,
) -> str:
    """What ``addmass --from`` appends to its comment: the link's geometry the result was
    imported for (the shapes and their digest, as ``addmass --bem`` writes them), and the
    digest of the dataset file (which result it was)."""
    return (
        f"geometry {element}s={','.join(names)}; mesh digest {digest}; "
        f"dataset digest {dataset_digest}"
    )


def dataset_digest(data: bytes) -> str:
    """``sha256:<16 hex>`` of a result file's bytes."""
    import hashlib

    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def parse_provenance(comment: str | None) -> BemProvenance | None:
    """The collisions and digest of a BEM or import provenance comment; None for any other
    text (an import comment that names no geometry, as written before, included)."""
    if not comment or (PREFIX not in comment and IMPORT_PREFIX not in comment):
        return None
    digest, names = _DIGEST.search(comment), _COLLISIONS.search(comment)
    if digest is None or names is None:
        return None
    element: GeometryElement = (
        "visual" if names.group(1) == "visuals" else "collision"
    )
    shapes = tuple(n for n in names.group(2).split(",") if n)
    if PREFIX in comment:
        return BemProvenance(shapes, digest.group(1), element)
    dataset = _DATASET.search(comment)
    return BemProvenance(
        shapes, digest.group(1), element, "imported", dataset.group(1) if dataset else ""
    )
