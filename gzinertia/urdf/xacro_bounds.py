"""The bounds of xacro expressions: what an expression may make, checked before it is made.

:mod:`gzinertia.urdf.xacro_expression` calls these checks before each operation whose result
could be large (a power, a product, a repetition, a ``range`` iterated, a format width, a value
printed, a ``math`` function of a large argument) and on each result, so that a bomb is refused
before it is computed rather than stopped by the child process's limits.
"""

from __future__ import annotations

import ast
import math
import re
import string
from collections.abc import Callable
from typing import Any

__all__ = [
    "GUARDS",
    "MAX_DEPTH",
    "MAX_EXPRESSION_CHARS",
    "MAX_FACTORIAL",
    "MAX_FORMAT_WIDTH",
    "MAX_INT_BITS",
    "MAX_ITEMS",
    "MAX_STEPS",
    "MAX_STRING",
    "PRINTERS",
    "SIZED",
    "ExpressionError",
    "ExpressionLimitError",
    "Guard",
    "RefusedExpressionError",
    "check_binary",
    "check_format_spec",
    "check_iterable",
    "check_membership",
    "check_method",
    "check_printable",
    "check_result",
]

#: Bits an integer result may have (about 19,700 decimal digits).
MAX_INT_BITS = 1 << 16
#: Characters a string result may have.
MAX_STRING = 1 << 20
#: Items a list, tuple, set or dict may have, and the longest ``range`` that is iterated.
MAX_ITEMS = 1_000_000
#: Evaluation steps (tree nodes visited, items iterated) one expression may take.
MAX_STEPS = 2_000_000
#: Depth of the syntax tree.
MAX_DEPTH = 100
#: Characters of an expression's text.
MAX_EXPRESSION_CHARS = 65_536
#: Largest width or precision in a format specification.
MAX_FORMAT_WIDTH = 1_000
#: Largest argument of ``math.factorial``, ``math.comb`` and ``math.perm``.
MAX_FACTORIAL = 5_000


class ExpressionError(Exception):
    """An expression that gzinertia does not evaluate (base class)."""


class RefusedExpressionError(ExpressionError):
    """The expression uses something outside the grammar: refused before any evaluation."""


class ExpressionLimitError(ExpressionError):
    """The expression would go over a bound (:data:`MAX_INT_BITS`, :data:`MAX_STRING`, ...)."""


#: ``%`` conversions: flags, width, precision, length, type.
_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.S)
_DIGITS = re.compile(r"\d+")
_FIELD_NAME = re.compile(r"\d*|[A-Za-z_]\w*")


#: Values whose size counts as steps when they are handed to a call.
SIZED = (str, bytes, list, tuple, dict, set, frozenset)
#: Callables that print their arguments: what they print is bounded first.
PRINTERS = frozenset({str, repr, ascii, format})


def int_bits(value: Any) -> int:
    """The bits of ``value``'s magnitude if it is an integer, else 0."""
    return abs(value).bit_length() if isinstance(value, int) else 0


def check_binary(op: type[ast.operator], left: Any, right: Any) -> None:
    """Refuses an operation whose result would go over a bound, before it is computed."""
    ints = isinstance(left, int) and isinstance(right, int)
    if op is ast.Pow and ints and right > 0 and abs(left) > 1:
        if right * math.log2(abs(left)) > MAX_INT_BITS:
            raise ExpressionLimitError(f"the power would have more than {MAX_INT_BITS} bits")
    elif op is ast.Mult and ints:
        if int_bits(left) + int_bits(right) > MAX_INT_BITS + 1:
            raise ExpressionLimitError(f"the product would have more than {MAX_INT_BITS} bits")
    elif op is ast.LShift and ints and right > 0:
        if int_bits(left) + right > MAX_INT_BITS:
            raise ExpressionLimitError(f"the shift would have more than {MAX_INT_BITS} bits")
    elif op is ast.Mult:
        for seq, times in ((left, right), (right, left)):
            if isinstance(times, int) and isinstance(seq, (str, bytes, list, tuple)):
                check_size(seq, len(seq) * max(times, 0))
    elif op is ast.Add and isinstance(left, (str, bytes, list, tuple)) and \
            isinstance(right, (str, bytes, list, tuple)):
        check_size(left, len(left) + len(right))
    elif op is ast.Mod and isinstance(left, str):
        check_percent(left)
        check_printable(right)


def check_size(kind: Any, size: int) -> None:
    """Refuses a string (``kind`` one) or a sequence of ``size`` over its bound."""
    if isinstance(kind, (str, bytes)) and size > MAX_STRING:
        raise ExpressionLimitError(f"the string would be longer than {MAX_STRING} characters")
    if not isinstance(kind, (str, bytes)) and size > MAX_ITEMS:
        raise ExpressionLimitError(f"the sequence would have more than {MAX_ITEMS} items")


def check_result(value: Any) -> None:
    """Refuses a result over a bound (an integer's bits, a string's or sequence's length)."""
    if isinstance(value, int) and int_bits(value) > MAX_INT_BITS:
        raise ExpressionLimitError(f"the integer has more than {MAX_INT_BITS} bits")
    if isinstance(value, SIZED):
        check_size(value, len(value))


