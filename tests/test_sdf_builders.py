"""The SDF builders write the frames they are asked for: every frame construct of
:mod:`sdf_builders` (``<pose relative_to>``, ``<frame attached_to>``, ``<joint>`` with its pose,
``__model__``, nested models and ``<include>`` posed ``relative_to`` a frame with a
``<placement_frame>``, ``model.config``) in one world, read by libsdformat (the compiled oracle)
without an error, and every link where the poses, composed here with scipy's rotations, put it;
the reader agrees."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation
from sdf_builders import (
    MODEL_FRAME,
    Pose6,
    frame,
    include,
    inertial,
    joint,
    link,
    model,
    model_config,
    nested_model,
    one_element_per_line,
    one_line,
    pose,
    world,
    write,
)

from gzinertia.sdf import read_sdf_file

X_WD: Pose6 = (40.0, 25.0, 0.0, 0.0, 0.0, 0.6)  # the world frame "dock"
X_DBerth: Pose6 = (12.0, -6.0, 0.0, 0.0, 0.0, 1.2)  # "berth", attached to the dock
X_DBoat: Pose6 = (1.0, 2.0, -0.5, 0.1, 0.0, -0.3)  # the nested model "boat", relative to the dock
X_BoatHull: Pose6 = (0.5, 0.0, 0.2, 0.0, 0.2, 0.0)
X_HullFin: Pose6 = (-0.4, 0.1, 0.0, 0.3, 0.0, 0.0)  # "fin", relative to "hull"
X_PartBody: Pose6 = (0.2, 0.1, 0.3, 0.0, 0.0, 0.4)  # in the included model "part"
X_BodyMount: Pose6 = (0.0, 0.0, 0.5, 0.0, 0.3, 0.0)  # its frame "mount", attached to "body"
X_BerthMount: Pose6 = (3.0, 0.0, -1.0, 0.0, 0.0, 0.5)  # where the include puts "mount"


def _matrix(values: Pose6) -> np.ndarray:
    """The 4x4 transform of a ``<pose>`` (fixed-axis roll-pitch-yaw: ``R = Rz·Ry·Rx``)."""
    X = np.eye(4)
    X[:3, :3] = Rotation.from_euler("xyz", values[3:]).as_matrix()
    X[:3, 3] = values[:3]
    return X


def _world(tmp_path: Path) -> Path:
    part = model(
        link("body", inertial(2.0, np.eye(3)), pose=X_PartBody),
        frame("mount", attached_to="body", pose=X_BodyMount),
        version="1.9", name="part",
    )
    write(tmp_path / "models" / "part", part)
    (tmp_path / "models" / "part" / "model.config").write_text(model_config(name="part"))
    boat = nested_model(
        "boat",
        link("hull", inertial(5.0, np.eye(3)), pose=X_BoatHull),
        link("fin", inertial(1.0, np.eye(3)), pose=X_HullFin, relative_to="hull"),
        joint("j", "hull", "fin", type="revolute", pose=(0, 0, 0.1, 0, 0, 0),
              relative_to=MODEL_FRAME, axis=(0, 0, 1)),
        frame("mast", attached_to="hull", pose=(0, 0, 2, 0, 0, 0), relative_to=MODEL_FRAME),
        pose=X_DBoat, relative_to="dock",
    )
    text = world(
        frame("dock", pose=X_WD),
        frame("berth", attached_to="dock", pose=X_DBerth, relative_to="dock"),
        boat,
        include("model://part", "placed", X_BerthMount, relative_to="berth",
                placement_frame="mount"),
        version="1.9",
    )
    return write(tmp_path, text, "world.sdf")


def _expected() -> dict[str, np.ndarray]:
    D = _matrix(X_WD)
    hull = D @ _matrix(X_DBoat) @ _matrix(X_BoatHull)
    mount = D @ _matrix(X_DBerth) @ _matrix(X_BerthMount)
    return {
        "boat::hull": hull,
        "boat::fin": hull @ _matrix(X_HullFin),
        "placed::body": mount @ np.linalg.inv(_matrix(X_BodyMount)),
    }


@pytest.mark.oracle("sdformat")
def test_frame_builders_are_read_by_libsdformat_as_composed(tmp_path: Path) -> None:
    from oracles.sdformat_oracle import read_with_sdformat

    path = _world(tmp_path)
    [oracle] = read_with_sdformat([path], [tmp_path / "models"])
    assert oracle["errors"] == [], oracle["errors"]
    theirs = {
        lk["name"]: np.array(lk["X_WB"], dtype=float).reshape(4, 4) for lk in oracle["links"]
    }
    expected = _expected()
    assert set(theirs) == set(expected)
    ours = {lk.name: lk.X_WB.matrix() for lk in read_sdf_file(path, [tmp_path / "models"]).links}
    for name, X_WB in expected.items():
        np.testing.assert_allclose(theirs[name], X_WB, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(ours[name], X_WB, atol=1e-12, err_msg=name)


def test_pose_forms_and_layouts() -> None:
    """``relative_to`` alone is the empty (identity) pose in that frame; ``None`` values are
    the empty element; the layouts keep the document and move only line breaks."""
    assert pose(None, relative_to="a") == '<pose relative_to="a"/>'
    assert frame("f", relative_to="b") == '<frame name="f"><pose relative_to="b"/></frame>'
    assert link("l") == '<link name="l"></link>'
    assert pose((1, 2, 3, 0, 0, 90), degrees=True) == (
        '<pose degrees="true">1.0 2.0 3.0 0.0 0.0 90.0</pose>')
    text = model(link("a", pose=(1, 0, 0, 0, 0, 0)), link("b"))
    assert text.splitlines()[3].startswith('<link name="a">')  # the first part on line 4
    assert len(one_line(text).splitlines()) == 1
    assert one_line(one_element_per_line(text)) == one_line(text)
