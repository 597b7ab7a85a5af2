"""The ``json`` format: the public contract (docs/audit.md, docs/json.md), strictly valid,
ASCII-only JSON."""

from __future__ import annotations

from typing import Any

from gzinertia.audit.findings import AuditResult
from gzinertia.report.json_text import dumps_indented, json_safe

__all__ = ["render_json", "to_json_data"]


def to_json_data(result: AuditResult, version: str) -> dict[str, Any]:
    """The public JSON contract: ``{"version", "files": [...], "findings": [...],
    "settings": [...], "targets": [...]}`` (docs/audit.md; ``targets``, the Gazebo releases and
    engines judged for, in every audit's result, absent from a result built without one)."""
    data = {
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
    if result.targets:
        data["targets"] = [target.as_json() for target in result.targets]
    return data


def render_json(result: AuditResult, version: str) -> str:
    """:func:`to_json_data` as indented, ASCII-only, strictly valid JSON."""
    return dumps_indented(to_json_data(result, version)) + "\n"

