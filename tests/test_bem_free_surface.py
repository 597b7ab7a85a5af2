"""``addmass --bem --waterline``: what is solved under a free surface, and how well.

Oracles: geometry (the wetted part of a sphere centred on the waterline is half of it, its rim
on the waterplane); mirror images for the floating hemisphere (at zero frequency, a rigid lid
``∂φ/∂z = 0``, the surge and sway potentials of the whole sphere in unbounded fluid satisfy the
surface condition; at infinite frequency, ``φ = 0``, the heave potential does: those entries are
``ρπa³/3``, half the sphere's; rotations about the centre move no fluid, so the angular and
coupling blocks vanish at both limits; Hulme 1982, J. Fluid Mech. 121, tabulates the same);
independent Capytaine solves of the same union of hulls (``--together``), and the hulls alone
far apart.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

cpt = pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

from gzinertia.physics.bem import bem_added_mass, bem_added_mass_together  # noqa: E402
from gzinertia.physics.bem_solve import RIGID_BODY_DOFS  # noqa: E402
from gzinertia.physics.free_surface import FreeSurface  # noqa: E402
from gzinertia.physics.surface_mesh import link_surface  # noqa: E402

A_SPHERE, RHO = 0.5, 1000.0


def _sphere() -> list[Collision]:
    return [Collision("hull", Pose(), Geometry("sphere", radius=A_SPHERE), SourceRef("b.sdf", 1))]


def _half_sphere() -> float:
    """``ρπa³/3``: half the added mass of the whole sphere in unbounded fluid (Tuckerman)."""
    return float(ellipsoid_added_mass_matrix((A_SPHERE,) * 3, RHO)[0, 0]) / 2.0


def buoy(a: float, *collisions: str) -> str:
    """A 100 kg buoy: a sphere of radius ``a`` (or ``collisions`` instead)."""
    hull = collisions or (sdf.sphere(a, pose=None, name="hull"),)
    body = sdf.link("body", sdf.inertial(100.0, 10.0 * np.eye(3), posed=False), *hull)
    return sdf.model(body, version="1.10", name="buoy")


def test_the_comment_counts_the_wetted_panels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comment reports the panels solved on: the wetted part, cut from the closed surface
    (whose count it also gives), no lid. That part is half the sphere (area within the
    discretisation of ``2πa²``, half the closed surface's), every vertex at or below the
    waterline, its rim exactly on it."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "buoy.sdf"
    path.write_text(buoy(A_SPHERE))
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--waterline", "0", "--panel-size", "0.12", "--in-place"],
        capsys,
    )
    assert code == 0, err
    found = re.search(
        r"(\d+) wetted panels \(cut at the waterline from (\d+), no lid\)", path.read_text()
    )
    assert found is not None, path.read_text()
    wetted_n, closed_n = int(found.group(1)), int(found.group(2))
    link = read_sdf_bytes(path.read_bytes(), str(path), []).links[0]
    fs = FreeSurface(0.0, link.X_WB)
    wetted = fs.wetted(link.collisions, 0.12)
    closed = link_surface(link.collisions, 0.12)
    assert (wetted.surface.panels, wetted.closed_panels) == (wetted_n, closed_n)
    assert closed.panels == closed_n and wetted_n < closed_n
    assert wetted.surface.area() == pytest.approx(closed.area() / 2, rel=0.02)
    assert wetted.surface.area() == pytest.approx(2 * math.pi * A_SPHERE**2, rel=0.03)
    v = wetted.surface.vertices  # the link is at the world origin: B = W
    assert np.all(v[:, 2] <= 1e-12)
    f = wetted.surface.faces
    edges = np.sort(np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]]), axis=1)
    rim, counts = np.unique(edges, axis=0, return_counts=True)
    assert np.all(np.abs(v[rim[counts == 1]][..., 2]) <= 1e-12)  # open only along the waterline


@pytest.mark.parametrize("frequency", ["zero", "infinite"])
def test_floating_hemisphere_every_known_entry_within_the_reported_bound(
    frequency: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All entries the mirror images fix (the 6x6 but heave at zero frequency and surge/sway at
    infinite frequency) lie within the reported per-block bound, and the bound on the known
    translational diagonal is honest: at most three times the actual error."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    h = _half_sphere()
    result = bem_added_mass(
        _sphere(), RHO, quality="fast", free_surface=FreeSurface(0.0, Pose(), frequency)  # type: ignore[arg-type]
    )
    A = result.A_BBo_B.linear_first()
    exact = np.zeros((6, 6))
    known = np.ones((6, 6), dtype=bool)
    translations = [0, 1] if frequency == "zero" else [2]
    unknown = [2] if frequency == "zero" else [0, 1]
    for i in translations:
        exact[i, i] = h
    for i in unknown:
        known[i, i] = False
    bound = result.error_bound
    assert np.all(np.abs(A - exact)[known] <= bound[known]), np.max(
        (np.abs(A - exact) / bound)[known]
    )
    for i in translations:
        assert bound[i, i] <= 3.0 * abs(A[i, i] - h)


def test_deep_ellipsoid_under_a_free_surface_is_the_unbounded_closed_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A posed ellipsoid 20 m under the waterline (the surface's image changes the added mass
    by about ``(a/2d)³ ≈ 4e-7``): the free-surface solve at either limit is Tuckerman's closed
    form moved to the link origin, every entry within the reported bound. The body is not cut
    (nothing of it is above the waterline): the comment's count is the closed surface's."""
    from scipy.spatial.transform import Rotation

    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    radii = (0.3, 0.15, 0.1)
    X_BE = Pose(np.array([0.1, -0.05, 0.04]), Rotation.from_euler("xyz", [0.3, -0.5, 0.8]).as_matrix())
    hull = [Collision("hull", X_BE, Geometry("ellipsoid", size=radii), SourceRef("e.sdf", 1))]
    exact = AddedMass(
        ellipsoid_added_mass_matrix(radii, RHO), ordering="linear-first", point="Eo", axes="E"
    ).in_link(X_BE).linear_first()
    X_WB = Pose(np.array([0.0, 0.0, -20.0]), Rotation.from_euler("z", 0.4).as_matrix())
    for frequency in ("zero", "infinite"):
        fs = FreeSurface(0.0, X_WB, frequency)  # type: ignore[arg-type]
        result = bem_added_mass(hull, RHO, quality="fast", free_surface=fs)
        A = result.A_BBo_B.linear_first()
        assert np.all(np.abs(A - exact) <= result.error_bound), frequency
        assert result.closed_panels == result.panels


