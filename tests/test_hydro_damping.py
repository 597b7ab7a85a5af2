"""Hydrodynamics damping from MuJoCo's ellipsoid drag (gzinertia.physics.hydro_damping).

The oracle for Gazebo is :func:`gz_hydrodynamics_wrench`, a transcription of what the plugin
applies; the oracle for MuJoCo is ``data.qfrc_fluid`` of a free body. Why the diagonal terms are
exact even for a rotated, offset ellipsoid: for a motion along one link axis ``ŝ`` (translation
along, or rotation about, that axis through Bo), the wrench component along ``ŝ`` is the power
divided by the speed, and MuJoCo's added-mass, Magnus and Kutta terms do no work, so that
component is the drag's alone.
"""

from __future__ import annotations

import numpy as np
import pytest
from hydro_oracles import (
    mujoco_F_BBo_B,
    plugin_F_BBo_B,
    random_posed_ellipsoid,
    rel,
    single_axis_motions,
)

from gzinertia.physics.fluid_forces import (
    EllipsoidFluidCoefficients,
    ellipsoid_fluid_wrench,
    ellipsoid_fluid_wrench_terms,
    fluid_semi_axes,
    shift_spatial_force,
    shift_velocity,
)
from gzinertia.physics.hydro_damping import (
    DIAGONAL_DAMPING_NAMES,
    hydrodynamics_damping,
    sum_damping,
)
from gzinertia.records import Geometry
from gzinertia.spatial.rotation import Pose

SHAPES: list[tuple[str, np.ndarray, Geometry]] = [
    ("ellipsoid", np.array([0.3, 0.12, 0.05]), Geometry("ellipsoid", size=(0.3, 0.12, 0.05))),
    ("capsule", np.array([0.06, 0.25]), Geometry("capsule", radius=0.06, length=0.5)),
    ("cylinder", np.array([0.2, 0.04]), Geometry("cylinder", radius=0.2, length=0.08)),
    ("box", np.array([0.1, 0.2, 0.4]), Geometry("box", size=(0.2, 0.4, 0.8))),
    ("sphere", np.array([0.15]), Geometry("sphere", radius=0.15)),
]


@pytest.mark.oracle("mujoco")
@pytest.mark.parametrize("viscosity", [0.0, 0.02])
def test_plugin_reproduces_mujoco_along_principal_axes(
    rng: np.random.Generator, viscosity: float
) -> None:
    """Ellipsoid axes = link axes, centre at the link origin: for translation along and rotation
    about each axis, the plugin fed our coefficients applies MuJoCo's whole fluid wrench."""
    density = 1000.0
    for kind, size, geometry in SHAPES:
        coefs = EllipsoidFluidCoefficients(*rng.uniform(0.1, 2.0, size=5))
        r = fluid_semi_axes(geometry)
        params = hydrodynamics_damping(r, Pose(), density, viscosity, coefs)
        for V in single_axis_motions():
            ours = ellipsoid_fluid_wrench(r, V, density, viscosity, coefs=coefs)
            mj = mujoco_F_BBo_B(
                [(kind, size, Pose(), coefs)], V, density, viscosity, np.zeros(3), rng
            )
            plugin = plugin_F_BBo_B(params, V, np.zeros(3))
            assert rel(plugin, ours) < 1e-12, (kind, V)
            assert rel(plugin, mj) < 1e-12, (kind, V)
            # MuJoCo's wrench has only the component along the motion (up to rounding)
            axis = int(np.flatnonzero(V)[0])
            assert np.max(np.abs(np.delete(mj, axis))) < 1e-13 * abs(mj[axis])


@pytest.mark.oracle("mujoco")
def test_current_is_wind(rng: np.random.Generator) -> None:
    """A link at rest in a current along a principal axis: the plugin's current and MuJoCo's
    wind are the same relative velocity."""
    kind, size, geometry = SHAPES[0]
    r, coefs = fluid_semi_axes(geometry), EllipsoidFluidCoefficients()
    params = hydrodynamics_damping(r, Pose(), 1025.0, 0.001, coefs)
    for axis in range(3):
        current_B = np.zeros(3)
        current_B[axis] = -0.8
        mj = mujoco_F_BBo_B(
            [(kind, size, Pose(), coefs)], np.zeros(6), 1025.0, 0.001, current_B, rng
        )
        assert rel(plugin_F_BBo_B(params, np.zeros(6), current_B), mj) < 1e-12


