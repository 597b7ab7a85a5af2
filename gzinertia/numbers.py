"""Numbers read from files: one parser for every format gzinertia reads itself.

A word is a number only when the program that reads the format for Gazebo (or the format's own
reader) would read **all** of it, as the same value. Python's ``float()`` and ``int()`` are not
that rule: they accept ``1_000`` (1000) and full-width or Arabic-Indic digits (``１２``, ``١٢``),
which C's ``strtod`` reads as ``1`` or not at all, so a file could mean 1000 to gzinertia and 1 to
Gazebo. Every number gzinertia reads from a file goes through :func:`read_number` (or
:func:`read_integer`, :func:`c_double`, :func:`dotted_integers`); what differs between formats
is a :class:`Syntax`:

* :data:`LIBSDFORMAT` (SDF, URDF): ``std::stod``, i.e. C's ``strtod``: decimal, hexadecimal
  (``0x1p3``), ``inf``, ``nan``; a value that underflows below the smallest normal double is
  refused (``std::stod`` throws).
* :data:`GZ_COMMON` (COLLADA, and the text meshes trimesh parses): ``strtod`` on decimal words
  (gz-common reads COLLADA's ``<float_array>`` with ``strtod``, ``<unit meter>`` with
  ``std::stod`` and node transforms with C++ streams, which read no hexadecimal); an underflow
  is read as ``strtod`` reads it (0 or a subnormal), as gz-common's ``<float_array>`` keeps it.
* :data:`FORTRAN` (WAMIT's ``.1`` files): a Fortran list-directed ``READ`` (OpenFAST's HydroDyn
  reads them so): decimal with an ``E`` or ``D`` exponent, or an exponent written as a sign
  without a letter (``1.0+03``), as Fortran's ``F`` editing allows; no hexadecimal.
* :data:`DECIMAL` (numbers given on the command line): decimal words ``strtod`` reads whole.

Whatever the syntax, a value that is not finite, or beyond ``±MAX_MAGNITUDE``, is refused:
each refusal is a :class:`NumberError` whose text names the word and what is wrong with it
(callers add the file and line).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "DBL_MIN",
    "DECIMAL",
    "FORTRAN",
    "GZ_COMMON",
    "LIBSDFORMAT",
    "MAX_MAGNITUDE",
    "NumberError",
    "Syntax",
    "c_double",
    "dotted_integers",
    "plain_zero",
    "read_integer",
    "read_number",
]

#: Largest magnitude accepted for any number. Far beyond any physical mass (kg), length (m) or
#: inertia (kg·m²), and small enough that products and sums of a few of them stay finite in
#: float64, so no computation downstream overflows to inf or NaN.
MAX_MAGNITUDE = 1e100
#: Smallest normal double: a non-zero value below it underflows (``strtod`` sets ``ERANGE``).
DBL_MIN = 2.2250738585072014e-308


class Syntax(NamedTuple):
    """How one format's reference reader reads a number (see the module's text)."""

    #: The reader named in messages (``libsdformat would read only its start, '1'``).
    reader: str
    #: Hexadecimal floating point (``0x1.8p3``) is a number.
    hexadecimal: bool = False
    #: Fortran exponents: ``D`` as well as ``E``, or a bare sign (``1.0+03``).
    fortran: bool = False
    #: A value that underflows is read (as 0 or a subnormal) instead of refused.
    underflow: bool = False
    #: The reader reads the leading number of a word and ignores the rest (``strtod``): the
    #: message then says what it would have read.
    prefix: bool = True


LIBSDFORMAT = Syntax("libsdformat", hexadecimal=True)
GZ_COMMON = Syntax("gz-common", underflow=True)
FORTRAN = Syntax("Fortran", fortran=True, underflow=True, prefix=False)
DECIMAL = Syntax("C's strtod")


class NumberError(ValueError):
    """A word that is not an acceptable number: ``str()`` is ``'<word>' <reason>``."""

    def __init__(self, word: str, reason: str) -> None:
        super().__init__(f"{word!r} {reason}")
        self.word = word
        self.reason = reason


# The patterns below serve only words float() does not read as strtod does: kept as text,
# compiled on first use by re's cache (compiling them costs every command's start-up).

#: The whole of a number as C's ``strtod`` reads it, ASCII only: decimal, hexadecimal
#: (``0x1.8p3``), ``inf``/``infinity``, ``nan``/``nan(chars)``.
_C_NUMBER = (
    r"[+-]?(?:"
    r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
    r"|(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)"
    r")"
)
_C_DECIMAL = (
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?))"
)
#: A Fortran real (F editing, list-directed): the exponent is ``E`` or ``D`` with an optional
#: sign, or a sign alone; IEEE ``Inf``/``Infinity``/``NaN`` (Fortran 2003).
_FORTRAN_NUMBER = (
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eEdD][+-]?[0-9]+|[+-][0-9]+)?"
    r"|(?i:inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?))"
)
_HEX_PREFIX = r"[+-]?0[xX]"
_INTEGER = r"[+-]?[0-9]{1,18}"


def plain_zero(word: str) -> bool:
    """Whether ``word`` (ASCII, read as zero) is a zero written without an exponent or any
    non-zero digit, i.e. a zero ``strtod`` reads as such (``1e-400`` and ``0.(400 zeros)1``
    underflow to 0.0 instead)."""
    return not word.strip().strip("+-.0")


def _strtod(word: str) -> tuple[float, bool] | None:
    """``(value, underflowed)`` as C's ``strtod`` reads ``word`` when it reads all of it (a
    word of :data:`_C_NUMBER`), else ``None``. Overflow gives ±inf; ``underflowed`` is
    ``strtod``'s ``ERANGE`` for a non-zero value below the smallest normal double (the value is
    then the correctly rounded subnormal or zero, as glibc returns it)."""
    if not re.fullmatch(_C_NUMBER, word):
        return None
    try:
        if re.match(_HEX_PREFIX, word):
            value = float.fromhex(word)
            mantissa = word.split("0", 1)[1][1:].split("p")[0].split("P")[0]
        elif word.lstrip("+-")[:1].lower() in ("i", "n"):
            return float(word.split("(", 1)[0]), False
        else:
            value = float(word)
            mantissa = word.split("e")[0].split("E")[0]
    except OverflowError:
        return (math.inf if not word.startswith("-") else -math.inf), False
    if not (abs(value) < DBL_MIN and any(c not in "0.+-" for c in mantissa)):
        return value, False
    return value, _exact(word) != value  # glibc: ERANGE when the tiny result is inexact


def _exact(word: str) -> Fraction:
    """The exact value of a finite decimal or hexadecimal C number."""
    if not re.match(_HEX_PREFIX, word):
        return Fraction(word)
    sign = -1 if word.startswith("-") else 1
    digits, _, exponent = word.lstrip("+-")[2:].lower().partition("p")
    whole, _, fraction = digits.partition(".")
    scale = int(exponent or "0") - 4 * len(fraction)
    return sign * Fraction(int(whole + fraction or "0", 16)) * Fraction(2) ** scale


def c_double(word: str) -> float | None:
    """The value libsdformat (``std::stod``, i.e. C ``strtod``) reads from ``word`` when it reads
    *all* of it, else ``None``: ``1_000``, ``1abc``, ``1,5``, full-width or Arabic-Indic digits are
    not numbers (libsdformat reads only a leading part of some of them, or refuses them).
    Overflow gives ±inf and underflow below the smallest normal double gives NaN (libsdformat
    refuses both); callers reject non-finite values."""
    read = _strtod(word)
    if read is None:
        return None
    value, underflowed = read
    return math.nan if underflowed else value


def _leading_number(word: str) -> str:
    """The longest start of ``word`` (at most 64 characters) that is a whole C number."""
    for end in range(min(len(word), 64), 0, -1):
        if re.fullmatch(_C_NUMBER, word[:end]):
            return word[:end]
    return ""


def _fortran_as_c(word: str) -> str | None:
    """A Fortran real spelled as C reads it (``1.0D+03`` and ``1.0+03`` as ``1.0e+03``), or
    ``None`` when Fortran does not read all of ``word``."""
    if not re.fullmatch(_FORTRAN_NUMBER, word):
        return None
    spelled = word.replace("d", "e").replace("D", "e")
    mantissa_end = max(spelled.rfind("+"), spelled.rfind("-"))
    if mantissa_end > 0 and spelled[mantissa_end - 1] not in "eE":
        spelled = spelled[:mantissa_end] + "e" + spelled[mantissa_end:]  # 1.0+03: exponent
    return spelled


def _problem(word: str, syntax: Syntax, limit: float) -> tuple[float | None, str]:
    """The value ``syntax`` reads from ``word`` and ``""``, or ``None`` and why not."""
    spelled: str | None = word
    if syntax.fortran:
        spelled = _fortran_as_c(word) if word.isascii() else None
    elif not syntax.hexadecimal and not re.fullmatch(_C_DECIMAL, word):
        spelled = None
    read = None if spelled is None else _strtod(spelled)
    if read is None:
        if re.match(_HEX_PREFIX, word) and _strtod(word) is not None:
            return None, "is hexadecimal, which is not read here: write it in decimal"
        lead = _leading_number(word) if syntax.prefix else ""
        hint = f" ({syntax.reader} would read only its start, {lead!r})" if lead else ""
        return None, f"is not a number{hint}"
    value, underflowed = read
    if underflowed and not syntax.underflow:
        return None, f"underflows ({syntax.reader} refuses it: below 2.2e-308)"
    if not math.isfinite(value):
        return None, "is not finite"
    if not -limit <= value <= limit:
        return None, f"is out of range (|x| > {limit:g})"
    return value, ""


def read_number(word: str, syntax: Syntax = DECIMAL, limit: float = MAX_MAGNITUDE) -> float:
    """``word`` (no surrounding white space) read as ``syntax``'s reader reads it, finite and
    within ``±limit`` (every number read from a file: ``±MAX_MAGNITUDE``); a
    :class:`NumberError` naming the word otherwise."""
    if word.isascii() and "_" not in word:  # then Python's float() reads as strtod does
        try:
            v = float(word)
        except ValueError:  # hexadecimal, Fortran exponents, nan(...), words: the slow path
            pass
        else:
            if DBL_MIN <= abs(v) <= limit or (v == 0.0 and plain_zero(word)):
                return v
    value, reason = _problem(word, syntax, limit)
    if value is None:
        raise NumberError(word, reason)
    return value


def read_integer(word: str) -> int:
    """``word`` as a whole number in ASCII decimal digits (an optional sign, at most 18
    digits), as ``strtol``/``std::stoi`` read all of it; a :class:`NumberError` otherwise
    (``int()`` would take ``1_0`` as 10 and ``١`` as 1)."""
    if not re.fullmatch(_INTEGER, word):
        too_long = re.fullmatch(r"[+-]?[0-9]+", word) is not None
        raise NumberError(word, "is out of range" if too_long else "is not a whole number")
    return int(word)


def dotted_integers(text: str) -> tuple[int, ...] | None:
    """``"1.10"`` as ``(1, 10)``: ASCII decimal digits between dots (a version), else
    ``None``."""
    parts = text.strip().split(".")
    if not all(re.fullmatch(r"[0-9]{1,9}", p) for p in parts):
        return None
    return tuple(int(p) for p in parts)
