"""The GitHub Action's HTML report (issue 30): the report step run as the CI runner runs it
(inputs through the environment) writes the page of the audited paths and says so to the next
steps, never fails the job, and the summary step links the uploaded artifact."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO
from test_audit_ci import _env

pytest.importorskip("jupyter_threejs_sage", reason="needs the report extra (jupyter-threejs-sage)")


def _step(name: str) -> dict[str, Any]:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    return dict(next(s for s in action["runs"]["steps"] if s.get("name") == name))


def _run(step: dict[str, Any], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    assert "${{" not in step["run"]  # inputs reach the script through the environment only
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=REPO, env=_env(**env),
                          capture_output=True, text=True, timeout=600)


def test_action_writes_uploads_and_links_the_report(tmp_path: Path) -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["inputs"]["html-report"]["default"] == "true"
    install = _step("Install gzinertia")
    assert "[report]" in install["run"]
    page, output = tmp_path / "out" / "gzinertia-report.html", tmp_path / "github_output"
    done = _run(_step("Write the HTML report"), tmp_path, GZI_PATHS="sdf_examples",
                GZI_REPORT_ARGS="--model-path sdf_examples", GZI_REPORT=str(page),
                GITHUB_OUTPUT=str(output))
    assert done.returncode == 0, done.stderr
    assert output.read_text().split() == ["report-written=true", f"report-file={page}"]
    text = page.read_text(encoding="utf-8")
    assert "sdf_examples/harbour_world.sdf" in text and "torpedo_auv/model.sdf" in text
    upload = _step("Upload the HTML report")
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["name"] == "gzinertia-report"
    assert "report-written == 'true'" in upload["if"]
    summary = tmp_path / "summary.md"
    done = _run(_step("Link the HTML report in the job summary"), tmp_path,
                GZI_ARTIFACT_URL="https://example.org/artifacts/1", GITHUB_STEP_SUMMARY=str(summary))
    assert done.returncode == 0, done.stderr
    assert "[gzinertia-report.html](https://example.org/artifacts/1)" in summary.read_text()


def test_action_report_failure_is_a_warning(tmp_path: Path) -> None:
    output = tmp_path / "github_output"
    output.touch()
    done = _run(_step("Write the HTML report"), tmp_path, GZI_PATHS="no/such/folder",
                GZI_REPORT_ARGS="", GZI_REPORT=str(tmp_path / "r.html"),
                GITHUB_OUTPUT=str(output))
    assert done.returncode == 0
    assert done.stdout.startswith("::warning title=gzinertia report::")
    assert output.read_text() == ""
    assert not (tmp_path / "r.html").exists()
