"""Each audit rule on a model that triggers it and a near-identical twin that does not.

Twins are checked with every rule on: a clean twin has no finding at all (the rules make no
noise on correct models). The numbers come from oracles: Drake's ``UnitInertia`` and
``RotationalInertia.CouldBePhysicallyValid`` (rigid inertia), DART's spatial tensor and
``Inertia.transformed`` (change of point), MuJoCo's ``geom_fluid`` (ellipsoid added mass),
SciPy's generalized eigenvalues (kinetic-energy error), the sphere-sphere distance (overlap).
Models are built with :mod:`sdf_builders`; the audit is run with :mod:`audit_helpers`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import clean, findings_of, mujoco_added_mass, run
from conftest import EXAMPLES, random_rotation
from sdf_builders import (
    BOX,
    BOX_MASS,
    MODEL_FRAME,
    added_mass_xml,
    auto_inertial,
    box,
    box_inertia,
    box_link,
    collision,
    ellipsoid,
    hydro_plugin,
    include,
    inertia_xml,
    inertial,
    link,
    model,
    model_config,
    plane_geometry,
    sphere,
    sphere_inertia,
    world,
    write,
)

from gzinertia.audit.rules import RULES

# ---------------------------------------------------------------------------------------------
# registry


def test_every_rule_of_the_issue_exists_with_its_severity() -> None:
    expected = {
        "GZI101": "error", "GZI102": "warning", "GZI103": "error", "GZI104": "error",
        "GZI105": "warning", "GZI106": "warning", "GZI107": "warning", "GZI108": "warning",
        "GZI109": "error", "GZI201": "warning", "GZI202": "error", "GZI203": "error",
        "GZI204": "warning", "GZI205": "error", "GZI206": "error", "GZI207": "warning",
        "GZI208": "warning", "GZI209": "info", "GZI210": "info",
    }
    for code, severity in expected.items():
        assert RULES[code].info.severity == severity, code
    repo = EXAMPLES.parent
    for code, rule in RULES.items():
        assert rule.info.doc == f"docs/rules/{code}.md"
        assert (repo / rule.info.doc).is_file(), f"{code} has no documentation page"


# ---------------------------------------------------------------------------------------------
# GZI101-GZI111: rigid inertia


@pytest.mark.oracle("pydrake")
def test_gzi101_negative_or_zero_mass_on_a_moving_link(tmp_path: Path) -> None:
    I = box_inertia(BOX_MASS, BOX)
    found = findings_of(tmp_path, model(box_link(mass=-2.0, I=I)), "GZI101")
    assert len(found) == 1 and found[0].values["mass"] == -2.0
    found = findings_of(tmp_path, model(box_link(mass=0.0, I=I)), "GZI101")
    assert len(found) == 1
    # twins: a static model may have zero mass; the right mass is clean
    assert findings_of(tmp_path, model(box_link(mass=0.0, I=I), static=True), "GZI101") == []
    clean(tmp_path, model(box_link()))


@pytest.mark.oracle("pydrake")
def test_gzi102_missing_or_commented_inertial(tmp_path: Path) -> None:
    bare = link("body", box(BOX))
    commented = link("body", "<!-- <inertial><mass>24</mass></inertial> -->", box(BOX))
    assert len(findings_of(tmp_path, model(bare), "GZI102")) == 1
    found = findings_of(tmp_path, model(commented), "GZI102")
    assert len(found) == 1 and found[0].values["commented_out"] is True
    # twins: static, welded to the world, a collision-less helper link, an inertial written
    assert findings_of(tmp_path, model(bare, static=True), "GZI102") == []
    weld = '<joint name="w" type="fixed"><parent>world</parent><child>body</child></joint>'
    assert findings_of(tmp_path, model(bare, weld), "GZI102") == []
    assert findings_of(tmp_path, model(link("frame_only")), "GZI102") == []
    clean(tmp_path, model(box_link()))


@pytest.mark.oracle("pydrake")
def test_gzi103_gzi104_agree_with_drake_could_be_physically_valid(
    tmp_path: Path, rng: np.random.Generator
) -> None:
    """With ``--tolerance drake`` the audit flags (GZI103 or GZI104) exactly the inertias that
    Drake's ``RotationalInertia.CouldBePhysicallyValid()`` rejects."""
    from pydrake.multibody.tree import RotationalInertia

    links, valid = [], {}
    for i in range(40):
        R = random_rotation(rng)
        a, b = rng.uniform(0.05, 1.0, size=2)
        kind = i % 4
        if kind == 0:  # a box: valid
            moments = np.array([a * a + b * b, b * b + 0.01, a * a + 0.01]) / 12.0
        elif kind == 1:  # triangle inequality violated by a few percent
            moments = np.array([a, b, (a + b) * rng.uniform(1.02, 2.0)])
        elif kind == 2:  # a negative principal moment
            moments = np.array([-rng.uniform(1e-3, 0.5) * a, a, a + b])
        else:  # a flat disk: on the triangle boundary, valid
            moments = np.array([a, a, 2.0 * a])
        I = R @ np.diag(moments) @ R.T
        I = 0.5 * (I + I.T)
        name = f"l{i}"
        links.append(link(name, inertial(1.0, I), box((0.3, 0.3, 0.3))))
        valid[f"m::{name}"] = RotationalInertia(
            I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]
        ).CouldBePhysicallyValid()
    result = run([write(tmp_path, model(*links))], select=["GZI103", "GZI104"], tolerance="drake")
    flagged = {f.link for f in result.findings}
    assert flagged == {name for name, ok in valid.items() if not ok}
    assert sum(not ok for ok in valid.values()) >= 20
    for f in result.findings:  # one rule per link: not PSD (103) wins over the triangle (104)
        assert [g.code for g in result.findings if g.link == f.link] == [f.code]
        if f.code == "GZI104":
            m = np.sort(np.asarray(f.values["principal_moments"]))
            assert f.values["margin"] == pytest.approx(m[0] + m[1] - m[2], rel=1e-12)


