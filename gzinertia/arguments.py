"""The public functions' arguments, each checked in one place for the library and the command
line: a refused value raises :class:`~gzinertia.errors.SettingError` carrying the setting's key,
so the library's message names the keyword argument and the command line's the flag.

Floor: beside :mod:`gzinertia.api` (it builds the settings the edits take); imports the
vocabulary (:mod:`gzinertia.vocabulary.fluids`, :mod:`gzinertia.physics.bem`'s qualities and free
surface rules) and :mod:`gzinertia.edit.addmass_bem`'s settings record, lazily where those are
heavy. The command line parses its flags' text into these arguments and checks nothing here.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from gzinertia.errors import SettingError
from gzinertia.vocabulary.fluids import check_fluid, fluid_density
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    from gzinertia.edit.addmass_bem import BemSettings
    from gzinertia.io.limits import ReadLimits

__all__ = [
    "bem_settings", "check_fluid", "docs_base_uri", "ellipsoid_scale", "fluid_density",
    "read_limits", "waterline_height", "worker_count",
]


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
    from gzinertia.edit.addmass_bem import BemSettings
    from gzinertia.physics.bem import QUALITY_PANELS
    from gzinertia.physics.free_surface import require_free_surface

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


def read_limits(max_links: int | None = None,
                max_included_models: int | None = None) -> ReadLimits:
    """The environment's read limits (:meth:`~gzinertia.io.limits.ReadLimits.from_environment`)
    with ``max_links`` (links in one file, included models counted) and ``max_included_models``
    applied when given, each at least 1."""
    from dataclasses import replace

    from gzinertia.io.limits import ReadLimits

    limits = ReadLimits.from_environment()
    for key, value, name in (
        ("max_links_count", max_links, "max_links"),
        ("max_included_models_count", max_included_models, "max_included_models"),
    ):
        if value is not None:
            if value < 1:
                raise SettingError(key, "{" + key + "} must be at least 1, not {value}",
                                   value=value)
            limits = replace(limits, **{name: value})
    return limits


def worker_count(jobs: int | None) -> tuple[int | None, str | None]:
    """The audit's worker processes: ``jobs`` (at least 1) capped to the machine
    (:func:`gzinertia.audit.runner.capped_jobs`), with the note saying so; ``None``: the
    default."""
    if jobs is None:
        return None, None
    if jobs < 1:
        raise SettingError("jobs", "{jobs} must be at least 1, not {value}", value=jobs)
    from gzinertia.audit.runner import capped_jobs

    return capped_jobs(jobs)


def docs_base_uri(docs_url: str | None = None) -> str | None:
    """The absolute URI under which ``docs/rules/CODE.md`` pages are served (ends in ``/``;
    SARIF's ``helpUri``): ``docs_url``, else ``$GZINERTIA_DOCS_URL``, else the ``file://`` URI
    of the source tree when the docs sit next to the code (a checkout), else ``None``."""
    from urllib.parse import urlsplit

    given = docs_url or os.environ.get("GZINERTIA_DOCS_URL") or None
    if given is not None:
        parts = urlsplit(given)
        if not parts.scheme or (parts.scheme != "file" and not parts.netloc):
            where = "{docs_url}" if docs_url else "GZINERTIA_DOCS_URL"
            raise SettingError("docs_url", where + " must be an absolute URL like https://..., "
                               "not {value!r}", value=given)
        return given if given.endswith("/") else given + "/"

    # a checkout (or editable install): the package next to its pyproject.toml and rule pages;
    # an installed package has no docs (site-packages/docs may belong to anything)
    tree = Path(__file__).resolve().parents[1]  # gzinertia/arguments.py: the checkout above
    if (tree / "pyproject.toml").is_file() and (tree / "docs" / "rules" / "GZI101.md").is_file():
        return tree.as_uri() + "/"
    return None


def ellipsoid_scale(value: float | str | None) -> float | None:
    """A factor on every inertia ellipsoid's semi-axes (:func:`gzinertia.report.plot.
    scale_inertia_ellipsoids`): a positive finite number (or its text, read as C reads it);
    ``None`` or ``"auto"``: scaled to the model's extent."""
    from gzinertia.numbers import NumberError, read_number

    if value is None or (isinstance(value, str) and value.strip().lower() == "auto"):
        return None
    why = ""
    try:
        number = read_number(value.strip()) if isinstance(value, str) else float(value)
    except NumberError as exc:
        number, why = math.nan, f" ({exc})"
    if not (math.isfinite(number) and number > 0.0):
        raise SettingError("ellipsoid_scale",
                           "{ellipsoid_scale} must be auto or a positive factor, not {value!r}"
                           "{why}", value=value, why=why)
    return number
