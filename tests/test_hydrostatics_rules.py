"""GZI301, GZI302, GZI305: a defect file and its clean twin each, the scope (world plugin or
a model file with a Hydrodynamics plugin), and the ``net-buoyancy`` setting."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import sdf_builders as sdf
import trimesh
from audit_helpers import findings_of
from sdf_builders import write

from gzinertia.audit.config import AuditConfig, config_from_table
from gzinertia.audit.rules import RULES
from gzinertia.audit.runner import audit

UNIFORM = sdf.buoyancy_plugin(1000.0)
GRADED = sdf.buoyancy_plugin(default=1000.0, changes=[(0.0, 1.0)])  # air above z = 0
HYDRO = sdf.hydro_plugin("body", {"xUabsU": -4.0})
HULL = sdf.box_geometry((0.5, 0.5, 0.4))


def world(plugin: str, body: str, pose: sdf.Pose6 = (0, 0, -5, 0, 0, 0)) -> str:
    """A world of the Buoyancy ``plugin`` and the model ``rov`` of ``body`` at ``pose``."""
    return sdf.world(plugin, sdf.nested_model("rov", body, pose=pose), version="1.10")


def rov(*parts: str) -> str:
    """A model file of ``parts``: Gazebo's default water."""
    return sdf.model(*parts, version="1.10", name="rov")


def box_link(mass: float, com_z: float, geometry: str = HULL,
             collision_pose: sdf.Pose6 = sdf.ORIGIN) -> str:
    """The link ``body`` (unit inertia), G ``com_z`` above its origin, its collision ``hull``."""
    return sdf.link("body", sdf.inertial(mass, np.eye(3), com=(0, 0, com_z)),
                    sdf.collision(geometry, collision_pose, "hull"))


def codes(folder: Path, text: str) -> set[str]:
    return {f.code for f in findings_of(folder, text) if f.code.startswith("GZI3")}


def test_gzi301_b_below_g_submerged_and_its_twin(tmp_path: Path) -> None:
    # 0.1 m³ box, 100 kg: neutral; G 5 cm above B (defect), 5 cm below (twin)
    defect = findings_of(tmp_path / "d", world(UNIFORM, box_link(100.0, 0.05)), "GZI301")
    assert len(defect) == 1 and defect[0].link == "rov::body"
    assert defect[0].values["z_B_minus_z_G"] < 0
    assert "GZI301" not in codes(tmp_path / "c", world(UNIFORM, box_link(100.0, -0.05)))


def test_gzi301_needs_near_neutral_and_submerged(tmp_path: Path) -> None:
    # a brick (2× its displaced mass) with G high is not a hovering vehicle
    assert "GZI301" not in codes(tmp_path / "b", world(UNIFORM, box_link(200.0, 0.05)))
    # in a graded world, the body half out of the water is not submerged
    surface = world(GRADED, box_link(50.0, 0.05), pose=sdf.ORIGIN)
    assert "GZI301" not in codes(tmp_path / "s", surface)
    deep = world(GRADED, box_link(100.0, 0.05))
    assert "GZI301" in codes(tmp_path / "g", deep)


def test_gzi301_in_a_model_file_for_bodies_that_nearly_hover(tmp_path: Path) -> None:
    """A model file: Gazebo's default water; the near-neutral body is judged (with or without
    a Hydrodynamics plugin, which `hydro` adds: an edit must not bring a model into scope),
    a dense one is not."""
    vehicle = rov(box_link(100.0, 0.05), HYDRO)
    assert "GZI301" in codes(tmp_path / "v", vehicle)
    bare = rov(box_link(100.0, 0.05))
    assert "GZI301" in codes(tmp_path / "b", bare)
    dense = rov(box_link(300.0, 0.05))
    assert "GZI301" not in codes(tmp_path / "d", dense)


def test_gzi302_net_buoyancy_threshold_and_setting(tmp_path: Path) -> None:
    text = world(UNIFORM, box_link(80.0, -0.05))  # 100 kg displaced: +25 %
    found = findings_of(tmp_path / "d", text, "GZI302")
    assert len(found) == 1
    assert abs(found[0].values["net_percent"] - 25.0) < 1e-9
    assert "GZI302" not in codes(tmp_path / "c", world(UNIFORM, box_link(98.0, -0.05)))
    # net-buoyancy = 0.3 in the settings: 25 % is within it
    config = config_from_table({"net-buoyancy": 0.3}, "test", frozenset(RULES))
    result = audit([str(write(tmp_path / "s", text))], config)
    assert "GZI302" not in {f.code for f in result.findings}
    result = audit([str(write(tmp_path / "t", text))], AuditConfig(known_codes=frozenset(RULES)))
    assert "GZI302" in {f.code for f in result.findings}


def test_gzi302_not_in_model_files(tmp_path: Path) -> None:
    vehicle = rov(box_link(50.0, -0.05), HYDRO)
    assert "GZI302" not in codes(tmp_path, vehicle)