@pytest.mark.oracle("pydrake")
def test_gzi104_twins(tmp_path: Path) -> None:
    I = box_inertia(BOX_MASS, BOX)
    bad = I.copy()
    bad[2, 2] = I[0, 0] + I[1, 1] + 0.1
    found = findings_of(tmp_path, model(box_link(I=bad)), "GZI104")
    assert len(found) == 1 and found[0].values["margin"] == pytest.approx(-0.1, rel=1e-9)
    clean(tmp_path, model(box_link(I=I)))


@pytest.mark.oracle("pydrake")
def test_gzi105_inertia_far_from_the_geometry(tmp_path: Path) -> None:
    I = box_inertia(BOX_MASS, BOX)
    found = findings_of(tmp_path, model(box_link(I=25.0 * I)), "GZI105")
    assert len(found) == 1
    assert found[0].values["factor"] == pytest.approx(5.0, rel=1e-9)  # √25 in every direction
    found = findings_of(tmp_path, model(box_link(I=I / 25.0)), "GZI105")
    assert len(found) == 1 and found[0].values["factor"] == pytest.approx(0.2, rel=1e-9)
    # twins: 4x (2x in radius of gyration) is within what non-uniform density allows
    assert findings_of(tmp_path, model(box_link(I=4.0 * I)), "GZI105") == []
    clean(tmp_path, model(box_link(I=I)))


@pytest.mark.oracle("pydrake")
def test_gzi106_density_outside_any_material(tmp_path: Path) -> None:
    import trimesh

    V = trimesh.creation.box(extents=BOX).volume  # the oracle for the volume
    found = findings_of(tmp_path, model(box_link(mass=3.0e4 * V)), "GZI106")
    assert len(found) == 1 and found[0].values["density"] == pytest.approx(3.0e4, rel=1e-9)
    found = findings_of(tmp_path, model(box_link(mass=0.1 * V)), "GZI106")
    assert len(found) == 1
    clean(tmp_path, model(box_link(mass=2.0e4 * V)))  # dense, but tungsten is denser


@pytest.mark.oracle("pydrake")
def test_gzi107_centre_of_mass_outside_the_collisions(tmp_path: Path) -> None:
    found = findings_of(tmp_path, model(box_link(com=(0.0, 0.0, -0.5))), "GZI107")
    assert len(found) == 1
    assert found[0].values["distance"] == pytest.approx(0.5 - BOX[2] / 2, rel=1e-12)
    clean(tmp_path, model(box_link(com=(0.19, 0.14, -0.09))))  # inside, near a corner


