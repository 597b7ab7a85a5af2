"""``gzinertia migrate --to uuv-simulator`` (issue 27): gz-sim's added mass and Hydrodynamics terms
back to UUV Simulator's block, with the exact inverse conventions of the forward direction.

Oracles: the plugin's force law re-implemented from its source (:mod:`classic_oracles`) on the
block written, against the original block (forward then reverse) and against gz-sim's
Hydrodynamics transcribed from its source (:func:`hydro_oracles.gz_hydrodynamics_wrench`) with
DART's added-mass wrench (:func:`test_migrate_math.dart_fluid_wrench`), on random states
(velocity, acceleration, orientation, current), to 1e-9; what the plugin cannot hold is said."""

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
from test_classic_uuv import CASES
from test_migrate_math import FLIP, dart_fluid_wrench

import gzinertia
from gzinertia.audit.runner import audit
from gzinertia.hydrodynamics_terms import linear_term, quadratic_term

SPHERE = "<sphere><radius>0.2</radius></sphere>"


def _block(path: Path) -> ET.Element:
    """The one UUV ``<link>`` block of the file."""
    [plugin] = [p for p in ET.parse(path).getroot().iter("plugin")
                if "underwater_object" in (p.get("filename") or "")]
    [link] = plugin.findall("link")
    return link


def _uuv_wrench(mats: dict[str, np.ndarray], p: np.ndarray, v: np.ndarray, w: np.ndarray,
                a_B: np.ndarray, R: np.ndarray, flow: np.ndarray) -> np.ndarray:
    """The plugin's wrench about the link origin (its force acts at the centre of mass ``p``)
    for the origin's acceleration ``a_B`` in link axes (the filter settled)."""
    f, t = oracle.uuv_tau(mats, v, w, FLIP * a_B, R, flow)
    return np.concatenate([f, t + np.cross(p, f)])


def _close(got: np.ndarray, want: np.ndarray) -> None:
    assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, float(np.max(np.abs(want))))


@pytest.mark.parametrize("case", sorted(CASES))
def test_forward_then_reverse_gives_back_the_original_blocks_wrench(
    case: str, tmp_path: Path
) -> None:
    """Every model type (fossen, sphere, cylinder, spheroid, box) migrated to gz-sim and back,
    centre of mass at the origin: the block written applies the original's wrench, forward-speed
    damping included (the ECA A9's, through gz-sim's signed <iJU> terms), less what the forward
    direction says it does not carry (the skew part of an asymmetric matrix, RexROV's)."""
    block, mass = CASES[case]
    path = tmp_path / "v.sdf"
    path.write_text(vehicles.uuv_model(block, mass, SPHERE))
    gzinertia.migrate(path).write()
    back = gzinertia.migrate(path, to="uuv-simulator")
    back.write()
    original = oracle.uuv_link_matrices(ET.fromstring(block), mass)
    original["Ma"] = 0.5 * (original["Ma"] + original["Ma"].T)  # said by the forward edit
    written = oracle.uuv_link_matrices(_block(path), mass)
    rng = np.random.default_rng(11)
    p = np.zeros(3)
    for _ in range(30):
        v, w, flow = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 0.5, 3)
        a_B, R = rng.normal(0, 2, 6), random_rotation(rng)
        _close(_uuv_wrench(written, p, v, w, a_B, R, flow),
               _uuv_wrench(original, p, v, w, a_B, R, flow))
    assert "gz-sim-hydrodynamics-system" not in path.read_text()
    assert "<fluid_added_mass>" not in path.read_text()


def _gz_model(tmp_path: Path, A: np.ndarray, terms: dict[str, float], com: np.ndarray) -> Path:
    """A one-link gz-sim model: ``<fluid_added_mass>`` ``A`` (about the origin) and a
    Hydrodynamics plugin with ``terms``, centre of mass at ``com``."""
    names = ("xx", "xy", "xz", "xp", "xq", "xr", "yy", "yz", "yp", "yq", "yr", "zz", "zp",
             "zq", "zr", "pp", "pq", "pr", "qq", "qr", "rr")
    upper = [float(A[i, j]) for i in range(6) for j in range(i, 6)]
    com = [float(c) for c in com]
    fam = "".join(f"<{n}>{v!r}</{n}>" for n, v in zip(names, upper, strict=True))
    plugin = "".join(f"<{n}>{v!r}</{n}>" for n, v in terms.items())
    path = tmp_path / "gz.sdf"
    path.write_text(
        f'<?xml version="1.0"?>\n<sdf version="1.11"><model name="m"><link name="hull">'
        f"<inertial><pose>{com[0]!r} {com[1]!r} {com[2]!r} 0 0 0</pose><mass>900</mass>"
        "<inertia><ixx>400</ixx><iyy>700</iyy><izz>700</izz><ixy>0</ixy><ixz>0</ixz>"
        f"<iyz>0</iyz></inertia><fluid_added_mass>{fam}</fluid_added_mass></inertial>"
        "<collision name='c'><geometry><box><size>2 1 1</size></box></geometry></collision>"
        '</link><plugin filename="gz-sim-hydrodynamics-system" '
        f'name="gz::sim::systems::Hydrodynamics"><link_name>hull</link_name>{plugin}</plugin>'
        "</model></sdf>\n")
    return path


