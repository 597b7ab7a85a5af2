"""``gzinertia migrate`` on the public vehicles of :mod:`classic_vehicles` and VRX's WAM-V: the
migrated file applies the plugin's wrench in gz-sim (Hydrodynamics terms read back, DART's
tensor as gz-physics builds it), adds no audit finding, is up to date for ``--check``, and loads
in libsdformat and Drake; the gz-sim tutorial's Tethys numbers land in the right cells."""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import classic_oracles as oracle
import classic_vehicles as vehicles
import numpy as np
import pytest
from conftest import run_cli
from hydro_oracles import gz_hydrodynamics_wrench
from sdfgen import random_rotation
from test_classic_vrx import WAMV
from test_docs_api import python_blocks
from test_migrate_math import FLIP, dart_fluid_wrench

import gzinertia
from gzinertia.audit.runner import audit
from gzinertia.gazebo.dart import dart_spatial_tensor

#: MBARI's Tethys as gz-sim's examples give it (gazebosim/gz-sim examples/worlds/
#: lrauv_control_demo.sdf, in /work/shared/corpus): <xDotU>... and <xUabsU>..., Fossen-negative;
#: here as the UUV plugin block a classic Tethys would carry (added mass positive).
TETHYS_ADDED = (4.876161, 126.324739, 126.324739, 0.0, 33.46, 33.46)
TETHYS_QUADRATIC = (-6.2282, -601.27, -601.27, -0.1916, -632.698957, -632.698957)
TETHYS_LINK = f"""
<link name="base_link">
  <volume>0.1</volume>
  <hydrodynamic_model><type>fossen</type>
    <added_mass>{" ".join(f"{TETHYS_ADDED[i] if i == j else 0}" for i in range(6)
                          for j in range(6))}</added_mass>
    <quadratic_damping>{" ".join(map(str, TETHYS_QUADRATIC))}</quadratic_damping>
  </hydrodynamic_model>
</link>"""
TETHYS_MASS = 147.8671  # the same file's <mass>

V = vehicles
CYLINDER = "<cylinder><radius>{}</radius><length>{}</length></cylinder>"
VEHICLES = {
    "rexrov": (V.REXROV_LINK, V.REXROV_MASS, "<box><size>2.6 1.5 1.6</size></box>",
               V.REXROV_INERTIA, "0.05 0 -0.1 0 0 0"),
    "eca_a9": (V.ECA_A9_LINK, V.ECA_A9_MASS, CYLINDER.format(0.115, 1.98), V.ECA_A9_INERTIA,
               "0 0 0 0 0 0"),
    "lauv": (V.LAUV_LINK, V.LAUV_MASS, CYLINDER.format(0.075, 1.08), (0.1, 1.7, 1.7),
             "0 0 0 0 0 0"),
    "tethys": (TETHYS_LINK, TETHYS_MASS, CYLINDER.format(0.12, 2.3), (3.0, 41.98, 41.98),
               "0 0 0 0 0 0"),
}


def _vehicle(tmp_path: Path, name: str) -> Path:
    if name == "wamv":
        text = ('<?xml version="1.0"?>\n<sdf version="1.9"><model name="boat">\n'
                '<link name="base_link"><inertial><mass>180</mass><inertia><ixx>120</ixx>'
                "<iyy>393</iyy><izz>446</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>"
                "</inertial><collision name='hull'><geometry><box><size>4.9 2.4 0.4</size>"
                f"</box></geometry></collision></link>\n{WAMV}\n</model></sdf>\n")
    else:
        block, mass, collision, inertia, pose = VEHICLES[name]
        along_x = "0 0 0 0 1.5707963267948966 0" if "cylinder" in collision else ""
        text = vehicles.uuv_model(block, mass, collision, inertia, pose=pose,
                                  collision_pose=along_x)
    path = tmp_path / f"{name}.sdf"
    path.write_text(text)
    return path


def _keys(path: Path) -> set[tuple[str, str | None]]:
    return {(f.code, f.link) for f in audit([str(path)]).findings}


