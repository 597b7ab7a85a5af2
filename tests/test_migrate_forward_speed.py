"""UUV Simulator's forward-speed damping (``<linear_damping_forward_speed>``) migrated exactly.

The plugin's law (``HydrodynamicModel.cc``, re-implemented in :mod:`classic_oracles`) makes
the damping ``-(D_lin + u·D_fs + diag(D_quad)·|ν|)·ν`` at the centre of mass, ``u`` the signed
surge speed; gz-sim's Hydrodynamics (:func:`hydro_oracles.gz_hydrodynamics_wrench`, from
``Hydrodynamics.cc``) reads the signed terms ``<iJU>`` as ``u·s_j`` since gazebosim/gz-sim#1784.
So the migrated file applies the plugin's damping exactly, astern too (where, as in the plugin,
it pushes the link along its motion): checked here on the file ``migrate`` wrote, read back, on
random states with a current, both signs of ``u``, SDFormat and URDF.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import classic_oracles as oracle
import classic_vehicles as vehicles
import numpy as np
import pytest
from conftest import run_cli
from hydro_oracles import gz_hydrodynamics_wrench
from sdfgen import random_rotation
from test_migrate_command import _urdf, _vehicle

import gzinertia

FLIP = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])


def _source_damping(block: str, mass: float, p_BoBcm_B: np.ndarray, v: np.ndarray,
                    w: np.ndarray, R: np.ndarray, flow: np.ndarray) -> np.ndarray:
    """The plugin's damping wrench alone (its added mass set to zero, so no acceleration or
    Coriolis share), at the centre of mass as it applies it, moved to the link origin."""
    mats = oracle.uuv_link_matrices(ET.fromstring(block), mass)
    mats["Ma"] = np.zeros((6, 6))
    f, t = oracle.uuv_tau(mats, v, w, np.zeros(6), R, flow)
    return np.concatenate([f, t + np.cross(p_BoBcm_B, f)])


def _written_damping(path: Path, v: np.ndarray, w: np.ndarray, R: np.ndarray,
                     flow: np.ndarray) -> np.ndarray:
    """gz-sim's Hydrodynamics wrench of the damping terms the migrated file holds, read back
    by gzinertia's reader (link axes, about the link origin)."""
    (link,) = gzinertia.read(path).links
    (plugin,) = link.hydrodynamics
    terms = {n: v for n, v in plugin.written_terms.items() if "Dot" not in n}
    f_W, t_W = gz_hydrodynamics_wrench(terms, R, R @ v, R @ w, flow)
    return np.concatenate([R.T @ f_W, R.T @ t_W])


def _check_exact(path: Path, p_BoBcm_B: np.ndarray) -> int:
    rng = np.random.default_rng(1784)
    astern = 0
    for _ in range(40):
        v, w, flow = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 0.5, 3)
        R = random_rotation(rng)
        want = _source_damping(vehicles.ECA_A9_LINK, vehicles.ECA_A9_MASS, p_BoBcm_B, v, w, R, flow)
        got = _written_damping(path, v, w, R, flow)
        assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, float(np.max(np.abs(want))))
        astern += (v - R.T @ flow)[0] < 0.0
    return astern


def test_eca_a9_sdf_forward_speed_damping_is_exact_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _vehicle(tmp_path, "eca_a9")
    status, _out, err = run_cli(["migrate", str(path), "--in-place"], capsys)
    assert status == 0, err
    assert "is written as the signed terms" in err and "push it along its motion" in err
    assert _check_exact(path, np.zeros(3)) > 5  # states backing through the water included
    (link,) = gzinertia.read(path).links
    written = [n for n in link.hydrodynamics[0].written_terms if "Dot" not in n]
    assert f"{len(written)} Hydrodynamics terms" in err  # the summary counts what is written
    status, _out, err = run_cli(["migrate", str(path), "--check"], capsys)
    assert status == 0, err  # read back as migrated: up to date


def test_eca_a9_urdf_forward_speed_damping_is_exact_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _urdf(tmp_path, vehicles.ECA_A9_LINK, vehicles.ECA_A9_MASS, vehicles.ECA_A9_INERTIA, "0 0 0")
    status, _out, err = run_cli(["migrate", str(path), "--in-place"], capsys)
    assert status == 0, err
    assert _check_exact(path, np.zeros(3)) > 5
    status, _out, err = run_cli(["migrate", str(path), "--check"], capsys)
    assert status == 0, err


def test_the_migrated_signed_terms_are_not_taken_for_the_old_vocabulary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ECA A9's forward-speed terms include ``<xUU>`` (surge), one of the six names that meant
    ``|u|·u`` before gazebosim/gz-sim#1784, and no ``<iJabsK>``; its other ``<iJU>`` terms
    (``<yVU>``, ``<yRU>``...) exist only in the new vocabulary, so GZI603 does not take the
    plugin for an old one: the audit after the migration adds no finding of it."""
    path = _vehicle(tmp_path, "eca_a9")
    assert run_cli(["migrate", str(path), "--in-place"], capsys)[0] == 0
    (link,) = gzinertia.read(path).links
    signed = link.hydrodynamics[0].signed_quadratic
    assert signed["xUU"] != 0.0 and any(n not in ("xUU", "yVV", "zWW", "kPP", "mQQ", "nRR")
                                        for n in signed)
    assert not [f for f in gzinertia.audit_paths(path) if f.code == "GZI603"]


@pytest.mark.parametrize(("terms", "flagged"), [
    ({"xUU": -8.0}, True),  # the old vocabulary alone: GZI603
    ({"xUU": -8.0, "yRU": 150.0}, False),  # a term only the new vocabulary has
    ({"xUU": -8.0, "yRU": 0.0}, True),  # a zero term says nothing
])
def test_gzi603_reads_a_signed_term_of_the_new_vocabulary_as_the_new_names(
    tmp_path: Path, terms: dict[str, float], flagged: bool
) -> None:
    written = "".join(f"<{n}>{v}</{n}>" for n, v in terms.items())
    path = tmp_path / "auv.sdf"
    path.write_text(
        '<sdf version="1.11"><model name="auv"><link name="hull"><inertial><mass>10</mass>'
        "<inertia><ixx>0.1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>"
        '<plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">'
        f"<link_name>hull</link_name><disable_added_mass>true</disable_added_mass>{written}"
        "</plugin></model></sdf>")
    codes = {f.code for f in gzinertia.audit_paths(path)}
    assert ("GZI603" in codes) is flagged
