"""gzinertia's evaluator of xacro expressions against Python's own ``eval``.

* Random expression trees from the allowed grammar (arithmetic, comparisons, ``and/or/not``,
  conditional expressions, calls of the offered functions, methods of strings, lists and
  dicts, indexing and slicing, displays, comprehensions, f-strings, ``str.format`` and ``%``)
  give the value Python gives (same type, same ``repr``), or an exception of the same type.
* Random trees holding any forbidden node (a lambda, ``:=``, a name or attribute starting with
  ``__``/``_``, ``@``) are refused before anything in them is evaluated: a probe function
  called earlier in the same expression is never called.
* Bounds: results that would be too large are refused before they are computed.
"""

from __future__ import annotations

import ast
import copy
import math
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gzinertia.urdf.xacro_expression import (
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_STEPS,
    ExpressionLimitError,
    RefusedExpressionError,
    Vocabulary,
    evaluate,
)

#: The names every random expression may use, and the functions it may call.
NAMES: dict[str, Any] = {
    "a": 3, "b": -2.5, "z": 0, "s": "ab c", "e": "", "L": [1, 2, 3], "M": [[1, 2], [3]],
    "D": {"k": 1, "m": 2.0}, "t": (1, "x"), "pi": math.pi,
}
FUNCTIONS: dict[str, Any] = {
    f.__name__: f for f in (len, str, int, float, abs, min, max, round, sorted, sum, range,
                            list, tuple, bool, dict, set, any, all, enumerate, zip, isinstance)
}
FUNCTIONS.update(sqrt=math.sqrt, radians=math.radians, fabs=math.fabs, floor=math.floor)


def _ours(text: str, names: dict[str, Any]) -> Any:
    return evaluate(text, Vocabulary({**names, **FUNCTIONS}, FUNCTIONS.values()))


def _python(text: str, names: dict[str, Any]) -> Any:
    with warnings.catch_warnings():  # ("is" with a literal, and the like)
        warnings.simplefilter("ignore", SyntaxWarning)
        return eval(text, {"__builtins__": {}, **names, **FUNCTIONS})  # the oracle


def _outcome(run: Any, text: str) -> tuple[str, str]:
    try:
        value = run(text, copy.deepcopy(NAMES))
    except Exception as exc:
        return ("raises", type(exc).__name__)
    return (type(value).__name__, repr(value))


# -- the grammar ----------------------------------------------------------------------------

LEAVES = st.one_of(
    st.integers(-4, 9).map(str),
    st.sampled_from(["0.5", "1.5", "2.0", "1e-3", "-0.0", "True", "False", "None", "'ab'",
                     "''", "'x,y'", "' 1.5 '", "'{}'"]),
    st.sampled_from(sorted(NAMES)),
)

BINARY = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in",
          "is", "is not", "and", "or", "&", "|", "^"]


METHODS = ["upper()", "split()", "split(',')", "strip()", "lower()", "count('a')",
           "startswith('a')", "replace('a', 'bb')", "keys()", "get('k')", "index(1)", "title()",
           "find('b')", "join(['p', 'q'])", "zfill(5)", "isdigit()", "is_integer()", "real",
           "bit_length()", "items()"]
FORMAT_SPECS = [">6", ".3f", "^5", "", "+", "x", ",", ".2%"]

#: Each form takes sub-expressions (``{0}``, ``{1}``, ``{2}``) and may name ``{op}``,
#: ``{fn}``, ``{method}``, ``{spec}`` or ``{k}``, drawn from the lists above.
FORMS = [
    "({0} {op} {1})", "({0}) ** {k}", "(-{0})", "(+{0})", "(not {0})", "(~{0})",
    "({0} if {1} else {2})", "({0} < {1} <= {2})", "{fn}({0})", "min({0}, {1})",
    "round({0}, {1})", "({0})[{1}]", "({0})[{1}:{2}]", "({0}).{method}", "[{0}, {1}]",
    "({0}, {1})", "{{'k': {0}, {1}: 1}}", "{{{0}, {1}}}", "[x * 2 for x in {0} if {1}]",
    "{{x: {1} for x in {0}}}", "sum(x for x in {0} if x != {1})",
    "[(x, y) for x in {0} for y in 'ab']", "f'{{{0}}}-{{{1}!r}}'", "f'{{{0}:{spec}}}'",
    "'{{}} and {{0}}'.format({0}, {1})", "'%s|%5.2f' % ({0}, {1})", "[*{0}, *'xy']",
    "{{**D, 'n': {0}}}", "max(*L, {0})", "sorted(L, key=abs, reverse={0})",
]


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> str:
    """A random expression of the allowed grammar, at most ``depth`` forms deep."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(LEAVES)
    form = draw(st.sampled_from(FORMS))
    parts = [draw(expressions(depth - 1)) for _ in range(3)]
    return form.format(*parts, op=draw(st.sampled_from(BINARY)),
                       fn=draw(st.sampled_from(sorted(FUNCTIONS))),
                       method=draw(st.sampled_from(METHODS)),
                       spec=draw(st.sampled_from(FORMAT_SPECS)), k=draw(st.integers(0, 3)))


EXPRESSIONS = expressions()


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_allowed_expressions_evaluate_as_python_evaluates_them(text: str) -> None:
    assert _outcome(_ours, text) == _outcome(_python, text), text


# -- forbidden nodes ------------------------------------------------------------------------

FORBIDDEN = [
    "(lambda: 0)()",
    "(lambda f: f(f))(lambda f: f(f))",
    "(q := 1)",
    "a.__class__",
    "().__class__.__base__.__subclasses__()",
    "__import__('os')",
    "__builtins__",
    "s._x",
    "L.__len__()",
    "dict(__class__=1)",
    "[x for __x in L]",
    "a @ a",
]


class _Probe:
    """A function an expression may call: it records that it ran."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return 0


