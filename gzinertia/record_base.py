"""Base classes of gzinertia's dataclasses: the ``__repr__``, ``__eq__`` and ``__hash__`` that
``@dataclass`` would generate, written once.

Python before 3.13 compiles every method a dataclass generates from source text, class by class,
when its module is imported (about 0.1 ms a method; ``frozen=True`` with value equality makes
six). gzinertia defines about ninety dataclasses, so those compilations were the largest part of
its own start-up. The methods below behave as the generated ones do (``tests/test_record_base.py``
compares them with what ``@dataclass`` generates); only ``__init__`` and, for frozen records,
``__setattr__`` and ``__delattr__`` are still generated. Declare a dataclass as::

    @dataclass(frozen=True, repr=False, eq=False)
    class Thing(ValueRecord):  # compared and hashed field by field, as eq=True would
        ...

    @dataclass(frozen=True, repr=False, eq=False)
    class Holder(Record):  # compared and hashed by identity: it holds NumPy arrays
        ...

Records that hold poses or matrices (NumPy arrays) are compared by identity: ``==`` field by
field cannot work on arrays (NumPy compares element-wise, and an array's hash is refused). A
mutable builder derives from ``Record`` with ``@dataclass(repr=False)`` (the value equality
dataclasses generates), or ``@dataclass(repr=False, eq=False)`` when nothing compares it.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import Field, fields
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar, overload

__all__ = ["Forwarded", "Record", "ValueRecord"]

_T = TypeVar("_T")

_Key = Callable[[object], tuple[Any, ...]]


def _getter(names: tuple[str, ...]) -> _Key:
    """A function returning the tuple of ``names``' values of an object (``()`` for none)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


#: Per record class: the values ``__eq__`` compares (fields with ``compare=True``, in order) and
#: the values ``__hash__`` hashes (``hash=True``, or ``hash=None`` with ``compare=True``).
_KEYS: dict[type, tuple[_Key, _Key]] = {}


def _keys(cls: type[Record]) -> tuple[_Key, _Key]:
    """The compared and the hashed values of ``cls``'s records, found once per class."""
    found = _KEYS.get(cls)
    if found is None:
        own = fields(cls)
        compared = tuple(f.name for f in own if f.compare)
        hashed = tuple(f.name for f in own if (f.compare if f.hash is None else f.hash))
        found = _KEYS[cls] = (_getter(compared), _getter(hashed))
    return found


class Record:
    """A dataclass whose ``repr`` is the one ``@dataclass`` writes: ``Name(field=value, ...)``
    over the fields with ``repr=True``, ``...`` for a record met again inside itself."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
        return f"{type(self).__qualname__}({shown})"


class ValueRecord(Record):
    """A frozen dataclass compared and hashed field by field, as ``@dataclass(frozen=True)``
    does: equal to another record of the very same class whose compared fields are equal (a
    tuple comparison, in field order); ``NotImplemented`` for anything else."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = _keys(type(self))[0]
        return compared(self) == compared(other)

    def __hash__(self) -> int:
        return hash(_keys(type(self))[1](self))


class Forwarded(Generic[_T]):
    """A read-only attribute that passes on another attribute of the record, ``path``, dotted
    (``Forwarded[Vec3]("X_BI.p", "...")`` reads ``self.X_BI.p``): one definition for the
    properties that only forward a value, with the frame, point and ordering said in ``doc``.
    The type parameter is the value's type, which the forwarded attribute must have."""

    def __init__(self, path: str, doc: str) -> None:
        self._get = attrgetter(path)
        self.path = path
        self.__doc__ = doc

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Forwarded[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> Forwarded[_T] | _T:
        """The forwarded value (the descriptor itself on the class)."""
        if obj is None:
            return self
        value: _T = self._get(obj)
        return value
