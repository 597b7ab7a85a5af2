"""``gzinertia compare``: per link, what the file applies in Gazebo beside gzinertia's estimates
and a catalogue entry, with ratios; and which catalogue entry a link's numbers were copied from.

Every number is about the link origin Bo in link axes B: added mass as the diagonal of
``A_BBo_B`` (``xx`` ... ``rr``, positive, kg and kg·m²), damping as gz-sim Hydrodynamics terms
(Fossen-negative), the displaced volume as gz-sim's Buoyancy system computes it from the
collisions (m³). What the file applies: ``<fluid_added_mass>`` and the added mass of every
active Hydrodynamics plugin (``-sym(D)`` for Fossen's negative ``<iDotJ>``, ``sym(D)`` for
positive ones, as ``convert`` reads them; a diagonal of mixed signs is not counted, said; both
count when both are present, as in Gazebo), the plugins' damping terms summed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from gzinertia.catalogue.convert import GzTerms
from gzinertia.catalogue.disagree import term_values
from gzinertia.catalogue.estimates import BEM_ESTIMATE, ESTIMATES, Estimate
from gzinertia.catalogue.vehicle import CatalogueEntry
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import (
    TERM_PARTS,
    added_mass_active,
    added_mass_of,
    added_mass_term,
)
from gzinertia.physics.collision_volume import collision_volume, gazebo_sum
from gzinertia.physics.hydrostatics import top_model
from gzinertia.record_base import Record, ValueRecord
from gzinertia.records import LinkRecord

__all__ = [
    "ADDED_MASS_NAMES",
    "COPY_RTOL",
    "Comparison",
    "CopyMatch",
    "LinkComparison",
    "Row",
    "compare_links",
    "copy_matches",
    "quantity_unit",
    "ratio",
    "vehicle_links",
]

#: The diagonal of ``A_BBo_B`` by ``<fluid_added_mass>``'s names, linear-first.
ADDED_MASS_NAMES = ("xx", "yy", "zz", "pp", "qq", "rr")
#: Two values are the same number (copied) within this relative difference: written numbers
#: keep at least 6 significant digits.
COPY_RTOL = 1e-6
#: A link copies an entry when it has at least this many of the entry's non-zero terms.
COPY_MIN_TERMS = 3


@dataclass(frozen=True, repr=False, eq=False)
class Row(ValueRecord):
    """One quantity of one link: ``file`` (what Gazebo applies; ``None``: nothing),
    ``estimates`` (method → value), ``entry`` (the catalogue entry's, gz-sim's form)."""

    quantity: str
    unit: str
    file: float | None
    estimates: dict[str, float]
    entry: float | None

    @property
    def ratio_to_entry(self) -> float | None:
        """``file / entry`` (``None`` when either is missing or the entry's is 0)."""
        return ratio(self.file, self.entry)

    def ratio_to(self, method: str) -> float | None:
        """``file / estimate`` of one method (``None`` when either is missing or 0)."""
        return ratio(self.file, self.estimates.get(method))


@dataclass(frozen=True, repr=False, eq=False)
class CopyMatch(ValueRecord):
    """A catalogue entry whose numbers a link carries: ``terms`` equal within
    :data:`COPY_RTOL` (``sign_flipped`` of them with the opposite sign), of the entry's
    ``of`` non-zero terms."""

    entry: str
    citation: str
    terms: tuple[str, ...]
    sign_flipped: tuple[str, ...]
    of: int

    @property
    def complete(self) -> bool:
        """Every non-zero term of the entry is in the link."""
        return len(self.terms) == self.of


@dataclass(frozen=True, repr=False, eq=False)
class LinkComparison(Record):
    """One link: its ``rows``, where the file's numbers are written (``sources``), the
    estimates' bases (method → one line), what could not be estimated or shown (``notes``), and
    the catalogue entries its numbers match (``copies``)."""

    link: str
    rows: tuple[Row, ...]
    sources: tuple[str, ...]
    bases: dict[str, str]
    notes: tuple[str, ...]
    copies: tuple[CopyMatch, ...]


@dataclass(frozen=True, repr=False, eq=False)
class Comparison(Record):
    """``gzinertia compare`` of one file: the fluid density the estimates use (kg/m³), the
    entry compared with (``None``: none asked), and each selected link."""

    file: str
    density: float
    entry: CatalogueEntry | None
    links: tuple[LinkComparison, ...]


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b``; ``None`` when either is missing, ``b`` is 0, or both are 0."""
    if a is None or b is None or b == 0.0:
        return None
    return a / b + 0.0


def _added_mass_values(A: np.ndarray | None) -> dict[str, float]:
    if A is None:
        return {}
    return {name: float(A[i, i]) + 0.0 for i, name in enumerate(ADDED_MASS_NAMES)}


def _applied(link: LinkRecord) -> tuple[np.ndarray | None, dict[str, float], list[str]]:
    """What Gazebo applies on ``link``: added mass (``A_BBo_B``, linear-first, about Bo in link
    axes: ``<fluid_added_mass>`` plus each active plugin's, read as ``convert`` reads
    ``<iDotJ>``: :func:`gzinertia.hydrodynamics_terms.added_mass_of`), damping terms and where
    each is written."""
    A: np.ndarray | None = None
    sources = []
    if link.A_BBo_B is not None:
        A = link.A_BBo_B.linear_first()
        sources.append(f"<fluid_added_mass> ({link.source})")
    damping: dict[str, float] = {}
    for plugin in link.hydrodynamics:
        sources.append(f"Hydrodynamics plugin ({plugin.source})")
        plugin_A = added_mass_of(plugin.D_BBo_B) if added_mass_active(plugin) else None
        if plugin_A is not None:
            A = (0.0 if A is None else A) + plugin_A
        elif added_mass_active(plugin) and np.any(plugin.D_BBo_B):
            sources.append("its <iDotJ> diagonal mixes signs: no convention tells its added "
                           "mass, not counted (the audit's GZI208)")
        for name, value in plugin.terms.items():
            if "Dot" not in name:
                damping[name] = damping.get(name, 0.0) + value
    return A, damping, sources


def _gz_values(terms: GzTerms) -> dict[str, float]:
    A = None if terms.A_BBo_B is None else terms.A_BBo_B.linear_first()
    values = {**_added_mass_values(A), **terms.damping}
    if terms.mass is not None:
        values["mass"] = terms.mass
    if terms.volume is not None:
        values["volume"] = terms.volume
    return values


def _order(name: str) -> tuple[int, int, str]:
    if name in ("mass", "volume"):
        return (0, ("mass", "volume").index(name), name)
    if name in ADDED_MASS_NAMES:
        return (1, ADDED_MASS_NAMES.index(name), name)
    return (2 if "abs" not in name else 3, 0, name)


_LENGTH_UNITS = ("/m", "", "·m", "·m²", "·m³")


def quantity_unit(name: str) -> str:
    """The SI unit of a quantity: a term's row (force or moment) and velocities (``|k|·j``)
    each add a metre per moment and per angular velocity."""
    if name in ("mass", "volume"):
        return "kg" if name == "mass" else "m³"
    if name in ADDED_MASS_NAMES:
        return "kg" if ADDED_MASS_NAMES.index(name) < 3 else "kg·m²"
    parts = TERM_PARTS.match(name)
    assert parts is not None, name
    row, _, j, k = parts.groups()
    metres = (row in "kmn") + (j in "PQR")
    if k is None:  # linear: force per velocity, kg/s
        return "kg" + ("", "·m", "·m²")[metres] + "/s"
    return "kg" + _LENGTH_UNITS[metres + (k in "PQR")]


def copy_matches(values: Mapping[str, float], entries: Iterable[CatalogueEntry],
                 ) -> tuple[CopyMatch, ...]:
    """The entries whose non-zero added-mass diagonal (``<iDotI>`` = ``-A_ii``) and damping
    terms ``values`` carries (same names, gz-sim's form): at least :data:`COPY_MIN_TERMS` of
    them, or all, equal within :data:`COPY_RTOL` in magnitude."""
    found = []
    for e in entries:
        wanted = {k: v for k, v in term_values(e.gz_terms()).items() if v != 0.0}
        same, flipped = [], []
        for name, v in wanted.items():
            mine = values.get(name)
            if mine is not None and abs(abs(mine) - abs(v)) <= COPY_RTOL * abs(v):
                same.append(name)
                if (mine < 0.0) != (v < 0.0):
                    flipped.append(name)
        if same and (len(same) >= COPY_MIN_TERMS or len(same) == len(wanted)):
            found.append(CopyMatch(e.id, e.source.citation(), tuple(same), tuple(flipped),
                                   len(wanted)))
    return tuple(sorted(found, key=lambda m: (-len(m.terms), m.entry)))


def _estimates(link: LinkRecord, density: float, bem: bool,
               ) -> tuple[list[Estimate], list[str]]:
    providers = list(ESTIMATES.items()) + ([BEM_ESTIMATE] if bem else [])
    found, notes = [], []
    for name, provider in providers:
        try:
            found.append(provider(link, density))
        except GzInertiaError as exc:
            notes.append(f"{name}: not estimated: {exc}")
    return found, notes


def compare_link(link: LinkRecord, density: float, entry: CatalogueEntry | None,
                 catalogue: Sequence[CatalogueEntry], bem: bool = False,
                 with_entry: bool = True) -> LinkComparison:
    """One link's comparison (module docstring); ``entry``'s values are shown when
    ``with_entry``."""
    A, damping, sources = _applied(link)
    file_values = {**_added_mass_values(A), **damping, "mass": link.inertial.mass}
    notes = []
    if link.collisions:
        file_values["volume"] = gazebo_sum(tuple(collision_volume(c) for c in link.collisions))[0]
    else:
        notes.append("no collision: gz-sim's Buoyancy system displaces no volume for this link")
    estimates, skipped = _estimates(link, density, bem)
    notes += skipped
    by_method = {
        e.method: {**_added_mass_values(None if e.A_BBo_B is None else e.A_BBo_B.linear_first()),
                   **e.damping} for e in estimates
    }
    entry_values = _gz_values(entry.gz_terms()) if entry is not None and with_entry else {}
    names = set(file_values) | set(entry_values) | {n for v in by_method.values() for n in v}
    rows = tuple(
        Row(name, quantity_unit(name), file_values.get(name),
            {m: v[name] for m, v in by_method.items() if name in v}, entry_values.get(name))
        for name in sorted(names, key=_order)
    )
    applied = {**{added_mass_term(i, i): -v for i, v in
                  enumerate(_added_mass_values(A).values())}, **damping}
    return LinkComparison(link.name, rows, tuple(sources),
                          {e.method: e.basis for e in estimates}, tuple(notes),
                          copy_matches(applied, catalogue))


def vehicle_links(links: Sequence[LinkRecord]) -> set[str]:
    """The link an entry (a whole vehicle) is compared with in each top-level model: its
    heaviest link (the hull or frame; the first of equals)."""
    heaviest: dict[str, LinkRecord] = {}
    for link in links:
        top = top_model(link)
        if top not in heaviest or link.inertial.mass > heaviest[top].inertial.mass:
            heaviest[top] = link
    return {link.name for link in heaviest.values()}


def compare_links(file: str, links: Sequence[LinkRecord], density: float,
                  entry: CatalogueEntry | None, catalogue: Sequence[CatalogueEntry],
                  bem: bool = False, selected: bool = False) -> Comparison:
    """The comparison of ``links`` of ``file`` in a fluid of ``density`` kg/m³ with
    ``entry`` (or none), copies sought among ``catalogue``. The entry is shown on every link
    when the links were ``selected`` by name, else on each model's :func:`vehicle_links`."""
    shown = {link.name for link in links} if selected else vehicle_links(links)
    return Comparison(file, density, entry, tuple(
        compare_link(link, density, entry, catalogue, bem, link.name in shown)
        for link in links))
