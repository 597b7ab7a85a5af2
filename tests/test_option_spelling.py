"""Library errors name the library's keyword arguments, the command line names its flags: the
same refusal, spelled for whoever called (``gzinertia.options``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli

import gzinertia
from gzinertia.errors import GzInertiaError
from gzinertia.options import spelling

EXAMPLES = Path(__file__).resolve().parent.parent / "sdf_examples"


def test_a_refused_shift_names_force_the_way_the_caller_passes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A matrix gzinertia wrote is about the origin already: shifting it again is refused,
    and the way out is ``force=True`` in Python, ``--force`` on the command line."""
    model = tmp_path / "model.sdf"
    shutil.copy(EXAMPLES / "box_rov" / "model.sdf", model)
    model.write_text(gzinertia.addmass(model, links="box_rov::thruster_fp").text, encoding="utf-8")
    with pytest.raises(GzInertiaError) as refused:
        gzinertia.shift(model, "box_rov::thruster_fp", source="com")
    assert "force=True" in str(refused.value) and "--force" not in str(refused.value)

    status, _, err = run_cli(["shift", str(model), "-l", "box_rov::thruster_fp", "--from", "com"],
                             capsys)
    assert status == 2
    assert "--force" in err and "force=True" not in err
    assert spelling() == "library"  # the CLI restores the library's spelling when it returns
