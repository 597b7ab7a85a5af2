"""The library's model-input keywords, declared once (issue 26's repeated signatures).

Every public function that reads a model takes ``model_paths``, ``package_paths``,
``xacro_args``, ``xacro_env`` and ``trust_xacro`` (and, where it writes for a target,
``gazebo`` and ``engine``) as ``**source: Unpack[...]`` of the ``TypedDict`` that declares them
in :mod:`gzinertia.model_input`; a keyword it does not take is refused at run time as Python
refuses one, and a warning an edit issues points at the caller's line through the wrapper.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from pathlib import Path

import pytest
from conftest import REPO

import gzinertia
from gzinertia.edit.added_mass_request import AddedMassKeywords, AddedMassRequest
from gzinertia.model_input import ModelInput, ModelSource, TargetedSource, TargetKeywords

#: Each public function that reads a model, and the keywords it takes as ``**``.
TAKES = {
    "read": ModelSource, "audit_paths": ModelSource, "compare": ModelSource,
    "html_report": ModelSource, "fix": ModelSource, "hydrostatics": TargetedSource,
    "migrate": TargetedSource, "addmass": AddedMassKeywords, "addmass_bem": AddedMassKeywords,
    "addmass_from": AddedMassKeywords, "convert": TargetKeywords, "hydro": TargetKeywords,
}
SOURCE_KEYS = set(ModelSource.__optional_keys__)


def _keys(kind: type) -> set[str]:
    return set(kind.__optional_keys__)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(TAKES))
def test_each_function_takes_the_declared_keywords_once(name: str) -> None:
    function = getattr(gzinertia, name)
    parameters = inspect.signature(function.__wrapped__).parameters  # as written
    (variadic,) = [p for p in parameters.values() if p.kind is p.VAR_KEYWORD]
    assert variadic.annotation == f"Unpack[{TAKES[name].__name__}]"
    own = set(parameters) - {variadic.name}
    # convert and hydro edit SDFormat only: their model paths are their own parameter
    assert own & SOURCE_KEYS == ({"model_paths"} if name in ("convert", "hydro") else set())
    assert not own & _keys(TAKES[name])


@pytest.mark.parametrize("name", sorted(TAKES))
def test_help_shows_each_keyword_with_its_type_and_default(name: str) -> None:
    """What ``help()`` and :func:`inspect.signature` show: every keyword of the group in place
    of ``**source``, keyword-only, its type the group's, its default what the call does
    without it (the model input's as :meth:`ModelInput.of` takes them, an added-mass edit's as
    :class:`AddedMassRequest`'s fields)."""
    shown = inspect.signature(getattr(gzinertia, name)).parameters
    assert not [p for p in shown.values() if p.kind is p.VAR_KEYWORD]
    of = inspect.signature(ModelInput.of).parameters
    request = {f.name: f.default for f in dataclasses.fields(AddedMassRequest)}
    for key in _keys(TAKES[name]):
        p = shown[key]
        assert p.kind is p.KEYWORD_ONLY and p.annotation != inspect.Parameter.empty
        want = of[key].default if key in of else request.get(key)
        assert p.default == want, (key, p.default)


def test_the_keyword_records_nest() -> None:
    assert _keys(TargetedSource) == SOURCE_KEYS | _keys(TargetKeywords)
    assert _keys(AddedMassKeywords) == _keys(TargetedSource) | {
        "upgrade_version", "replace_plugin_added_mass", "allow_overlap", "data"}


@pytest.mark.parametrize("name", sorted(TAKES))
def test_a_keyword_not_taken_is_refused_not_ignored(name: str) -> None:
    function = getattr(gzinertia, name)
    with pytest.raises(TypeError, match=rf"^{name}\(\) got an unexpected keyword argument "
                                        "'model_path'$"):
        function("robot.sdf", model_path=["models"])
    if name in ("read", "audit_paths", "compare", "html_report", "fix"):
        with pytest.raises(TypeError, match="'gazebo'"):
            function("robot.sdf", gazebo="harmonic")


def test_the_record_and_the_keywords_are_one_value() -> None:
    record = ModelInput.of(["models"], [Path("ws/src")], {"ns": "auv"}, ["HOME"], True)
    assert ModelInput.given(record.keywords()) == record
    assert ModelInput.given({}) == ModelInput()
    assert ModelInput().keywords()["xacro_args"] is None  # none given, not an empty mapping


def test_an_edit_warns_at_the_callers_line() -> None:
    """The harbour's quay is static: addmass skips it, with a warning at this test's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
        gzinertia.addmass(REPO / "sdf_examples" / "harbour_world.sdf", links="*")
    assert any("static" in str(w.message) for w in caught)
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line)}
