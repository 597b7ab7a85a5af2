"""The ``gzinertia.io`` package (issue 26 item 4): file access on its own floor, beside the words;
physics reading meshes only through an injected :class:`~gzinertia.io.mesh_source.MeshSource`;
the per-process mesh caches keyed on the file's stamp, so that an edited mesh is read again.

Oracles: the closed-form volume and centroid of a box, and Drake's ``UnitInertia.SolidBox``
(:func:`sdf_builders.box_inertia`) for its inertia.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest
from sdf_builders import box_inertia
from test_rule_layout import _modules, import_graph

from gzinertia.io.mesh_source import FILE_MESHES, MeshFileError, MeshRead
from gzinertia.physics.collision_volume import gazebo_mesh_volume
from gzinertia.physics.mesh_body import mesh_body
from gzinertia.physics.shapes import ShapeError, mesh_solid

IO = "gzinertia.io"
#: What the io package may import of gzinertia besides itself: the words.
IO_MAY_IMPORT = ("gzinertia.errors", "gzinertia.record_base", "gzinertia.numbers",
                 "gzinertia.options", "gzinertia.vocabulary", "gzinertia.lazy_face")
#: The io modules that read mesh files; physics reaches them only through the default source.
MESH_READERS = ("gzinertia.io.mesh_files", "gzinertia.io.mesh_trimesh", "gzinertia.io.mesh_collada",
                "gzinertia.io.mesh_submeshes", "gzinertia.io.mesh_text",
                "gzinertia.io.mesh_source")
#: The one import of a mesh reader allowed in physics: the default source, named once.
MESH_ROUTE = {("gzinertia.physics.mesh_load", "gzinertia.io.mesh_source")}


def _under(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def io_upward(graph: nx.DiGraph) -> list[tuple[str, str]]:
    """The imports from the io package to anything of gzinertia but itself and the words."""
    return sorted((a, b) for a, b in graph.edges()
                  if _under(a, (IO,)) and not _under(b, (IO, *IO_MAY_IMPORT)))


def mesh_routes(graph: nx.DiGraph) -> set[tuple[str, str]]:
    """The imports from physics (and the models beside it) to an io mesh reader."""
    models = ("gzinertia.physics", "gzinertia.gazebo", "gzinertia.classic", "gzinertia.spatial")
    return {(a, b) for a, b in graph.edges()
            if _under(a, models) and _under(b, MESH_READERS)}


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph()


# -- the floor ---------------------------------------------------------------------------------


def test_io_imports_nothing_above_the_words(graph: nx.DiGraph) -> None:
    assert {m for m in graph if _under(m, (IO,))} >= {
        "gzinertia.io.safe_read", "gzinertia.io.safe_write", "gzinertia.io.mesh_files",
        "gzinertia.io.limits", "gzinertia.io.result_files", "gzinertia.io.mesh_source"}
    assert io_upward(graph) == []


def test_an_import_from_io_up_is_found() -> None:
    g = nx.DiGraph([("gzinertia.io.mesh_files", "gzinertia.physics.shapes"),
                    ("gzinertia.io.safe_read", "gzinertia.records"),
                    ("gzinertia.io.limits", "gzinertia.errors"),
                    ("gzinertia.io.mesh_text", "gzinertia.io.safe_read")])
    assert io_upward(g) == [("gzinertia.io.mesh_files", "gzinertia.physics.shapes"),
                            ("gzinertia.io.safe_read", "gzinertia.records")]


def test_physics_reaches_mesh_files_through_the_default_source_only(graph: nx.DiGraph) -> None:
    assert mesh_routes(graph) == MESH_ROUTE


def test_a_physics_module_reading_mesh_files_itself_is_found() -> None:
    g = nx.DiGraph([("gzinertia.physics.hydrostatics", "gzinertia.io.mesh_submeshes"),
                    ("gzinertia.physics.mesh_load", "gzinertia.io.mesh_source"),
                    ("gzinertia.physics.bem", "gzinertia.io.cache_folder")])
    assert mesh_routes(g) == {("gzinertia.physics.hydrostatics", "gzinertia.io.mesh_submeshes"),
                              *MESH_ROUTE}


def test_the_package_never_shadows_the_standard_io() -> None:
    """Every import in the package is absolute (a relative ``import io`` cannot bite), and the
    standard library's ``io`` is the one a process gets after importing every io module."""
    names = sorted(m for m in _modules() if _under(m, (IO,)))
    for name in names:
        tree = ast.parse(_modules()[name].read_text(encoding="utf-8"))
        relative = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level]
        assert relative == [], name
    code = "; ".join(f"import {n}" for n in names) + "; import io; print(io.BytesIO.__module__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.strip() == "_io"


# -- an injected mesh source -------------------------------------------------------------------


