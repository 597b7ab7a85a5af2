"""GZI501–GZI506 on minimal models carrying the public vehicles' plugin blocks
(:mod:`classic_vehicles`); every expected finding is computed here with NumPy from the
published numbers and the collisions written into the model."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import findings_of
from classic_vehicles import (
    ECA_A9_INERTIA,
    ECA_A9_LINK,
    ECA_A9_MASS,
    LAUV_LINK,
    LAUV_MASS,
    REXROV_INERTIA,
    REXROV_LINK,
    REXROV_MASS,
    uuv_model,
)

#: ECA A9's hull as a cylinder along x (length 1.98 m, diameter 0.23 m: eca_a9_base.xacro).
ECA_HULL = "<cylinder><radius>0.115</radius><length>1.98</length></cylinder>"
ECA_POSE = "0 0 0 0 1.5707963267948966 0"
#: RexROV's frame as the plugin's <box> (2.6 m long along x, 1.5 wide, 1.6 high).
REXROV_HULL = "<box><size>2.6 1.5 1.6</size></box>"
#: LAUV's hull: a cylinder of its <box> width and length (gazebo.xacro:11-14).
LAUV_HULL = "<cylinder><radius>0.075</radius><length>1.08</length></cylinder>"


def _matrix(block: str, tag: str) -> np.ndarray:
    text = ET.fromstring(block).findtext(f"hydrodynamic_model/{tag}") or ""
    values = [float(w) for w in text.split()]
    return np.array(values).reshape(6, 6) if len(values) == 36 else np.diag(values)


def _rexrov(tmp_path: Path, block: str = REXROV_LINK) -> str:
    return uuv_model(block, REXROV_MASS, REXROV_HULL, REXROV_INERTIA)


def test_gzi501_names_rexrovs_worst_pair(tmp_path: Path) -> None:
    Ma = _matrix(REXROV_LINK, "added_mass")
    diff = np.abs(Ma - Ma.T)
    i, j = np.unravel_index(np.argmax(np.triu(diff, 1)), diff.shape)
    (found,) = findings_of(tmp_path, _rexrov(tmp_path), "GZI501")
    assert (found.values["row"], found.values["column"]) == (i + 1, j + 1) == (3, 6)
    assert found.values["difference"] == pytest.approx(Ma[i, j] - Ma[j, i])
    assert "(3,6) = 10.774" in found.message and "(6,3) = 10.775" in found.message


def test_gzi501_not_on_a_symmetric_matrix(tmp_path: Path) -> None:
    assert findings_of(tmp_path, uuv_model(LAUV_LINK, LAUV_MASS, LAUV_HULL), "GZI501") == []


def test_gzi502_on_a_matrix_with_a_negative_eigenvalue(tmp_path: Path) -> None:
    block = ECA_A9_LINK.replace("0 0 0 0.4 0 0", "0 0 0 -0.4 0 0")
    (found,) = findings_of(tmp_path, uuv_model(block, ECA_A9_MASS, ECA_HULL, ECA_A9_INERTIA,
                                               collision_pose=ECA_POSE), "GZI502")
    want = np.linalg.eigvalsh(_matrix(block, "added_mass"))
    np.testing.assert_allclose(found.values["eigenvalues"], want)
    assert findings_of(tmp_path, _rexrov(tmp_path), "GZI502") == []  # RexROV's is PSD


@pytest.mark.parametrize("vehicle", ["eca_a9", "rexrov", "lauv"])
def test_gzi503_declared_volume_against_the_collisions(vehicle: str, tmp_path: Path) -> None:
    block, mass, hull, inertia, pose, volume = {
        "eca_a9": (ECA_A9_LINK, ECA_A9_MASS, ECA_HULL, ECA_A9_INERTIA, ECA_POSE,
                   math.pi * 0.115**2 * 1.98),
        "rexrov": (REXROV_LINK, REXROV_MASS, REXROV_HULL, REXROV_INERTIA, "", 2.6 * 1.5 * 1.6),
        "lauv": (LAUV_LINK, LAUV_MASS, LAUV_HULL, (1.0, 1.0, 1.0), ECA_POSE,
                 math.pi * 0.075**2 * 1.08),
    }[vehicle]
    declared = float(ET.fromstring(block).findtext("volume") or 0)
    (found,) = findings_of(tmp_path, uuv_model(block, mass, hull, inertia, collision_pose=pose),
                           "GZI503")
    assert found.values["declared_volume"] == pytest.approx(declared)
    assert found.values["collision_volume"] == pytest.approx(volume, rel=1e-9)
    assert found.values["net_buoyancy_gz"] == pytest.approx(1028 * volume / mass - 1, rel=1e-9)
    assert found.values["net_buoyancy_plugin"] == pytest.approx(1028 * declared / mass - 1)


def test_gzi503_not_when_the_volumes_agree(tmp_path: Path) -> None:
    volume = math.pi * 0.115**2 * 1.98
    block = ECA_A9_LINK.replace("0.06799987704121499", repr(volume))
    text = uuv_model(block, ECA_A9_MASS, ECA_HULL, ECA_A9_INERTIA, collision_pose=ECA_POSE)
    assert findings_of(tmp_path, text, "GZI503") == []


def test_gzi503_neutrally_buoyant_floats_mass_over_1028(tmp_path: Path) -> None:
    block = REXROV_LINK.replace("<neutrally_buoyant>0", "<neutrally_buoyant>1")
    (found,) = findings_of(tmp_path, _rexrov(tmp_path, block), "GZI503")
    assert found.values["declared_volume"] == pytest.approx(REXROV_MASS / 1028.0)


def test_gzi504_centre_of_buoyancy_against_the_centroid(tmp_path: Path) -> None:
    (found,) = findings_of(tmp_path, _rexrov(tmp_path), "GZI504")
    assert found.values["distance"] == pytest.approx(0.3)  # box centred at the origin
    centred = REXROV_LINK.replace("0.0 0.0 0.3", "0 0 0")
    assert findings_of(tmp_path, _rexrov(tmp_path, centred), "GZI504") == []


def test_gzi504_measures_the_centre_of_buoyancy_from_the_centre_of_mass(tmp_path: Path) -> None:
    """Gazebo classic applies the plugin's buoyancy at ``<center_of_buoyancy>`` from the ODE
    body, which sits at the centre of mass (ODELink.cc, ``AddForceAtRelativePosition``): with
    the centre of mass 0.3 m below the origin, RexROV's 0 0 0.3 lands on the box's centroid."""
    text = uuv_model(REXROV_LINK, REXROV_MASS, REXROV_HULL, REXROV_INERTIA,
                     pose="0 0 -0.3 0 0 0")
    assert findings_of(tmp_path, text, "GZI504") == []
    (found,) = findings_of(tmp_path, uuv_model(REXROV_LINK, REXROV_MASS, REXROV_HULL,
                                               REXROV_INERTIA, pose="0 0 0.3 0 0 0"), "GZI504")
    assert found.values["distance"] == pytest.approx(0.6)


def test_gzi505_damping_signs(tmp_path: Path) -> None:
    assert findings_of(tmp_path, _rexrov(tmp_path), "GZI505") == []  # Fossen-negative
    flipped = REXROV_LINK.replace("-74.82", "74.82").replace("-748.22", "748.22")
    (found,) = findings_of(tmp_path, _rexrov(tmp_path, flipped), "GZI505")
    assert "-<linear_damping> has the eigenvalue -74.82" in found.message
    assert "<quadratic_damping> on u is 748.22 > 0" in found.message


def test_gzi505_vrx_negative_terms(tmp_path: Path) -> None:
    text = ('<sdf version="1.9"><model name="boat"><link name="base_link"/>'
            '<plugin name="d" filename="libusv_gazebo_dynamics_plugin.so">'
            "<bodyName>base_link</bodyName><xU>-51.3</xU><xUU>72.4</xUU></plugin>"
            "</model></sdf>")
    (found,) = findings_of(tmp_path, text, "GZI505")
    assert "<xU> = -51.3 < 0" in found.message


@pytest.mark.parametrize("vehicle", ["eca_a9", "rexrov"])
def test_gzi506_explicit_added_mass_larger_than_the_rigid(vehicle: str, tmp_path: Path) -> None:
    block, mass, inertia, text = {
        "eca_a9": (ECA_A9_LINK, ECA_A9_MASS, ECA_A9_INERTIA,
                   uuv_model(ECA_A9_LINK, ECA_A9_MASS, ECA_HULL, ECA_A9_INERTIA,
                             collision_pose=ECA_POSE)),
        "rexrov": (REXROV_LINK, REXROV_MASS, REXROV_INERTIA, _rexrov(tmp_path)),
    }[vehicle]
    added = np.diag(_matrix(block, "added_mass"))
    rigid = np.array([mass, mass, mass, *inertia])
    over = [axis for axis, a, r in zip("uvwpqr", added, rigid, strict=True) if a > r]
    (found,) = findings_of(tmp_path, text, "GZI506")
    assert over  # ECA A9: v, w (95, 75 > 69.7); RexROV: w (3659.9 > 1862.87)
    for axis in over:
        assert f"{axis}: added" in found.message
    np.testing.assert_allclose(found.values["rigid_diagonal"], rigid)


def test_gzi506_gz_sim_hydrodynamics_too(tmp_path: Path) -> None:
    text = ('<sdf version="1.9"><model name="auv"><link name="body"><inertial><mass>10</mass>'
            "<inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>"
            '<plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">'
            "<link_name>body</link_name><xDotU>-12</xDotU><yDotV>-5</yDotV></plugin>"
            "</model></sdf>")
    (found,) = findings_of(tmp_path, text, "GZI506")
    assert "u: added 12 > rigid 10" in found.message and "v:" not in found.message


def test_gzi507_a_block_the_plugin_refuses_is_reported_not_skipped(tmp_path: Path) -> None:
    block = LAUV_LINK.replace("-2.4 0 0 0 0 0  0 -23", "-2.4 0 0 0 0 0  0")  # 35 values
    text = uuv_model(block, LAUV_MASS, LAUV_HULL)
    (found,) = findings_of(tmp_path, text, "GZI507")
    line = next(n for n, s in enumerate(text.splitlines(), 1) if "<linear_damping>" in s)
    assert found.line == line and "35 values" in found.message
    assert findings_of(tmp_path, uuv_model(LAUV_LINK, LAUV_MASS, LAUV_HULL), "GZI507") == []


def test_findings_in_xacro_name_the_line_where_the_block_is_written(tmp_path: Path) -> None:
    """Through a macro in an included file, with a xacro argument: the finding names the
    included file's line of the <link> block (not a line of the expansion)."""
    macro = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
             '<xacro:macro name="hydro" params="ns">\n<gazebo>\n'
             '<plugin name="p" filename="libuuv_underwater_object_ros_plugin.so">\n'
             + REXROV_LINK.replace('name="base_link"', 'name="${ns}/base_link"')
             + "\n</plugin>\n</gazebo>\n</xacro:macro>\n</robot>\n")
    (tmp_path / "hydro.xacro").write_text(macro)
    robot = ('<robot name="rov" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
             '<xacro:arg name="ns" default="rexrov"/>\n'
             '<xacro:include filename="hydro.xacro"/>\n'
             '<link name="$(arg ns)/base_link"><inertial>'
             f'<mass value="{REXROV_MASS}"/><inertia ixx="{REXROV_INERTIA[0]}" ixy="0" '
             f'ixz="0" iyy="{REXROV_INERTIA[1]}" iyz="0" izz="{REXROV_INERTIA[2]}"/>'
             "</inertial></link>\n"
             '<xacro:hydro ns="$(arg ns)"/>\n</robot>\n')
    path = tmp_path / "rov.urdf.xacro"
    path.write_text(robot)
    from audit_helpers import run

    found = [f for f in run([path]).findings if f.code == "GZI501"]
    assert len(found) == 1
    line = next(n for n, s in enumerate(macro.splitlines(), 1) if "<added_mass>" in s)
    assert Path(found[0].file).name == "hydro.xacro" and found[0].line == line
    assert found[0].link is not None and found[0].link.endswith("rexrov/base_link")


