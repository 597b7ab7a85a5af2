"""Strip theory (``hydro --method strip``, :mod:`gzinertia.physics.damping_strip`): a cylinder
against the closed forms of its cross-flow and friction drag, a capsule's sampled profile
against its closed form, REMUS 100's Myring hull (Prestero 2001's published profile, meshed
here) against Prestero's published coefficients, the written terms through gz-sim's force law,
and the audit after the edit."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import run as run_audit
from conftest import run_cli
from hydro_oracles import plugin_F_BBo_B, single_axis_motions
from remus_hull import myring_stl

from gzinertia import catalogue
from gzinertia.physics.damping_estimate import damping_estimate
from gzinertia.physics.damping_record import DampingEstimate
from gzinertia.physics.damping_strip import (
    CROSS_FLOW_CD,
    STRIP_BAND,
    hull_profile,
    primitive_profile,
    sampled_profile,
    strip_estimate,
    strip_wrench,
)
from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_file

DOCS = Path(__file__).resolve().parent.parent / "docs" / "damping.md"
RHO, MU = 1030.0, 1.03e-3  # Prestero's sea water; kinematic viscosity 1e-6 m²/s
R, L, X0 = 0.1, 2.0, 0.3

#: Prestero (2001), Table 4.2 as catalogue entry ``remus100_scrimmage`` carries it (its numbers
#: checked against their public file by tests/test_catalogue_sources.py; the other copy,
#: ``remus100``, is not axisymmetric: docs/catalogue.md): hull and fins, about the centre of
#: buoyancy, ρ = 1030 kg/m³, Fossen-negative.
PRESTERO_TABLE = catalogue.entry("remus100_scrimmage").published.terms
PRESTERO = {name: PRESTERO_TABLE[name]
            for name in ("xUabsU", "yVabsV", "zWabsW", "mQabsQ", "nRabsR")}


def _link(tmp_path: Path, *parts: str) -> tuple[Path, LinkRecord]:
    path = sdf.write(tmp_path, sdf.model(sdf.link("hull", sdf.inertial(5.0, np.diag([0.05, 1.0, 1.0])), *parts),
                                         name="auv"))
    return path, read_sdf_file(path).link("auv::hull")


def _cylinder_along_x(tmp_path: Path) -> tuple[Path, LinkRecord]:
    return _link(tmp_path, sdf.cylinder(R, L, (X0, 0.0, 0.0, 0.0, math.pi / 2, 0.0)))


def test_cylinder_matches_the_closed_forms(tmp_path: Path) -> None:
    _, link = _cylinder_along_x(tmp_path)
    terms = strip_estimate(link.collisions, link.name, density=RHO, viscosity=MU,
                           speed=1.5).terms
    cross = 0.5 * RHO * CROSS_FLOW_CD * 2.0 * R * L  # ½ρ C_d D L
    assert terms["yVabsV"] == pytest.approx(-cross, rel=1e-12)
    assert terms["zWabsW"] == pytest.approx(-cross, rel=1e-12)
    # the force at the centre x0 makes the moments about the link origin
    assert terms["nVabsV"] == pytest.approx(-cross * X0, rel=1e-12)
    assert terms["mWabsW"] == pytest.approx(cross * X0, rel=1e-12)
    a, b = L / 2 - X0, L / 2 + X0  # the hull from -a to b along x
    third = 0.5 * RHO * CROSS_FLOW_CD * 2.0 * R * (a**4 + b**4) / 4.0  # ∫|x|³ dx
    assert terms["mQabsQ"] == pytest.approx(-third, rel=1e-5)
    assert terms["nRabsR"] == pytest.approx(-third, rel=1e-5)
    second = 0.5 * RHO * CROSS_FLOW_CD * 2.0 * R * (b**3 - a**3) / 3.0  # ∫x|x| dx
    assert terms["yRabsR"] == pytest.approx(-second, rel=1e-5)
    assert terms["zQabsQ"] == pytest.approx(second, rel=1e-5)
    friction = _friction(1.5, L, 2 * R)
    wetted = 2.0 * math.pi * R * L + 2.0 * math.pi * R * R
    assert terms["xUabsU"] == pytest.approx(-0.5 * RHO * friction * wetted, rel=1e-12)
    # the shear on the turning hull: ½ρ C_f (1+k) ∫ 2π R⁴ dx
    assert terms["kPabsP"] == pytest.approx(-0.5 * RHO * friction * 2 * math.pi * R**4 * L,
                                            rel=1e-12)


def test_capsule_sections_match_its_closed_form(tmp_path: Path) -> None:
    _, link = _link(tmp_path, sdf.collision(sdf.cylinder_geometry(0.1, 1.2, "capsule"),
                                            (0.1, 0.2, 0.0, 0.0, math.pi / 2, 0.0)))
    exact = primitive_profile(link.collisions[0])
    assert exact is not None
    sampled = sampled_profile(link.collisions, link.name)
    assert np.allclose(np.abs(sampled.axis_B), np.abs(exact.axis_B), atol=1e-9)
    assert np.allclose(sampled.p_BoHo_B, exact.p_BoHo_B, atol=1e-6)
    # sections of a 256-gon: areas 1e-4 below the circle's, radii 5e-5
    assert np.allclose(np.sort(sampled.radii), np.sort(exact.radii), atol=2e-3 * 0.1)
    assert sampled.wetted_area == pytest.approx(exact.wetted_area, rel=1e-3)


@pytest.fixture(scope="module")
def remus(tmp_path_factory: pytest.TempPathFactory) -> tuple[DampingEstimate, LinkRecord, float]:
    """REMUS 100's hull from Prestero's Myring profile, its strip estimate at his ρ, ν and
    1.5 m/s (``auto``), the link, and the hull's length."""
    folder = tmp_path_factory.mktemp("remus")
    length = myring_stl(folder / "remus.stl")
    _, link = _link(folder, sdf.mesh("remus.stl", name="hull"))
    return damping_estimate(link, "auto", density=RHO, viscosity=MU, speed=1.5), link, length