@settings(max_examples=500, deadline=None)
@given(EXPRESSIONS, st.sampled_from(FORBIDDEN), st.integers(0, 4))
def test_expressions_holding_a_forbidden_node_are_refused_before_anything_runs(
    allowed: str, forbidden: str, place: int
) -> None:
    try:
        ast.parse(allowed, mode="eval")
    except SyntaxError:  # (an f-string nesting quotes before Python 3.12)
        assume(False)
    text = [
        f"(probe(), {allowed}, {forbidden})",
        f"[probe(), {forbidden}][0] if probe() else {allowed}",
        f"probe() + len([{allowed}, {forbidden}])",
        f"{{probe(): {allowed}, 1: ({forbidden})}}",
        'f"{probe()}{' + forbidden + '}"',
    ][place]
    probe = _Probe()
    vocabulary = Vocabulary({**NAMES, **FUNCTIONS, "probe": probe}, [*FUNCTIONS.values(), probe])
    with pytest.raises(RefusedExpressionError):
        evaluate(text, vocabulary)
    assert probe.calls == 0


# -- what is refused while it runs ----------------------------------------------------------

RUNTIME_REFUSALS = {
    "an attribute of a function": "sorted.mro",
    "a method not listed": "s.encode()",
    "str.format walking attributes": "'{0.__globals__[os].environ[X]}'.format(len)",
    "str.format indexing": "'{0[0]}'.format(L)",
    "a format field reaching a name": "'{x.real}'.format(x=1)",
    "a * width": "'%*d' % (5, 1)",
    "a type not offered handed to map": "list(map(type(len), L))",
    "three-argument type": "type('X', (), {})",
    "sum of lists": "sum([[1], [2]], [])",
}


@pytest.mark.parametrize("text", RUNTIME_REFUSALS.values(), ids=RUNTIME_REFUSALS.keys())
def test_what_would_reach_python_is_refused(text: str) -> None:
    vocabulary = Vocabulary({**NAMES, **FUNCTIONS, "type": type, "map": map},
                            [*FUNCTIONS.values(), type, map])
    with pytest.raises(RefusedExpressionError):
        evaluate(text, vocabulary)


BOUNDS = {
    "power tower": "2**2**40",
    "9**9**9": "9**9**9",
    "a long product": f"(2**{MAX_INT_BITS // 2 + 8}) * (2**{MAX_INT_BITS // 2 + 8})",
    "a shift": f"1 << {MAX_INT_BITS + 1}",
    "huge list": "[0]*10**10",
    "huge string": "'ab' * 10**9",
    "C loop": "sum(range(10**15))",
    "a range in a comprehension": "len([x for x in range(10**12)])",
    "a float in a long range": "0.5 in range(10**15)",
    "a printed bomb": "str([[0] * 10**6] * 10**6)",
    "a replace bomb": f"('a' * {2**19}).replace('a', 'aaaa')",
    "a wide format": "'%999999999d' % 1",
    "a wide f-string": "f'{1:999999999}'",
    "steps": f"len([x for x in range({MAX_ITEMS}) for y in range({MAX_STEPS // MAX_ITEMS + 1})])",
    "deep nesting": "-" * 500 + "1",
    "factorial": "factorial(10**6)",
}


@pytest.mark.parametrize("text", BOUNDS.values(), ids=BOUNDS.keys())
def test_bombs_are_refused_before_they_are_computed(text: str) -> None:
    vocabulary = Vocabulary({**NAMES, **FUNCTIONS, "factorial": math.factorial},
                            [*FUNCTIONS.values(), math.factorial])
    with pytest.raises(ExpressionLimitError):
        evaluate(text, vocabulary)


def test_values_within_the_bounds_are_python_s() -> None:
    """Just under each bound, the value is Python's own."""
    for text in (f"(2**{MAX_INT_BITS - 1}).bit_length()", f"len([0] * {MAX_ITEMS})",
                 "sum(range(1000))", f"len('ab' * {2**19})", "9**9**2", "f'{1:999}'",
                 "f'{a:{a}}'"):
        assert _outcome(_ours, text) == _outcome(_python, text), text
