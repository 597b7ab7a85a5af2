"""``gzinertia audit`` output formats, checked against the readers that consume them.

Results are built by hand (these are formats, not physics). The oracles are the consumers'
own rules: strict JSON parsing (no NaN tokens), the official SARIF 2.1.0 schema
(``tests/data/sarif-schema-2.1.0.json``, see ``tests/data/README.md``), an XML parser and the
structure GitLab and Jenkins read from JUnit files, and the GitHub Actions runner's
workflow-command parser (``ActionCommand.TryParseV2`` in actions/runner: first ``::`` after the
command ends the properties, ``,`` separates them, unescaping ``%0D %0A [%3A %2C] %25`` in that
order).
"""

from __future__ import annotations

import functools
import io
import json
import math
import os
import pickle
import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import FrozenInstanceError, replace
from pathlib import Path, PurePosixPath, PureWindowsPath
from types import MappingProxyType
from typing import Any
from urllib.parse import unquote, urlsplit

import hypothesis
import jsonschema
import numpy as np
import pytest
from audit_helpers import parse_workflow_command
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from rich.console import Console

from gzinertia.audit.findings import (
    SEVERITY_RANK,
    AuditResult,
    FileStatus,
    Finding,
    RuleInfo,
    SettingsUse,
    plain_json_value,
)
from gzinertia.report.audit import FORMATS, render, render_table
from gzinertia.report.audit.github import escape_github_data, escape_github_property
from gzinertia.report.audit.lines import summary_line
from gzinertia.report.audit.locations import artifact_uri, portable_path
from gzinertia.report.json_text import json_safe

SCHEMA_PATH = REPO / "tests" / "data" / "sarif-schema-2.1.0.json"
VERSION = "0.1.0"

RULES = {
    "GZI101": RuleInfo(
        "GZI101",
        "mass-not-positive",
        "error",
        "Link mass must be positive.",
        "docs/rules/GZI101.md",
    ),
    "GZI150": RuleInfo(
        "GZI150",
        "inertial-defaulted",
        "info",
        "No <inertial>: 1 kg default.",
        "docs/rules/GZI150.md",
    ),
    "GZI201": RuleInfo(
        "GZI201",
        "added-mass-about-com",
        "warning",
        "Added mass looks computed about the CoM.",
        "docs/rules/GZI201.md",
    ),
}

HULL_MASS = Finding(
    "GZI101",
    "error",
    "models/auv/model.sdf",
    40,
    "auv::hull",
    "mass -1 kg is not positive;\nset <mass> to 181.1 kg",
    {"m": -1.0, "I_BBcm_B": np.diag([1.0, 2.0, 3.0]), "bad": [math.nan, math.inf, -math.inf]},
)
HULL_ADDED = Finding(
    "GZI201",
    "warning",
    "models/auv/model.sdf",
    52,
    "auv::hull",
    "A_BBo_B is 5% off: fix, now",
    {"p_BoEo_B": (0.1, 0.0, -0.02), "note": "about Eo"},
)
FIN_DEFAULT = Finding(
    "GZI150", "info", "models/auv/model.sdf", 70, "auv::fin", "no <inertial>", {"m": 1}
)
FILE_LEVEL = Finding("GZI150", "warning", "models/auv/model.sdf", 0, None, "whole file", {})
INCLUDED = Finding("GZI201", "error", "models/dock/model.sdf", 9, "dock::base", "included", {})

FILES = (
    FileStatus("models/auv/model.sdf", "ok"),
    FileStatus("models/broken.sdf", "error", "not XML: line 3, column 7: mismatched tag"),
    FileStatus("README.md", "skipped", "not an SDF file"),
    FileStatus("models/clean.sdf", "ok"),
)


def example() -> AuditResult:
    """Two links with findings, a file-level finding, an included file, error/skip/clean files."""
    return AuditResult(FILES, (INCLUDED, FIN_DEFAULT, HULL_ADDED, FILE_LEVEL, HULL_MASS))


EMPTY = AuditResult()


# ---------------------------------------------------------------------------------------------
# The data model