@pytest.mark.oracle("pydrake")
def test_gzi108_inertial_pose_relative_to(tmp_path: Path) -> None:
    I = box_inertia(BOX_MASS, BOX)
    text = model(link("body", inertial(BOX_MASS, I, relative_to=MODEL_FRAME), box(BOX)))
    found = findings_of(tmp_path, text, "GZI108")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "relative_to" in s)
    assert len(found) == 1 and found[0].line == line
    clean(tmp_path, model(box_link()))


@pytest.mark.oracle("pydrake")
def test_gzi109_urdf_style_inertia(tmp_path: Path) -> None:
    # Inline: the URDF-style <inertia> attributes (what GZI109 finds) are the point.
    body = (
        f'<inertial><mass>{BOX_MASS!r}</mass>'
        '<inertia ixx="0.5" ixy="0" ixz="0" iyy="0.6" iyz="0" izz="0.8"/></inertial>'
    )
    found = findings_of(tmp_path, model(link("body", body, box(BOX))), "GZI109")
    assert len(found) == 1 and 'ixx="0.5"' in found[0].message
    clean(tmp_path, model(box_link()))


@pytest.mark.oracle("pydrake")
def test_gzi110_two_poses_in_inertial(tmp_path: Path) -> None:
    I = box_inertia(BOX_MASS, BOX)
    body = (  # two <pose> elements (what GZI110 finds): no builder writes that
        f"<inertial><pose>0 0 0 0 0 0</pose><pose>0 0 1 0 0 0</pose><mass>{BOX_MASS!r}</mass>"
        f"{inertia_xml(I)}</inertial>"
    )
    assert len(findings_of(tmp_path, model(link("body", body, box(BOX))), "GZI110")) == 1
    clean(tmp_path, model(box_link()))


def test_gzi111_auto_inertial_that_cannot_be_computed(tmp_path: Path) -> None:
    plane = collision(plane_geometry((0, 0, 1)), pose=None, name="p")
    auto = auto_inertial(1000.0)
    assert len(findings_of(tmp_path, model(link("b", auto, box(BOX), plane), version="1.11"),
                           "GZI111")) == 1
    clean(tmp_path, model(link("b", auto, box(BOX)), version="1.11"))


# ---------------------------------------------------------------------------------------------
# GZI201-GZI207: <fluid_added_mass>

SEMI_AXES = (0.3, 0.1, 0.05)


def ellipsoid_link(A: np.ndarray | None, pose: Sequence[float] = (0, 0, 0, 0, 0, 0),
                   name: str = "body", link_pose: Sequence[float] | None = None,
                   density: float = 1000.0) -> str:
    """A uniform ellipsoid of ``density`` posed by ``pose`` in its link, with ``A``."""
    from gzinertia.spatial.rotation import Pose

    r = np.array(SEMI_AXES)
    mass = density * 4.0 / 3.0 * np.pi * np.prod(r)
    X = Pose.from_xyz_rpy(pose[:3], pose[3:])
    I_E = mass / 5.0 * np.diag([r[1] ** 2 + r[2] ** 2, r[0] ** 2 + r[2] ** 2, r[0] ** 2 + r[1] ** 2])
    I_B = X.R @ I_E @ X.R.T
    return link(name, inertial(mass, I_B, X.p, A), ellipsoid(SEMI_AXES, pose), pose=link_pose)


def tuckerman_about_centre(density: float = 1000.0) -> np.ndarray:
    from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

    return ellipsoid_added_mass_matrix(SEMI_AXES, density)


def test_gzi201_added_mass_in_a_file_older_than_1_10(tmp_path: Path) -> None:
    A = tuckerman_about_centre()
    found = findings_of(tmp_path, model(ellipsoid_link(A), version="1.9"), "GZI201")
    assert len(found) == 1 and found[0].values["sdf_version"] == "1.9"
    clean(tmp_path, model(ellipsoid_link(A), version="1.10"))


def test_gzi202_added_mass_not_psd(tmp_path: Path) -> None:
    A = tuckerman_about_centre()
    bad = A.copy()
    bad[0, 4] = bad[4, 0] = 1.01 * np.sqrt(A[0, 0] * A[4, 4])  # xq just beyond xx·qq
    found = findings_of(tmp_path, model(ellipsoid_link(bad)), "GZI202")
    assert len(found) == 1
    with pytest.raises(np.linalg.LinAlgError):  # the oracle: no Cholesky factor
        np.linalg.cholesky(bad)
    good = A.copy()
    good[0, 4] = good[4, 0] = 0.99 * np.sqrt(A[0, 0] * A[4, 4])
    np.linalg.cholesky(good + 1e-12 * np.eye(6))
    assert findings_of(tmp_path, model(ellipsoid_link(good)), "GZI202") == []