def test_a_world_matches_each_plugin_with_its_own_models_link(tmp_path: Path) -> None:
    """Two models with a ``base_link`` each in one world: the heavy one's plugin is judged
    against the heavy one's mass (no GZI506), the light one's against its own."""
    heavy = uuv_model(ECA_A9_LINK, 1000.0, ECA_HULL, (100.0, 100.0, 100.0))
    light = uuv_model(ECA_A9_LINK, ECA_A9_MASS, ECA_HULL, ECA_A9_INERTIA)

    def body(text: str, name: str) -> str:
        inner = text.split('<model name="vehicle">', 1)[1].rsplit("</model>", 1)[0]
        return f'<model name="{name}">{inner}</model>'

    world = (f'<sdf version="1.9"><world name="w">{body(heavy, "heavy")}'
             f'{body(light, "light")}</world></sdf>')
    found = findings_of(tmp_path, world, "GZI506")
    assert [f.link for f in found] == ["light::base_link"]


def test_gzi508_says_what_the_plugin_ignores(tmp_path: Path) -> None:
    """LAUV's 36 quadratic values: only the diagonal acts; a scaling tag is never read."""
    quad = _matrix(LAUV_LINK, "quadratic_damping")
    assert np.any(quad != np.diag(np.diag(quad)))  # the published block has couplings
    block = LAUV_LINK.replace("<type>fossen</type>",
                              "<type>fossen</type><scaling_damping>2</scaling_damping>")
    (found,) = findings_of(tmp_path, uuv_model(block, LAUV_MASS, LAUV_HULL), "GZI508")
    assert "only the diagonal" in found.message and "<scaling_damping>" in found.message
    assert findings_of(tmp_path, _rexrov(tmp_path), "GZI508") == []
