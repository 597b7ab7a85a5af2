"""Keeping ``addmass`` from creating the overlap its own audit reports (GZI210).

Two links whose fluid ellipsoids overlap would both count the fluid they share. When ``addmass``
writes added mass for a whole model, the largest fluid ellipsoids (the hull) are written first
and a link whose ellipsoid overlaps one that carries added mass (a thruster or fin inside the
hull's ellipsoid) is skipped: the hull's ellipsoid already stands for that fluid. The overlap is
judged exactly as the audit judges it (the same ellipsoids, pair search and threshold:
:func:`gzinertia.checks.overlap.fluid_ellipsoids`, :func:`~gzinertia.checks.overlap.
candidate_pairs`, :func:`~gzinertia.checks.overlap.fluid_overlap_of`), so what ``addmass``
writes never adds a GZI210 finding unless the user asks for it (``--allow-overlap``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from gzinertia.checks.added_mass import has_added_mass
from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.checks.overlap import candidate_pairs, fluid_ellipsoids, fluid_overlap_of
from gzinertia.physics.ellipsoid import PosedEllipsoid
from gzinertia.records import LinkRecord, SdfDocument

__all__ = ["OverlapGuard"]


class OverlapGuard:
    """Which links carry added mass, and which pairs of fluid ellipsoids overlap as much as
    GZI210 reports (found once, by the rule's own sweep, so the guard costs what the rule
    does); :meth:`clash` says whether giving a link added mass would add such a pair.

    A link that carries added mass already (``<fluid_added_mass>`` or a plugin's ``<iDotJ>``)
    keeps carrying it whatever the edit does, so it is never refused: any overlap it has was
    there before. Only links that would carry added mass for the first time are checked.
    """

    def __init__(self, doc: SdfDocument, editing: Sequence[LinkRecord]) -> None:
        contexts = DocumentContext(doc).links
        wanted = {link.name for link in editing}
        self._volume: dict[str, float] = {}
        self._carrying: set[str] = set()
        self._already: set[str] = set()
        groups: dict[str, list[tuple[LinkContext, PosedEllipsoid]]] = {}
        for ctx in contexts:
            if ctx.link.static:
                continue
            carries = has_added_mass(ctx)
            if carries:
                self._already.add(ctx.name)
                self._carrying.add(ctx.name)
            if not carries and ctx.name not in wanted:
                continue
            ellipsoids = fluid_ellipsoids(ctx)
            if not ellipsoids:
                continue
            self._volume[ctx.name] = sum(float(np.prod(e.semi_axes)) for e in ellipsoids)
            groups.setdefault(ctx.top_model, []).extend((ctx, e) for e in ellipsoids)
        self._pairs: dict[str, list[tuple[str, float]]] = {}
        for members in groups.values():
            for a_ctx, a, b_ctx, b in candidate_pairs(members):
                overlap = fluid_overlap_of(a, b)
                if overlap is not None:
                    measure = overlap[0]
                    self._pairs.setdefault(a_ctx.name, []).append((b_ctx.name, measure))
                    self._pairs.setdefault(b_ctx.name, []).append((a_ctx.name, measure))

    def volume(self, link: LinkRecord) -> float:
        """The volume of the link's fluid ellipsoids over 4π/3 (0 without one): larger first."""
        return self._volume.get(link.name, 0.0)

    def clash(self, link: LinkRecord) -> tuple[str, float] | None:
        """``(other link, overlap)`` if the link's fluid ellipsoid overlaps, as much as GZI210
        reports, one that carries added mass; ``None`` otherwise or if it carries some already."""
        if link.name in self._already:
            return None
        for other, measure in self._pairs.get(link.name, ()):
            if other in self._carrying:
                return other, measure
        return None

    def accept(self, link: LinkRecord) -> None:
        """The link now carries added mass."""
        self._carrying.add(link.name)
