"""``convert --sdf-to-hydro`` says what it refused (issue 28: "convert's closing line still says
'no link had added mass to convert' after refusing links for the bound").

A link whose ``<fluid_added_mass>`` exceeds its rigid body's on an axis cannot move to gz-sim's
Hydrodynamics plugin: the plugin applies it explicitly and diverges (gz-sim#1923, the audit's
GZI506). Such a link is skipped with why, as ``addmass`` skips it on URDF; a link asked for by
name is refused in one line; and the closing line never claims there was nothing to convert.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from sdf_builders import hydro_plugin, inertial, link, model, sphere

import gzinertia

TO_HYDRO = ["--sdf-to-hydro", "--sign", "fossen", "--engine", "bullet-featherstone"]


def _float(tmp_path: Path, heaves: dict[str, float]) -> Path:
    """10 kg floats, each with a Hydrodynamics plugin and a ``<fluid_added_mass>`` whose heave
    term is ``heaves[name]`` (above 10 kg: beyond the plugin's explicit bound)."""
    parts = []
    for k, (name, heave) in enumerate(heaves.items()):
        A = np.diag([1.0, 1.0, heave, 0.1, 0.1, 0.1])
        parts += [link(name, inertial(10.0, np.eye(3), A=A), sphere(0.2),
                       pose=(2.0 * k, 0, 0, 0, 0, 0)),
                  hydro_plugin(name, {"xU": -5.0})]
    path = tmp_path / "float.sdf"
    path.write_text(model(*parts))
    return path


def test_a_link_beyond_the_bound_is_skipped_with_why_in_the_library(tmp_path: Path) -> None:
    path = _float(tmp_path, {"big": 30.0, "small": 5.0})
    result = gzinertia.convert(path, to="hydro", sign="fossen", engine="bullet-featherstone")
    assert [c.link.name.split("::")[-1] for c in result.links] == ["small"]
    (skipped,) = result.skipped
    (big,) = [lk.name for lk in gzinertia.read(path).links if lk.name.endswith("big")]
    assert skipped.split(": ", 1)[0] == big, skipped
    assert "w: added 30 > rigid 10" in skipped and "gz-sim#1923" in skipped
    assert not any("big" in w and "not converted" in w for w in result.warnings)


def test_the_closing_line_counts_the_refused_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _float(tmp_path, {"big": 30.0, "bigger": 40.0})
    before = path.read_bytes()
    status, _, err = run_cli(["convert", str(path), *TO_HYDRO, "--in-place"], capsys)
    assert status == 0, err
    assert "no link had added mass to convert" not in err
    assert f"{path}: no link converted: 2 links skipped (above)" in err
    assert err.count("gz-sim#1923") == 2 and path.read_bytes() == before


def test_nothing_to_convert_is_still_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.sdf"
    path.write_text(model(link("hull", inertial(10.0, np.eye(3)), sphere(0.2))))
    status, _, err = run_cli(["convert", str(path), *TO_HYDRO, "--diff"], capsys)
    assert status == 0, err
    assert f"{path}: no link had added mass to convert" in err


def test_a_link_named_on_the_command_line_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _float(tmp_path, {"big": 30.0, "small": 5.0})
    before = path.read_bytes()
    status, _, err = run_cli(["convert", str(path), *TO_HYDRO, "--link", "big", "--in-place"],
                             capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "float.sdf" in err and "big" in err and "gz-sim#1923" in err
    assert path.read_bytes() == before
