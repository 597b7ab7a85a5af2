"""The ``text`` format: ruff/mypy-style lines, one per finding or group of identical links."""

from __future__ import annotations

from gzinertia.audit.findings import AuditResult
from gzinertia.report.audit.lines import (
    file_status_line,
    group_findings,
    group_line,
    judged_targets,
    settings_line,
    summary_line,
    target_line,
)

__all__ = ["render_text"]


def render_text(result: AuditResult) -> str:
    """ruff/mypy-style lines: one per finding (findings repeated on identical links in one
    line, :func:`group_findings`), then unreadable and skipped files, then the settings files
    that changed what was checked (:func:`settings_line`), then the target release and engine
    (:func:`target_line`), then a summary line (which counts every finding)."""
    lines = [group_line(g) for g in group_findings(result.findings)]
    lines += [file_status_line(s) for s in result.files if s.status != "ok"]
    lines += [settings_line(use) for use in result.settings]
    lines += [target_line(target) for target in judged_targets(result)]
    lines.append(summary_line(result))
    return "\n".join(lines) + "\n"

