"""Every whole-file edit reaches its format through the one registry (issue 26 item 2):
``migrate`` is a :class:`~gzinertia.edit.model_file.ModelFormat` entry point on both backends
(URDF's refusal of xacro and of standard input is the URDF backend's answer), and ``audit --fix``
repairs a file through the backend entry point ``gzinertia fix`` reaches, not through a module
of its own choosing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

from gzinertia.edit.backends import model_format
from gzinertia.edit.migrate import migrate
from gzinertia.edit.sdf_file import SdfModelFile
from gzinertia.edit.urdf_file import UrdfModelFile
from gzinertia.errors import GzInertiaError

PACKAGE = REPO / "gzinertia"


def _function(module: Path, name: str) -> ast.FunctionDef:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    (found,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    return found


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


@pytest.mark.parametrize("backend", [SdfModelFile, UrdfModelFile])
def test_migrate_is_an_entry_point_of_both_backends(backend: type) -> None:
    """Each backend class offers ``migrate_edit`` (the protocol's entry point)."""
    assert callable(getattr(backend, "migrate_edit", None))


def test_migrate_is_one_call_through_the_registry() -> None:
    """``migrate`` asks no format itself: one call to ``model_format(...).migrate_edit``, no
    branch on the backend's class."""
    body = _function(PACKAGE / "edit" / "migrate.py", "migrate")
    names = _names(body)
    assert {"model_format", "migrate_edit"} <= names
    assert not names & {"UrdfModelFile", "SdfModelFile", "is_urdf_path", "refuse_unmigratable"}


@pytest.mark.parametrize(("name", "data", "to", "said"), [
    ("robot.urdf.xacro", None, "uuv-simulator", "edits SDFormat and URDF files"),
    ("robot.urdf", b"<robot name='r'/>", "gz-sim", "not URDF from standard input")])
def test_the_urdf_backend_refuses_what_it_does_not_migrate(
    tmp_path: Path, name: str, data: bytes | None, to: str, said: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """URDF bytes given as standard input, and a xacro file to go back to the classic plugin
    (a xacro is migrated to gz-sim since issue 27), are refused in one line naming the file,
    by the URDF backend's entry point (the registry gives it for both)."""
    path = tmp_path / name
    path.write_text("<robot name='r'><link name='a'/></robot>", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert model_format(path) is UrdfModelFile
    with pytest.raises(GzInertiaError, match=said) as caught:
        migrate(path, data=data, to=to)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_audit_fix_repairs_through_the_backend_entry_point() -> None:
    """``audit --fix`` calls the backend's ``fix_edit`` through ``model_format`` (what
    ``gzinertia fix`` reaches through :func:`gzinertia.fix`), not ``fix_file`` or a writer."""
    body = _function(PACKAGE / "cli" / "audit_fix.py", "apply_safe_fixes")
    names = _names(body)
    assert {"model_format", "fix_edit"} <= names
    assert not names & {"fix_file", "fix_urdf", "fix"}