@dataclass(eq=False)
class BoxSource:
    """Meshes held in memory: one box of full sizes ``size`` centred on the origin, whatever
    the path; ``version`` is its stamp (a test bumps it when it changes the box)."""

    size: tuple[float, float, float]
    version: int = 0
    reads: list[str] = field(default_factory=list)

    def _mesh(self) -> Any:
        import trimesh

        return trimesh.creation.box(extents=self.size)

    def stamp(self, path: str) -> object:
        return (self.size, self.version)

    def read(self, path: str, scale: tuple[float, float, float]) -> MeshRead:
        if path != "box":
            raise MeshFileError(f"mesh {path!r} is not held")
        self.reads.append(path)
        mesh = self._mesh()
        return MeshRead(np.asarray(mesh.vertices) * np.asarray(scale),
                        np.asarray(mesh.faces), ("an in-memory box",))

    def submeshes(self, path: str) -> tuple[Any, ...]:
        mesh = self._mesh()
        return (np.asarray(mesh.vertices)[np.asarray(mesh.faces)],)

    def digest(self, path: str) -> bytes:
        return repr(self.size).encode()


@pytest.mark.parametrize("scale", [(1.0, 1.0, 1.0), (2.0, 0.5, 3.0)])
def test_a_mesh_from_an_in_memory_source_is_the_closed_form_box(
        scale: tuple[float, float, float]) -> None:
    source = BoxSource((0.4, 0.3, 0.2))
    size = tuple(s * k for s, k in zip(source.size, scale, strict=True))
    volume = size[0] * size[1] * size[2]
    solid = mesh_solid("box", scale, source)
    assert solid.volume == pytest.approx(volume, rel=1e-12)
    np.testing.assert_allclose(solid.p_FoFc_F, 0.0, atol=1e-12)
    # at unit density the box's mass is its volume (Drake's unit inertia times it)
    np.testing.assert_allclose(solid.G_FFc_F, box_inertia(volume, size), rtol=1e-12, atol=1e-15)
    assert solid.approximation == "an in-memory box"  # what the source assumed is said


def test_gazebo_mesh_volume_from_an_in_memory_source() -> None:
    source = BoxSource((0.4, 0.3, 0.2))
    assert gazebo_mesh_volume("box", source) == pytest.approx(0.4 * 0.3 * 0.2, rel=1e-12)


def test_a_source_refusing_a_mesh_is_a_shape_error_naming_it() -> None:
    with pytest.raises(ShapeError, match=re.escape("mesh 'hull.stl' is not held")):
        mesh_solid("hull.stl", (1.0, 1.0, 1.0), BoxSource((1.0, 1.0, 1.0)))


def test_the_body_cache_follows_the_sources_stamp() -> None:
    source = BoxSource((1.0, 1.0, 1.0))
    first = mesh_body("box", (1.0, 1.0, 1.0), source)
    assert mesh_body("box", (1.0, 1.0, 1.0), source) is first  # cached while the stamp holds
    assert source.reads == ["box"]
    source.size, source.version = (2.0, 1.0, 1.0), 1
    assert float(mesh_body("box", (1.0, 1.0, 1.0), source).trimesh().volume) == pytest.approx(2.0)


# -- the per-process caches see an edited file -------------------------------------------------


def _write_box(path: Path, size: tuple[float, float, float]) -> None:
    """A binary STL box; its modification time moved 1 s on, so that a filesystem with a
    coarse clock still shows the edit (the byte size of two boxes' STL files is the same)."""
    import trimesh

    before = path.stat().st_mtime_ns if path.exists() else None
    trimesh.creation.box(extents=size).export(path)
    if before is not None:
        os.utime(path, ns=(before + 10**9, before + 10**9))


@pytest.fixture
def box_file(tmp_path: Path) -> Path:
    path = tmp_path / "box.stl"
    _write_box(path, (1.0, 1.0, 1.0))
    return path


def test_the_file_read_cache_sees_an_edited_mesh(box_file: Path) -> None:
    first = FILE_MESHES.read(str(box_file), (1.0, 1.0, 1.0))
    assert FILE_MESHES.read(str(box_file), (1.0, 1.0, 1.0)) is first
    _write_box(box_file, (3.0, 1.0, 1.0))
    again = FILE_MESHES.read(str(box_file), (1.0, 1.0, 1.0))
    assert np.ptp(again.vertices, axis=0) == pytest.approx([3.0, 1.0, 1.0])


def test_the_body_cache_sees_an_edited_mesh(box_file: Path) -> None:
    assert mesh_solid(str(box_file)).volume == pytest.approx(1.0)
    _write_box(box_file, (2.0, 1.0, 1.0))
    assert mesh_solid(str(box_file)).volume == pytest.approx(2.0)
    assert float(mesh_body(str(box_file)).trimesh().volume) == pytest.approx(2.0)


def test_the_submesh_volume_cache_sees_an_edited_mesh(box_file: Path) -> None:
    assert gazebo_mesh_volume(str(box_file)) == pytest.approx(1.0)
    _write_box(box_file, (2.0, 2.0, 1.0))
    assert gazebo_mesh_volume(str(box_file)) == pytest.approx(4.0)