@pytest.mark.parametrize("name", [*sorted(VEHICLES), "wamv"])
def test_migrated_vehicle_adds_no_finding_and_is_up_to_date(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _vehicle(tmp_path, name)
    before = _keys(path)
    status, _out, err = run_cli(["migrate", str(path), "--in-place"], capsys)
    assert status == 0, err
    assert "net buoyancy" in err or name == "wamv"
    text = path.read_text()
    assert "<fluid_added_mass>" in text
    # ECA A9 declares forward-speed damping only: written as the signed <iJU> terms, and said
    assert "gz-sim-hydrodynamics-system" in text
    # with <fluid_added_mass> the plugin's added mass is off, as `gzinertia hydro` writes it
    assert "<disable_added_mass>true</disable_added_mass>" in text
    assert ("linear_damping_forward_speed> is written as the signed terms" in err) is (
        name == "eca_a9")
    assert "underwater_object" not in text and "usv_gazebo_dynamics" not in text
    # the plugin's numbers now meet the added-mass rules: any new finding is said
    new = _keys(path) - {k for k in before if not k[0].startswith("GZI5")}
    assert all(f"the audit now reports {code} on it" in err for code, _link in new)
    assert {code for code, _link in new} <= {"GZI207"}
    status, _out, err = run_cli(["migrate", str(path), "--check"], capsys)
    assert status == 0, err


def assert_load_as_before(paths: list[Path], originals: list[Path]) -> None:
    """Each edited file of ``paths`` loads in libsdformat (the compiled oracle) with no error
    its original (same index of ``originals``) did not have and the same links and masses, and
    in Drake; skipped where the oracle cannot be built."""
    from oracles.drake_oracle import load_in_drake
    from oracles.sdformat_oracle import read_with_sdformat

    try:
        loaded = read_with_sdformat([*paths, *originals])
    except RuntimeError as exc:  # pragma: no cover - needs g++ and libsdformat
        pytest.skip(str(exc))
    for path, result, before in zip(paths, loaded, loaded[len(paths):], strict=False):
        # no new error (ECA A9's published inertia is invalid before and after: GZI104)
        assert [e["message"] for e in result["errors"]] == [
            e["message"] for e in before["errors"]], path.name
        assert [(lk["name"], lk["mass"]) for lk in result["links"]] == [
            (lk["name"], lk["mass"]) for lk in before["links"]], path.name
        drake = load_in_drake(path)
        assert drake.ok, (path.name, drake.error)


@pytest.mark.oracle("sdformat")
def test_migrated_vehicles_load_in_libsdformat_and_drake(tmp_path: Path) -> None:
    paths, originals = [], []
    for name in [*sorted(VEHICLES), "wamv"]:
        path = _vehicle(tmp_path, name)
        originals.append(path.with_suffix(".orig.sdf"))
        originals[-1].write_bytes(path.read_bytes())
        gzinertia.migrate(path).write()
        paths.append(path)
    assert_load_as_before(paths, originals)


def _source_wrench(block: str, mass: float, v: np.ndarray, w: np.ndarray, a_B: np.ndarray,
                   R: np.ndarray) -> np.ndarray:
    mats = oracle.uuv_link_matrices(ET.fromstring(block), mass)
    f, t = oracle.uuv_tau(mats, v, w, FLIP * a_B, R, np.zeros(3))
    return np.concatenate([f, t])  # the centre of mass at the origin here


@pytest.mark.parametrize("name", ["lauv", "tethys"])
def test_the_migrated_file_applies_the_plugins_wrench_in_gz_sim(name: str,
                                                                tmp_path: Path) -> None:
    """Read back: the Hydrodynamics terms through gz-sim's force law and DART's tensor as
    gz-physics builds it give the plugin's wrench to 1e-9 (centre of mass at the origin and a
    symmetric ``Ma``: the case where the conversion is exact)."""
    path = _vehicle(tmp_path, name)
    gzinertia.migrate(path).write()
    link = gzinertia.read(path).link("vehicle::base_link")
    A = dart_spatial_tensor(link.inertial, "linear-first") - link.M_BBo_B.linear_first()
    terms = dict(link.hydrodynamics[0].terms)
    block, mass = VEHICLES[name][0], VEHICLES[name][1]
    rng = np.random.default_rng(31)
    for _ in range(30):
        v, w, a_B, R = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 2, 6), \
            random_rotation(rng)
        f_W, t_W = gz_hydrodynamics_wrench(terms, R, R @ v, R @ w)
        got = np.concatenate([R.T @ f_W, R.T @ t_W]) + dart_fluid_wrench(
            A, np.concatenate([v, w]), a_B)
        want = _source_wrench(block, mass, v, w, a_B, R)
        assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, float(np.max(np.abs(want))))


