r"""Every output of ``gzinertia audit``: text, rich table, JSON, SARIF 2.1.0, JUnit XML, GitHub.

All formats show the same findings in the same order (:attr:`Finding.sort_key`) and the files that
could not be audited. Conventions shared by the formats:

* Paths: text, table and JSON keep them exactly as the audit was given them. JUnit and GitHub
  write them with forward slashes, absolute paths under the working directory made relative to
  it; SARIF writes those as percent-encoded URI references relative to ``%SRCROOT%`` (the
  directory the audit ran in, normally the repository root) and other absolute paths as
  ``file://`` URIs.
* Names a pull request chooses cannot steer a CI log or a viewer: every format that is shown
  as it is (text, table, JUnit, GitHub, and what a SARIF viewer shows: messages and link
  names) shows the control characters (C0, DEL, C1 such as U+009B), format characters (bidi
  overrides and isolates such as U+202E, U+2066) and line separators of file names, link names,
  settings and messages escaped, with the undecodable bytes of a file name (:func:`visible`:
  ``\n``, ``\x1b``, ``\x9b``, ``\u202e``, ``\xff``), so no output line can begin with ``::``
  (a GitHub Actions workflow command) and no name can recolour, move or reorder what a log
  shows. Messages keep their own line breaks where the format has them (GitHub ``%0A``, SARIF
  text; :func:`visible_lines`). SARIF percent-encodes the bytes of a name in its URIs. JSON is
  data: it keeps names exactly, so that a program finds the file, and is ASCII-only, every
  other character written as a ``\u`` escape (docs/json.md).
* Settings: each format names the settings files that changed what was checked
  (:attr:`AuditResult.settings`): text and table a line each before the summary
  (:func:`settings_line`), JSON ``settings``, SARIF ``toolConfigurationNotifications``, GitHub a
  notice (a warning for one that switched every rule off in a file), JUnit a property of each
  file's suite.
* Severities: ``error``/``warning``/``info``; SARIF levels ``error``/``warning``/``note``; GitHub
  commands ``error``/``warning``/``notice``.
* Non-finite numbers in ``values`` (JSON, SARIF, JUnit details): JSON has no NaN or infinity,
  so they are written as ``null``, as ``gzinertia show --json`` does (docs/json.md): every
  number in gzinertia's JSON is finite, a string is always a string (``"NaN"`` stays the text
  ``NaN``), and ``null`` stands where a number is not finite or absent.
* ``line`` 0 means the whole file: no line is printed (text, GitHub) and SARIF has no region.
"""

from __future__ import annotations

import functools
import io
import json
import math
import re
from collections.abc import Mapping, Sequence
from json.encoder import encode_basestring_ascii as _quote  # the C encoder's
from pathlib import Path, PurePath, PurePosixPath
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote, urljoin, urlsplit

from gzinertia.audit.findings import (
    AuditResult,
    FileStatus,
    Finding,
    JsonValue,
    RuleInfo,
    SettingsUse,
    Severity,
)

if TYPE_CHECKING:  # rich is imported only for the table (cold start of the other formats)
    import xml.etree.ElementTree as ET

    from rich.console import Console

__all__ = [
    "FORMATS",
    "SARIF_SCHEMA_URI",
    "SARIF_VERSION",
    "SRCROOT",
    "TOOL_NAME",
    "Format",
    "artifact_uri",
    "dumps_indented",
    "escape_github_data",
    "escape_github_property",
    "file_status_line",
    "finding_line",
    "group_findings",
    "group_line",
    "json_safe",
    "portable_path",
    "render",
    "render_github",
    "render_json",
    "render_junit",
    "render_sarif",
    "render_table",
    "render_text",
    "settings_line",
    "settings_summary",
    "summary_line",
    "to_json_data",
    "to_sarif_log",
    "visible",
    "visible_lines",
]

Format = Literal["table", "json", "sarif", "junit", "github", "text"]
FORMATS: tuple[Format, ...] = ("table", "json", "sarif", "junit", "github", "text")

