"""``<inertial auto="true">``: the reader against Drake, which resolves it through libsdformat.

Drake's ``Parser`` runs libsdformat's ``ResolveAutoInertials`` (collision densities, the
``<inertial><density>`` fallback, 1000 kg/m³ by default, rescaling to ``<mass>``) and keeps
the result as the body's spatial inertia, so ``M_BBo_B`` must match it to 1e-12 for random
models with several posed collisions of every primitive kind. Meshes: Gazebo registers its own
calculator with libsdformat and so does Drake; Drake's comes out off by exactly the mesh
centroid's parallel-axis term, which the mesh test pins down. What libsdformat only warns
about, Drake rejects: those cases check the message instead.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import EXAMPLES, rel_err

from gzinertia.physics.shapes import solid_properties
from gzinertia.records import SdfDocument
from gzinertia.sdf import read_sdf_file
from gzinertia.sdf.auto_inertial import DEFAULT_DENSITY
from gzinertia.spatial.inertia import parallel_axis, spatial_inertia_about_origin
from gzinertia.spatial.rotation import rotation_from_rpy, skew

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracles.drake_oracle import DrakeLoad, load_in_drake
from sdf_builders import (
    added_mass_xml,
    auto_inertial,
    box,
    collision,
    inertia_xml,
    link,
    mesh_geometry,
    model,
    plane_geometry,
    pose,
    sphere,
)
from sdfgen import auto_inertial_sdf_for_seed

RTOL = 1e-12
N_BATCHES, BATCH = 2, 20  # 40 random models in the default run
SLOW_SEEDS = range(1000, 1400)  # 400 more with -m slow
SPAR_STL = EXAMPLES / "spar_buoy" / "meshes" / "buoy_hull.stl"


def _close(ours: np.ndarray, ref: np.ndarray) -> bool:
    return bool(np.linalg.norm(ours - ref) <= RTOL * max(1.0, float(np.linalg.norm(ref))))


def _load(text: str, tmp_path: Path, name: str = "m.sdf") -> tuple[SdfDocument, DrakeLoad]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_sdf_file(path), load_in_drake(path)


def _codes(doc: SdfDocument) -> list[str]:
    return [n.code for n in doc.notes]




#: An ``<inertia>`` written inside an auto inertial (libsdformat overwrites it).
INERTIA_7 = inertia_xml(np.diag([7.0, 1.0, 1.0]))


def _model(links: str, version: str = "1.11") -> str:
    """A file of one model ``m`` (SDFormat 1.11: collision densities, auto inertials)."""
    return model(links, version=version)


def _random_models_match_drake(seeds: range, tmp_path: Path) -> None:
    failures = []
    for seed in seeds:
        doc, drake = _load(auto_inertial_sdf_for_seed(seed), tmp_path, f"seed{seed}.sdf")
        assert drake.ok, f"seed {seed}: Drake rejected the generated file: {drake.error}"
        assert drake.links is not None and not drake.excluded, f"seed {seed}: {drake.excluded}"
        ours = {link.name: link for link in doc.links}
        assert set(ours) == set(drake.links), f"seed {seed}: link names differ"
        for name, (X_WB, M_BBo_B) in drake.links.items():
            link = ours[name]
            if not _close(link.M_BBo_B.angular_first(), M_BBo_B):
                failures.append(f"seed {seed} {name}: |ΔM| = "
                                f"{np.linalg.norm(link.M_BBo_B.angular_first() - M_BBo_B):.3g}")
            if not _close(link.X_WB.matrix(), X_WB):
                failures.append(f"seed {seed} {name}: X_WB differs")
    assert not failures, "\n".join(failures)


@pytest.mark.oracle("pydrake")
@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_random_auto_inertial_models_match_drake(batch: int, tmp_path: Path) -> None:
    _random_models_match_drake(range(batch * BATCH, (batch + 1) * BATCH), tmp_path)


@pytest.mark.oracle("pydrake")
@pytest.mark.slow
def test_many_random_auto_inertial_models_match_drake(tmp_path: Path) -> None:
    _random_models_match_drake(SLOW_SEEDS, tmp_path)


@pytest.mark.oracle("pydrake")
def test_density_precedence_and_default(tmp_path: Path) -> None:
    """``<collision><density>`` beats ``<inertial><density>``, which beats 1000 kg/m³."""
    doc, drake = _load(_model(
        link("own", auto_inertial(7.0), box((1, 2, 3), pose=None, density=3))
        + link("link_level", auto_inertial(7.0), box((1, 2, 3), pose=None))
        + link("default", auto_inertial(), box((1, 2, 3), pose=None))
    ), tmp_path)
    assert drake.links is not None
    for name, rho in (("m::own", 3.0), ("m::link_level", 7.0), ("m::default", DEFAULT_DENSITY)):
        inertial = doc.link(name).inertial
        assert rel_err(inertial.mass, rho * 6.0) < 1e-15
        assert _close(doc.link(name).M_BBo_B.angular_first(), drake.links[name][1])
    assert _codes(doc).count("auto-inertial-density") == 1  # only the link with none at all


@pytest.mark.oracle("pydrake")
def test_mass_rescales_the_sum_and_keeps_the_centre_of_mass(tmp_path: Path) -> None:
    """With ``<mass>``: the collision sum's centre of mass, its inertia times m / Σm_C."""
    links = (box((1, 2, 3), pose=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6)),
             sphere(0.5, pose=(-1, 0, 0, 0, 0, 0), name="s", density=500))
    doc, drake = _load(_model(
        link("free", auto_inertial(), *links)
        + link("weighed", auto_inertial(mass=3.0), *links)
    ), tmp_path)
    assert drake.links is not None
    free, weighed = doc.link("m::free").inertial, doc.link("m::weighed").inertial
    assert weighed.mass == 3.0
    np.testing.assert_array_equal(weighed.p_BoBcm_B, free.p_BoBcm_B)
    assert rel_err(weighed.I_BBcm_B, free.I_BBcm_B * (3.0 / free.mass)) < 1e-15
    for name in ("m::free", "m::weighed"):
        assert _close(doc.link(name).M_BBo_B.angular_first(), drake.links[name][1])


