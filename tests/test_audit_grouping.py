"""One finding repeated on many identical links (8 rotors) is one line in text and one row in
table output; JSON and SARIF keep every finding (issue 10).

The model is generated: a body and N identical rotor links whose inertia is 280x too large for
their collision (GZI105), so each rotor gets the same finding; the audit itself produces the
findings, and the counts come from the model's construction.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from sdf_builders import cylinder, inertial, link, model, write

N_ROTORS = 8


def _rotor(i: int, izz: float) -> str:
    """A rotor disk at x = i whose inertia is far too large for its collision (GZI105)."""
    return link(
        f"rotor_{i}", inertial(0.05, np.diag([10.0, 10.0, izz])), cylinder(0.1, 0.01, pose=None),
        pose=(i, 0, 0, 0, 0, 0),
    )


def _drone(path: Path, izz: list[float]) -> Path:
    """Model ``x500``: a base and one rotor per entry of ``izz``, each link on its own line."""
    # the base's collision is a disk of its inertia, so only the rotors raise findings (a base
    # without geometry would get GZI113, its inertia not judged)
    base = link("base", inertial(2.0, np.diag([0.02, 0.02, 0.04])), cylinder(0.2, 0.1, pose=None))
    return write(path.parent, model(base, *(_rotor(i, z) for i, z in enumerate(izz)),
                                    name="x500"), path.name)


def _audit(path: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    status, out, err = run_cli(["audit", str(path), "--format", fmt, "--no-cache"], capsys)
    assert status == 0, err  # GZI105 is a warning
    return out


def test_text_gives_identical_rotors_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _drone(tmp_path / "x500.sdf", [10.0] * N_ROTORS)
    lines = _audit(path, "text", capsys).splitlines()
    (line,) = [ln for ln in lines if " GZI105 " in ln]
    assert line.startswith(f"{path}:") and "[x500::rotor_0]" in line  # the first, as parsed
    assert f"the same on {N_ROTORS - 1} more identical links" in line
    for i in range(1, N_ROTORS):
        assert f"x500::rotor_{i} (line " in line
    assert lines[-1] == f"Found 0 errors, {N_ROTORS} warnings and 0 info in 1 file."


def test_table_gives_identical_rotors_one_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _drone(tmp_path / "x500.sdf", [10.0] * N_ROTORS)
    out = _audit(path, "table", capsys)
    assert out.count("GZI105") == 1
    flat = " ".join(out.replace("│", " ").split())
    assert f"and {N_ROTORS - 1} identical:" in flat
    for i in range(1, N_ROTORS):
        assert f"rotor_{i} (" in flat


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_keep_every_finding(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _drone(tmp_path / "x500.sdf", [10.0] * N_ROTORS)
    data = json.loads(_audit(path, fmt, capsys))
    if fmt == "json":
        links = [f["link"] for f in data["findings"] if f["code"] == "GZI105"]
    else:
        links = [
            r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
            for r in data["runs"][0]["results"]
            if r["ruleId"] == "GZI105"
        ]
    assert sorted(links) == [f"x500::rotor_{i}" for i in range(N_ROTORS)]


def test_a_rotor_that_differs_keeps_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _drone(tmp_path / "x500.sdf", [10.0, 10.0, 10.0, 12.0])
    lines = [ln for ln in _audit(path, "text", capsys).splitlines() if " GZI105 " in ln]
    assert len(lines) == 2
    assert "[x500::rotor_3]" in lines[1] and "identical" not in lines[1]
    assert "the same on 2 more identical links" in lines[0]