def test_findings_are_sorted_by_file_line_code() -> None:
    result = example()
    keys = [(f.file, f.line, f.code) for f in result.findings]
    assert keys == sorted(keys)
    assert result.findings[0] is FILE_LEVEL and result.findings[-1] is INCLUDED


def test_counts_worst_threshold_and_filtering() -> None:
    result = example()
    assert result.counts() == {"error": 2, "warning": 2, "info": 1}
    assert result.worst() == "error"
    assert EMPTY.worst() is None and EMPTY.counts() == {"error": 0, "warning": 0, "info": 0}
    assert [s for s in SEVERITY_RANK] and SEVERITY_RANK["info"] < SEVERITY_RANK["warning"]
    assert SEVERITY_RANK["warning"] < SEVERITY_RANK["error"]
    warnings_up = result.at_least("warning")
    assert FIN_DEFAULT not in warnings_up.findings and len(warnings_up.findings) == 4
    assert warnings_up.files == result.files
    infos_only = AuditResult((FileStatus("a.sdf", "ok"),), (FIN_DEFAULT,))
    assert not infos_only.fails("warning") and infos_only.fails("info")
    unreadable = AuditResult((FileStatus("a.sdf", "error", "gone"),), ())
    assert unreadable.fails("error")  # an unreadable file fails CI whatever the threshold


def test_paths_include_files_only_findings_name() -> None:
    result = example()
    assert result.paths() == (*(s.path for s in FILES), "models/dock/model.sdf")
    groups = result.by_file()
    assert groups["models/clean.sdf"] == ()
    assert groups["models/dock/model.sdf"] == (INCLUDED,)


def test_values_become_plain_read_only_json_data() -> None:
    assert HULL_MASS.values["I_BBcm_B"] == [[1.0, 0, 0], [0, 2.0, 0], [0, 0, 3.0]]
    assert type(HULL_MASS.values["I_BBcm_B"][0][0]) is float
    assert HULL_ADDED.values["p_BoEo_B"] == [0.1, 0.0, -0.02]
    assert math.isnan(HULL_MASS.values["bad"][0])  # kept as a float in the model
    with pytest.raises(TypeError):
        HULL_MASS.values["m"] = 2.0  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        HULL_MASS.line = 3  # type: ignore[misc]
    assert hash(HULL_MASS) == hash(HULL_MASS)  # hashable despite the mapping
    copy = pickle.loads(pickle.dumps(HULL_ADDED))  # e.g. from a worker process
    assert copy == HULL_ADDED and isinstance(copy.values, MappingProxyType)
    assert plain_json_value(np.int64(3)) == 3 and type(plain_json_value(np.int64(3))) is int
    with pytest.raises(TypeError, match=r"GZI101\.values\.x"):
        Finding("GZI101", "error", "a.sdf", 1, None, "m", {"x": object()})


@pytest.mark.parametrize(
    "make",
    [
        lambda: Finding("GZI101", "fatal", "a.sdf", 1, None, "m"),  # type: ignore[arg-type]
        lambda: Finding("GZI101", "error", "a.sdf", -1, None, "m"),
        lambda: FileStatus("a.sdf", "broken"),  # type: ignore[arg-type]
        lambda: RuleInfo("GZI101", "MassNotPositive", "error", "s", "docs/rules/GZI101.md"),
        lambda: RuleInfo("gzi-101", "mass-not-positive", "error", "s", "docs/rules/GZI101.md"),
    ],
)
def test_invalid_data_is_refused(make: Any) -> None:
    with pytest.raises(ValueError):
        make()


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="table, json, sarif, junit, github, text"):
        render(EMPTY, "xml", RULES, VERSION)


# ---------------------------------------------------------------------------------------------
# JSON: the public contract


def _strict_json(text: str) -> Any:
    def refuse(token: str) -> None:
        raise AssertionError(f"invalid JSON token {token}")

    return json.loads(text, parse_constant=refuse)


def _as_json_sees_it(value: Any) -> Any:
    """The documented convention (docs/json.md): every number is finite; ``null`` stands where
    a number is not finite; strings, finite numbers, booleans and ``None`` stay as they are."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (list, tuple)):
        return [_as_json_sees_it(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_json_sees_it(v) for k, v in value.items()}
    return value


def _same_json(a: Any, b: Any) -> bool:
    """Equality where NaN equals NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) is type(b)