# ---------------------------------------------------------------------------------------------
# --together under a free surface: two half-submerged hulls


RADIUS, LENGTH = 0.15, 1.2


def _hull_link(name: str, y: float) -> str:
    """A hull: a cylinder along x, its link at ``y`` (and slightly yawed)."""
    return sdf.link(
        name, sdf.inertial(30.0, np.diag([0.5, 0.7, 0.8]), posed=False),
        sdf.cylinder(RADIUS, LENGTH, (0, 0, 0, 0, math.pi / 2, 0), "hull"),
        pose=(0.1, y, 0.02, 0, 0, 0.05),
    )


def _catamaran(tmp_path: Path, gap: float) -> Path:
    path = tmp_path / f"cat_{gap:g}.sdf"
    path.write_text(sdf.model(_hull_link("left", gap / 2), _hull_link("right", -gap / 2),
                              version="1.10", name="cat"))
    return path


def _written(path: Path) -> list[np.ndarray]:
    links = read_sdf_bytes(path.read_bytes(), str(path), []).links
    return [lk.inertial.A_BBo_B.linear_first() for lk in links if lk.inertial.A_BBo_B is not None]


PANEL = "0.1"


def test_together_under_a_free_surface_reduces_to_alone_far_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """20 m apart (130 radii) the two clipped hulls solved in one free-surface problem get the
    matrices each gets alone under the same free surface (their interaction decays as
    ``(a/d)³``); 0.7 m apart they do not, and the comment says with how many links it was
    solved."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    changes = []
    for gap in (20.0, 0.7):
        path = _catamaran(tmp_path, gap)
        base = ["addmass", str(path), "--bem", "--waterline", "0", "--panel-size", PANEL]
        alone, together = tmp_path / f"alone_{gap}.sdf", tmp_path / f"together_{gap}.sdf"
        code, _, err = run_cli([*base, "-o", str(alone)], capsys)
        assert code == 0, err
        code, _, err = run_cli([*base, "--together", "-o", str(together)], capsys)
        assert code == 0, err
        assert "free surface at z = 0 m (world), deep water, solved with 1 other link(s)" in (
            together.read_text()
        )
        change = max(
            float(np.max(np.abs(t - a)) / np.max(np.abs(a)))
            for a, t in zip(_written(alone), _written(together), strict=True)
        )
        changes.append(change)
    assert changes[0] < 1e-5 and changes[1] > 1e-3, changes


def test_together_under_a_free_surface_against_capytaine(tmp_path: Path) -> None:
    """The joint problem assembled independently: the same wetted panels posed in the world,
    one Capytaine body per hull with its rotations about the world origin, the 12x12 solved at
    zero frequency under the free surface; each hull's diagonal block, moved to its link origin
    by the exact congruence and turned into link axes, is what ``bem_added_mass_together``
    gives, to the solver's round-off."""
    from gzinertia.sdf.reader import read_sdf_bytes as read

    path = _catamaran(tmp_path, 0.7)
    links = read(path.read_bytes(), str(path), []).links
    h = float(PANEL)
    results, cross = bem_added_mass_together(
        [(lk.collisions, lk.X_WB) for lk in links], RHO, panel_size=h, use_cache=False,
        waterline=(0.0, "zero", math.inf),
    )
    assert cross > 0.0
    bodies = []
    for k, lk in enumerate(links):
        wet = FreeSurface(0.0, lk.X_WB).wetted(lk.collisions, h).surface
        v_W = wet.vertices @ np.asarray(lk.X_WB.R).T + np.asarray(lk.X_WB.p)
        v_W[np.abs(v_W[:, 2]) < 1e-9, 2] = 0.0
        mesh = cpt.Mesh(vertices=v_W, faces=wet.faces, name=f"h{k}")
        bodies.append(
            cpt.FloatingBody(mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=(0, 0, 0)),
                             name=f"h{k}")
        )
    A_W = _solved_together(bodies)
    for k, (lk, result) in enumerate(zip(links, results, strict=True)):
        s = slice(6 * k, 6 * k + 6)
        A_WWo_W = AddedMass(A_W[s, s], ordering="linear-first", point="Wo", axes="W")
        p_WoBo_W = np.asarray(lk.X_WB.p)
        A_WBo_W = A_WWo_W.shift(p_WoBo_W, "Bo")
        A_BBo_B = A_WBo_W.reexpressed("B", np.asarray(lk.X_WB.R).T).linear_first()
        got = result.A_BBo_B.linear_first()
        assert np.max(np.abs(got - A_BBo_B)) <= 1e-6 * np.max(np.abs(A_BBo_B))