def _dart_total_smallest_eigenvalue(mass: float, com: np.ndarray, I_com: np.ndarray,
                                    A: np.ndarray) -> float:
    """Smallest eigenvalue of DART's spatial inertia about Bo (angular-first) plus ``A``
    block-swapped to angular-first: what the gz-physics DART plugin inverts."""
    import dartpy as dart

    S = dart.dynamics.Inertia(mass, com, I_com).getSpatialTensor()
    A_af = np.block([[A[3:, 3:], A[3:, :3]], [A[:3, 3:], A[:3, :3]]])
    return float(np.linalg.eigvalsh(S + A_af)[0])


@pytest.mark.oracle("dartpy", "pydrake")
def test_gzi203_rigid_plus_added_not_positive_definite(tmp_path: Path) -> None:
    mass, r = 0.5, 0.1
    I = sphere_inertia(mass, r)
    A = np.diag([2.0, 2.0, 2.0, 0.0, 0.0, 0.0])
    bad = A.copy()
    bad[0, 0] = -1.0  # more negative than the rigid mass
    body = link("b", inertial(mass, I, A=bad), sphere(r))
    found = findings_of(tmp_path, model(body), "GZI203")
    assert len(found) == 1
    assert _dart_total_smallest_eigenvalue(mass, np.zeros(3), I, bad) < 0.0
    twin = A.copy()
    twin[0, 0] = -0.4  # not PSD (GZI202) but the rigid mass still makes the total definite
    assert _dart_total_smallest_eigenvalue(mass, np.zeros(3), I, twin) > 0.0
    body = link("b", inertial(mass, I, A=twin), sphere(r))
    assert findings_of(tmp_path, model(body), "GZI203") == []
    assert len(findings_of(tmp_path, model(body), "GZI202")) == 1


def _dart_moved(A_linear_first: np.ndarray, p_BoQ_B: np.ndarray) -> np.ndarray:
    """``A`` about Q moved to Bo with DART's ``Inertia(S).transformed(X_BoQ)`` (the oracle of the
    change of point; angular-first inside), returned linear-first."""
    import dartpy as dart

    S = np.block([[A_linear_first[3:, 3:], A_linear_first[3:, :3]],
                  [A_linear_first[:3, 3:], A_linear_first[:3, :3]]])
    T = dart.math.Isometry3()
    T.set_translation(np.asarray(p_BoQ_B, dtype=float))  # X_BoQ: Q seen from Bo
    moved = dart.dynamics.Inertia(S).transformed(T).getSpatialTensor()
    return np.block([[moved[3:, 3:], moved[3:, :3]], [moved[:3, 3:], moved[:3, :3]]])


def _ke_error(A_true: np.ndarray, A_used: np.ndarray) -> float:
    """``max |νᵀ(A_used - A_true)ν| / νᵀA_trueν``: SciPy's generalized eigenvalues."""
    from scipy.linalg import eigh

    w = eigh(A_used - A_true, A_true, eigvals_only=True)
    return float(np.max(np.abs(w)))


