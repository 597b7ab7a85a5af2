"""Issue 24 item 3: what CAD exports is repaired, and what cannot be closed is refused, said.

A generated hull (an ellipsoid-like surface) written with the defects CAD exports have:
every triangle's corners written separately and off by a few hundred nanometres (duplicated
vertices), some triangles wound the wrong way, a small hole (one vertex's fan missing) and a
T-junction (an edge split on one side only). Oracles: the same hull written clean, solved by the
same BEM (the repaired solve is within its own reported error of it) and its volume (the
repaired surface differs only by the fan that fills the hole); the repairs are counted in the
solid's note. A surface with an opening far larger than any hole is refused in one line naming
the file and the flag that proceeds (``--hull convex``), and proceeds with it, said.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from conftest import run_cli

from gzinertia.physics.shapes import mesh_solid
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose

DENSITY = 1000.0
SEMI_AXES = (0.5, 0.15, 0.12)


def _clean_hull() -> trimesh.Trimesh:
    hull = trimesh.creation.icosphere(subdivisions=3, radius=1.0)
    hull.apply_scale(SEMI_AXES)
    return hull


def _with_cad_defects(hull: trimesh.Trimesh) -> tuple[np.ndarray, np.ndarray, float]:
    """``hull``'s vertices and faces with a T-junction, a one-vertex hole and 12 flipped
    triangles (shared vertices still), and the area of the triangles the hole removed."""
    v = np.asarray(hull.vertices, dtype=float)
    f = [list(map(int, t)) for t in hull.faces]
    # the T-junction: the edge a->b of face 0 split at its midpoint on that side only
    a, b, c = f[0]
    m = len(v)
    v = np.vstack([v, 0.5 * (v[a] + v[b])])
    f[0] = [a, m, c]
    f.append([m, b, c])
    # the hole: every triangle around the vertex farthest from face 0's corners
    far = int(np.argmax(np.linalg.norm(v[:m] - v[a], axis=1)))
    around = [i for i, t in enumerate(f) if far in t]
    area = float(trimesh.triangles.area(v[np.asarray([f[i] for i in around])]).sum())
    f = [t for i, t in enumerate(f) if i not in set(around)]
    # the flipped triangles: twelve away from both (their corners' y > 0.1)
    flipped = [i for i, t in enumerate(f) if np.all(v[t, 1] > 0.1)][:12]
    assert len(flipped) == 12
    for i in flipped:
        f[i] = f[i][::-1]
    return v, np.asarray(f), area


def _write_obj_unwelded(path: Path, vertices: np.ndarray, faces: np.ndarray,
                        rng: np.random.Generator) -> None:
    """Each triangle with its own three corners, each moved by up to 3e-7 m (as CAD writes
    them in single precision): vertices no exact merge joins."""
    lines = []
    for k, face in enumerate(faces):
        for corner in vertices[face]:
            x, y, z = corner + rng.uniform(-3e-7, 3e-7, size=3)
            lines.append(f"v {x:.12f} {y:.12f} {z:.12f}")
        lines.append(f"f {3 * k + 1} {3 * k + 2} {3 * k + 3}")
    path.write_text("\n".join(lines) + "\n")


def _collision(path: Path) -> Collision:
    return Collision("hull", Pose(np.zeros(3), np.eye(3)), Geometry("mesh", mesh_path=str(path)),
                     SourceRef("m.sdf", 1))


@pytest.fixture
def defective(tmp_path: Path, rng: np.random.Generator) -> tuple[Path, Path, float]:
    """The clean hull's STL, the defective hull's OBJ and the area its hole removed."""
    clean = _clean_hull()
    clean_path = tmp_path / "clean.stl"
    clean.export(clean_path)
    v, f, area = _with_cad_defects(clean)
    broken = trimesh.Trimesh(v, f, process=False)
    assert not broken.is_watertight and not broken.is_winding_consistent
    broken_path = tmp_path / "broken.obj"
    _write_obj_unwelded(broken_path, v, f, rng)
    return clean_path, broken_path, area


def test_cad_defects_are_repaired_and_counted(defective: tuple[Path, Path, float]) -> None:
    """The defective hull becomes a solid whose volume is the clean hull's but for the fan that
    fills the hole (at most the removed triangles' area times the hull's largest semi-axis, a
    generous bound on the cap between them), and the note counts each repair."""
    clean_path, broken_path, area = defective
    clean, repaired = mesh_solid(str(clean_path)), mesh_solid(str(broken_path))
    assert abs(repaired.volume - clean.volume) <= area * max(SEMI_AXES)
    note = repaired.approximation
    assert note is not None
    for said in ("vertices welded", "T-junctions split", "triangles flipped",
                 "1 small holes filled"):
        assert said in note, note
    assert "convex hull" not in note


def test_cad_defects_are_solved_within_the_reported_error_of_the_clean_hull(
    defective: tuple[Path, Path, float],
) -> None:
    """The BEM of the repaired hull is within its own reported error of the BEM of the clean
    hull (the same solver on the surface CAD should have written)."""
    pytest.importorskip("capytaine")
    pytest.importorskip("manifold3d")
    from gzinertia.physics.bem import bem_added_mass

    clean_path, broken_path, _ = defective
    clean = bem_added_mass([_collision(clean_path)], DENSITY, quality="fast", use_cache=False)
    repaired = bem_added_mass([_collision(broken_path)], DENSITY, quality="fast",
                              use_cache=False)
    difference = np.abs(repaired.A_BBo_B.linear_first() - clean.A_BBo_B.linear_first())
    assert np.all(difference <= repaired.error_bound), (difference, repaired.error_bound)


def test_a_surface_that_cannot_be_closed_is_refused_with_the_flag_to_proceed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hull with its front third cut away: ``addmass --bem`` refuses it in one line naming
    the file, why (not closed) and ``--hull convex``, writing nothing; with ``--hull convex``
    it solves the convex hull and the comment written says so."""
    pytest.importorskip("capytaine")
    pytest.importorskip("manifold3d")
    hull = _clean_hull()
    hull.update_faces(hull.triangles_center[:, 0] < 0.2)
    stl = tmp_path / "cut.stl"
    hull.export(stl)
    path = tmp_path / "m.sdf"
    path.write_text(sdf.model(sdf.link("body", sdf.inertial(30.0, np.diag([1.0, 1.0, 1.0]),
                                                              posed=False),
                                        sdf.mesh(stl.name, name="hull")),
                              version="1.10", name="rov"))
    old = path.read_bytes()
    command = ["addmass", str(path), "--bem", "--quality", "fast", "--in-place"]
    code, _, err = run_cli(command, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("gzinertia: error:") and "cut.stl" in lines[0]
    assert "not closed" in lines[0] and "--hull convex" in lines[0], lines[0]
    assert path.read_bytes() == old
    code, out, err = run_cli([*command, "--hull", "convex"], capsys)
    assert code == 0, err
    assert "convex hull" in out + err  # said on the terminal
    assert "geometry of hull: convex hull" in path.read_text()  # and in the comment written
