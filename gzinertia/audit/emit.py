"""What a rule is made of besides its check: the mark that names its code
(:func:`link_rule`, :func:`document_rule`), the finding it yields (:func:`finding`, severity from
the catalogue) and the words its messages share (:func:`fmt`, :func:`fmt_vec`,
:func:`plot_hint`).

A rule is a function in one of the rule families (:mod:`gzinertia.audit.rules`) that asks the
predicates of :mod:`gzinertia.checks` and yields :class:`~gzinertia.audit.findings.Finding`
objects; its code, name, severity, summary and page are in
:data:`~gzinertia.audit.catalogue.RULE_INFOS`. Marking a function registers nothing: the rule
registry (:mod:`gzinertia.audit.rules.registry`) collects the marked functions of the families
it lists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.findings import Finding, plain_json_value
from gzinertia.audit.message import Message, command, link_glob, link_picture
from gzinertia.records import SourceRef
from gzinertia.shell import exact_link_pattern
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import number, vector

if TYPE_CHECKING:
    from gzinertia.checks.context import DocumentContext, LinkContext

__all__ = [
    "DocumentCheck",
    "LinkCheck",
    "RuleKind",
    "document_rule",
    "finding",
    "fmt",
    "fmt_vec",
    "link_rule",
    "plot_hint",
    "rule_mark",
]

LinkCheck = Callable[["LinkContext"], Iterator[Finding]]
DocumentCheck = Callable[["DocumentContext"], Iterator[Finding]]
#: What a check is called on: each link, or the whole document.
RuleKind = Literal["check_link", "check_document"]

_MARK = "_gzinertia_rule"


def _marked(code: str, kind: RuleKind) -> Callable[[Callable[..., object]], None]:
    if code not in RULE_INFOS:
        raise ValueError(f"rule {code} has no entry in gzinertia.audit.catalogue")

    def mark(check: Callable[..., object]) -> None:
        setattr(check, _MARK, (code, kind))

    return mark


def link_rule(code: str) -> Callable[[LinkCheck], LinkCheck]:
    """Marks ``check(ctx: LinkContext) -> Iterator[Finding]`` as rule ``code``'s check of each
    link (described in :data:`~gzinertia.audit.catalogue.RULE_INFOS`)."""
    mark = _marked(code, "check_link")

    def register(check: LinkCheck) -> LinkCheck:
        mark(check)
        return check

    return register


def document_rule(code: str) -> Callable[[DocumentCheck], DocumentCheck]:
    """Marks ``check(ctx: DocumentContext) -> Iterator[Finding]`` as rule ``code``'s check of
    the whole document (described in :data:`~gzinertia.audit.catalogue.RULE_INFOS`)."""
    mark = _marked(code, "check_document")

    def register(check: DocumentCheck) -> DocumentCheck:
        mark(check)
        return check

    return register


def rule_mark(value: object) -> tuple[str, RuleKind] | None:
    """``(code, kind)`` when ``value`` is a check marked by :func:`link_rule` or
    :func:`document_rule`, else ``None``."""
    mark = getattr(value, _MARK, None) if callable(value) else None
    return mark if isinstance(mark, tuple) else None


def finding(
    code: str,
    where: SourceRef,
    link: str | None,
    message: Message | str,
    values: Mapping[str, object] | None = None,
) -> Finding:
    """A finding of rule ``code`` at ``where`` (file and line), with the rule's severity;
    ``message`` a :class:`~gzinertia.audit.message.Message` (the link's own name an argument:
    :func:`~gzinertia.audit.message.link_name`) or, when it names no link of its own, text."""
    # normalised here, once, as the constructor would (NumPy arrays and scalars to plain JSON)
    plain = plain_json_value(dict(values or {}), f"{code}.values")
    assert isinstance(plain, dict)
    said = Message.of(message)
    return Finding.from_json_data(
        code, RULE_INFOS[code].severity, where.file, max(where.line, 0), link, said.render(),
        plain, message_template=said.template, message_args=said.args,
    )


def plot_hint(file: str, link: str, pattern: str | None = None) -> Message:
    """The sentence that points to a picture of the finding's ``link`` (for findings about
    geometry), or of the links ``pattern`` names (a model's: ``"model::*"``, as a link name)."""
    if pattern is None:
        plot = command("plot", file, "--link", link_glob(link), "-o", link_picture(link))
    else:
        shown = exact_link_pattern(pattern)
        plot = command("plot", file, "--link", shown, "-o", f"{leaf_name(pattern)}.png")
    return "; to see it: `" + plot + "`"


def fmt(value: float) -> str:
    """A number in messages: 4 significant digits (:func:`gzinertia.wording.number`)."""
    return number(value)


def fmt_vec(values: Sequence[float] | np.ndarray) -> str:
    """``(a, b, c)`` with 4 significant digits each (:func:`gzinertia.wording.vector`)."""
    return vector(np.asarray(values, dtype=float).ravel())
