"""The library's size limits (issue 26's acceptance): no function over 80 lines and no module
over 500 lines under ``gzinertia/``, except the ones named in :data:`EXCEPTIONS` with the
reason. A function's lines run from its first decorator to its last line (as
``tests/test_cli_thin.py`` counts them for the command line); a method is named
``module:Class.method``, a nested function ``module:outer.inner``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "gzinertia"
FUNCTION_LINES = 80
MODULE_LINES = 500

#: ``{qualified name: reason}``: a module is named by its path under ``gzinertia/``
#: (``physics/bem.py``), a function by ``path:qualified.name``.
EXCEPTIONS: dict[str, str] = {}


def _functions(
    body: list[ast.stmt], prefix: str
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function under ``body`` (in classes and in other functions too), with its
    qualified name."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node.body, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body, f"{prefix}{node.name}.")
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            inner = [*ast.iter_child_nodes(node)]
            handlers = [s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body]
            yield from _functions([*(s for s in inner if isinstance(s, ast.stmt)), *handlers],
                                  prefix)


def _lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return (node.end_lineno or node.lineno) - first + 1


def oversized(package: Path) -> dict[str, int]:
    """``{name: lines}`` of every module over :data:`MODULE_LINES` and every function over
    :data:`FUNCTION_LINES` under ``package``, named as :data:`EXCEPTIONS` names them."""
    found: dict[str, int] = {}
    for path in sorted(package.rglob("*.py")):
        module = path.relative_to(package).as_posix()
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) > MODULE_LINES:
            found[module] = len(source.splitlines())
        for name, node in _functions(ast.parse(source).body, ""):
            if _lines(node) > FUNCTION_LINES:
                found[f"{module}:{name}"] = _lines(node)
    return found


def test_no_function_over_80_lines_and_no_module_over_500_but_the_named() -> None:
    """Every oversized module and function is named in :data:`EXCEPTIONS` with its reason."""
    unexplained = {name: n for name, n in oversized(PACKAGE).items() if name not in EXCEPTIONS}
    assert unexplained == {}


def test_every_exception_is_still_oversized_and_has_a_reason() -> None:
    """An exception that no longer applies (split, renamed, removed) is taken out of the list,
    so the list says what is left to do; each names why."""
    found = oversized(PACKAGE)
    assert sorted(set(EXCEPTIONS) - set(found)) == []
    assert all(reason.strip() for reason in EXCEPTIONS.values())


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n" + "    x = 1\n" * 80, {"m.py:f": 81}),
        ("def f():\n" + "    x = 1\n" * 79, {}),
        ("class C:\n    @staticmethod\n    def g():\n" + "        x = 1\n" * 79,
         {"m.py:C.g": 81}),
        ("def f():\n    def inner():\n" + "        x = 1\n" * 80,
         {"m.py:f": 82, "m.py:f.inner": 81}),
        ("if True:\n    def h():\n" + "        x = 1\n" * 80, {"m.py:h": 81}),
        ("x = 1\n" * 501, {"m.py": 501}),
    ],
)
def test_the_scan_counts_decorators_methods_nested_and_guarded_functions(
    tmp_path: Path, source: str, expected: dict[str, int]
) -> None:
    """The screen bites: an 81-line function, a decorated method, a nested and an ``if``-guarded
    function, a 501-line module are each found; an 80-line function is not."""
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    assert oversized(tmp_path) == expected


def test_links_and_models_are_looked_up_by_name_the_same_way() -> None:
    """``SdfDocument.link`` and ``HydrostaticsResult.model`` share one lookup
    (:func:`gzinertia.records.named`): the item named, else a ``KeyError`` naming the file and
    the names it holds."""
    import gzinertia
    from gzinertia.sdf.reader import read_sdf_file

    path = str(REPO / "sdf_examples" / "torpedo_auv" / "model.sdf")
    doc = read_sdf_file(path)
    assert doc.link("torpedo_auv::hull").name == "torpedo_auv::hull"
    with pytest.raises(KeyError, match=r"no link named 'nope' in .*model\.sdf \(links: "
                       r"torpedo_auv::hull, .* and 3 more\)"):
        doc.link("nope")
    result = gzinertia.hydrostatics(path)
    assert result.model("torpedo_auv").name == "torpedo_auv"
    with pytest.raises(KeyError, match=r"no model named 'nope' in .*\(models: torpedo_auv\)"):
        result.model("nope")