def _random_gz(rng: np.random.Generator, com: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    """A positive definite ``A`` and terms the plugin can hold: any ``L``, and quadratic
    columns ``T·d_j·e_j`` (the plugin's diagonal applied at the centre of mass)."""
    B = rng.normal(0, 1, (6, 6))
    A = B @ B.T + 6 * np.eye(6)
    T = np.eye(6)
    T[3:, :3] = np.array([[0, -com[2], com[1]], [com[2], 0, -com[0]], [-com[1], com[0], 0]])
    Q = T @ np.diag(-rng.uniform(1, 50, 6))
    terms = {linear_term(i, j): float(rng.normal(0, 10)) for i in range(6) for j in range(6)}
    terms.update({quadratic_term(i, j): float(Q[i, j]) for i in range(6) for j in range(6)
                  if Q[i, j] != 0.0})
    return A, terms


@pytest.mark.parametrize("seed", range(4))
def test_reverse_applies_gz_sims_damping_off_centre_and_says_the_added_mass_gap(
    seed: int, tmp_path: Path
) -> None:
    """Off the centre of mass: the block's damping wrench equals gz-sim's Hydrodynamics to 1e-9
    (linear 36 values, quadratic at the centre of mass); the added-mass wrench differs from
    DART's ``-A·a`` by at most the reported gap, which is reached."""
    rng = np.random.default_rng(seed)
    com = rng.normal(0, 0.1, 3)
    A, terms = _random_gz(rng, com)
    path = _gz_model(tmp_path, A, terms, com)
    edit = gzinertia.migrate(path, to="uuv-simulator")
    edit.write()
    [said] = [w for w in edit.warnings if "differs from gz-sim's about the origin" in w]
    gap = float(said.split("by up to ")[1].split()[0])
    written = oracle.uuv_link_matrices(_block(path), 900.0)
    damping = dict(written, Ma=np.zeros((6, 6)))
    for _ in range(30):
        v, w, flow = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 0.5, 3)
        R = random_rotation(rng)
        f_W, t_W = gz_hydrodynamics_wrench(terms, R, R @ v, R @ w, flow)
        _close(_uuv_wrench(damping, com, v, w, np.zeros(6), R, flow),
               np.concatenate([R.T @ f_W, R.T @ t_W]))
    inertial = dict(written, DLin=np.zeros((6, 6)), DNonLin=np.zeros((6, 6)))
    worst = 0.0
    for a_B in [*np.eye(6), *rng.normal(0, 1, (200, 6))]:
        still = np.zeros(3)
        got = _uuv_wrench(inertial, com, still, still, a_B, np.eye(3), still)
        want = dart_fluid_wrench(A, np.zeros(6), a_B)
        worst = max(worst, float(np.linalg.norm(got - want) / np.linalg.norm(a_B)))
    assert worst <= gap * (1 + 1e-3) and worst >= 0.5 * gap > 0  # the gap said to 4 digits


def test_terms_the_plugin_has_no_cell_for_are_said_with_their_values(tmp_path: Path) -> None:
    """A quadratic cross term (``xVabsW``) and a quadratic column the centre-of-mass diagonal
    cannot make (``yUabsU`` with the centre of mass at the origin): said by name and value,
    not written; the rest is."""
    A = np.diag([10.0, 20, 30, 1, 2, 3])
    terms = {"xU": -5.0, "xUabsU": -7.0, "yUabsU": -3.0, "xVabsW": -2.5}
    path = _gz_model(tmp_path, A, terms, np.zeros(3))
    edit = gzinertia.migrate(path, to="uuv-simulator")
    [said] = [w for w in edit.warnings if "has no cell" in w]
    assert "xVabsW=-2.5" in said and "yUabsU=-3" in said and "xUabsU" not in said
    link = _block_of(edit.text)
    assert (link.findtext("hydrodynamic_model/quadratic_damping") or "").split()[0] == "-7"


def _block_of(text: str) -> ET.Element:
    root = ET.fromstring(text.encode())
    [link] = [lk for p in root.iter("plugin") for lk in p.findall("link")]
    return link


@pytest.mark.parametrize("suffix", [".sdf", ".urdf"])
def test_reverse_floats_the_collisions_and_adds_no_finding(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The LAUV migrated to gz-sim and back (SDF and URDF): the block floats the collisions'
    volume at their centroid (GZI503 and GZI504 stay silent), the audit adds no finding the
    edit does not say, ``--check`` after ``--in-place`` exits 0, and the plugin's buoyancy
    (its source's force law, fully submerged) equals what gz-sim's Buoyancy system gave:
    ``rho·g·V`` of the collisions."""
    path = tmp_path / f"v{suffix}"
    if suffix == ".sdf":
        path.write_text(vehicles.uuv_model(vehicles.LAUV_LINK, vehicles.LAUV_MASS,
                                           "<cylinder><radius>0.075</radius><length>1.08"
                                           "</length></cylinder>", (0.1, 1.7, 1.7)))
    else:
        from test_migrate_command import _urdf

        path = _urdf(tmp_path, vehicles.LAUV_LINK, vehicles.LAUV_MASS, (0.1, 1.7, 1.7),
                     "0 0 0")
    gzinertia.migrate(path).write()
    before = {(f.code, f.link) for f in audit([str(path)]).findings}
    status, _out, err = run_cli(["migrate", str(path), "--to", "uuv-simulator", "--in-place"],
                                capsys)
    assert status == 0, err
    after = {(f.code, f.link) for f in audit([str(path)]).findings}
    new = after - before
    assert all(f"the audit now reports {code} on it" in err for code, _link in new), err
    assert not {code for code, _ in after} & {"GZI503", "GZI504"}
    assert run_cli(["migrate", str(path), "--to", "uuv-simulator", "--check"], capsys)[0] == 0
    volume = np.pi * 0.075**2 * 1.08
    block = _block(path)
    height = 1.0  # fully submerged: the link's origin 10 m down
    got = oracle.uuv_buoyancy(block, -10.0, vehicles.LAUV_MASS, 9.81, 1028.0, height)
    assert abs(got - 1028.0 * 9.81 * volume) <= 1e-9 * got
