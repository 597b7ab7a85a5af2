"""What ``gzinertia fix`` is asked to do and what it reports per link: the methods, the codes
each repairs, the settings (:class:`FixOptions`, checked by :meth:`FixOptions.validate`), the
file it edits (:class:`FixTarget`) and one repaired link's outcome (:class:`LinkFix`), shared
by the SDF and URDF repairs."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

import numpy as np

from gzinertia.errors import SettingError
from gzinertia.physics.inertia_repair import InertiaRepair
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import Vec3
from gzinertia.vocabulary.choices import FixMethod as Method
from gzinertia.vocabulary.geometry import GEOMETRY_ELEMENTS, GeometryElement

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = [
    "FIXABLE", "INERTIA_DEFAULT", "INERTIA_INDEX", "INERTIA_TAGS", "METHODS",
    "SAFE_RELATIVE_CHANGE", "FixOptions", "FixOptionsError", "FixTarget", "LinkFix", "Method"
]


METHODS: tuple[Method, ...] = get_args(Method)

#: The codes each method repairs. GZI101 (mass not positive) and GZI102 (no ``<inertial>``)
#: need a density or a mass; GZI107 (centre of mass outside the geometry) needs ``move_com``;
#: GZI109 (URDF-style ``<inertia ixx=".."/>`` attributes, which SDFormat ignores) is repaired
#: by writing those values as child elements (``geometry``: the solid's values instead).
FIXABLE: dict[Method, tuple[str, ...]] = {
    "nearest": ("GZI103", "GZI104", "GZI109"),
    "balance": ("GZI104", "GZI109"),
    "geometry": ("GZI101", "GZI102", "GZI103", "GZI104", "GZI105", "GZI107", "GZI109"),
}

#: ``audit --fix`` applies a nearest-valid repair only when no principal moment moves by more
#: than this fraction of the largest one: round-off and near misses (values written with a few
#: significant digits). Larger changes mean the inertia is wrong, not rounded: a judgement.
SAFE_RELATIVE_CHANGE = 1e-3

INERTIA_TAGS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
#: Where each ``<inertia>`` child sits in the 3x3 matrix.
INERTIA_INDEX = {
    "ixx": (0, 0), "ixy": (0, 1), "ixz": (0, 2), "iyy": (1, 1), "iyz": (1, 2), "izz": (2, 2),
}
#: The spec's default of each ``<inertia>`` child.
INERTIA_DEFAULT = {"ixx": 1.0, "iyy": 1.0, "izz": 1.0, "ixy": 0.0, "ixz": 0.0, "iyz": 0.0}


@dataclass(frozen=True, repr=False, eq=False)
class FixOptions(ValueRecord):
    """What the user asked for (see ``gzinertia fix --help``)."""

    method: Method = "nearest"
    pattern: str | None = None
    select: tuple[str, ...] = ()
    all_links: bool = False
    #: Which of the link's geometries stands for the body: its collisions or its visuals.
    geometry: GeometryElement = "collision"
    move_com: bool = False
    density: float | None = None
    mass: float | None = None
    tolerance: Literal["gz", "drake"] = "gz"
    #: Only repairs within :data:`SAFE_RELATIVE_CHANGE` (``audit --fix``).
    safe_only: bool = False

    def codes(self) -> tuple[str, ...]:
        """The codes this run repairs: ``select`` (codes or prefixes) among the method's."""
        own = FIXABLE[self.method]
        if not self.select:
            return own
        return tuple(c for c in own if any(c.startswith(s) for s in self.select))

    def validate(self) -> None:
        """Refuses settings that do not go together (:class:`FixOptionsError`, a
        :class:`~gzinertia.errors.SettingError` each interface spells its own way): an unknown
        method, geometry or tolerance; both a density and a mass, or either not a positive number;
        the geometry method's settings with another method; a selection of codes the method
        does not repair."""
        choices = ((self.method, "method", METHODS), (self.geometry, "geometry", GEOMETRY_ELEMENTS),
                   (self.tolerance, "tolerance", ("gz", "drake")))
        for value, key, allowed in choices:
            if value not in allowed:
                raise FixOptionsError(
                    key, f"{{{key}}} must be one of {{allowed}}, not {{value!r}}",
                    allowed=", ".join(allowed), value=value,
                )
        if self.density is not None and self.mass is not None:
            raise FixOptionsError("density", "give either {density} or {mass}, not both")
        for number, key, unit in ((self.density, "density", "kg/m^3"), (self.mass, "mass", "kg")):
            if number is not None and not (math.isfinite(number) and number > 0.0):
                raise FixOptionsError(
                    key, f"{{{key}}} must be a positive number of {{unit}}, not {{value!r}}",
                    unit=unit, value=number,
                )
        geometry_only = (self.density is not None or self.mass is not None or self.move_com
                         or self.geometry != "collision")
        if geometry_only and self.method != "geometry":
            raise FixOptionsError("fix_geometry_only",
                                  "{fix_geometry_only} go with {method_geometry}")
        if not self.codes() and not self.all_links:
            raise FixOptionsError(
                "select", "{select} {codes}: {method} {name} repairs {repaired} only",
                codes=",".join(self.select), name=self.method,
                repaired=", ".join(FIXABLE[self.method]),
            )


class FixOptionsError(SettingError):
    """Settings of a repair that do not go together (:meth:`FixOptions.validate`): a
    :class:`~gzinertia.errors.SettingError` carrying the setting's key."""


@dataclass(frozen=True, repr=False, eq=False)
class LinkFix(ValueRecord):
    """One repaired link: the inertia change (``repair``, in I axes), the mass, the centre of
    mass before and after (``p_BoBcm_B``, m) and, for geometry, the geometry's centroid."""

    link: str
    codes: tuple[str, ...]
    repair: InertiaRepair
    mass_before: float
    mass_after: float
    p_before: Vec3
    p_after: Vec3
    centroid: Vec3 | None = None
    inserted: bool = False
    #: What the geometry method filled: ``"collisions"`` or ``"visuals"``.
    shapes: str = "collisions"
    #: Which geometry ``--method geometry`` could use for a link another method repaired:
    #: ``"collision"``, ``"visual"`` (it has visuals only) or ``None`` (it has none).
    geometry_available: GeometryElement | None = None
    #: What the geometry pipeline did to the shapes (pieces united, repairs, a convex hull:
    #: :attr:`gzinertia.physics.mesh_body.MeshBody.note`), ``None`` when nothing.
    geometry_note: str | None = None

    @property
    def com_move(self) -> float:
        """How far the centre of mass moved (m): ``|p_after - p_before|``."""
        return float(np.linalg.norm(self.p_after - self.p_before))

    @property
    def com_offset(self) -> float | None:
        """Distance from the written centre of mass to the geometry's centroid (m)."""
        if self.centroid is None:
            return None
        return float(np.linalg.norm(self.centroid - self.p_after))


@dataclass(frozen=True, repr=False, eq=False)
class FixTarget(ValueRecord):
    """The file a repair edits and where its files are found (:func:`fix_file`'s arguments)."""

    path: Path
    model_paths: Sequence[str | Path] = ()
    package_paths: Sequence[str | Path] = ()
    xacro_args: Mapping[str, str] | None = None
    xacro_policy: XacroPolicy | None = None
    data: bytes | None = None
    tree: str | None = None
