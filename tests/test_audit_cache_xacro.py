"""The audit's result cache on URDF/xacro (issue 25 item 3): a second run of a ROS workspace
(``$(find)`` includes, ``load_yaml``, ``package://`` meshes, xacro arguments) comes from the
cache, and each input a file's expansion used invalidates exactly the entries that used it: an
included fragment, a YAML file, a mesh, where a package is found, a xacro argument. Files whose
expansion did not use the input keep their entries.

Hits are observed as ``tests/test_audit_cache.py`` observes them: which files the audit really
checked (a spy on :func:`gzinertia.audit.runner._audit_file`), never by timing. Each expected
set of re-checked files comes from the workspace's own structure (which file includes what,
:mod:`xacro_workspace`), and every cached result is compared with an audit without the cache.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import spy_checked
from xacro_workspace import SHARED, TETRA_STL, Workspace, build_workspace

from gzinertia.audit import runner
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import AuditResult


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the audit really checked (not served from the cache)."""
    return spy_checked(monkeypatch)


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    """Two vehicle packages and the shared one: robots, macro-only fragments, YAML, meshes."""
    return build_workspace(tmp_path / "ws", files=16, packages=2)


def _audit(ws: Workspace, cache: Path | None, config: AuditConfig | None = None,
           package_paths: tuple[Path, ...] = ()) -> AuditResult:
    roots = [str(p) for p in (*package_paths, ws.root)]
    config = config or AuditConfig(known_codes=frozenset(RULE_INFOS))
    return runner.audit([str(ws.root)], config, model_paths=roots, cache_dir=cache)


def _in(folder: Path, files: list[Path]) -> set[str]:
    return {str(f) for f in files if f.is_relative_to(folder)}


def _robots_of(ws: Workspace, pkg: str) -> set[str]:
    return _in(ws.packages[pkg], ws.robots)


