"""The HTML page's own options on ``audit`` (issue 30: the Action writes the page with
``audit --report``): ``--waterline`` and ``--ellipsoid-scale`` draw the audit's page as they
draw ``gzinertia report``'s, and without a page they are refused (they would change nothing).

Oracle: ``hydrostatics --json --waterline`` (the flotation the page draws) and the page of
``gzinertia report`` with the same options (its drawing is browser-tested in
tests/test_html_report.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import EXAMPLES, run_cli

pytest.importorskip("jupyter_threejs_sage", reason="needs the report extra (jupyter-threejs-sage)")

SPAR = EXAMPLES / "spar_buoy" / "model.sdf"


def _model(page: Path) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="gzinertia-data">(.*?)</script>',
                      page.read_text(encoding="utf-8"), re.S)
    assert found
    (model,) = json.loads(found.group(1))["models"]
    return dict(model)


@pytest.mark.parametrize("option", [["--waterline", "0"], ["--ellipsoid-scale", "2"]])
def test_page_options_without_a_page_are_refused(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["audit", "--no-cache", *option, str(SPAR)], capsys)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("gzinertia: error: ") and "--report" in line


def test_audit_page_floats_at_the_waterline_as_report_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ["--waterline", "0", "--ellipsoid-scale", "1"]
    audit_page, report_page = tmp_path / "audit.html", tmp_path / "report.html"
    code, _, err = run_cli(["audit", "--no-cache", "--isolated", "--format", "html", "-o",
                            str(audit_page), *options, str(SPAR)], capsys)
    assert code in (0, 1), err
    code, _, err = run_cli(["report", str(SPAR), *options, "-o", str(report_page)], capsys)
    assert code == 0, err
    drawn, alone = _model(audit_page), _model(report_page)
    assert drawn["hydrostatics"] == alone["hydrostatics"]
    assert drawn["links"] == alone["links"]
    assert all(lk["ellipsoid"]["scale"] == pytest.approx(1.0) for lk in drawn["links"])
    code, out, err = run_cli(["hydrostatics", str(SPAR), "--waterline", "0", "--json"], capsys)
    assert code == 0, err
    (want,) = json.loads(out)["models"]
    (got,) = drawn["hydrostatics"]["models"]
    flotation = want["flotation"]
    assert flotation is not None and got["flotation"]["draft"] == flotation["draft"]
    np.testing.assert_allclose(got["p_WB"], want["p_WB"], rtol=1e-12, atol=1e-12)
    assert drawn["hydrostatics"]["righting"]["spar_buoy"]["GZ"]  # floats: its curve is drawn


def test_a_page_that_cannot_be_written_costs_the_other_output_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--format json -o OUT --report PAGE`` with PAGE in a folder that does not exist: OUT is
    the audit's JSON as without ``--report``, then one line naming ``--report``, exit 2."""
    alone, kept = tmp_path / "alone.json", tmp_path / "kept.json"
    code, _, err = run_cli(["audit", "--no-cache", "--isolated", "--format", "json", "-o",
                            str(alone), str(SPAR)], capsys)
    assert code in (0, 1), err
    page = tmp_path / "missing" / "page.html"
    code, _, err = run_cli(["audit", "--no-cache", "--isolated", "--format", "json", "-o",
                            str(kept), "--report", str(page), str(SPAR)], capsys)
    assert code == 2 and not page.exists()
    assert kept.read_bytes() == alone.read_bytes()
    (line,) = [ln for ln in err.splitlines() if ln.startswith("gzinertia: error: ")]
    assert line.startswith(f"gzinertia: error: --report {page}: cannot write")