def test_touching_shapes_are_refused_under_a_free_surface_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two boxes touching along one edge have no single outside, cut at a waterline or not:
    one line naming the file, exit 2, the file untouched."""
    path = tmp_path / "edge.sdf"
    path.write_text(
        buoy(0.2, sdf.box((0.2, 0.2, 0.2), pose=None, name="a"),
             sdf.box((0.2, 0.2, 0.2), pose=(0.2, 0.2, 0, 0, 0, 0), name="b"))
    )
    old = path.read_bytes()
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--waterline", "0", "--quality", "fast", "--in-place"],
        capsys,
    )
    assert code == 2 and path.read_bytes() == old
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "touch along an edge" in lines[0], err


def test_a_link_above_the_waterline_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing below the waterline, nothing to solve: one line naming the file, exit 2."""
    path = tmp_path / "buoy.sdf"
    path.write_text(buoy(A_SPHERE))
    old = path.read_bytes()
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--waterline", "-1", "--quality", "fast", "--in-place"],
        capsys,
    )
    assert code == 2 and path.read_bytes() == old
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "above the waterline" in lines[0], err


@pytest.mark.slow
def test_together_under_a_free_surface_against_capytaine_own_meshes(tmp_path: Path) -> None:
    """The same catamaran meshed independently, by Capytaine's own horizontal-cylinder mesher
    (finer: about 1,600 panels per hull after Capytaine's ``immersed_part``), joined and solved
    at zero frequency under the free surface: each hull's matrix from ``--together`` at
    ``fast`` quality is within its reported bound of it, every entry."""
    from gzinertia.sdf.reader import read_sdf_bytes as read

    path = _catamaran(tmp_path, 0.7)
    links = read(path.read_bytes(), str(path), []).links
    results, _ = bem_added_mass_together(
        [(lk.collisions, lk.X_WB) for lk in links], RHO, quality="fast", use_cache=False,
        waterline=(0.0, "zero", math.inf),
    )
    bodies = []
    for k, lk in enumerate(links):
        p_WBo, R_WB = np.asarray(lk.X_WB.p), np.asarray(lk.X_WB.R)
        closed = cpt.mesh_horizontal_cylinder(
            length=LENGTH, radius=RADIUS, center=(0, 0, 0), resolution=(6, 48, 48)
        )  # axis along x, as the hull's cylinder turned by pitch π/2
        mesh_W = cpt.Mesh(
            vertices=np.asarray(closed.vertices) @ R_WB.T + p_WBo, faces=np.asarray(closed.faces)
        ).immersed_part()
        bodies.append(
            cpt.FloatingBody(mesh=mesh_W, dofs=cpt.rigid_body_dofs(rotation_center=p_WBo),
                             name=f"h{k}")
        )
    assert all(b.mesh.nb_faces > results[0].panels for b in bodies)
    A_W = _solved_together(bodies)
    for k, (lk, result) in enumerate(zip(links, results, strict=True)):
        s = slice(6 * k, 6 * k + 6)
        A_BBo_W = AddedMass(A_W[s, s], ordering="linear-first", point="Bo", axes="W")
        oracle = A_BBo_W.reexpressed("B", np.asarray(lk.X_WB.R).T).linear_first()
        got = result.A_BBo_B.linear_first()
        assert np.all(np.abs(got - oracle) <= result.error_bound), np.max(
            np.abs(got - oracle) / result.error_bound
        )


def _solved_together(bodies: list[Any]) -> np.ndarray:
    """Capytaine's 12x12 added mass of two bodies ``h0``, ``h1`` solved as one problem under a
    free surface at z = 0 (zero frequency, deep water): linear-first per body, each about its
    own ``rotation_center``, in world axes."""
    joined = bodies[0] + bodies[1]
    names = [f"h{k}__{d}" for k in range(2) for d in RIGID_BODY_DOFS]
    solver = cpt.BEMSolver(method="direct")
    A_W = np.empty((12, 12))
    for i, dof in enumerate(names):
        problem = cpt.RadiationProblem(
            body=joined, radiating_dof=dof, omega=0.0, free_surface=0.0, water_depth=np.inf,
            rho=RHO,
        )
        added = solver.solve(problem, keep_details=False).added_mass
        A_W[i] = [added[j] for j in names]
    return A_W