@pytest.mark.oracle("pydrake")
def test_result_is_the_posed_solids_summed_in_link_axes(tmp_path: Path) -> None:
    """One rotated box: mass ρV, centre at the collision origin, ``R·ρG·Rᵀ``, no pose rotation."""
    rpy = (0.4, -0.5, 0.6)
    doc, drake = _load(_model(
        link("a", auto_inertial(2.0), box((1, 2, 3), pose=(0.1, 0.2, 0.3, *rpy)))
    ), tmp_path)
    inertial = doc.link("m::a").inertial
    solid = solid_properties(doc.link("m::a").collisions[0].geometry)
    R_BC = rotation_from_rpy(*rpy)
    assert inertial.auto and inertial.mass == 2.0 * solid.volume
    np.testing.assert_array_equal(inertial.R_BI, np.eye(3))
    np.testing.assert_allclose(inertial.p_BoBcm_B, [0.1, 0.2, 0.3], rtol=0, atol=1e-16)
    assert rel_err(inertial.I_BBcm_I, R_BC @ (2.0 * solid.G_FFc_F) @ R_BC.T) < 1e-15
    assert drake.links is not None
    assert _close(doc.link("m::a").M_BBo_B.angular_first(), drake.links["m::a"][1])


@pytest.mark.oracle("pydrake")
def test_fluid_added_mass_is_dropped(tmp_path: Path) -> None:
    A = np.diag([5.0, 0.0, 0.0, 0.0, 2.0, 0.0])  # linear-first: xx 5, qq 2
    doc, drake = _load(_model(
        link("a", auto_inertial(extra=added_mass_xml(A)), box((1, 1, 1), pose=None))
    ), tmp_path)
    inertial = doc.link("m::a").inertial
    assert inertial.A_BBo_B is None
    assert inertial.added_mass_dropped and inertial.added_mass_source is not None
    assert "auto-inertial-added-mass" in _codes(doc)
    assert drake.links is not None
    assert _close(doc.link("m::a").M_BBo_B.angular_first(), drake.links["m::a"][1])


