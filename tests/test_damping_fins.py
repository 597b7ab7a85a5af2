"""Fin lift and fin cross-flow drag (:mod:`gzinertia.physics.fin_lift`) beside strip theory: a
flat plate at a small angle against ``½ρ C_Lα S α U²``, the written ``<iJabsU>`` terms through
gz-sim's force law (a transcription of ``Hydrodynamics.cc``) on combined motions, a cylinder
with a fin against the closed forms, and REMUS 100 with Prestero's fins against his published
fin terms (the table in docs/damping.md is this test's)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import run as run_audit
from hydro_oracles import plugin_F_BBo_B
from remus_hull import myring_stl

import gzinertia
from gzinertia import catalogue
from gzinertia.errors import GzInertiaError
from gzinertia.physics.damping_estimate import damping_estimate
from gzinertia.physics.damping_record import DampingEstimate
from gzinertia.physics.damping_strip import CROSS_FLOW_CD, STRIP_BAND, strip_estimate
from gzinertia.physics.fin_lift import (
    Fin,
    fin_drag_wrench,
    fin_lift_terms,
    fin_lift_wrench,
    lift_slope,
)
from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_file

DOCS = Path(__file__).resolve().parent.parent / "docs" / "damping.md"
RHO, MU = 1030.0, 1.03e-3

#: REMUS 100's fins as a public MATLAB copy of Prestero's model gives them ("REMUS Hydrodynamic
#: Coefficients, Daniel Sgarioto, DTA, Nov 2006", found by content search, its repository not
#: identified; its fin terms are ½ρ c_Lα S_fin per fin pair, as modelled here): planform S_fin
#: (m²), lift slope c_Lα (1/rad), fin position x_fin (m, from the centre of buoyancy, nose
#: forward).
S_FIN, CL_ALPHA, X_FIN = 0.00665, 3.12, -0.6827
#: Prestero's fin control terms (ArizaWilmerUTAS/Path-Following REMUS.m, commit 7fc6641):
#: Y_uuδr (kg/(m·rad)) and M_uuδs (kg/rad), and the combined terms Y_ur, M_uq with the added
#: mass X_u̇, Z_q̇ they include (Prestero: Y_ur = X_u̇ + Y_urf, M_uq = -Z_q̇ + M_uqf).
Y_UUDR, M_UUDS = 9.64, -6.15
Y_UR, M_UQ, X_UDOT, Z_QDOT = 5.22, -2.0, -0.93, -1.93


def _prestero_fin_terms() -> dict[str, float]:
    """Prestero's fin lift terms, from his control terms: a fin at the flow's angle lifts as at
    the same deflection (``Y_uvf = -Y_uuδr``), at ``x_fin = -M_uuδs/Z_uuδs`` (aft: negative); Fossen-negative,
    FRD axes, about the centre of buoyancy (these products are the same in gz-sim's FLU axes:
    each flips sign twice)."""
    k, x_fin = Y_UUDR, M_UUDS / Y_UUDR
    return {"yVabsU": -k, "zWabsU": -k, "nVabsU": -k * x_fin, "mWabsU": k * x_fin,
            "yRabsU": -k * x_fin, "zQabsU": k * x_fin, "nRabsU": -k * x_fin**2,
            "mQabsU": -k * x_fin**2}


def test_prestero_fin_terms_agree_with_his_combined_terms() -> None:
    """The published data hang together: the fin terms above plus the added-mass parts give
    the copy's combined ``Y_ur`` and ``M_uq`` (to its three digits)."""
    fin = _prestero_fin_terms()
    assert X_UDOT + fin["yRabsU"] == pytest.approx(Y_UR, abs=0.01)
    assert -Z_QDOT + fin["mQabsU"] == pytest.approx(M_UQ, abs=0.01)


def _plate(area: float = 0.02, aspect: float = 2.0) -> Fin:
    return Fin(np.zeros(3), np.array([0.0, 0.0, 1.0]), area, lift_slope(aspect), name="plate")


