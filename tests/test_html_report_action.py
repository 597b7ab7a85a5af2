"""The GitHub Action's HTML report (issue 30): the audit step, run as the CI runner runs it
(inputs through the environment), writes the page with the same audit that writes the SARIF
report (``audit --report``: one audit, its findings on the page, the page's own options from
``report-args``), says so to the next steps, never fails the job, and the summary step links
the uploaded artifact."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO
from test_audit_ci import _env, run_audit_step

pytest.importorskip("jupyter_threejs_sage", reason="needs the report extra (jupyter-threejs-sage)")


def _action() -> dict[str, Any]:
    return dict(yaml.safe_load((REPO / "action.yml").read_text()))


def _step(name: str) -> dict[str, Any]:
    return dict(next(s for s in _action()["runs"]["steps"] if s.get("name") == name))


def _run(step: dict[str, Any], **env: str) -> subprocess.CompletedProcess[str]:
    assert "${{" not in step["run"]  # inputs reach the script through the environment only
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=REPO, env=_env(**env),
                          capture_output=True, text=True, timeout=600)


def _page_data(page: Path) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="gzinertia-data">(.*?)</script>',
                      page.read_text(encoding="utf-8"), re.S)
    assert found
    return dict(json.loads(found.group(1)))


def test_the_audit_writes_the_page_the_action_uploads_and_links(tmp_path: Path) -> None:
    action = _action()
    assert action["inputs"]["html-report"]["default"] == "true"
    assert "[report]" in _step("Install gzinertia")["run"]
    # one audit writes the SARIF report and the page: no step runs gzinertia report
    assert not any(re.search(r"gzinertia report \$", s.get("run", ""))
                   for s in action["runs"]["steps"])
    page = tmp_path / "out" / "gzinertia-report.html"
    done, sarif, output = run_audit_step(
        REPO, tmp_path, "sdf_examples", "--model-path sdf_examples", GZI_HTML_REPORT="true",
        GZI_REPORT=str(page), GZI_REPORT_ARGS="--ellipsoid-scale 1")
    assert output.read_text().split() == [
        "report-written=true", f"report-file={page}", "exit-code=1", "sarif-written=true"]
    data = _page_data(page)
    files = [m["file"] for m in data["models"]]
    assert "sdf_examples/harbour_world.sdf" in files and any(
        f.endswith("torpedo_auv/model.sdf") for f in files)
    # the page holds the SARIF run's findings (the same audit), and its own option applied
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert sum(len(m["findings"]) for m in data["models"]) == len(results) > 0
    assert "run that wrote this page" in page.read_text(encoding="utf-8")
    scales = {lk["ellipsoid"]["scale"] for m in data["models"] for lk in m["links"]
              if lk["ellipsoid"]}
    assert scales and all(abs(s - 1.0) < 1e-9 for s in scales)
    upload = _step("Upload the HTML report")
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["name"] == "gzinertia-report"
    assert "steps.audit.outputs.report-written == 'true'" in upload["if"]
    assert upload["with"]["path"] == "${{ steps.audit.outputs.report-file }}"
    summary = tmp_path / "summary.md"
    done = _run(_step("Link the HTML report in the job summary"),
                GZI_ARTIFACT_URL="https://example.org/artifacts/1",
                GITHUB_STEP_SUMMARY=str(summary))
    assert done.returncode == 0, done.stderr
    assert "[gzinertia-report.html](https://example.org/artifacts/1)" in summary.read_text()


def test_a_page_that_cannot_be_written_is_a_warning_and_the_audit_stands(
    tmp_path: Path
) -> None:
    """A bad page option: a warning; the SARIF report and the exit code are the audit's own
    (a clean model: 0), as without the page."""
    page = tmp_path / "r.html"
    done, sarif, output = run_audit_step(
        REPO, tmp_path, "sdf_examples/torpedo_auv", "", GZI_HTML_REPORT="true",
        GZI_REPORT=str(page), GZI_REPORT_ARGS="--ellipsoid-scale -1")
    assert "::warning title=gzinertia report::" in done.stdout
    assert output.read_text().split() == ["exit-code=0", "sarif-written=true"]
    assert sarif.is_file() and not page.exists()


def test_no_page_when_the_input_says_false(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    _, _, output = run_audit_step(REPO, tmp_path, "sdf_examples/torpedo_auv", "",
                                  GZI_HTML_REPORT="false", GZI_REPORT=str(page))
    assert output.read_text().split() == ["exit-code=0", "sarif-written=true"]
    assert not page.exists()
