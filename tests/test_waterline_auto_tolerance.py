"""``addmass --bem --waterline auto`` states the tolerance of the flotation it was posed at, as
``hydrostatics`` prints it ("these figures within ... relative (...)"), in its stderr report and
in the provenance comment it writes (issue 24).

Oracle: ``hydrostatics --json --waterline 0``'s own ``tolerance`` and ``tolerance_note`` for the
same file (the tool must not contradict itself), on a polyhedral hull (a box: the solver's
residual) and a round one (a cylinder: the segments' figure).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

RHO = 1000.0


def _boat(shape: str) -> str:
    hull = (sdf.box((1.0, 0.8, 0.6), pose=None, name="hull") if shape == "box"
            else sdf.cylinder(0.5, 0.4, pose=None, name="hull"))
    body = sdf.link("body", sdf.inertial(100.0, 10.0 * np.eye(3)), hull)
    return sdf.model(body, version="1.10", name="boat")


@pytest.mark.parametrize("shape", ["box", "cylinder"])
def test_the_floating_draft_is_said_with_its_tolerance(
    shape: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "boat.sdf"
    path.write_text(_boat(shape))
    code, out, err = run_cli(["hydrostatics", str(path), "--json", "--waterline", "0",
                              "--density", str(RHO)], capsys)
    assert code == 0, err
    flotation = json.loads(out)["models"][0]["flotation"]
    said = (f"these figures within {flotation['tolerance']:.2g} relative "
            f"({flotation['tolerance_note']})")
    written = tmp_path / "out.sdf"
    code, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", "auto",
                            "--panel-size", "0.2", "--no-cache", "-o", str(written)], capsys)
    assert code == 0, err
    (line,) = [ln for ln in err.splitlines() if "waterline auto" in ln]
    assert said in line, (said, err)
    comment = written.read_text().split("<!-- gzinertia addmass: BEM", 1)[1].split("-->", 1)[0]
    assert said in comment, (said, comment)
    from audit_helpers import run

    found = run([written]).findings
    assert not [f for f in found if f.code in ("GZI204", "GZI212", "GZI213")], found