@pytest.mark.oracle("mujoco")
def test_rotated_offset_ellipsoid_diagonal_is_exact_along_the_motion(
    rng: np.random.Generator,
) -> None:
    """Rotated and offset ellipsoid, diagonal terms only: for each single-axis motion the
    plugin's wrench component along the motion equals MuJoCo's (power argument, module
    docstring); the rest of MuJoCo's wrench (lift, Munk moment, lever-arm couplings) is what the
    diagonal approximation leaves out, and it is not small."""
    density, viscosity = 1000.0, 0.01
    left_out = 0.0
    for _ in range(6):
        r, X_BE, coefs = random_posed_ellipsoid(rng)
        params = hydrodynamics_damping(r, X_BE, density, viscosity, coefs)
        assert set(params) == set(DIAGONAL_DAMPING_NAMES)
        for V in single_axis_motions():
            axis = int(np.flatnonzero(V)[0])
            mj = mujoco_F_BBo_B(
                [("ellipsoid", r, X_BE, coefs)], V, density, viscosity, np.zeros(3), rng
            )
            plugin = plugin_F_BBo_B(params, V, np.zeros(3))
            assert plugin[axis] == pytest.approx(mj[axis], rel=1e-11)
            left_out = max(left_out, float(np.max(np.abs(np.delete(mj, axis)))) / abs(mj[axis]))
    assert left_out > 0.1


def test_couplings_give_the_whole_drag_wrench_about_the_link_origin(
    rng: np.random.Generator,
) -> None:
    """With ``couplings=True`` the plugin applies, for any single-axis motion, MuJoCo's whole
    dissipative wrench (drag + viscous at the ellipsoid centre, moved to the link origin)."""
    density, viscosity = 1000.0, 0.01
    for _ in range(10):
        r, X_BE, coefs = random_posed_ellipsoid(rng)
        params = hydrodynamics_damping(r, X_BE, density, viscosity, coefs, couplings=True)
        for V in single_axis_motions():
            V_WEo_B = shift_velocity(V, X_BE.p)
            V_WE_E = np.concatenate([X_BE.R.T @ V_WEo_B[:3], X_BE.R.T @ V_WEo_B[3:]])
            terms = ellipsoid_fluid_wrench_terms(r, V_WE_E, density, viscosity, coefs=coefs)
            F_BEo_B = np.concatenate(
                [X_BE.R @ terms.dissipative[:3], X_BE.R @ terms.dissipative[3:]]
            )
            expected = shift_spatial_force(F_BEo_B, -X_BE.p)
            assert rel(plugin_F_BBo_B(params, V, np.zeros(3)), expected) < 1e-12


def test_centred_ellipsoid_has_no_couplings_and_damps(rng: np.random.Generator) -> None:
    r, X_BE, coefs = random_posed_ellipsoid(rng)
    centred = Pose(np.zeros(3), X_BE.R)
    params = hydrodynamics_damping(r, centred, 998.0, 0.001, coefs, couplings=True)
    assert list(params) == list(DIAGONAL_DAMPING_NAMES)
    assert all(v < 0.0 for v in params.values())  # Gazebo's convention: damping is negative
    assert all(type(v) is float for v in params.values())
    params = hydrodynamics_damping(r, X_BE, 998.0, 0.0, coefs)
    assert all(params[n] == 0.0 for n in DIAGONAL_DAMPING_NAMES[:6])  # no viscosity, no linear


@pytest.mark.oracle("mujoco")
def test_several_ellipsoids_on_one_link_add_up(rng: np.random.Generator) -> None:
    """Two posed geoms on one link: the summed parameters keep the diagonal exact vs MuJoCo."""
    density, viscosity = 800.0, 0.005
    parts = [random_posed_ellipsoid(rng) for _ in range(2)]
    params = sum_damping(hydrodynamics_damping(r, X, density, viscosity, c) for r, X, c in parts)
    for V in single_axis_motions((-1.3, 0.9)):
        axis = int(np.flatnonzero(V)[0])
        mj = mujoco_F_BBo_B(
            [("ellipsoid", r, X, c) for r, X, c in parts], V, density, viscosity, np.zeros(3), rng
        )
        assert plugin_F_BBo_B(params, V, np.zeros(3))[axis] == pytest.approx(mj[axis], rel=1e-11)