def test_off_centre_rexrov_reports_the_measured_asymmetry(tmp_path: Path) -> None:
    """RexROV's centre of mass off the origin and its (3,6)/(6,3) pair: the written matrix is
    the symmetric part of ``T·F·Ma·F`` (built here from the oracle's ``Ma``), and the gap the
    edit reports, and writes into the file's comment, is the measured one."""
    path = _vehicle(tmp_path, "rexrov")
    with pytest.warns(gzinertia.GzInertiaWarning, match="not symmetric"):
        edit = gzinertia.migrate(path)
    Ma = oracle.uuv_link_matrices(ET.fromstring(V.REXROV_LINK), V.REXROV_MASS)["Ma"]
    p = np.array([0.05, 0.0, -0.1])
    T = np.eye(6)
    T[3:, :3] = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    exact = T @ np.diag(FLIP) @ Ma @ np.diag(FLIP)
    [item] = edit.links
    written = item.equivalent.A_BBo_B.linear_first()
    np.testing.assert_allclose(written, 0.5 * (exact + exact.T), rtol=1e-12, atol=1e-9)
    gap = np.linalg.svd(exact - written, compute_uv=False)[0]
    assert item.equivalent.added_mass_gap == pytest.approx(gap, rel=1e-9)
    assert f"up to {gap:.4g} per unit acceleration" in edit.text
    assert item.buoyancy is not None
    assert item.buoyancy.collision_volume == pytest.approx(2.6 * 1.5 * 1.6)
    assert item.buoyancy.net_plugin == pytest.approx(1028 * 1.83826 / vehicles.REXROV_MASS - 1)


def test_tethys_lands_in_the_right_cells_and_the_tutorials_matrix_is_flagged(
    tmp_path: Path,
) -> None:
    """gz-sim's tutorial writes pp=0.1916 (the kPabsP damping value), pq=qr=33.46, qq=rr=0;
    the migration writes qq=rr=33.46, no cross terms, and 0.1916 as the damping term. The
    tutorial's matrix is not positive semi-definite (computed) and the audit says so."""
    path = _vehicle(tmp_path, "tethys")
    edit = gzinertia.migrate(path)
    A = edit.links[0].equivalent.A_BBo_B.linear_first()
    np.testing.assert_array_equal(A, np.diag(TETHYS_ADDED))
    assert edit.links[0].equivalent.damping["kPabsP"] == -0.1916
    tutorial = np.diag(TETHYS_ADDED)
    tutorial[3, 3], tutorial[4, 4], tutorial[5, 5] = 0.1916, 0.0, 0.0
    tutorial[3, 4] = tutorial[4, 3] = tutorial[4, 5] = tutorial[5, 4] = 33.46
    assert np.linalg.eigvalsh(tutorial)[0] < 0.0 <= np.linalg.eigvalsh(A)[0]
    names = ("xx", "xy", "xz", "xp", "xq", "xr", "yy", "yz", "yp", "yq", "yr", "zz", "zp", "zq",
             "zr", "pp", "pq", "pr", "qq", "qr", "rr")
    cells = [(i, j) for i in range(6) for j in range(i, 6)]
    values = "".join(f"<{n}>{tutorial[i, j]}</{n}>" for n, (i, j) in
                     zip(names, cells, strict=True))
    text = edit.text.replace(edit.text[edit.text.index("<fluid_added_mass>"):
                                       edit.text.index("</fluid_added_mass>")],
                             f"<fluid_added_mass>{values}")
    (tmp_path / "tutorial.sdf").write_text(text)
    (tmp_path / "migrated.sdf").write_text(edit.text)
    assert "GZI202" in {c for c, _ in _keys(tmp_path / "tutorial.sdf")}
    assert "GZI202" not in {c for c, _ in _keys(tmp_path / "migrated.sdf")}


