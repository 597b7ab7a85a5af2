"""Per-member drag (``hydro --method morison``, :mod:`gzinertia.physics.damping_morison`):
a sphere, a box and a cylinder against the closed forms of ``½ρ C_d A |u| u`` with the tabulated
coefficients, a box's and a long cylinder's rotational damping against the same drag
integrated analytically over their faces, the written terms through gz-sim's force law, the
choice ``auto`` makes, and the edit→audit invariant on the box ROV example."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import run as run_audit
from conftest import run_cli
from hydro_oracles import plugin_F_BBo_B, single_axis_motions

from gzinertia.physics.damping_estimate import choose_method, damping_estimate
from gzinertia.physics.damping_morison import (
    COEFFICIENTS,
    member_panels,
    morison_estimate,
    morison_wrench,
)
from gzinertia.physics.damping_record import NEGLIGIBLE
from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_file

EXAMPLES = Path(__file__).resolve().parent.parent / "sdf_examples"
RHO = 1025.0
#: A 256-gon's area and width are within 1e-4 of the circle's; one point per panel integrates
#: the rotational drag within 1e-3 at 40 panels along a member.
ROUND, QUADRATURE = 1e-3, 2e-3


def _link(tmp_path: Path, *parts: str) -> tuple[Path, LinkRecord]:
    path = sdf.write(tmp_path, sdf.model(
        sdf.link("body", sdf.inertial(50.0, np.diag([1.0, 1.0, 1.0])), *parts), name="rov"))
    return path, read_sdf_file(path).link("rov::body")


def _terms(tmp_path: Path, collision: str) -> dict[str, float]:
    _, link = _link(tmp_path, collision)
    return dict(morison_estimate(link.collisions, link.name, density=RHO).terms)


def test_sphere_is_half_rho_cd_pi_r2(tmp_path: Path) -> None:
    r = 0.3
    terms = _terms(tmp_path, sdf.sphere(r, (0.1, 0.0, 0.0, 0.0, 0.0, 0.0)))
    cd = COEFFICIENTS["sphere"].value
    for name in ("xUabsU", "yVabsV", "zWabsW"):
        assert terms[name] == pytest.approx(-0.5 * RHO * cd * math.pi * r * r, rel=ROUND)
    # the drag acts at the centre, 0.1 m along x: moments about the link origin
    assert terms["nVabsV"] == pytest.approx(0.1 * terms["yVabsV"], rel=1e-9)


def test_box_faces_and_box_roll(tmp_path: Path) -> None:
    a, b, h = 0.5, 1.0, 0.25  # half sizes
    terms = _terms(tmp_path, sdf.box((2 * a, 2 * b, 2 * h)))
    k = 0.5 * RHO * COEFFICIENTS["box"].value
    assert terms["xUabsU"] == pytest.approx(-k * (2 * b) * (2 * h), rel=1e-12)
    assert terms["yVabsV"] == pytest.approx(-k * (2 * a) * (2 * h), rel=1e-12)
    assert terms["zWabsW"] == pytest.approx(-k * (2 * a) * (2 * b), rel=1e-12)
    # roll: on the face z = h the point (x, y) moves with p(0, -h, y); the half y > 0 faces
    # the flow and feels -k (p y) p (0, -h, y): moment about x -k p² y (y² + h²), so
    # 2 faces x 2a ∫₀^b y (y² + h²) dy, and the faces y = ±b alike with b and h swapped
    roll = k * 2 * (2 * a) * ((b**4 / 4 + h * h * b * b / 2) + (h**4 / 4 + b * b * h * h / 2))
    assert terms["kPabsP"] == pytest.approx(-roll, rel=QUADRATURE)


def test_cylinder_across_and_along_and_its_tumbling(tmp_path: Path) -> None:
    r, length = 0.05, 2.0
    terms = _terms(tmp_path, sdf.cylinder(r, length))
    side, end = COEFFICIENTS["cylinder_side"].value, COEFFICIENTS["cylinder_end"].value
    assert terms["xUabsU"] == pytest.approx(-0.5 * RHO * side * 2 * r * length, rel=ROUND)
    assert terms["zWabsW"] == pytest.approx(-0.5 * RHO * end * math.pi * r * r, rel=ROUND)
    # tumbling about x: on the side, n·v = -p z sin φ and the moment -k (n·v) p (r² sin²φ + z²)
    # integrate to k p² (r³L²/3 + r L⁴/16) (the strip theory's ½ρ C_d 2r ∫|z|³ dz is the
    # second term); each end adds k_end p² (4r⁵/15 + (L²/4)(2r³/3))
    k_side, k_end = 0.5 * RHO * side, 0.5 * RHO * end
    tumbling = (k_side * (r**3 * length**2 / 3 + r * length**4 / 16)
                + 2 * k_end * (4 * r**5 / 15 + length**2 / 4 * 2 * r**3 / 3))
    assert terms["kPabsP"] == pytest.approx(-tumbling, rel=QUADRATURE)
    assert terms["mQabsQ"] == pytest.approx(-tumbling, rel=QUADRATURE)
    assert "nRabsR" not in terms  # turning about its axis: no pressure drag


def test_written_terms_give_the_drag_in_gz_sim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two members posed off the origin and tilted: gz-sim's force law on the written terms
    gives the part of the members' drag that reverses with the motion (what ``|k|·j`` terms can
    apply; the rest is said) for motion along and about each link axis, within the quadrature
    floor of the terms left out (:data:`NEGLIGIBLE`)."""
    path, link = _link(tmp_path, sdf.box((0.4, 0.3, 0.2), (0.3, 0.1, -0.1, 0.2, 0.1, 0.5)),
                       sdf.cylinder(0.05, 0.6, (-0.2, 0.0, 0.1, 0.0, 1.2, 0.0), name="tube"))
    status, _, err = run_cli(["hydro", str(path), "--link", "body", "--method", "morison",
                              "--density", str(RHO), "--in-place"], capsys)
    assert status == 0, err
    assert "uncertainty +-50 %" in err and "no shielding" in err
    assert "does not reverse with the motion" in err
    written = read_sdf_file(path).link("rov::body").hydrodynamics[0].terms
    wrench = morison_wrench(member_panels(link.collisions, link.name), RHO)
    for V in single_axis_motions():
        s = np.concatenate([V[3:], V[:3]])
        drag = 0.5 * (wrench(s) - wrench(-s))
        F = np.concatenate([drag[3:], drag[:3]])
        error = np.abs(plugin_F_BBo_B(written, V, np.zeros(3)) - F)
        assert np.max(error) <= 10 * NEGLIGIBLE * np.max(np.abs(F)), (V, error)


