"""``addmass --bem --geometry visual``: the hull is the link's visual, its collision a buoyancy
proxy (a thin slab, as in gz-sim's hydrodynamics tutorial).

Oracles: Tuckerman's closed form for the visual's ellipsoid (moved to the link origin by the
exact congruence), within the error the tool reports; the audit (GZI212 watches the visuals the
comment names, not the collisions; the edit adds no finding).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli
from scipy.spatial.transform import Rotation

from gzinertia.audit.runner import audit
from gzinertia.records import LinkRecord
from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose, rpy_from_rotation
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

from gzinertia.physics.bem import bem_added_mass
from gzinertia.physics.bem_provenance import parse_provenance
from gzinertia.sdf.visuals import link_visuals

DENSITY = 1000.0
RADII = (0.3, 0.15, 0.1)
R_BV = Rotation.from_euler("xyz", [0.2, 0.1, -0.4]).as_matrix()
p_BoVo_B = np.array([0.05, -0.02, 0.03])

def _model(
    tmp_path: Path, radii: tuple[float, float, float] = RADII, *, version: str = "1.10",
    shell_relative_to: str | None = None, visuals: tuple[str, ...] = (),
    frames: tuple[str, ...] = (),
) -> Path:
    """The turtle: a thin slab collision (the buoyancy proxy) and the hull drawn by the
    ellipsoid visual ``shell`` of ``radii`` at ``X_BV`` (in the frame ``shell_relative_to``
    names when given), then ``visuals``; each element of the link on its own line."""
    shell = sdf.visual(sdf.ellipsoid_geometry(radii), (*p_BoVo_B, *rpy_from_rotation(R_BV)),
                       "shell", relative_to=shell_relative_to)
    link = sdf.link("base_link", sdf.lines(
        sdf.inertial(10.0, np.diag([0.35, 0.35, 0.6]), posed=False),
        sdf.collision(sdf.box_geometry((0.6, 0.3, 0.01)), pose=None, name="proxy"),
        shell, *visuals))
    return sdf.write(tmp_path, sdf.model(link, *frames, version=version, name="turtle"),
                     "turtle.sdf")


def _assert_bem_of_the_ellipsoid_at(link: LinkRecord, X_BV: Pose) -> None:
    """The link's written ``<fluid_added_mass>`` is the BEM of its visuals (the result cache
    holds exactly that solve) and within the reported error of Tuckerman's closed form for the
    ellipsoid of :data:`RADII` posed at ``X_BV``, moved to the link origin."""
    assert link.inertial.A_BBo_B is not None
    A = link.inertial.A_BBo_B.linear_first()
    visuals, skipped = link_visuals(link)
    assert skipped == 0
    result = bem_added_mass(visuals, DENSITY, quality="fast", element="visual")
    assert result.cached  # the command solved exactly this
    exact = AddedMass(
        ellipsoid_added_mass_matrix(RADII, DENSITY), ordering="linear-first", point="Vo", axes="V"
    ).in_link(X_BV).linear_first()
    assert np.all(np.abs(A - exact) <= result.error_bound)


ARGS = ["--bem", "--geometry", "visual", "--quality", "fast", "--density", str(DENSITY)]


def test_the_visual_hull_is_meshed_not_the_proxy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The written matrix is the BEM of the visual's ellipsoid: within the reported error of
    Tuckerman's closed form moved to the link origin (the proxy slab's would be an order of
    magnitude off in heave); the comment says visuals were meshed; a re-run changes nothing,
    ``--check`` passes and the audit adds no finding."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = _model(tmp_path)
    before = {(f.code, f.link) for f in audit([str(path)]).findings}
    code, _, err = run_cli(["addmass", str(path), *ARGS, "--in-place"], capsys)
    assert code == 0, err
    assert "visuals shell" in err
    text = path.read_text()
    link = read_sdf_bytes(text.encode(), str(path), []).links[0]
    provenance = parse_provenance(link.inertial.added_mass_comment)
    assert provenance is not None and provenance.element == "visual"
    assert provenance.collisions == ("shell",)
    _assert_bem_of_the_ellipsoid_at(link, Pose(p_BoVo_B, R_BV))

    code, _, err = run_cli(["addmass", str(path), *ARGS, "--check"], capsys)
    assert code == 0, err
    code, _, err = run_cli(["addmass", str(path), *ARGS, "--in-place"], capsys)
    assert code == 0 and path.read_text() == text
    after = {(f.code, f.link) for f in audit([str(path)]).findings}
    assert after <= before, after - before


def test_stale_when_the_visual_changes_not_when_the_proxy_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GZI212 follows the geometry that was meshed: resizing the proxy collision leaves the
    matrix current; resizing the visual makes it stale, and the fix the finding suggests
    meshes the visual again."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = _model(tmp_path)
    code, _, err = run_cli(["addmass", str(path), *ARGS, "--in-place"], capsys)
    assert code == 0, err
    path.write_text(path.read_text().replace("0.6 0.3 0.01", "0.7 0.3 0.02"))
    assert "GZI212" not in {f.code for f in audit([str(path)]).findings}
    path.write_text(path.read_text().replace("<radii>0.3 ", "<radii>0.35 "))
    stale = [f for f in audit([str(path)]).findings if f.code == "GZI212"]
    assert len(stale) == 1, stale
    assert "visuals (shell)" in stale[0].message
    assert "--geometry visual:shell" in stale[0].message


def test_named_visual_and_unknown_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--geometry visual:NAME`` picks visuals by name; a name the link has not is refused in
    one line naming the link's visuals, exit 2, file untouched."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = _model(tmp_path)
    old = path.read_bytes()
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--geometry", "visual:hull", "--in-place"], capsys
    )
    assert code == 2 and path.read_bytes() == old
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "no visual named 'hull'" in lines[0] and "shell" in lines[0], err


def test_a_visual_that_cannot_be_read_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A visual that cannot be read (its ``relative_to`` names no frame) is not meshed:
    meshing the others alone would solve a hull with a part missing, so the command refuses
    (one line, the visual's file and line and why, exit 2)."""
    fin = sdf.visual(sdf.box_geometry((0.1, 0.01, 0.1)), sdf.ORIGIN, "fin",
                     relative_to="nowhere")
    path = _model(tmp_path, visuals=(fin,))
    line = 1 + path.read_text().splitlines().index(
        next(x for x in path.read_text().splitlines() if 'name="fin"' in x)
    )
    old = path.read_bytes()
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--geometry", "visual", "--in-place"], capsys
    )
    assert code == 2 and path.read_bytes() == old
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"{path}:{line}:" in lines[0], err
    assert "'fin' cannot be meshed" in lines[0] and "'nowhere'" in lines[0], err


