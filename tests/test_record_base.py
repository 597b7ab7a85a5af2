"""gzinertia's dataclasses take ``__repr__``, ``__eq__`` and ``__hash__`` from
:mod:`gzinertia.record_base` instead of generating them: the oracle here is what
``@dataclass(frozen=True)`` generates for the very same class."""

from __future__ import annotations

import dataclasses
import importlib
import pickle
import pkgutil
from dataclasses import InitVar, dataclass, field
from typing import Any, ClassVar

import pytest

import gzinertia
from gzinertia.record_base import Record, ValueRecord


def _twins(shared: bool) -> dict[str, type[Any]]:
    """The same classes, declared either with the generated methods (``shared=False``, the
    oracle) or with the shared ones; every class has the same ``__qualname__`` either way."""
    base: type[Any] = ValueRecord if shared else object
    frozen = (
        dataclass(frozen=True, repr=False, eq=False) if shared else dataclass(frozen=True)
    )

    @frozen
    class Empty(base):
        pass

    @frozen
    class One(base):
        value: float

    @frozen
    class Place(base):
        file: str
        line: int = 1

    @frozen
    class Hidden(base):
        name: str
        secret: str = field(default="s", repr=False)
        cache: int = field(default=0, compare=False)
        unhashed: tuple[int, ...] = field(default=(), hash=False)
        limit: ClassVar[int] = 3
        seed: InitVar[int] = 0

    @frozen
    class Child(Place):
        column: int = 0

    @frozen
    class Holder(base):
        items: list[Any] = field(default_factory=list)

    return {c.__name__: c for c in (Empty, One, Place, Hidden, Child, Holder)}


ORACLE, SHARED = _twins(shared=False), _twins(shared=True)

#: Arguments of two or three records of each class; some equal, some not.
SAMPLES: dict[str, list[tuple[Any, ...]]] = {
    "Empty": [(), ()],
    "One": [(1.5,), (1.5,), (2.0,), (float("nan"),)],
    "Place": [("a.sdf", 3), ("a.sdf", 3), ("a.sdf", 4), ("b.sdf",)],
    "Hidden": [("x", "p", 1, (1,)), ("x", "q", 2, (2,)), ("y", "p", 1, (1,))],
    "Child": [("a.sdf", 3, 1), ("a.sdf", 3, 1), ("a.sdf", 3, 2)],
    "Holder": [([1, 2],), ([1, 2],), ([3],)],
}


def _pairs(name: str) -> list[tuple[Any, Any, Any, Any]]:
    """Every ordered pair of sample records: (oracle a, oracle b, shared a, shared b)."""
    oracle = [ORACLE[name](*args) for args in SAMPLES[name]]
    shared = [SHARED[name](*args) for args in SAMPLES[name]]
    n = len(oracle)
    return [(oracle[i], oracle[j], shared[i], shared[j]) for i in range(n) for j in range(n)]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_repr_is_the_one_dataclass_generates(name: str) -> None:
    for args in SAMPLES[name]:
        assert repr(SHARED[name](*args)) == repr(ORACLE[name](*args))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_equality_is_the_one_dataclass_generates(name: str) -> None:
    for oracle_a, oracle_b, shared_a, shared_b in _pairs(name):
        assert (shared_a == shared_b) == (oracle_a == oracle_b)
        assert (shared_a != shared_b) == (oracle_a != oracle_b)


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n != "Holder"))
def test_hash_is_the_one_dataclass_generates(name: str) -> None:
    for args in SAMPLES[name]:
        assert hash(SHARED[name](*args)) == hash(ORACLE[name](*args))


def test_a_record_holding_an_unhashable_field_is_refused_a_hash_as_dataclass_does() -> None:
    with pytest.raises(TypeError, match="unhashable"):
        hash(ORACLE["Holder"]([1]))
    with pytest.raises(TypeError, match="unhashable"):
        hash(SHARED["Holder"]([1]))


def test_records_of_other_classes_are_never_equal_even_a_subclass() -> None:
    for table in (ORACLE, SHARED):
        place, child = table["Place"]("a.sdf", 3), table["Child"]("a.sdf", 3)
        assert place != child and child != place
        assert place != ("a.sdf", 3)
        assert place.__eq__(("a.sdf", 3)) is NotImplemented


def test_a_record_met_again_inside_itself_is_shown_as_ellipsis() -> None:
    shown = []
    for table in (ORACLE, SHARED):
        holder = table["Holder"]([1])
        holder.items.append(holder)
        shown.append(repr(holder))
    assert shown[0] == shown[1] == "_twins.<locals>.Holder(items=[1, ...])"


def test_shared_records_stay_frozen_and_work_with_the_dataclasses_functions() -> None:
    place = SHARED["Place"]("a.sdf", 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        place.line = 4  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del place.file  # type: ignore[misc]
    assert dataclasses.replace(place, line=4) == SHARED["Place"]("a.sdf", 4)
    assert dataclasses.asdict(place) == {"file": "a.sdf", "line": 3}
    assert dataclasses.astuple(place) == ("a.sdf", 3)
    assert SHARED["Place"].__match_args__ == ("file", "line")


def test_shared_records_survive_pickling_as_the_audit_workers_need() -> None:
    # Module-level classes pickle by name: use the package's own records.
    from gzinertia.records import Note, SourceRef

    note = Note("warning", "code", "message", SourceRef("a.sdf", 3), link="base", data={"k": "v"})
    again = pickle.loads(pickle.dumps(note))
    assert again == note and hash(again.source) == hash(note.source)
    assert repr(again) == repr(note)


def _package_dataclasses() -> list[type[Any]]:
    """Every dataclass defined in gzinertia's modules (modules needing an absent optional
    extra are skipped: their classes are declared in the same way)."""
    found = []
    for info in pkgutil.walk_packages(gzinertia.__path__, "gzinertia."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == info.name
            ):
                found.append(value)
    return found


def test_every_dataclass_of_the_package_takes_its_methods_from_the_shared_bases() -> None:
    classes = _package_dataclasses()
    assert len(classes) > 80
    for cls in classes:
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert issubclass(cls, Record), cls
        assert not params.repr, f"{cls.__qualname__}: repr generated; derive from Record"
        if params.frozen:
            assert not params.eq, f"{cls.__qualname__}: eq generated; derive from ValueRecord"