def check_printable(value: Any) -> None:
    """Refuses a value whose text would be longer than :data:`MAX_STRING` characters: a list
    that holds the same long list a million times is small, its text is not."""
    budget = MAX_STRING
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (str, bytes)):
            budget -= len(item) + 2
        elif isinstance(item, (list, tuple, set, frozenset)):
            budget -= 2 + 2 * len(item)
            if budget >= 0:
                stack.extend(item)
        elif isinstance(item, dict):
            budget -= 2 + 4 * len(item)
            if budget >= 0:
                stack.extend(item.keys())
                stack.extend(item.values())
        else:
            budget -= 24
        if budget < 0:
            raise ExpressionLimitError(f"the value's text would be longer than {MAX_STRING} "
                                  "characters")


def check_iterable(value: Any) -> None:
    """A ``range`` is the one lazy sequence an expression can make long: it must be short to be
    iterated (strings, lists and the like are bounded when they are made)."""
    if isinstance(value, range):
        try:
            n = len(value)
        except OverflowError:
            n = MAX_ITEMS + 1
        if n > MAX_ITEMS:
            raise ExpressionLimitError(f"a range of more than {MAX_ITEMS} items is not iterated")


def check_membership(item: Any, container: Any) -> None:
    """``x in range(...)`` is a test for an integer, a scan otherwise."""
    if isinstance(container, range) and not isinstance(item, int):
        check_iterable(container)


def check_method(f: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Bounds on what a plain value's method makes."""
    owner, name = f.__self__, f.__name__
    if isinstance(owner, str):
        if name in ("center", "ljust", "rjust", "zfill") and args and isinstance(args[0], int):
            check_size(owner, args[0])
        elif name == "replace" and len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
            old, new = args[0], args[1]
            count = owner.count(old) if old else len(owner) + 1
            if len(args) > 2 and isinstance(args[2], int) and args[2] >= 0:
                count = min(count, args[2])
            check_size(owner, len(owner) + count * (len(new) - len(old)))
        elif name == "join" and args and isinstance(args[0], (list, tuple)):
            items = args[0]
            total = sum(len(i) for i in items if isinstance(i, str))
            check_size(owner, total + len(owner) * max(len(items) - 1, 0))
        elif name == "format":
            check_format_string(owner)
            for value in (*args, *kwargs.values()):
                check_printable(value)
    elif isinstance(owner, list) and name == "extend" and args and hasattr(args[0], "__len__"):
        check_size(owner, len(owner) + len(args[0]))


def check_format_spec(spec: Any) -> None:
    """Refuses a format specification that nests fields or asks for a width over
    :data:`MAX_FORMAT_WIDTH`."""
    if isinstance(spec, str):
        if "{" in spec or "}" in spec:
            raise RefusedExpressionError("nested format specifications are not evaluated")
        for digits in _DIGITS.findall(spec):
            if len(digits) > 6 or int(digits) > MAX_FORMAT_WIDTH:
                raise ExpressionLimitError(f"format width or precision over {MAX_FORMAT_WIDTH}")


def check_format_string(text: str) -> None:
    """``str.format``: fields are positions or plain names (never ``.attr`` or ``[key]``)."""
    for _, field, spec, _conversion in string.Formatter().parse(text):
        if field is None:
            continue
        if not _FIELD_NAME.fullmatch(field) or field.startswith("__"):
            raise RefusedExpressionError(f"format field {field!r} is not evaluated (fields are "
                                    "positions or plain names: no attributes, no indexing)")
        check_format_spec(spec)


def check_percent(text: str) -> None:
    """``text % args``: no ``*`` widths, widths and precisions bounded."""
    for match in _PERCENT.finditer(text):
        for part in match.groups()[:2]:
            if part == "*":
                raise RefusedExpressionError("'*' widths in % formatting are not evaluated")
            if part is not None and (len(part) > 6 or int(part) > MAX_FORMAT_WIDTH):
                raise ExpressionLimitError(f"format width or precision over {MAX_FORMAT_WIDTH}")


Guard = Callable[[tuple[Any, ...], dict[str, Any]], None]


def _bounded_int_args(limit: int, name: str) -> Guard:
    def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and value > limit:
                raise ExpressionLimitError(f"{name} of more than {limit} is not computed")
    return check


def _bounded_product(name: str) -> Guard:
    def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        values = args[0] if name == "math.prod" and args else args
        if isinstance(values, range):
            values = (values[0], values[-1]) * (len(values) // 2 + 1) if values else ()
        if not isinstance(values, (list, tuple)):
            raise RefusedExpressionError(f"{name} takes a list, tuple or range here")
        if sum(int_bits(v) for v in values) > MAX_INT_BITS:
            raise ExpressionLimitError(f"{name} would have more than {MAX_INT_BITS} bits")
    return check


def _sum_of_numbers(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    start = args[1] if len(args) > 1 else kwargs.get("start", 0)
    if isinstance(start, SIZED):
        raise RefusedExpressionError("sum() of sequences is not evaluated (it is quadratic)")


def _one_argument(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if len(args) != 1 or kwargs:
        raise RefusedExpressionError("type() takes one argument here (three would make a class)")


#: Argument checks of builtins and ``math`` functions, by the callable's identity.
GUARDS: dict[int, Guard] = {
    id(math.factorial): _bounded_int_args(MAX_FACTORIAL, "math.factorial"),
    id(math.comb): _bounded_int_args(MAX_FACTORIAL, "math.comb"),
    id(math.perm): _bounded_int_args(MAX_FACTORIAL, "math.perm"),
    id(math.prod): _bounded_product("math.prod"),
    id(math.lcm): _bounded_product("math.lcm"),
    id(sum): _sum_of_numbers,
    id(type): _one_argument,
}