@pytest.mark.oracle("sdformat")
def test_a_visual_posed_relative_to_a_frame_is_meshed_where_libsdformat_puts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hull visual posed ``relative_to`` a frame attached to the link (not the link): the
    written matrix is Tuckerman's closed form moved to the link origin by the pose libsdformat
    resolves for the visual (``Visual::SemanticPose()`` in the link), within the error the
    tool reports."""
    from oracles.sdformat_oracle import read_with_sdformat

    mount = sdf.frame("mount", attached_to="base_link", pose=(0.1, -0.05, 0.02, 0.3, -0.2, 0.5))
    path = _model(tmp_path, version="1.9", shell_relative_to="mount", frames=(mount,))
    [oracle] = read_with_sdformat([path])
    assert oracle["errors"] == [], oracle["errors"]
    [visual] = oracle["links"][0]["visuals"]
    X_BV = np.array(visual["X_BV"], dtype=float).reshape(4, 4)
    assert np.linalg.norm(X_BV[:3, 3] - p_BoVo_B) > 0.05  # the frame does move it
    code, _, err = run_cli(["addmass", str(path), *ARGS, "--in-place"], capsys)
    assert code == 0, err
    link = read_sdf_bytes(path.read_bytes(), str(path), []).links[0]
    _assert_bem_of_the_ellipsoid_at(link, Pose(X_BV[:3, 3], X_BV[:3, :3]))


def _mesh_model(uri: str) -> str:
    """A boat whose hull is drawn by the mesh visual at ``uri`` over the slab proxy."""
    return sdf.model(sdf.link(
        "hull", sdf.inertial(10.0, np.diag([0.35, 0.35, 0.6]), posed=False),
        sdf.collision(sdf.box_geometry((0.6, 0.3, 0.01)), pose=None, name="proxy"),
        sdf.visual(sdf.mesh_geometry(uri), pose=None, name="shell"),
    ), version="1.10", name="boat")


@pytest.mark.parametrize("uri", ["meshes/shell.stl", "model://shellpkg/meshes/shell.stl"])
def test_a_visual_mesh_file_that_changes_is_reported_through_the_audit_cache(
    uri: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The visual's mesh file is a dependency of the model for the audit cache: re-exported
    after the solve (the hull lengthened), a cached audit re-checks the file and reports
    GZI212; unchanged, it is silent. A ``model://`` mesh is found through the model paths the
    audit is given (the same as the command's ``-m``)."""
    import trimesh

    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "bem-cache"))
    monkeypatch.delenv("GZ_SIM_RESOURCE_PATH", raising=False)
    root = tmp_path / "models"
    package = root / "shellpkg"
    (package / "meshes").mkdir(parents=True)
    path = (tmp_path / "boat.sdf") if uri.startswith("model://") else (package / "boat.sdf")
    stl = package / "meshes" / "shell.stl"
    trimesh.creation.box((0.5, 0.3, 0.2)).export(stl)
    path.write_text(_mesh_model(uri))
    paths = [str(root)] if uri.startswith("model://") else []
    flags = [arg for p in paths for arg in ("-m", p)]
    code, _, err = run_cli(
        ["addmass", str(path), "--bem", "--geometry", "visual", "--quality", "fast",
         *flags, "--in-place"],
        capsys,
    )
    assert code == 0, err
    assert "geometry visuals=shell" in path.read_text()
    cache = tmp_path / "audit-cache"

    def gzi212() -> list[str]:
        found = audit([str(path)], model_paths=paths, cache_dir=cache).findings
        return [f.message for f in found if f.code == "GZI212"]

    assert gzi212() == []
    assert gzi212() == []  # from the cache
    trimesh.creation.box((0.6, 0.3, 0.2)).export(stl)
    stale = gzi212()
    assert len(stale) == 1 and "visuals (shell)" in stale[0], stale


def test_proxy_finding_says_the_added_mass_came_from_the_visuals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """GZI304 (the slab is a buoyancy proxy: its volume a tenth of the visual's) stays after a
    BEM of the visuals, since Gazebo's buoyancy still sees the slab; but it no longer tells the
    user to fit the added mass to the visual's shape, which is what was done: it says the added
    mass came from a BEM solve of the visuals. Once the visual changes (GZI212: stale), the
    finding gives the advice again."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = _model(tmp_path)

    def proxy() -> list[str]:
        return [f.message for f in audit([str(path)]).findings if f.code == "GZI304"]

    [before] = proxy()
    assert "fit the added mass to the visual's shape" in before
    code, _, err = run_cli(["addmass", str(path), *ARGS, "--in-place"], capsys)
    assert code == 0, err
    [after] = proxy()
    assert after.split(". ")[0] == before.split(". ")[0]  # the same evidence
    assert "BEM solve of the visuals" in after and "gzinertia hydrostatics" in after
    assert "fit the added mass to the visual's shape" not in after
    assert "any added mass fitted to the collisions" not in after
    path.write_text(path.read_text().replace("<radii>0.3 ", "<radii>0.29 "))
    [stale] = proxy()
    assert "fit the added mass to the visual's shape" in stale