TOOL_NAME = "gzinertia"
SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
SRCROOT = "%SRCROOT%"

_SARIF_LEVEL: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_COMMAND: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "notice"}
_STYLE: dict[Severity, str] = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_FILE_LEVEL_CASE = "(file)"
_TABLE_WIDTH = 120


# ---------------------------------------------------------------------------------------------
# Shared helpers


def json_safe(value: JsonValue) -> JsonValue:
    """``value`` with non-finite floats (NaN, ±∞) replaced by ``None`` (JSON ``null``), the one
    convention of every gzinertia JSON output (docs/json.md); strings are left alone."""
    if value is None or isinstance(value, (str, int)):  # bool is an int
        return value
    if isinstance(value, float):  # NumPy's float64 too
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


def portable_path(path: str, cwd: PurePath | None = None) -> tuple[str, bool]:
    """``path`` with forward slashes, relative to ``cwd`` (default: the working directory) when
    it is absolute and under it. Returns ``(path, is_relative)``; ``cwd``'s type decides how
    ``path`` is parsed (pass a ``PureWindowsPath`` to read Windows paths anywhere)."""
    root = Path.cwd() if cwd is None else cwd
    pure = type(root)(path)
    if pure.is_absolute():
        try:
            pure = pure.relative_to(root)
        except ValueError:
            return pure.as_posix(), False
    return pure.as_posix(), True


def artifact_uri(path: str, cwd: PurePath | None = None) -> tuple[str, str | None]:
    """SARIF ``(uri, uriBaseId)`` of a file: a percent-encoded relative reference with base
    ``%SRCROOT%``, or an absolute ``file://`` URI (base ``None``) for files outside ``cwd``.
    A name's undecodable bytes (surrogateescape) are percent-encoded as the bytes they were."""
    posix, relative = portable_path(path, cwd)
    if relative:
        return quote(posix.encode("utf-8", "surrogateescape"), safe="/"), SRCROOT
    root = Path.cwd() if cwd is None else cwd
    return type(root)(path).as_uri(), None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 or word == "info" else f"{n} {word}s"


def summary_line(result: AuditResult) -> str:
    """One sentence: findings per severity, files audited, unreadable and skipped files."""
    counts = result.counts()
    files = _plural(len(result.files), "file")
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
    found = f"{_plural(counts['error'], 'error')}, {_plural(counts['warning'], 'warning')}"
    return f"Found {found} and {_plural(counts['info'], 'info')} in {files}{tail}."


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: Unicode categories a terminal or a CI log acts on instead of showing: controls (C0, DEL, C1),
#: format characters (bidi overrides, zero-width), line/paragraph separators, surrogates.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def visible(text: str) -> str:
    r"""``text`` with every character a terminal or CI log would act on, rather than show, made
    visible: ``\n``, ``\r``, ``\t``, other controls and format characters as ``\xNN``
    or ``\uNNNN``, and the undecodable bytes of a file name (Python's surrogateescape,
    U+DC80–U+DCFF) as ``\xNN``, the byte. A file named ``"a\n::error file=x::y"`` stays on
    one line (GitHub Actions runs any log line that starts with ``::`` as a command)."""
    if text.isprintable():
        return text
    import unicodedata

    out = []
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif unicodedata.category(ch) in _HIDDEN_CATEGORIES:
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def visible_lines(text: str) -> str:
    r"""``text`` with its own line breaks (``\n``) kept and everything else :func:`visible`:
    for messages in formats that show line breaks (GitHub annotations, SARIF)."""
    return "\n".join(visible(line) for line in text.split("\n"))


def _one_line(text: str) -> str:
    """Line breaks (every one Python knows) as spaces, then what is left made :func:`visible`."""
    return visible(" ".join(text.splitlines()))


