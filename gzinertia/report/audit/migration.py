"""The migration check's report (``audit --gazebo A --gazebo B``,
:class:`~gzinertia.audit.migration.TargetChange`): text, one line per finding that differs
(``-`` gone, ``+`` new) after a line naming both targets, or JSON."""

from __future__ import annotations

from gzinertia.audit.migration import TargetChange
from gzinertia.report.audit.lines import finding_line, plural
from gzinertia.report.json_text import dumps_indented, json_safe
from gzinertia.wording import visible

__all__ = ["render_target_change"]


def render_target_change(change: TargetChange, output_format: str, version: str) -> str:
    """``change`` as ``json`` (``{"version", "from", "to", "gone", "new"}``) or as text (any
    other format)."""
    if output_format == "json":
        return dumps_indented(json_safe({"version": version, **change.as_json()})) + "\n"
    lines = [f"from: {visible(change.before.words())}", f"to: {visible(change.after.words())}"]
    lines += [f"- {finding_line(f)}" for f in change.gone]
    lines += [f"+ {finding_line(f)}" for f in change.new]
    lines.append(f"{plural(len(change.gone), 'finding')} gone, "
                 f"{plural(len(change.new), 'finding')} new.")
    return "\n".join(lines) + "\n"
