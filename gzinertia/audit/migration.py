"""A migration check: the findings that differ between two targets (``audit --gazebo A
--gazebo B``), for users who upgrade Gazebo or change engine.

Two audits of the same files, one per :class:`~gzinertia.gazebo.target.Target`, compared
finding by finding: a finding is the same under both when its rule, file, line, link and
values (the target it names left out) are; its message names the target, so it is not compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from gzinertia.audit.findings import AuditResult, Finding, JsonValue, plain_json_value
from gzinertia.gazebo.target import Target
from gzinertia.record_base import ValueRecord

__all__ = ["TargetChange", "target_change"]


@dataclass(frozen=True, repr=False, eq=False)
class TargetChange(ValueRecord):
    """What changes from target ``before`` to target ``after``: findings ``gone`` (raised
    under ``before`` only) and ``new`` (under ``after`` only), each in its audit's order."""

    before: Target
    after: Target
    gone: tuple[Finding, ...]
    new: tuple[Finding, ...]

    def as_json(self) -> dict[str, JsonValue]:
        """``{"from", "to", "gone", "new"}``: the targets as in the audit's ``targets``, the
        findings as in its ``findings`` (non-finite numbers kept: the report makes them
        ``null``)."""
        return {"from": dict(self.before.as_json()), "to": dict(self.after.as_json()),
                "gone": [f.to_plain() for f in self.gone], "new": [f.to_plain() for f in self.new]}


def _key(f: Finding) -> tuple[str, str, int, str | None, str]:
    """What makes two findings under two targets the same: all but the target they name."""
    values = {k: v for k, v in f.values.items() if k != "target"}
    return (f.code, f.file, f.line, f.link,
            json.dumps(plain_json_value(values, f.code), sort_keys=True))


def target_change(before: AuditResult, after: AuditResult) -> TargetChange:
    """The findings that differ between ``before`` and ``after``, two audits of the same files
    under one target each (their :attr:`~gzinertia.audit.findings.AuditResult.targets`' first)."""
    old = {_key(f) for f in before.findings}
    now = {_key(f) for f in after.findings}
    return TargetChange(
        before.targets[0] if before.targets else Target(),
        after.targets[0] if after.targets else Target(),
        tuple(f for f in before.findings if _key(f) not in now),
        tuple(f for f in after.findings if _key(f) not in old),
    )
