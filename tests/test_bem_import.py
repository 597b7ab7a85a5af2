"""``addmass --from DATASET``: a Capytaine dataset computed about another point in other axes,
brought to the link origin in link axes.

The dataset is produced here by Capytaine itself (``assemble_dataset``, written to NetCDF), for
a hull meshed in its own frame F and submerged under a free surface (Capytaine writes datasets
for free-surface problems only). The oracle is a second Capytaine solve of the same physical
problem with the hull meshed in link coordinates and the rotations about the link origin: no
change of point or axes anywhere, so signs, orderings and the point are checked against the
BEM itself. F is turned about the vertical only and shifted horizontally, so the free surface
is the same plane in both solves.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders
from conftest import run_cli

from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.rotation import rotation_from_rpy

cpt = pytest.importorskip("capytaine")
pytest.importorskip("xarray")

DENSITY = 1025.0
YAW_BF = 0.7
p_FoP_F = np.array([0.1, -0.05, -0.9])  # the dataset's rotation centre, in F
p_BoP_B = np.array([0.3, 0.2, -0.9])  # the same point in the link frame (same depth)
R_BF = rotation_from_rpy(0.0, 0.0, YAW_BF)
p_BoFo_B = p_BoP_B - R_BF @ p_FoP_F

HULL = sdf_builders.box_geometry((1.0, 0.4, 0.3))
LINK = sdf_builders.model(sdf_builders.link(
    "body", sdf_builders.inertial(60.0, np.diag([2.0, 3.0, 4.0]), posed=False),
    sdf_builders.collision(HULL, pose=None, name="hull"),
), version="1.10", name="boat")


def _edited(text: str, old: str, new: str) -> str:
    """``text`` with its one ``old`` replaced by ``new`` (a hand edit)."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _hull_F() -> cpt.Mesh:
    """A 1 x 0.4 x 0.3 m box, off-centre in F (no symmetry left about P), 0.9 m deep."""
    mesh = cpt.mesh_parallelepiped(
        size=(1.0, 0.4, 0.3), center=(0.25, 0.1, -1.0), resolution=(8, 4, 4)
    )
    return mesh


def _solve(mesh: cpt.Mesh, centre: np.ndarray, omegas: list[float]) -> list[object]:
    body = cpt.FloatingBody(
        mesh=mesh, dofs=cpt.rigid_body_dofs(rotation_center=centre), name="hull"
    )
    problems = [
        cpt.RadiationProblem(
            body=body, radiating_dof=d, omega=w, free_surface=0.0, water_depth=np.inf, rho=DENSITY
        )
        for d in body.dofs
        for w in omegas
    ]
    return cpt.BEMSolver(method="direct").solve_all(problems, progress_bar=False)


def _dataset(tmp: Path, omegas: list[float]) -> Path:
    ds = cpt.assemble_dataset(_solve(_hull_F(), p_FoP_F, omegas), hydrostatics=False)
    path = tmp / "hull.nc"
    cpt.export_dataset(path, ds, format="netcdf")  # what Capytaine's users run
    return path


def _oracle_A_BBo_B(omega: float) -> np.ndarray:
    v_F = np.asarray(_hull_F().vertices)
    mesh_B = cpt.Mesh(vertices=v_F @ R_BF.T + p_BoFo_B, faces=np.asarray(_hull_F().faces))
    results = _solve(mesh_B, np.zeros(3), [omega])
    dofs = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")
    A = np.zeros((6, 6))
    for r in results:
        A[dofs.index(r.radiating_dof)] = [r.added_mass[j] for j in dofs]  # type: ignore[attr-defined]
    return 0.5 * (A + A.T)


def test_import_moves_the_dataset_to_the_link_origin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = _dataset(tmp_path, [1.5, np.inf])
    sdf = tmp_path / "boat.sdf"
    sdf.write_text(LINK)
    args = [
        "addmass",
        str(sdf),
        "--from",
        str(dataset),
        "--link",
        "body",
        "--about",
        " ".join(f"{v:.17g}" for v in p_BoP_B),
        "--axes",
        f"0 0 {YAW_BF:.17g}",
        "--frequency",
        "infinite",
    ]
    code, _, err = run_cli([*args, "--in-place"], capsys)
    assert code == 0, err
    A = read_sdf_bytes(sdf.read_bytes(), str(sdf), []).links[0].inertial.A_BBo_B
    assert A is not None
    A = A.linear_first()
    oracle = _oracle_A_BBo_B(np.inf)
    scale = np.max(np.abs(oracle), axis=None)
    # The two solves differ only by a rigid motion of the panels parallel to the free surface;
    # Capytaine's free-surface kernel agrees with itself under it to about 2e-6.
    assert np.max(np.abs(A - oracle)) <= 1e-5 * scale, np.max(np.abs(A - oracle)) / scale
    # and a sign, ordering or point error would be of the order of the entries themselves:
    assert np.max(np.abs(A - oracle)) < 1e-3 * np.min(np.abs(np.diag(oracle)))
    text = sdf.read_text()
    assert "imported added mass" in text and "hull.nc" in text and "omega inf" in text
    code, _, err = run_cli([*args, "--check"], capsys)
    assert code == 0, err


