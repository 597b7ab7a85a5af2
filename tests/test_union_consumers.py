"""One geometry pipeline for every consumer (issue 24): the fits of ``addmass --ellipsoid``, the
plausibility rules, ``fix --method geometry`` and the plots take a link's fluid-displacing body
from :func:`gzinertia.physics.link_union.link_solid`, the union of its shapes (overlaps once),
and say so; the rules that say what Gazebo will do keep Gazebo's sum.

The hull: two overlapping boxes and a cylinder into whose end the first box pokes (the part of
the box inside the cylinder lies inside any inscribed polygon of 64 sides or more, so the
overlap is a polyhedron and the tool's union is exact to rounding), as three collisions or as
one STL of the three overlapping closed pieces. Oracles, built here without the tool:
manifold3d's union of the boxes and its intersection with a cylinder (manifold3d's own
primitives), the cylinder's closed form, trimesh's mass properties; for the STL, manifold3d's
union of the pieces as written.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from audit_helpers import codes_by_link, findings_of
from conftest import run_cli

from gzinertia.sdf import read_sdf_file

manifold3d = pytest.importorskip("manifold3d")
trimesh = pytest.importorskip("trimesh")

BOX_A = ((0.6, 0.3, 0.2), (0.0, 0.0, 0.0))
BOX_B = ((0.3, 0.4, 0.3), (0.25, 0.1, 0.05))
#: Radius, length and centre of the cylinder, its axis along x (rpy (0, π/2, 0)).
CYL = (0.25, 0.4, (-0.45, 0.0, 0.0))
MASS = 40.0


def _m3_box(size: tuple[float, ...], centre: tuple[float, ...]) -> object:
    return manifold3d.Manifold.cube(size, True).translate(centre)


def _m3_cylinder(segments: int) -> object:
    r, length, centre = CYL
    solid = manifold3d.Manifold.cylinder(length, r, r, segments, True)
    return solid.rotate((0.0, 90.0, 0.0)).translate(centre)


def _trimesh(solid: object) -> object:
    mesh = solid.to_mesh64()  # type: ignore[attr-defined]
    return trimesh.Trimesh(np.asarray(mesh.vert_properties)[:, :3], np.asarray(mesh.tri_verts))


def _about_origin(V: float, c: np.ndarray, G: np.ndarray) -> np.ndarray:
    return G + V * (float(c @ c) * np.eye(3) - np.outer(c, c))


def _mesh_moments(mesh: object) -> tuple[float, np.ndarray, np.ndarray]:
    """Volume, first moment and unit-density inertia about the origin (trimesh)."""
    V = float(mesh.volume)  # type: ignore[attr-defined]
    c = np.asarray(mesh.center_mass, dtype=float)  # type: ignore[attr-defined]
    G = np.asarray(mesh.moment_inertia, dtype=float) * V / float(mesh.mass)  # type: ignore
    return V, V * c, _about_origin(V, c, G)


def _union_oracle() -> tuple[float, np.ndarray, np.ndarray]:
    """``(V, p_BoBc_B, G_BBc_B)`` of the three collisions' union: the exact cylinder plus the
    boxes' union (manifold3d) less their part inside the cylinder (manifold3d's intersection with
    a 64-gon prism, which holds that part whole)."""
    boxes = _m3_box(*BOX_A) + _m3_box(*BOX_B)
    inside = boxes ^ _m3_cylinder(64)
    r, length, centre = CYL
    V_c = math.pi * r * r * length
    c_c = np.asarray(centre)
    # solid cylinder along x: Ixx = V r²/2, Iyy = Izz = V (3r² + L²)/12
    G_c = V_c * np.diag([r * r / 2, (3 * r * r + length**2) / 12, (3 * r * r + length**2) / 12])
    Vb, Mb, Jb = _mesh_moments(_trimesh(boxes))
    Vi, Mi, Ji = _mesh_moments(_trimesh(inside))
    assert Vi > 0.0  # the box does poke into the cylinder
    V = V_c + Vb - Vi
    c = (V_c * c_c + Mb - Mi) / V
    J = _about_origin(V_c, c_c, G_c) + Jb - Ji
    return V, c, J - V * (float(c @ c) * np.eye(3) - np.outer(c, c))


def _stl_pieces() -> list[object]:
    """The three closed pieces of the one-file hull (the cylinder a 64-gon prism), link frame."""
    r, length, centre = CYL
    cylinder = trimesh.creation.cylinder(radius=r, height=length, sections=64)
    cylinder.apply_transform(trimesh.transformations.rotation_matrix(math.pi / 2, [0, 1, 0]))
    cylinder.apply_translation(centre)
    boxes = []
    for size, at in (BOX_A, BOX_B):
        box = trimesh.creation.box(extents=size)
        box.apply_translation(at)
        boxes.append(box)
    return [*boxes, cylinder]


def _stl_oracle() -> tuple[float, np.ndarray, np.ndarray]:
    """The union of the STL's pieces as written, by manifold3d, with trimesh's moments."""
    solids = [manifold3d.Manifold(manifold3d.Mesh64(  # the vertices as the STL holds them
        vert_properties=np.asarray(p.vertices, dtype=np.float32).astype(np.float64),  # type: ignore[attr-defined]
        tri_verts=np.asarray(p.faces, dtype=np.uint64)))  # type: ignore[attr-defined]
        for p in _stl_pieces()]
    union = solids[0] + solids[1] + solids[2]
    V, M, J = _mesh_moments(_trimesh(union))
    c = M / V
    return V, c, J - V * (float(c @ c) * np.eye(3) - np.outer(c, c))


def _collisions_model() -> str:
    r, length, centre = CYL
    return sdf.model(sdf.link(
        "hull",
        sdf.inertial(MASS, np.diag([1.0, 1.2, 1.3])),
        sdf.box(BOX_A[0], (*BOX_A[1], 0, 0, 0), name="a"),
        sdf.box(BOX_B[0], (*BOX_B[1], 0, 0, 0), name="b"),
        sdf.cylinder(r, length, (*centre, 0, math.pi / 2, 0), name="tube"),
    ))


def _stl_model(folder: Path) -> str:
    pieces = trimesh.util.concatenate(_stl_pieces())
    pieces.export(folder / "hull.stl")
    return sdf.model(sdf.link("hull", sdf.inertial(MASS, np.diag([1.0, 1.2, 1.3])),
                              sdf.mesh("hull.stl", name="shell")))


@pytest.fixture(params=["collisions", "stl"])
def case(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, tuple]:
    """The hull's file and its oracle ``(V, p_BoBc_B, G_BBc_B)``."""
    if request.param == "collisions":
        return sdf.write(tmp_path, _collisions_model()), _union_oracle()
    return sdf.write(tmp_path, _stl_model(tmp_path)), _stl_oracle()


