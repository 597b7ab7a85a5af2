"""The rule registry: every rule's :class:`RuleInfo` and its check functions, by code.

The one module that imports the rule families (ruff's layout: one module per family, the
metadata in one catalogue, :data:`~gzinertia.audit.catalogue.RULE_INFOS`). A family marks each
check with its code (:func:`~gzinertia.audit.emit.link_rule`, called once per link with a
:class:`~gzinertia.checks.context.LinkContext`, or :func:`~gzinertia.audit.emit.document_rule`,
called once per document with a :class:`~gzinertia.checks.context.DocumentContext`, or both);
the registry collects the marked functions of the families in :data:`FAMILIES`. A new family
is added there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import ModuleType

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.emit import DocumentCheck, LinkCheck, rule_mark
from gzinertia.audit.findings import RuleInfo
from gzinertia.audit.rules import (
    added_mass,
    bem,
    buoyancy,
    buoyancy_release,
    classic,
    geometry,
    hydrodynamics,
    inertia,
    model,
    proxy_collisions,
    releases,
    stability,
    urdf,
)
from gzinertia.record_base import ValueRecord

__all__ = ["FAMILIES", "RULES", "Rule", "registered_rules"]

#: The rule families, each a module of checks.
FAMILIES: tuple[ModuleType, ...] = (
    inertia, added_mass, hydrodynamics, model, geometry, bem, stability, buoyancy,
    proxy_collisions, urdf, classic, releases, buoyancy_release,
)


@dataclass(frozen=True, repr=False, eq=False)
class Rule(ValueRecord):
    """A registered rule: what it is, and the function that checks a link or a document."""

    info: RuleInfo
    check_link: LinkCheck | None = None
    check_document: DocumentCheck | None = None


def registered_rules(families: tuple[ModuleType, ...] = FAMILIES) -> Mapping[str, Rule]:
    """Every rule the ``families`` mark, by code, sorted by code. Every catalogue entry must
    have a check, and no code two checks of one kind."""
    rules: dict[str, Rule] = {}
    for family in families:
        for value in vars(family).values():
            mark = rule_mark(value)
            if mark is None or getattr(value, "__module__", None) != family.__name__:
                continue  # not a check, or one imported from another module
            code, kind = mark
            rule = rules.get(code, Rule(RULE_INFOS[code]))
            if getattr(rule, kind) is not None:
                raise ValueError(f"rule {code} is registered twice")
            rules[code] = replace(rule, **{kind: value})
    missing = sorted(set(RULE_INFOS) - set(rules))
    if missing:
        raise ValueError(f"catalogued rules without a check: {', '.join(missing)}")
    return {code: rules[code] for code in sorted(rules)}


#: Every rule, by code (sorted).
RULES: Mapping[str, Rule] = registered_rules()