def test_keep_classic_keeps_the_block_and_a_xacro_without_blocks_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _vehicle(tmp_path, "lauv")
    edit = gzinertia.migrate(path, keep_classic=True)
    assert "uuv_underwater_object" in edit.text and "<fluid_added_mass>" in edit.text
    urdf = tmp_path / "r.urdf.xacro"
    urdf.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><link name="a"/>'
                    "</robot>")
    status, _out, err = run_cli(["migrate", str(urdf), "--check"], capsys)  # xacro: issue 27
    assert status == 0 and "nothing to migrate" in err, err
    status, _out, err = run_cli(["migrate", str(path), "--to", "classic"], capsys)
    assert status == 2


def test_a_file_without_classic_plugins_is_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.sdf"
    path.write_text('<sdf version="1.9"><model name="m"><link name="a"/></model></sdf>')
    status, _out, err = run_cli(["migrate", str(path), "--check"], capsys)
    assert status == 0 and "nothing to migrate" in err


def test_the_worked_example_of_docs_migrate_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page's ```python block, run in a scratch folder, prints what the page says."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "migrate.md").read_text()
    [block] = python_blocks(page)
    printed = re.search(r"^prints\n\n```\n(.*?)^```", page, flags=re.S | re.M)
    assert printed is not None
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gzinertia.GzInertiaWarning)
        exec(compile(block, "docs/migrate.md", "exec"), {"__name__": "docs_migrate"})
    assert capsys.readouterr().out == printed[1]
    assert "<fluid_added_mass>" in (tmp_path / "lauv.sdf").read_text()


def _urdf(tmp_path: Path, block: str, mass: float, inertia: tuple[float, float, float],
          com: str) -> Path:
    """A one-link URDF holding ``block`` in the plugin, in a ``<gazebo>`` element."""
    path = tmp_path / "vehicle.urdf"
    path.write_text(f"""<?xml version="1.0"?>
<robot name="vehicle">
  <link name="base_link">
    <inertial>
      <origin xyz="{com}" rpy="0 0 0"/>
      <mass value="{mass}"/>
      <inertia ixx="{inertia[0]}" iyy="{inertia[1]}" izz="{inertia[2]}" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <collision>
      <origin xyz="0 0 0" rpy="0 1.5707963267948966 0"/>
      <geometry><cylinder radius="0.075" length="1.08"/></geometry>
    </collision>
  </link>
  <gazebo>
    <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">{block}
    </plugin>
  </gazebo>
</robot>
""")
    return path


