"""The rule registry: every rule's :class:`RuleInfo` and its check function.

A rule is a small function registered with :func:`link_rule` (called once per link with a
:class:`~gzinertia.audit.context.LinkContext`) or :func:`document_rule` (called once per document
with a :class:`~gzinertia.audit.context.DocumentContext`, for rules about several links or the
file), or both (a link check that also runs on what an unresolved include's text says). It
yields :class:`~gzinertia.audit.findings.Finding` objects built with :func:`finding`, which
takes the severity from the rule's :class:`RuleInfo`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.findings import Finding, RuleInfo, plain_json_value
from gzinertia.record_base import ValueRecord
from gzinertia.records import SourceRef

if TYPE_CHECKING:
    from gzinertia.audit.context import DocumentContext, LinkContext

__all__ = [
    "DocumentCheck",
    "LinkCheck",
    "Rule",
    "document_rule",
    "finding",
    "link_rule",
    "plot_hint",
    "registered_rules",
]

LinkCheck = Callable[["LinkContext"], Iterator[Finding]]
DocumentCheck = Callable[["DocumentContext"], Iterator[Finding]]


@dataclass(frozen=True, repr=False, eq=False)
class Rule(ValueRecord):
    """A registered rule: what it is, and the function that checks a link or a document."""

    info: RuleInfo
    check_link: LinkCheck | None = None
    check_document: DocumentCheck | None = None


_RULES: dict[str, Rule] = {}


def _info(code: str, kind: str) -> RuleInfo:
    info = RULE_INFOS.get(code)
    if info is None:
        raise ValueError(f"rule {code} has no entry in gzinertia.audit.catalogue")
    if getattr(_RULES.get(code), kind, None) is not None:
        raise ValueError(f"rule {code} is registered twice")
    return info


def link_rule(code: str) -> Callable[[LinkCheck], LinkCheck]:
    """Registers ``check(ctx: LinkContext) -> Iterator[Finding]`` as rule ``code`` (described
    in :data:`~gzinertia.audit.catalogue.RULE_INFOS`)."""

    def register(check: LinkCheck) -> LinkCheck:
        info = _info(code, "check_link")
        other = _RULES.get(code)
        _RULES[code] = Rule(info, check_link=check,
                            check_document=None if other is None else other.check_document)
        return check

    return register


def document_rule(code: str) -> Callable[[DocumentCheck], DocumentCheck]:
    """Registers ``check(ctx: DocumentContext) -> Iterator[Finding]`` as rule ``code``
    (described in :data:`~gzinertia.audit.catalogue.RULE_INFOS`)."""

    def register(check: DocumentCheck) -> DocumentCheck:
        info = _info(code, "check_document")
        other = _RULES.get(code)
        _RULES[code] = Rule(info, check_link=None if other is None else other.check_link,
                            check_document=check)
        return check

    return register


def registered_rules() -> Mapping[str, Rule]:
    """Every registered rule by code, sorted by code; every catalogue entry must have one."""
    missing = sorted(set(RULE_INFOS) - set(_RULES))
    if missing:
        raise ValueError(f"catalogued rules without a check: {', '.join(missing)}")
    return {code: _RULES[code] for code in sorted(_RULES)}


def plot_hint(file: str, link: str) -> str:
    """The sentence that points to a picture of the link (for findings about geometry)."""
    from gzinertia.shell import command_line, exact_link_pattern

    short = link.rsplit("::", 1)[-1]
    plot = command_line("plot", file, "--link", exact_link_pattern(link), "-o", f"{short}.png")
    return f"; to see it: `{plot}`"


def finding(
    code: str,
    where: SourceRef,
    link: str | None,
    message: str,
    values: Mapping[str, object] | None = None,
) -> Finding:
    """A finding of rule ``code`` at ``where`` (file and line), with the rule's severity."""
    rule = _RULES[code]
    # normalised here, once, as the constructor would (NumPy arrays and scalars to plain JSON)
    plain = plain_json_value(dict(values or {}), f"{code}.values")
    assert isinstance(plain, dict)
    return Finding.from_json_data(
        code, rule.info.severity, where.file, max(where.line, 0), link, message, plain
    )