def test_several_frequencies_need_a_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = _dataset(tmp_path, [1.5, np.inf])
    sdf = tmp_path / "boat.sdf"
    sdf.write_text(LINK)
    code, _, err = run_cli(
        ["addmass", str(sdf), "--from", str(dataset), "--link", "body", "--in-place"], capsys
    )
    assert code == 2 and sdf.read_text() == LINK
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "hull.nc" in lines[0] and "--frequency" in lines[0], err


def test_not_a_dataset_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "bogus.nc"
    bogus.write_bytes(b"CDF\x01 not really")
    sdf = tmp_path / "boat.sdf"
    sdf.write_text(LINK)
    code, _, err = run_cli(
        ["addmass", str(sdf), "--from", str(bogus), "--link", "body", "--in-place"], capsys
    )
    assert code == 2 and sdf.read_text() == LINK
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "bogus.nc" in lines[0], err


def test_wamit_file_is_made_dimensional_and_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same hull written by Capytaine's WAMIT exporter with ULEN = 2 m (``A/(ρ·L^k)``,
    six significant digits): ``--wamit-length 2 --density`` undoes it, ``PER = 0`` is the
    infinite frequency, and the moved matrix matches the link-frame solve."""
    from capytaine.io.wamit import export_wamit_1

    ds = cpt.assemble_dataset(_solve(_hull_F(), p_FoP_F, [1.5, np.inf]), hydrostatics=False)
    wamit = tmp_path / "hull.1"
    export_wamit_1(ds, str(wamit), length_scale=2.0)
    sdf = tmp_path / "boat.sdf"
    sdf.write_text(LINK)
    base = [
        "addmass",
        str(sdf),
        "--from",
        str(wamit),
        "--link",
        "body",
        "--about",
        " ".join(f"{v:.17g}" for v in p_BoP_B),
        "--axes",
        f"0 0 {YAW_BF:.17g}",
        "--density",
        str(DENSITY),
        "--wamit-length",
        "2",
    ]
    code, _, err = run_cli([*base, "--frequency", "infinite", "--in-place"], capsys)
    assert code == 0, err
    A = read_sdf_bytes(sdf.read_bytes(), str(sdf), []).links[0].inertial.A_BBo_B
    assert A is not None
    A = A.linear_first()
    oracle = _oracle_A_BBo_B(np.inf)
    scale = np.max(np.abs(oracle))
    assert np.max(np.abs(A - oracle)) <= 2e-5 * scale, np.max(np.abs(A - oracle)) / scale
    assert "WAMIT .1 file hull.1" in sdf.read_text()
    # the zero-frequency limit is not in this file: refused, naming the file
    before = sdf.read_bytes()
    code, _, err = run_cli([*base, "--frequency", "zero", "--in-place"], capsys)
    assert code == 2 and "hull.1" in err and "PER = -1" in err and sdf.read_bytes() == before


def test_an_imported_result_goes_stale_with_the_hull(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The import records the link's collisions it describes (their digest, as ``--bem``
    writes it) and the dataset's own sha256: the audit is silent while that geometry stays as
    it was (the clean twin: only the rigid mass edited) and reports GZI212 once the hull is
    resized, pointing at a new import or a solve."""
    import hashlib

    from gzinertia.audit.runner import audit

    dataset = _dataset(tmp_path, [np.inf])
    sdf = tmp_path / "boat.sdf"
    sdf.write_text(LINK)
    code, _, err = run_cli(
        ["addmass", str(sdf), "--from", str(dataset), "--link", "body", "--in-place"], capsys
    )
    assert code == 0, err
    text = sdf.read_text()
    assert "geometry collisions=hull; mesh digest sha256:" in text
    assert f"dataset digest sha256:{hashlib.sha256(dataset.read_bytes()).hexdigest()[:16]}" in text

    mass = "<mass>{}</mass>"
    sdf.write_text(_edited(text, mass.format(sdf_builders.num(60)),
                           mass.format(sdf_builders.num(65))))
    assert "GZI212" not in {f.code for f in audit([str(sdf)]).findings}

    sdf.write_text(_edited(text, HULL, sdf_builders.box_geometry((1.2, 0.4, 0.3))))
    stale = [f for f in audit([str(sdf)]).findings if f.code == "GZI212"]
    assert len(stale) == 1 and stale[0].link == "boat::body"
    assert "was imported" in stale[0].message and "--from" in stale[0].message
    assert stale[0].values["origin"] == "imported"


