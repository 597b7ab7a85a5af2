"""``show --json`` writes its object a piece at a time: the text must be exactly what
``json.dumps(indent=2)`` (the oracle) gives for the same object."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gzinertia.report.json_stream import write_json

scalars = st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(derandomize=True, max_examples=200)
@given(st.dictionaries(st.text(), values, max_size=5))
@example({})
@example({"links": []})
@example({"file": "a.sdf", "links": [{"M": [[1.0, 2.0], [3.0, None]]}, {}], "notes": []})
def test_streamed_text_is_json_dumps_indent_2(document: dict[str, Any]) -> None:
    out = io.StringIO()
    write_json(document, out)
    assert out.getvalue() == json.dumps(document, indent=2) + "\n"
