"""``-`` reads SDFormat from standard input for ``show`` and ``audit`` (issue 10).

Decisions under test: the text is reported as ``<stdin>``; relative includes resolve against
the working directory; standard input is never cached; suggested commands name ``FILE``.
The oracle is the same model read from its file: every number must be the same.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import sdf_builders as sdf
from conftest import EXAMPLES, run_cli

import gzinertia

DEFECT = EXAMPLES / "defects" / "added_mass_about_com"
MODEL = DEFECT / "model.sdf"
PACKAGE_ROOT = str(Path(gzinertia.__file__).resolve().parents[1])


def _console_script(args: list[str], data: bytes, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``gzinertia ARGS < data`` with a real standard input."""
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    return subprocess.run(
        [sys.executable, "-c", "from gzinertia.cli import main; main()", *args],
        input=data.decode("utf-8"), cwd=cwd, env=env, capture_output=True, text=True,
        timeout=120,
    )


def test_audit_reads_standard_input_as_the_file_would_be_read(tmp_path: Path) -> None:
    from_file = _console_script(["audit", str(MODEL), "--format", "json", "--no-cache"], b"",
                                tmp_path)
    piped = _console_script(["audit", "-", "--format", "json"], MODEL.read_bytes(), tmp_path)
    assert piped.returncode == from_file.returncode == 0, piped.stderr
    want, got = json.loads(from_file.stdout), json.loads(piped.stdout)
    assert got["files"] == [{"path": "<stdin>", "status": "ok", "message": None}]
    assert [f["file"] for f in got["findings"]] == ["<stdin>"]
    assert [(f["code"], f["line"], f["link"], f["values"]) for f in got["findings"]] == [
        (f["code"], f["line"], f["link"], f["values"]) for f in want["findings"]
    ]
    # a suggested command cannot edit a pipe: it names FILE for the user to fill in
    assert "`gzinertia shift FILE --link" in got["findings"][0]["message"]


def test_relative_includes_resolve_against_the_working_directory(tmp_path: Path) -> None:
    shutil.copytree(DEFECT, tmp_path / "models" / "defect")
    world = sdf.world(sdf.include("models/defect"), version="1.10").encode()
    piped = _console_script(["audit", "-", "--format", "json", "-j", "4"], world, tmp_path)
    assert piped.returncode == 0, piped.stderr
    data = json.loads(piped.stdout)
    assert data["files"][0]["path"] == "<stdin>"
    (finding,) = data["findings"]
    assert finding["code"] == "GZI204"
    assert finding["file"] == "models/defect/model.sdf"  # relative to the working directory


def test_standard_input_next_to_files_and_bad_input(tmp_path: Path) -> None:
    done = _console_script(["audit", "-", str(MODEL), "--format", "text"], b"<sdf", tmp_path)
    assert done.returncode == 2
    lines = done.stdout.splitlines()
    assert any(line.startswith(f"{MODEL}:") and " GZI204 " in line for line in lines)
    (bad,) = [line for line in lines if line.startswith("<stdin>: error: ")]
    assert "not well-formed XML" in bad and "Traceback" not in done.stderr


def _with_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_show_json_of_standard_input_is_the_file_s(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["show", str(MODEL), "--json"], capsys)
    assert status == 0, err
    want = json.loads(out)
    _with_stdin(monkeypatch, MODEL.read_bytes())
    status, out, err = run_cli(["show", "-", "--json"], capsys)
    assert status == 0, err
    got = json.loads(out)
    assert got["file"] == "<stdin>" and all(link["file"] == "<stdin>" for link in got["links"])
    for link in (*want["links"], *got["links"]):
        link.pop("file")
    assert {**got, "file": None} == {**want, "file": None}


def test_show_table_of_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _with_stdin(monkeypatch, MODEL.read_bytes())
    status, out, err = run_cli(["show", "-"], capsys)
    assert status == 0, err
    assert "hull" in out and "gzinertia plot FILE -o links.png" in out


def test_show_with_libsdformat_refuses_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _with_stdin(monkeypatch, MODEL.read_bytes())
    status, _, err = run_cli(["show", "-", "--parser", "sdformat"], capsys)
    assert status == 2 and "reads files only" in err
