"""The collisions an ellipsoid fit of a link takes (refusing a link with none, or with one that
displaces no finite volume), and how a fit names the link and its collisions in messages and
descriptions."""

from __future__ import annotations

from collections.abc import Sequence

from gzinertia.physics.ellipsoid_fit import FitError, FitMethod, unfit
from gzinertia.physics.shapes import ShapeError
from gzinertia.records import Collision, LinkRecord


def where(link: LinkRecord) -> str:
    """The link's file and name, where a fit's messages start."""
    return f"{link.source}: link '{link.name}'"


def kinds(collisions: Sequence[Collision]) -> str:
    """The collisions' geometry kinds, counted, in order of first appearance
    (``"2× box, sphere"``)."""
    counts: dict[str, int] = {}
    for c in collisions:
        counts[c.geometry.kind] = counts.get(c.geometry.kind, 0) + 1
    return ", ".join(k if n == 1 else f"{n}× {k}" for k, n in counts.items())


def plural(n: int, word: str) -> str:
    """``"1 word"`` or ``"n words"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def collision_label(c: Collision) -> str:
    """A collision named in messages: its name, kind and source."""
    return f"collision '{c.name}' ({c.geometry.kind}, {c.source})"


def usable_collisions(link: LinkRecord, method: FitMethod) -> tuple[Collision, ...]:
    """The link's collisions, or a :class:`FitError` if it has none or one without a volume."""
    if not link.collisions:
        raise unfit(f"{where(link)} has no <collision> to fit the {method} ellipsoid to",
                     "inertia")
    for c in link.collisions:
        kind = c.geometry.kind
        if kind in ("plane", "heightmap", "other"):
            shape = "an unsupported geometry" if kind == "other" else f"a {kind}"
            raise unfit(
                f"{where(link)}: {collision_label(c)} is {shape}, which displaces no finite "
                "volume of fluid", "inertia",
            )
        if kind == "mesh" and c.geometry.mesh_path is None:
            raise unfit(
                f"{where(link)}: {collision_label(c)}: mesh {c.geometry.mesh_uri!r} did not "
                "resolve to a file (set GZ_SIM_RESOURCE_PATH or pass the model path)", "inertia",
            )
    return link.collisions


def shape_error(link: LinkRecord, c: Collision, exc: ShapeError) -> FitError:
    """A collision's shape that could not be read, as a fit's error advising the inertia fit."""
    return unfit(f"{where(link)}: {collision_label(c)}: {exc}", "inertia")


def approximations(notes: Sequence[tuple[Collision, str | None]]) -> str | None:
    """The collisions' approximation notes in one phrase (``None`` when none was approximated)."""
    parts = [f"collision '{c.name}': {note}" for c, note in notes if note]
    return "; ".join(parts) if parts else None

