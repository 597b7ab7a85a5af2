"""Keeping ``addmass`` from creating the overlap its own audit reports (GZI210).

Two links whose fluid ellipsoids overlap would both count the fluid they share. When ``addmass``
writes added mass for a whole model, the largest fluid ellipsoids (the hull) are written first
and a link whose ellipsoid overlaps one that carries added mass (a thruster or fin inside the
hull's ellipsoid) is skipped: the hull's ellipsoid already stands for that fluid. The overlap is
judged exactly as the audit judges it (:func:`gzinertia.audit.rules.model.fluid_ellipsoid`,
:func:`~gzinertia.audit.rules.model.fluid_overlap_of`), so what ``addmass`` writes never adds a
GZI210 finding unless the user asks for it (``--allow-overlap``).
"""

from __future__ import annotations

import numpy as np

from gzinertia.audit.context import DocumentContext, LinkContext
from gzinertia.audit.rules.model import fluid_ellipsoid, fluid_overlap_of
from gzinertia.overlap import Ellipsoid
from gzinertia.records import LinkRecord, SdfDocument


def _carries_added_mass(ctx: LinkContext) -> bool:
    if ctx.added_mass is not None:
        return True
    return any(not p.disable_added_mass and bool(np.any(p.D_BBo_B)) for p in ctx.link.hydrodynamics)


class OverlapGuard:
    """The fluid ellipsoids that carry added mass, per top-level model; :meth:`clash` says
    whether giving another link added mass would make two of them overlap.

    A link that carries added mass already (``<fluid_added_mass>`` or a plugin's ``<iDotJ>``)
    keeps carrying it whatever the edit does, so it is never refused: any overlap it has was
    there before. Only links that would carry added mass for the first time are checked.
    """

    def __init__(self, doc: SdfDocument) -> None:
        self._contexts = {ctx.name: ctx for ctx in DocumentContext(doc).links}
        self._carrying: dict[str, list[tuple[str, Ellipsoid]]] = {}
        self._already: set[str] = set()
        for name, ctx in self._contexts.items():
            if not ctx.link.static and _carries_added_mass(ctx):
                self._already.add(name)
                self._remember(ctx)

    def _remember(self, ctx: LinkContext) -> None:
        ellipsoid = fluid_ellipsoid(ctx)
        if ellipsoid is not None:
            self._carrying.setdefault(ctx.top_model, []).append((ctx.name, ellipsoid))

    def volume(self, link: LinkRecord) -> float:
        """The volume of the link's fluid ellipsoid (0 without one): larger ones go first."""
        ctx = self._contexts.get(link.name)
        ellipsoid = None if ctx is None else fluid_ellipsoid(ctx)
        return 0.0 if ellipsoid is None else float(np.prod(ellipsoid.semi_axes))

    def clash(self, link: LinkRecord) -> tuple[str, float] | None:
        """``(other link, overlap)`` if the link's fluid ellipsoid overlaps one that carries
        added mass as much as GZI210 reports, else ``None``."""
        ctx = self._contexts.get(link.name)
        if ctx is None or link.name in self._already:
            return None
        mine = fluid_ellipsoid(ctx)
        if mine is None:
            return None
        for other, ellipsoid in self._carrying.get(ctx.top_model, []):
            measure = fluid_overlap_of(mine, ellipsoid)
            if measure is not None:
                return other, measure
        return None

    def accept(self, link: LinkRecord) -> None:
        """The link now carries added mass."""
        ctx = self._contexts.get(link.name)
        if ctx is not None and link.name not in self._already:
            self._remember(ctx)