def _check_json_contract(data: Any, result: AuditResult) -> None:
    assert list(data) == ["version", "files", "findings", "settings"]
    assert data["settings"] == [
        {"path": u.path, "files": list(u.files), "changes": _as_json_sees_it(dict(u.changes)),
         "rules_off": list(u.rules_off), "unchecked": list(u.unchecked)}
        for u in result.settings
    ]
    assert data["version"] == VERSION
    assert [list(f) for f in data["files"]] == [["path", "status", "message"]] * len(result.files)
    assert [FileStatus(**f) for f in data["files"]] == list(result.files)
    keys = ["code", "severity", "file", "line", "link", "message", "values"]
    assert all(list(f) == keys for f in data["findings"])
    assert len(data["findings"]) == len(result.findings)
    for item, want in zip(data["findings"], result.findings, strict=True):
        assert isinstance(item["line"], int) and item["severity"] in SEVERITY_RANK
        got = dict(item)
        values = got.pop("values")
        assert Finding(**got) == replace(want, values={})  # every field but values
        assert _same_json(values, _as_json_sees_it(dict(want.values)))


def test_json_round_trips_the_contract() -> None:
    result = example()
    data = _strict_json(render(result, "json", RULES, VERSION))
    _check_json_contract(data, result)
    hull = next(f for f in data["findings"] if f["code"] == "GZI101")
    assert hull["values"]["bad"] == [None, None, None]  # documented: not finite is null
    assert hull["values"]["m"] == -1.0 and isinstance(hull["values"]["m"], float)
    assert data["files"][1] == {
        "path": "models/broken.sdf",
        "status": "error",
        "message": "not XML: line 3, column 7: mismatched tag",
    }
    assert data["files"][0]["message"] is None


def test_json_of_nothing() -> None:
    assert _strict_json(render(EMPTY, "json", RULES, VERSION)) == {
        "settings": [],
        "version": VERSION,
        "files": [],
        "findings": [],
    }


def test_json_safe_leaves_finite_numbers_alone() -> None:
    assert json_safe([1, 2.5, -0.0, "x", None, True]) == [1, 2.5, -0.0, "x", None, True]
    assert json_safe({"a": [math.inf, -math.inf, math.nan]}) == {"a": [None, None, None]}


def test_json_strings_that_spell_non_finite_numbers_stay_strings() -> None:
    """The string "NaN" and the float NaN must not read back alike (issue 10): a value that is
    itself a string reads back as that string, in the audit's JSON and in SARIF."""
    spelled = Finding(
        "GZI101", "error", "a.sdf", 3, "m::l", "x",
        {"text": "NaN", "inf": "Infinity", "neg": "-Infinity", "num": math.nan, "big": math.inf},
    )
    result = AuditResult((FileStatus("a.sdf", "ok"),), (spelled,))
    for got in (
        _strict_json(render(result, "json", RULES, VERSION))["findings"][0]["values"],
        _strict_json(render(result, "sarif", RULES, VERSION))["runs"][0]["results"][0][
            "properties"
        ]["values"],
    ):
        assert got == {"text": "NaN", "inf": "Infinity", "neg": "-Infinity", "num": None,
                       "big": None}
        assert all(isinstance(got[k], str) for k in ("text", "inf", "neg"))


# ---------------------------------------------------------------------------------------------
# Strategies for property tests