def test_urdf_stays_urdf_with_the_hydrodynamics_plugin_holding_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """URDF cannot carry <fluid_added_mass> (sdformat#1467): the added mass goes to the
    Hydrodynamics plugin as ``D = -A`` (its symmetric part) with the damping terms, read back
    by gzinertia's URDF reader (libsdformat's conversion); the damping gives the plugin's
    damping wrench to 1e-9 with a current; the classic ``<gazebo>`` element is gone."""
    from gzinertia.hydrodynamics_terms import derivatives

    com = np.array([0.01, 0.0, -0.02])
    path = _urdf(tmp_path, V.LAUV_LINK, V.LAUV_MASS, (0.1, 1.7, 1.7), "0.01 0 -0.02")
    before = _keys(path)
    status, _out, err = run_cli(["migrate", str(path), "--in-place"], capsys)
    assert status == 0, err
    assert "C_A(nu)nu from the diagonal only" in err  # the plugin's Coriolis, said
    text = path.read_text()
    assert text.count("<gazebo>") == 1 and "underwater_object" not in text
    assert "<fluid_added_mass>" not in text
    new = _keys(path) - {k for k in before if not k[0].startswith("GZI5")}
    assert all(f"the audit now reports {code} on it" in err for code, _link in new)
    assert run_cli(["migrate", str(path), "--check"], capsys)[0] == 0
    link = gzinertia.read(path).links[0]
    terms = dict(link.hydrodynamics[0].terms)
    Ma = oracle.uuv_link_matrices(ET.fromstring(V.LAUV_LINK), V.LAUV_MASS)["Ma"]
    T = np.eye(6)
    T[3:, :3] = np.array([[0, -com[2], com[1]], [com[2], 0, -com[0]], [-com[1], com[0], 0]])
    exact = T @ np.diag(FLIP) @ Ma @ np.diag(FLIP)
    np.testing.assert_allclose(-derivatives(terms), 0.5 * (exact + exact.T), atol=1e-9)
    damping = {n: v for n, v in terms.items() if "Dot" not in n}
    mats = oracle.uuv_link_matrices(ET.fromstring(V.LAUV_LINK), V.LAUV_MASS)
    mats["Ma"] = np.zeros((6, 6))  # the damping part of the plugin's law
    rng = np.random.default_rng(5)
    for _ in range(20):
        v, w, flow, R = rng.normal(0, 1.5, 3), rng.normal(0, 1, 3), rng.normal(0, 0.5, 3), \
            random_rotation(rng)
        f, t = oracle.uuv_tau(mats, v, w, np.zeros(6), R, flow)
        want = np.concatenate([f, t + np.cross(com, f)])
        f_W, t_W = gz_hydrodynamics_wrench(damping, R, R @ v, R @ w, flow)
        got = np.concatenate([R.T @ f_W, R.T @ t_W])
        assert np.max(np.abs(got - want)) <= 1e-9 * max(1.0, float(np.max(np.abs(want))))


def test_urdf_rexrov_added_mass_beyond_the_explicit_bound_is_not_migrated(
    tmp_path: Path,
) -> None:
    """RexROV's heave added mass (3659.9 kg) exceeds its mass (1862.87 kg): in a URDF the added
    mass can only go to gz-sim's Hydrodynamics plugin, whose explicit scheme then diverges
    (gz-sim#1923, GZI506's condition, computed from the numbers). So the link's added mass is
    not migrated: said in the skipped links with the matrix, the damping migrated, and the
    audit afterwards finds no GZI506 (edit, then audit: no finding added)."""
    path = _urdf(tmp_path, V.REXROV_LINK, V.REXROV_MASS, V.REXROV_INERTIA, "0 0 0")
    with pytest.warns(gzinertia.GzInertiaWarning):
        edit = gzinertia.migrate(path)
    Ma = oracle.uuv_link_matrices(ET.fromstring(V.REXROV_LINK), V.REXROV_MASS)["Ma"]
    over = [axis for axis, a, r in zip("uvw", np.diag(Ma)[:3], [V.REXROV_MASS] * 3,
                                       strict=True) if a > r]
    (said,) = [s for s in edit.skipped if "gz-sim#1923" in s]
    assert over == ["w"] and "w: added 3659.9 > rigid 1862.87" in said
    assert "added mass not migrated" in said and "3659.9" in said.split("not written")[1]
    (migrated,) = edit.links
    assert not migrated.added_mass_written and migrated.terms_written
    edit.write()
    (plugin,) = gzinertia.read(path).links[0].hydrodynamics
    assert not any("Dot" in name for name in plugin.terms) and plugin.terms
    assert [f for f in audit([str(path)]).findings if f.code == "GZI506"] == []


@pytest.mark.oracle("sdformat")
def test_migrated_urdf_loads_in_libsdformat_and_drake(tmp_path: Path) -> None:
    from oracles.drake_oracle import load_in_drake
    from oracles.sdformat_oracle import read_with_sdformat

    path = _urdf(tmp_path, V.LAUV_LINK, V.LAUV_MASS, (0.1, 1.7, 1.7), "0.01 0 -0.02")
    gzinertia.migrate(path).write()
    try:
        [loaded] = read_with_sdformat([path])
    except RuntimeError as exc:  # pragma: no cover - needs g++ and libsdformat
        pytest.skip(str(exc))
    assert not loaded["errors"] and [lk["mass"] for lk in loaded["links"]] == [V.LAUV_MASS]
    assert load_in_drake(path).ok


