"""How the audit reads and checks one setting's value, from a settings file or the command line:
each parser returns the value or raises a :class:`ConfigError` naming where it was written
(file and key, or the option), the value shown escaped and cut short."""

from __future__ import annotations

import math
import reprlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeVar

from gzinertia.audit.findings import SEVERITY_RANK, Severity
from gzinertia.checks.tolerance import TOLERANCES, Tolerance
from gzinertia.errors import GzInertiaError
from gzinertia.gazebo.releases import ENGINES, RELEASES
from gzinertia.gazebo.target import Target, engine_named, release_named
from gzinertia.physics.mesh_fallback import HULL_CHOICES, HullChoice
from gzinertia.wording import visible

_Choice = TypeVar("_Choice", bound=str)

__all__ = [
    "ConfigError",
    "check_codes",
    "key_part",
    "parse_density",
    "parse_fraction",
    "parse_hull",
    "parse_severity",
    "parse_target_name",
    "parse_tolerance",
    "parse_xacro_args_table",
    "shown_path",
    "shown_value",
    "split_codes",
    "string_list",
    "with_target",
]


class ConfigError(GzInertiaError):
    """A configuration file or option the audit cannot use."""


def shown_value(value: object) -> str:
    """``value`` as ``repr`` writes it (control characters escaped), cut short: a settings
    file may hold a string of a megabyte or lists nested 32 deep, and an error is one line."""
    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxother = 3, 80, 80
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 6
    return short.repr(value)


def key_part(name: str) -> str:
    """A key or glob from a settings file as an error names it: control characters escaped
    (:func:`~gzinertia.wording.visible`), cut short."""
    if name.isprintable() and len(name) <= 80:
        return name

    shown = visible(name)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def shown_path(path: str | Path) -> str:
    """A settings file's path as errors and reports name it (:func:`visible`)."""
    text = str(path)
    if text.isprintable():
        return text

    return visible(text)


def check_codes(patterns: Iterable[str], known: Iterable[str], where: str) -> tuple[str, ...]:
    """``patterns`` upper-cased; each must be ``ALL`` or a prefix of at least one known code."""
    known_codes = sorted(known)
    out = []
    for raw in patterns:
        code = raw.strip().upper()
        if not code:
            continue
        if code != "ALL" and not any(k.startswith(code) for k in known_codes):
            raise ConfigError(
                f"{where}: unknown rule code {shown_value(raw)} (known: {', '.join(known_codes)}, "
                "or a prefix such as GZI2)"
            )
        out.append(code)
    return tuple(out)


def split_codes(text: str) -> list[str]:
    """``"GZI101, GZI2"`` → ``["GZI101", "GZI2"]`` (commas or spaces)."""
    return [p for p in text.replace(",", " ").split() if p]


def string_list(value: object, key: str, where: str) -> list[str]:
    """A setting's list of strings (a string: its codes, :func:`split_codes`)."""
    if isinstance(value, str):
        return split_codes(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [str(v) for v in value]
    raise ConfigError(f"{where}: {key} must be a list of strings, not {shown_value(value)}")


def parse_severity(value: object, where: str) -> Severity:
    """``fail-on`` as a :data:`Severity`; a :class:`ConfigError` naming ``where`` otherwise."""
    return _one_of(value, tuple(SEVERITY_RANK), f"{where}: fail-on must be error, warning or info")


def parse_density(value: object, where: str) -> float:
    """``density`` (kg/m³), a finite positive number; a :class:`ConfigError` naming ``where``
    otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"{where}: density must be a number of kg/m^3, not {shown_value(value)}")
    density = float(value)
    if not (math.isfinite(density) and density > 0.0):
        raise ConfigError(
            f"{where}: density must be a positive number of kg/m^3, not {shown_value(value)}"
        )
    return density


def parse_fraction(value: object, where: str) -> float:
    """``net-buoyancy``: a fraction of the weight, a finite number >= 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(
            f"{where}: net-buoyancy must be a fraction of the weight, not {shown_value(value)}"
        )
    fraction = float(value)
    if not (math.isfinite(fraction) and fraction >= 0.0):
        raise ConfigError(
            f"{where}: net-buoyancy must be a finite number >= 0, not {shown_value(value)}"
        )
    return fraction


def parse_xacro_args_table(
    value: object, where: str
) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """``xacro-args``: a table of ``glob = { name = value, ... }`` (strings, numbers or
    booleans, the last written ``true``/``false`` as xacro spells them)."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a table of glob = {{ name = \"value\" }}")
    out = []
    for glob, args in value.items():
        if not isinstance(args, Mapping):
            raise ConfigError(f"{where}.{key_part(glob)} must be a table of name = \"value\", "
                              f"not {shown_value(args)}")
        pairs = []
        for name, arg in args.items():
            if isinstance(arg, bool):
                text = "true" if arg else "false"
            elif isinstance(arg, (str, int, float)):
                text = str(arg)
            else:
                raise ConfigError(f"{where}.{key_part(glob)}.{key_part(name)} must be a string, "
                                  f"number or boolean, not {shown_value(arg)}")
            if not str(name).strip():
                raise ConfigError(f"{where}.{key_part(glob)}: an argument name is empty")
            pairs.append((str(name), text))
        out.append((str(glob), tuple(pairs)))
    return tuple(out)


def parse_hull(value: object, where: str) -> HullChoice:
    """``hull`` (``none``, ``convex`` or ``wrap``); a :class:`ConfigError` naming ``where``
    otherwise."""
    return _one_of(value, HULL_CHOICES, f"{where}: hull must be none, convex or wrap")


def parse_tolerance(value: object, where: str) -> Tolerance:
    """``tolerance`` (``gz`` or ``drake``); a :class:`ConfigError` naming ``where`` otherwise."""
    return _one_of(value, TOLERANCES, f"{where}: tolerance must be gz or drake")


def _one_of(value: object, choices: tuple[_Choice, ...], refusal: str) -> _Choice:
    """The choice equal to ``value``; else a :class:`ConfigError`: ``refusal``, then the value
    as it was written."""
    for choice in choices:
        if choice == value:
            return choice
    raise ConfigError(f"{refusal}, not {shown_value(value)}")


def parse_target_name(key: str, value: object, where: str) -> str:
    """``gazebo`` (a release codename) or ``engine`` (a gz-physics engine); a
    :class:`ConfigError` naming ``where`` and the known names otherwise."""
    named = release_named if key == "gazebo" else engine_named
    known = RELEASES if key == "gazebo" else ENGINES
    found = named(value) if isinstance(value, str) else None
    if found is None:
        raise ConfigError(f"{where}: {key} must be one of {', '.join(known)}, "
                          f"not {shown_value(value)}")
    return found


def with_target(target: Target, release: str | None, engine: str | None, origin: str) -> Target:
    """``target`` with the ``release`` and ``engine`` named (each ``None``: kept) from
    ``origin``; a :class:`ConfigError` when the engine is not in the release's gz-physics."""
    chosen = target.with_names(release, engine, origin)
    missing = chosen.engine_missing()
    if missing is not None:
        raise ConfigError(f"{origin}: {missing}")
    return chosen