def test_flat_plate_lift_at_a_small_angle_is_the_closed_form() -> None:
    plate = _plate()
    wrench = fin_lift_wrench([plate], np.array([1.0, 0.0, 0.0]), RHO)
    for speed, alpha in ((1.5, 1e-4), (-2.0, -3e-4)):
        s = np.array([speed * math.cos(alpha), 0.0, abs(speed) * math.sin(alpha), 0, 0, 0])
        lift = 0.5 * RHO * plate.lift_slope * plate.area * alpha * speed**2
        assert wrench(s)[2] == pytest.approx(-lift, rel=1e-7)  # opposes the normal velocity
        assert np.allclose(wrench(s)[[0, 1, 3, 4, 5]], 0.0, atol=1e-15)


def test_lift_slope_limits() -> None:
    """Whicker-Fehlner: a high aspect ratio tends to 1.8π (0.9 of thin-airfoil theory's 2π); a
    low one to slender-wing theory's πA/2 within 6 %."""
    assert lift_slope(1e5) == pytest.approx(1.8 * math.pi, rel=1e-4)
    assert lift_slope(1e-3) == pytest.approx(math.pi * 1e-3 / 2, rel=0.06)
    assert lift_slope(1.0) < lift_slope(2.0) < lift_slope(6.0)


def _fins() -> list[Fin]:
    """A cruciform tail off the origin: four fins of different sizes, planes through x."""
    return [
        Fin(np.array([-0.8, 0.0, 0.12]), np.array([0.0, 1.0, 0.0]), 0.01, 2.5, name="top"),
        Fin(np.array([-0.8, 0.0, -0.12]), np.array([0.0, 1.0, 0.0]), 0.012, 2.4, name="bottom"),
        Fin(np.array([-0.75, 0.1, 0.0]), np.array([0.0, 0.0, 1.0]), 0.009, 2.6, name="port"),
        Fin(np.array([-0.75, -0.1, 0.0]), np.array([0.0, 0.0, 1.0]), 0.009, 2.6, name="stbd"),
    ]


def test_lift_terms_give_the_lift_in_gz_sim_on_combined_motions() -> None:
    """gz-sim's force law on the ``<iJabsU>`` terms equals the fins' lift for any motion with
    an axial speed (1e-12)."""
    fins = _fins()
    terms = fin_lift_terms(fins, 0, RHO)
    assert set(terms) >= {"yVabsU", "zWabsU", "nVabsU", "mWabsU", "yRabsU", "zQabsU",
                          "kPabsU", "nRabsU", "mQabsU"}
    wrench = fin_lift_wrench(fins, np.array([1.0, 0.0, 0.0]), RHO)
    for s in np.random.default_rng(7).normal(size=(20, 6)):
        expected = wrench(s)
        V = np.concatenate([s[3:], s[:3]])  # angular-first for the oracle
        F = plugin_F_BBo_B(terms, V, np.zeros(3))
        got = np.concatenate([F[3:], F[:3]])
        assert np.max(np.abs(got - expected)) <= 1e-12 * np.max(np.abs(expected))


def _link(tmp_path: Path, *parts: str) -> LinkRecord:
    path = sdf.write(tmp_path, sdf.model(sdf.link("hull", sdf.inertial(5.0, np.diag([0.05, 1.0, 1.0])),
                                                  *parts), name="auv"))
    return read_sdf_file(path).link("auv::hull")


def test_cylinder_with_a_fin_matches_the_closed_forms(tmp_path: Path) -> None:
    r, length = 0.1, 2.0
    link = _link(tmp_path, sdf.cylinder(r, length, (0.0, 0.0, 0.0, 0.0, math.pi / 2, 0.0)))
    fin = Fin(np.array([-0.9, 0.0, 0.15]), np.array([0.0, 1.0, 0.0]), 0.01, 2.5, name="rudder")
    bare = strip_estimate(link.collisions, "hull", density=RHO, viscosity=MU).terms
    finned = strip_estimate(link.collisions, "hull", density=RHO, viscosity=MU, fins=[fin])
    k_drag = 0.5 * RHO * fin.cross_flow_cd * fin.area
    assert bare["yVabsV"] == pytest.approx(-0.5 * RHO * CROSS_FLOW_CD * 2 * r * length)
    assert finned.terms["yVabsV"] == pytest.approx(bare["yVabsV"] - k_drag, rel=1e-12)
    assert finned.terms["nRabsR"] == pytest.approx(bare["nRabsR"] - k_drag * 0.9**3, rel=1e-5)
    k_lift = 0.5 * RHO * fin.lift_slope * fin.area
    assert finned.terms["yVabsU"] == pytest.approx(-k_lift, rel=1e-12)
    assert finned.terms["nVabsU"] == pytest.approx(-k_lift * -0.9, rel=1e-12)
    assert finned.terms["kPabsU"] == pytest.approx(-k_lift * 0.15**2, rel=1e-12)
    assert finned.terms["xUabsU"] == bare["xUabsU"]
    assert "fins rudder: lift and cross-flow drag" in finned.title
    assert any("fins as described" in a for a in finned.assumptions)
    assert not any("fins as described" in a for a in
                   strip_estimate(link.collisions, "hull", density=RHO, viscosity=MU).assumptions)