@pytest.mark.oracle("dartpy")
def test_gzi204_addmass_matrices_are_clean_and_unshifted_ones_are_found(
    tmp_path: Path, rng: np.random.Generator
) -> None:
    """Random offset ellipsoids: the matrix ``gzinertia addmass`` writes (about the link
    origin) raises no GZI204; the same matrix left about the ellipsoid's centre does, with the
    implied centre at the origin, the centroid as reference and DART's change of point giving
    the kinetic-energy error; moved the wrong way, the implied centre is the mirror image."""
    from gzinertia.edit.addmass import FitChooser, add_mass
    from gzinertia.spatial.rotation import Pose

    for k in range(6):
        folder = tmp_path / f"case{k}"
        p = rng.uniform(-0.4, 0.4, size=3)
        rpy = rng.uniform(-np.pi, np.pi, size=3)
        pose = (*p, *rpy)
        path = write(folder, model(ellipsoid_link(None, pose)))
        result = add_mass(path, fit_for=FitChooser("volume"), density=1000.0, pattern=None,
                          upgrade_version=False, model_paths=[])
        path.write_bytes(result.new)
        assert findings_of(folder, path.read_text(), "GZI204") == []
        # the same matrix about the centre, in link axes: what an author forgets to shift
        X = Pose.from_xyz_rpy(p, rpy)
        Rb = np.kron(np.eye(2), X.R)
        A_centre_B = Rb @ tuckerman_about_centre() @ Rb.T
        A_true = _dart_moved(A_centre_B, p)
        np.testing.assert_allclose(A_true, result.links[0].A_BBo_B.linear_first(), rtol=1e-9, atol=1e-12)
        found = findings_of(folder, model(ellipsoid_link(A_centre_B, pose)), "GZI204")
        error = _ke_error(A_true, A_centre_B)
        assert error > 0.1  # offsets of a few semi-axes matter
        assert len(found) == 1
        v = found[0].values
        np.testing.assert_allclose(v["implied_centre"], 0.0, atol=1e-12)
        np.testing.assert_allclose(v["reference_point"], p, atol=1e-12)
        assert v["distance"] == pytest.approx(np.linalg.norm(p), rel=1e-12)
        assert v["kinetic_energy_error"] == pytest.approx(error, rel=1e-6)
        # shifted with the wrong sign: the implied centre lands at -p
        A_wrong = _dart_moved(A_centre_B, -p)
        found = findings_of(folder, model(ellipsoid_link(A_wrong, pose)), "GZI204")
        assert len(found) == 1
        np.testing.assert_allclose(found[0].values["implied_centre"], -p, atol=1e-9)


def test_gzi204_mujoco_fits_of_the_examples_are_clean(tmp_path: Path) -> None:
    """Multi-collision links (one ellipsoid per collision, summed about the origin): their
    added-mass centre is not the centroid, yet it is on its side: no GZI204."""
    import shutil

    from gzinertia.edit.addmass import FitChooser, add_mass

    for name in ("box_rov", "arm", "torpedo_auv"):
        folder = tmp_path / name
        shutil.copytree(EXAMPLES / name, folder)
        path = folder / "model.sdf"
        result = add_mass(path, fit_for=FitChooser("mujoco"), density=1025.0, pattern=None,
                          upgrade_version=False, model_paths=[EXAMPLES])
        assert result.links
        path.write_bytes(result.new)
        assert [f for f in run([path]).findings if f.code == "GZI204"] == []


@pytest.mark.oracle("dartpy")
def test_gzi204_without_collisions_only_uncoupled_matrices_with_an_offset_com(
    tmp_path: Path,
) -> None:
    mass, I = 10.0, np.diag([0.1, 0.2, 0.3])
    A = np.diag([5.0, 10.0, 10.0, 0.1, 0.2, 0.2])
    found = findings_of(tmp_path, model(link("b", inertial(mass, I, (0.5, 0, 0), A))), "GZI204")
    assert len(found) == 1 and "--from com" in found[0].message
    coupled = _dart_moved(A, np.array([0.5, 0.0, 0.0]))
    body = link("b", inertial(mass, I, (0.5, 0, 0), coupled))
    assert findings_of(tmp_path, model(body), "GZI204") == []


def test_gzi205_added_mass_counted_twice(tmp_path: Path) -> None:
    A = tuckerman_about_centre()
    terms = {"xDotU": -A[0, 0], "yDotV": -A[1, 1], "zDotW": -A[2, 2]}
    both = model(ellipsoid_link(A), hydro_plugin("body", terms))
    assert len(findings_of(tmp_path, both, "GZI205")) == 1
    clean(tmp_path, model(ellipsoid_link(A), hydro_plugin("body", terms, disable=True)))


def test_gzi206_auto_inertial_drops_added_mass(tmp_path: Path) -> None:
    A = tuckerman_about_centre()
    auto = auto_inertial(1000.0, extra=added_mass_xml(A))
    found = findings_of(tmp_path, model(link("b", auto, ellipsoid(SEMI_AXES)), version="1.11"),
                        "GZI206")
    assert len(found) == 1
    clean(tmp_path, model(ellipsoid_link(A), version="1.11"))


