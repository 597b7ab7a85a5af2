"""The audit's layout, read from the import graph (issue 26, items 5 and 8).

Rules are laid out as ruff lays out its own: one module per rule family under
``gzinertia/audit/rules/``, each rule a check that turns what the predicates of
:mod:`gzinertia.checks` say into findings; the rule registry
(``gzinertia/audit/rules/registry.py``) is the one module that imports the families. The
predicates sit below the audit, so the audit's shared context and the edits (``addmass``'s
overlap guard) call them without reaching into a rule. Rendering lives in
:mod:`gzinertia.report`: nothing under ``gzinertia/audit/`` prints.

The graph counts every import statement, at the top of a module, inside a function or under
``TYPE_CHECKING``: an import hidden in a function body still ties two modules together.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import networkx as nx
import pytest
from conftest import REPO

PACKAGE = REPO / "gzinertia"
AUDIT = "gzinertia.audit"
RULES = "gzinertia.audit.rules"
REGISTRY = "gzinertia.audit.rules.registry"


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The gzinertia modules ``name`` (at ``path``) imports anywhere in its text:
    ``from a.b import c`` names ``a.b.c`` when that is a module, else ``a.b``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in known:
                    yield full
                elif base in known:
                    yield base


def import_graph() -> nx.DiGraph:
    """Every module of the gzinertia package, an edge from each module to each it imports."""
    known = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in known.items():
        graph.add_edges_from((name, other) for other in _imported(name, path, known)
                             if other != name)
    return graph


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def rule_families(graph: nx.DiGraph) -> set[str]:
    """The rule modules: every module under ``gzinertia/audit/rules/`` but its face and the
    registry."""
    return {m for m in graph if m.startswith(RULES + ".") and m != REGISTRY}


def test_the_graph_sees_the_rule_families() -> None:
    """The reader finds what it looks for (a test that could not fail would prove nothing)."""
    graph = import_graph()
    families = rule_families(graph)
    assert {f"{RULES}.inertia", f"{RULES}.added_mass", f"{RULES}.bem"} <= families
    assert set(graph.successors(REGISTRY)) >= families


def test_only_the_registry_imports_a_rule_family() -> None:
    graph = import_graph()
    families = rule_families(graph)
    wrong = sorted((m, f) for m, f in graph.edges if f in families and m != REGISTRY)
    assert wrong == [], "modules other than the rule registry import a rule family"


def test_no_import_circle_in_the_audit() -> None:
    graph = import_graph()
    audit = graph.subgraph(m for m in graph if _under(m, AUDIT))
    circles = [sorted(c) for c in nx.strongly_connected_components(audit) if len(c) > 1]
    assert circles == []


def test_the_checks_stand_below_the_audit_and_the_edits() -> None:
    """:mod:`gzinertia.checks` imports nothing that renders, edits, audits or parses a command
    line; the edits reach rule logic only through it, never through a rule module. (``edit/fix``
    runs the whole audit, :func:`gzinertia.audit.runner.check_document`, to find what to fix:
    an edit over the audit's result, not over a rule's logic.)"""
    graph = import_graph()
    above = ("gzinertia.audit", "gzinertia.edit", "gzinertia.report", "gzinertia.cli",
             "gzinertia.api", "gzinertia.options")
    checks = [m for m in graph if _under(m, "gzinertia.checks")]
    assert checks, "no gzinertia.checks package"
    up = sorted((m, o) for m in checks for o in graph.successors(m)
                if any(_under(o, top) for top in above))
    assert up == []
    edits_into_rules = sorted((m, o) for m, o in graph.edges
                              if _under(m, "gzinertia.edit") and _under(o, RULES))
    assert edits_into_rules == []


PRINTING = ("print", "typer.echo", "typer.secho", "click.echo", "rich.print", "Console")
OUTPUT_PACKAGES = ("rich", "typer", "click")


def printing(text: str) -> Iterator[str]:
    """What in ``text`` (Python source) prints or loads a printing library: ``LINE: what``."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if called in PRINTING or called.endswith((".echo", ".secho", ".print")):
                yield f"{node.lineno}: {called}"
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                node.module or ""]
            if any(m.split(".")[0] in OUTPUT_PACKAGES for m in modules):
                yield f"{node.lineno}: imports {', '.join(modules)}"


def test_nothing_under_the_audit_prints() -> None:
    found = [f"{path.relative_to(REPO)}:{line}"
             for path in sorted((PACKAGE / "audit").rglob("*.py"))
             for line in printing(path.read_text(encoding="utf-8"))]
    assert found == []


@pytest.mark.parametrize("source", [
    "print('x')", "typer.echo('x')", "console.print('x')", "from rich.console import Console",
    "import rich.table",
])
def test_the_printing_screen_bites(source: str) -> None:
    assert list(printing(source)) != []


# ---------------------------------------------------------------------------------------------
# The registry: every catalogued rule has its checks, each kind once


def _family(name: str, **checks: object) -> ModuleType:
    module = ModuleType(name)
    for attr, check in checks.items():
        if callable(check):
            check.__module__ = name
        setattr(module, attr, check)
    return module


def test_the_registry_collects_every_marked_check_once() -> None:
    from gzinertia.audit.catalogue import RULE_INFOS
    from gzinertia.audit.emit import document_rule, link_rule
    from gzinertia.audit.rules.registry import FAMILIES, RULES, registered_rules

    assert list(RULES) == sorted(RULE_INFOS)
    assert all(r.check_link or r.check_document for r in RULES.values())
    with pytest.raises(ValueError, match=r"no entry in gzinertia\.audit\.catalogue"):
        link_rule("GZI999")

    def twice(ctx: object) -> Iterator[object]:
        yield from ()

    def again(ctx: object) -> Iterator[object]:
        yield from ()

    link_rule("GZI101")(twice)  # type: ignore[arg-type]
    link_rule("GZI101")(again)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="GZI101 is registered twice"):
        registered_rules((*FAMILIES, _family("fake_rules", twice=twice, again=again)))
    with pytest.raises(ValueError, match="catalogued rules without a check"):
        registered_rules(FAMILIES[:1])
    # a check imported into another family is that family's name for it, not a second check
    document_rule("GZI001")(twice)  # type: ignore[arg-type]
    borrowed = _family("borrowing_rules")
    borrowed.twice = twice  # type: ignore[attr-defined]
    assert registered_rules((*FAMILIES, borrowed)) == RULES
