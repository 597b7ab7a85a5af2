"""What a xacro expression may name, call and read attributes of (:class:`Vocabulary`).

Callables are compared by identity with the ones the vocabulary offers; the methods of plain
values (strings, lists, dicts, sets, numbers) an expression may use are listed by name. See
:mod:`gzinertia.urdf.xacro_expression`, which evaluates over a vocabulary.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gzinertia.urdf.xacro_bounds import GUARDS, Guard, RefusedExpressionError

__all__ = ["Vocabulary", "methods_of", "plain_methods"]

#: Methods of plain values an expression may call (and read, for ``real``/``imag``).
_METHODS: dict[type, frozenset[str]] = {
    str: frozenset({
        "capitalize", "casefold", "center", "count", "endswith", "find", "format", "index",
        "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
        "isnumeric", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip",
        "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust",
        "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
        "swapcase", "title", "upper", "zfill",
    }),
    list: frozenset({"append", "copy", "count", "extend", "index", "insert", "pop", "remove",
                     "reverse", "sort"}),
    tuple: frozenset({"count", "index"}),
    dict: frozenset({"copy", "get", "items", "keys", "pop", "values"}),
    set: frozenset({"add", "copy", "difference", "discard", "intersection", "isdisjoint",
                    "issubset", "issuperset", "symmetric_difference", "union"}),
    frozenset: frozenset({"copy", "difference", "intersection", "isdisjoint", "issubset",
                          "issuperset", "symmetric_difference", "union"}),
    int: frozenset({"bit_length", "conjugate", "imag", "real"}),
    float: frozenset({"conjugate", "imag", "is_integer", "real"}),
    complex: frozenset({"conjugate", "imag", "real"}),
}

class Vocabulary:
    """What an expression may name, call and read attributes of.

    ``names`` resolves a name (``KeyError`` when undefined); ``callables`` are the functions
    and types an expression may call, compared by identity; ``attribute(obj, name)`` resolves
    ``obj.name`` for objects that are not plain values (return :data:`NotImplemented` to refuse
    it); ``guards`` maps a callable to a check of its arguments, run before the call.
    """

    def __init__(
        self,
        names: Mapping[str, Any],
        callables: Iterable[Any],
        attribute: Callable[[Any, str], Any] | None = None,
        guards: Mapping[int, Guard] | None = None,
    ) -> None:
        self.names = names
        self._callables = {id(c): c for c in callables}
        self._attribute = attribute
        self._guards = {**GUARDS, **(guards or {})}

    def with_names(self, names: Mapping[str, Any]) -> Vocabulary:
        """The same vocabulary over other ``names``."""
        other = Vocabulary.__new__(Vocabulary)
        other.names = names
        other._callables = self._callables
        other._attribute = self._attribute
        other._guards = self._guards
        return other

    def allows_call(self, f: Any) -> bool:
        """Whether an expression may call ``f``."""
        if self._callables.get(id(f)) is f:
            return True
        if isinstance(f, types.BuiltinMethodType):
            owner = getattr(f, "__self__", None)
            allowed = methods_of(owner)
            return allowed is not None and f.__name__ in allowed
        return False

    def guard(self, f: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Runs the argument check registered for ``f`` (a bound: :class:`ExpressionLimitError`)."""
        check = self._guards.get(id(f))
        if check is not None:
            check(args, kwargs)

    def attribute(self, obj: Any, name: str) -> Any:
        """``obj.name`` as an expression may read it: a listed method of a plain value, or what
        the vocabulary resolves; ``AttributeError`` as Python raises it where ``obj`` has no
        such attribute at all; else :class:`RefusedExpressionError`."""
        allowed = methods_of(obj)
        if allowed is not None and name in allowed:
            return getattr(obj, name)
        if self._attribute is not None:
            value = self._attribute(obj, name)
            if value is not NotImplemented:
                return value
        kind = type(obj)
        own = getattr(obj, "__dict__", None)
        if not hasattr(kind, "__getattr__") and not hasattr(kind, name) and \
                not (isinstance(own, dict) and name in own):
            raise AttributeError(f"{kind.__name__!r} object has no attribute {name!r}")
        raise RefusedExpressionError(
            f"attribute {name!r} of a {kind.__name__} is not evaluated (not among the plain "
            "methods an expression may use)")


def plain_methods(kind: type) -> frozenset[str]:
    """The methods an expression may use on values of the builtin type ``kind``."""
    return _METHODS.get(kind, frozenset())


def methods_of(obj: Any) -> frozenset[str] | None:
    """The methods allowed on ``obj`` if it is a plain value (by its builtin base type; a type
    with a ``__getattr__`` of its own is not plain: the vocabulary resolves its attributes)."""
    if hasattr(type(obj), "__getattr__"):
        return None
    for kind in type(obj).__mro__:
        if kind in _METHODS:
            return _METHODS[kind]
    return None