def test_the_second_run_of_a_ros_workspace_comes_from_the_cache(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    first = _audit(ws, cache)
    assert len(checked) == ws.files  # robots and fragments, all checked once
    assert {s.status for s in first.files} == {"ok", "skipped"}  # fragments: skipped, why
    second = _audit(ws, cache)
    assert len(checked) == ws.files, "the second run checked files again"
    assert first == second == _audit(ws, None)
    assert any(f.code == "GZI403" for f in second.findings)  # findings came back, not nothing


def _rerun(checked: list[str], *args: Any, **kwargs: Any) -> tuple[AuditResult, set[str]]:
    """:func:`_audit` again (after an edit), and the files it really checked."""
    before = len(checked)
    return _audit(*args, **kwargs), set(checked[before:])


def test_an_edited_fragment_invalidates_the_files_that_include_it(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    _audit(ws, cache)
    hull = ws.packages["vehicle0_description"] / "urdf" / "hull.xacro"
    hull.write_text(hull.read_text().replace('<mass value="${mass}"/>',
                                             '<mass value="${-mass}"/>'))
    after, rechecked = _rerun(checked, ws, cache)
    assert rechecked == _robots_of(ws, "vehicle0_description") | {str(hull)}
    assert after == _audit(ws, None)
    # A negative mass: libsdformat drops the link (GZI402), reported where it is written.
    assert {f.file for f in after.findings if f.code == "GZI402"} == {str(hull)}


def test_an_edited_yaml_file_invalidates_the_files_that_loaded_it(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    _audit(ws, cache)
    yaml = ws.packages["vehicle1_description"] / "config" / "hull.yaml"
    yaml.write_text("ixx: 0.5\niyy: 0.6\nizz: 70\n")  # beyond ixx + iyy: GZI104
    after, rechecked = _rerun(checked, ws, cache)
    # Only the robots evaluate the hull's parameters (xacro evaluates a property where it is
    # used): hull.xacro on its own never loads the YAML file.
    assert rechecked == _robots_of(ws, "vehicle1_description")
    assert after == _audit(ws, None)
    assert any(f.code == "GZI104" for f in after.findings)


def test_an_edited_mesh_invalidates_the_files_whose_links_use_it(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    first = _audit(ws, cache)
    mesh = ws.packages["vehicle0_description"] / "meshes" / "hull.stl"
    mesh.write_text(TETRA_STL.replace(" 1", " 100"))  # 1e6 times the volume: lighter than gas
    after, rechecked = _rerun(checked, ws, cache)
    assert rechecked == _robots_of(ws, "vehicle0_description")
    assert after == _audit(ws, None)
    assert "GZI106" not in {f.code for f in first.findings}
    assert "GZI106" in {f.code for f in after.findings}


def test_a_package_found_elsewhere_invalidates_the_files_that_found_it(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    """An overlay package root given first (empty on the first run) gains a copy of
    vehicle1's package: ``$(find vehicle1_description)`` and its ``package://`` meshes now lead
    there, for the files that use them and no other."""
    cache = tmp_path / "cache"
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    _audit(ws, cache, package_paths=(overlay,))
    copy = overlay / "vehicle1_description"
    shutil.copytree(ws.packages["vehicle1_description"], copy)
    (copy / "config" / "hull.yaml").write_text("ixx: 0.5\niyy: 0.6\nizz: 70\n")
    after, rechecked = _rerun(checked, ws, cache, package_paths=(overlay,))
    assert rechecked == _robots_of(ws, "vehicle1_description")
    assert after == _audit(ws, None, package_paths=(overlay,))
    assert any(f.code == "GZI104" for f in after.findings)


def test_a_moved_package_invalidates_the_files_that_found_it_and_no_other(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    _audit(ws, cache)
    old = ws.packages[SHARED]
    moved = ws.root / "deeper" / SHARED
    moved.parent.mkdir()
    old.rename(moved)  # the same package.xml, elsewhere under the package path
    after, rechecked = _rerun(checked, ws, cache)
    # Every robot includes the shared snippets through $(find): all are checked again, and
    # the shared package's own files under their new names. The fragments elsewhere are
    # skipped for what their own text says (a <robot> without a name): their bytes decide.
    expected = {str(p) for p in ws.robots}
    expected |= {str(moved / p.relative_to(old)) for p in ws.fragments if p.is_relative_to(old)}
    assert rechecked == expected
    assert after == _audit(ws, None)


def test_an_unrelated_file_invalidates_nothing(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    _audit(ws, cache)
    (ws.packages["vehicle0_description"] / "config" / "other.yaml").write_text("a: 1\n")
    (ws.packages[SHARED] / "meshes" / "hull.stl").write_text(TETRA_STL + "\n")  # used by none
    (ws.root / "README.md").write_text("a workspace\n")
    _, rechecked = _rerun(checked, ws, cache)
    assert rechecked == set()


def test_a_xacro_argument_invalidates_the_files_that_read_it(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    """``mass`` is an argument of every robot and of no fragment; given for one package's
    files, then changed, it re-checks that package's robots only."""
    cache = tmp_path / "cache"
    glob = "*/vehicle0_description/*"

    def config(mass: str) -> AuditConfig:
        return AuditConfig(xacro_args=((glob, (("mass", mass),)),),
                           known_codes=frozenset(RULE_INFOS))

    _audit(ws, cache, config("20"))
    heavy, rechecked = _rerun(checked, ws, cache, config("-20"))
    assert rechecked == _robots_of(ws, "vehicle0_description")
    assert heavy == _audit(ws, None, config("-20"))
    assert any(f.code == "GZI402" for f in heavy.findings)  # a negative mass: link dropped
    _, rechecked = _rerun(checked, ws, cache, config("-20"))
    assert rechecked == set()


def test_a_cached_fragment_still_says_what_includes_it_now(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    """A fragment's skip names the audited file that includes it, which other files decide:
    served from the cache, the reason is the stored one and the includer is found again."""
    cache = tmp_path / "cache"
    pkg = ws.packages["vehicle0_description"]
    library = pkg / "urdf" / "library.urdf.xacro"  # named, includes macros: expanded, no link
    library.write_text(f'<robot name="lib" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                       f'  <xacro:include filename="$(find {SHARED})/urdf/snippets.xacro"/>\n'
                       "</robot>\n")

    def status(result: AuditResult) -> str:
        (found,) = [s for s in result.files if s.path == str(library)]
        assert found.status == "skipped"
        return found.message

    first = _audit(ws, cache)
    assert "no audited file includes it" in status(first)
    user = pkg / "urdf" / "user.urdf.xacro"
    user.write_text('<robot name="user" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <xacro:include filename="library.urdf.xacro"/>\n'
                    '  <link name="a"/>\n</robot>\n')
    second, rechecked = _rerun(checked, ws, cache)
    assert rechecked == {str(user)}  # the library came from the cache
    assert f"audited through {user}" in status(second)
    assert second == _audit(ws, None)


def test_a_file_that_an_include_pattern_now_matches_invalidates(
    ws: Workspace, tmp_path: Path, checked: list[str]
) -> None:
    """``xacro:include`` with a wildcard: a new file it matches re-checks the file that
    includes it (its expansion changes), and nothing else."""
    cache = tmp_path / "cache"
    pkg = ws.packages["vehicle1_description"]
    (pkg / "urdf" / "extras").mkdir()
    robot = pkg / "urdf" / "globbing.urdf.xacro"
    robot.write_text('<robot name="g" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                     '  <xacro:include filename="$(find vehicle1_description)/urdf/extras/'
                     '*.xacro"/>\n  <link name="a"><inertial><mass value="1"/>'
                     '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                     "</link>\n</robot>\n")
    first = _audit(ws, cache)
    (pkg / "urdf" / "extras" / "heavy.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="b"><inertial>'
        '<mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/>'
        '</inertial></link><joint name="j" type="revolute"><parent link="a"/>'
        '<child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
        "</robot>\n")  # izz > ixx + iyy: GZI104
    after, rechecked = _rerun(checked, ws, cache)
    assert rechecked == {str(robot), str(pkg / "urdf" / "extras" / "heavy.xacro")}
    assert after == _audit(ws, None)
    assert not {f.code for f in first.findings if "globbing" in f.file} & {"GZI104"}
    assert any(f.code == "GZI104" and f.link == "g::b" for f in after.findings)
