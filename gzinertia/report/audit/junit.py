"""The ``junit`` format: JUnit XML as GitLab and Jenkins read it."""

from __future__ import annotations

import functools
import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from gzinertia.audit.findings import AuditResult, FileStatus, Finding
from gzinertia.report.audit.lines import TOOL_NAME, finding_line, settings_summary
from gzinertia.report.audit.locations import portable_path
from gzinertia.wording import one_line, visible

if TYPE_CHECKING:  # xml.etree is imported only when JUnit is written
    import xml.etree.ElementTree as ET

__all__ = ["render_junit"]

_FILE_LEVEL_CASE = "(file)"


@functools.cache
def _not_xml() -> re.Pattern[str]:
    """Characters XML 1.0 cannot hold, even escaped (compiled on first use: the class of
    Unicode ranges takes milliseconds to compile, and only JUnit output needs it)."""
    return re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text: str) -> str:
    return _not_xml().sub("\ufffd", text)


def _human_value(value: object) -> str:
    """A finding's value as JSON text, but for people: a non-finite number reads
    ``undefined`` (NaN) or ``unbounded`` (±∞), never ``NaN`` or ``Infinity``."""
    if isinstance(value, float) and not math.isfinite(value):
        return "undefined" if math.isnan(value) else "unbounded" if value > 0 else "-unbounded"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_human_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(key))}: {_human_value(item)}"
                               for key, item in value.items()) + "}"
    return json.dumps(value)


def _finding_details(finding: Finding) -> str:
    """The text-format line, then one ``key = value`` line per value (human text, not JSON:
    non-finite numbers read ``undefined``, ``unbounded``)."""
    lines = [finding_line(finding)]
    for key, value in finding.values.items():
        lines.append(f"  {visible(key)} = {_human_value(value)}")
    return "\n".join(lines)


def _classname(path: str) -> str:
    posix = PurePosixPath(portable_path(path)[0])
    return visible(str(posix.with_suffix("")) if posix.suffix else str(posix))


def _testcase(
    suite: ET.Element, path: str, name: str, findings: list[Finding], status: FileStatus | None
) -> str:
    """Adds one ``<testcase>``; returns its outcome: error, failure, skipped or passed."""
    attrs = {"classname": _xml_text(_classname(path)), "name": _xml_text(visible(name)),
             "time": "0"}
    attrs["file"] = _xml_text(visible(portable_path(path)[0]))
    if findings and findings[0].line > 0:
        attrs["line"] = str(findings[0].line)
    case = ET.SubElement(suite, "testcase", attrs)
    outcome = "passed"
    if status is not None and status.status == "error":
        message = _xml_text(one_line(status.message or "could not be audited"))
        ET.SubElement(case, "error", {"type": "file-error", "message": message}).text = message
        outcome = "error"
    failures = [f for f in findings if f.severity != "info"]
    if failures:  # one <failure> per test case: JUnit readers show (or count) only one
        codes = ",".join(dict.fromkeys(f.code for f in failures))
        if len(failures) == 1:
            message = one_line(failures[0].message)
        else:
            parts = " | ".join(f"{f.code} {one_line(f.message)}" for f in failures)
            message = f"{len(failures)} findings: {parts}"
        text = "\n\n".join(_finding_details(f) for f in failures)
        attrs = {"type": codes, "message": _xml_text(message)}
        ET.SubElement(case, "failure", attrs).text = _xml_text(text)
    if failures and outcome == "passed":
        outcome = "failure"
    if status is not None and status.status == "skipped" and outcome == "passed":
        skipped = _xml_text(one_line(status.message or "skipped"))
        ET.SubElement(case, "skipped", {"message": skipped})
        outcome = "skipped"
    if findings:
        # Every finding of the case, info included: Jenkins shows only the first <failure>.
        details = "\n".join(_finding_details(f) for f in findings) + "\n"
        ET.SubElement(case, "system-out").text = _xml_text(details)
    return outcome


def _set_counts(element: ET.Element, outcomes: list[str]) -> None:
    element.set("tests", str(len(outcomes)))
    element.set("failures", str(outcomes.count("failure")))
    element.set("errors", str(outcomes.count("error")))
    element.set("skipped", str(outcomes.count("skipped")))
    element.set("time", "0")


def render_junit(result: AuditResult) -> str:
    """JUnit XML as GitLab and Jenkins read it.

    ``<testsuites>`` holds one ``<testsuite name=FILE>`` per file; in it, one ``<testcase
    classname=FILE-without-suffix name=...>`` for the file itself (``name="(file)"``, file-level
    findings and the file's own status) and one per link with findings (``name`` = scoped link).
    A case with findings at warning or above has one ``<failure type=CODES message=...>``
    (JUnit readers show or count one per case): ``type`` lists the codes (comma separated),
    ``message`` the finding's message or ``N findings: CODE message | ...``, the text each
    finding's text-format line plus its ``values``; ``<system-out>`` lists every finding of the
    case, info included. An unreadable file is an ``<error type="file-error">``, a skipped one
    ``<skipped>``.
    Counts (``tests``, ``failures``, ``errors``, ``skipped``) count test cases, each in one
    outcome: error, else failure, else skipped, else passed. A file whose settings file changed
    what was checked has ``<properties><property name="gzinertia.settings" value="SETTINGS:
    what it changed"/></properties>`` in its suite.
    """
    root = ET.Element("testsuites", {"name": f"{TOOL_NAME} audit"})
    status_of = {s.path: s for s in result.files}
    settings_of = {path: use for use in result.settings for path in use.files}
    all_outcomes: list[str] = []
    for path, findings in result.by_file().items():
        name = _xml_text(visible(portable_path(path)[0]))
        suite = ET.SubElement(root, "testsuite", {"name": name})
        use = settings_of.get(path)
        if use is not None:  # <properties> come first in a <testsuite>
            value = _xml_text(f"{visible(portable_path(use.path)[0])}: {settings_summary(use)}")
            properties = ET.SubElement(suite, "properties")
            ET.SubElement(properties, "property", {"name": "gzinertia.settings", "value": value})
        by_link: dict[str | None, list[Finding]] = {None: []}
        for f in findings:
            by_link.setdefault(f.link, []).append(f)
        outcomes = []
        for link, items in by_link.items():
            status = status_of.get(path) if link is None else None
            name = _FILE_LEVEL_CASE if link is None else link
            outcomes.append(_testcase(suite, path, name, items, status))
        _set_counts(suite, outcomes)
        all_outcomes += outcomes
    _set_counts(root, all_outcomes)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"

