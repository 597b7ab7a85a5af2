"""Reading numbers, vectors and poses out of SDFormat elements, with errors naming file and line."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.rotation import Pose, rotation_from_quaternion_xyzw, rotation_from_rpy
from gzinertia.sdf.xml import child, line_of

#: Largest magnitude accepted for any number. Far beyond any physical mass (kg), length (m) or
#: inertia (kg·m²), and small enough that products and sums of a few of them stay finite in
#: float64, so no computation downstream overflows to inf or NaN.
MAX_MAGNITUDE = 1e100


def text_of(elem: etree._Element) -> str:
    return (elem.text or "").strip()


def parse_floats(elem: etree._Element, file: str, count: int | None = None) -> list[float]:
    """The whitespace-separated finite numbers of ``elem`` (exactly ``count`` when given)."""
    words = text_of(elem).split()
    tag = elem.tag
    if count is not None and len(words) != count:
        raise SdfError(
            file,
            line_of(elem),
            f"<{tag}> needs {count} numbers, got {len(words)}: {text_of(elem)!r}",
        )
    try:
        values = [float(w) for w in words]
        if all(-MAX_MAGNITUDE <= v <= MAX_MAGNITUDE for v in values):  # False for NaN too
            return values
    except ValueError:
        pass
    for w in words:  # name the first bad word
        try:
            v = float(w)
        except ValueError:
            raise SdfError(file, line_of(elem), f"<{tag}> value {w!r} is not a number") from None
        if not math.isfinite(v):
            raise SdfError(file, line_of(elem), f"<{tag}> value {w!r} is not finite")
        if abs(v) > MAX_MAGNITUDE:
            limit = f"|x| > {MAX_MAGNITUDE:g}"
            raise SdfError(file, line_of(elem), f"<{tag}> value {w!r} is out of range ({limit})")
    raise AssertionError("unreachable: every word parsed and is in range")


def parse_float(elem: etree._Element, file: str) -> float:
    return parse_floats(elem, file, 1)[0]


def child_float(parent: etree._Element, tag: str, file: str, default: float) -> float:
    """``<tag>`` under ``parent`` as a number, or ``default`` when absent."""
    c = child(parent, tag)
    return default if c is None else parse_float(c, file)


def parse_bool(elem: etree._Element, file: str) -> bool:
    t = text_of(elem).lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise SdfError(file, line_of(elem), f"<{elem.tag}> value {t!r} is not a boolean")


def attr_bool(elem: etree._Element, name: str, file: str, default: bool = False) -> bool:
    value = elem.get(name)
    if value is None:
        return default
    v = value.strip().lower()
    if v in ("true", "1"):
        return True
    if v in ("false", "0"):
        return False
    raise SdfError(file, line_of(elem), f"attribute {name}={value!r} is not a boolean")


@dataclass(frozen=True)
class PoseSpec:
    """A ``<pose>`` as written: the transform, the frame it is relative to ('' = the default)."""

    X: Pose
    relative_to: str
    line: int


def parse_pose(elem: etree._Element, file: str) -> PoseSpec:
    """A ``<pose>`` element: ``x y z roll pitch yaw`` (radians, or degrees with ``degrees="true"``)
    or ``x y z qx qy qz qw`` with ``rotation_format="quat_xyzw"``. Empty text is the identity."""
    fmt = (elem.get("rotation_format") or "euler_rpy").strip()
    degrees = attr_bool(elem, "degrees", file)
    words = text_of(elem).split()
    line = line_of(elem)
    relative_to = (elem.get("relative_to") or "").strip()
    if not words:
        return PoseSpec(Pose(), relative_to, line)
    if fmt == "euler_rpy":
        v = parse_floats(elem, file, 6)
        rpy = np.radians(v[3:]) if degrees else np.asarray(v[3:])
        X = Pose(np.asarray(v[:3]), rotation_from_rpy(*rpy))
    elif fmt == "quat_xyzw":
        v = parse_floats(elem, file, 7)
        if degrees:
            raise SdfError(
                file, line, 'degrees="true" does not apply to rotation_format="quat_xyzw"'
            )
        try:
            R = rotation_from_quaternion_xyzw(*v[3:])
        except ValueError as exc:
            raise SdfError(file, line, f"<pose> {exc}") from None
        X = Pose(np.asarray(v[:3]), R)
    else:
        raise SdfError(
            file, line, f"<pose> rotation_format={fmt!r} is not one of 'euler_rpy', 'quat_xyzw'"
        )
    return PoseSpec(X, relative_to, line)


def child_pose(parent: etree._Element, file: str) -> PoseSpec | None:
    """The first ``<pose>`` child of ``parent``, or ``None``."""
    p = child(parent, "pose")
    return None if p is None else parse_pose(p, file)