@pytest.mark.oracle("mujoco")
def test_gzi207_magnitude_against_mujoco_ellipsoid_added_mass(tmp_path: Path) -> None:
    m_A = mujoco_added_mass(SEMI_AXES, 1000.0)  # MuJoCo's geom_fluid, the oracle
    A = tuckerman_about_centre()
    np.testing.assert_allclose(np.diag(A)[:3], m_A, rtol=1e-5)  # its quadrature error
    twin = np.diag([*(3.0 * m_A), *np.diag(A)[3:]])  # 3x: a cruder estimate, still plausible
    clean(tmp_path, model(ellipsoid_link(twin)))
    pasted = np.diag([*(30.0 * m_A), *np.diag(A)[3:]])  # 30x: another vehicle's numbers
    found = findings_of(tmp_path, model(ellipsoid_link(pasted)), "GZI207")
    assert len(found) == 1
    ratios = found[0].values["ratios"]
    assert set(ratios) == {"xx", "yy", "zz"}
    for value in ratios.values():
        assert value == pytest.approx(30.0, rel=1e-4)
    # the same values are fine for a link in air when no density is configured...
    in_air = np.diag([*(m_A * 1.225 / 1000.0), *np.diag(A)[3:] * 1.225 / 1000.0])
    assert findings_of(tmp_path, model(ellipsoid_link(in_air)), "GZI207") == []
    # ...but not once the fluid is said to be water
    assert len(findings_of(tmp_path, model(ellipsoid_link(in_air)), "GZI207",
                           density=1000.0)) == 1


# ---------------------------------------------------------------------------------------------
# GZI208-GZI211: the Hydrodynamics plugin, links together


def _stable_density(m_A: np.ndarray) -> float:
    """A density that makes the ellipsoid heavier than its translational added mass ``m_A``
    (a clean twin of a plugin-terms rule: lighter, gz-sim's explicit added mass diverges,
    GZI506)."""
    volume = 4.0 / 3.0 * np.pi * float(np.prod(SEMI_AXES))
    return 2.0 * float(np.max(np.abs(m_A[:3]))) / volume


@pytest.mark.oracle("mujoco")
def test_gzi208_positive_added_mass_terms(tmp_path: Path) -> None:
    m_A = mujoco_added_mass(SEMI_AXES, 1000.0)
    positive = {"xDotU": m_A[0], "yDotV": m_A[1], "zDotW": m_A[2]}
    found = findings_of(tmp_path, model(ellipsoid_link(None), hydro_plugin("body", positive)),
                        "GZI208")
    assert len(found) == 1
    np.testing.assert_allclose(sorted(found[0].values["effective_added_mass_eigenvalues"])[:3],
                               sorted(-m_A), rtol=1e-12)
    fossen = {k: -v for k, v in positive.items()}
    twin = findings_of(tmp_path, model(ellipsoid_link(None, density=_stable_density(m_A)),
                                       hydro_plugin("body", fossen)))
    assert [f.code for f in twin] == ["GZI602"]  # the default target deprecates plugin added mass


@pytest.mark.oracle("mujoco")
def test_gzi209_cross_term_without_its_diagonal_twin(tmp_path: Path) -> None:
    m_A = mujoco_added_mass(SEMI_AXES, 1000.0)
    terms = {"xDotU": -m_A[0], "yDotV": -m_A[1], "zDotW": -m_A[2], "yVabsV": -40.0}
    typo = model(ellipsoid_link(None), hydro_plugin("body", {**terms, "yUabsU": -4.0}))
    found = findings_of(tmp_path, typo, "GZI209")
    assert len(found) == 1 and found[0].values["missing"] == ["xUabsU"]
    twin = model(ellipsoid_link(None, density=_stable_density(m_A)),
                 hydro_plugin("body", {**terms, "xUabsU": -4.0}))
    assert [f.code for f in findings_of(tmp_path, twin)] == ["GZI602"]  # as in GZI208's twin


def test_gzi209_twins_of_a_term() -> None:
    from gzinertia.audit.rules.hydrodynamics import diagonal_twins

    assert diagonal_twins("yUabsU") == ["xUabsU"]
    assert sorted(diagonal_twins("yDotU")) == ["xDotU", "yDotV"]
    assert diagonal_twins("xUabsU") == [] and diagonal_twins("nDotR") == []


