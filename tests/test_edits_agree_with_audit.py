"""Each way an edit used to contradict the audit, one test each (the invariant over every file
and command is tests/test_edit_invariant.py): a plugin's added mass counted twice (GZI205),
fluid ellipsoids made to overlap (GZI210), a written singular matrix called indefinite (GZI202),
verdicts changed by an exact conversion (GZI204), re-runs refused (``--check`` after
``--in-place``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, random_rotation, run_cli
from sdf_builders import box, hydro_plugin, inertial, joint, link, model, sphere

from gzinertia.audit.runner import audit
from gzinertia.edit.links import fluid_added_mass_lines
from gzinertia.sdf import read_sdf_bytes, read_sdf_file
from gzinertia.spatial.added_mass import PSD_RTOL, AddedMass

#: The hull's Hydrodynamics plugin: Fossen's added-mass derivatives and a drag term.
PLUGIN = hydro_plugin("hull", {"xDotU": -5, "yDotV": -20, "zDotW": -30, "kDotP": -0.5,
                               "mDotQ": -1, "nDotR": -1, "xUabsU": -30})


def rov(*plugins: str) -> str:
    """A 40 kg hull and a thruster hinged to it about x, and ``plugins``."""
    hull = link("hull", inertial(40.0, np.diag([1.2, 2.2, 2.4]), posed=False),
                box((0.9, 0.5, 0.4), pose=None))
    thruster = link("thruster", inertial(0.5, 0.001 * np.eye(3), posed=False),
                    sphere(0.05, pose=None), pose=(0.2, 0.1, 0, 0, 0, 0))
    hinge = joint("j", "hull", "thruster", type="revolute", axis=(1, 0, 0))
    return model(hull, thruster, hinge, *plugins, version="1.10", name="rov")


def _codes(path: Path) -> set[tuple[str, str | None]]:
    return {(f.code, f.link) for f in audit([str(path)]).findings}


# --- GZI205: never a silent double count ---------------------------------------------------


def test_addmass_leaves_a_link_whose_plugin_applies_added_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rov.sdf"
    path.write_text(rov(PLUGIN))
    before = _codes(path)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert status == 0, err
    assert "skipped rov::hull: its Hydrodynamics plugin" in err
    assert "convert" in err and "--replace-plugin-added-mass" in err
    assert read_sdf_file(path).link("rov::hull").inertial.A_BBo_B is None
    assert not _codes(path) - before
    # Naming the link makes the refusal an error (exit 2, one line, nothing written).
    text = path.read_bytes()
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "hull",
                              "--in-place"], capsys)
    assert status == 2 and err.count("\n") == 1 and path.read_bytes() == text


def test_addmass_can_replace_the_plugins_added_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rov.sdf"
    path.write_text(rov(PLUGIN))
    args = ["addmass", str(path), "--ellipsoid", "--link", "hull", "--replace-plugin-added-mass"]
    status, _, err = run_cli([*args, "--in-place"], capsys)
    assert status == 0 and "turned off the added mass of its Hydrodynamics plugin" in err, err
    hull = read_sdf_file(path).link("rov::hull")
    assert hull.inertial.A_BBo_B is not None and hull.hydrodynamics[0].disable_added_mass
    assert hull.hydrodynamics[0].terms["xDotU"] == -5  # kept, switched off
    assert not {c for c, _ in _codes(path)} & {"GZI205"}
    assert run_cli([*args, "--check"], capsys)[0] == 0


# --- GZI210: addmass does not create the overlap its audit reports -------------------------


def test_addmass_skips_a_link_inside_the_hulls_fluid_ellipsoid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rov.sdf"
    path.write_text(rov())
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert status == 0, err
    doc = read_sdf_file(path)
    assert doc.link("rov::hull").inertial.A_BBo_B is not None  # the larger ellipsoid first
    assert doc.link("rov::thruster").inertial.A_BBo_B is None
    assert "rov::thruster: its fluid ellipsoid overlaps that of rov::hull" in err
    assert "GZI210" not in {c for c, _ in _codes(path)}
    assert run_cli(["addmass", str(path), "--ellipsoid", "--check"], capsys)[0] == 0
    # Asked for, it is written, with a warning; and the audit then agrees that they overlap.
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--allow-overlap",
                              "--in-place"], capsys)
    assert status == 0 and "warning: rov::thruster" in err and "counts twice" in err
    assert ("GZI210", "rov::hull") in _codes(path)


# --- GZI202: the writer and the rule share one meaning of "positive semi-definite" ---------


def _write_and_read(A: np.ndarray) -> np.ndarray:
    lines = fluid_added_mass_lines(AddedMass(A, ordering="linear-first"), "gzinertia test", "  ")
    body = "\n".join(lines)
    text = model(link("l", inertial(1.0, np.eye(3), extra=body)))
    read = read_sdf_bytes(text.encode(), "m.sdf").link("m::l").inertial.A_BBo_B
    assert read is not None
    return read.linear_first()


def test_singular_matrices_read_back_positive_semidefinite(rng: np.random.Generator) -> None:
    """Rank-deficient PSD matrices (a sphere has no rotational added mass; a thin disk almost
    none along its plane) over 12 orders of magnitude: rounded to the written digits, they
    stay positive semi-definite as the rule judges it, and so GZI202 stays silent on what
    `addmass` writes. The allowance is not a blanket: a real negative eigenvalue is caught."""
    worst = 0.0
    for _ in range(400):
        rank = int(rng.integers(1, 6))
        B = rng.normal(size=(6, rank)) * 10.0 ** rng.uniform(-3, 3, size=rank)
        Q = np.zeros((6, 6))
        Q[:3, :3] = random_rotation(rng)
        Q[3:, 3:] = random_rotation(rng)
        # Bodies from 1 mm to 10 km: the rotational block scales with the length squared.
        ell = 10.0 ** rng.uniform(-3, 4)
        S = np.diag([1.0, 1.0, 1.0, ell, ell, ell]) * 10.0 ** rng.uniform(-6, 6)
        A = S @ Q @ B @ B.T @ Q.T @ S
        read = AddedMass(_write_and_read(A), ordering="linear-first")
        N = read.unit_balanced()
        worst = min(worst, float(np.linalg.eigvalsh(N)[0]) / float(np.max(np.abs(N))))
        assert read.is_positive_semidefinite()
    assert worst < 0.0  # rounding does produce negative eigenvalues (the case at hand)...
    assert -worst <= PSD_RTOL / 2  # ...within rounding's bound, half the allowance
    indefinite = np.diag([1.0, 1.0, 1.0, 1.0, 1.0, -10 * PSD_RTOL])
    assert not AddedMass(_write_and_read(indefinite), ordering="linear-first").is_positive_semidefinite()
    # The verdict does not depend on the unit of length (metres or millimetres).
    mm = np.diag([1.0, 1.0, 1.0, 1e3, 1e3, 1e3])
    for k in (0.5, 2.0, 20.0):
        edge = np.diag([1.0, 2.0, 3.0, 0.1, 0.2, -k * PSD_RTOL * 0.2])
        verdict = AddedMass(edge, ordering="linear-first").is_positive_semidefinite()
        assert verdict == AddedMass(mm @ edge @ mm, ordering="linear-first").is_positive_semidefinite() == (k <= 1.0)


# --- convert keeps the audit's verdicts -----------------------------------------------------

FLUID_VERDICTS = ("GZI201", "GZI202", "GZI203", "GZI204")


def _dot_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return [p for p in sorted(CORPUS.rglob("*.sdf")) if b"DotU>" in p.read_bytes()]


@pytest.mark.parametrize("src", _dot_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_convert_hydro_to_sdf_keeps_the_verdicts(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The conversion keeps the dynamics exactly, so GZI202–GZI204 say the same before and after
    (neither removed nor added), and GZI201 does not appear (the file is declared 1.10); `--check`
    right after `--in-place` passes."""
    path = Path(shutil.copy(src, tmp_path / src.name))

    def verdicts() -> set[tuple[str, str | None]]:
        return {(c, lk) for c, lk in _codes(path) if c in FLUID_VERDICTS}

    before = verdicts()
    status, _, err = run_cli(["convert", str(path), "--hydro-to-sdf", "--in-place"], capsys)
    if status == 2:
        pytest.skip(f"refused: {err.strip()}")
    assert status == 0, err
    assert verdicts() == before
    status, _, err = run_cli(["convert", str(path), "--hydro-to-sdf", "--check"], capsys)
    assert status == 0 and "up to date" in err, err
