"""The numbers of a catalogue entry exactly as published (:class:`Published`) and how a data
file's ``[published]`` table is read (:func:`published_from_table`).

Points, axes, ordering: every vector and term is in the **published** axes
(:attr:`Published.axes`; :attr:`Published.frd` is true for forward-starboard-down ones) about the
published reference point (:attr:`Published.point`, called Po); term names follow Fossen and
SNAME as gz-sim's Hydrodynamics system spells them (``xDotU``, ``xU``, ``xUabsU``; row in
``xyzkmn``, velocity in ``UVWPQR``, linear-first).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from gzinertia.record_base import Record
from gzinertia.sdf.fluid_added_mass import SDF_TAGS

__all__ = ["CONVENTIONS", "CatalogueDataError", "Convention", "Published", "published_from_table"]

#: How the published numbers act, each converted by :mod:`gzinertia.catalogue.convert`:
#: ``fossen``: Fossen's derivatives in body axes about the reference point (``sign`` says whether
#: they are written negative, as Fossen does, or as positive magnitudes); ``uuv_simulator``:
#: UUV Simulator's underwater-object plugin block; ``gz_hydrodynamics``: gz-sim's Hydrodynamics
#: terms; ``vrx_simple_hydrodynamics``: VRX's SimpleHydrodynamics (positive terms, defaults).
CONVENTIONS = ("fossen", "uuv_simulator", "gz_hydrodynamics", "vrx_simple_hydrodynamics")
Convention = Literal["fossen", "uuv_simulator", "gz_hydrodynamics", "vrx_simple_hydrodynamics"]
_INERTIA_KEYS = ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")


class CatalogueDataError(ValueError):
    """A catalogue data file that does not hold what an entry needs (a packaging defect)."""


@dataclass(frozen=True, repr=False, eq=False)
class Published(Record):
    """The numbers as published (module docstring for axes and point).

    ``mass`` (kg) or ``weight`` (N, with ``gravity``); ``inertia``: ``ixx``... about the
    reference point in published axes (kg·m²); ``p_PoG``, ``p_PoB``: the centres of gravity and
    buoyancy from the reference point (m); ``volume`` (m³); ``terms``: derivatives by name;
    ``matrices``: UUV Simulator's ``added_mass`` (36 values, row by row), ``linear_damping``
    and ``quadratic_damping`` (6 or 36); ``fluid_added_mass``: SDFormat's
    ``<fluid_added_mass>`` entries by tag (``xx``, ``xq``, ...: positive, about the reference
    point in published axes, linear-first); ``other``: published values not converted, with
    ``not_converted`` saying why."""

    convention: Convention
    sign: Literal["negative", "positive"]
    axes: str
    frd: bool
    point: str
    units: str
    mass: float | None = None
    weight: float | None = None
    gravity: float | None = None
    volume: float | None = None
    fluid_density: float | None = None
    inertia: dict[str, float] = field(default_factory=dict)
    p_PoG: tuple[float, float, float] | None = None
    p_PoB: tuple[float, float, float] | None = None
    terms: dict[str, float] = field(default_factory=dict)
    matrices: dict[str, tuple[float, ...]] = field(default_factory=dict)
    fluid_added_mass: dict[str, float] = field(default_factory=dict)
    other: dict[str, float] = field(default_factory=dict)
    not_converted: str = ""

    @property
    def rigid_mass(self) -> float | None:
        """The mass (kg): as published, or the published weight over the published gravity."""
        if self.mass is not None:
            return self.mass
        if self.weight is not None and self.gravity:
            return self.weight / self.gravity
        return None

    def value(self, key: str) -> float | tuple[float, ...]:
        """The published value at a dotted key (``terms.xUabsU``, ``inertia.ixx``, ``mass``,
        ``p_PoG.z``, ``matrices.added_mass``, ``fluid_added_mass.zz``, ``p_PoB``). Raises
        ``KeyError`` when absent."""
        head, _, tail = key.partition(".")
        if head in ("p_PoG", "p_PoB"):
            vector = getattr(self, head)
            if vector is None:
                raise KeyError(key)
            return vector if not tail else vector["xyz".index(tail)]
        if tail:
            table: Mapping[str, Any] = getattr(self, head)
            return cast("float | tuple[float, ...]", table[tail])
        found = getattr(self, head)
        if found is None:
            raise KeyError(key)
        return cast(float, found)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise CatalogueDataError(f"{where}: not a finite number: {value!r}")
    return float(value)


def _vector(value: Any, where: str) -> tuple[float, float, float] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3:
        raise CatalogueDataError(f"{where}: three numbers expected")
    x, y, z = (_number(v, where) for v in value)
    return (x, y, z)


def _numbers(table: Any, where: str) -> dict[str, float]:
    if not isinstance(table, dict):
        raise CatalogueDataError(f"{where}: a table expected")
    return {str(k): _number(v, f"{where}.{k}") for k, v in table.items()}


def published_from_table(table: dict[str, Any], where: str) -> Published:
    """The :class:`Published` numbers of a data file's ``[published]`` table (``where``: the
    file and table, for errors); raises :class:`CatalogueDataError` naming a wrong key."""
    convention = table.get("convention")
    if convention not in CONVENTIONS:
        raise CatalogueDataError(f"{where}.convention: one of {', '.join(CONVENTIONS)}")
    sign = table.get("sign")
    if sign not in ("negative", "positive"):
        raise CatalogueDataError(f"{where}.sign: negative or positive")
    inertia = _numbers(table.get("inertia", {}), f"{where}.inertia")
    if set(inertia) - set(_INERTIA_KEYS):
        raise CatalogueDataError(f"{where}.inertia: keys among {', '.join(_INERTIA_KEYS)}")
    fluid_added_mass = _numbers(table.get("fluid_added_mass", {}), f"{where}.fluid_added_mass")
    if set(fluid_added_mass) - set(SDF_TAGS):
        raise CatalogueDataError(f"{where}.fluid_added_mass: keys among {', '.join(SDF_TAGS)}")
    matrices = {
        str(k): tuple(_number(v, f"{where}.matrices.{k}") for v in values)
        for k, values in table.get("matrices", {}).items()
    }
    optional = {k: None if table.get(k) is None else _number(table[k], f"{where}.{k}")
                for k in ("mass", "weight", "gravity", "volume", "fluid_density")}
    return Published(
        convention=cast(Convention, convention), sign=sign, axes=str(table["axes"]),
        frd=bool(table["frd"]), point=str(table["point"]), units=str(table["units"]),
        inertia=inertia, p_PoG=_vector(table.get("p_PoG"), f"{where}.p_PoG"),
        p_PoB=_vector(table.get("p_PoB"), f"{where}.p_PoB"),
        terms=_numbers(table.get("terms", {}), f"{where}.terms"), matrices=matrices,
        fluid_added_mass=fluid_added_mass,
        other=_numbers(table.get("other", {}), f"{where}.other"),
        not_converted=str(table.get("not_converted", "")), **optional,
    )