def test_fins_on_a_hull_along_no_link_axis_keep_their_drag_and_say_the_lift_is_left_out(
    tmp_path: Path,
) -> None:
    link = _link(tmp_path, sdf.cylinder(0.1, 2.0, (0.0, 0.0, 0.0, 0.3, 1.2, 0.0)))
    fin = Fin(np.array([0.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]), 0.01, 2.5)
    estimate = strip_estimate(link.collisions, "hull", density=RHO, viscosity=MU, fins=[fin])
    assert not any("abs" in name and name[1] != name[-1] for name in estimate.terms)
    assert any("fins' lift" in line and "left out" in line for line in estimate.outside)


def test_fins_with_another_method_are_refused(tmp_path: Path) -> None:
    link = _link(tmp_path, sdf.box((1.0, 1.0, 1.0)))
    with pytest.raises(GzInertiaError, match="fins are described for strip theory"):
        damping_estimate(link, "auto", density=RHO, fins=[_plate()])


def _remus_fins() -> list[Fin]:
    """Prestero's two fin pairs, each one lifting surface of planform S_fin through the hull
    at x_fin: the rudders lift along y, the stern planes along z."""
    at = np.array([X_FIN, 0.0, 0.0])
    return [Fin(at, np.array([0.0, 1.0, 0.0]), S_FIN, CL_ALPHA, name="rudders"),
            Fin(at, np.array([0.0, 0.0, 1.0]), S_FIN, CL_ALPHA, name="stern planes")]


#: Prestero (2001) Table 4.2 as catalogue entry ``remus100_scrimmage`` carries it
#: (tests/test_damping_strip.py).
PRESTERO_PITCH = {name: catalogue.entry("remus100_scrimmage").published.terms[name]
                  for name in ("mQabsQ", "mWabsW")}


@pytest.fixture(scope="module")
def remus(tmp_path_factory: pytest.TempPathFactory) -> tuple[DampingEstimate, DampingEstimate]:
    """REMUS 100's hull (Prestero's Myring profile) without and with his fins."""
    folder = tmp_path_factory.mktemp("remus_fins")
    myring_stl(folder / "remus.stl")
    link = _link(folder, sdf.mesh("remus.stl", name="hull"))
    bare = damping_estimate(link, "strip", density=RHO, viscosity=MU, speed=1.5)
    finned = damping_estimate(link, "strip", density=RHO, viscosity=MU, speed=1.5,
                              fins=_remus_fins())
    return bare, finned


def test_remus_fin_terms_against_prestero(remus: tuple[DampingEstimate, DampingEstimate]) -> None:
    _, finned = remus
    for name, published in _prestero_fin_terms().items():
        assert abs(finned.terms[name] / published - 1.0) <= STRIP_BAND, (name, finned.terms[name])


def test_remus_fins_bring_pitch_damping_closer(
    remus: tuple[DampingEstimate, DampingEstimate],
) -> None:
    bare, finned = remus
    published = PRESTERO_PITCH["mQabsQ"]
    assert abs(finned.terms["mQabsQ"] / published - 1) < abs(bare.terms["mQabsQ"] / published - 1)
    assert abs(finned.terms["mQabsQ"] / published - 1) <= STRIP_BAND
    # the fins' drag aft adds to the hull's nose-down M_w|w|: still opposite to the copy's sign
    assert finned.terms["mWabsW"] < bare.terms["mWabsW"] < 0.0 < PRESTERO_PITCH["mWabsW"]
    assert finned.terms["mWabsW"] == pytest.approx(
        bare.terms["mWabsW"] + X_FIN * 0.5 * RHO * 0.56 * S_FIN, rel=1e-9)


