"""The settings of a boundary-element solve from a caller's values (:func:`bem_settings`, what
:func:`gzinertia.addmass_bem` and ``gzinertia addmass --bem`` build), each refused value a
:class:`~gzinertia.errors.SettingError` naming its setting.

Floor: the edits (beside :mod:`gzinertia.edit.addmass_bem`, whose settings it builds).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from gzinertia.edit.addmass_bem import BemSettings
from gzinertia.errors import SettingError
from gzinertia.physics.bem import QUALITY_PANELS
from gzinertia.physics.free_surface import require_free_surface
from gzinertia.vocabulary.fluids import check_fluid
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = ["bem_settings", "waterline_height"]


def waterline_height(value: float | str | None) -> float | Literal["auto"] | None:
    """A free surface's height z in the world frame, m: a finite number (or its text),
    ``"auto"`` (the floating draft, any case) or ``None`` (no free surface)."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    try:
        z = float(value)
    except ValueError:
        z = math.nan
    if not math.isfinite(z):
        raise SettingError("waterline",
                           "{waterline} must be a finite height in metres or auto, not {value!r}",
                           value=value)
    return z


def bem_settings(
    density: float,
    *,
    panel_size: float | None = None,
    quality: str = "default",
    shapes: Sequence[str] | None = None,
    element: GeometryElement = "collision",
    cache: bool = True,
    waterline: float | str | None = None,
    depth: float | None = None,
    frequency: str | None = None,
    together: bool = False,
) -> BemSettings:
    """The settings of a boundary-element solve (:func:`gzinertia.addmass_bem`, ``gzinertia
    addmass --bem``), each refused value a :class:`SettingError`: ``density`` (kg/m³),
    ``panel_size`` (m) or ``quality``, the ``shapes`` of ``element`` to mesh (``None``: all),
    a free surface at ``waterline`` (see :func:`waterline_height`) over water ``depth`` deep
    (m; ``None``: deep) at the ``frequency`` limit ``"zero"`` (default) or ``"infinite"``."""
    level = next((q for q in QUALITY_PANELS if q == quality), None)
    if level is None:
        raise SettingError("quality", "{quality} must be one of {names}, not {value!r}",
                           names=", ".join(QUALITY_PANELS), value=quality)
    if panel_size is not None and not 0.0 < panel_size < math.inf:
        raise SettingError("panel_size",
                           "{panel_size} must be a positive length in metres, not {value!r}",
                           value=panel_size)
    if waterline is None and depth is not None:
        raise SettingError("depth", "{depth} goes with {waterline}")
    surface = waterline_height(waterline)
    if depth is not None and not depth > 0.0:
        raise SettingError("depth", "{depth} must be a positive length in metres, not {value!r}",
                           value=depth)
    if surface is None and frequency is not None:
        raise SettingError("frequency", "{frequency} goes with {waterline}")
    limit = (frequency or "zero").strip().lower()
    deep = math.inf if depth is None else depth
    if surface is not None:
        require_free_surface(deep, limit)
    check_fluid(density, None)
    return BemSettings(
        density, panel_size, level, None if shapes is None else tuple(shapes), cache, surface,
        deep, "infinite" if limit == "infinite" else "zero", together, element,
    )
