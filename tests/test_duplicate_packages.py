"""Two ROS packages of one name: the copy ROS takes, and said (issue 25 item 9).

Plankton's ROS 2 port of ``uuv_gazebo_ros_plugins`` sits beside UUV Simulator's in a
workspace of both. ROS's rule, which gzinertia follows: ROS 2 (``ament_index_python``) returns
the first prefix of ``AMENT_PREFIX_PATH`` whose resource index lists the package (the overlay
before the underlay); ROS 1 (``rospack``) the first folder of ``ROS_PACKAGE_PATH``. The oracle
for ROS 2 is a re-implementation of ``ament_index_python``'s ``get_package_share_directory``
from its source (``get_search_paths`` / ``get_resource``, below). Whichever copy is taken, the
text and JSON of ``show`` and a GZI405 finding of the audit say which, and where the others are.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from audit_helpers import run
from conftest import run_cli

from gzinertia.urdf.ros_packages import find_package, package_copies

#: ``ament_index_python.constants.RESOURCE_INDEX_SUBFOLDER``.
RESOURCE_INDEX_SUBFOLDER = os.path.join("share", "ament_index", "resource_index")


def ament_package_share_directory(name: str) -> str:
    """``ament_index_python.get_package_share_directory(name)``: the first prefix of
    ``AMENT_PREFIX_PATH`` (those that exist, in order) holding
    ``share/ament_index/resource_index/packages/<name>``, joined with ``share/<name>``."""
    prefixes = [p for p in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep)
                if p and os.path.exists(p)]
    for prefix in prefixes:
        if os.path.isfile(os.path.join(prefix, RESOURCE_INDEX_SUBFOLDER, "packages", name)):
            return os.path.join(prefix, "share", name)
    raise LookupError(name)


MACRO = """<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="thruster_mass" value="{mass}"/>
</robot>
"""

VEHICLE = """<robot name="auv" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find uuv_gazebo_ros_plugins)/urdf/thruster.xacro"/>
  <link name="thruster">
    <inertial><mass value="${thruster_mass}"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
</robot>
"""


def _installed(prefix: Path, mass: float) -> Path:
    """An installed ROS 2 package ``uuv_gazebo_ros_plugins`` under ``prefix`` (its share folder
    and its resource-index marker) whose macro file sets ``thruster_mass``."""
    share = prefix / "share" / "uuv_gazebo_ros_plugins"
    (share / "urdf").mkdir(parents=True)
    (share / "package.xml").write_text("<package><name>uuv_gazebo_ros_plugins</name></package>")
    (share / "urdf" / "thruster.xacro").write_text(MACRO.format(mass=mass))
    index = prefix / RESOURCE_INDEX_SUBFOLDER / "packages"
    index.mkdir(parents=True)
    (index / "uuv_gazebo_ros_plugins").write_text("")
    return share


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """(the vehicle xacro, the overlay's copy, the underlay's copy); AMENT_PREFIX_PATH lists
    the overlay first, as sourcing a workspace over another does."""
    overlay = _installed(tmp_path / "plankton_ws" / "install", 0.5)
    underlay = _installed(tmp_path / "uuv_ws" / "install", 2.0)
    monkeypatch.setenv("AMENT_PREFIX_PATH", os.pathsep.join(
        [str(tmp_path / "plankton_ws" / "install"), str(tmp_path / "uuv_ws" / "install")]))
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    vehicle = tmp_path / "auv.urdf.xacro"
    vehicle.write_text(VEHICLE)
    return vehicle, overlay, underlay


def test_the_copy_taken_is_the_one_ament_index_takes(
    workspace: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _, overlay, underlay = workspace
    assert find_package("uuv_gazebo_ros_plugins") == Path(
        ament_package_share_directory("uuv_gazebo_ros_plugins")) == overlay
    assert package_copies("uuv_gazebo_ros_plugins") == [overlay.resolve(), underlay.resolve()]
    # the other order: the other copy, for both
    monkeypatch.setenv("AMENT_PREFIX_PATH", os.pathsep.join(
        [str(tmp_path / "uuv_ws" / "install"), str(tmp_path / "plankton_ws" / "install")]))
    assert find_package("uuv_gazebo_ros_plugins") == Path(
        ament_package_share_directory("uuv_gazebo_ros_plugins")) == underlay


def test_ros1_takes_the_first_folder_of_ros_package_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rospack: the first folder of ROS_PACKAGE_PATH holding the package; within one folder
    gzinertia takes the shallowest copy, then the first by folder name, and says so."""
    for where in ("b/src/pkg", "a/deep/src/pkg", "a/src/pkg", "a/src/zz/pkg"):
        (tmp_path / where).mkdir(parents=True)
        (tmp_path / where / "package.xml").write_text("<package><name>pkg</name></package>")
    monkeypatch.delenv("AMENT_PREFIX_PATH", raising=False)
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{tmp_path / 'b'}{os.pathsep}{tmp_path / 'a'}")
    assert find_package("pkg") == tmp_path / "b/src/pkg"
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}")
    assert find_package("pkg") == tmp_path / "a/src/pkg"
    assert package_copies("pkg") == [(tmp_path / w).resolve() for w in (
        "a/src/pkg", "a/deep/src/pkg", "a/src/zz/pkg", "b/src/pkg")]


def test_show_reads_the_copy_taken_and_says_which(
    workspace: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    vehicle, overlay, underlay = workspace
    code, out, err = run_cli(["show", str(vehicle), "--json"], capsys)
    assert code == 0, err
    summary = json.loads(out)
    assert [lk["mass"] for lk in summary["links"]] == [0.5]  # the overlay's macro
    [note] = [n for n in summary["notes"] if n["code"] == "duplicate-package"]
    assert note["line"] == 2 and note["level"] == "warning"
    assert str(overlay.resolve()) in note["message"] and str(underlay.resolve()) in note["message"]
    code, out, err = run_cli(["show", str(vehicle)], capsys)
    assert code == 0, err
    text = " ".join(out.split())
    assert "'uuv_gazebo_ros_plugins' is found 2 times: took" in text


def test_the_audit_finds_it_at_the_find(workspace: tuple[Path, Path, Path]) -> None:
    vehicle, overlay, underlay = workspace
    [found] = [f for f in run([vehicle]).findings if f.code == "GZI405"]
    assert (found.file, found.line, found.severity) == (str(vehicle), 2, "warning")
    assert found.values["taken"] == str(overlay.resolve())
    assert found.values["others"] == str(underlay.resolve())


def test_one_copy_is_no_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _installed(tmp_path / "ws" / "install", 1.0)
    monkeypatch.setenv("AMENT_PREFIX_PATH", str(tmp_path / "ws" / "install"))
    vehicle = tmp_path / "auv.urdf.xacro"
    vehicle.write_text(VEHICLE)
    assert [f for f in run([vehicle]).findings if f.code == "GZI405"] == []
