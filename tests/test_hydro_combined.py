"""Combined motion in ``gzinertia hydro`` (issue 12.6): the plugin's damping against MuJoCo for
translation and rotation in any direction, with and without the fitted cross terms.

The measurement is ``benchmarks/hydro_combined_motion.py`` (MuJoCo's ``qfrc_fluid``); the first
test runs it and checks that docs/fluid_forces.md quotes its table, so the documented numbers
are measured, not typed in.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import REPO, run_cli
from hydro_oracles import gz_hydrodynamics_wrench, random_posed_ellipsoid

from gzinertia.physics.fluid_forces import (
    EllipsoidFluidCoefficients,
    ellipsoid_fluid_wrench_terms,
    shift_spatial_force,
    shift_velocity,
)
from gzinertia.physics.hydro_damping import (
    combined_motion_error,
    drag_wrench_on_link,
    hydrodynamics_damping,
    plugin_wrench,
    quadratic_cross_terms,
    sum_damping,
)
from gzinertia.sdf import read_sdf_file
from gzinertia.spatial.rotation import Pose


@pytest.mark.oracle("mujoco")
def test_docs_quote_the_measured_combined_motion_errors() -> None:
    """The table in docs/fluid_forces.md is the benchmark's output against MuJoCo; the cross
    terms reduce the median and the maximum drag error for translation and for rotation."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    import hydro_combined_motion as bench
    rows = bench.measure()
    docs = (REPO / "docs" / "fluid_forces.md").read_text()
    assert bench.table(rows) in docs
    by = {(r.motion, r.reference, r.terms): r for r in rows}
    for motion in ("translation", "rotation"):
        diagonal, cross = by[(motion, "drag", "diagonal")], by[(motion, "drag", "cross terms")]
        # docs: median four- to fivefold smaller, maximum by about 45-60 %
        assert cross.median < diagonal.median / 4 and cross.maximum < 0.56 * diagonal.maximum


def test_plugin_wrench_is_the_plugins_formula(rng: np.random.Generator) -> None:
    """Vectorised formula against the transcription of gz-sim's ``buildDampingMatrix``."""
    r, X_BE, coefs = random_posed_ellipsoid(rng)
    params = sum_damping(
        [
            hydrodynamics_damping(r, X_BE, 1000.0, 0.01, coefs, couplings=True),
            quadratic_cross_terms(r, X_BE, 1000.0, coefs),
            {"xUV": -0.3, "nRP": 0.2},  # non-abs quadratic terms too
        ]
    )
    states = rng.normal(size=(20, 6))
    for s, W in zip(states, plugin_wrench(params, states), strict=True):
        f_W, tau_W = gz_hydrodynamics_wrench(params, np.eye(3), s[:3], s[3:])
        np.testing.assert_allclose(W, np.concatenate([f_W, tau_W]), rtol=1e-12, atol=1e-12)


def test_drag_wrench_on_link_is_mujocos_drag(rng: np.random.Generator) -> None:
    """Against :mod:`gzinertia.physics.fluid_forces` (checked against ``qfrc_fluid`` in
    tests/test_fluid_forces.py), moved from the ellipsoid centre to the link origin."""
    needle = (np.array([10.0, 1e-3, 1e-3]), Pose(), EllipsoidFluidCoefficients())  # guard
    for r, X_BE, coefs in [needle, *(random_posed_ellipsoid(rng) for _ in range(5))]:
        states = rng.normal(size=(10, 6))
        if r[0] == 10.0:
            states[:, 1:3] = 0.0  # along its axis: MuJoCo 4 drops the projected area
        ours = drag_wrench_on_link(r, X_BE, 1000.0, coefs, states)
        for s, W in zip(states, ours, strict=True):
            V_WEo_B = shift_velocity(np.concatenate([s[3:], s[:3]]), X_BE.p)
            V_WE_E = np.concatenate([X_BE.R.T @ V_WEo_B[:3], X_BE.R.T @ V_WEo_B[3:]])
            drag = ellipsoid_fluid_wrench_terms(r, V_WE_E, 1000.0, 0.0, coefs=coefs).drag
            F = shift_spatial_force(
                np.concatenate([X_BE.R @ drag[:3], X_BE.R @ drag[3:]]), -X_BE.p
            )
            np.testing.assert_allclose(W, np.concatenate([F[3:], F[:3]]), rtol=1e-12, atol=1e-9)