def test_remus_hull_against_prestero(
    remus: tuple[DampingEstimate, LinkRecord, float],
) -> None:
    estimate, link, length = remus
    assert estimate.method == "strip" and "slender round hull" in estimate.reason
    profile = hull_profile(link.collisions, link.name)
    assert profile.length == pytest.approx(length, rel=1e-6)  # float32 STL
    # Prestero's Table 2.2 hull figures: projected area 0.226 m², diameter 0.191 m
    assert float(np.sum(2 * profile.radii * profile.widths)) == pytest.approx(0.226, rel=5e-3)
    for name, published in PRESTERO.items():
        ours = estimate.terms[name]
        assert abs(ours / published - 1.0) <= STRIP_BAND, (name, ours, published)


def _quoted(value: float, digits: int) -> str:
    return f"{value:.{digits}g}".replace("-", "\u2212")


def test_docs_quote_the_remus_comparison(
    remus: tuple[DampingEstimate, LinkRecord, float],
) -> None:
    """docs/damping.md's REMUS table: every number gzinertia computes is this test's."""
    page = DOCS.read_text(encoding="utf-8")
    terms = remus[0].terms
    published = {**PRESTERO, "kPabsP": PRESTERO_TABLE["kPabsP"],
                 "yRabsR": PRESTERO_TABLE["yRabsR"]}
    for row, name in (("`xUabsU`", "xUabsU"), ("`yVabsV` = `zWabsW`", "yVabsV"),
                      ("`mQabsQ` = `nRabsR`", "mQabsQ"), ("`kPabsP`", "kPabsP"),
                      ("`mWabsW`", "mWabsW"), ("`nVabsV`", "nVabsV"), ("`yRabsR`", "yRabsR"),
                      ("`zQabsQ`", "zQabsQ")):
        line = next(x for x in page.splitlines() if x.startswith(f"| {row} ("))
        assert f"| {_quoted(terms[name], 4)} |" in line, (line, terms[name])
        if name in published:
            assert _quoted(terms[name] / published[name], 3) in line, line


def test_docs_worked_example_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = re.findall(r"^```python\n(.*?)^```", DOCS.read_text(encoding="utf-8"),
                        flags=re.S | re.M)
    assert blocks
    shutil.copytree(DOCS.parent.parent / "sdf_examples", tmp_path / "sdf_examples")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "docs_damping"}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"docs/damping.md block {number}", "exec"), namespace)
    out = capsys.readouterr().out
    page = " ".join(DOCS.read_text(encoding="utf-8").split())
    first, _, last = out.splitlines()
    assert f"prints `{first}`" in page and f"`{last}` for the fin" in page
    assert "'yVabsV': -422.813" in out