_codes = st.sampled_from(["GZI101", "GZI150", "GZI201", "GZI210"])
_severity = st.sampled_from(["error", "warning", "info"])
_paths = st.sampled_from(
    ["a.sdf", "models/auv/model.sdf", "my models/x,y:z.sdf", "models/ü%20.sdf", "w/100%.sdf"]
)
_words = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40
)  # any text: control characters, %, ::, commas, newlines
_floats = st.floats(allow_nan=True, allow_infinity=True)
_values = st.dictionaries(
    st.text(min_size=1, max_size=8),
    st.one_of(
        _floats,
        st.integers(-(10**6), 10**6),
        st.text(max_size=10),
        st.lists(_floats, max_size=4),
        st.lists(st.lists(_floats, min_size=3, max_size=3), min_size=3, max_size=3),
    ),
    max_size=4,
)
_findings = st.builds(
    Finding,
    code=_codes,
    severity=_severity,
    file=_paths,
    line=st.integers(0, 5000),
    link=st.one_of(st.none(), st.sampled_from(["m::a", "m::n::b", "w::m::c"])),
    message=_words,
    values=_values,
)
_statuses = st.builds(
    FileStatus,
    path=_paths,
    status=st.sampled_from(["ok", "skipped", "error"]),
    message=st.one_of(st.none(), _words),
)
_settings = st.builds(
    SettingsUse,
    path=st.sampled_from(["pyproject.toml", "sub/.gzinertia.toml", "my models/x,y:z.toml"]),
    files=st.lists(_paths, max_size=3, unique=True).map(tuple),
    changes=st.dictionaries(st.sampled_from(["select", "ignore", "model-path", "xacro-args"]),
                            st.lists(_words, max_size=2), min_size=1, max_size=2),
    rules_off=st.lists(_codes, max_size=3, unique=True).map(lambda c: tuple(sorted(c))),
)
_results = st.builds(
    AuditResult,
    files=st.lists(_statuses, max_size=4, unique_by=lambda s: s.path).map(tuple),
    findings=st.lists(_findings, max_size=8).map(tuple),
    settings=st.lists(_settings, max_size=2, unique_by=lambda u: u.path).map(tuple),
)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(_results)
@hypothesis.example(  # the draw that failed a fresh-clone `make test` (issue 10): the string "NaN"
    AuditResult(
        (),
        (
            Finding("GZI101", "error", "a.sdf", 0, None, "", {}),
            Finding("GZI101", "error", "a.sdf", 0, None, "", {"0": "NaN"}),
        ),
    )
)
def test_json_round_trips_any_result(result: AuditResult) -> None:
    _check_json_contract(_strict_json(render(result, "json", RULES, VERSION)), result)


# ---------------------------------------------------------------------------------------------
# SARIF 2.1.0


@functools.cache
def _official_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


@pytest.fixture
def sarif_validator() -> jsonschema.Draft4Validator:
    return _official_validator()


def _sarif(result: AuditResult, validator: jsonschema.Draft4Validator, **kw: Any) -> Any:
    log = _strict_json(render(result, "sarif", RULES, VERSION, **kw))
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    return log


