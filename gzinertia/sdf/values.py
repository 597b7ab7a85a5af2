"""Reading numbers, vectors and poses out of SDFormat elements, with errors naming file and line."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.numbers import (
    DBL_MIN,
    LIBSDFORMAT,
    MAX_MAGNITUDE,
    NumberError,
    plain_zero,
    read_number,
)
from gzinertia.sdf.xml import child, line_of
from gzinertia.spatial.rotation import (
    IDENTITY_POSE,
    Pose,
    rotation_from_quaternion_xyzw,
    rotation_from_rpy,
)

__all__ = [
    "MAX_MAGNITUDE",
    "PoseSpec",
    "attr_bool",
    "child_float",
    "child_pose",
    "parse_bool",
    "parse_float",
    "parse_floats",
    "parse_pose",
    "text_of",
]


def text_of(elem: etree._Element) -> str:
    """The element's text, stripped (``""`` when empty)."""
    return (elem.text or "").strip()


_ASCII_SPACE = r"[ \t\n\r\f\v]+"


def _words(elem: etree._Element) -> list[str]:
    """The element's text split at ASCII white space (the only white space libsdformat skips;
    other Unicode spaces stay in a word, which is then no number)."""
    raw = elem.text or ""
    if raw.isascii():
        return raw.split()
    return [w for w in re.split(_ASCII_SPACE, raw) if w]


def _bad_word(elem: etree._Element, file: str, exc: NumberError) -> SdfError:
    """The error for a word of ``elem`` that is not an acceptable number."""
    return SdfError(file, line_of(elem), f"<{elem.tag}> value {exc}")


#: A text at most this long whose words ``float()`` reads, with no ``e``/``E`` (no exponent) and no
#: ``n``/``N`` (no ``inf``, ``infinity``, ``nan``), holds only plain decimals of at most this many
#: characters: each is a zero strtod reads as zero (an underflow takes over 300 digits) or has a
#: magnitude within [1e-88, 1e90], a normal double within ``±MAX_MAGNITUDE``.
_SHORT_TEXT = 90


def parse_floats(elem: etree._Element, file: str, count: int | None = None) -> list[float]:
    """The whitespace-separated finite numbers of ``elem`` (exactly ``count`` when given), read
    as libsdformat reads them (:func:`gzinertia.numbers.read_number`), within
    ``±MAX_MAGNITUDE``; anything else is an error naming the word, file and line."""
    text = elem.text or ""
    if text.isascii() and "_" not in text:  # then Python's float() reads as strtod does
        words = text.split()
        if count is None or len(words) == count:
            try:
                values = list(map(float, words))
            except ValueError:  # hexadecimal, nan(...), words: the slow path names the culprit
                pass
            else:
                if len(text) <= _SHORT_TEXT and not (
                    "e" in text or "E" in text or "n" in text or "N" in text
                ):
                    return values
                for v, w in zip(values, words, strict=True):
                    if not DBL_MIN <= abs(v) <= MAX_MAGNITUDE and not (v == 0.0 and plain_zero(w)):
                        break  # out of range, subnormal, NaN, or a zero that may underflow
                else:
                    return values
    return _parse_floats_exactly(elem, file, count)


def _parse_floats_exactly(
    elem: etree._Element, file: str, count: int | None = None
) -> list[float]:
    """:func:`parse_floats` word by word through :func:`gzinertia.numbers.read_number` (the
    reference semantics; :func:`parse_floats` takes a shortcut for plain decimal words and comes
    here otherwise)."""
    words = _words(elem)
    if count is not None and len(words) != count:
        raise SdfError(
            file,
            line_of(elem),
            f"<{elem.tag}> needs {count} numbers, got {len(words)}: {text_of(elem)!r}",
        )
    values = []
    for w in words:
        try:
            values.append(read_number(w, LIBSDFORMAT))
        except NumberError as exc:
            raise _bad_word(elem, file, exc) from None
    return values


def parse_float(elem: etree._Element, file: str) -> float:
    """The element's text as one number, read as libsdformat reads it (:func:`parse_floats`)."""
    text = elem.text
    if text is not None and text.isascii() and "_" not in text:
        try:
            v = float(text)  # strips ASCII white space as str.split() does; "1 2" is refused
        except ValueError:
            pass
        else:
            if DBL_MIN <= abs(v) <= MAX_MAGNITUDE or (v == 0.0 and plain_zero(text)):
                return v
    return _parse_floats_exactly(elem, file, 1)[0]


def child_float(parent: etree._Element, tag: str, file: str, default: float) -> float:
    """``<tag>`` under ``parent`` as a number, or ``default`` when absent."""
    c = child(parent, tag)
    return default if c is None else parse_float(c, file)


def parse_bool(elem: etree._Element, file: str) -> bool:
    """``true``/``1`` or ``false``/``0`` (case-insensitive); an :class:`SdfError` otherwise."""
    t = text_of(elem).lower()
    if t in ("true", "1"):
        return True
    if t in ("false", "0"):
        return False
    raise SdfError(file, line_of(elem), f"<{elem.tag}> value {t!r} is not a boolean")


def attr_bool(elem: etree._Element, name: str, file: str, default: bool = False) -> bool:
    """Attribute ``name`` as a boolean like :func:`parse_bool` (``default`` when absent)."""
    value = elem.get(name)
    if value is None:
        return default
    v = value.strip().lower()
    if v in ("true", "1"):
        return True
    if v in ("false", "0"):
        return False
    raise SdfError(file, line_of(elem), f"attribute {name}={value!r} is not a boolean")


class PoseSpec(NamedTuple):
    """A ``<pose>`` as written: the transform, the frame it is relative to ('' = the default);
    an immutable named tuple (one is built per pose element: half a frozen dataclass's cost)."""

    X: Pose
    relative_to: str
    line: int


def parse_pose(elem: etree._Element, file: str) -> PoseSpec:
    """A ``<pose>`` element: ``x y z roll pitch yaw`` (radians, or degrees with ``degrees="true"``)
    or ``x y z qx qy qz qw`` with ``rotation_format="quat_xyzw"``. Empty text is the identity."""
    fmt = (elem.get("rotation_format") or "euler_rpy").strip()
    degrees = attr_bool(elem, "degrees", file)
    line = line_of(elem)
    relative_to = (elem.get("relative_to") or "").strip()
    if not (elem.text or "").strip():
        return PoseSpec(IDENTITY_POSE, relative_to, line)
    if fmt == "euler_rpy":
        v = parse_floats(elem, file, 6)
        rpy = np.radians(v[3:]) if degrees else v[3:]
        X = Pose.adopt(np.array(v[:3]), rotation_from_rpy(*rpy))
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