def test_written_terms_give_the_strip_wrench_in_gz_sim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hull tilted and off the origin: couplings in every row; gz-sim's force law on the
    terms the edit reports gives the strip wrench (1e-12), on the written ten digits 1e-9."""
    path, link = _link(tmp_path, sdf.cylinder(R, L, (0.2, -0.1, 0.05, 0.3, 1.2, 0.4)))
    status, _, err = run_cli(["hydro", str(path), "--link", "hull", "--method", "strip",
                              "--density", str(RHO), "--viscosity", str(MU), "--in-place"],
                             capsys)
    assert status == 0, err
    assert "strip theory on the cylinder" in err and "uncertainty +-30 %" in err
    written = read_sdf_file(path).link("auv::hull").hydrodynamics[0].terms
    estimate = strip_estimate(link.collisions, link.name, density=RHO, viscosity=MU)
    profile = hull_profile(link.collisions, link.name)
    wrench = strip_wrench(profile, RHO, _friction(1.5, L, 2 * R))
    for V in single_axis_motions():
        s = np.concatenate([V[3:], V[:3]])
        expected = wrench(s)
        F = np.concatenate([expected[3:], expected[:3]])
        scale = float(np.max(np.abs(F)))
        assert np.max(np.abs(plugin_F_BBo_B(dict(estimate.terms), V, np.zeros(3)) - F)) \
            <= 1e-12 * scale
        assert np.max(np.abs(plugin_F_BBo_B(written, V, np.zeros(3)) - F)) <= 1e-9 * scale


def _friction(speed: float, length: float, diameter: float) -> float:
    """``C_f·(1+k)``: the ITTC 1957 line at ``Re = U·l/ν`` times Hoerner's form factor of a
    body of revolution, written out here."""
    cf = 0.075 / (math.log10(speed * length / (MU / RHO)) - 2.0) ** 2
    d_l = diameter / length
    return cf * (1.0 + 1.5 * d_l**1.5 + 7.0 * d_l**3)


def test_audit_after_the_edit_adds_no_finding_and_check_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _cylinder_along_x(tmp_path)
    before = {(f.code, f.link) for f in run_audit([path]).findings}
    args = ["hydro", str(path), "--link", "*", "--method", "auto"]
    assert run_cli([*args, "--in-place"], capsys)[0] == 0
    text = path.read_text()
    assert "<!-- gzinertia hydro: damping by strip theory" in text
    after = {(f.code, f.link) for f in run_audit([path]).findings}
    assert after <= before, after - before
    assert run_cli([*args, "--check"], capsys)[0] == 0


def test_mujoco_settings_with_another_method_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _cylinder_along_x(tmp_path)
    status, out, err = run_cli(["hydro", str(path), "--link", "*", "--method", "strip",
                                "--fit", "volume", "--diff"], capsys)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--method strip takes none of MuJoCo's" in err and "--fit" in err


def test_a_disc_forced_through_strip_theory_is_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _link(tmp_path, sdf.cylinder(0.5, 0.05))
    status, _, err = run_cli(["hydro", str(path), "--link", "*", "--method", "strip",
                              "--diff"], capsys)
    assert status == 0, err
    assert "warning: auv::hull: strip: l/d 0.05 is below 3: not a slender hull" in err


def test_switching_methods_rewrites_the_provenance_comment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugin gzinertia wrote with MuJoCo's model, updated by strip theory and back: the
    comment above it always names what its terms are, and each update is idempotent."""
    path, _ = _cylinder_along_x(tmp_path)
    args = ["hydro", str(path), "--link", "*", "--in-place"]
    assert run_cli(args, capsys)[0] == 0
    mujoco = path.read_text()
    assert "MuJoCo's ellipsoid drag model" in mujoco
    assert run_cli([*args, "--method", "strip"], capsys)[0] == 0
    text = path.read_text()
    assert "damping by strip theory" in text and "MuJoCo" not in text
    assert text.count("<!-- gzinertia hydro") == 1
    (plugin,) = read_sdf_file(path).link("auv::hull").hydrodynamics
    assert plugin.terms["xU"] == 0.0  # MuJoCo's viscous term, not part of the estimate
    assert run_cli([*args[:-1], "--method", "strip", "--check"], capsys)[0] == 0
    assert run_cli(args, capsys)[0] == 0
    assert path.read_text().count("MuJoCo's ellipsoid drag model") == 1
    (plugin,) = read_sdf_file(path).link("auv::hull").hydrodynamics
    assert plugin.terms["mWabsW"] == 0.0  # strip theory's coupling, not MuJoCo's
    assert read_sdf_file(path).link("auv::hull").hydrodynamics[0].terms["xU"] < 0.0


def test_speed_without_strip_theory_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _cylinder_along_x(tmp_path)
    for method in ("mujoco", "morison"):
        status, _, err = run_cli(["hydro", str(path), "--link", "*", "--method", method,
                                  "--speed", "2", "--diff"], capsys)
        assert status == 2 and "--speed is strip theory's design speed" in err, err
    status, out, err = run_cli(["hydro", str(path), "--link", "*", "--method", "strip",
                                "--speed", "3", "--diff"], capsys)
    assert status == 0 and "at the design speed 3 m/s" in err and "<xUabsU>" in out, err
