"""The signs of the heave-pitch coupling terms (issue 29: REMUS 100's ``M_w|w|`` comes out with
the opposite sign of the published +3.18 kg), from first principles.

A strip at ``r = (x, 0, 0)`` moves with ``v + ω × r``: its heave velocity is ``w − x·q`` (in
FRD and in gz-sim's FLU alike: ``(0, q, 0) × (x, 0, 0) = (0, 0, −q·x)``), and its force ``F`` makes
the moment ``(r × F)_y = −x·F_z`` about the origin. Integrated directly here (400 strips, no
gzinertia code), that gives gzinertia's strip terms for a cylinder lying aft of the link origin,
and the geometry says which way it must pitch: moving up (FLU ``w > 0``), the drag pushes the
aft body down, the nose up, a negative moment about FLU's ``+y``: ``mWabsW < 0``.

Fossen's MSS ``crossFlowDrag.m`` (``cybergalactic/MSS``, ``LIBRARY/modeling/crossFlowDrag.m``:
``U_v = |w + xL·q|·(w + xL·q)``, ``Mh = Mh − ½ρ T C_d xL U_v dx``) uses ``w + x·q`` and
``M = +x·Z``: its diagonal terms are the same, its heave-pitch couplings the opposite sign. The
REMUS copies' +3.18 has that sign; docs/damping.md says so.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf

from gzinertia.physics.damping_strip import CROSS_FLOW_CD, strip_estimate
from gzinertia.physics.fin_lift import Fin
from gzinertia.sdf import read_sdf_file

RHO, MU = 1030.0, 1.03e-3
R, L, X0 = 0.1, 2.0, -0.4  # the cylinder's centre 0.4 m aft of the link origin
STRIPS = (np.arange(400) + 0.5) / 400 * L - L / 2 + X0
DX = L / 400
K = 0.5 * RHO * CROSS_FLOW_CD * 2 * R  # per metre of hull


def _heave_pitch(w: float, q: float, fossen_mss: bool = False) -> tuple[float, float]:
    """``(Z, M)`` of the strips' cross-flow drag for heave ``w`` and pitch rate ``q``: by
    ``v + ω × r`` and ``r × F`` (default), or as MSS's ``crossFlowDrag.m`` writes it."""
    local = w + STRIPS * q if fossen_mss else w - STRIPS * q
    F_z = -K * np.abs(local) * local * DX
    return float(F_z.sum()), float((STRIPS * F_z).sum() if fossen_mss else (-STRIPS * F_z).sum())


@pytest.fixture(scope="module")
def terms(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    folder = tmp_path_factory.mktemp("signs")
    path = sdf.write(folder, sdf.model(sdf.link(
        "hull", sdf.inertial(5.0, np.diag([0.05, 1.0, 1.0])),
        sdf.cylinder(R, L, (X0, 0.0, 0.0, 0.0, math.pi / 2, 0.0))), name="auv"))
    link = read_sdf_file(path).link("auv::hull")
    return strip_estimate(link.collisions, link.name, density=RHO, viscosity=MU).terms


def test_the_couplings_are_r_cross_f_of_the_strips(terms: dict[str, float]) -> None:
    Z_w, M_w = _heave_pitch(1.0, 0.0)
    Z_q, M_q = _heave_pitch(0.0, 1.0)
    assert terms["zWabsW"] == pytest.approx(Z_w, rel=1e-9)
    assert terms["mWabsW"] == pytest.approx(M_w, rel=1e-9)
    assert terms["zQabsQ"] == pytest.approx(Z_q, rel=1e-5)
    assert terms["mQabsQ"] == pytest.approx(M_q, rel=1e-5)


def test_moving_up_the_aft_body_pitches_the_nose_up(terms: dict[str, float]) -> None:
    """Most of the hull aft of the origin: heave up, drag down on the aft body, nose up
    (negative about FLU's +y)."""
    assert X0 < 0 and terms["mWabsW"] < 0


def test_fossen_mss_keeps_the_diagonal_and_reverses_the_couplings() -> None:
    for w, q in ((1.0, 0.0), (0.0, 1.0)):
        Z, M = _heave_pitch(w, q)
        Z_mss, M_mss = _heave_pitch(w, q, fossen_mss=True)
        if q == 0.0:
            assert Z_mss == pytest.approx(Z) and M_mss == pytest.approx(-M)
        else:
            assert Z_mss == pytest.approx(-Z) and M_mss == pytest.approx(M)


def test_a_fin_behind_the_origin_pitches_as_the_geometry_says(tmp_path: Path) -> None:
    """A stern plane (normal along z) 1 m aft: moving up, its drag pushes the tail down (nose
    up, ``mWabsW`` more negative by ``½ρ C_df S·x``), and its lift at forward speed does the same
    (``mWabsU < 0``: the plane's angle of attack in an upward motion pushes it down)."""
    path = sdf.write(tmp_path, sdf.model(sdf.link(
        "hull", sdf.inertial(5.0, np.diag([0.05, 1.0, 1.0])),
        sdf.cylinder(R, L, (0.0, 0.0, 0.0, 0.0, math.pi / 2, 0.0))), name="auv"))
    link = read_sdf_file(path).link("auv::hull")
    plane = Fin(np.array([-1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0]), 0.02, 3.0, name="plane")
    bare = strip_estimate(link.collisions, link.name, density=RHO, viscosity=MU).terms
    finned = strip_estimate(link.collisions, link.name, density=RHO, viscosity=MU,
                            fins=[plane]).terms
    assert finned["mWabsW"] - bare.get("mWabsW", 0.0) == pytest.approx(
        0.5 * RHO * plane.cross_flow_cd * plane.area * -1.0, rel=1e-9)
    assert finned["mWabsW"] < bare.get("mWabsW", 0.0) and finned["mWabsU"] < 0
