"""xacro's expressions (``${...}``, ``$(eval ...)``) evaluated without Python's ``eval``.

The ``xacro`` package evaluates an expression with ``eval`` after a check of the names in the
top-level code object; a lambda's body, ``str.format`` field names and ``$(eval ...)`` (which
keeps Python's builtins) all get past it, so a model could run any Python (issue 23). This
module interprets the expression's syntax tree itself, over an allow-list, so that nothing in a
model can reach Python:

* **Grammar.** Numbers, strings, ``True/False/None``; arithmetic, bitwise, comparison (chained),
  ``and/or/not``, conditional expressions; names; calls; attribute access; indexing and
  slicing; list, tuple, set and dict displays (with ``*``/``**`` unpacking); comprehensions and
  generator expressions; f-strings. Anything else (``lambda``, ``:=``, ``await``, ``yield``) is
  refused before anything is evaluated (:class:`RefusedExpressionError`), as is any name, attribute
  or keyword starting with ``__`` (attributes: with ``_``), and any subscript by a string
  starting with ``__``.
* **Calls** reach only callables the :class:`Vocabulary` allows, by identity (the builtins and
  ``math`` functions xacro exposes, xacro's own helpers) and the methods of plain values it
  lists by name (``str.split``, ``list.pop``, ``dict.get``, ...); a callable handed to another
  (``map(f, ...)``, ``sorted(key=f)``) must be allowed too. ``str.format`` and ``%`` take only
  field names that are positions or plain names (no ``.attr``, no ``[key]``), and no width or
  precision over :data:`MAX_FORMAT_WIDTH`.
* **Attributes** reach only what the :class:`Vocabulary` resolves: for xacro, its namespaces
  (``math.pi``, ``xacro.load_yaml``, ``python.range``), YAML mappings (``config.mass``) and the
  listed methods of plain values.
* **Bounds**, checked before the work is done where the size of a result can be known: integers
  of at most :data:`MAX_INT_BITS` bits (``2**2**40`` is refused, not computed), strings of at
  most :data:`MAX_STRING` characters, sequences of at most :data:`MAX_ITEMS` items (a ``range``
  longer than that is never iterated: ``sum(range(10**15))`` is refused), at most
  :data:`MAX_STEPS` steps of evaluation per expression and a syntax tree at most
  :data:`MAX_DEPTH` deep.

The vocabulary lives in :mod:`gzinertia.urdf.xacro_vocabulary`, the bounds in
:mod:`gzinertia.urdf.xacro_bounds`. Where an expression stays within the grammar, its value is
the one Python's ``eval`` gives (tests/test_xacro_expression.py compares the two on random
expression trees).

Why not a library: ``RestrictedPython`` and ``evalidate`` check a tree and then run it with
``eval`` (the fence the issue asks to leave); ``asteval`` evaluates statements, loops and
function definitions; ``simpleeval`` lets any attribute not starting with ``_`` through, by a
deny-list, and calls whatever callable an expression reaches. None checks callables by identity
or bounds sequence and integer sizes before computing them.
"""

from __future__ import annotations

import ast
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from gzinertia.urdf.xacro_bounds import (
    MAX_DEPTH,
    MAX_EXPRESSION_CHARS,
    MAX_FORMAT_WIDTH,
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_STEPS,
    MAX_STRING,
    PRINTERS,
    SIZED,
    ExpressionError,
    ExpressionLimitError,
    RefusedExpressionError,
    check_binary,
    check_format_spec,
    check_iterable,
    check_membership,
    check_method,
    check_printable,
    check_result,
)
from gzinertia.urdf.xacro_vocabulary import Vocabulary, methods_of, plain_methods

__all__ = [
    "MAX_DEPTH",
    "MAX_EXPRESSION_CHARS",
    "MAX_FORMAT_WIDTH",
    "MAX_INT_BITS",
    "MAX_ITEMS",
    "MAX_STEPS",
    "MAX_STRING",
    "ExpressionError",
    "ExpressionLimitError",
    "RefusedExpressionError",
    "Vocabulary",
    "evaluate",
    "parse",
    "plain_methods",
]

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
    ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b,
    ast.BitOr: lambda a, b: a | b,
    ast.BitXor: lambda a, b: a ^ b,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: lambda a: +a,
    ast.USub: lambda a: -a,
    ast.Not: lambda a: not a,
    ast.Invert: lambda a: ~a,
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}