def _quoted(value: float, digits: int) -> str:
    return f"{value:.{digits}g}".replace("-", "\u2212")


def remus_fin_rows(remus: tuple[DampingEstimate, DampingEstimate]) -> list[tuple[str, ...]]:
    """The docs table's rows: term, gzinertia, Prestero, ratio."""
    bare, finned = remus
    rows = [(f"`{name}`", _quoted(finned.terms[name], 4), _quoted(published, 3),
             _quoted(finned.terms[name] / published, 3))
            for name, published in _prestero_fin_terms().items()]
    for name, published in PRESTERO_PITCH.items():
        rows.append((f"`{name}` with fins (hull {_quoted(bare.terms[name], 4)})",
                     _quoted(finned.terms[name], 4), _quoted(published, 3),
                     _quoted(finned.terms[name] / published, 3)))
    return rows


def test_docs_quote_the_remus_fin_comparison(
    remus: tuple[DampingEstimate, DampingEstimate],
) -> None:
    page = DOCS.read_text(encoding="utf-8")
    for row in remus_fin_rows(remus):
        assert "| " + " | ".join(row) + " |" in page, row


def test_fin_drag_reverses_with_the_motion() -> None:
    drag = fin_drag_wrench(_fins(), RHO)
    for s in np.random.default_rng(2).normal(size=(5, 6)):
        assert np.allclose(drag(-s), -drag(s), rtol=0, atol=1e-14)


def test_written_fin_terms_audit_clean_and_give_the_estimate_in_gz_sim(tmp_path: Path) -> None:
    """The estimate with fins written with the public edit (``set_plugin_terms``): the audit
    adds no finding, and gz-sim's force law on the ``<iJabsU>`` terms read back from the file
    gives the fins' lift on combined motions, to the ten digits written."""
    r, length = 0.1, 2.0
    path = sdf.write(tmp_path, sdf.model(sdf.link(
        "hull", sdf.inertial(5.0, np.diag([0.05, 1.0, 1.0])),
        sdf.cylinder(r, length, (0.0, 0.0, 0.0, 0.0, math.pi / 2, 0.0))), name="auv"))
    link = read_sdf_file(path).link("auv::hull")
    fins = _fins()
    estimate = strip_estimate(link.collisions, "hull", density=RHO, viscosity=MU, fins=fins)
    before = {(f.code, f.link) for f in run_audit([path]).findings}
    edit = gzinertia.edit(path).set_plugin_terms("auv::hull", estimate.terms,
                                                 water_density=RHO)
    edit.write()
    after = {(f.code, f.link) for f in run_audit([path]).findings}
    assert after <= before, after - before
    written = read_sdf_file(path).link("auv::hull").hydrodynamics[0].terms
    assert {k for k, v in written.items() if v} == set(estimate.terms)
    lift = fin_lift_wrench(fins, np.array([1.0, 0.0, 0.0]), RHO)
    for s in np.random.default_rng(5).normal(size=(10, 6)):
        expected = lift(s)
        V = np.concatenate([s[3:], s[:3]])
        got = plugin_F_BBo_B(written, V, np.zeros(3))
        got_lift = got - plugin_F_BBo_B({k: v for k, v in written.items() if k[-1] != "U"
                                         or k[1] == "U"}, V, np.zeros(3))
        assert np.allclose(np.concatenate([got_lift[3:], got_lift[:3]]), expected,
                           rtol=1e-8, atol=1e-9 * np.max(np.abs(expected)))


@pytest.mark.parametrize(("field", "value", "words"), [
    ("normal_B", np.array([0.0, 2.0, 0.0]), "normal_B must be a unit vector"),
    ("p_BoFp_B", np.array([np.nan, 0.0, 0.0]), "p_BoFp_B must be 3 finite numbers"),
    ("area", -0.1, "area must be finite and not negative"),
    ("lift_slope", math.inf, "lift_slope must be finite and not negative"),
])
def test_a_fin_described_wrongly_is_refused_naming_it(field: str, value: object,
                                                      words: str) -> None:
    given = {"p_BoFp_B": np.zeros(3), "normal_B": np.array([0.0, 1.0, 0.0]), "area": 0.01,
             "lift_slope": 2.5, field: value}
    with pytest.raises(ValueError, match=f"fin 'rudder': {words}"):
        Fin(name="rudder", **given)  # type: ignore[arg-type]
