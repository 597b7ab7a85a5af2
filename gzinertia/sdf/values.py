"""Reading numbers, vectors and poses out of SDFormat elements, with errors naming file and line."""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.physics.rotation import (
    IDENTITY_POSE,
    Pose,
    rotation_from_quaternion_xyzw,
    rotation_from_rpy,
)
from gzinertia.sdf.xml import child, line_of

__all__ = [
    "MAX_MAGNITUDE",
    "PoseSpec",
    "attr_bool",
    "c_double",
    "child_float",
    "child_pose",
    "parse_bool",
    "parse_float",
    "parse_floats",
    "parse_pose",
    "text_of",
]

#: Largest magnitude accepted for any number. Far beyond any physical mass (kg), length (m) or
#: inertia (kg·m²), and small enough that products and sums of a few of them stay finite in
#: float64, so no computation downstream overflows to inf or NaN.
MAX_MAGNITUDE = 1e100


def text_of(elem: etree._Element) -> str:
    """The element's text, stripped (``""`` when empty)."""
    return (elem.text or "").strip()


# The patterns below serve only words float() does not read as strtod does: kept as text,
# compiled on first use by re's cache (compiling them costs every command's start-up).

#: Smallest normal double: libsdformat (``std::stod``) refuses a value that underflows below it.
_DBL_MIN = 2.2250738585072014e-308
#: The whole of a number as C's ``strtod`` reads it (what libsdformat uses), ASCII only:
#: decimal, hexadecimal (``0x1.8p3``), ``inf``/``infinity``, ``nan``/``nan(chars)``.
_C_NUMBER = (
    r"[+-]?(?:"
    r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
    r"|(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)"
    r")"
)
_ASCII_SPACE = r"[ \t\n\r\f\v]+"
_HEX_PREFIX = r"[+-]?0[xX]"


def _words(elem: etree._Element) -> list[str]:
    """The element's text split at ASCII white space (the only white space libsdformat skips;
    other Unicode spaces stay in a word, which is then no number)."""
    raw = elem.text or ""
    if raw.isascii():
        return raw.split()
    return [w for w in re.split(_ASCII_SPACE, raw) if w]


def c_double(word: str) -> float | None:
    """The value libsdformat (``std::stod``, i.e. C ``strtod``) reads from ``word`` when it reads
    *all* of it, else ``None``: ``1_000``, ``1abc``, ``1,5``, full-width or Arabic-Indic digits are
    not numbers (libsdformat reads only a leading part of some of them, or refuses them).
    Overflow gives ±inf and underflow below the smallest normal double gives NaN (libsdformat
    refuses both); callers reject non-finite values."""
    if not re.fullmatch(_C_NUMBER, word):
        return None
    try:
        if re.match(_HEX_PREFIX, word):
            value = float.fromhex(word)
            mantissa = word.split("0", 1)[1][1:].split("p")[0].split("P")[0]
        elif word.lstrip("+-")[:1].lower() in ("i", "n"):
            return float(word.split("(", 1)[0])
        else:
            value = float(word)
            mantissa = word.split("e")[0].split("E")[0]
    except OverflowError:
        return math.inf if not word.startswith("-") else -math.inf
    if abs(value) < _DBL_MIN and any(c not in "0.+-" for c in mantissa):
        return math.nan  # strtod's ERANGE: a non-zero number that underflows
    return value


def _leading_number(word: str) -> str:
    """The longest start of ``word`` (at most 64 characters) that is a whole C number."""
    for end in range(min(len(word), 64), 0, -1):
        if re.fullmatch(_C_NUMBER, word[:end]):
            return word[:end]
    return ""


def _bad_word(elem: etree._Element, file: str, w: str) -> SdfError:
    """The error for the first word of ``elem`` that is not an acceptable number."""
    tag, line = elem.tag, line_of(elem)
    v = c_double(w)
    if v is None:
        lead = _leading_number(w)
        hint = f" (libsdformat would read only its start, {lead!r})" if lead else ""
        return SdfError(file, line, f"<{tag}> value {w!r} is not a number{hint}")
    if math.isnan(v) and w.lstrip("+-")[:1].lower() != "n":
        return SdfError(
            file, line, f"<{tag}> value {w!r} underflows (libsdformat refuses it: below 2.2e-308)"
        )
    if not math.isfinite(v):
        return SdfError(file, line, f"<{tag}> value {w!r} is not finite")
    limit = f"|x| > {MAX_MAGNITUDE:g}"
    return SdfError(file, line, f"<{tag}> value {w!r} is out of range ({limit})")


def _acceptable(v: float | None) -> bool:
    return v is not None and -MAX_MAGNITUDE <= v <= MAX_MAGNITUDE  # False for NaN too


#: A text at most this long whose words ``float()`` reads, with no ``e``/``E`` (no exponent) and no
#: ``n``/``N`` (no ``inf``, ``infinity``, ``nan``), holds only plain decimals of at most this many
#: characters: each is a zero strtod reads as zero (an underflow takes over 300 digits) or has a
#: magnitude within [1e-88, 1e90], a normal double within ``±MAX_MAGNITUDE``.
_SHORT_TEXT = 90


def _plain_zero(v: float, word: str) -> bool:
    """Whether ``v = float(word)`` (an ASCII word without ``_``, outside the normal range) is a
    zero written without an exponent or any non-zero digit, i.e. a zero strtod reads as such
    (``1e-400`` and ``0.(400 zeros)1`` underflow to 0.0, which libsdformat refuses:
    :func:`c_double` decides those)."""
    return v == 0.0 and not word.strip().strip("+-.0")


def parse_floats(elem: etree._Element, file: str, count: int | None = None) -> list[float]:
    """The whitespace-separated finite numbers of ``elem`` (exactly ``count`` when given), read
    as libsdformat reads them (:func:`c_double`), within ``±MAX_MAGNITUDE``; anything else is
    an error naming the word, file and line."""
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
                    if not _DBL_MIN <= abs(v) <= MAX_MAGNITUDE and not _plain_zero(v, w):
                        break  # out of range, subnormal, NaN, or a zero that may underflow
                else:
                    return values
    return _parse_floats_exactly(elem, file, count)


def _parse_floats_exactly(
    elem: etree._Element, file: str, count: int | None = None
) -> list[float]:
    """:func:`parse_floats` word by word through :func:`c_double` (the reference semantics;
    :func:`parse_floats` takes a shortcut for plain decimal words and comes here otherwise)."""
    words = _words(elem)
    if count is not None and len(words) != count:
        raise SdfError(
            file,
            line_of(elem),
            f"<{elem.tag}> needs {count} numbers, got {len(words)}: {text_of(elem)!r}",
        )
    parsed = [c_double(w) for w in words]
    for w, v in zip(words, parsed, strict=True):
        if not _acceptable(v):
            raise _bad_word(elem, file, w)
    return [v for v in parsed if v is not None]


def parse_float(elem: etree._Element, file: str) -> float:
    """The element's text as one number, read as libsdformat reads it (:func:`parse_floats`)."""
    text = elem.text
    if text is not None and text.isascii() and "_" not in text:
        try:
            v = float(text)  # strips ASCII white space as str.split() does; "1 2" is refused
        except ValueError:
            pass
        else:
            if _DBL_MIN <= abs(v) <= MAX_MAGNITUDE or (
                v == 0.0 and not text.strip().strip("+-.0")  # (as _plain_zero, inline)
            ):
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
