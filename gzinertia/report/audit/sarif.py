"""The ``sarif`` format: a SARIF 2.1.0 log with one run (code-scanning viewers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

from gzinertia.audit.findings import (
    AuditResult,
    FileStatus,
    Finding,
    RuleInfo,
    SettingsUse,
    Severity,
)
from gzinertia.report.audit.lines import TOOL_NAME, settings_summary
from gzinertia.report.audit.locations import artifact_uri
from gzinertia.report.json_text import dumps_indented, json_safe
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import visible, visible_lines

__all__ = ["SARIF_SCHEMA_URI", "SARIF_VERSION", "render_sarif", "to_sarif_log"]

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

_SARIF_LEVEL: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "note"}


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
                "name": visible(leaf_name(finding.link)),
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
    (descriptor ``settings``; what they changed in ``properties``). The target release and
    engine are the run's ``properties`` ``gzinertia.targets``.

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
    if result.targets:
        run["properties"] = {"gzinertia.targets": [t.as_json() for t in result.targets]}
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

