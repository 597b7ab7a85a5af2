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

PREFIX = "gzinertia addmass: BEM added mass"
_DIGEST = re.compile(r"mesh digest (sha256:[0-9a-f]{16})")
_COLLISIONS = re.compile(r"geometry collisions=([^;]*);")


@dataclass(frozen=True)
class BemProvenance:
    """What a BEM provenance comment says about the geometry it was computed from."""

    collisions: tuple[str, ...]
    digest: str


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
) -> str:
    """The comment text (callers pass it through :func:`gzinertia.edit.links.ascii_comment`)."""
    return (
        f"{PREFIX} (Capytaine {capytaine_version}, {method} method, {panels} panels, "
        f"{frequency} frequency, {fluid_domain}, estimated discretisation error "
        f"{100.0 * relative_error:.2g} %); geometry collisions={','.join(collisions)}; "
        f"mesh digest {digest}; fluid density {density:g} kg/m^3; about the link origin in "
        "link axes"
    )


def parse_provenance(comment: str | None) -> BemProvenance | None:
    """The collisions and digest of a BEM provenance comment; None for any other text."""
    if not comment or PREFIX not in comment:
        return None
    digest, names = _DIGEST.search(comment), _COLLISIONS.search(comment)
    if digest is None or names is None:
        return None
    return BemProvenance(tuple(n for n in names.group(1).split(",") if n), digest.group(1))