#: (:func:`_visual_hull`) The hull as the link's visual (the 1 x 0.4 x 0.3 m box of :func:`_hull_F`, posed in B where
#: F puts it), its collision a thin buoyancy-proxy slab; the mass that of the water the hull
#: displaces (a vehicle that hovers).
PROXY = sdf_builders.box_geometry((0.3, 0.2, 0.01))


def _visual_hull(pose: sdf_builders.Pose6) -> str:
    return sdf_builders.model(sdf_builders.link(
        "body", sdf_builders.inertial(120.0, np.diag([2.0, 3.0, 4.0]), posed=False),
        sdf_builders.collision(PROXY, pose=None, name="proxy"),
        sdf_builders.visual(HULL, pose, "hull"),
    ), version="1.10", name="boat")


def test_import_for_the_visual_hull(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``addmass --from DATASET --geometry visual``: the result is taken to describe the link's
    visual hull (the collision a buoyancy proxy). The matrix is the Capytaine oracle's, as for
    collisions (the same change of point and axes); the comment names the visual and its
    digest; ``--check`` passes and the audit adds no finding (GZI204 and GZI207 defer to the
    imported hull; GZI304 keeps the proxy's buoyancy but says the added mass was imported for
    the visuals). Resizing the proxy leaves it current; resizing the visual makes it stale
    (GZI212), pointing at a new import for the visual."""
    from gzinertia.audit.runner import audit
    from gzinertia.physics.bem_provenance import parse_provenance

    dataset = _dataset(tmp_path, [np.inf])
    p_BoHo_B = R_BF @ np.array([0.25, 0.1, -1.0]) + p_BoFo_B  # the hull's centre, in B
    sdf = tmp_path / "boat.sdf"
    sdf.write_text(_visual_hull((*p_BoHo_B, 0.0, 0.0, YAW_BF)))
    before = {(f.code, f.link) for f in audit([str(sdf)]).findings}
    args = ["addmass", str(sdf), "--from", str(dataset), "--link", "body", "--geometry",
            "visual", "--about", " ".join(f"{v:.17g}" for v in p_BoP_B), "--axes",
            f"0 0 {YAW_BF:.17g}"]
    code, _, err = run_cli([*args, "--in-place"], capsys)
    assert code == 0, err
    link = read_sdf_bytes(sdf.read_bytes(), str(sdf), []).links[0]
    assert link.inertial.A_BBo_B is not None
    A = link.inertial.A_BBo_B.linear_first()
    oracle = _oracle_A_BBo_B(np.inf)
    assert np.max(np.abs(A - oracle)) <= 1e-5 * np.max(np.abs(oracle))
    provenance = parse_provenance(link.inertial.added_mass_comment)
    assert provenance is not None
    assert (provenance.element, provenance.collisions, provenance.origin) == (
        "visual", ("hull",), "imported")
    code, _, err = run_cli([*args, "--check"], capsys)
    assert code == 0, err

    findings = audit([str(sdf)]).findings
    after = {(f.code, f.link) for f in findings}
    assert after <= before, after - before
    proxy = [f.message for f in findings if f.code == "GZI304"]
    assert ("GZI304", "boat::body") in before and len(proxy) == 1
    assert "imported for the visuals" in proxy[0] and "gzinertia hydrostatics" in proxy[0]

    text = sdf.read_text()
    sdf.write_text(_edited(text, PROXY, sdf_builders.box_geometry((0.3, 0.2, 0.02))))
    assert "GZI212" not in {f.code for f in audit([str(sdf)]).findings}
    sdf.write_text(_edited(text, HULL, sdf_builders.box_geometry((1.1, 0.4, 0.3))))
    stale = [f for f in audit([str(sdf)]).findings if f.code == "GZI212"]
    assert len(stale) == 1 and stale[0].values["origin"] == "imported"
    assert "--from" in stale[0].message and "--geometry visual:hull" in stale[0].message