def _mesh(folder: Path, offset: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    mesh = trimesh.creation.box(extents=(0.5, 0.5, 0.4))
    mesh.apply_translation((offset, 0.0, 0.0))
    path = folder / "hull.stl"
    mesh.export(path)
    return path


def test_gzi305_mesh_scale_and_centroid_and_the_clean_twin(tmp_path: Path) -> None:
    path = _mesh(tmp_path / "m", 0.0)
    scaled = sdf.mesh_geometry(str(path), scale=(2, 2, 2))
    found = findings_of(tmp_path / "m", world(UNIFORM, box_link(100.0, -0.05, scaled)),
                        "GZI305")
    assert len(found) == 1 and "<scale> ignored" in found[0].message
    clean = sdf.mesh_geometry(str(path))
    assert "GZI305" not in codes(tmp_path / "m", world(UNIFORM, box_link(100.0, -0.05, clean)))
    off = _mesh(tmp_path / "o", 0.3)
    found = findings_of(tmp_path / "o",
                        world(UNIFORM, box_link(100.0, -0.05, sdf.mesh_geometry(str(off)))),
                        "GZI305")
    assert len(found) == 1 and "centre of volume" in found[0].message


def test_gzi305_mesh_in_graded_world(tmp_path: Path) -> None:
    path = _mesh(tmp_path / "g", 0.0)
    text = world(GRADED, box_link(100.0, -0.05, sdf.mesh_geometry(str(path))))
    found = findings_of(tmp_path / "g", text, "GZI305")
    assert len(found) == 1 and "no buoyancy in a graded" in found[0].message
    primitive = world(GRADED, box_link(100.0, -0.05))
    assert "GZI305" not in codes(tmp_path / "p", primitive)


def barge(com_z: float) -> str:
    return world(GRADED, box_link(600.0, com_z, sdf.box_geometry((4, 1, 1))),
                 pose=(0, 0, 0.2, 0, 0, 0))


def test_gzi303_top_heavy_barge_and_its_ballasted_twin(tmp_path: Path) -> None:
    """GM_T = KB + B²/(12d) - KG: with d = 0.1491 m (600 kg, air above), KG 0.9 m gives
    -0.27 m (defect), KG 0.2 m gives +0.43 m (twin)."""
    found = findings_of(tmp_path / "d", barge(0.4), "GZI303")
    assert len(found) == 1
    d = 596.0 / 999.0 / 4.0  # 1000·V + 1·(4 - V) = 600 kg
    assert abs(found[0].values["GM_T"] - (d / 2 + 1.0 / (12 * d) - 0.9)) < 1e-9
    assert "GZI303" not in codes(tmp_path / "c", barge(-0.3))


def test_gzi303_only_in_graded_worlds(tmp_path: Path) -> None:
    uniform = world(UNIFORM, box_link(600.0, 0.4, sdf.box_geometry((4, 1, 1))))
    assert "GZI303" not in codes(tmp_path, uniform)


def proxy_model(size: tuple[float, float, float], z: float) -> str:
    """The hull drawn by a 0.6 × 0.4 × 0.3 m box visual, its collision a box of ``size`` at
    height ``z``."""
    return rov(sdf.link(
        "body", sdf.inertial(60.0, np.diag([1.7, 2.1, 2.6]), posed=False),
        sdf.visual(sdf.box_geometry((0.6, 0.4, 0.3)), pose=None, name="hull"),
        sdf.box(size, pose=(0, 0, z, 0, 0, 0))))


def test_gzi304_small_or_offset_proxy_and_the_hull_twin(tmp_path: Path) -> None:
    small = findings_of(tmp_path / "s", proxy_model((0.2, 0.2, 0.1), 0.0), "GZI304")
    assert len(small) == 1 and small[0].values["collision_volume"] < 0.25 * 0.072
    offset = findings_of(tmp_path / "o", proxy_model((0.6, 0.4, 0.3), 0.3), "GZI304")
    assert len(offset) == 1 and abs(offset[0].values["offset"] - 0.3) < 1e-12
    assert "GZI304" not in codes(tmp_path / "c", proxy_model((0.6, 0.4, 0.3), 0.0))


def test_addmass_warns_before_fitting_a_proxy(tmp_path: Path, capsys) -> None:
    from conftest import run_cli

    path = write(tmp_path / "p", proxy_model((0.2, 0.2, 0.1), 0.0))
    code, out, err = run_cli(["addmass", "--ellipsoid", "--diff", str(path)], capsys)
    assert code == 0, err
    assert "buoyancy proxy" in out + err and "GZI304" in out + err
    path = write(tmp_path / "h", proxy_model((0.6, 0.4, 0.3), 0.0))
    code, out, err = run_cli(["addmass", "--ellipsoid", "--diff", str(path)], capsys)
    assert code == 0, err
    assert "buoyancy proxy" not in out + err