def finding_line(finding: Finding) -> str:
    """``file:line: CODE severity [link] message`` on one line: newlines in the message become
    spaces; control characters in the file, link and message are made :func:`visible`."""
    file = visible(finding.file)
    where = file if finding.line == 0 else f"{file}:{finding.line}"
    link = f" [{visible(finding.link)}]" if finding.link else ""
    return f"{where}: {finding.code} {finding.severity}{link} {_one_line(finding.message)}"


def file_status_line(status: FileStatus) -> str:
    """``file: error: message`` (or ``skipped``) for a file that was not audited (on one line,
    as :func:`finding_line`)."""
    return f"{visible(status.path)}: {status.status}: {_one_line(status.message or status.status)}"


def settings_summary(use: SettingsUse) -> str:
    """What a settings file changed, on one line with control characters escaped:
    ``KEY = VALUE; ... (applied to N files)``, then ``every rule is off for M files: nothing is
    checked there`` or ``rules off: CODES``."""
    changes = "; ".join(f"{key} = {json.dumps(value, ensure_ascii=False)}"
                        for key, value in use.changes.items())
    text = f"{changes} (applied to {_plural(len(use.files), 'file')})"
    if use.unchecked:
        n = _plural(len(use.unchecked), "file")
        text += f"; every rule is off for {n}: nothing is checked there"
    elif use.rules_off:
        text += f"; rules off: {', '.join(use.rules_off)}"
    return _one_line(text)


def settings_line(use: SettingsUse) -> str:
    """``PATH: settings: ...`` (:func:`settings_summary`) for a settings file that changed what
    was checked (as :func:`file_status_line` for a file)."""
    return f"{visible(use.path)}: settings: {settings_summary(use)}"


# ---------------------------------------------------------------------------------------------
# text and table


def _link_free(finding: Finding) -> str:
    """The message with the finding's link named by a placeholder: the scoped name, its
    ``--link`` glob, and its last component as a whole word (as in ``-o rotor_0.png``)."""
    from gzinertia.shell import exact_link_pattern

    assert finding.link is not None
    text = finding.message
    for name in dict.fromkeys((exact_link_pattern(finding.link), finding.link)):
        text = text.replace(name, "\0")
    short = finding.link.rsplit("::", 1)[-1]
    return re.sub(rf"(?<!\w){re.escape(short)}(?!\w)", "\0", text)


def _without_macro_call(finding: Finding) -> Finding:
    """The finding without the xacro macro call site its message ends with."""
    from dataclasses import replace

    message = finding.message.split(" (link built by a xacro macro called at ", 1)[0]
    return replace(finding, message=message)


def group_findings(findings: Sequence[Finding]) -> list[list[Finding]]:
    """Findings in their order, those that say the same thing about identical links gathered
    into one group (at the place of the first): same file, rule, severity, ``values`` and
    message once the link's own name is left out (8 identical rotors, one model included 8
    times). File-level findings and findings that differ in anything else stay alone."""
    groups: list[list[Finding]] = []
    index: dict[tuple[str, str, str, str, str], int] = {}
    for f in findings:
        if f.link is None:
            groups.append([f])
            continue
        # links one xacro macro built, called from several places, are identical links too
        plain = {k: v for k, v in f.values.items() if k != "xacro_call"}
        values = json.dumps(json_safe(plain), sort_keys=True, allow_nan=False)
        said = _link_free(_without_macro_call(f) if "xacro_call" in f.values else f)
        key = (f.file, f.code, f.severity, said, values)
        if key in index:
            groups[index[key]].append(f)
        else:
            index[key] = len(groups)
            groups.append([f])
    return groups


def _others(group: Sequence[Finding], short: bool = False) -> str:
    """``x500::rotor_1 (line 60), ...`` for the group's findings after the first (``short``:
    ``rotor_1 (60), ...``, the last component of each name), bounded: the first eight (an
    octocopter's other rotors) and how many more (:func:`gzinertia.wording.bounded`; a model of
    2,000 identical links made one 42,000-character line)."""
    from gzinertia.wording import bounded

    first = group[0]
    out = []
    for f in group[1:]:
        name = f.link or ""
        name = visible(name.rsplit("::", 1)[-1] if short else name)
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
    more = _plural(len(group) - 1, "more identical link")
    return f"{line} (the same on {more}: {_others(group)})"