@pytest.mark.oracle("pydrake")
def test_collision_without_inertia_adds_nothing(tmp_path: Path) -> None:
    """A zero density makes a collision's inertia invalid (an error); the others still count."""
    doc, drake = _load(_model(
        link("a", auto_inertial(), box((1, 2, 3), pose=None, density=0, name="void"),
             box((1, 1, 1), pose=(1, 0, 0, 0, 0, 0)))
    ), tmp_path)
    assert drake.ok and drake.links is not None
    assert any("Inertia Calculated for collision: void is invalid" in w for w in drake.warnings)
    inertial = doc.link("m::a").inertial
    assert inertial.mass == DEFAULT_DENSITY
    np.testing.assert_allclose(inertial.p_BoBcm_B, [1.0, 0.0, 0.0], rtol=0, atol=1e-16)
    assert _close(doc.link("m::a").M_BBo_B.angular_first(), drake.links["m::a"][1])
    assert "auto-inertial-collision" in _codes(doc)


@pytest.mark.oracle("pydrake")
@pytest.mark.parametrize(
    ("links", "code", "drake_says"),
    [
        (link("a", auto_inertial()),
         "auto-inertial-no-collisions", "there are no <collision> elements"),
        (link("a", auto_inertial(), collision(plane_geometry((0, 0, 1)), pose=None, name="p")),
         "auto-inertial-collision", "not supported for the given Geometry type"),
        (link("a", auto_inertial(extra=pose((1, 2, 3, 0, 0, 0)) + INERTIA_7),
              box((1, 1, 1), pose=None)),
         "auto-inertial-overwritten", "will be overwritten by the computed inertial values"),
    ],
    ids=["no-collision", "plane", "pose-and-inertia-written"],
)
def test_what_libsdformat_reports(links: str, code: str, drake_says: str,
                                  tmp_path: Path) -> None:
    """libsdformat reports these (Drake, stricter, rejects the file with the same message)."""
    doc, drake = _load(_model(links), tmp_path)
    assert not drake.ok and drake_says in str(drake.error)
    assert code in _codes(doc)


@pytest.mark.oracle("pydrake")
def test_overwritten_values_are_not_used(tmp_path: Path) -> None:
    doc, _ = _load(_model(
        link("a", auto_inertial(extra=pose((1, 2, 3, 0.1, 0, 0)) + INERTIA_7),
             box((1, 1, 1), pose=None))
    ), tmp_path)
    inertial = doc.link("m::a").inertial
    np.testing.assert_array_equal(inertial.X_BI.p, 0.0)
    assert rel_err(inertial.I_BBcm_I, DEFAULT_DENSITY / 6.0 * np.eye(3)) < 1e-15


@pytest.mark.oracle("pydrake")
def test_no_collision_keeps_libsdformats_initial_inertial(tmp_path: Path) -> None:
    A = np.diag([5.0, 0.0, 0.0, 0.0, 0.0, 0.0])  # linear-first: xx 5
    doc, _ = _load(_model(link("a", auto_inertial(extra=added_mass_xml(A)))), tmp_path)
    inertial = doc.link("m::a").inertial
    assert inertial.mass == 1.0 and not inertial.added_mass_dropped
    np.testing.assert_array_equal(inertial.I_BBcm_I, np.eye(3))
    assert inertial.A_BBo_B is not None


def _write_obj(src: Path, out: Path) -> Path:
    import trimesh

    mesh = trimesh.load(src, force="mesh", process=False)
    lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(mesh.vertices).tolist()]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in np.asarray(mesh.faces).tolist()]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


