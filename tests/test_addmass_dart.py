"""End to end with DART: what `addmass` writes makes a DART body accelerate as rigid body plus
ellipsoid added mass should, and the unshifted matrix (a common authoring mistake) does not.

The DART body is built the way gz-physics builds it: DART's rigid inertia from mass, CoM and
inertia about the CoM, plus `<fluid_added_mass>` block-swapped to angular-first and added about
the link origin. A known wrench is applied at the link origin with gravity off and the body at
rest, so the spatial acceleration is exactly (M_BBo_B + A_BBo_B)⁻¹·F. The expected matrix is
computed independently: Tuckerman's diagonal about the ellipsoid centre, moved to the link origin
by DART's own `Inertia.transformed`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_file
from gzinertia.spatial.algebra import block_swap
from gzinertia.spatial.rotation import rotation_from_rpy
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

pytestmark = pytest.mark.oracle("dartpy")

dart = pytest.importorskip("dartpy")

DENSITY = 1025.0
SEMI_AXES = (0.55, 0.21, 0.12)
CENTER = (0.31, -0.07, 0.05)
RPY = (0.3, -0.4, 0.9)

I_BBcm_I = np.array([[0.9, 0.01, -0.02], [0.01, 3.1, 0.03], [-0.02, 0.03, 3.3]])
#: A glider posed off the origin, its inertial off the link origin and rotated, a box hull.
MODEL = sdf.model(sdf.link(
    "body", sdf.inertial(42.0, I_BBcm_I, com=(0.12, 0.03, -0.02), rpy=(0.2, 0.1, -0.4)),
    sdf.box((1, 0.4, 0.3), pose=None, name="hull"), pose=(1, 2, -3, 0.1, 0.2, 0.3),
), version="1.10", name="glider")


def _dart_acceleration(link: LinkRecord, wrench_angular_first: np.ndarray) -> np.ndarray:
    """Spatial acceleration of a free DART body at rest, built as gz-physics builds it, under a
    wrench [torque; force] applied at the link origin in link axes."""
    inertial = link.inertial
    inertia = dart.dynamics.Inertia(inertial.mass, inertial.p_BoBcm_B, inertial.I_BBcm_B)
    if inertial.A_BBo_B is not None:
        inertia.setSpatialTensor(
            np.asarray(inertia.getSpatialTensor()) + block_swap(inertial.A_BBo_B.linear_first())
        )
    skel = dart.dynamics.Skeleton("glider")
    _, body = skel.createFreeJointAndBodyNodePair()
    body.setInertia(inertia)
    skel.setGravity(np.zeros(3))
    # setExtForce sets the whole external wrench (torque = offset × force), so it goes first.
    body.setExtForce(wrench_angular_first[3:], np.zeros(3), True, True)
    body.setExtTorque(wrench_angular_first[:3], True)
    skel.computeForwardDynamics()
    return np.asarray(skel.getAccelerations())


def _expected_total_inertia(link: LinkRecord) -> np.ndarray:
    """M_BBo_B + A_BBo_B, angular-first, from DART's rigid inertia and the ellipsoid's added
    mass moved from its centre to the link origin by DART's `Inertia.transformed`."""
    inertial = link.inertial
    rigid = dart.dynamics.Inertia(inertial.mass, inertial.p_BoBcm_B, inertial.I_BBcm_B)
    A_EEo_E = block_swap(ellipsoid_added_mass_matrix(SEMI_AXES, DENSITY))
    X_BE = dart.math.Isometry3()
    X_BE.set_rotation(rotation_from_rpy(*RPY))
    X_BE.set_translation(np.array(CENTER))
    # Inertia(S).transformed(X_BE): S given about Eo in E axes, returned about Bo in B axes.
    A_BBo_B = np.asarray(dart.dynamics.Inertia(A_EEo_E).transformed(X_BE).getSpatialTensor())
    return np.asarray(rigid.getSpatialTensor()) + A_BBo_B


def _written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    src = tmp_path / "glider.sdf"
    src.write_text(MODEL)
    out = tmp_path / "glider_added.sdf"
    status, _, err = run_cli(
        [
            "addmass", str(src), "--ellipsoid", "--link", "body",
            "--semi-axes", ",".join(map(str, SEMI_AXES)),
            "--center", ",".join(map(str, CENTER)),
            "--rpy", ",".join(map(str, RPY)),
            "--density", str(DENSITY), "-o", str(out),
        ],
        capsys,
    )
    assert status == 0, err
    return out


WRENCHES = [
    np.array([0.0, 0.0, 0.0, 10.0, 0.0, 0.0]),
    np.array([0.0, 0.0, 2.0, 0.0, 5.0, 0.0]),
    np.array([1.5, -2.0, 0.7, -3.0, 4.0, 8.0]),
]


@pytest.mark.parametrize("F", WRENCHES, ids=["surge", "sway+yaw", "mixed"])
def test_dart_body_accelerates_as_rigid_plus_added_mass(
    F: np.ndarray, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = read_sdf_file(_written(tmp_path, capsys)).link("glider::body")
    expected = np.linalg.solve(_expected_total_inertia(link), F)
    got = _dart_acceleration(link, F)
    assert np.max(np.abs(got - expected)) <= 1e-9 * np.max(np.abs(expected))


def test_added_mass_written_about_the_ellipsoid_centre_gives_wrong_dynamics_until_shifted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The mistake the tool prevents: the ellipsoid's matrix rotated to link axes but left
    about its centre. DART then accelerates the body wrongly; `gzinertia shift --from` the
    centre repairs it."""
    from gzinertia.edit.editor import XmlEditor
    from gzinertia.edit.links import link_element, write_fluid_added_mass
    from gzinertia.spatial.added_mass import AddedMass

    good = read_sdf_file(_written(tmp_path, capsys)).link("glider::body")
    A_BEo_B = AddedMass(ellipsoid_added_mass_matrix(SEMI_AXES, DENSITY), ordering="linear-first", point="Eo", axes="E").reexpressed(
        "B", rotation_from_rpy(*RPY)
    )
    unshifted = tmp_path / "unshifted.sdf"
    editor = XmlEditor(MODEL.encode(), str(unshifted))
    # Written as if it were about Bo: the authoring mistake.
    write_fluid_added_mass(
        editor, link_element(editor, good), AddedMass(A_BEo_B.linear_first(), ordering="linear-first"), "hand-written about the centre"
    )
    unshifted.write_bytes(editor.result())

    F = WRENCHES[2]
    expected = np.linalg.solve(_expected_total_inertia(good), F)
    wrong = _dart_acceleration(read_sdf_file(unshifted).link("glider::body"), F)
    assert np.max(np.abs(wrong - expected)) > 0.05 * np.max(np.abs(expected))

    status, _, err = run_cli(
        ["shift", str(unshifted), "--link", "body", "--from", ",".join(map(str, CENTER)),
         "--in-place"],
        capsys,
    )
    assert status == 0, err
    fixed = _dart_acceleration(read_sdf_file(unshifted).link("glider::body"), F)
    assert np.max(np.abs(fixed - expected)) <= 1e-9 * np.max(np.abs(expected))
