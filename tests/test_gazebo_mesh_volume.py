"""Gazebo's mesh volume as gz-common computes it: the sum over submeshes of |signed volume|
(issue 24 item 6), against a test re-implementation of gz-common's ``Mesh::Volume``
(:mod:`oracles.gz_common_mesh`) on split meshes: OBJ groups, objects and materials, several
COLLADA ``<triangles>`` blocks, random splits; and what hydrostatics and the audit say of it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from audit_helpers import findings_of
from oracles.gz_common_mesh import mesh_volume
from test_collada import XYZ, _floats, collada
from test_hostile_files import run_cli_limited

from gzinertia.physics.collision_volume import gazebo_mesh_volume

G = 9.8


def cube_at_x2() -> trimesh.Trimesh:
    """The closed unit cube x ∈ [2, 3], y, z ∈ [0, 1], outward wound."""
    return trimesh.creation.box(extents=(1, 1, 1)).apply_translation((2.5, 0.5, 0.5))


def write_obj(path: Path, mesh: trimesh.Trimesh, groups: list[list[int]],
              keyword: str = "g", materials: list[str] | None = None) -> Path:
    """``mesh`` as OBJ, its faces in ``groups`` (face indices), each after a ``keyword``
    line (``g``, ``o``, or ``usemtl`` with ``materials`` defined in a ``.mtl`` beside it)."""
    lines = []
    if materials is not None:
        (path.parent / "m.mtl").write_text("".join(f"newmtl {m}\nKd 1 1 1\n" for m in materials))
        lines.append("mtllib m.mtl")
    lines += [f"v {float(x)!r} {float(y)!r} {float(z)!r}" for x, y, z in np.asarray(mesh.vertices)]
    for k, group in enumerate(groups):
        name = materials[k % len(materials)] if materials else f"part{k}"
        lines.append(f"{keyword} {name}")
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(mesh.faces)[group]]
    path.write_text("\n".join(lines) + "\n")
    return path


def write_dae(path: Path, mesh: trimesh.Trimesh, groups: list[list[int]]) -> Path:
    """``mesh`` as one COLLADA geometry with a ``<triangles>`` block per group."""
    v = np.asarray(mesh.vertices)
    blocks = "".join(
        f'<triangles count="{len(g)}"><input semantic="VERTEX" source="#g-v" offset="0"/>'
        f"<p>{' '.join(str(i) for i in np.asarray(mesh.faces)[g].ravel())}</p></triangles>"
        for g in groups
    )
    geometry = (
        f'<geometry id="g"><mesh><source id="g-p"><float_array id="g-pa" count="{v.size}">'
        f'{_floats(v)}</float_array><technique_common><accessor source="#g-pa" '
        f'count="{len(v)}" stride="3">{XYZ}</accessor></technique_common></source>'
        '<vertices id="g-v"><input semantic="POSITION" source="#g-p"/></vertices>'
        f"{blocks}</mesh></geometry>"
    )
    nodes = '<node id="n"><instance_geometry url="#g"/></node>'
    path.write_text(collada(geometry, nodes))
    return path


def x2_face_apart(mesh: trimesh.Trimesh) -> list[list[int]]:
    """Two groups: the faces on the plane x = 2, and the rest."""
    on_x2 = np.all(np.isclose(np.asarray(mesh.triangles)[:, :, 0], 2.0), axis=1)
    return [list(np.flatnonzero(~on_x2)), list(np.flatnonzero(on_x2))]


def test_the_cube_at_x2_as_two_obj_groups_is_seven_thirds_as_gz_common_computes(
    tmp_path: Path,
) -> None:
    mesh = cube_at_x2()
    path = write_obj(tmp_path / "cube.obj", mesh, x2_face_apart(mesh))
    oracle = mesh_volume(path)
    assert gazebo_mesh_volume(str(path)) == pytest.approx(oracle, rel=1e-12)
    # the closed form of the oracle's rule: |1 + 1/3 + 1/3| for the five faces, |-2/3| for x = 2
    assert oracle == pytest.approx(7.0 / 3.0, rel=1e-12)
    assert mesh.volume == pytest.approx(1.0)  # the solid's


@pytest.mark.parametrize("keyword", ["g", "o"])
def test_obj_groups_and_objects_are_submeshes(tmp_path: Path, keyword: str) -> None:
    mesh = trimesh.creation.icosphere(2, radius=0.7).apply_translation((1.5, -2.0, 0.8))
    # slabs across the direction to the origin: the near side's faces apart from the far side's
    order = np.argsort(np.asarray(mesh.triangles_center) @ np.array([1.5, -2.0, 0.8]))
    groups = [list(g) for g in np.array_split(order, 4)]
    path = write_obj(tmp_path / "split.obj", mesh, groups, keyword)
    oracle = mesh_volume(path)
    assert gazebo_mesh_volume(str(path)) == pytest.approx(oracle, rel=1e-12)
    assert oracle > 1.2 * mesh.volume  # the split counts more than the solid here


def test_obj_materials_split_only_when_the_mtl_defines_them(tmp_path: Path) -> None:
    mesh = cube_at_x2()
    groups = x2_face_apart(mesh)
    (tmp_path / "a").mkdir()
    defined = write_obj(tmp_path / "a" / "cube.obj", mesh, groups, "usemtl", ["red", "blue"])
    assert gazebo_mesh_volume(str(defined)) == pytest.approx(mesh_volume(defined), rel=1e-12)
    assert mesh_volume(defined) == pytest.approx(7.0 / 3.0)
    # the same file without its .mtl: every usemtl names id -1, one submesh, the solid's volume
    (tmp_path / "b").mkdir()
    undefined = tmp_path / "b" / "cube.obj"
    undefined.write_text(defined.read_text())
    assert gazebo_mesh_volume(str(undefined)) == pytest.approx(mesh_volume(undefined), rel=1e-12)
    assert mesh_volume(undefined) == pytest.approx(1.0)


def test_several_collada_triangles_blocks_are_submeshes(tmp_path: Path) -> None:
    mesh = cube_at_x2()
    path = write_dae(tmp_path / "cube.dae", mesh, x2_face_apart(mesh))
    assert gazebo_mesh_volume(str(path)) == pytest.approx(mesh_volume(path), rel=1e-12)
    assert mesh_volume(path) == pytest.approx(7.0 / 3.0)


@pytest.mark.parametrize("seed", range(12))
def test_random_splits_agree_with_the_re_implementation(tmp_path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    mesh = trimesh.creation.box(extents=rng.uniform(0.2, 2.0, 3))
    if seed % 2:
        mesh = trimesh.creation.icosphere(1, radius=rng.uniform(0.2, 1.0))
    mesh.apply_transform(trimesh.transformations.random_rotation_matrix(rng.random(3)))
    mesh.apply_translation(rng.uniform(-3.0, 3.0, 3))
    parts = int(rng.integers(1, 6))
    labels = rng.integers(0, parts, len(mesh.faces))
    groups = [list(np.flatnonzero(labels == k)) for k in range(parts)]
    kind = ["g", "o", "usemtl", "dae"][seed % 4]
    if kind == "dae":
        path = write_dae(tmp_path / "m.dae", mesh, groups)
    else:
        path = write_obj(tmp_path / "m.obj", mesh, groups, kind,
                         ["a", "b", "c"] if kind == "usemtl" else None)
    oracle = mesh_volume(path)
    assert gazebo_mesh_volume(str(path)) == pytest.approx(oracle, rel=1e-12)
    assert oracle >= mesh.volume * (1 - 1e-12)


def cube_world(tmp_path: Path, mass: float = 1500.0) -> Path:
    mesh = cube_at_x2()
    write_obj(tmp_path / "cube.obj", mesh, x2_face_apart(mesh))
    body = sdf.link("body", sdf.inertial(mass, np.eye(3) * mass / 6.0), sdf.mesh("cube.obj"))
    return sdf.write(tmp_path, sdf.world(sdf.buoyancy_plugin(1000.0),
                                         sdf.nested_model("cube", body)), "world.sdf")


def test_the_split_cube_rises_in_gazebo_and_hydrostatics_says_so_beside_the_exact(
    tmp_path: Path,
) -> None:
    path = cube_world(tmp_path)
    V_gz = mesh_volume(tmp_path / "cube.obj")
    proc = run_cli_limited(["hydrostatics", "--json", str(path)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    model = json.loads(proc.stdout)["models"][0]
    assert model["volume"] == pytest.approx(V_gz, rel=1e-12)
    assert model["volume_exact"] == pytest.approx(1.0, rel=1e-9)
    assert model["buoyancy"] == pytest.approx(1000.0 * V_gz * G, rel=1e-12)
    assert model["net"] > 0  # 22.9 kN against 14.7 kN
    gazebo_vs_exact = model["gazebo_vs_exact"]
    assert gazebo_vs_exact["volume"]["gazebo"] == pytest.approx(V_gz, rel=1e-12)
    assert gazebo_vs_exact["volume"]["exact"] == pytest.approx(1.0, rel=1e-9)
    assert gazebo_vs_exact["volume"]["difference"] == pytest.approx(V_gz - 1.0, rel=1e-9)
    assert gazebo_vs_exact["buoyancy"]["difference"] == pytest.approx(
        1000.0 * G * (V_gz - 1.0), rel=1e-9)
    proc = run_cli_limited(["hydrostatics", str(path)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "rises" in text
    assert "Gazebo" in text and "exact" in text and "submeshes" in text


def test_the_audit_says_the_split_cube_rises_and_why_gazebo_counts_more(tmp_path: Path) -> None:
    path = cube_world(tmp_path)
    text = path.read_text()
    (net,) = findings_of(tmp_path, text, "GZI302")
    assert "rises" in net.message
    assert net.values["buoyancy"] == pytest.approx(
        1000.0 * mesh_volume(tmp_path / "cube.obj") * G, rel=1e-12)
    (differs,) = findings_of(tmp_path, text, "GZI305")
    assert "submeshes" in differs.message and "cube.obj" in differs.message


def test_split_pieces_that_each_face_away_from_the_origin_add_nothing(tmp_path: Path) -> None:
    """The twin: a cube centred on the file's origin, in two groups: every face's tetrahedron
    is positive, so gz-common's sum is the solid's volume; no GZI305, no difference shown."""
    mesh = trimesh.creation.box(extents=(1, 1, 1))
    write_obj(tmp_path / "cube.obj", mesh, x2_face_apart(mesh.copy().apply_translation(
        (2.5, 0.5, 0.5))))
    body = sdf.link("body", sdf.inertial(1500.0, np.eye(3) * 250.0), sdf.mesh("cube.obj"))
    path = sdf.write(tmp_path, sdf.world(sdf.buoyancy_plugin(1000.0),
                                         sdf.nested_model("cube", body)), "world.sdf")
    assert mesh_volume(tmp_path / "cube.obj") == pytest.approx(1.0, rel=1e-12)
    assert findings_of(tmp_path, path.read_text(), "GZI305") == []
    proc = run_cli_limited(["hydrostatics", "--json", str(path)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    model = json.loads(proc.stdout)["models"][0]
    assert model["volume"] == pytest.approx(model["volume_exact"], rel=1e-12)
    assert model["gazebo_vs_exact"]["volume"]["difference"] == pytest.approx(0.0, abs=1e-12)
    assert model["differences"] == []
