"""`gzinertia plot` is reproducible: the same model gives the same bytes, so a picture kept in a
repository or compared in CI changes only when the model does (matplotlib's SVG writer stamps
the date and draws its ids from a random salt unless told otherwise)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_two_plots_of_one_model_are_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    model = str(EXAMPLES / "box_rov" / "model.sdf")
    pictures = []
    for name in ("first", "second"):
        out = tmp_path / f"{name}{suffix}"
        status, _, err = run_cli(["plot", model, "-o", str(out)], capsys)
        assert status == 0, err
        pictures.append(out.read_bytes())
    assert pictures[0] == pictures[1]
    if suffix == ".svg":
        assert b"<dc:date>" not in pictures[0]
