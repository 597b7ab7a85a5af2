"""``addmass --bem --waterline auto``: added mass at the floating draft, heel and trim.

Oracles: the closed form of a floating box's draft (``d = m/(ρ·L·B)``); an independent Capytaine
solve of the box's part below that draft (``mesh_parallelepiped``, Capytaine's own
``immersed_part``: no gzinertia mesh); the manual two-step job (``hydrostatics --json
--waterline 0``'s equilibrium, then ``--waterline`` at it, or the file posed at it).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.rotation import rotation_from_rpy

cpt = pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

from gzinertia.api_edits import addmass_bem  # noqa: E402
from gzinertia.physics.bem_solve import RIGID_BODY_DOFS  # noqa: E402
from gzinertia.spatial.added_mass import AddedMass  # noqa: E402

RHO = 1000.0
#: A 1 x 0.8 x 0.6 m box of 200 kg centred on its link origin: it floats 0.25 m deep.
SIZE, MASS = (1.0, 0.8, 0.6), 200.0
URDF_MASS = 2 * MASS
PANEL = 0.1


def _boat(size: tuple[float, float, float] = SIZE, mass: float = MASS,
          com: tuple[float, float, float] = (0.0, 0.0, 0.0),
          pose: tuple[float, ...] | None = None) -> str:
    body = sdf.link("body", sdf.inertial(mass, 10.0 * np.eye(3), com=com),
                    sdf.box(size, pose=None, name="hull"))
    return sdf.model(body, version="1.10", name="boat", pose=pose)


def _written(path: Path) -> tuple[str, str]:
    """The ``<fluid_added_mass>`` element and the provenance comment written into ``path``."""
    text = path.read_text()
    block = re.search(r"<fluid_added_mass>.*?</fluid_added_mass>", text, re.S)
    comment = re.search(r"<!-- gzinertia addmass: BEM.*?-->", text, re.S)
    assert block is not None and comment is not None, text
    return block.group(0), comment.group(0)


def _matrices(path: Path) -> list[np.ndarray]:
    """The ``A_BBo_B`` written into ``path``, per link (as the reader reads them back)."""
    links = read_sdf_bytes(path.read_bytes(), str(path), []).links
    return [lk.inertial.A_BBo_B.linear_first() for lk in links if lk.inertial.A_BBo_B is not None]


def _independent_box_solve(draft: float, p_WaterBo_W: np.ndarray) -> np.ndarray:
    """Capytaine on its own structured box mesh, cut at the waterline by Capytaine
    (``immersed_part``), zero frequency, about Bo (world axes = link axes here)."""
    L, B, H = SIZE
    n = 40  # panels along the longest side; the waterline falls on a row of nodes
    resolution = (n, round(n * B / L), round(n * H / L))
    centre = (0.0, 0.0, H / 2.0 - draft)
    mesh = cpt.mesh_parallelepiped(size=SIZE, center=centre, resolution=resolution)
    body = cpt.FloatingBody(mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=p_WaterBo_W),
                            name="box").immersed_part()
    solver = cpt.BEMSolver(method="direct")
    A = np.empty((6, 6))
    for i, radiating in enumerate(RIGID_BODY_DOFS):
        problem = cpt.RadiationProblem(body=body, radiating_dof=radiating, omega=0.0,
                                       free_surface=0.0, water_depth=np.inf, rho=RHO)
        added = solver.solve(problem, keep_details=False).added_mass
        A[i] = [added[j] for j in RIGID_BODY_DOFS]
    return A


def test_a_floating_box_is_solved_at_its_closed_form_draft(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box floats level at ``d = m/(ρ·L·B)``: the draft and waterline the solve records are
    that closed form, and its added mass is within its own error bound of Capytaine's on an
    independent mesh cut at that draft."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "boat.sdf"
    path.write_text(_boat())
    solved = addmass_bem(path, density=RHO, waterline="auto", panel_size=PANEL, cache=False)
    (item,) = solved.links
    floating = item.floating
    assert floating is not None
    draft = MASS / (RHO * SIZE[0] * SIZE[1])
    assert floating.draft == pytest.approx(draft, rel=1e-9)
    assert floating.waterline == pytest.approx(-SIZE[2] / 2.0 + draft, abs=1e-9)
    assert floating.heel == 0.0 and floating.trim == 0.0
    assert "waterline auto" in solved.text and "draft 0.25 m" in solved.text
    result = item.result
    oracle = _independent_box_solve(draft, np.array([0.0, 0.0, -floating.waterline]))
    got = result.A_BBo_B.linear_first()
    assert np.all(np.abs(got - oracle) <= result.error_bound), np.max(
        np.abs(got - oracle) / result.error_bound)


def test_auto_is_the_manual_two_step_job(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hydrostatics --waterline 0``'s heave, then ``--waterline -heave``: the same matrix
    written, to the last digit; only the comment differs, saying where the waterline came from
    (text too). The audit of the edited file has nothing to say about the added mass."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "boat.sdf"
    path.write_text(_boat())
    code, out, err = run_cli(["hydrostatics", str(path), "--json", "--waterline", "0",
                              "--density", str(RHO)], capsys)
    assert code == 0, err
    heave = json.loads(out)["models"][0]["flotation"]["heave"]
    manual, auto = tmp_path / "manual.sdf", tmp_path / "auto.sdf"
    code, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", repr(-heave),
                            "--panel-size", "0.15", "--no-cache", "-o", str(manual)], capsys)
    assert code == 0, err
    code, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", "auto",
                            "--panel-size", "0.15", "--no-cache", "-o", str(auto)], capsys)
    assert code == 0, err
    (block_m, comment_m), (block_a, comment_a) = _written(manual), _written(auto)
    assert block_a == block_m
    assert "waterline auto" not in comment_m
    said = f"free surface at z = {-heave:g} m (world) (waterline auto: the floating equilibrium"
    assert said in comment_a and said in err, (comment_a, err)
    assert f"heave {heave:+.6g} m, heel +0 deg, trim +0 deg" in comment_a
    from audit_helpers import run

    found = run([auto]).findings
    assert not [f for f in found if f.code in ("GZI204", "GZI212", "GZI213")], found


def test_a_heeled_and_trimmed_body_is_solved_at_its_heel_and_trim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wide box whose centre of mass is off its middle heels and trims: the solve is that of
    the file posed at the equilibrium hydrostatics finds (turned about G, heaved) under a
    surface at 0, in link axes about Bo, to the mesher's round-off."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    size, com = (1.0, 1.2, 0.4), (0.03, 0.05, 0.0)
    path = tmp_path / "heeled.sdf"
    path.write_text(_boat(size, com=com))
    solved = addmass_bem(path, density=RHO, waterline="auto", panel_size=0.15, cache=False)
    (item,) = solved.links
    fl = item.floating
    assert fl is not None
    assert abs(fl.heel) > math.radians(1.0) and abs(fl.trim) > math.radians(1.0), fl
    R = np.asarray(rotation_from_rpy(fl.heel, fl.trim, 0.0))
    G = np.asarray(fl.p_WG)
    p = -R @ G + G + np.array([0.0, 0.0, fl.heave])
    posed = tmp_path / "posed.sdf"
    posed.write_text(_boat(size, com=com, pose=(*p, fl.heel, fl.trim, 0.0)))
    manual = addmass_bem(posed, density=RHO, waterline=0.0, panel_size=0.15, cache=False)
    A_auto = item.result.A_BBo_B.linear_first()
    A_manual = manual.links[0].result.A_BBo_B.linear_first()
    assert np.max(np.abs(A_auto - A_manual)) <= 1e-6 * np.max(np.abs(A_manual))
    assert isinstance(item.result.A_BBo_B, AddedMass)


@pytest.mark.parametrize(
    ("boat", "why"),
    [
        (_boat(mass=1000.0), "sinks"),
        (_boat(mass=RHO * SIZE[0] * SIZE[1] * SIZE[2]), "neutrally buoyant"),
    ],
    ids=["sinks", "neutral"],
)
def test_a_body_without_a_floating_draft_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], boat: str, why: str
) -> None:
    """A body heavier than the water it can displace, or exactly as heavy (it floats at any
    depth), has no floating draft: one line naming the file, the link, why, and what works (exit 2, nothing solved or
    written). Fully submerged is not assumed: where it sits (on the bed, held at a depth) is
    the user's to say."""
    path = tmp_path / "boat.sdf"
    path.write_text(boat)
    old = path.read_bytes()
    code, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", "auto",
                            "--quality", "fast", "--in-place"], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0] and "'boat::body'" in lines[0] and why in lines[0]
    assert "--waterline Z" in lines[0] and "unbounded fluid" in lines[0]
    assert path.read_bytes() == old


