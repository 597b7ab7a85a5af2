"""`gzinertia plot`: a picture is written, in the format asked for, with what it should show."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

pytest.importorskip("matplotlib")


def test_png_of_one_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hull.png"
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "torpedo_auv" / "model.sdf"), "--link", "hull", "-o", str(out)],
        capsys,
    )
    assert status == 0, err
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000


def test_svg_of_a_whole_model_names_it_and_its_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rov.svg"
    status, _, err = run_cli(["plot", str(EXAMPLES / "box_rov" / "model.sdf"), "-o", str(out)], capsys)
    assert status == 0, err
    text = out.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "world frame" in text and "fluid ellipsoid" in text


def test_unknown_picture_format_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "box_rov" / "model.sdf"), "-o", str(tmp_path / "x.gif")], capsys
    )
    assert status == 2 and "png or .svg" in err