@pytest.mark.parametrize("case", ["unknown_link", "massless", "refused_block", "nan", "twice"])
def test_hostile_blocks_get_one_line_or_a_said_skip(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A block naming a link the model lacks is skipped, as the plugin skips it (with the
    reason); a massless link migrates without a net buoyancy (said); a block the plugin would
    refuse, or a non-finite value, is one line naming the file, exit 2, nothing written."""
    block = {
        "unknown_link": V.LAUV_LINK.replace('name="base_link"', 'name="fin"'),
        "massless": V.LAUV_LINK,
        "refused_block": V.LAUV_LINK.replace("<type>fossen</type>", "<type>torpedo</type>"),
        "nan": V.LAUV_LINK.replace("-2.4 0 0 0 0 0", "nan 0 0 0 0 0", 1),
        "twice": V.LAUV_LINK + V.LAUV_LINK,
    }[case]
    path = tmp_path / "v.sdf"
    path.write_text(vehicles.uuv_model(block, 0.0 if case == "massless" else V.LAUV_MASS,
                                       CYLINDER.format(0.075, 1.08)))
    original = path.read_bytes()
    status, _out, err = run_cli(["migrate", str(path), "--in-place"], capsys)
    if case == "unknown_link":
        assert status == 0 and "skipped fin: the model has no such link" in err
        assert path.read_bytes() == original or "underwater_object" not in path.read_text()
    elif case == "massless":
        assert status == 0, err
        assert "mass is not positive: the net buoyancy is not computed" in err
    else:
        assert status == 2 and len(err.strip().splitlines()) == 1, err
        assert str(path) in err and "Traceback" not in err
        assert path.read_bytes() == original


@pytest.mark.parametrize("suffix", [".sdf", ".urdf"])
def test_two_links_of_one_model_migrate_together(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two blocks of one plugin, damping only (a new Hydrodynamics plugin each, both appended
    to the same model or robot): both written, read back, and up to date for ``--check``."""
    damping = ("<hydrodynamic_model><type>fossen</type><linear_damping>-1 -2 -3 -4 -5 -6"
               "</linear_damping></hydrodynamic_model>")
    blocks = "".join(f'<link name="{n}"><volume>0.001</volume>{damping}</link>' for n in "ab")
    inertial = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" '
                'ixz="0" iyz="0"/></inertial>')
    if suffix == ".urdf":
        text = (f'<robot name="r"><link name="a">{inertial}</link><link name="b">{inertial}'
                '</link><joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
                '</joint><gazebo><plugin name="p" filename="libuuv_underwater_object_plugin.so">'
                f"{blocks}</plugin></gazebo></robot>")
    else:
        sdf_inertial = ("<inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1"
                        "</izz></inertia></inertial>")
        text = (f'<sdf version="1.9"><model name="m"><link name="a">{sdf_inertial}</link>'
                f'<link name="b">{sdf_inertial}</link><plugin name="p" '
                f'filename="libuuv_underwater_object_plugin.so">{blocks}</plugin></model></sdf>')
    path = tmp_path / f"two{suffix}"
    path.write_text(text)
    status, _out, err = run_cli(["migrate", str(path), "--in-place"], capsys)
    assert status == 0, err
    links = gzinertia.read(path).links
    assert sorted(lk.hydrodynamics[0].terms["kP"] for lk in links) == [-4.0, -4.0]
    assert run_cli(["migrate", str(path), "--check"], capsys)[0] == 0


@pytest.mark.parametrize("suffix", [".sdf", ".urdf"])
def test_keep_classic_then_check_is_up_to_date(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the classic block kept, a re-run finds the link migrated already: ``--check``
    right after ``--in-place`` exits 0."""
    if suffix == ".urdf":
        path = _urdf(tmp_path, V.LAUV_LINK, V.LAUV_MASS, (0.1, 1.7, 1.7), "0.01 0 -0.02")
    else:
        path = _vehicle(tmp_path, "rexrov")
    status, _out, err = run_cli(["migrate", str(path), "--in-place", "--keep-classic"], capsys)
    assert status == 0, err
    status, _out, err = run_cli(["migrate", str(path), "--check", "--keep-classic"], capsys)
    assert status == 0 and "migrated already" in err, err
