"""``audit --format html`` and ``audit --report PAGE`` (issue 30): the HTML page of
``gzinertia report`` drawn from the audit that ran, so its findings are that audit's, with the
settings it read, not an audit of each file alone.

Oracle: the same audit's ``--format json`` findings, file by file; ``gzinertia report`` for
what the page draws (the page's models, links and numbers are the report's, which the browser
tests check against ``show --json`` and ``hydrostatics --json``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_cli

import gzinertia
from gzinertia.errors import GzInertiaError

MODEL_PATH = ["-m", str(EXAMPLES)]
DEFECTS = [EXAMPLES / "defects" / "non_psd_added_mass" / "model.sdf",
           EXAMPLES / "defects" / "urdf_massless_link" / "model.urdf"]


def _page_data(text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="gzinertia-data">(.*?)</script>',
                      text, re.S)
    assert found, "no data element"
    return dict(json.loads(found.group(1)))


def _keys(findings: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(f["code"], f["file"], f["line"], f["link"], f["message"]) for f in findings]


def _audit_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_cli(["audit", "--no-cache", "-j", "1", "--format", "json", *args],
                             capsys)
    assert code in (0, 1), err
    return dict(json.loads(out))


def test_format_html_holds_the_audit_s_findings_file_by_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "audit.html"
    args = [*MODEL_PATH, *map(str, DEFECTS)]
    code, out, err = run_cli(["audit", "--no-cache", "-j", "1", "--format", "html", "-o",
                              str(page), *args], capsys)
    assert code == 1 and out == "", err  # the defects fail the audit; the page is the output
    audit = _audit_json(args, capsys)
    data = _page_data(page.read_text(encoding="utf-8"))
    assert [m["file"] for m in data["models"]] == [str(f) for f in DEFECTS]
    for model in data["models"]:
        want = [f for f in audit["findings"] if f["file"] == model["file"]]
        assert _keys(model["findings"]) == _keys(want) and want
    assert "gzinertia audit</code> run that wrote this page" in page.read_text(encoding="utf-8")


def test_report_beside_another_format_leaves_it_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.html"
    args = [*MODEL_PATH, *map(str, DEFECTS)]
    code, alone, _ = run_cli(["audit", "--no-cache", "-j", "1", "--format", "json", *args],
                             capsys)
    code_with, beside, err = run_cli(["audit", "--no-cache", "-j", "1", "--format", "json",
                                      "--report", str(page), *args], capsys)
    assert (code_with, beside) == (code, alone), err
    assert [m["file"] for m in _page_data(page.read_text(encoding="utf-8"))["models"]] == [
        str(f) for f in DEFECTS]


def test_the_page_applies_the_settings_the_audit_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A project that ignores a rule: the audit's page leaves its findings out, as the audit
    does; ``gzinertia report`` (an audit of the file alone) keeps them, and says so."""
    model = DEFECTS[0]
    project = tmp_path / "project"
    project.mkdir()
    (project / "model.sdf").write_text(model.read_text(encoding="utf-8"), encoding="utf-8")
    isolated = _audit_json(["--isolated", str(project / "model.sdf")], capsys)
    ignored = sorted({f["code"] for f in isolated["findings"]})
    assert ignored
    (project / ".gzinertia.toml").write_text(f"ignore = {json.dumps(ignored[:1])}\n",
                                            encoding="utf-8")
    page = tmp_path / "page.html"
    code, _, err = run_cli(["audit", "--no-cache", "-j", "1", "--format", "json", "--report",
                            str(page), str(project / "model.sdf")], capsys)
    assert code in (0, 1), err
    audited = _audit_json([str(project / "model.sdf")], capsys)
    drawn = _page_data(page.read_text(encoding="utf-8"))["models"][0]["findings"]
    assert _keys(drawn) == _keys(audited["findings"])
    assert ignored[0] not in {f["code"] for f in drawn}
    alone = tmp_path / "alone.html"
    code, _, err = run_cli(["report", str(project / "model.sdf"), "-o", str(alone)], capsys)
    assert code == 0, err
    text = alone.read_text(encoding="utf-8")
    assert ignored[0] in {f["code"] for f in _page_data(text)["models"][0]["findings"]}
    assert "--isolated</code>" in text


def test_a_file_the_audit_could_not_read_is_listed_not_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.sdf"
    broken.write_text("<sdf version='1.9'><model name='m'><link name='a'>", encoding="utf-8")
    page = tmp_path / "page.html"
    code, _, err = run_cli(["audit", "--no-cache", "-j", "1", "--format", "json", "--report",
                            str(page), str(DEFECTS[0]), str(broken)], capsys)
    assert code == 2  # an unreadable file: the audit's status, whatever the page
    data = _page_data(page.read_text(encoding="utf-8"))
    assert [m["file"] for m in data["models"]] == [str(DEFECTS[0])]
    assert any(str(broken) in line for line in data["skipped"]), data["skipped"]
    assert f"report: {broken}" in err


def test_report_is_never_written_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.html"
    (tmp_path / "page.html").symlink_to(outside)
    code, out, err = run_cli(["audit", "--no-cache", "--report", "page.html", str(DEFECTS[0])],
                             capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "symbolic link" in err
    assert not outside.exists() and out == ""


def test_the_library_takes_paths_or_an_audit_not_both(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="paths or audit"):
        gzinertia.html_report(DEFECTS[0], audit=object())  # type: ignore[arg-type]
    with pytest.raises(GzInertiaError, match=f"{re.escape(str(tmp_path))}: no model file"):
        gzinertia.html_report(tmp_path)  # a folder without model files
