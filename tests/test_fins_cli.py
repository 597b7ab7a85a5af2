"""Fins from the command line (issue 29: strip theory "and fin lift, as in Prestero (2001)";
``gzinertia hydro --method strip|morison|mujoco writes them as Hydrodynamics terms``).

``hydro --method strip --fins FILE`` reads the fins from a TOML file of ``[[fin]]`` tables
(:mod:`gzinertia.edit.fin_table`). Checked here: the written terms against the closed forms of a
cylinder with a rudder (lift ``½ρ C_Lα S |u| v`` with Whicker and Fehlner's slope for the
aspect ratio given, cross-flow drag ``½ρ C_df S |v| v``), the fins said in the provenance
comment, the edit→audit invariant and ``--check`` after ``--in-place``, and every bad value one
line naming the file and the fin, exit 2, nothing written.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import run as run_audit
from conftest import run_cli

import gzinertia
from gzinertia.physics.damping_strip import CROSS_FLOW_CD

RHO = 1025.0
RADIUS, LENGTH = 0.1, 2.0
#: A rudder 0.9 m behind the link origin and 0.15 m above the axis, lifting along y.
RUDDER = """[[fin]]
link = "hull"
name = "rudder"
center = [-0.9, 0.0, 0.15]
normal = [0.0, 2.0, 0.0]
area = 0.01
aspect_ratio = 2.0
"""


def _files(tmp_path: Path, fins: str = RUDDER) -> tuple[Path, Path]:
    """A 2 m cylinder along the link's x axis (the model) and the fin file beside it."""
    model = sdf.write(tmp_path, sdf.model(sdf.link(
        "hull", sdf.inertial(60.0, np.diag([0.3, 20.0, 20.0])),
        sdf.cylinder(RADIUS, LENGTH, (0.0, 0.0, 0.0, 0.0, math.pi / 2, 0.0))), name="auv"))
    table = tmp_path / "fins.toml"
    table.write_text(fins)
    return model, table


def _terms(path: Path) -> dict[str, float]:
    return gzinertia.read(path).link("auv::hull").hydrodynamics[0].terms


def _hydro(model: Path, *more: str) -> list[str]:
    return ["hydro", str(model), "--link", "*", "--method", "strip", "--density", str(RHO),
            *more]


def test_the_fins_terms_are_the_closed_forms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, table = _files(tmp_path)
    bare = tmp_path / "bare.sdf"
    bare.write_bytes(model.read_bytes())
    status, _, err = run_cli(_hydro(model, "--fins", str(table), "--in-place"), capsys)
    assert status == 0, err
    status, _, err = run_cli(_hydro(bare, "--in-place"), capsys)
    assert status == 0, err
    finned, hull = _terms(model), gzinertia.read(bare).link("auv::hull").hydrodynamics[0].terms
    aspect = 2.0  # Whicker and Fehlner's slope, as Hoerner gives it, for the aspect ratio given
    slope = 1.8 * math.pi * aspect / (1.8 + math.sqrt(aspect**2 + 4.0))
    k_lift, k_drag = 0.5 * RHO * slope * 0.01, 0.5 * RHO * 0.56 * 0.01
    assert hull["yVabsV"] == pytest.approx(-0.5 * RHO * CROSS_FLOW_CD * 2 * RADIUS * LENGTH,
                                           rel=1e-9)
    assert finned["yVabsV"] == pytest.approx(hull["yVabsV"] - k_drag, rel=1e-9)
    assert finned["yVabsU"] == pytest.approx(-k_lift, rel=1e-9)  # the normal made unit
    assert finned["nVabsU"] == pytest.approx(-k_lift * -0.9, rel=1e-9)
    assert finned["kPabsU"] == pytest.approx(-k_lift * 0.15**2, rel=1e-9)
    assert "yVabsU" not in hull or hull["yVabsU"] == 0.0
    text = model.read_text()
    assert "fin rudder: S 0.01 m^2, C_La" in text and "at -0.9 0 0.15" in text


def test_edit_then_audit_adds_nothing_and_check_is_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, table = _files(tmp_path)
    before = {(f.code, f.link) for f in run_audit([model]).findings}
    status, _, err = run_cli(_hydro(model, "--fins", str(table), "--in-place"), capsys)
    assert status == 0, err
    assert {(f.code, f.link) for f in run_audit([model]).findings} <= before
    status, _, err = run_cli(_hydro(model, "--fins", str(table), "--check"), capsys)
    assert status == 0, err


def test_the_library_takes_the_file_or_its_table(tmp_path: Path) -> None:
    model, table = _files(tmp_path)
    from_file = gzinertia.hydro(model, "*", method="strip", density=RHO, fins=table)
    from gzinertia.edit.fin_table import read_fin_table

    from_table = gzinertia.hydro(model, "*", method="strip", density=RHO,
                                 fins=read_fin_table(table))
    assert from_file.new == from_table.new and from_file.changed


BAD = {
    "no area": (RUDDER.replace("area = 0.01\n", ""), "area must be a finite number > 0"),
    "negative area": (RUDDER.replace("area = 0.01", "area = -0.01"), "area must be"),
    "both slopes": (RUDDER + "lift_slope = 3.0\n", "aspect_ratio or lift_slope"),
    "unknown key": (RUDDER + "chord = 0.1\n", "unknown key 'chord'"),
    "zero normal": (RUDDER.replace("[0.0, 2.0, 0.0]", "[0, 0, 0]"), "normal must not be zero"),
    "short center": (RUDDER.replace("[-0.9, 0.0, 0.15]", "[-0.9, 0.0]"), "center must be 3"),
    "text area": (RUDDER.replace("area = 0.01", 'area = "big"'), "area must be"),
    "not toml": ("[[fin]\nlink = ", "not valid TOML"),
    "no fins": ("[settings]\nx = 1\n", "[[fin]] tables only"),
    "unknown link": (RUDDER.replace('link = "hull"', 'link = "tail"'), "no link selected is "
                     "named 'tail'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_fin_file_is_one_line_naming_it(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, words = BAD[case]
    model, table = _files(tmp_path, text)
    before = model.read_bytes()
    status, _, err = run_cli(_hydro(model, "--fins", str(table), "--in-place"), capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert words in err and ("fins.toml" in err or "--fins" in err), err
    assert "Traceback" not in err and model.read_bytes() == before


@pytest.mark.parametrize("method", ["mujoco", "morison"])
def test_fins_with_another_method_are_refused_not_ignored(
    method: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, table = _files(tmp_path)
    args = ["hydro", str(model), "--link", "*", "--method", method, "--fins", str(table),
            "--diff"]
    status, _, err = run_cli(args, capsys)
    assert status == 2 and "--fins" in err and "--method strip" in err, err