def test_the_schema_is_the_official_one_and_bites(
    sarif_validator: jsonschema.Draft4Validator,
) -> None:
    schema = sarif_validator.schema
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    log = _sarif(example(), sarif_validator)
    log["runs"][0]["results"][0]["level"] = "info"  # SARIF says "note"
    assert not sarif_validator.is_valid(log)
    log = _sarif(example(), sarif_validator)
    log["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    assert not sarif_validator.is_valid(log)


def test_sarif_rules_results_and_locations(sarif_validator: jsonschema.Draft4Validator) -> None:
    result = example()
    log = _sarif(result, sarif_validator)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("gzinertia", VERSION)
    rules = driver["rules"]
    assert [r["id"] for r in rules] == sorted(RULES)
    for descriptor in rules:
        rule = RULES[descriptor["id"]]
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert rule.doc in descriptor["help"]["text"] and rule.doc in descriptor["help"]["markdown"]
        level = {"error": "error", "warning": "warning", "info": "note"}[rule.severity]
        assert descriptor["defaultConfiguration"]["level"] == level
        assert "helpUri" not in descriptor  # no absolute URI known: none written
    assert "informationUri" not in driver
    assert len(run["results"]) == len(result.findings)
    for got, want in zip(run["results"], result.findings, strict=True):
        assert got["ruleId"] == want.code == rules[got["ruleIndex"]]["id"]
        assert (
            got["level"] == {"error": "error", "warning": "warning", "info": "note"}[want.severity]
        )
        assert got["message"]["text"] == want.message
        (location,) = got["locations"]
        artifact = location["physicalLocation"]["artifactLocation"]
        assert artifact == {"uri": want.file, "uriBaseId": "%SRCROOT%"}
        if want.line:
            assert location["physicalLocation"]["region"] == {"startLine": want.line}
        else:
            assert "region" not in location["physicalLocation"]
        if want.link:
            (logical,) = location["logicalLocations"]
            assert logical["fullyQualifiedName"] == want.link
            assert logical["name"] == want.link.split("::")[-1]
        else:
            assert "logicalLocations" not in location
        assert _same_json(got["properties"]["values"], _as_json_sees_it(dict(want.values)))


def test_sarif_file_errors_are_tool_notifications(
    sarif_validator: jsonschema.Draft4Validator,
) -> None:
    (invocation,) = _sarif(example(), sarif_validator)["runs"][0]["invocations"]
    notes = invocation["toolExecutionNotifications"]
    assert [(n["level"], n["descriptor"]["id"]) for n in notes] == [
        ("error", "file-error"),
        ("note", "file-skipped"),
    ]
    uri = notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "models/broken.sdf" and "mismatched tag" in notes[0]["message"]["text"]


def test_sarif_help_uris_are_absolute_when_the_project_uri_is_known(
    sarif_validator: jsonschema.Draft4Validator,
) -> None:
    base = "https://example.org/gzinertia/blob/main/"
    driver = _sarif(example(), sarif_validator, project_uri=base)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == base
    for descriptor in driver["rules"]:
        parts = urlsplit(descriptor["helpUri"])  # draft-04 "uri": absolute (not checked by
        assert parts.scheme == "https" and parts.netloc  # jsonschema without rfc3987)
        assert descriptor["helpUri"] == base + f"docs/rules/{descriptor['id']}.md"
    with pytest.raises(ValueError):
        render(EMPTY, "sarif", RULES, VERSION, project_uri="docs/")


def test_sarif_of_nothing_and_unknown_rule(sarif_validator: jsonschema.Draft4Validator) -> None:
    run = _sarif(EMPTY, sarif_validator)["runs"][0]
    assert run["results"] == [] and "toolExecutionNotifications" not in run["invocations"][0]
    stray = AuditResult((), (Finding("GZI999", "info", "a.sdf", 1, None, "?"),))
    run = _sarif(stray, sarif_validator)["runs"][0]
    assert run["tool"]["driver"]["rules"][run["results"][0]["ruleIndex"]] == {"id": "GZI999"}


@FAST
@given(_results)
def test_sarif_is_valid_for_any_result(result: AuditResult) -> None:
    run = _sarif(result, _official_validator())["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for got, want in zip(run["results"], result.findings, strict=True):
        assert rules[got["ruleIndex"]]["id"] == got["ruleId"] == want.code
        uri = got["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert unquote(uri) == want.file and " " not in uri


def test_artifact_uris_are_relative_with_forward_slashes() -> None:
    win = PureWindowsPath("C:/work/repo")
    assert portable_path(r"models\auv\model.sdf", win) == ("models/auv/model.sdf", True)
    assert artifact_uri(r"C:\work\repo\models\a b.sdf", win) == ("models/a%20b.sdf", "%SRCROOT%")
    assert artifact_uri(r"D:\elsewhere\x.sdf", win) == ("file:///D:/elsewhere/x.sdf", None)
    posix = PurePosixPath("/work/repo")
    assert artifact_uri("./models/x.sdf", posix) == ("models/x.sdf", "%SRCROOT%")
    assert artifact_uri("/work/repo/m/ü.sdf", posix) == ("m/%C3%BC.sdf", "%SRCROOT%")
    assert artifact_uri("/tmp/x.sdf", posix) == ("file:///tmp/x.sdf", None)


def test_sarif_absolute_path_outside_the_tree_is_a_file_uri(
    sarif_validator: jsonschema.Draft4Validator,
) -> None:
    outside = Path("/") / "nonexistent-root" / "x.sdf"
    inside = Path.cwd() / "sub dir" / "y.sdf"
    result = AuditResult(
        (),
        (
            Finding("GZI101", "error", str(outside), 3, None, "m"),
            Finding("GZI101", "error", str(inside), 4, None, "m"),
        ),
    )
    results = _sarif(result, sarif_validator)["runs"][0]["results"]
    # Findings sort by path, so their order depends on where the checkout lives: key by line.
    by_line = {
        r["locations"][0]["physicalLocation"]["region"]["startLine"]: r["locations"][0][
            "physicalLocation"
        ]["artifactLocation"]
        for r in results
    }
    assert by_line[3] == {"uri": "file:///nonexistent-root/x.sdf"}
    assert by_line[4] == {"uri": "sub%20dir/y.sdf", "uriBaseId": "%SRCROOT%"}


# ---------------------------------------------------------------------------------------------
# JUnit XML


def _gitlab_status(case: ET.Element) -> str:
    """GitLab's JUnit parser: failure, else error, else skipped, else success."""
    for tag, status in (("failure", "failed"), ("error", "error"), ("skipped", "skipped")):
        if case.find(tag) is not None:
            return status
    return "success"


def _check_junit_structure(root: ET.Element) -> None:
    """The attributes GitLab and Jenkins read, and counts that add up."""
    assert root.tag == "testsuites"
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.findall("testsuite"):
        assert suite.get("name")
        cases = suite.findall("testcase")
        counts = {
            "tests": len(cases),
            "failures": sum(
                c.find("failure") is not None and c.find("error") is None for c in cases
            ),
            "errors": sum(c.find("error") is not None for c in cases),
            "skipped": sum(
                c.find("skipped") is not None
                and c.find("failure") is None
                and c.find("error") is None
                for c in cases
            ),
        }
        for key, value in counts.items():
            assert int(suite.get(key, "-1")) == value, key
            totals[key] += value
        for case in cases:
            assert case.get("classname") and case.get("name") and case.get("time") == "0"
            assert len(case.findall("failure")) <= 1  # one <failure> per test case
    for key, value in totals.items():
        assert int(root.get(key, "-1")) == value, key


def test_junit_suites_cases_failures() -> None:
    result = example()
    text = render(result, "junit", RULES, VERSION)
    root = ET.fromstring(text)
    etree.fromstring(text.encode("utf-8"))  # lxml (stricter) parses it too
    _check_junit_structure(root)
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == list(result.paths())  # one suite per file, files in order

    auv = {c.get("name"): c for c in suites["models/auv/model.sdf"].findall("testcase")}
    assert list(auv) == ["(file)", "auv::hull", "auv::fin"]
    assert {c.get("classname") for c in auv.values()} == {"models/auv/model"}
    assert auv["auv::hull"].get("file") == "models/auv/model.sdf"
    # One <failure> per test case (issue 10: JUnit readers show or count only one), naming
    # every code; its text holds every finding with its values.
    (failure,) = auv["auv::hull"].findall("failure")
    assert failure.get("type") == "GZI101,GZI201"
    assert failure.get("message") == (
        "2 findings: GZI101 mass -1 kg is not positive; set <mass> to 181.1 kg | "
        "GZI201 A_BBo_B is 5% off: fix, now"
    )
    assert "models/auv/model.sdf:40: GZI101 error [auv::hull]" in (failure.text or "")
    assert "models/auv/model.sdf:52: GZI201 warning [auv::hull]" in (failure.text or "")
    # the values come along, non-finite ones in words (issue 24: no output prints nan or inf)
    assert "bad = [undefined, unbounded, -unbounded]" in (failure.text or "")
    fin = auv["auv::fin"]
    assert fin.find("failure") is None and _gitlab_status(fin) == "success"
    assert "GZI150 info [auv::fin] no <inertial>" in (fin.findtext("system-out") or "")
    assert [f.get("type") for f in auv["(file)"].findall("failure")] == ["GZI150"]
    hull_out = auv["auv::hull"].findtext("system-out") or ""
    assert "GZI101" in hull_out and "GZI201" in hull_out  # Jenkins shows only the 1st failure

    (broken,) = suites["models/broken.sdf"].findall("testcase")
    assert _gitlab_status(broken) == "error"
    assert broken.find("error").get("message") == FILES[1].message  # type: ignore[union-attr]
    (skipped,) = suites["README.md"].findall("testcase")
    assert _gitlab_status(skipped) == "skipped"
    (clean,) = suites["models/clean.sdf"].findall("testcase")
    assert _gitlab_status(clean) == "success"
    # auv: (file), hull, fin; broken; README; clean; dock: (file), base
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("8", "3", "1")


def test_junit_of_nothing_and_of_unprintable_text() -> None:
    root = ET.fromstring(render(EMPTY, "junit", RULES, VERSION))
    assert root.tag == "testsuites" and root.get("tests") == "0" and not list(root)
    nasty = Finding("GZI101", "error", "a.sdf", 1, "m::l\x01", "bell\x07 esc\x1b ]]> & <x/>")
    text = render(AuditResult((), (nasty,)), "junit", RULES, VERSION)
    case = etree.fromstring(text.encode("utf-8")).findall("testsuite/testcase")[1]
    assert case.get("name") == "m::l\\x01"  # shown escaped, as in the text format
    # Controls XML cannot hold are shown escaped (as in the text format), not dropped.
    assert case.find("failure").get("message") == "bell\\x07 esc\\x1b ]]> & <x/>"


@FAST
@given(_results)
def test_junit_is_well_formed_for_any_result(result: AuditResult) -> None:
    text = render(result, "junit", RULES, VERSION)
    root = ET.fromstring(etree.tostring(etree.fromstring(text.encode("utf-8"))))
    _check_junit_structure(root)
    n_failures = sum(len(c.findall("failure")) for c in root.iter("testcase"))
    failing_cases = {(f.file, f.link) for f in result.findings if f.severity != "info"}
    assert n_failures == len(failing_cases)  # one <failure> per failing test case


# ---------------------------------------------------------------------------------------------
# GitHub workflow commands


def test_github_annotations_read_back() -> None:
    result = example()
    lines = render(result, "github", RULES, VERSION).split("\n")
    assert lines[-1] == "" and lines[-2] == summary_line(result)
    commands = [parse_workflow_command(line) for line in lines[:-2]]
    for (name, props, data), f in zip(commands, result.findings, strict=False):
        assert name == {"error": "error", "warning": "warning", "info": "notice"}[f.severity]
        assert props["file"] == f.file and props["title"] == f.code
        assert props.get("line") == (str(f.line) if f.line else None)
        assert data == (f"[{f.link}] {f.message}" if f.link else f.message)
    hull = next(line for line in lines if "GZI101" in line)
    assert hull.endswith("is not positive;%0Aset <mass> to 181.1 kg")
    tail = commands[len(result.findings) :]
    assert [(c[0], c[1]["file"]) for c in tail] == [
        ("error", "models/broken.sdf"),
        ("notice", "README.md"),
    ]
    assert tail[0][2] == FILES[1].message and tail[0][1]["title"] == "gzinertia: file error"


def test_github_escaping_as_the_docs_say() -> None:
    assert escape_github_data("50%\r\n:,") == "50%25%0D%0A:,"
    assert escape_github_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert escape_github_data("%0A") == "%250A"  # a literal %0A stays literal


def _acted_on(text: str) -> set[str]:
    """The characters of ``text`` a terminal or a log viewer acts on instead of showing: every
    control (C0, DEL, C1) but the line feed, format characters (bidi overrides, isolates, zero
    widths), line and paragraph separators, surrogates."""
    return {ch for ch in text if ch != "\n"
            and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")}


@FAST
@given(st.lists(_findings, min_size=1, max_size=5))
def test_github_round_trips_any_text(findings: list[Finding]) -> None:
    """What the runner reads back is the finding, exactly when it holds nothing to act on;
    otherwise those characters arrive escaped, and the message keeps its line breaks."""
    result = AuditResult((), tuple(findings))
    out = render(result, "github", RULES, VERSION)
    lines = out.split("\n")[: len(findings)]
    for line, f in zip(lines, result.findings, strict=True):
        assert "\n" not in line and "\r" not in line
        _, props, data = parse_workflow_command(line)
        assert props["file"] == f.file and props["title"] == f.code
        written = f"[{f.link}] {f.message}" if f.link else f.message
        assert not _acted_on(data)
        if not _acted_on(written):
            assert data == written
        assert data.count("\n") == written.count("\n")


# ---------------------------------------------------------------------------------------------
# text and table

_TEXT_LINE = re.compile(
    r"^(?P<file>[^:]+)(?::(?P<line>\d+))?: (?P<code>GZI\d+) (?P<sev>error|warning|info)"
    r"(?: \[(?P<link>[^\]]+)\])? (?P<message>.*)$"
)


def test_text_lines_parse_back() -> None:
    result = example()
    lines = render(result, "text", RULES, VERSION).splitlines()
    assert len(lines) == len(result.findings) + 2 + 1
    for line, f in zip(lines, result.findings, strict=False):
        m = _TEXT_LINE.match(line)
        assert m, line
        assert (m["file"], int(m["line"] or 0), m["code"], m["sev"], m["link"]) == (
            f.file,
            f.line,
            f.code,
            f.severity,
            f.link,
        )
        assert m["message"] == " ".join(f.message.splitlines())
    assert lines[len(result.findings)] == (
        "models/broken.sdf: error: not XML: line 3, column 7: mismatched tag"
    )
    assert lines[len(result.findings) + 1] == "README.md: skipped: not an SDF file"
    assert lines[-1] == (
        "Found 2 errors, 2 warnings and 1 info in 4 files (1 unreadable, 1 skipped)."
    )


def test_text_of_nothing() -> None:
    assert render(EMPTY, "text", RULES, VERSION) == (
        "Nothing audited: no SDFormat file (*.sdf, *.world) under the given paths.\n"
    )
    one = AuditResult((FileStatus("a.sdf", "ok"),), ())
    assert render(one, "text", RULES, VERSION) == "No findings in 1 file.\n"


@FAST
@given(_results)
def test_text_has_one_line_per_finding(result: AuditResult) -> None:
    """One line per finding, except that findings repeated on identical links share one
    (tests/test_audit_grouping.py); every finding is on a line of its file, code and link."""
    lines = render(result, "text", RULES, VERSION).splitlines()
    n_bad = sum(s.status != "ok" for s in result.files) + len(result.settings)  # a line each
    file_level = [f for f in result.findings if f.link is None]
    with_link = [f for f in result.findings if f.link is not None]
    assert len(file_level) + n_bad + 1 <= len(lines) <= len(result.findings) + n_bad + 1
    for f in with_link:
        assert any(
            line.startswith(f"{f.file}:") and f" {f.code} " in line and f.link in line
            for line in lines
        )


def test_table_groups_by_file_and_colours_severity() -> None:
    result = example()
    plain = render(result, "table", RULES, VERSION)
    order = [plain.index(p) for p in ("models/auv/model.sdf", "models/broken.sdf", "README.md")]
    assert order == sorted(order) and plain.index("models/dock/model.sdf") > order[-1]
    assert "models/clean.sdf" not in plain  # clean files only count in the summary
    assert "GZI101 mass-not-positive" in plain and "auv::hull" in plain
    assert "no <inertial>" in plain  # messages are not read as rich markup
    assert plain.rstrip().endswith(summary_line(result))
    assert "\x1b[" not in plain

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=140)
    render_table(result, console, RULES)
    coloured = buffer.getvalue()
    assert "\x1b[1;31merror" in coloured and "\x1b[33mwarning" in coloured
    assert "\x1b[36minfo" in coloured


def test_every_format_renders_nothing() -> None:
    for fmt in FORMATS:
        out = render(EMPTY, fmt, RULES, VERSION)
        assert out.endswith("\n")


def test_property_tests_are_deterministic() -> None:
    """The suite's hypothesis profile (tests/conftest.py): derandomized, no example database,
    so the same code gives the same verdict on every run and machine."""
    if os.environ.get("HYPOTHESIS_PROFILE", "deterministic") != "deterministic":
        pytest.skip("an exploring profile was asked for")
    assert settings.default.derandomize is True
    assert settings.default.database is None
