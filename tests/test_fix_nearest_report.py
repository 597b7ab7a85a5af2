"""What ``gzinertia fix --method nearest`` says about a repair (issue 25, item 11).

The report must not hide a large change behind "of the largest": each principal moment's own
relative change is stated, the repair that lands on the boundary of validity (the triangle
inequality met with equality: a flat plate; a zero moment: a rod) says so, and a link that has
geometry is pointed to ``--method geometry``. Oracle: the principal moments of the matrices
before and after, computed here with NumPy's ``eigvalsh`` (the written file read back as XML
text, not through the library).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli
from lxml import etree
from sdfgen import random_rotation

#: The torpedo of the issue: a slender body whose axial moment is small, written so that the
#: transverse moments violate the triangle inequality (0.6 + 30 < 35).
TORPEDO_MOMENTS = (0.6, 30.0, 35.0)
TAGS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


def _torpedo(folder: Path, I: np.ndarray, *, geometry: str = "collision") -> Path:
    hull = sdf.cylinder_geometry(0.3, 2.0)
    along_x = (0.0, 0.0, 0.0, 0.0, np.pi / 2, 0.0)
    shapes = {
        "collision": sdf.collision(hull, along_x),
        "visual": sdf.visual(hull, along_x),
        "none": "",
    }[geometry]
    return sdf.write(folder, sdf.model(sdf.link("hull", sdf.inertial(100.0, I), shapes),
                                       name="torpedo"))


def _written_inertia(path: Path) -> np.ndarray:
    """``<inertia>`` of the file's only link, read as plain XML (not by the library)."""
    inertia = etree.parse(str(path)).find(".//inertia")
    assert inertia is not None
    v = {t: float(inertia.findtext(t) or "nan") for t in TAGS}
    return np.array([[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
                     [v["ixz"], v["iyz"], v["izz"]]])


def _percentages(text: str, label: str) -> list[float]:
    """The signed percentages printed before ``label`` in the report line."""
    match = re.search(r"\(((?:[+-][0-9.e+-]+ % ?)+) " + re.escape(label), text)
    assert match, text
    return [float(v) for v in re.findall(r"([+-][0-9.e+-]+) %", match.group(1))]


def _repair(tmp_path: Path, capsys: pytest.CaptureFixture[str], I: np.ndarray,
            geometry: str = "collision") -> tuple[str, np.ndarray, dict[str, object]]:
    path = _torpedo(tmp_path, I, geometry=geometry)
    out_path = tmp_path / "fixed.sdf"
    code, _, err = run_cli(["fix", str(path), "-o", str(out_path)], capsys)
    assert code == 0, err
    code, out, _ = run_cli(["fix", str(path), "--json"], capsys)
    assert code == 0, out
    (entry,) = json.loads(out)[0]["links"]
    return err, _written_inertia(out_path), entry


@pytest.mark.parametrize("rotated", [False, True])
def test_each_moment_change_is_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rotated: bool
) -> None:
    R = random_rotation(np.random.default_rng(25)) if rotated else np.eye(3)
    before = R @ np.diag(TORPEDO_MOMENTS) @ R.T
    err, after, entry = _repair(tmp_path, capsys, before)
    lam_before = np.linalg.eigvalsh(before)
    lam_after = np.linalg.eigvalsh(after)  # the projection keeps the order of the moments
    expected = (lam_after - lam_before) / np.abs(lam_before)
    shown = _percentages(err, "of each moment")
    assert np.allclose(shown, 100.0 * expected, rtol=2e-3), (shown, expected, err)
    # the axial moment more than triples: the line must say so, not "+4.19 %"
    assert expected[0] > 2.0 and max(shown) > 200.0
    assert np.allclose(sorted(entry["moment_change"]), sorted(expected), rtol=1e-6)  # type: ignore[arg-type]


def test_nearest_on_the_triangle_face_says_flat_plate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err, after, entry = _repair(tmp_path, capsys, np.diag(TORPEDO_MOMENTS))
    lam = np.linalg.eigvalsh(after)
    # the oracle: the written inertia meets the triangle inequality with equality (to the
    # validity margin, 1e-6 of half the trace)
    assert 0.0 < lam[0] + lam[1] - lam[2] < 1e-5 * 0.5 * lam.sum()
    assert "boundary of validity" in err and "flat plate" in err, err
    assert entry["boundary"] == "flat plate", entry


def test_nearest_to_a_zero_moment_says_rod(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a negative axial moment (GZI103): the nearest valid inertia has a moment of (nearly) 0
    # (no geometry: with a cylinder, GZI105 would withdraw a rod's inertia)
    err, after, entry = _repair(tmp_path, capsys, np.diag([-0.5, 30.0, 30.0]), "none")
    lam = np.linalg.eigvalsh(after)
    assert 0.0 < lam[0] < 1e-5 * 0.5 * lam.sum()
    assert "boundary of validity" in err and "rod" in err, err
    assert entry["boundary"] == "rod", entry
    # a moment written as negative has a relative change, measured from its own magnitude
    assert entry["moment_change"][0] == pytest.approx((lam[0] + 0.5) / 0.5)  # type: ignore[index]


@pytest.mark.parametrize("geometry", ["collision", "visual"])
def test_a_link_with_geometry_is_pointed_to_the_geometry_method(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], geometry: str
) -> None:
    err, _, _ = _repair(tmp_path, capsys, np.diag(TORPEDO_MOMENTS), geometry)
    flag = "--method geometry" + (" --geometry visual" if geometry == "visual" else "")
    assert flag in err, err


def test_a_link_without_geometry_gets_no_geometry_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err, _, _ = _repair(tmp_path, capsys, np.diag(TORPEDO_MOMENTS), "none")
    assert "boundary of validity" in err and "--method geometry" not in err, err


def test_a_valid_inertia_left_as_is_is_not_on_the_boundary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --all-links on a valid link: nearest changes nothing, nothing is said about a boundary
    path = _torpedo(tmp_path, np.diag([4.5, 35.6, 35.6]))
    code, _, err = run_cli(["fix", str(path), "--all-links"], capsys)
    assert code == 0 and "boundary" not in err, err
