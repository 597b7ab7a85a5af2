"""Settings are found from the audited files, not from the working directory (issue 10).

As ruff does: each file gets the nearest ``.gzinertia.toml`` (or ``pyproject.toml`` with
``[tool.gzinertia]``) above it; files of several projects audited in one run each get their own
project's settings, fail at their own project's ``fail-on``; a file with no settings above it
gets those found from the working directory; ``--config`` and command-line options apply to
every file. The model carries one deliberate GZI204 (warning), so what each project's settings
do to it is known from the settings alone.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import sdf_builders as sdf
from conftest import EXAMPLES, run_cli

from gzinertia.audit.config import ConfigFinder

DEFECT = EXAMPLES / "defects" / "added_mass_about_com" / "model.sdf"  # GZI204, a warning


def _project(root: Path, settings: str | None, *, pyproject: bool = False) -> Path:
    """A project folder holding the defect at models/auv.sdf and the given settings."""
    (root / "models").mkdir(parents=True)
    shutil.copy(DEFECT, root / "models" / "auv.sdf")
    if settings is not None:
        if pyproject:
            (root / "pyproject.toml").write_text(
                f"[project]\nname = 'x'\n\n[tool.gzinertia]\n{settings}\n", encoding="utf-8"
            )
        else:
            (root / ".gzinertia.toml").write_text(settings + "\n", encoding="utf-8")
    return root


def _audit(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, set[str]]:
    status, out, err = run_cli(["audit", *args, "--format", "json", "--no-cache"], capsys)
    assert status in (0, 1), err
    return status, {f["file"] for f in json.loads(out)["findings"] if f["code"] == "GZI204"}


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working directory: a folder outside every project, with no settings above it."""
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    assert ConfigFinder().nearest(cwd) is None
    return cwd


def test_settings_come_from_the_audited_path_not_the_working_directory(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "proj", 'ignore = ["GZI204"]')
    assert _audit([str(project / "models")], capsys) == (0, set())
    assert _audit([str(project / "models" / "auv.sdf")], capsys) == (0, set())


def test_a_pyproject_table_counts_and_one_without_is_passed_over(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "proj", 'fail-on = "warning"', pyproject=True)
    (project / "models" / "pyproject.toml").write_text("[project]\nname = 'y'\n")
    status, files = _audit([str(project / "models")], capsys)
    assert status == 1 and files == {str(project / "models" / "auv.sdf")}


def test_two_projects_in_one_run_each_keep_their_settings(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = _project(tmp_path / "quiet", 'ignore = ["GZI204"]')
    strict = _project(tmp_path / "strict", 'fail-on = "warning"')
    plain = _project(tmp_path / "plain", None)  # no settings: defaults
    status, files = _audit([str(quiet), str(strict), str(plain)], capsys)
    assert status == 1  # strict's warning fails at strict's fail-on
    assert files == {str(strict / "models" / "auv.sdf"), str(plain / "models" / "auv.sdf")}
    assert _audit([str(quiet), str(plain)], capsys)[0] == 0  # plain fails at error only
    # command-line options apply to every project
    assert _audit([str(strict), "--fail-on", "error"], capsys)[0] == 0
    status, files = _audit([str(quiet), "--ignore", "GZI1"], capsys)  # replaces quiet's ignore
    assert files == {str(quiet / "models" / "auv.sdf")}


def test_the_nearest_settings_win_and_globs_are_relative_to_them(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outer = _project(tmp_path / "outer", 'fail-on = "warning"')
    inner = _project(outer / "sub", '[per-path-ignores]\n"models/*.sdf" = ["GZI204"]')
    status, files = _audit([str(outer)], capsys)
    assert files == {str(outer / "models" / "auv.sdf")}  # inner's glob, from inner's folder
    assert status == 1
    assert _audit([str(inner)], capsys) == (0, set())  # inner's fail-on: the default


def test_a_file_with_no_settings_above_it_gets_the_working_directory_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "proj", 'fail-on = "warning"')
    loose = _project(tmp_path / "loose", None)
    monkeypatch.chdir(project)
    status, files = _audit([str(loose)], capsys)
    assert status == 1 and files == {str(loose / "models" / "auv.sdf")}


def test_config_option_applies_to_every_file(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = _project(tmp_path / "quiet", 'ignore = ["GZI204"]')
    strict = _project(tmp_path / "strict", 'fail-on = "warning"')
    status, files = _audit([str(quiet), str(strict), "--config", str(strict / ".gzinertia.toml")],
                           capsys)
    assert status == 1 and len(files) == 2


def test_bad_settings_in_any_project_are_a_usage_error(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _project(tmp_path / "good", None)
    bad = _project(tmp_path / "bad", 'select = ["XYZ9"]')
    status, _, err = run_cli(["audit", str(good), str(bad), "--no-cache"], capsys)
    assert status == 2 and ".gzinertia.toml" in err and "XYZ9" in err


def test_an_included_file_audited_in_its_own_project_follows_its_own_settings(
    tmp_path: Path, elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Project A's world includes project B's model; B ignores GZI204. Audited together, B's
    settings decide about B's file (reported once, or here not at all); A audited alone
    reports what A's settings see in what it includes."""
    b = _project(tmp_path / "b", 'ignore = ["GZI204"]')
    a = tmp_path / "a"
    a.mkdir()
    (a / "world.sdf").write_text(
        sdf.world(sdf.include(str(b / "models" / "auv.sdf"), "guest"), version="1.10"),
        encoding="utf-8",
    )
    assert _audit([str(a), str(b)], capsys) == (0, set())
    assert _audit([str(a)], capsys)[1] == {str(b / "models" / "auv.sdf")}