def render_text(result: AuditResult) -> str:
    """ruff/mypy-style lines: one per finding (findings repeated on identical links in one
    line, :func:`group_findings`), then unreadable and skipped files, then the settings files
    that changed what was checked (:func:`settings_line`), then a summary line (which counts
    every finding)."""
    lines = [group_line(g) for g in group_findings(result.findings)]
    lines += [file_status_line(s) for s in result.files if s.status != "ok"]
    lines += [settings_line(use) for use in result.settings]
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"


def render_table(
    result: AuditResult, console: Console, rules: Mapping[str, RuleInfo] | None = None
) -> None:
    """Findings grouped by file in rich tables, severity coloured, then the settings files that
    changed what was checked (:func:`settings_line`), then the summary line.

    Files that were not audited are listed with their reason; clean files are not shown.
    """
    from rich.table import Table
    from rich.text import Text

    status_of = {s.path: s for s in result.files}
    for path, findings in result.by_file().items():
        status = status_of.get(path)
        if status is not None and status.status != "ok":
            style = "bold red" if status.status == "error" else "dim"
            console.print(Text(file_status_line(status), style=style))
        if not findings:
            continue
        title = Text(visible(path), style="bold")
        table = Table(title=title, title_justify="left", expand=False)
        table.add_column("line", justify="right")
        table.add_column("code")
        table.add_column("severity")
        table.add_column("link")
        table.add_column("message", overflow="fold")
        for group in group_findings(findings):
            f = group[0]
            rule = rules.get(f.code) if rules else None
            code = Text(f.code)
            if rule is not None:
                code.append(f" {rule.name}", style="dim")
            link = Text(visible(f.link) if f.link else "—")
            if len(group) > 1:
                others = _others(group, short=True)
                link.append(f"\nand {len(group) - 1} identical: {others}", style="dim")
            table.add_row(
                "" if f.line == 0 else str(f.line),
                code,
                Text(f.severity, style=_STYLE[f.severity]),
                link,
                Text(_one_line(f.message)),  # Text: no markup, "[kg]" stays as written
            )
        console.print(table)
    for use in result.settings:
        style = "bold yellow" if use.unchecked else "dim"
        console.print(Text(settings_line(use), style=style), soft_wrap=True)
    worst = result.worst()
    style = "bold red" if result.fails("error") else _STYLE[worst] if worst else "green"
    console.print(Text(summary_line(result), style=style))


# ---------------------------------------------------------------------------------------------
# JSON


def to_json_data(result: AuditResult, version: str) -> dict[str, Any]:
    """The public JSON contract: ``{"version", "files": [...], "findings": [...],
    "settings": [...]}`` (docs/audit.md)."""
    return {
        "version": version,
        "files": [{"path": s.path, "status": s.status, "message": s.message} for s in result.files],
        "findings": [
            {**f.to_plain(), "values": json_safe(dict(f.values))} for f in result.findings
        ],
        "settings": [
            {
                "path": use.path,
                "files": list(use.files),
                "changes": json_safe(dict(use.changes)),
                "rules_off": list(use.rules_off),
                "unchecked": list(use.unchecked),
            }
            for use in result.settings
        ],
    }


def render_json(result: AuditResult, version: str) -> str:
    """:func:`to_json_data` as indented, ASCII-only, strictly valid JSON."""
    return dumps_indented(to_json_data(result, version)) + "\n"