def test_cross_terms_keep_single_axis_motion_exact_and_damp(rng: np.random.Generator) -> None:
    """Rotated, offset ellipsoids: with the cross terms the plugin still applies MuJoCo's whole
    drag wrench about Bo for motion along one link axis (the cross terms vanish there), and the
    fitted damping dissipates: its power is negative for random translations and rotations."""
    for _ in range(4):
        r, X_BE, coefs = random_posed_ellipsoid(rng)
        params = sum_damping(
            [
                hydrodynamics_damping(r, X_BE, 1000.0, 0.0, coefs, couplings=True),
                quadratic_cross_terms(r, X_BE, 1000.0, coefs),
            ]
        )
        axes = np.vstack([np.eye(6), -np.eye(6)]) * 1.3
        W = plugin_wrench(params, axes)
        expected = drag_wrench_on_link(r, X_BE, 1000.0, coefs, axes)
        np.testing.assert_allclose(W, expected, rtol=0, atol=1e-10 * np.max(np.abs(expected)))
        for block in (0, 3):
            states = np.zeros((200, 6))
            states[:, block : block + 3] = rng.normal(size=(200, 3))
            power = np.sum(plugin_wrench(params, states) * states, axis=1)
            assert np.all(power < 0.0)


def test_cross_terms_add_up_over_ellipsoids(rng: np.random.Generator) -> None:
    """The fit is linear in the drag: fitted on two ellipsoids' summed drag (by hand, with the
    same features) it equals the sum of the per-ellipsoid fits."""
    parts = [random_posed_ellipsoid(rng) for _ in range(2)]
    c = EllipsoidFluidCoefficients()
    summed = sum_damping(quadratic_cross_terms(r, X, 1000.0, c) for r, X, _ in parts)
    states = rng.normal(size=(30, 6))
    states[:15, 3:] = 0.0
    states[15:, :3] = 0.0
    base = sum_damping(
        hydrodynamics_damping(r, X, 1000.0, 0.0, c, couplings=True) for r, X, _ in parts
    )
    total = sum(drag_wrench_on_link(r, X, 1000.0, c, states) for r, X, _ in parts)
    fitted = plugin_wrench(sum_damping([base, summed]), states)
    # the summed fit is as good on the summed drag as the diagonal-plus-couplings alone, or better
    assert np.linalg.norm(fitted - total) < np.linalg.norm(plugin_wrench(base, states) - total)


BOX = sdf.model(sdf.link(
    "hull", sdf.inertial(20.0, np.eye(3), posed=False),
    sdf.box((0.45, 0.34, 0.25), pose=None, name="box"),
    sdf.cylinder(0.06, 0.3, (0.1, -0.2, 0.15, 0.3, -0.5, 1.1), "float"),
), version="1.10", name="rov")


@pytest.mark.parametrize("cross", [False, True])
def test_hydro_prints_the_combined_motion_error_of_what_it_writes(
    cross: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rov.sdf"
    path.write_text(BOX)
    args = ["hydro", str(path), "--link", "rov::hull", "--viscosity", "0", "--in-place"]
    status, _, err = run_cli([*args, "--cross-terms"] if cross else args, capsys)
    assert status == 0, err
    (plugin,) = read_sdf_file(path).link("rov::hull").hydrodynamics
    assert any("abs" in n and n[1] != n[-1] for n in plugin.terms) == cross  # e.g. xUabsV
    found = re.search(
        r"translation median ([0-9.e+-]+) %, max ([0-9.e+-]+) %; "
        r"rotation median ([0-9.e+-]+) %, max ([0-9.e+-]+) %",
        err,
    )
    assert found is not None, err
    geoms = [
        (np.array([0.225, 0.17, 0.125]), Pose()),
        (np.array([0.06, 0.06, 0.15]), Pose.from_xyz_rpy((0.1, -0.2, 0.15), (0.3, -0.5, 1.1))),
    ]
    expected = combined_motion_error(geoms, 1000.0, EllipsoidFluidCoefficients(), plugin.terms)
    np.testing.assert_allclose(
        [float(g) for g in found.groups()], 100 * np.array(expected), rtol=5e-3
    )
    assert run_cli([*args[:-1], "--check", *(["--cross-terms"] if cross else [])], capsys)[0] == 0
    status, out, _ = run_cli(["audit", str(path), "--format", "text"], capsys)
    assert "No findings" in out, out