def test_a_waterline_that_is_neither_a_height_nor_auto_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--waterline`` takes a finite height or ``auto``: anything else is one line, exit 2."""
    path = tmp_path / "boat.sdf"
    path.write_text(_boat())
    for bad in ("high", "nan", "inf"):
        code, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", bad,
                                "--quality", "fast", "--in-place"], capsys)
        assert code == 2
        lines = err.strip().splitlines()
        assert len(lines) == 1 and f"finite height in metres or auto, not {bad!r}" in lines[0]


def _two_hulls(joined: bool) -> str:
    """Two 120 kg boxes 1.2 m apart, joined by a fixed joint (one free body) or loose."""
    hulls = [
        sdf.link(name, sdf.inertial(120.0, 5.0 * np.eye(3)),
                 sdf.box((1.0, 0.4, 0.5), pose=None, name="hull"), pose=(0.0, y, 0, 0, 0, 0))
        for name, y in (("left", 0.6), ("right", -0.6))
    ]
    joint = [sdf.joint("deck", "left", "right")] if joined else []
    return sdf.model(*hulls, *joint, version="1.10", name="cat")


def test_together_floats_the_links_of_one_body_and_refuses_several(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--together --waterline auto``: two hulls joined into one body float at one draft
    (``m/(ρ·2·L·B)``) and are solved as ``--together --waterline -heave``; two loose hulls
    float apart, each at its own draft: refused in one line naming the bodies."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "cat.sdf"
    path.write_text(_two_hulls(joined=True))
    args = ["--bem", "--together", "--panel-size", "0.15", "--no-cache"]
    auto, manual = tmp_path / "auto.sdf", tmp_path / "manual.sdf"
    code, _, err = run_cli(["addmass", str(path), *args, "--waterline", "auto", "-o", str(auto)],
                           capsys)
    assert code == 0, err
    draft = 240.0 / (RHO * 2 * 1.0 * 0.4)
    z = -0.25 + draft
    said = re.findall(r"free surface at z = (\S+) m \(world\) \(waterline auto", err)
    assert len(said) == 2 and all(float(v) == pytest.approx(z, abs=1e-6) for v in said), err
    code, _, err = run_cli(["addmass", str(path), *args, "--waterline", repr(z), "-o",
                            str(manual)], capsys)
    assert code == 0, err
    got, want = _matrices(auto), _matrices(manual)
    assert len(got) == 2 and len(want) == 2
    for A, M in zip(got, want, strict=True):
        assert np.max(np.abs(A - M)) <= 1e-6 * np.max(np.abs(M))
    path.write_text(_two_hulls(joined=False))
    code, _, err = run_cli(["addmass", str(path), *args, "--waterline", "auto", "--in-place"],
                           capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "2 free bodies" in lines[0] and "--together" in lines[0], err


def test_a_urdf_boat_floats_as_gazebo_builds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On URDF the equilibrium is that of the robot as libsdformat converts it: the block
    written at ``auto`` is the one written at the closed-form waterline (-0.3 + 400/800 m).
    Twice the SDF boat's mass: URDF's Hydrodynamics plugin applies added mass explicitly, and
    the 200 kg boat's heave added mass (306 kg) is refused there (gz-sim#1923, GZI506)."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "boat.urdf"
    path.write_text(
        '<?xml version="1.0"?>\n<robot name="boat"><link name="body"><inertial>'
        f'<mass value="{URDF_MASS}"/><inertia ixx="40" ixy="0" ixz="0" iyy="40" iyz="0" izz="40"/>'
        '</inertial><collision><geometry><box size="1 0.8 0.6"/></geometry></collision>'
        "</link></robot>\n"
    )
    z = -SIZE[2] / 2.0 + URDF_MASS / (RHO * SIZE[0] * SIZE[1])
    texts = []
    for waterline in ("auto", repr(z)):
        out = tmp_path / f"out_{waterline}.urdf"
        code, _, err = run_cli(["addmass", str(path), "--bem", "--waterline", waterline,
                                "--panel-size", "0.15", "--no-cache", "-o", str(out)], capsys)
        assert code == 0, err
        texts.append(out.read_text())
    assert "waterline auto" in texts[0] and "waterline auto" not in texts[1]
    values = [np.array([float(v) for v in re.findall(r"<\w+Dot\w+>([^<]+)<", t)]) for t in texts]
    assert len(values[0]) > 0 and values[0].shape == values[1].shape
    assert np.max(np.abs(values[0] - values[1])) <= 1e-6 * np.max(np.abs(values[1]))
