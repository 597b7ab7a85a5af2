"""The shapes a boundary-element solve meshes for a link, and that an imported result is taken
to describe: its collisions or its visuals, all of them or those named (``--geometry``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gzinertia.errors import GzInertiaError
from gzinertia.records import Collision, LinkRecord
from gzinertia.sdf.visuals import link_visuals
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = ["displacing_collisions", "shapes_of"]


def displacing_collisions(
    link: LinkRecord,
    names: Sequence[str] | None,
    shapes: Sequence[Collision] | None = None,
    element: GeometryElement = "collision",
) -> list[Collision]:
    """The shapes the BEM meshes: all of the link's collisions (or of ``shapes``, its visuals:
    ``element="visual"``), or those named (an error naming the link when a name is not one of
    them)."""
    pool = list(link.collisions if shapes is None else shapes)
    if names is None:
        return pool
    by_name = {c.name: c for c in pool}
    missing = [n for n in names if n not in by_name]
    if missing:
        have = ", ".join(sorted(by_name)) or "none"
        raise GzInertiaError(
            f"{link.source}: link {link.name!r} has no {element} named {missing[0]!r} "
            f"(its {element}s: {have})"
        )
    return [by_name[n] for n in names]


def shapes_of(
    link: LinkRecord,
    names: Sequence[str] | None,
    element: GeometryElement,
) -> list[Collision]:
    """The link's displacing shapes: its collisions, or its visuals (read with them:
    :func:`gzinertia.sdf.visuals.link_visuals`, the one visuals reader, also GZI212's and
    GZI304's); all of them or those ``names`` names. Visuals that cannot be read (a
    ``relative_to`` that names no frame, an unreadable ``<geometry>``) are refused unless the
    readable ones are named: a hull with a part left out would be solved silently wrong."""
    if element == "collision":
        return displacing_collisions(link, names)

    visuals, skipped = link_visuals(link)
    if skipped and names is None:
        first = link.unread_visuals[0]
        more = f" (and {skipped - 1} more)" if skipped > 1 else ""
        raise GzInertiaError(
            f"{first.source}: link {link.name!r}: its visual {first.name!r} cannot be meshed: "
            f"{first.reason}{more}; name the ones to mesh with --geometry visual:NAME[,NAME...]"
        )
    return displacing_collisions(link, names, visuals, "visual")
