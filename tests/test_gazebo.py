"""What Gazebo builds, checked against DART fed the way gz-physics feeds it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, EXAMPLES, oracle_module, rel_err

from gzinertia.gazebo.dart import dart_spatial_tensor, gz_math_body_matrix, gz_math_spatial_matrix
from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_file

dart = oracle_module("dartpy")


def _featherstone(A_linear_first: np.ndarray) -> np.ndarray:
    """gz-physics' ConstructSdfLink: TL←BR, TR←BL, BL←TR, BR←TL of the SDF matrix."""
    A = A_linear_first
    F = np.zeros((6, 6))
    F[:3, :3], F[:3, 3:] = A[3:, 3:], A[3:, :3]
    F[3:, :3], F[3:, 3:] = A[:3, 3:], A[:3, :3]
    return F


def _as_gz_physics_builds(link: LinkRecord) -> np.ndarray:
    inertial = link.inertial
    body = dart.dynamics.Inertia()
    body.setMass(inertial.mass)
    body.setMoment(inertial.I_BBcm_B)  # gz-math Inertial::Moi(): about Bcm, link axes
    body.setLocalCOM(inertial.p_BoBcm_B)
    if inertial.A_BBo_B is not None:
        body.setSpatialTensor(np.asarray(body.getSpatialTensor()) + _featherstone(inertial.A_BBo_B.linear_first()))
    return np.asarray(body.getSpatialTensor())


def _links_with_inertia() -> list[tuple[str, LinkRecord]]:
    files = sorted(EXAMPLES.rglob("*.sdf")) + [
        CORPUS / p
        for p in (
            "gazebosim__gz-sim/test/worlds/fluid_added_mass.sdf",
            "gazebosim__gz-sim/test/worlds/added_mass_full_matrix.sdf",
            "gazebosim__gz-physics/dartsim/worlds/added_mass.sdf",
            "osrf__mbari_wec_gz/buoy_tests/worlds/singlefloatingbody_heave.sdf",
            "_generated/osrf__mbari_wec_gz/buoy_description/models/mbari_wec_base/model.sdf",
            "gazebosim__sdformat/test/integration/model/pr2.sdf",
        )
    ]
    out = []
    for f in files:
        if not Path(f).is_file():
            continue
        for link in read_sdf_file(f, [EXAMPLES]).links:
            if link.inertial.mass > 0:
                out.append((f"{Path(f).name}:{link.name}", link))
    return out


LINKS = _links_with_inertia()


@pytest.mark.oracle("dartpy")
@pytest.mark.parametrize("link", [lk for _, lk in LINKS], ids=[i for i, _ in LINKS])
def test_dart_tensor_equals_dart_fed_as_gz_physics_feeds_it(link: LinkRecord) -> None:
    assert rel_err(dart_spatial_tensor(link.inertial), _as_gz_physics_builds(link)) < 1e-12


def test_some_links_carry_added_mass() -> None:
    assert sum(lk.inertial.A_BBo_B is not None for _, lk in LINKS) >= 5


def test_gz_math_body_matrix_is_about_no_point_unless_com_is_at_origin() -> None:
    """BodyMatrix() has M_BBcm_B's rotational block and M_BBo_B's coupling: it equals the true
    spatial inertia only when the CoM sits at the link origin."""
    with_offset = [lk for _, lk in LINKS if np.linalg.norm(lk.inertial.p_BoBcm_B) > 1e-3]
    assert with_offset
    for link in with_offset:
        body = gz_math_body_matrix(link.inertial)
        assert np.allclose(body[3:, 3:], link.inertial.M_BBcm_B.linear_first()[3:, 3:])
        assert np.allclose(body[:3, 3:], link.inertial.M_BBo_B.linear_first()[:3, 3:])
        assert not np.allclose(body, link.inertial.M_BBo_B.linear_first())
        assert not np.allclose(body, link.inertial.M_BBcm_B.linear_first())
        spatial = gz_math_spatial_matrix(link.inertial)
        A = link.inertial.A_BBo_B
        added = A.linear_first() if A is not None else 0.0
        assert np.allclose(spatial - body, added)
