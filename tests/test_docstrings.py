"""The library's docstrings keep one style, and every 6x6 in a public signature says what it is.

ruff's pydocstyle rules (pyproject.toml, ``D`` with the pep257 convention) make every public
module, class, function and method carry a docstring. What they cannot see is checked here, on
the source (``ast``), for every module under ``gzinertia/``:

* every name not starting with ``_`` (module-level functions and classes, their methods) has a
  docstring: ruff's D1 rules treat a module's names outside its ``__all__`` as private, and
  the site shows them all;
* the style is the one the site renders (mkdocstrings ``docstring_style: sphinx``): no Google or
  NumPy section headers (``Args:``, ``Returns:``...), which it would print as plain text;
* every Sphinx field ``:param name:`` names a parameter of its function (griffe only logs a
  stale one, which ``mkdocs build --strict`` does not catch);
* a public function or method that takes or returns a 6x6 spatial matrix says its point and axes
  (a monogram name such as ``A_BBo_B``, or "about ... axes") and, when the matrix is a bare array
  that does not carry its ordering, the ordering (``linear-first`` ``[v; ω]`` or
  ``angular-first`` ``[ω; v]``; docs/conventions.md). Typed values
  (:class:`~gzinertia.spatial.matrix.SpatialMatrix` and its subclasses) know their
  ordering, so for them point and axes suffice.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gzinertia"

_SECTION = re.compile(
    r"^\s*(Args|Arguments|Parameters|Returns|Yields|Raises|Attributes|Examples?|Notes?)"
    r":?\s*$\n(\s*-{3,}\s*$)?",
    re.MULTILINE,
)
_FIELD = re.compile(r"^\s*:(?:param|parameter|arg|argument|key|keyword)\s+(?:\S+\s+)?(\w+):", re.MULTILINE)

#: A 6x6 spatial matrix by its monogram name: ``M_BBo_B``, ``A_EEo_E``, ``D_BBo_B``, ``M_SP``.
_MATRIX_NAME = re.compile(r"^[MAD]_[A-Z]\w*$")
#: Annotations of a matrix that carries its ordering, and of a bare 6x6 array.
_TYPED = re.compile(r"\b(SpatialMatrix|SpatialInertia|AddedMass)\b")
_BARE = re.compile(r"\bMat6\b")
#: What says a point and axes: a full monogram name (``A_BBo_B``, ``F_EEo_E``, ``shift``'s
#: ``p_PQ``), or "about <point> ... axes" / "point ... axes" in one sentence.
_POINT_AXES = re.compile(
    r"\b[MADF]_[A-Z][A-Za-z]*_[A-Z]\w*|\bp_[A-Z]\w*"
    r"|\b(about|point)\b[^.]*\baxes\b|\baxes\b[^.]*\b(about|point)\b"
)
_ORDERING = re.compile(r"linear-first|angular-first|\bordering\b|\[v; ω\]|\[ω; v\]|\[x y z p q r\]")


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _documented(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node, doc


def _public_functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Module-level functions and methods of module-level classes, not underscored."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    yield f"{node.name}.{item.name}", item


def _matrix_kinds(fn: ast.FunctionDef) -> set[str]:
    """``"typed"`` and/or ``"bare"`` for the 6x6 matrices among ``fn``'s parameters and result."""
    kinds: set[str] = set()
    args = fn.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        annotation = ast.unparse(arg.annotation) if arg.annotation else ""
        if _TYPED.search(annotation):
            kinds.add("typed")
        elif _BARE.search(annotation) or (_MATRIX_NAME.match(arg.arg) and "Pose" not in annotation):
            kinds.add("bare")
    returns = ast.unparse(fn.returns) if fn.returns else ""
    if _TYPED.search(returns):
        kinds.add("typed")
    if _BARE.search(returns):
        kinds.add("bare")
    return kinds


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_one_docstring_style(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = []
    for node, doc in _documented(tree):
        name = getattr(node, "name", "<module>")
        if _SECTION.search(doc):
            wrong.append(f"{name}: a Google/NumPy section header; use Sphinx fields (:param x:)")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            params = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
            params |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
            wrong += [f"{name}: :param {p}: is not a parameter" for p in _FIELD.findall(doc)
                      if p not in params]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_matrices_say_point_axes_and_ordering(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    missing = []
    for name, fn in _public_functions(tree):
        kinds = _matrix_kinds(fn)
        if not kinds:
            continue
        doc = ast.get_docstring(fn, clean=True) or ""
        # the function's own name can carry the monogram (``M_BBo_B``, ``shift``'s ``p_PQ``)
        said = f"{fn.name} {doc}"
        if not _POINT_AXES.search(said):
            missing.append(f"{name}: its 6x6 has no point and axes in the docstring")
        if "bare" in kinds and not _ORDERING.search(doc):
            missing.append(f"{name}: its bare 6x6 array has no ordering in the docstring")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_every_public_name_documented(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            if not ast.get_docstring(node):
                bare.append(node.name)
            if isinstance(node, ast.ClassDef):
                bare += [f"{node.name}.{item.name}" for item in node.body
                         if isinstance(item, ast.FunctionDef) and not item.name.startswith("_")
                         and not ast.get_docstring(item)]
    assert not bare, f"no docstring: {', '.join(bare)}"