def test_the_stl_oracle_is_the_collisions_oracle_but_for_the_tessellated_cylinder() -> None:
    # the two hulls differ only by the cylinder's 64-gon (and the STL's float32 vertices): the
    # oracles agree to the polygon's area
    V, _, _ = _union_oracle()
    Vs, _, _ = _stl_oracle()
    polygon = 64 / (2 * math.pi) * math.sin(2 * math.pi / 64)
    r, length, _ = CYL
    assert Vs == pytest.approx(V - (1 - polygon) * math.pi * r * r * length, rel=1e-7)


def test_link_solid_is_the_union(case: tuple[Path, tuple]) -> None:
    from gzinertia.physics.link_union import link_solid

    path, (V, c, G) = case
    solid = link_solid(read_sdf_file(path).link("m::hull").collisions)
    assert solid.volume == pytest.approx(V, rel=1e-9)
    assert np.allclose(solid.p_FoFc_F, c, rtol=0, atol=1e-9 * V ** (1 / 3))
    assert np.allclose(solid.G_FFc_F, G, rtol=0, atol=1e-9 * np.max(np.abs(G)))
    assert solid.approximation and "union" in solid.approximation  # said, never silent


def test_volume_fit_is_fitted_to_the_union(case: tuple[Path, tuple]) -> None:
    from gzinertia.physics.fits import fit_link

    path, (V, c, _) = case
    fit = fit_link(read_sdf_file(path).link("m::hull"), "volume")
    (ellipsoid,) = fit.ellipsoids
    a, b, cc = ellipsoid.semi_axes
    assert 4 / 3 * math.pi * a * b * cc == pytest.approx(V, rel=1e-9)
    assert np.allclose(ellipsoid.X_FE.p, c, rtol=0, atol=1e-9 * V ** (1 / 3))
    assert f"V = {V:.6g} m³" in fit.description
    assert fit.approximation and "union" in fit.approximation


def test_addmass_ellipsoid_says_the_union_and_audits_clean(
    case: tuple[Path, tuple], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = case
    before = codes_by_link(path).get("m::hull", set())
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "m::hull",
                            "--in-place"], capsys)
    assert code == 0, err
    assert "union" in err  # the warning line names what the geometry pipeline did
    text = path.read_text()
    comment = text[text.index("gzinertia addmass:"):text.index("-->", text.index("gzinertia addmass:"))]
    assert "union" in comment  # and the provenance comment written into the file
    assert codes_by_link(path).get("m::hull", set()) <= before
    code, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--link", "m::hull",
                            "--check"], capsys)
    assert code == 0, err