#: Every node the grammar has (operators are checked through the tables above).
_NODES: frozenset[type[ast.AST]] = frozenset({
    ast.Expression, ast.Constant, ast.Name, ast.Load, ast.Store, ast.BinOp, ast.UnaryOp,
    ast.BoolOp, ast.And, ast.Or, ast.Compare, ast.IfExp, ast.Call, ast.keyword, ast.Starred,
    ast.Attribute, ast.Subscript, ast.Slice, ast.List, ast.Tuple, ast.Set, ast.Dict,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension,
    ast.JoinedStr, ast.FormattedValue,
    *_BINARY, *_UNARY, *_COMPARE,
})

#: What each node is called in a refusal.
_NODE_WORDS: dict[type[ast.AST], str] = {
    ast.Lambda: "a lambda", ast.NamedExpr: "an assignment expression (:=)",
    ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield", ast.MatMult: "the @ operator",
}

#: Callables that never call or iterate their arguments: a ``range`` of any length, or a callable
#: the vocabulary does not offer, may be handed to them.
_INSPECTORS = frozenset({len, bool, isinstance, issubclass, type, hash, id})

def parse(text: str) -> ast.Expression:
    """The syntax tree of ``text`` (stripped, as xacro strips it), checked against the grammar
    without evaluating anything: :class:`RefusedExpressionError` names what is not allowed."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExpressionLimitError(f"expression longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(text.strip(), "<expression>", mode="eval")
    except (RecursionError, MemoryError):
        raise ExpressionLimitError(f"expression nests deeper than {MAX_DEPTH} levels") from None
    _check_tree(tree)
    return tree


def _check_tree(tree: ast.AST) -> None:
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExpressionLimitError(f"expression nests deeper than {MAX_DEPTH} levels")
        kind = type(node)
        if kind not in _NODES:
            word = _NODE_WORDS.get(kind, kind.__name__)
            raise RefusedExpressionError(
                f"{word} is not evaluated (it is outside the expression language gzinertia "
                "evaluates; --trust-xacro evaluates with Python)"
            )
        _check_identifier(node)
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))


def _check_identifier(node: ast.AST) -> None:
    if isinstance(node, ast.Name) and node.id.startswith("__"):
        raise RefusedExpressionError(f"name {node.id!r} is not evaluated (names starting with __)")
    if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
        raise RefusedExpressionError(f"attribute {node.attr!r} is not evaluated (attributes "
                                "starting with _)")
    if isinstance(node, ast.keyword) and node.arg is not None and node.arg.startswith("__"):
        raise RefusedExpressionError(
            f"keyword {node.arg!r} is not evaluated (names starting with __)")
    if isinstance(node, ast.comprehension) and node.is_async:
        raise RefusedExpressionError("async comprehensions are not evaluated")
    if isinstance(node, ast.FormattedValue) and node.conversion not in (-1, 97, 114, 115):
        raise RefusedExpressionError("unknown f-string conversion")


def evaluate(text: str, vocabulary: Vocabulary) -> Any:
    """The value of the expression ``text`` over ``vocabulary``, as Python's ``eval`` gives it
    (``text`` stripped first, as xacro does). Raises :class:`RefusedExpressionError` (outside the
    grammar, nothing evaluated), :class:`ExpressionLimitError` (a bound), or the exception Python
    raises for the same expression (``NameError``, ``TypeError``, ``ZeroDivisionError``, ...)."""
    value = _Interpreter(vocabulary).run(parse(text).body)
    check_printable(value)
    return value


class _Interpreter:
    """One evaluation: the vocabulary, the comprehension scopes and the step count."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.scopes: list[dict[str, Any]] = []
        self.steps = 0

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_STEPS:
            raise ExpressionLimitError(f"expression takes more than {MAX_STEPS} steps")

    def run(self, node: ast.expr) -> Any:
        self.step()
        method = getattr(self, "_" + type(node).__name__)
        return method(node)

    # -- leaves ------------------------------------------------------------------------------

    def _Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _Name(self, node: ast.Name) -> Any:
        for scope in reversed(self.scopes):
            if node.id in scope:
                return scope[node.id]
        try:
            return self.vocabulary.names[node.id]
        except KeyError:
            raise NameError(f"name {node.id!r} is not defined") from None

    # -- operators ---------------------------------------------------------------------------

    def _BinOp(self, node: ast.BinOp) -> Any:
        left = self.run(node.left)
        right = self.run(node.right)
        check_binary(type(node.op), left, right)
        result = _BINARY[type(node.op)](left, right)
        check_result(result)
        return result

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        return _UNARY[type(node.op)](self.run(node.operand))

    def _BoolOp(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for operand in node.values:
            value = self.run(operand)
            if isinstance(node.op, ast.And) and not value:
                return value
            if isinstance(node.op, ast.Or) and value:
                return value
        return value

    def _Compare(self, node: ast.Compare) -> Any:
        left = self.run(node.left)
        result: Any = True
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.run(comparator)
            if isinstance(op, (ast.In, ast.NotIn)):
                check_membership(left, right)
            result = _COMPARE[type(op)](left, right)
            if not result:
                return result
            left = right
        return result

    def _IfExp(self, node: ast.IfExp) -> Any:
        return self.run(node.body) if self.run(node.test) else self.run(node.orelse)

    # -- names of things ---------------------------------------------------------------------

    def _Attribute(self, node: ast.Attribute) -> Any:
        return self.vocabulary.attribute(self.run(node.value), node.attr)

    def _Subscript(self, node: ast.Subscript) -> Any:
        container = self.run(node.value)
        key = self.run(node.slice)
        if isinstance(key, str) and key.startswith("__"):
            raise RefusedExpressionError(
                f"subscript {key!r} is not evaluated (keys starting with __)")
        return container[key]

    def _Slice(self, node: ast.Slice) -> slice:
        return slice(*(None if part is None else self.run(part)
                       for part in (node.lower, node.upper, node.step)))

    def _Call(self, node: ast.Call) -> Any:
        f = self.run(node.func)
        if not self.vocabulary.allows_call(f):
            raise RefusedExpressionError(f"calling {_describe(node.func)} is not evaluated (not a "
                                    "function the expression language offers)")
        args = tuple(self._items(node.args))
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            value = self.run(keyword.value)
            if keyword.arg is None:
                if not isinstance(value, Mapping):
                    raise TypeError("argument after ** must be a mapping")
                for key in value:
                    if not isinstance(key, str) or key.startswith("__"):
                        raise RefusedExpressionError("keywords after ** must be plain names")
                    if key in kwargs:
                        raise TypeError(f"got multiple values for keyword argument {key!r}")
                    kwargs[key] = value[key]
            else:
                if keyword.arg in kwargs:
                    raise TypeError(f"got multiple values for keyword argument {keyword.arg!r}")
                kwargs[keyword.arg] = value
        self._check_call(f, args, kwargs)
        result = f(*args, **kwargs)
        check_result(result)
        return result

    def _check_call(self, f: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        values = (*args, *kwargs.values())
        if f not in _INSPECTORS:
            for value in values:
                if callable(value) and not self.vocabulary.allows_call(value):
                    raise RefusedExpressionError("a function handed to another must be one the "
                                            "expression language offers")
                check_iterable(value)
        if f in PRINTERS:
            for value in values:
                check_printable(value)
        owner = getattr(f, "__self__", None) if isinstance(f, types.BuiltinMethodType) else None
        if owner is not None and methods_of(owner) is not None:
            check_method(f, args, kwargs)
            values = (owner, *values)
        self.vocabulary.guard(f, args, kwargs)
        self.step(sum(len(v) for v in values if isinstance(v, SIZED)))

    # -- displays ----------------------------------------------------------------------------

    def _items(self, nodes: list[ast.expr]) -> Iterator[Any]:
        for item in nodes:
            if isinstance(item, ast.Starred):
                value = self.run(item.value)
                check_iterable(value)
                yield from self._counted(value)
            else:
                yield self.run(item)

    def _counted(self, iterable: Any) -> Iterator[Any]:
        for count, value in enumerate(iterable, 1):
            if count > MAX_ITEMS:
                raise ExpressionLimitError(f"more than {MAX_ITEMS} items")
            self.step()
            yield value

    def _List(self, node: ast.List) -> list[Any]:
        return list(self._items(node.elts))

    def _Tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self._items(node.elts))

    def _Set(self, node: ast.Set) -> set[Any]:
        return set(self._items(node.elts))

    def _Dict(self, node: ast.Dict) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                unpacked = self.run(value)
                if not isinstance(unpacked, Mapping):
                    raise TypeError(f"{type(unpacked).__name__!r} object is not a mapping")
                out.update(unpacked)
            else:
                k = self.run(key)
                out[k] = self.run(value)
        return out

    def _Starred(self, node: ast.Starred) -> Any:  # pragma: no cover - handled by _items
        raise SyntaxError("can't use starred expression here")

    # -- comprehensions ----------------------------------------------------------------------

    def _generate(self, generators: list[ast.comprehension], source: Any,
                  at: int = 0) -> Iterator[None]:
        """Binds the targets of ``generators[at:]`` in the innermost scope, once per item;
        ``source`` is the iterable of ``generators[at]``."""
        comp = generators[at]
        check_iterable(source)
        for value in self._counted(source):
            self._bind(comp.target, value)
            if all(self.run(test) for test in comp.ifs):
                if at + 1 < len(generators):
                    yield from self._generate(generators, self.run(generators[at + 1].iter),
                                              at + 1)
                else:
                    yield None

    def _bind(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scopes[-1][target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            values = list(self._counted(value))
            if len(values) != len(target.elts):
                raise ValueError(f"cannot unpack {len(values)} values into {len(target.elts)}")
            for sub, v in zip(target.elts, values, strict=True):
                self._bind(sub, v)
        else:
            raise RefusedExpressionError("a comprehension may bind only names")

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp
                       | ast.DictComp) -> Iterator[Any]:
        # Python evaluates the first iterable in the enclosing scope, the rest in the new one.
        first = self.run(node.generators[0].iter)
        self.scopes.append({})
        try:
            for _ in self._generate(node.generators, first):
                if isinstance(node, ast.DictComp):
                    yield self.run(node.key), self.run(node.value)
                else:
                    yield self.run(node.elt)
        finally:
            self.scopes.pop()

    def _ListComp(self, node: ast.ListComp) -> list[Any]:
        return list(self._comprehension(node))

    def _SetComp(self, node: ast.SetComp) -> set[Any]:
        return set(self._comprehension(node))

    def _DictComp(self, node: ast.DictComp) -> dict[Any, Any]:
        return dict(self._comprehension(node))

    def _GeneratorExp(self, node: ast.GeneratorExp) -> Iterator[Any]:
        # Lazy, as Python's: it sees the scopes in force where it is written, when it runs.
        scopes = list(self.scopes)
        first = self.run(node.generators[0].iter)

        def generator() -> Iterator[Any]:
            saved, self.scopes = self.scopes, [*scopes, {}]
            try:
                for _ in self._generate(node.generators, first):
                    yield self.run(node.elt)
            finally:
                self.scopes = saved

        return _Generator(generator())

    # -- f-strings ---------------------------------------------------------------------------

    def _JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = [str(self.run(value)) for value in node.values]
        result = "".join(parts)
        check_result(result)
        return result

    def _FormattedValue(self, node: ast.FormattedValue) -> str:
        value = self.run(node.value)
        check_printable(value)
        if node.conversion == 115:
            value = str(value)
        elif node.conversion == 114:
            value = repr(value)
        elif node.conversion == 97:
            value = ascii(value)
        spec = "" if node.format_spec is None else self.run(node.format_spec)
        check_format_spec(spec)
        return format(value, spec)


class _Generator:
    """A generator expression's value: iterable once, bounded like any other iterable."""

    def __init__(self, items: Iterator[Any]) -> None:
        self._items = items

    def __iter__(self) -> Iterator[Any]:
        return self._items

    def __next__(self) -> Any:
        return next(self._items)

    def __repr__(self) -> str:
        return "<generator object <genexpr>>"


def _describe(node: ast.expr) -> str:
    """The source text of a callee, short."""
    text = ast.unparse(node)
    return repr(text if len(text) <= 60 else text[:57] + "...")
