"""Gazebo's Hydrodynamics system: the one home of its vocabulary.

The system (``gz-sim[N]-hydrodynamics-system``) takes per-link parameters named after Fossen and
SNAME: a force or moment row ``i`` in ``xyzkmn`` (force x y z, moment k m n about the link
origin) and velocity columns ``j, k`` in ``UVWPQR`` (u v w, p q r), both **linear-first**, in
link axes:

* ``<iDotJ>`` (``xDotU``...): the added-mass derivatives; Fossen writes them negative, the added
  mass is ``A = -sym(D)`` (:func:`derivatives`, :func:`added_mass_of`);
* ``<iJ>`` (``xU``...): linear damping; ``<iJabsK>`` (``xUabsU``...): quadratic damping, ``|k|·j``;
* ``<disable_added_mass>``: switches the ``<iDotJ>`` terms off (:func:`added_mass_active`).

This module owns those names, how a plugin is recognised (by its file name: other packages ship
systems also called Hydrodynamics, with other parameters), the matrix of the ``<iDotJ>`` terms,
and whether the plugin applies added mass. Reading the XML is :mod:`gzinertia.sdf.hydro`'s job;
the damping values come from :mod:`gzinertia.physics.hydro_damping`; what the plugin's
Coriolis term does is :mod:`gzinertia.gazebo.hydro_coriolis`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

import numpy as np

from gzinertia.vocabulary.added_mass import applies_added_mass

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

__all__ = [
    "FILENAME",
    "FORCE_AXES",
    "NAME",
    "SIGNED_QUADRATIC_TERM",
    "TERM",
    "TERM_PARTS",
    "VELOCITY_AXES",
    "PluginTerms",
    "added_mass_active",
    "added_mass_of",
    "added_mass_term",
    "added_mass_terms",
    "derivatives",
    "is_hydrodynamics_filename",
    "linear_term",
    "quadratic_term",
]

#: Force/moment rows: x, y, z forces and k, m, n moments (linear-first, link axes).
FORCE_AXES = "xyzkmn"
#: Velocity columns: u, v, w translational and p, q, r angular velocities (linear-first).
VELOCITY_AXES = "UVWPQR"

#: The plugin file name gzinertia writes, and the system's name.
FILENAME = "gz-sim-hydrodynamics-system"
NAME = "gz::sim::systems::Hydrodynamics"

#: File names of Gazebo's own system (any version, with or without ``lib``/``.so``).
_FILENAME_RE = re.compile(r"^(lib)?(gz-sim|ignition-gazebo)\d*-hydrodynamics-system(\.so)?$")

#: Every parameter name: added mass ``xDotU``, linear ``xU``, quadratic ``xUabsU``.
TERM = re.compile(r"^[xyzkmn](Dot[UVWPQR]|[UVWPQR](abs[UVWPQR])?)$")
#: The signed quadratic terms ``<iJK>`` (``xUU``, ``xUV``...): ``s_k·s_j`` since
#: gazebosim/gz-sim#1784; kept apart from :data:`TERM` (no computation here uses them).
SIGNED_QUADRATIC_TERM = re.compile(r"^[xyzkmn][UVWPQR][UVWPQR]$")
#: The same, in parts: row, ``"Dot"`` or ``None``, velocity, ``abs`` velocity or ``None``.
TERM_PARTS = re.compile(r"^([xyzkmn])(Dot)?([UVWPQR])(?:abs([UVWPQR]))?$")


def is_hydrodynamics_filename(filename: str) -> bool:
    """Whether a ``<plugin filename>`` is Gazebo's Hydrodynamics system."""
    return bool(_FILENAME_RE.match(filename.strip()))


def added_mass_term(i: int, j: int) -> str:
    """``<iDotJ>`` for row ``i`` and column ``j`` (0-based, linear-first): ``(0, 0)`` is
    ``xDotU``."""
    return f"{FORCE_AXES[i]}Dot{VELOCITY_AXES[j]}"


def linear_term(i: int, j: int) -> str:
    """``<iJ>``, the linear damping term: ``(0, 0)`` → ``xU``."""
    return f"{FORCE_AXES[i]}{VELOCITY_AXES[j]}"


def quadratic_term(i: int, j: int, k: int | None = None) -> str:
    """``<iJabsK>``, the quadratic damping term ``|k|·j`` (``k = j`` unless given):
    ``(0, 0)`` → ``xUabsU``."""
    return f"{FORCE_AXES[i]}{VELOCITY_AXES[j]}abs{VELOCITY_AXES[j if k is None else k]}"


def added_mass_terms() -> list[str]:
    """The 36 ``<iDotJ>`` names, row by row."""
    return [added_mass_term(i, j) for i in range(6) for j in range(6)]


def derivatives(terms: Mapping[str, float]) -> NDArray[np.float64]:
    """``D_BBo_B``: the ``<iDotJ>`` values as a 6x6, **linear-first**, about the link origin in
    link axes, as written (0 when absent; not symmetrised): ``D[i, j]`` is
    ``terms[added_mass_term(i, j)]``."""
    D = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            D[i, j] = terms.get(added_mass_term(i, j), 0.0)
    return D


class PluginTerms(Protocol):
    """What :func:`added_mass_active` reads of a plugin
    (:class:`gzinertia.records.HydroPlugin` is one): its terms as written and
    ``<disable_added_mass>``. A protocol, so that this module stays below the records."""

    @property
    def terms(self) -> Mapping[str, float]:
        """Parameter names to values as written."""

    @property
    def disable_added_mass(self) -> bool:
        """``<disable_added_mass>``."""


def added_mass_active(plugin: PluginTerms) -> bool:
    """Whether the plugin applies added mass: some ``<iDotJ>`` is not 0 (either sign) and
    ``<disable_added_mass>`` is not true
    (:func:`gzinertia.vocabulary.added_mass.applies_added_mass`)."""
    return applies_added_mass(plugin.terms, plugin.disable_added_mass)


def added_mass_of(D_BBo_B: ArrayLike) -> NDArray[np.float64] | None:
    """The added mass ``A_BBo_B`` (linear-first, symmetric) that ``<iDotJ>`` terms ``D_BBo_B``
    stand for, read as ``gzinertia convert`` reads them with ``sign="auto"``: ``-sym(D)`` when
    the non-zero diagonal is all negative (Fossen's derivatives), ``sym(D)`` when all positive;
    ``None`` when the signs are mixed or the diagonal is zero (the convention cannot be told).
    An exact conversion keeps this matrix, so the audit's verdicts on it do not change under
    the conversion."""
    D = np.asarray(D_BBo_B, dtype=float)
    if D.shape != (6, 6):
        raise ValueError(f"expected a 6x6 matrix, got shape {D.shape}")
    diag = np.diag(D)
    nonzero = diag[diag != 0.0]
    if not nonzero.size:
        return None
    if np.all(nonzero < 0.0):
        D = -D
    elif not np.all(nonzero > 0.0):
        return None
    return np.asarray(0.5 * (D + D.T), dtype=float)