class _NotPlainError(Exception):
    """A value :func:`dumps_indented` leaves to :func:`json.dumps`."""


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, allow_nan=False)``, byte for byte, in about half the time:
    the standard library encodes an indented document in Python, a generator per list and
    dict; this writes dicts with string keys, lists, tuples, strings, ints, finite floats,
    booleans and ``None`` (exactly those types) directly, with the standard library's own
    string quoting and number formatting. Anything else (a subclass, a non-string key, a
    non-finite float: an error) goes to :func:`json.dumps` whole."""
    out: list[str] = []
    try:
        _dump(value, "\n", out)
    except (_NotPlainError, RecursionError):
        return json.dumps(value, indent=2, allow_nan=False)
    return "".join(out)


def _dump(value: Any, newline: str, out: list[str]) -> None:
    """Appends ``value`` to ``out`` as :func:`dumps_indented` writes it, nested where the
    line breaks of its container are ``newline`` (a newline and the container's indent)."""
    kind = type(value)
    if kind is str:
        out.append(_quote(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float:
        if not math.isfinite(value):
            raise _NotPlainError
        out.append(float.__repr__(value))
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        out.append("[")
        separator = inner
        for item in value:
            out.append(separator)
            _dump(item, inner, out)
            separator = "," + inner
        out.append(newline + "]")
    elif kind is dict:  # duplicates: the list layout with keys, as json.encoder has two loops
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        out.append("{")
        separator = inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlainError
            out.append(separator)
            out.append(_quote(key))
            out.append(": ")
            _dump(item, inner, out)
            separator = "," + inner
        out.append(newline + "}")
    else:
        raise _NotPlainError


# ---------------------------------------------------------------------------------------------
# SARIF 2.1.0


def _rule_descriptor(code: str, rule: RuleInfo | None, project_uri: str | None) -> dict[str, Any]:
    if rule is None:  # a finding whose rule was not passed in: still a valid, minimal descriptor
        return {"id": code}
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "help": {
            "text": f"{rule.summary} Documentation: {rule.doc}",
            "markdown": f"{rule.summary}\n\nDocumentation: `{rule.doc}`",
        },
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
    }
    if project_uri is not None:
        help_uri = urljoin(project_uri, rule.doc)
        descriptor["helpUri"] = help_uri
        descriptor["help"]["markdown"] = (
            f"{rule.summary}\n\nDocumentation: [{rule.doc}]({help_uri})"
        )
    return descriptor


def _physical_location(path: str, line: int) -> dict[str, Any]:
    """A SARIF physical location; the file as a URI (undecodable bytes percent-encoded)."""
    uri, base = artifact_uri(path)
    artifact: dict[str, Any] = {"uri": uri}
    if base is not None:
        artifact["uriBaseId"] = base
    location: dict[str, Any] = {"artifactLocation": artifact}
    if line > 0:
        location["region"] = {"startLine": line}
    return location


def _sarif_result(finding: Finding, rule_index: int) -> dict[str, Any]:
    location: dict[str, Any] = {"physicalLocation": _physical_location(finding.file, finding.line)}
    if finding.link:
        location["logicalLocations"] = [
            {
                "name": visible(finding.link.rsplit("::", 1)[-1]),
                "fullyQualifiedName": visible(finding.link),
                "kind": "element",  # SARIF's well-known kind for an XML element: <link>
            }
        ]
    return {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVEL[finding.severity],
        "message": {"text": visible_lines(finding.message)},
        "locations": [location],
        "properties": {"values": json_safe(dict(finding.values))},
    }


def _notification(status: FileStatus) -> dict[str, Any]:
    kind = "file-error" if status.status == "error" else "file-skipped"
    message = f"{visible(status.path)}: {visible_lines(status.message or status.status)}"
    return {
        "level": "error" if status.status == "error" else "note",
        "message": {"text": message},
        "locations": [{"physicalLocation": _physical_location(status.path, 0)}],
        "descriptor": {"id": kind},
    }


def _settings_notification(use: SettingsUse) -> dict[str, Any]:
    """A ``toolConfigurationNotification``: a settings file and what it changed (a warning
    when it switched every rule off in a file); its files as URIs in ``properties``."""
    return {
        "level": "warning" if use.unchecked else "note",
        "message": {"text": f"{visible(use.path)}: {settings_summary(use)}"},
        "locations": [{"physicalLocation": _physical_location(use.path, 0)}],
        "descriptor": {"id": "settings"},
        "properties": {
            "files": [artifact_uri(path)[0] for path in use.files],
            "changes": json_safe(dict(use.changes)),
            "rulesOff": list(use.rules_off),
            "unchecked": [artifact_uri(path)[0] for path in use.unchecked],
        },
    }


def to_sarif_log(
    result: AuditResult,
    rules: Mapping[str, RuleInfo],
    version: str,
    project_uri: str | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run.

    ``tool.driver.rules`` holds every rule in ``rules`` sorted by code (plus a bare descriptor for
    any finding code missing from it); each result points at its rule with ``ruleId`` and
    ``ruleIndex``. The link is a logical location (``fullyQualifiedName`` = scoped name). Files
    that could not be audited are ``invocations[0].toolExecutionNotifications`` (error for
    ``error``, note for ``skipped``); the run itself is reported as successful. Settings files
    that changed what was checked are ``invocations[0].toolConfigurationNotifications``
    (descriptor ``settings``; what they changed in ``properties``).

    ``project_uri``: absolute URI of the project's root (ending in ``/``) under which the rule
    pages ``docs/rules/CODE.md`` are served. SARIF requires ``informationUri`` and ``helpUri`` to
    be absolute, so they are written only when it is given; the ``help`` text always names the
    page's path.
    """
    if project_uri is not None and not urlsplit(project_uri).scheme:
        raise ValueError(f"project_uri {project_uri!r} is not an absolute URI")
    codes = sorted(set(rules) | {f.code for f in result.findings})
    index = {code: i for i, code in enumerate(codes)}
    driver: dict[str, Any] = {
        "name": TOOL_NAME,
        "version": version,
        "rules": [_rule_descriptor(code, rules.get(code), project_uri) for code in codes],
    }
    if project_uri is not None:
        driver["informationUri"] = project_uri
    invocation: dict[str, Any] = {"executionSuccessful": True}
    notifications = [_notification(s) for s in result.files if s.status != "ok"]
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    if result.settings:
        invocation["toolConfigurationNotifications"] = [
            _settings_notification(use) for use in result.settings
        ]
    run = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "results": [_sarif_result(f, index[f.code]) for f in result.findings],
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(
    result: AuditResult,
    rules: Mapping[str, RuleInfo],
    version: str,
    project_uri: str | None = None,
) -> str:
    """:func:`to_sarif_log` as indented, ASCII-only, strictly valid JSON."""
    log = to_sarif_log(result, rules, version, project_uri)
    return dumps_indented(log) + "\n"


# ---------------------------------------------------------------------------------------------
# JUnit XML

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
    import xml.etree.ElementTree as ET
    attrs = {"classname": _xml_text(_classname(path)), "name": _xml_text(visible(name)),
             "time": "0"}
    attrs["file"] = _xml_text(visible(portable_path(path)[0]))
    if findings and findings[0].line > 0:
        attrs["line"] = str(findings[0].line)
    case = ET.SubElement(suite, "testcase", attrs)
    outcome = "passed"
    if status is not None and status.status == "error":
        message = _xml_text(_one_line(status.message or "could not be audited"))
        ET.SubElement(case, "error", {"type": "file-error", "message": message}).text = message
        outcome = "error"
    failures = [f for f in findings if f.severity != "info"]
    if failures:  # one <failure> per test case: JUnit readers show (or count) only one
        codes = ",".join(dict.fromkeys(f.code for f in failures))
        if len(failures) == 1:
            message = _one_line(failures[0].message)
        else:
            parts = " | ".join(f"{f.code} {_one_line(f.message)}" for f in failures)
            message = f"{len(failures)} findings: {parts}"
        text = "\n\n".join(_finding_details(f) for f in failures)
        attrs = {"type": codes, "message": _xml_text(message)}
        ET.SubElement(case, "failure", attrs).text = _xml_text(text)
    if failures and outcome == "passed":
        outcome = "failure"
    if status is not None and status.status == "skipped" and outcome == "passed":
        skipped = _xml_text(_one_line(status.message or "skipped"))
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
    import xml.etree.ElementTree as ET

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


# ---------------------------------------------------------------------------------------------
# GitHub workflow commands


def escape_github_data(text: str) -> str:
    """Escapes a workflow command's message: ``%``, CR and LF (``%`` first)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_github_property(text: str) -> str:
    """Escapes a workflow command property value: as data, plus ``:`` and ``,``."""
    return escape_github_data(text).replace(":", "%3A").replace(",", "%2C")


def _github_command(command: str, properties: Mapping[str, str], message: str) -> str:
    """``::command key=value,...::message``: property values made :func:`visible`, the message
    with its line breaks kept (:func:`visible_lines`), then both escaped as the runner
    requires."""
    props = ",".join(
        f"{key}={escape_github_property(visible(value))}" for key, value in properties.items()
    )
    return f"::{command} {props}::{escape_github_data(visible_lines(message))}"


def render_github(result: AuditResult) -> str:
    """One GitHub Actions annotation per finding (``::error file=F,line=L,title=CODE::[link]
    message``; info becomes ``notice``), one per unreadable (``error``) or skipped (``notice``)
    file, one per settings file that changed what was checked (``notice``, ``warning`` when it
    switched every rule off in a file), then the summary line as plain log text."""
    lines = []
    for f in result.findings:
        props = {"file": portable_path(f.file)[0]}
        if f.line > 0:
            props["line"] = str(f.line)
        props["title"] = f.code
        message = f"[{visible(f.link)}] {f.message}" if f.link else f.message
        lines.append(_github_command(_GITHUB_COMMAND[f.severity], props, message))
    for s in result.files:
        if s.status == "ok":
            continue
        props = {"file": portable_path(s.path)[0], "title": f"{TOOL_NAME}: file {s.status}"}
        command = "error" if s.status == "error" else "notice"
        lines.append(_github_command(command, props, s.message or s.status))
    for use in result.settings:
        props = {"file": portable_path(use.path)[0], "title": f"{TOOL_NAME}: settings"}
        command = "warning" if use.unchecked else "notice"
        lines.append(_github_command(command, props, settings_summary(use)))
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# dispatch


def render(
    result: AuditResult,
    fmt: str,
    rules: Mapping[str, RuleInfo],
    version: str,
    *,
    project_uri: str | None = None,
) -> str:
    """``result`` in format ``fmt`` (one of :data:`FORMATS`) as a string ending in a newline.

    ``rules`` maps codes to their :class:`RuleInfo` (SARIF descriptors, table rule names);
    ``version`` is gzinertia's version (JSON ``version``, SARIF ``tool.driver.version``);
    ``project_uri`` see :func:`to_sarif_log`. ``table`` is rendered without colour at a fixed
    width; call :func:`render_table` with a terminal console for colour.
    """
    if fmt == "text":
        return render_text(result)
    if fmt == "json":
        return render_json(result, version)
    if fmt == "sarif":
        return render_sarif(result, rules, version, project_uri)
    if fmt == "junit":
        return render_junit(result)
    if fmt == "github":
        return render_github(result)
    if fmt == "table":
        if not result.findings and all(s.status == "ok" for s in result.files):
            # nothing to tabulate: no need to load rich
            return "".join(f"{line}\n" for line in [
                *(settings_line(use) for use in result.settings), summary_line(result)])
        from rich.console import Console

        buffer = io.StringIO()
        # duplicates: a keyword-argument constructor call, alike other such calls by shape only
        console = Console(
            file=buffer,
            width=_TABLE_WIDTH,
            color_system=None,
            force_terminal=False,
            highlight=False,
        )
        render_table(result, console, rules)
        return buffer.getvalue()
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
