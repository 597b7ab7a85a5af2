"""The audit's indented JSON writer is the standard library's, byte for byte.

``gzinertia.report.json_text.dumps_indented`` writes what ``json.dumps(value, indent=2,
allow_nan=False)`` writes (the oracle), faster; ``json_safe``'s fast path for plain types
gives what its general path gives. Both are compared on arbitrary JSON-like trees, with the
types the fast paths leave to the general code mixed in (subclasses, non-string keys,
non-finite floats, read-only mappings).
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gzinertia.report.json_text import dumps_indented, json_safe


class _Code(enum.IntEnum):
    ONE = 1


class _Text(str):
    pass


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),  # any code point: quoting is the standard library's own
)
_odd = st.sampled_from([_Code.ONE, _Text("sub"), np.float64(0.1), np.float64("inf")])
_trees = st.recursive(
    st.one_of(_scalars, _odd),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
        st.dictionaries(st.integers(-3, 3), inner, min_size=1, max_size=2),
        st.dictionaries(st.text(max_size=4), inner, max_size=3).map(MappingProxyType),
    ),
    max_leaves=25,
)


def _standard(value: Any) -> str:
    return json.dumps(value, indent=2, allow_nan=False)


@given(_trees)
@example({"a": [], "b": {}, "c": [{"d": 1.5e-300, "é": "\u2028\x00"}], "e": (True, None)})
@example([float("nan")])
def test_dumps_indented_writes_what_json_dumps_writes(value: Any) -> None:
    try:
        expected = _standard(value)
    except (ValueError, TypeError) as exc:  # non-finite float, unserialisable mapping proxy
        with pytest.raises(type(exc)):
            dumps_indented(value)
        return
    assert dumps_indented(value) == expected


def _general_json_safe(value: Any) -> Any:
    """``json_safe`` as it was before its fast path for plain types (the oracle)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {key: _general_json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_general_json_safe(item) for item in value]
    return value


@given(_trees)
@example({"x": [float("inf"), -0.0, (1, float("nan"))], "y": np.float64("nan")})
def test_json_safe_fast_path_gives_what_the_general_path_gives(value: Any) -> None:
    fast, general = json_safe(value), _general_json_safe(value)
    assert repr(fast) == repr(general)  # repr: NaN-free by construction, types included
    assert [type(x) for x in _leaves(fast)] == [type(x) for x in _leaves(general)]


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for item in value.values() for x in _leaves(item)]
    if isinstance(value, list):
        return [x for item in value for x in _leaves(item)]
    return [value]
