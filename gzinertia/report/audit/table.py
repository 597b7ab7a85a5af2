"""The ``table`` format: findings grouped by file in rich tables (rich is imported only here)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING

import gzinertia.report
from gzinertia.audit.findings import AuditResult, RuleInfo, Severity
from gzinertia.report.audit.lines import (
    file_status_line,
    group_findings,
    judged_targets,
    others,
    settings_line,
    summary_line,
    target_line,
)
from gzinertia.wording import one_line, visible

if TYPE_CHECKING:  # rich, through the report face, only for a table with rows (cold start)
    from rich.console import Console

    import gzinertia.report.rich_text

__all__ = ["render_plain_table", "render_table"]

_STYLE: dict[Severity, str] = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_TABLE_WIDTH = 120


def render_table(
    result: AuditResult, console: Console, rules: Mapping[str, RuleInfo] | None = None
) -> None:
    """Findings grouped by file in rich tables, severity coloured, then the settings files that
    changed what was checked (:func:`settings_line`), then the summary line.

    Files that were not audited are listed with their reason; clean files are not shown.
    """
    Table, Text = gzinertia.report.rich_text.Table, gzinertia.report.rich_text.Text
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
                names = others(group, short=True)
                link.append(f"\nand {len(group) - 1} identical: {names}", style="dim")
            table.add_row(
                "" if f.line == 0 else str(f.line),
                code,
                Text(f.severity, style=_STYLE[f.severity]),
                link,
                Text(one_line(f.message)),  # Text: no markup, "[kg]" stays as written
            )
        console.print(table)
    for use in result.settings:
        style = "bold yellow" if use.unchecked else "dim"
        console.print(Text(settings_line(use), style=style), soft_wrap=True)
    for target in judged_targets(result):
        console.print(Text(target_line(target), style="dim"), soft_wrap=True)
    worst = result.worst()
    style = "bold red" if result.fails("error") else _STYLE[worst] if worst else "green"
    console.print(Text(summary_line(result), style=style))


def render_plain_table(result: AuditResult, rules: Mapping[str, RuleInfo]) -> str:
    """:func:`render_table` without colour at a fixed width, as a string (rich is not loaded
    when there is nothing to tabulate)."""
    if not result.findings and all(s.status == "ok" for s in result.files):
        return "".join(f"{line}\n" for line in [
            *(settings_line(use) for use in result.settings),
            *(target_line(target) for target in judged_targets(result)),
            summary_line(result)])
    buffer = io.StringIO()
    console = gzinertia.report.rich_text.Console(
        file=buffer, width=_TABLE_WIDTH, color_system=None, force_terminal=False, highlight=False)
    render_table(result, console, rules)
    return buffer.getvalue()