def test_fix_geometry_gives_the_inertia_of_the_union(
    case: tuple[Path, tuple], capsys: pytest.CaptureFixture[str]
) -> None:
    path, (V, c, G) = case
    broken = path.read_text().replace("<iyy>1.2</iyy>", "<iyy>3</iyy>")  # GZI104: no triangle
    assert broken != path.read_text()
    path.write_text(broken)
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--link", "m::hull",
                            "--move-com", "--in-place"], capsys)
    assert code == 0, err
    inertial = read_sdf_file(path).link("m::hull").inertial
    assert inertial.mass == MASS
    assert np.allclose(inertial.p_BoBcm_B, c, rtol=0, atol=1e-6 * V ** (1 / 3))  # as written
    I = MASS / V * G
    assert np.allclose(inertial.I_BBcm_B, I, rtol=0, atol=1e-6 * np.max(np.abs(I)))
    assert "union" in err
    assert not codes_by_link(path).get("m::hull", set()) & {"GZI105", "GZI106", "GZI107"}
    code, _, err = run_cli(["fix", str(path), "--method", "geometry", "--link", "m::hull",
                            "--move-com", "--check"], capsys)
    assert code == 0, err


def test_density_rule_uses_the_union(case: tuple[Path, tuple]) -> None:
    path, (V, _, _) = case
    heavy = 30000.0 * V  # beyond osmium by the union's volume, within it by the sum's
    text = path.read_text().replace(f"<mass>{sdf.num(MASS)}</mass>", f"<mass>{heavy!r}</mass>")
    assert text != path.read_text()
    (found,) = findings_of(path.parent, text, "GZI106")
    assert found.values["collision_volume"] == pytest.approx(V, rel=1e-9)
    assert found.values["density"] == pytest.approx(30000.0, rel=1e-9)
    assert "union" in found.message and "union" in found.values["geometry_note"]


def test_plot_title_density_is_the_unions(case: tuple[Path, tuple]) -> None:
    from gzinertia.cli.plot import _title

    path, (V, _, _) = case
    title = _title(read_sdf_file(path).link("m::hull"))
    assert f"collision volume {V:.4g} m³" in title
    assert f"mean density {MASS / V:.4g} kg/m³" in title


def test_gazebo_rules_keep_gazebos_sum_and_say_so(tmp_path: Path) -> None:
    """GZI302 says what gz-sim will do: its Buoyancy system sums the overlapping boxes; the
    link is neutral by their union (manifold3d), so Gazebo lifts it by the overlap's water."""
    V_sum = float(np.prod(BOX_A[0]) + np.prod(BOX_B[0]))  # closed forms
    V_union = float(_trimesh(_m3_box(*BOX_A) + _m3_box(*BOX_B)).volume)
    assert V_sum / V_union > 1.1
    one = sdf.model(sdf.link("hull", sdf.inertial(1000.0 * V_union, np.diag([1.0, 1.2, 1.3])),
                             sdf.box(BOX_A[0], (*BOX_A[1], 0, 0, 0), name="a"),
                             sdf.box(BOX_B[0], (*BOX_B[1], 0, 0, 0), name="b")))
    model = one[one.index("<model"):one.index("</model>") + len("</model>")]
    text = sdf.world(sdf.buoyancy_plugin(1000.0), model)
    (found,) = findings_of(tmp_path, text, "GZI302")
    assert found.values["buoyancy"] / found.values["weight"] == pytest.approx(
        V_sum / V_union, rel=1e-9)
    assert f"Gazebo's volume {V_sum:.4g} m^3" in found.message.replace("m³", "m^3")
    assert "summed" in found.message
    assert findings_of(tmp_path, text, "GZI106") == []  # the union's density is water's


def test_gzi212_digest_reads_a_change_of_hull_choice_as_a_change_of_geometry(
    tmp_path: Path,
) -> None:
    """The BEM provenance's geometry digest (GZI212's) holds what the pipeline did: the hull
    choice changes it for a mesh that is not closed, and not for one that is."""
    from gzinertia.physics.mesh_body import hull_fallback
    from gzinertia.physics.surface_mesh import geometry_digest

    open_box = trimesh.creation.box(extents=(1.0, 0.5, 0.3))
    open_box = trimesh.Trimesh(open_box.vertices, open_box.faces[:-2], process=False)
    open_box.export(tmp_path / "open.stl")
    trimesh.util.concatenate(_stl_pieces()).export(tmp_path / "hull.stl")
    text = sdf.model(sdf.link("l", sdf.mesh("open.stl", name="o")),
                     sdf.link("k", sdf.mesh("hull.stl", name="h")))
    doc = read_sdf_file(sdf.write(tmp_path, text))
    for name, changes in (("m::l", True), ("m::k", False)):
        collisions = doc.link(name).collisions
        with hull_fallback("none"):
            refused = geometry_digest(collisions)
        with hull_fallback("convex"):
            hulled = geometry_digest(collisions)
        assert (refused != hulled) == changes, name