@pytest.mark.oracle("pydrake")
def test_mesh_as_gazebo_computes_it_and_drakes_offset(tmp_path: Path) -> None:
    """The scaled, posed spar-buoy hull: the solid of its triangles at the collision density.

    Drake's own mesh calculator agrees on mass and centre of mass, and its inertia exceeds the
    solid's by exactly ``m·[c]×[c]×ᵀ``, c the mesh centroid from the mesh origin (in link
    axes): it hands libsdformat the inertia about the mesh origin as if it were about the
    centre of mass. Gazebo's ``MeshInertiaCalculator`` subtracts that term (about the centre
    of mass), as gzinertia does.
    """
    obj = _write_obj(SPAR_STL, tmp_path / "hull.obj")
    rpy, p_BoCo_B, rho, scale = (0.3, -0.2, 0.1), [0.1, -0.2, -0.785], 600.0, 0.001
    doc, drake = _load(_model(link("hull", auto_inertial(), collision(
        mesh_geometry(f"file://{obj}", scale=(scale,) * 3), (*p_BoCo_B, *rpy), density=rho,
    ))), tmp_path)
    hull = solid_properties(doc.link("m::hull").collisions[0].geometry)
    R_BC = rotation_from_rpy(*rpy)
    inertial = doc.link("m::hull").inertial
    m = rho * hull.volume
    assert rel_err(inertial.mass, m) < 1e-15
    assert rel_err(inertial.p_BoBcm_B, np.add(p_BoCo_B, R_BC @ hull.p_FoFc_F)) < 1e-15
    assert rel_err(inertial.I_BBcm_B, R_BC @ (rho * hull.G_FFc_F) @ R_BC.T) < 1e-14
    assert "auto-inertial-mesh" in _codes(doc)

    assert drake.links is not None
    c_B = R_BC @ hull.p_FoFc_F
    I_drake = parallel_axis(inertial.I_BBcm_B, m, c_B)  # about the mesh origin, mis-read
    M_drake_like = spatial_inertia_about_origin(m, I_drake, inertial.p_BoBcm_B)
    assert _close(M_drake_like, drake.links["m::hull"][1])
    assert not _close(doc.link("m::hull").M_BBo_B.angular_first(), drake.links["m::hull"][1])
    assert float(np.linalg.norm(m * skew(c_B) @ skew(c_B).T)) > 1.0  # the offset is not small


def test_open_mesh_warns_about_the_repair_or_the_hull(tmp_path: Path) -> None:
    """A mesh missing one triangle is repaired (the hole filled) and the warning says so; a mesh
    missing its top cap cannot be closed: an error note naming the fallback that proceeds, and under
    ``hull_fallback("convex")`` the warning says "convex hull" and the mass is the hull's.

    Before issue 24 the one-triangle hole gave the convex hull silently as the solid (the
    warning said "convex hull"); the geometry pipeline now fills such a hole and refuses what
    it cannot close unless the hull is asked for."""
    import trimesh

    from gzinertia.physics.mesh_body import hull_fallback

    mesh = trimesh.load(SPAR_STL, force="mesh")
    mesh.update_faces(np.arange(len(mesh.faces)) != 3)
    mesh.export(tmp_path / "hole.stl")
    z = mesh.vertices[mesh.faces][:, :, 2]
    mesh.update_faces(~np.all(z == z.max(), axis=1))
    mesh.export(tmp_path / "open.stl")

    def read(name: str) -> Any:
        return read_sdf_file(_write_sdf(tmp_path, _model(link("a", auto_inertial(), collision(
            mesh_geometry(name, scale=(0.001,) * 3), pose=None)))))

    notes = [n for n in read("hole.stl").notes if n.code == "auto-inertial-mesh"]
    assert len(notes) == 1 and notes[0].level == "warning", notes
    assert "small holes filled" in notes[0].message, notes[0].message
    errors = [n for n in read("open.stl").notes if n.code == "auto-inertial-collision"]
    assert len(errors) == 1 and "not closed" in errors[0].message, errors
    assert 'hull_fallback("convex")' in errors[0].message  # the library's spelling here
    with hull_fallback("convex"):
        doc = read("open.stl")
        hull = solid_properties(doc.link("m::a").collisions[0].geometry)
    notes = [n for n in doc.notes if n.code == "auto-inertial-mesh"]
    assert len(notes) == 1 and notes[0].level == "warning" and "convex hull" in notes[0].message
    assert rel_err(doc.link("m::a").inertial.mass, DEFAULT_DENSITY * hull.volume) < 1e-15


def test_unresolved_mesh_is_an_error_and_adds_nothing(tmp_path: Path) -> None:
    doc = read_sdf_file(_write_sdf(tmp_path, _model(link(
        "a", auto_inertial(), collision(mesh_geometry("missing.stl"), pose=None),
        box((1, 1, 1), pose=None, name="b")))))
    assert [n.level for n in doc.notes if n.code == "auto-inertial-collision"] == ["error"]
    assert doc.link("m::a").inertial.mass == DEFAULT_DENSITY


def _write_sdf(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "m.sdf"
    path.write_text(text, encoding="utf-8")
    return path
