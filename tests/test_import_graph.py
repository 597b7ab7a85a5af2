"""The package's import graph has no circle and no import running back up the floors of
``docs/architecture.md`` (issue 26).

The graph is :func:`test_rule_layout.import_graph`'s: every ``import`` and ``from ... import``
of every module, at the top, inside a function or under ``TYPE_CHECKING`` (an import hidden in
a function body still ties two modules together), ``from pkg import name`` counted as
``pkg.name`` when that is a module. Each assertion is shown to bite on a small synthetic graph.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import pytest
from test_rule_layout import import_graph

#: The floors that hold files and numbers (reading, models, records, words): none imports a
#: floor above them.
LOWER = ("gzinertia.spatial", "gzinertia.io", "gzinertia.physics", "gzinertia.sdf", "gzinertia.urdf",
         "gzinertia.gazebo", "gzinertia.classic", "gzinertia.records", "gzinertia.vocabulary")
#: What sits above them: the library face, the command line, the audit, the edits, the
#: output and the checks.
UPPER = ("gzinertia.api", "gzinertia.cli", "gzinertia.audit", "gzinertia.edit",
         "gzinertia.report", "gzinertia.checks")
#: The checks answer what rules and edits ask: they import none of those, nor what stands on
#: them.
CHECKS = "gzinertia.checks"
ABOVE_CHECKS = ("gzinertia.audit", "gzinertia.edit", "gzinertia.report", "gzinertia.cli",
                "gzinertia.api")
VOCABULARY = "gzinertia.vocabulary"

#: Imports allowed to run up the floors, each with its reason: none today. (An entry is
#: ``(importer, imported): why``; a stale entry fails :func:`test_no_stale_exception`.)
EXCEPTIONS: dict[tuple[str, str], str] = {}


def _under(name: str, packages: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def upward(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """The imports that run back up the floors (from a lower floor to the face or a floor above
    it, or from the checks to what stands on them), but the named :data:`EXCEPTIONS`."""
    found = []
    for importer, imported in graph.edges():
        lower_up = _under(importer, LOWER) and (
            imported == "gzinertia" or _under(imported, UPPER))
        checks_up = _under(importer, (CHECKS,)) and _under(imported, ABOVE_CHECKS)
        if (lower_up or checks_up) and (importer, imported) not in EXCEPTIONS:
            found.append((importer, imported))
    return sorted(found)


def parts(graph: nx.DiGraph) -> nx.DiGraph:
    """The graph of the package's top-level parts (``gzinertia.audit``, ``gzinertia.records``,
    ...): an edge where a module of one imports a module of another; the package face
    ``gzinertia`` (which re-exports the library lazily) is left out."""
    found = nx.DiGraph()
    for importer, imported in graph.edges():
        a, b = (".".join(m.split(".")[:2]) for m in (importer, imported))
        if a != b and "gzinertia" not in (a, b):
            found.add_edge(a, b)
    return found


def numpy_in_vocabulary(graph: nx.DiGraph, external: dict[str, set[str]]) -> list[str]:
    """The vocabulary modules that import NumPy (``external``: each module's third-party
    imports by top-level name)."""
    return sorted(m for m in graph if _under(m, (VOCABULARY,)) and "numpy" in external.get(m, set()))


def _external_imports() -> dict[str, set[str]]:
    """Each gzinertia module's imports outside the package, by top-level name, at any depth."""
    import ast

    from test_rule_layout import _modules

    found: dict[str, set[str]] = {}
    for name, path in _modules().items():
        tops: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                tops.add(node.module.split(".")[0])
        found[name] = tops - {"gzinertia"}
    return found


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph()


def test_no_import_circle(graph: nx.DiGraph) -> None:
    assert circles(graph) == []


def test_no_circle_between_top_level_parts(graph: nx.DiGraph) -> None:
    """A package whose modules stand on two floors (records computing with the numeric core
    that computes with records) makes its parts import each other though no module circle
    exists: the floors hold for whole packages too."""
    assert circles(parts(graph)) == []


def test_a_circle_between_parts_is_found() -> None:
    graph = nx.DiGraph([("gzinertia.records", "gzinertia.physics.rotation"),
                        ("gzinertia.physics.fits", "gzinertia.records")])
    assert circles(parts(graph)) == [["gzinertia.physics", "gzinertia.records"]]


def test_no_import_runs_back_up_the_floors(graph: nx.DiGraph) -> None:
    assert upward(graph) == []


def test_the_vocabulary_imports_no_numpy(graph: nx.DiGraph) -> None:
    assert numpy_in_vocabulary(graph, _external_imports()) == []


def test_no_stale_exception(graph: nx.DiGraph) -> None:
    assert [edge for edge in EXCEPTIONS if not graph.has_edge(*edge)] == []


