"""The reader's shortcut for plain decimal numbers (:func:`gzinertia.sdf.values.parse_floats`,
:func:`~gzinertia.sdf.values.parse_float`) reads every text exactly as the word-by-word path
through :func:`~gzinertia.sdf.values.c_double` (strtod's semantics, which
``tests/test_hostile_files.py::test_numbers_are_read_as_libsdformat_reads_them`` checks against
libsdformat): the same values, to the bit and the sign of zero, or the same error."""

from __future__ import annotations

import math
import struct

from hypothesis import example, given
from hypothesis import strategies as st
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.sdf.values import _parse_floats_exactly, parse_float, parse_floats

#: Characters numbers (and near-numbers) are made of, with the white space XML allows.
_ALPHABET = "0123456789" * 3 + ".+-eExXpPinfatyINF_()" + " \t\n"


def _spelled(x: float, how: int) -> str:
    """``x`` written as an author or a generator may write it."""
    return (repr(x), f"{x:e}", f"{x:.3g}", f"{x:f}", f"{x:.17E}", f"{x:+.1e}")[how]


_FINITE_WORDS = st.builds(
    _spelled,
    st.floats(allow_nan=False, allow_infinity=False)
    | st.floats(min_value=-1e-300, max_value=1e-300)
    | st.floats(min_value=-1e120, max_value=1e120),
    st.integers(0, 5),
)
_WORDS = _FINITE_WORDS | st.text(_ALPHABET, min_size=1, max_size=12) | st.sampled_from(
    ["0", "-0", "0.000", "+.0", "0e5", "1e-400", "0." + "0" * 400 + "1", "4.9e-324", "1e-310",
     "2.2250738585072014e-308", "1e100", "1.0000000000000001e100", "inf", "nan", "0x1p3",
     "nan(1)", "1_0", "١٢", "1\u00a0", "\u00a01"]
)


def _bits(values: list[float]) -> list[bytes]:
    return [struct.pack("<d", v) for v in values]


def _outcome(read: object, elem: etree._Element, *args: object) -> list[bytes] | str:
    """The values read, bit for bit, or the error message."""
    try:
        result = read(elem, "f.sdf", *args)  # type: ignore[operator]
    except SdfError as exc:
        return str(exc)
    return _bits(result if isinstance(result, list) else [result])


@given(st.lists(_WORDS, min_size=0, max_size=7), st.sampled_from([" ", "\n  ", "\t"]),
       st.sampled_from([None, 1, 3, 6]))
@example(["0." + "0" * 400 + "1"], " ", 1)  # underflows to 0.0 without an exponent: refused
@example(["0", "0.0", "-0", "1e-400", "0", "0"], " ", 6)  # a zero with an exponent underflows
@example(["1", "2", "3"], " ", 6)  # the wrong count: the same message
def test_parse_floats_shortcut_equals_word_by_word(
    words: list[str], sep: str, count: int | None
) -> None:
    elem = etree.Element("pose")
    elem.text = f" {sep.join(words)}{sep}"
    ours = _outcome(parse_floats, elem, count)
    assert ours == _outcome(_parse_floats_exactly, elem, count)
    if not isinstance(ours, str):  # every value read is finite and within the range
        assert all(math.isfinite(v) for v in struct.unpack(f"<{len(ours)}d", b"".join(ours)))


@given(_WORDS, st.sampled_from(["", " ", "\n    "]))
@example("0." + "0" * 400 + "1", "")
@example("-0.0", "\n")
def test_parse_float_shortcut_equals_word_by_word(word: str, pad: str) -> None:
    elem = etree.Element("mass")
    elem.text = f"{pad}{word}{pad}"
    assert _outcome(parse_float, elem) == _outcome(_parse_floats_exactly, elem, 1)
