"""Fluid properties: the one table of every fluid density and viscosity gzinertia uses, each
with its source, and how a density is resolved from a number or a fluid's name.

Plain numbers (no NumPy), so that the CLI can list the named fluids in ``--help`` without
importing the numeric core; a refused pair raises :class:`~gzinertia.errors.SettingError`
(the words floor).
"""

from __future__ import annotations

import math
from typing import Final, Literal

from gzinertia.errors import SettingError

__all__ = [
    "AIR_DENSITY", "DEFAULT_FLUID_DENSITY", "FLUID_DENSITIES", "FRESHWATER_DENSITY",
    "SEAWATER_DENSITY", "UUV_PLUGIN_FLUID_DENSITY", "WATER_VISCOSITY", "FluidName", "check_fluid",
    "density_of", "fluid_density",
]

#: Fresh water, kg/m³: 1000, the default ``<uniform_fluid_density>`` of Gazebo's Buoyancy system
#: (gz-sim ``Buoyancy.cc``); fresh water near 4 °C is 999.97 kg/m³.
FRESHWATER_DENSITY: Final[float] = 1000.0
#: Sea water, kg/m³: 1025, the customary mean density of surface sea water (salinity ≈ 35 g/kg,
#: ~15 °C; the usual value in ocean engineering and marine-robot models).
SEAWATER_DENSITY: Final[float] = 1025.0
#: Air, kg/m³: 1.225, dry air at sea level in the ICAO / ISO 2533 International Standard
#: Atmosphere (15 °C, 101 325 Pa).
AIR_DENSITY: Final[float] = 1.225

#: The names of :data:`FLUID_DENSITIES` (the choices of ``--fluid`` and of ``fluid=``).
FluidName = Literal["freshwater", "seawater", "air"]
#: The named fluids of ``--fluid`` (and of the library), kg/m³.
FLUID_DENSITIES: Final[dict[FluidName, float]] = {
    "freshwater": FRESHWATER_DENSITY,
    "seawater": SEAWATER_DENSITY,
    "air": AIR_DENSITY,
}
#: The density the editing commands use when none is given: Gazebo's Buoyancy default.
DEFAULT_FLUID_DENSITY: Final[float] = FRESHWATER_DENSITY

#: Dynamic viscosity of fresh water near 20 °C, Pa·s (1.002e-3 in the IAPWS tables), the default
#: of ``hydro --viscosity`` (MuJoCo's ``<option viscosity>``).
WATER_VISCOSITY: Final[float] = 1.0e-3

#: Sea water as UUV Simulator's underwater-object plugin assumes it when ``<fluid_density>`` is
#: absent, kg/m³: 1028 (``uuv_gazebo_plugins``, ``UnderwaterObjectPlugin.cc``).
UUV_PLUGIN_FLUID_DENSITY: Final[float] = 1028.0

_BY_NAME: Final[dict[str, float]] = {name: rho for name, rho in FLUID_DENSITIES.items()}


def density_of(density: float | None, fluid: FluidName | str | None) -> float:
    """The density, kg/m³, that ``density`` or the named ``fluid`` stands for: the named
    fluid's, else ``density``, else :data:`DEFAULT_FLUID_DENSITY` (checking the pair is
    :func:`check_fluid`'s job; an unknown name raises ``KeyError``)."""
    if fluid is not None:
        return _BY_NAME[fluid]
    return DEFAULT_FLUID_DENSITY if density is None else density


def check_fluid(density: float | None, fluid: str | None,
                error: type[SettingError] = SettingError) -> None:
    """Refuses (``error``, a :class:`SettingError`) a ``density`` and a ``fluid`` given together,
    a density that is not a positive finite number of kg/m³, and a fluid that is not one of
    :data:`~gzinertia.vocabulary.fluids.FLUID_DENSITIES`."""
    if density is not None and fluid is not None:
        raise error("density", "give either {density} or {fluid}, not both")
    if density is not None and not (math.isfinite(density) and density > 0.0):
        raise error("density", "{density} must be a positive number of kg/m^3, not {value!r}",
                    value=density)
    if fluid is not None and fluid not in FLUID_DENSITIES:
        raise error("fluid", "{fluid} must be one of {names}, not {value!r}",
                    names=", ".join(FLUID_DENSITIES), value=fluid)


def fluid_density(density: float | None, fluid: str | None) -> float:
    """The fluid density, kg/m³, of ``density`` or the named ``fluid`` (Gazebo's Buoyancy
    default, fresh water, when neither is given), after :func:`check_fluid`."""
    check_fluid(density, fluid)
    return density_of(density, fluid)