def test_the_graph_sees_imports_at_any_depth(graph: nx.DiGraph) -> None:
    """A module known to import only inside a function body still has its edge (the graph is
    not blind to lazy imports): :mod:`gzinertia.model_input` imports the xacro policy inside
    its ``xacro_policy`` property (a kept body import, :data:`KEPT_BODY_IMPORTS`)."""
    assert graph.has_edge("gzinertia.model_input", "gzinertia.urdf.xacro_policy")


# -- each assertion bites, on a small synthetic graph ------------------------------------------


def _synthetic(*edges: tuple[str, str]) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_edges_from(edges)
    return g


def test_a_circle_is_found() -> None:
    g = _synthetic(("gzinertia.records", "gzinertia.hydrodynamics_terms"),
                   ("gzinertia.hydrodynamics_terms", "gzinertia.records"),
                   ("gzinertia.api", "gzinertia.records"))
    assert circles(g) == [["gzinertia.hydrodynamics_terms", "gzinertia.records"]]


@pytest.mark.parametrize(("importer", "imported"), [
    ("gzinertia.physics.floating_draft", "gzinertia.api"),
    ("gzinertia.physics.bem", "gzinertia.audit.cache"),
    ("gzinertia.urdf.fix", "gzinertia.edit.fix"),
    ("gzinertia.records", "gzinertia.checks.added_mass"),
    ("gzinertia.vocabulary.fluids", "gzinertia"),
    ("gzinertia.checks.bem", "gzinertia.audit.findings"),
    ("gzinertia.checks.overlap", "gzinertia.edit.links"),
])
def test_an_import_up_the_floors_is_found(importer: str, imported: str) -> None:
    assert upward(_synthetic((importer, imported))) == [(importer, imported)]


@pytest.mark.parametrize(("importer", "imported"), [
    ("gzinertia.edit.addmass", "gzinertia.physics.fits"),
    ("gzinertia.checks.bem", "gzinertia.physics.bem"),
    ("gzinertia.audit.rules.added_mass", "gzinertia.checks.added_mass"),
    ("gzinertia.physics.bem", "gzinertia.io.cache_folder"),
])
def test_an_import_down_the_floors_is_allowed(importer: str, imported: str) -> None:
    assert upward(_synthetic((importer, imported))) == []


def test_numpy_in_the_vocabulary_is_found() -> None:
    g = _synthetic(("gzinertia.vocabulary.fluids", "gzinertia.errors"))
    assert numpy_in_vocabulary(g, {"gzinertia.vocabulary.fluids": {"numpy"}}) == [
        "gzinertia.vocabulary.fluids"]
    assert numpy_in_vocabulary(g, {"gzinertia.vocabulary.fluids": {"math"}}) == []


# -- imports at the top (issue 26 item 9) --------------------------------------------------------

#: The body imports that stay, each marked with ruff's noqa for ``PLC0415`` and its reason on its line
#: (ruff's import-outside-toplevel, enabled for the library in ``pyproject.toml``).
KEPT_BODY_IMPORTS = {
    "gzinertia.cli.options": "the delivery only when an editing command runs (not at --help); "
                             "the cli face would close a circle through cli.app",
    "gzinertia.model_input": "XacroPolicy only when a xacro setting is given (no URDF package "
                             "at the CLI's start-up nor in an SDF audit)",
    "gzinertia.physics.damping_strip": "manifold3d, the optional bem extra",
    "gzinertia.sdf.includes": "lxml only when a model.config is read (a cached audit resolves "
                              "includes without it); the sdf face would close a circle",
}


def body_imports() -> dict[str, list[str]]:
    """The gzinertia modules, package faces (``__init__.py``) and :mod:`gzinertia.lazy_face`
    aside, with an ``import`` inside a function body: each with those lines' text."""
    import ast

    from test_rule_layout import _modules

    found: dict[str, list[str]] = {}
    for name, path in _modules().items():
        if path.name == "__init__.py" or name == "gzinertia.lazy_face":
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        functions = [n for n in ast.walk(ast.parse(text))
                     if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        inner = {i.lineno for f in functions for i in ast.walk(f)
                 if isinstance(i, (ast.Import, ast.ImportFrom))}
        if inner:
            found[name] = [lines[n - 1] for n in sorted(inner)]
    return found


def body_import_modules() -> list[str]:
    """The modules of :func:`body_imports` with an import not marked as kept."""
    return sorted(m for m, lines in body_imports().items()
                  if any("# noqa: PLC0415" not in line for line in lines))


def test_every_module_imports_at_its_top() -> None:
    """Issue 26 item 9: outside the package faces, no module imports inside a function body
    but the kept ones (the walk sees them: it is not blind)."""
    assert body_imports(), "the walk finds the kept body imports"
    assert body_import_modules() == []


def test_the_kept_body_imports_are_the_named_ones() -> None:
    """A body import marked with the noqa of ``PLC0415`` stands only in a module named in
    :data:`KEPT_BODY_IMPORTS` (and a named module still has one)."""
    kept = {m for m, lines in body_imports().items()
            if any("# noqa: PLC0415" in line for line in lines)}
    assert kept == set(KEPT_BODY_IMPORTS)
