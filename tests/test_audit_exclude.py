"""``exclude``, ``extend-exclude``, ``force-exclude`` in the settings and ``--exclude``,
``--extend-exclude``, ``--force-exclude`` on ``audit``, with ruff's semantics (issue 25 item 2):
a pattern without ``/`` matches a name at any depth, one with ``/`` a path from its root (the
settings file's folder, or the working directory for the options); ``exclude`` replaces the
defaults (hidden folders), ``extend-exclude`` adds; a file named on the command line is left
out only with ``force-exclude``. What a pattern leaves out is listed skipped, naming it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from conftest import run_cli
from sdf_builders import box, inertial, link, model

#: A model with a negative mass: GZI101 wherever it is audited.
BROKEN = model(link("a", inertial(-1.0, np.eye(3)), box((1.0, 1.0, 1.0))))


def _tree(root: Path) -> Path:
    for rel in ("robots/a.sdf", "robots/old/b.sdf", "legacy/c.sdf", "other/robots/old/d.sdf",
                ".hidden/e.sdf", "build/share/f.sdf"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BROKEN, encoding="utf-8")
    return root


def _files(out: str) -> dict[str, tuple[str, str | None]]:
    return {f["path"]: (f["status"], f["message"]) for f in json.loads(out)["files"]}


def _audit(root: Path, capsys: pytest.CaptureFixture[str], *args: str,
           paths: tuple[str, ...] = (".",)) -> tuple[int, dict[str, tuple[str, str | None]]]:
    status, out, err = run_cli(["audit", *paths, "--format", "json", "--no-cache", *args],
                               capsys)
    assert status in (0, 1), err
    return status, _files(out)


def _settings(root: Path, text: str) -> None:
    (root / ".gzinertia.toml").write_text(text, encoding="utf-8")


def test_without_settings_only_hidden_folders_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _, files = _audit(tmp_path, capsys)
    assert sorted(files) == ["build/share/f.sdf", "legacy/c.sdf", "other/robots/old/d.sdf",
                             "robots/a.sdf", "robots/old/b.sdf"]


def test_extend_exclude_adds_a_name_at_any_depth_and_an_anchored_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _settings(tmp_path, 'extend-exclude = ["build", "robots/old/*.sdf"]\n')
    _, files = _audit(tmp_path, capsys)
    audited = sorted(p for p, (s, _) in files.items() if s == "ok")
    assert audited == ["legacy/c.sdf", "other/robots/old/d.sdf", "robots/a.sdf"]
    # each thing left out is listed, with the pattern and the file that wrote it
    assert files["build"][0] == "skipped"
    assert "'build'" in str(files["build"][1]) and ".gzinertia.toml" in str(files["build"][1])
    assert files["robots/old/b.sdf"][0] == "skipped"
    assert "robots/old/*.sdf" in str(files["robots/old/b.sdf"][1])
    assert ".hidden/e.sdf" not in files  # the default still applies


def test_exclude_replaces_the_defaults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _settings(tmp_path, 'exclude = ["legacy/"]\n')
    _, files = _audit(tmp_path, capsys)
    assert files[".hidden/e.sdf"][0] == "ok"
    assert files["legacy"][0] == "skipped" and "legacy/c.sdf" not in files


def test_the_options_replace_and_extend_relative_to_the_working_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _settings(tmp_path, 'extend-exclude = ["legacy"]\n')
    _, files = _audit(tmp_path, capsys, "--extend-exclude", "other/**/d.sdf,build")
    assert sorted(p for p, (s, _) in files.items() if s == "ok") == ["robots/a.sdf",
                                                                     "robots/old/b.sdf"]
    assert "--extend-exclude" in str(files["other/robots/old/d.sdf"][1])
    # --exclude replaces exclude (here: the defaults); the settings' extend-exclude still adds
    _, files = _audit(tmp_path, capsys, "--exclude", "robots")
    assert files["robots"][0] == "skipped" and files[".hidden/e.sdf"][0] == "ok"
    assert files["legacy"][0] == "skipped"
    assert "other/robots/old/d.sdf" not in files  # a name matches at any depth


def test_a_file_named_on_the_command_line_is_excluded_only_with_force_exclude(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _settings(tmp_path, 'extend-exclude = ["legacy"]\n')
    status, files = _audit(tmp_path, capsys, paths=("legacy/c.sdf",))
    assert status == 1 and files["legacy/c.sdf"][0] == "ok"
    status, files = _audit(tmp_path, capsys, "--force-exclude", paths=("legacy/c.sdf",))
    assert status == 0 and files["legacy/c.sdf"][0] == "skipped"
    _settings(tmp_path, 'extend-exclude = ["legacy"]\nforce-exclude = true\n')
    status, files = _audit(tmp_path, capsys, paths=("legacy/c.sdf",))
    assert status == 0 and "'legacy'" in str(files["legacy/c.sdf"][1])


def test_audit_fix_leaves_excluded_files_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.sdf")}
    run_cli(["audit", ".", "--fix", "--no-cache", "--exclude", "*.sdf"], capsys)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.sdf")} == before


def test_the_report_names_the_settings_file_that_excluded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _settings(tmp_path, 'extend-exclude = ["legacy"]\n')
    status, out, _ = run_cli(["audit", ".", "--format", "json", "--no-cache"], capsys)
    assert status == 1  # the files left in still fail
    (use,) = json.loads(out)["settings"]
    assert use["path"] == ".gzinertia.toml" and use["changes"] == {"extend-exclude": ["legacy"]}


@pytest.mark.parametrize("text", ['exclude = "build"\n', "extend-exclude = [1]\n",
                                  'extend-exclude = [""]\n', 'force-exclude = "yes"\n'])
def test_a_bad_exclude_setting_is_one_line_and_exit_2(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(_tree(tmp_path))
    _settings(tmp_path, text)
    status, out, err = run_cli(["audit", ".", "--no-cache"], capsys)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and ".gzinertia.toml" in lines[0] and "exclude" in lines[0], lines