@pytest.mark.oracle("pydrake")
@pytest.mark.parametrize("gap", [0.8, 0.95, 1.05])
def test_gzi210_overlapping_fluid_spheres(tmp_path: Path, gap: float) -> None:
    """Two sphere links with added mass, their centres ``gap·(r₁ + r₂)`` apart: the overlap
    measure is ``1 - d/(r₁ + r₂)`` (spheres: Perram-Wertheim F = (d/(r₁+r₂))²)."""
    r1, r2 = 0.3, 0.2
    d = gap * (r1 + r2)
    links = []
    for name, r, x in (("a", r1, 0.0), ("b", r2, d)):
        mass = 1000.0 * 4.0 / 3.0 * np.pi * r**3
        A = np.diag([mass / 2.0] * 3 + [0.0] * 3)
        links.append(link(name, inertial(mass, sphere_inertia(mass, r), A=A), sphere(r),
                          pose=(x, 0, 0, 0, 0, 0)))
    found = findings_of(tmp_path, model(*links), "GZI210")
    if gap < 1.0 - 0.02:
        assert len(found) == 1 and found[0].link == "m::a"
        assert found[0].values["overlap"] == pytest.approx(1.0 - gap, rel=1e-9)
    else:
        assert found == []
        if gap > 1.0:
            clean(tmp_path, model(*links))


@pytest.mark.oracle("pydrake")
def test_gzi210_sees_every_body_of_a_link(tmp_path: Path) -> None:
    """A link with two separate floats (two fluid ellipsoids since the fit keeps bodies apart)
    and a neighbour overlapping its *second* float: one finding for the pair of links, with the
    spheres' closed-form overlap ``1 - d/(r₁ + r₂)``."""
    r, r_b, d = 0.2, 0.15, 0.25
    m_float = 1000.0 * 4.0 / 3.0 * np.pi * r**3
    A_float = np.diag([m_float / 2.0] * 3 + [0.0] * 3)
    A = A_float + A_float  # both floats' added mass, about Bo: their centres are on y only
    A[3, 3] = A[5, 5] = 2.0 * m_float / 2.0 * 1.0**2  # ... plus the parallel-axis terms
    floats = link("floats", inertial(2 * m_float, sphere_inertia(2 * m_float, r), A=A),
                  sphere(r, (0, 1.0, 0, 0, 0, 0), "f1"), sphere(r, (0, -1.0, 0, 0, 0, 0), "f2"))
    m_b = 1000.0 * 4.0 / 3.0 * np.pi * r_b**3
    neighbour = link("b", inertial(m_b, sphere_inertia(m_b, r_b),
                                   A=np.diag([m_b / 2.0] * 3 + [0.0] * 3)),
                     sphere(r_b), pose=(d, -1.0, 0, 0, 0, 0))
    found = findings_of(tmp_path, model(floats, neighbour), "GZI210")
    assert [(f.link, f.values["other_link"]) for f in found] == [("m::floats", "m::b")]
    assert found[0].values["overlap"] == pytest.approx(1.0 - d / (r + r_b), rel=1e-9)


@pytest.mark.oracle("pydrake")
def test_gzi211_plugin_names_no_link(tmp_path: Path) -> None:
    terms = {"xUabsU": -4.0}
    assert len(findings_of(tmp_path, model(box_link(), hydro_plugin("hull", terms)),
                           "GZI211")) == 1
    clean(tmp_path, model(box_link(), hydro_plugin("body", terms)))


@pytest.mark.oracle("pydrake")
def test_gzi001_include_not_resolved(tmp_path: Path) -> None:
    write(tmp_path / "models" / "crate", model(box_link(), name="crate"))
    (tmp_path / "models" / "crate" / "model.config").write_text(model_config(version="1.10"))
    path = write(tmp_path, world(include("model://crate"), version="1.10"), "world.sdf")
    assert [f.code for f in run([path]).findings] == ["GZI001"]
    assert run([path], model_paths=[str(tmp_path / "models")]).findings == ()


# ---------------------------------------------------------------------------------------------
# suppression


@pytest.mark.oracle("pydrake")
def test_inline_suppression_in_the_link(tmp_path: Path) -> None:
    I = box_inertia(BOX_MASS, BOX)
    bad = I.copy()
    bad[2, 2] = I[0, 0] + I[1, 1] + 0.1
    comment = "<!-- gzinertia: ignore[GZI104] -->"
    body = link("body", comment, inertial(BOX_MASS, bad), box(BOX))
    assert findings_of(tmp_path, model(body), "GZI104") == []
    other = link("body", "<!-- gzinertia: ignore[GZI105] -->", inertial(BOX_MASS, bad), box(BOX))
    assert len(findings_of(tmp_path, model(other), "GZI104")) == 1
