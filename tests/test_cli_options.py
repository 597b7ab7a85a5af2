"""The command line's choices and write-mode options, declared once (gzinertia/cli/options.py).

Every choice is a ``Literal`` that typer lists in ``--help`` and enforces (one line, exit status 2);
each names exactly the library's vocabulary, so that the CLI cannot offer a value the library
refuses or hide one it takes. Every editing command has the same write-mode options.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import numpy as np
import pytest
from conftest import run_cli
from sdf_builders import box, inertial, link, model, write

from gzinertia.audit.config import TOLERANCES
from gzinertia.audit.findings import Severity
from gzinertia.cli.options import (
    FitChoice,
    FixMethodChoice,
    FluidChoice,
    FormatChoice,
    OrderingChoice,
    SeverityChoice,
    SignChoice,
    ToleranceChoice,
)
from gzinertia.edit.convert import SIGNS
from gzinertia.edit.fix import METHODS
from gzinertia.physics.fits import FIT_METHODS
from gzinertia.report.audit import OUTPUT_FORMATS
from gzinertia.spatial.algebra import ORDERINGS
from gzinertia.vocabulary.fluids import FLUID_DENSITIES
from gzinertia.vocabulary.geometry import GEOMETRY_ELEMENTS as SHAPE_SOURCES
from gzinertia.vocabulary.geometry import GeometryElement as ShapeSourceChoice

EDITING_COMMANDS = ("addmass", "shift", "convert", "hydro")
WRITE_MODE_OPTIONS = ("--output", "-o", "--in-place", "--check", "--diff", "--force-readonly")


def values(choice: Any) -> list[str]:
    """The strings a ``Literal`` choice allows, in the order ``--help`` lists them."""
    return list(get_args(choice))


@pytest.mark.parametrize(
    ("choice", "vocabulary"),
    [
        (FitChoice, set(FIT_METHODS) - {"explicit"}),  # --semi-axes chooses the explicit fit
        (FluidChoice, set(FLUID_DENSITIES)),
        (OrderingChoice, set(ORDERINGS)),
        (SignChoice, set(SIGNS)),
        (FormatChoice, set(OUTPUT_FORMATS)),
        (SeverityChoice, set(get_args(Severity))),
        (ToleranceChoice, set(TOLERANCES)),
        (FixMethodChoice, set(METHODS)),
        (ShapeSourceChoice, set(SHAPE_SOURCES)),
    ],
)
def test_each_choice_is_the_library_vocabulary(choice: Any, vocabulary: set[str]) -> None:
    assert set(values(choice)) == vocabulary and len(values(choice)) == len(vocabulary)


@pytest.mark.parametrize(
    ("command", "option", "choice"),
    [
        ("addmass", "--fit", FitChoice),
        ("addmass", "--fluid", FluidChoice),
        ("hydro", "--fit", FitChoice),
        ("hydro", "--fluid", FluidChoice),
        ("plot", "--fit", FitChoice),
        ("show", "--ordering", OrderingChoice),
        ("convert", "--sign", SignChoice),
        ("audit", "--format", FormatChoice),
        ("audit", "--fail-on", SeverityChoice),
        ("audit", "--tolerance", ToleranceChoice),
        ("fix", "--method", FixMethodChoice),
        ("fix", "--geometry", ShapeSourceChoice),
        ("fix", "--tolerance", ToleranceChoice),
    ],
)
def test_help_lists_the_choices_and_a_bad_one_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, option: str,
    choice: Any,
) -> None:
    code, out, _ = run_cli([command, "--help"], capsys)
    assert code == 0
    listed = re.search(re.escape(option) + r"\s+<([^>]+)>", out)
    assert listed is not None, out
    assert listed.group(1).split("|") == values(choice)

    # a 1 m cube of 1000 kg: I = m/6·1 about its centre
    cube = link("a", inertial(1000.0, 1000.0 / 6.0 * np.eye(3)), box((1.0, 1.0, 1.0)))
    path = str(write(tmp_path, model(cube)))
    required = {"shift": ["--link", "a", "--from", "com"], "hydro": ["--link", "a"],
                "plot": ["-o", str(tmp_path / "x.png")]}.get(command, [])
    code, out, err = run_cli([command, path, *required, option, "nonsense"], capsys)
    assert code == 2
    assert err.startswith("gzinertia: error: ") and err.count("\n") == 1, err
    assert f"'{option}'" in err and all(f"'{value}'" in err for value in values(choice)), err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize("command", EDITING_COMMANDS)
def test_every_editing_command_has_the_write_mode_options(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli([command, "--help"], capsys)
    assert code == 0
    for option in WRITE_MODE_OPTIONS:
        assert re.search(rf"(^|[\s,]){re.escape(option)}\b", out), (command, option)


@pytest.mark.parametrize("command", EDITING_COMMANDS)
def test_write_mode_conflicts_are_refused_before_anything_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    missing = str(tmp_path / "missing.sdf")  # never opened: the options are checked first
    for conflict, says in (
        (["-o", str(tmp_path / "out.sdf"), "--in-place"], "either -o/--output or --in-place"),
        (["--check", "--in-place"], "--check writes nothing"),
    ):
        required = ["--link", "a"] + (["--from", "com"] if command == "shift" else [])
        code, out, err = run_cli([command, missing, *required, *conflict], capsys)
        assert code == 2, (command, conflict, err)
        assert err.startswith("gzinertia: error: ") and out == ""
        assert says in err and err.count("\n") == 1, (command, err)
    assert not (tmp_path / "out.sdf").exists()
