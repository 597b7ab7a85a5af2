"""A vehicle's fins, described in a TOML file for strip theory's damping.

``hydro --method strip --fins FILE`` (and ``gzinertia.hydro(..., fins=FILE)``) reads one
``[[fin]]`` table per lifting surface, in the frame of the link it is fixed to (docs/damping.md,
"Fins")::

    [[fin]]
    link = "remus::base_link"      # the link's scoped name, or its last part
    name = "upper rudder"
    center = [-0.64, 0.0, 0.06]    # m: centre of pressure p_BoFp_B, link frame
    normal = [0.0, 1.0, 0.0]       # the direction it lifts along (made unit)
    area = 0.00665                 # m²: planform
    aspect_ratio = 2.0             # effective; or lift_slope = 3.1 (1/rad), not both
    cross_flow_cd = 0.56           # optional (Prestero's value by default)

The file is read as the settings are (:func:`gzinertia.audit.config_files.read_toml`: size and
shape bounded before parsing); every value is checked, and a bad one is one line naming the
file and the fin. Fins are not guessed from the geometry: a thin box at the tail may be a fin,
a keel or a handle.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gzinertia.audit.config_files import read_toml
from gzinertia.audit.config_values import shown_path
from gzinertia.errors import GzInertiaError
from gzinertia.physics.fin_lift import FIN_CROSS_FLOW_CD, Fin, lift_slope

__all__ = ["FIN_KEYS", "FinTable", "read_fin_table"]

#: The fins of a model: the link each is fixed to (as the table names it) → its fins.
FinTable = Mapping[str, tuple[Fin, ...]]

#: The keys a ``[[fin]]`` table may hold.
FIN_KEYS = ("link", "name", "center", "normal", "area", "aspect_ratio", "lift_slope",
            "cross_flow_cd")


def read_fin_table(path: str | Path) -> FinTable:
    """The fins ``path`` describes (module docstring), by the link name each gives, in file
    order. Raises :class:`~gzinertia.errors.GzInertiaError` (one line naming the file and the
    fin) for a file that cannot be read or a value out of its domain."""
    file = Path(path)
    shown = shown_path(file)
    document = read_toml(file)
    unknown = sorted(set(document) - {"fin"})
    tables = document.get("fin")
    if unknown or not isinstance(tables, list) or not tables:
        raise GzInertiaError(f"{shown}: a fin file holds [[fin]] tables only"
                             + (f" (not {', '.join(unknown)})" if unknown else ""))
    out: dict[str, list[Fin]] = {}
    for i, table in enumerate(tables, start=1):
        link, fin = _fin(table, f"{shown}: fin {i}", f"fin {i}")
        out.setdefault(link, []).append(fin)
    return {link: tuple(fins) for link, fins in out.items()}


def _fin(table: object, where: str, default_name: str) -> tuple[str, Fin]:
    """One ``[[fin]]`` table as (link, fin); ``where`` names it in a refusal, ``default_name``
    names a fin the table does not."""
    if not isinstance(table, Mapping):
        raise GzInertiaError(f"{where}: not a table")
    name = table.get("name", default_name)
    if isinstance(name, str):
        where = f"{where} ({name!r})"
    unknown = sorted(set(table) - set(FIN_KEYS))
    if unknown:
        raise GzInertiaError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(FIN_KEYS)})")
    link = table.get("link")
    if not isinstance(link, str) or not link or not isinstance(name, str):
        raise GzInertiaError(f"{where}: link and name must be text")
    center = _vector(table, "center", where)
    normal = _vector(table, "normal", where)
    length = float(np.linalg.norm(normal))
    if length == 0.0:
        raise GzInertiaError(f"{where}: normal must not be zero")
    given = [key for key in ("aspect_ratio", "lift_slope") if key in table]
    if len(given) != 1:
        raise GzInertiaError(f"{where}: give aspect_ratio or lift_slope (one of them)")
    value = _positive(table, given[0], where)
    slope = lift_slope(value) if given[0] == "aspect_ratio" else value
    cd = _positive(table, "cross_flow_cd", where, FIN_CROSS_FLOW_CD, zero=True)
    return link, Fin(center, normal / length, _positive(table, "area", where), slope, cd, name)


def _vector(table: Mapping[str, Any], key: str, where: str) -> np.ndarray:
    value = table.get(key)
    if not (isinstance(value, Sequence) and len(value) == 3
            and all(_is_number(v) and math.isfinite(v) for v in value)):
        raise GzInertiaError(f"{where}: {key} must be 3 finite numbers (link frame)")
    return np.array([float(v) for v in value])


def _positive(table: Mapping[str, Any], key: str, where: str, default: float | None = None,
              zero: bool = False) -> float:
    value = table.get(key, default)
    if not _is_number(value) or not math.isfinite(value) or value < 0 or (
            value == 0 and not zero):
        bound = ">= 0" if zero else "> 0"
        raise GzInertiaError(f"{where}: {key} must be a finite number {bound}, not {value!r}")
    return float(value)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