def test_auto_chooses_by_shape_and_says_why(tmp_path: Path) -> None:
    _, box = _link(tmp_path, sdf.box((1.0, 0.8, 0.6)))
    method, reason = choose_method(box)
    assert method == "morison" and "bluff body" in reason
    _, flat = _link(tmp_path / "flat", sdf.box((3.0, 0.6, 0.1)))  # long but not round
    assert choose_method(flat)[0] == "morison"
    _, hull = _link(tmp_path / "hull", sdf.cylinder(0.1, 1.5, (0, 0, 0, math.pi / 2, 0, 0)))
    method, reason = choose_method(hull)
    assert method == "strip" and "along the link's y axis" in reason
    assert damping_estimate(hull, density=RHO).reason == reason


def test_box_rov_edit_then_audit_adds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "box_rov"
    shutil.copytree(EXAMPLES / "box_rov", folder)
    path = folder / "model.sdf"
    before = {(f.code, f.link) for f in run_audit([path]).findings}
    args = ["hydro", str(path), "--link", "*", "--method", "morison"]
    status, _, err = run_cli([*args, "--in-place"], capsys)
    if status == 2:  # the example's plugin has terms of its own: replaced only with --force
        assert "already has damping terms" in err and "--force" in err
        status, _, err = run_cli([*args, "--force", "--in-place"], capsys)
    assert status == 0, err
    assert "damping by per-member drag" in path.read_text()
    after = {(f.code, f.link) for f in run_audit([path]).findings}
    assert after <= before, after - before
    assert run_cli([*args, "--check"], capsys)[0] == 0


@pytest.mark.parametrize("method", ["strip", "morison", "auto"])
@pytest.mark.parametrize("geometry", [
    sdf.cylinder_geometry(0.1, 0.0), sdf.cylinder_geometry(0.0, 1.0), sdf.sphere_geometry(1e-300),
    sdf.mesh_geometry("missing.stl"), sdf.plane_geometry((0, 0, 1)),
])
def test_a_link_without_a_body_is_one_line_naming_file_and_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], method: str, geometry: str
) -> None:
    path, _ = _link(tmp_path, sdf.collision(geometry))
    status, out, err = run_cli(["hydro", str(path), "--link", "*", "--method", method,
                                "--diff"], capsys)
    assert status == 2 and out == "", err
    (line,) = err.strip().splitlines()
    assert f"{path}:" in line and "link 'rov::body'" in line and "Traceback" not in line


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(p.relative_to(EXAMPLES).as_posix()
                                           for p in EXAMPLES.rglob("*.sdf")))
@pytest.mark.parametrize("method", ["auto", "strip", "morison"])
def test_every_example_edit_then_audit_adds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], example: str, method: str
) -> None:
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    path = tmp_path / "examples" / example
    before = {(f.code, f.link) for f in run_audit([path]).findings}
    args = ["hydro", str(path), "--link", "*", "--method", method, "--force"]
    status, _, err = run_cli([*args, "--in-place"], capsys)
    assert status == 0, err
    after = {(f.code, f.link) for f in run_audit([path]).findings}
    assert after <= before, after - before
    assert run_cli([*args, "--check"], capsys)[0] == 0
