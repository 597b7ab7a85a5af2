"""The lines the text formats share: a finding, a file that was not audited, a settings file,
the target, the summary, and findings on identical links gathered into one group."""

from __future__ import annotations

import json
from collections.abc import Sequence

from gzinertia.audit.findings import (
    MACRO_CALL_ARG,
    AuditResult,
    FileStatus,
    Finding,
    SettingsUse,
)
from gzinertia.gazebo.target import Target
from gzinertia.report.json_text import json_safe
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import bounded, one_line, visible

__all__ = [
    "TOOL_NAME",
    "file_status_line",
    "finding_line",
    "group_findings",
    "group_line",
    "judged_targets",
    "others",
    "plural",
    "settings_line",
    "settings_summary",
    "summary_line",
    "target_line",
]

#: The tool's name in titles (SARIF driver, JUnit suites, GitHub annotation titles).
TOOL_NAME = "gzinertia"


def plural(n: int, word: str) -> str:
    """``1 file``, ``2 files``; ``info`` has no plural."""
    return f"{n} {word}" if n == 1 or word == "info" else f"{n} {word}s"


def summary_line(result: AuditResult) -> str:
    """One sentence: findings per severity, files audited, unreadable and skipped files."""
    counts = result.counts()
    files = plural(len(result.files), "file")
    unchecked = len(result.unchecked())
    extra = [
        f"{len(result.files_with('error'))} unreadable" if result.files_with("error") else "",
        f"{len(result.files_with('skipped'))} skipped" if result.files_with("skipped") else "",
        f"{unchecked} with every rule off" if unchecked else "",
    ]
    tail = ", ".join(e for e in extra if e)
    if not result.files_with("ok") and not result.findings:  # never "No findings in 0 files"
        if not result.files:
            return "Nothing audited: no SDFormat file (*.sdf, *.world) under the given paths."
        return f"Nothing audited ({tail}, listed above)."
    tail = f" ({tail})" if tail else ""
    if not result.findings:
        return f"No findings in {files}{tail}."
    found = f"{plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')}"
    return f"Found {found} and {plural(counts['info'], 'info')} in {files}{tail}."


def finding_line(finding: Finding) -> str:
    """``file:line: CODE severity [link] message`` on one line: newlines in the message become
    spaces; control characters in the file, link and message are made :func:`visible`."""
    file = visible(finding.file)
    where = file if finding.line == 0 else f"{file}:{finding.line}"
    link = f" [{visible(finding.link)}]" if finding.link else ""
    return f"{where}: {finding.code} {finding.severity}{link} {one_line(finding.message)}"


def file_status_line(status: FileStatus) -> str:
    """``file: error: message`` (or ``skipped``) for a file that was not audited (on one line,
    as :func:`finding_line`)."""
    return f"{visible(status.path)}: {status.status}: {one_line(status.message or status.status)}"


def settings_summary(use: SettingsUse) -> str:
    """What a settings file changed, on one line with control characters escaped:
    ``KEY = VALUE; ... (applied to N files)``, then ``every rule is off for M files: nothing is
    checked there`` or ``rules off: CODES``."""
    changes = "; ".join(f"{key} = {json.dumps(value, ensure_ascii=False)}"
                        for key, value in use.changes.items())
    text = f"{changes} (applied to {plural(len(use.files), 'file')})"
    if use.unchecked:
        n = plural(len(use.unchecked), "file")
        text += f"; every rule is off for {n}: nothing is checked there"
    elif use.rules_off:
        text += f"; rules off: {', '.join(use.rules_off)}"
    return one_line(text)


def settings_line(use: SettingsUse) -> str:
    """``PATH: settings: ...`` (:func:`settings_summary`) for a settings file that changed what
    was checked (as :func:`file_status_line` for a file)."""
    return f"{visible(use.path)}: settings: {settings_summary(use)}"


def judged_targets(result: AuditResult) -> tuple[Target, ...]:
    """The targets ``result`` judged its files for: none when no file was audited (an empty
    tree, every file skipped or unreadable: nothing was judged for a release)."""
    return result.targets if any(s.status == "ok" for s in result.files) else ()


def target_line(target: Target) -> str:
    """``target: Gazebo Jetty (gz-sim10_10.4.0, default), engine dartsim (default)``: the
    release and engine the files were judged for, each with where it came from."""
    return f"target: {visible(target.words())}"


def group_findings(findings: Sequence[Finding]) -> list[list[Finding]]:
    """Findings in their order, those that say the same thing about identical links gathered
    into one group (at the place of the first): same file, rule, severity, ``values`` and
    message template and arguments, leaving out those that say the link itself or where its
    xacro macro was called (:attr:`Finding.said_apart_from_link`: 8 identical rotors, one model
    included 8 times, one macro called 8 times). File-level findings and findings that differ in
    anything else stay alone."""
    groups: list[list[Finding]] = []
    index: dict[tuple[object, ...], int] = {}
    for f in findings:
        if f.link is None:
            groups.append([f])
            continue
        plain = {k: v for k, v in f.values.items() if k != MACRO_CALL_ARG}
        values = json.dumps(json_safe(plain), sort_keys=True, allow_nan=False)
        key = (f.file, f.code, f.severity, f.said_apart_from_link, values)
        if key in index:
            groups[index[key]].append(f)
        else:
            index[key] = len(groups)
            groups.append([f])
    return groups


def others(group: Sequence[Finding], short: bool = False) -> str:
    """``x500::rotor_1 (line 60), ...`` for the group's findings after the first (``short``:
    ``rotor_1 (60), ...``, the last component of each name), bounded: the first eight (an
    octocopter's other rotors) and how many more (:func:`gzinertia.wording.bounded`; a model of
    2,000 identical links made one 42,000-character line)."""
    first = group[0]
    out = []
    for f in group[1:]:
        name = f.link or ""
        name = visible(leaf_name(name) if short else name)
        if f.line != first.line:
            name += f" ({f.line})" if short else f" (line {f.line})"
        out.append(name)
    return bounded(out, shown=8)


def group_line(group: Sequence[Finding]) -> str:
    """:func:`finding_line` of the group's first finding, then, for a group, ``(the same on N
    more identical links: LINK (line L), ...)``."""
    line = finding_line(group[0])
    if len(group) == 1:
        return line
    more = plural(len(group) - 1, "more identical link")
    return f"{line} (the same on {more}: {others(group)})"

