"""The project's words, one home each: the SDF version as a value, whether a Hydrodynamics
plugin applies added mass, the fluids and their densities, scoped link names and the geometry
element a shape is read from.

Floor: the bottom, beside the spatial core. Standard library and :mod:`gzinertia.numbers` only (no
NumPy), so that every floor may import it and the CLI can use it in ``--help`` without
importing the numeric core.
"""

from __future__ import annotations

from gzinertia.vocabulary.added_mass import ADDED_MASS_TERM, applies_added_mass
from gzinertia.vocabulary.fluids import (
    AIR_DENSITY,
    DEFAULT_FLUID_DENSITY,
    FLUID_DENSITIES,
    FRESHWATER_DENSITY,
    SEAWATER_DENSITY,
    UUV_PLUGIN_FLUID_DENSITY,
    WATER_VISCOSITY,
    FluidName,
    density_of,
)
from gzinertia.vocabulary.geometry import GEOMETRY_ELEMENTS, GeometryElement
from gzinertia.vocabulary.scoped_names import (
    SCOPE_SEPARATOR,
    enclosing_scopes,
    join_scoped,
    leaf_name,
    split_scoped,
    top_scope,
    within_top,
)
from gzinertia.vocabulary.sdf_version import (
    FLUID_ADDED_MASS_VERSION,
    KNOWN_VERSIONS,
    NEWEST_KNOWN_VERSION,
    SdfVersion,
)

__all__ = [
    "ADDED_MASS_TERM",
    "AIR_DENSITY",
    "DEFAULT_FLUID_DENSITY",
    "FLUID_ADDED_MASS_VERSION",
    "FLUID_DENSITIES",
    "FRESHWATER_DENSITY",
    "GEOMETRY_ELEMENTS",
    "KNOWN_VERSIONS",
    "NEWEST_KNOWN_VERSION",
    "SCOPE_SEPARATOR",
    "SEAWATER_DENSITY",
    "UUV_PLUGIN_FLUID_DENSITY",
    "WATER_VISCOSITY",
    "FluidName",
    "GeometryElement",
    "SdfVersion",
    "applies_added_mass",
    "density_of",
    "enclosing_scopes",
    "join_scoped",
    "leaf_name",
    "split_scoped",
    "top_scope",
    "within_top",
]
