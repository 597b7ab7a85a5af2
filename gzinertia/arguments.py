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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import gzinertia
import gzinertia.io
from gzinertia.audit.jobs import capped_jobs
from gzinertia.errors import SettingError
from gzinertia.vocabulary.fluids import check_fluid, fluid_density

if TYPE_CHECKING:
    import gzinertia.io.limits
    import gzinertia.numbers
    from gzinertia.io.limits import ReadLimits

__all__ = [
    "check_fluid", "docs_base_uri", "ellipsoid_scale", "fluid_density", "read_limits",
    "worker_count",
]


def read_limits(max_links: int | None = None,
                max_included_models: int | None = None) -> ReadLimits:
    """The environment's read limits (:meth:`~gzinertia.io.limits.ReadLimits.from_environment`)
    with ``max_links`` (links in one file, included models counted) and ``max_included_models``
    applied when given, each at least 1."""
    limits = gzinertia.io.limits.ReadLimits.from_environment()
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

    return capped_jobs(jobs)


def docs_base_uri(docs_url: str | None = None) -> str | None:
    """The absolute URI under which ``docs/rules/CODE.md`` pages are served (ends in ``/``;
    SARIF's ``helpUri``): ``docs_url``, else ``$GZINERTIA_DOCS_URL``, else the ``file://`` URI
    of the source tree when the docs sit next to the code (a checkout), else ``None``."""
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
    if value is None or (isinstance(value, str) and value.strip().lower() == "auto"):
        return None
    numbers = gzinertia.numbers  # the C number reader (decimal, fractions): loaded on use
    why = ""
    try:
        number = numbers.read_number(value.strip()) if isinstance(value, str) else float(value)
    except numbers.NumberError as exc:
        number, why = math.nan, f" ({exc})"
    if not (math.isfinite(number) and number > 0.0):
        raise SettingError("ellipsoid_scale",
                           "{ellipsoid_scale} must be auto or a positive factor, not {value!r}"
                           "{why}", value=value, why=why)
    return number
