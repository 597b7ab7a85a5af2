"""GZI003: a collision mesh that is missing (not found, a git-lfs pointer, a package not on the
path), unreadable, empty or refused gets a finding naming the link, the collision and the
file, so "No findings" never hides a link the geometry rules could not judge (issue 24
item 4). Each case against its twin with the mesh in place."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from audit_helpers import findings_of
from test_hostile_files import run_cli_limited

LFS_POINTER = (
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    "size 684\n"
)


def hull_model(uri: str = "meshes/hull.stl") -> str:
    return sdf.model(sdf.link("hull", sdf.inertial(20.0, np.eye(3)), sdf.mesh(uri, name="c")),
                     name="auv")


def write_hull(folder: Path) -> Path:
    (folder / "meshes").mkdir(parents=True, exist_ok=True)
    path = folder / "meshes" / "hull.stl"
    trimesh.creation.capsule(height=1.0, radius=0.1).export(path)
    return path


def test_a_missing_mesh_is_a_finding_and_the_twin_with_the_file_is_not(tmp_path: Path) -> None:
    (found,) = findings_of(tmp_path / "m", hull_model(), "GZI003")
    assert found.link == "auv::hull" and found.line == 4
    assert "'c'" in found.message and "meshes/hull.stl" in found.message
    assert "not found" in found.message and "GZI105" in found.message
    assert found.values["problem"] == "not-found" and found.values["path"] is None
    write_hull(tmp_path / "t")
    assert findings_of(tmp_path / "t", hull_model(), "GZI003") == []


def test_a_git_lfs_pointer_is_missing_git_lfs_pointer(tmp_path: Path) -> None:
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "hull.stl").write_text(LFS_POINTER)
    (found,) = findings_of(tmp_path, hull_model(), "GZI003")
    assert "missing: git-lfs pointer" in found.message and "git lfs pull" in found.message
    assert found.values["problem"] == "git-lfs-pointer"
    assert found.values["path"] == str(tmp_path / "meshes" / "hull.stl")


def test_a_package_not_on_the_path_says_so(tmp_path: Path) -> None:
    (found,) = findings_of(tmp_path, hull_model("package://auv_description/meshes/hull.stl"),
                           "GZI003")
    assert "package path" in found.message and found.values["problem"] == "not-found"


@pytest.mark.parametrize("content, words", [
    (b"", "bytes"),                                   # empty
    (b"\x00" * 90, "binary STL"),                     # a lying binary STL: refused
    (b"solid x\nendsolid x\n", "no triangles"),       # no triangles
    (b"PK\x03\x04" + b"\x00" * 100, "ZIP"),           # an archive: refused
])
def test_unreadable_empty_and_refused_meshes(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "hull.stl").write_bytes(content)
    (found,) = findings_of(tmp_path, hull_model(), "GZI003")
    assert words in found.message and found.values["problem"] == "unusable", found.message


def test_a_flat_mesh_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "meshes").mkdir()
    plate = trimesh.Trimesh(vertices=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
                            faces=[[0, 1, 2], [1, 3, 2]])
    plate.export(tmp_path / "meshes" / "hull.stl")
    (found,) = findings_of(tmp_path, hull_model(), "GZI003")
    assert "flat" in found.message


def test_the_audit_never_says_no_findings_over_a_missing_mesh(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, hull_model())
    proc = run_cli_limited(["audit", str(path)], cwd=tmp_path)
    assert "No findings" not in proc.stdout
    assert "GZI003" in proc.stdout and "meshes/hull.stl" in proc.stdout
    write_hull(tmp_path)
    proc = run_cli_limited(["audit", "--select", "GZI003", str(path)], cwd=tmp_path)
    assert proc.returncode == 0 and "No findings" in proc.stdout, proc.stdout
