"""Inertia plausibility for links without a collision (issue 25, item 13).

An 11 kg BlueROV2-like base link with a 1/1/1 kg·m² inertia and no collision got "No findings":
the plausibility rules (GZI105 radius of gyration, GZI106 mean density) looked at collisions
only. Now they judge such a link from its visuals, and say so; a link with no geometry at all
gets GZI113 (info): its inertia was not judged. Oracle: the closed-form inertia of a uniform box
and the generalised eigenvalues of ``I/m`` against ``G/V`` (SciPy), computed here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.linalg
import sdf_builders as sdf
from audit_helpers import findings_of
from conftest import run_cli

MASS = 11.0
UNIT = np.eye(3)  # the 1/1/1 kg·m² of the issue
SMALL_HULL = (0.3, 0.2, 0.15)  # m: a frame far too small for that inertia


def _model(*parts: str) -> str:
    return sdf.model(sdf.link("base_link", sdf.inertial(MASS, UNIT), *parts), name="bluerov2")


def _gyration_factors(mass: float, I: np.ndarray, size: tuple[float, ...]) -> np.ndarray:
    """Radius-of-gyration ratios of ``I`` against the uniform box of ``size``: the square roots
    of the generalised eigenvalues of ``I/m`` with respect to ``G/V`` (closed-form box)."""
    a, b, c = size
    V = a * b * c
    G = V / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    return np.sqrt(scipy.linalg.eigh(I / mass, G / V, eigvals_only=True))


def test_a_link_without_collision_is_judged_from_its_visuals(tmp_path: Path) -> None:
    found = findings_of(tmp_path, _model(sdf.visual(sdf.box_geometry(SMALL_HULL))), "GZI105")
    factors = _gyration_factors(MASS, UNIT, SMALL_HULL)
    assert factors.max() > 3.0  # the oracle says it is implausible
    assert len(found) == 1, found
    (f,) = found
    assert f.values["geometry"] == "visuals" and "visual" in f.message
    assert "no <collision>" in f.message
    assert f.values["factor"] == pytest.approx(factors.max(), rel=1e-9)


def test_a_plausible_inertia_of_the_visuals_is_clean(tmp_path: Path) -> None:
    size = (0.45, 0.34, 0.25)
    a, b, c = size
    I = MASS / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    text = sdf.model(sdf.link("base_link", sdf.inertial(MASS, I),
                              sdf.visual(sdf.box_geometry(size))), name="bluerov2")
    found = findings_of(tmp_path, text)
    assert found == [], [f"{f.code} {f.message}" for f in found]


def test_mass_against_the_visuals_volume(tmp_path: Path) -> None:
    edge = 0.01  # 11 kg in a 1 cm cube: 1.1e7 kg/m³, denser than osmium
    found = findings_of(tmp_path, _model(sdf.visual(sdf.box_geometry((edge,) * 3))), "GZI106")
    assert len(found) == 1, found
    assert found[0].values["density"] == pytest.approx(MASS / edge**3, rel=1e-12)
    assert found[0].values["geometry"] == "visuals" and "visual" in found[0].message


def test_collisions_are_still_what_is_judged_when_present(tmp_path: Path) -> None:
    # a hull-sized collision and a tiny visual: judged from the collision (plausible here)
    size = (0.45, 0.34, 0.25)
    a, b, c = size
    I = MASS / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    text = sdf.model(sdf.link("base_link", sdf.inertial(MASS, I), sdf.box(size),
                              sdf.visual(sdf.box_geometry((0.01,) * 3))), name="bluerov2")
    codes = {f.code for f in findings_of(tmp_path, text)}
    assert not codes & {"GZI105", "GZI106", "GZI113"}, codes


def test_a_link_with_no_geometry_says_it_was_not_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = sdf.write(tmp_path, _model())
    found = findings_of(tmp_path, _model())
    assert [(f.code, f.severity, f.link) for f in found] == [
        ("GZI113", "info", "bluerov2::base_link")
    ]
    assert "not judged" in found[0].message
    code, out, err = run_cli(["audit", str(path), "--format", "text"], capsys)
    assert code == 0 and "GZI113" in out and "No findings" not in out + err, out + err


def test_a_static_link_without_geometry_is_not_reported(tmp_path: Path) -> None:
    text = sdf.model(sdf.link("base_link", sdf.inertial(MASS, UNIT)), name="dock", static=True)
    assert findings_of(tmp_path, text, "GZI113") == []


def test_links_without_geometry_are_listed_in_one_finding_per_model(tmp_path: Path) -> None:
    # six 2 g thrusters with no geometry (as in bluerov2_gz): one info naming all six, at the
    # heaviest, not six
    parts = [sdf.link("base_link", sdf.inertial(MASS, UNIT))]
    for k in range(6):
        parts.append(sdf.link(f"thruster{k}", sdf.inertial(0.002 + 1e-4 * k, 1e-6 * UNIT)))
        parts.append(sdf.joint(f"j{k}", "base_link", f"thruster{k}", type="revolute",
                               axis=(1, 0, 0)))
    found = findings_of(tmp_path, sdf.model(*parts, name="bluerov2"), "GZI113")
    assert len(found) == 1, [f.message for f in found]
    (f,) = found
    assert f.link == "bluerov2::base_link" and "7 links" in f.message
    assert f.values["links"] == ["bluerov2::base_link"] + [f"bluerov2::thruster{k}"
                                                           for k in range(6)]
