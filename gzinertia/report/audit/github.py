"""The ``github`` format: GitHub Actions workflow commands (annotations), then the summary."""

from __future__ import annotations

from collections.abc import Mapping

from gzinertia.audit.findings import AuditResult, Severity
from gzinertia.report.audit.lines import TOOL_NAME, settings_summary, summary_line
from gzinertia.report.audit.locations import portable_path
from gzinertia.wording import visible, visible_lines

__all__ = ["escape_github_data", "escape_github_property", "render_github"]

_GITHUB_COMMAND: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "notice"}


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

