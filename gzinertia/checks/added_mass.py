"""What added mass a link carries and applies, and the fit its comment says produced it.

The matrix is ``A_BBo_B``: about the link origin Bo, in link axes B, linear-first
``[x y z p q r]`` (shared DESIGN.md §3).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gzinertia.checks.context import LinkContext
from gzinertia.hydrodynamics_terms import added_mass_active, added_mass_of
from gzinertia.physics.fit_provenance import parse_fit_provenance, recorded_fit
from gzinertia.physics.fits import FitError
from gzinertia.record_base import ValueRecord
from gzinertia.records import HydroPlugin, LinkRecord, SourceRef

__all__ = [
    "ELEMENT",
    "PLUGIN",
    "RecordedFit",
    "added_mass_where",
    "applied_added_mass",
    "has_added_mass",
    "link_added_mass",
    "plugin_added_mass",
    "recorded_fit_of",
]


def added_mass_where(ctx: LinkContext) -> SourceRef:
    """Where the link's ``<fluid_added_mass>`` is written (else its ``<inertial>``, else the
    link)."""
    inertial = ctx.link.inertial
    return inertial.added_mass_source or inertial.source or ctx.where


ELEMENT = "<fluid_added_mass>"


PLUGIN = "the Hydrodynamics plugin's added mass (its <iDotJ> terms)"


def applied_added_mass(ctx: LinkContext) -> tuple[np.ndarray, SourceRef, str] | None:
    """``(A_BBo_B, where, what)``: the link's ``<fluid_added_mass>``, else the added mass its
    active Hydrodynamics plugin applies, read as ``convert --hydro-to-sdf`` reads it
    (:func:`gzinertia.hydrodynamics_terms.added_mass_of`). GZI202–GZI204 judge this matrix, so
    their verdicts do not change when the conversion moves it from one place to the other. A
    plugin whose added mass is on
    (:func:`~gzinertia.vocabulary.added_mass.applies_added_mass`) but whose diagonal mixes
    signs applies a matrix of no telling convention: it is not returned (GZI208 judges its
    signs), though it counts as added mass everywhere else."""
    if ctx.added_mass is not None:
        return ctx.added_mass, added_mass_where(ctx), ELEMENT
    found = plugin_added_mass(ctx.link)
    if found is None:
        return None
    A_BBo_B, plugin = found
    where = min(
        (src for name, src in plugin.term_sources.items() if "Dot" in name),
        key=lambda src: src.line,
        default=plugin.source,
    )
    return A_BBo_B, where, PLUGIN


def link_added_mass(link: LinkRecord) -> tuple[np.ndarray, str] | None:
    """``(A_BBo_B, what)`` for a link alone, without an audit's context: as
    :func:`applied_added_mass` (``<fluid_added_mass>`` as libsdformat loads it, symmetric,
    else the plugin's), ``what`` being :data:`ELEMENT` or :data:`PLUGIN`; ``None`` for none."""
    A = link.inertial.A_BBo_B
    S = None if A is None else A.symmetric().linear_first()
    if S is not None and np.any(S):
        return S, ELEMENT
    found = plugin_added_mass(link)
    return None if found is None else (found[0], PLUGIN)


def plugin_added_mass(link: LinkRecord) -> tuple[np.ndarray, HydroPlugin] | None:
    """``(A_BBo_B, plugin)``: the added mass the link's first Hydrodynamics plugin with its
    added mass on applies (linear-first, about Bo in link axes), read as ``convert
    --hydro-to-sdf`` reads it; ``None`` when none applies one of a telling sign convention (see
    :func:`applied_added_mass`)."""
    for plugin in link.hydrodynamics:
        if not added_mass_active(plugin):
            continue
        A_BBo_B = added_mass_of(plugin.D_BBo_B)
        if A_BBo_B is not None and np.any(A_BBo_B):
            return A_BBo_B, plugin
    return None



def has_added_mass(ctx: LinkContext) -> bool:
    """Whether the link carries added mass as GZI210 counts it: ``<fluid_added_mass>``, or a
    Hydrodynamics plugin whose ``<iDotJ>`` added mass is on."""
    if ctx.added_mass is not None:
        return True
    return any(added_mass_active(p) for p in ctx.link.hydrodynamics)



@dataclass(frozen=True, repr=False, eq=False)
class RecordedFit(ValueRecord):
    """The fit an ``addmass --ellipsoid`` comment names, refitted to the link as it is now:
    ``A_per_density`` is its Tuckerman ``A_BBo_B`` (linear-first, about Bo in link axes) in a
    fluid of 1 kg/m³, ``what`` names it in messages, ``options`` recompute it on the command
    line."""

    A_per_density: np.ndarray
    what: str
    options: tuple[str, ...]


def recorded_fit_of(ctx: LinkContext) -> RecordedFit | None:
    """The fit the link's ``<fluid_added_mass>`` comment says produced it (``addmass
    --ellipsoid``, any ``--fit`` or ``--semi-axes``), of the link as it is now; ``None`` without
    such a comment or when the link can no longer be fitted that way. GZI204 and GZI207 judge
    the written matrix against it: each fit is a legitimate estimate with its own centre and
    size (MuJoCo's ellipsoid of a cone, the inertia fit at the centre of mass), and the
    matrix it wrote must not be read as a mistake for differing from another fit."""
    if ctx.added_mass is None or not ctx.link.inertial.added_mass_comment:
        return None

    provenance = parse_fit_provenance(ctx.link.inertial.added_mass_comment)
    if provenance is None:
        return None
    fit = recorded_fit(ctx.link, provenance)
    if fit is None:
        return None
    try:
        A = fit.added_mass(1.0).linear_first()
    except FitError:  # overflow: the default reference then
        return None
    if provenance.explicit is not None:
        a, c, rpy = (",".join(f"{v:.6g}" for v in t) for t in provenance.explicit)
        what = "explicit ellipsoid its comment names"
        options: tuple[str, ...] = (f"--semi-axes={a}", f"--center={c}", f"--rpy={rpy}")
    else:
        what = f"{provenance.method} fit its comment names"
        options = () if provenance.method == "volume" else ("--fit", provenance.method)
    return RecordedFit(A, what, options)

