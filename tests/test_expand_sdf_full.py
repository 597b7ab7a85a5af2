"""``gzinertia expand FILE --sdf`` prints the whole model libsdformat converts a URDF to
(issue 25 item 10): links, collisions, visuals, joints (axis, limits, dynamics) and the
``<gazebo>`` blocks.

Oracle: libsdformat itself (``oracles/sdformat_model_dump.cc``) loads the URDF and the SDFormat
printed; both dumps must describe the same model (names, poses to 1e-12, inertials, shapes,
joints, plugins). Nothing is compared through gzinertia's own reader.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, run_cli
from corpus_packages import corpus_xacros, in_tree, package_tree
from lxml import etree
from oracles.sdformat_model import build_sdformat_model_dump, dump_models
from test_expand_command import _same_conversion
from urdfgen import random_urdf

from gzinertia.spatial.rotation import Pose
from gzinertia.urdf.lumping_notes import near_gimbal

#: ``sdf::JointType::FIXED`` (the dump gives joint types as the enum's numbers)
FIXED_TYPE = 3
XACRO_CORPUS = CORPUS.parent / "xacro-corpus"


def dump(paths: list[Path]) -> list[dict[str, Any]]:
    """libsdformat's model of each file (``oracles/sdformat_model_dump.cc``), in order."""
    if build_sdformat_model_dump() is None:
        pytest.skip("cannot build sdformat_model_dump (needs g++, pkg-config and sdformat12)")
    return dump_models(paths)


def with_everything(text: str, seed: int) -> str:
    """A random robot (urdfgen) with random axes, limits, dynamics, visuals, continuous joints
    carrying limits, and <gazebo> blocks for links, joints and the model."""
    rng = np.random.default_rng(seed)

    def f(*values: float) -> str:
        return " ".join(repr(float(v)) for v in values)

    robot = etree.fromstring(text.encode())
    for k, link in enumerate(robot.iterfind("link")):
        for collision in link.iterfind("collision"):  # names with and without the link's
            collision.set("name", str(rng.choice(["", f"{link.get('name')}_hull", f"c{k}"])))
        if rng.random() < 0.7:
            shape = rng.choice(['<sphere radius="0.2"/>', '<cylinder radius="0.1" length="2"/>',
                                '<mesh filename="package://p/m.dae" scale="1 2 3"/>'])
            name = f' name="v{k}"' if rng.random() < 0.5 else ""
            material = str(rng.choice(
                ["", f'<material name="m{k}"><color rgba="{f(*rng.uniform(0, 1, 4))}"/>'
                 "</material>", '<material name="shared"/>',
                 '<material name="t"><texture filename="t.png"/></material>']))
            link.append(etree.fromstring(
                f'<visual{name}><origin xyz="{f(*rng.uniform(-1, 1, 3))}" '
                f'rpy="0.1 0.2 0.3"/><geometry>{shape}</geometry>{material}</visual>'))
        if rng.random() < 0.3:
            robot.append(etree.fromstring(
                f'<gazebo reference="{link.get("name")}"><mu1>0.5</mu1><mu2>0.25</mu2><material>Gazebo/Red</material><selfCollide>true'
                f'</selfCollide><sensor name="s{k}" type="imu"/><plugin name="lp{k}" '
                f'filename="liblp.so"/></gazebo>'))
    for joint in robot.iterfind("joint"):
        if joint.get("type") == "fixed":
            continue
        joint.set("type", str(rng.choice(["revolute", "continuous", "prismatic"])))
        for old in joint.findall("axis") + joint.findall("limit"):
            joint.remove(old)
        axis = rng.normal(size=3)
        joint.append(etree.fromstring(f'<axis xyz="{f(*axis / np.linalg.norm(axis))}"/>'))
        lo, hi, effort, velocity = map(f, (rng.uniform(-2, 2), rng.uniform(2, 4),
                                           *rng.uniform(1, 9, 2)))
        joint.append(etree.fromstring(f'<limit lower="{lo}" upper="{hi}" effort="{effort}" '
                                      f'velocity="{velocity}"/>'))
        if rng.random() < 0.5:
            joint.append(etree.fromstring(
                f'<dynamics damping="{f(rng.uniform(0, 1))}" friction="{f(rng.uniform(0, 1))}"/>'))
            robot.append(etree.fromstring(
                f'<gazebo reference="{joint.get("name")}"><provideFeedback>true</provideFeedback>'
                '<implicitSpringDamper>true</implicitSpringDamper><stopErp>0.3</stopErp>'
                '<springStiffness>2.5</springStiffness></gazebo>'))
    robot.insert(0, etree.fromstring('<material name="shared"><color rgba="0.2 0.9 1 0.5"/>'
                                     "</material>"))
    robot.append(etree.fromstring(f'<gazebo><plugin name="mp{seed}" filename="libmp.so">'
                                  '<x>1</x></plugin></gazebo>'))
    return etree.tostring(robot, encoding="unicode")


def _close(a: object, b: object, what: str) -> None:
    x = np.array(a, dtype=float)  # (None, an infinite number in the dump, becomes nan)
    y = np.array(b, dtype=float)
    np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12, equal_nan=True, err_msg=what)


def _same_values(a: object, b: object, what: str) -> None:
    """Equal strings and names, numbers to 1e-12, through lists and objects."""
    if isinstance(b, dict):
        assert isinstance(a, dict) and a.keys() == b.keys(), what
        for key in b:
            _same_values(a[key], b[key], f"{what} {key}")
    elif isinstance(b, list):
        assert isinstance(a, list) and len(a) == len(b), (what, a, b)
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            _same_values(x, y, f"{what}[{k}]")
    elif isinstance(b, str) or isinstance(a, str):
        assert a == b, what
    else:
        _close(a, b, what)


def _comparable(link: dict[str, Any]) -> dict[str, Any]:
    """A link of a dump without its sensors (compared on their own)."""
    return {**link, "sensors": []}


def assert_same_model(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """The two dumps describe the same model: the same links (poses, inertials, collisions,
    visuals, sensors, plugins), joints (all of their fields; a fixed joint's axis is left
    out: libsdformat writes one of no use) and model plugins."""
    where = theirs["file"]
    assert ours["errors"] == [], (where, ours["errors"])
    assert ours["model"] == theirs["model"]
    _same_values([_comparable(lk) for lk in ours["links"]],
                 [_comparable(lk) for lk in theirs["links"]], f"{where} links")
    for a, b in zip(ours["links"], theirs["links"], strict=True):
        assert [(x["name"], x["type"]) for x in a["sensors"]] == [
            (x["name"], x["type"]) for x in b["sensors"]], where
        for x, y in zip(a["sensors"], b["sensors"], strict=True):
            # libsdformat writes a lumped link's sensor pose moved into the kept link with
            # 6 significant digits (parser_urdf.cc prints it through a default ostream)
            np.testing.assert_allclose(np.array(x["X_BS"], float), np.array(y["X_BS"], float),
                                       rtol=0, atol=1e-5, err_msg=f"{where} {y['name']}")
    _same_values(ours["plugins"], theirs["plugins"], f"{where} plugins")
    by_name = {j["name"]: j for j in ours["joints"]}
    assert sorted(by_name) == sorted(j["name"] for j in theirs["joints"]), where
    for j in theirs["joints"]:
        mine, theirs_j = dict(by_name[j["name"]]), dict(j)
        if j["type"] == FIXED_TYPE:
            mine.pop("axes")
            theirs_j.pop("axes")
        _same_values(mine, theirs_j, f"{where} joint {j['name']}")


def expand_all(paths: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
               extra: list[str] | None = None) -> list[Path]:
    """``expand --sdf`` of each path, written next to it in ``tmp_path``."""
    out = []
    for k, path in enumerate(paths):
        code, text, err = run_cli(["expand", str(path), "--sdf", *(extra or [])], capsys)
        assert code == 0, err
        sdf = tmp_path / f"out{k}.sdf"
        sdf.write_text(text)
        out.append(sdf)
    return out


@pytest.mark.oracle("sdformat")
def test_random_robots_print_the_model_libsdformat_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urdfs = []
    for seed in range(40):
        path = tmp_path / f"gen{seed}.urdf"
        path.write_text(with_everything(random_urdf(seed).text, seed))
        urdfs.append(path)
    theirs = dump(urdfs)
    # (robots libsdformat 12.3, the oracle, converts as newer libsdformat does:
    # tests/test_urdf_vs_libsdformat.py compares the others)
    kept = [(u, t) for u, t in zip(urdfs, theirs, strict=True)
            if not t["errors"] and t["links"] and _same_conversion(u)]
    assert len(kept) >= 20
    ours = dump(expand_all([u for u, _ in kept], tmp_path, capsys))
    for a, (_, b) in zip(ours, kept, strict=True):
        assert_same_model(a, b)
    # what was compared: every joint libsdformat writes, kept fixed joints (from world, by
    # <preserveFixedJoint>, by <disableFixedJointLumping>), lumped links' shapes and sensors,
    # the shapes <gazebo> blocks reach, plugins of links and of the model
    joints = [j for _, t in kept for j in t["joints"]]
    texts = "".join(u.read_text() for u, _ in kept)
    assert {"world"} <= {j["parent"] for j in joints}
    assert all(w in texts for w in ("preserveFixedJoint", "disableFixedJointLumping",
                                    'type="continuous"', 'type="prismatic"',
                                    'type="revolute"'))
    assert len({j["type"] for j in joints}) >= 3  # (fixed, revolute, prismatic)
    links = [lk for _, t in kept for lk in t["links"]]
    shapes = [s for lk in links for s in lk["collisions"] + lk["visuals"]]
    assert any("_fixed_joint_lump__" in s["name"] for s in shapes)
    assert any(s.get("mu") is not None for s in shapes)
    assert any(s.get("material") is not None for s in shapes)
    assert any(lk["sensors"] for lk in links) and any(lk["plugins"] for lk in links)


@pytest.mark.oracle("sdformat")
def test_floating_and_planar_joints_are_said_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.urdf"
    inertial = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                'izz="1"/></inertial>')
    path.write_text(f'<robot name="r"><link name="a">{inertial}</link><link name="b">{inertial}'
                    '</link><joint name="f" type="floating"><parent link="a"/><child link="b"/>'
                    '<origin xyz="1 2 3"/></joint></robot>')
    [theirs] = dump([path])
    assert theirs["joints"] == []  # libsdformat (the oracle) writes no joint for it
    code, out, err = run_cli(["expand", str(path), "--sdf"], capsys)
    assert code == 0 and "'f' (floating): libsdformat writes no joint" in err
    sdf = tmp_path / "r.sdf"
    sdf.write_text(out)
    [ours] = dump([sdf])
    assert ours["errors"] == [] and ours["joints"] == []
    assert "libsdformat writes no joint" in out  # also in the file


def _near_gimbal(urdf: Path) -> bool:
    """Whether an ``<origin>`` of ``urdf`` has a pitch near ±90° that libsdformat 12.3 snaps
    to ±90° (urdfdom's ``getRPY``: :data:`gzinertia.urdf.lumping_notes.GIMBAL_SIN_PITCH`), turning
    the shape or link; ``expand --sdf`` writes the rotation as written (docs/urdf.md). A pitch
    of ±90° itself is kept (snapping it changes nothing)."""
    for rpy in etree.parse(str(urdf)).xpath("//origin/@rpy"):
        words = str(rpy).split()
        if len(words) == 3:
            X = Pose.from_xyz_rpy([0.0, 0.0, 0.0], [float(v) for v in words])
            if near_gimbal(X) and abs(abs(X.R[2, 0]) - 1.0) > 1e-12:
                return True
    return False


def _corpus_files(tree: Path) -> list[tuple[Path, Path]]:
    """The URDF and xacro files of both corpora, each with the package path it is read with
    (the marine corpus copied into a package tree, as tests/test_xacro_compatibility does)."""
    files = [(in_tree(tree, CORPUS, p), tree) for p in corpus_xacros(CORPUS)]
    files += [(p, XACRO_CORPUS) for p in sorted(XACRO_CORPUS.rglob("*.xacro"))
              if XACRO_CORPUS.is_dir()]
    return files + [(p, root) for root in (CORPUS, XACRO_CORPUS) if root.is_dir()
                    for p in sorted(root.rglob("*.urdf"))]


@pytest.mark.oracle("sdformat")
def test_the_corpus_prints_the_model_libsdformat_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each corpus file that expands to a robot: libsdformat's model of its URDF (the
    expansion ``expand`` prints, itself checked against the xacro package by
    tests/test_xacro_compatibility.py) and of the SDFormat ``expand --sdf`` prints agree."""
    if not CORPUS.is_dir() and not XACRO_CORPUS.is_dir():
        pytest.skip("no corpus")
    tree = package_tree(CORPUS, tmp_path) if CORPUS.is_dir() else tmp_path
    urdfs, sdfs = [], []
    for k, (path, packages) in enumerate(_corpus_files(tree)):
        code, text, _ = run_cli(["expand", str(path), "--package-path", str(packages)], capsys)
        if code != 0:
            continue  # (a fragment, macros only, a missing package: said by the command)
        urdf = path.with_name(f"expanded{k}.urdf") if path.is_relative_to(tmp_path) else (
            tmp_path / f"expanded{k}.urdf")
        urdf.write_text(text)
        code, text, err = run_cli(["expand", str(path), "--sdf", "--package-path",
                                   str(packages)], capsys)
        if code != 0:  # (a URDF the reader refuses, in one line: not a robot to compare)
            assert len(err.strip().splitlines()) == 1, err
            continue
        if not _same_conversion(urdf) or _near_gimbal(urdf):
            continue
        sdf = tmp_path / f"printed{k}.sdf"
        sdf.write_text(text)
        urdfs.append(urdf)
        sdfs.append(sdf)
    theirs = dump(urdfs)
    kept = [(k, t) for k, t in enumerate(theirs) if not t["errors"] and t["links"]]
    assert len(kept) >= 5  # (9 on the shared corpora in November 2026)
    ours = dump([sdfs[k] for k, _ in kept])
    for a, (_, b) in zip(ours, kept, strict=True):
        assert_same_model(a, b)


def test_an_unreadable_limit_is_one_line_for_expand_and_nothing_for_the_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A joint's <limit> that is not a number: physics does not use it, so the audit reads the
    robot as before; expand --sdf cannot write the joint and says where, in one line."""
    path = tmp_path / "r.urdf"
    inertial = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                'izz="1"/></inertial>')
    path.write_text(f'<robot name="r"><link name="a">{inertial}</link><link name="b">{inertial}'
                    '</link><joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                    '\n<limit lower="low" upper="1" effort="1" velocity="1"/></joint></robot>')
    code, out, err = run_cli(["expand", str(path), "--sdf"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{path}:1" in err and "'j'" in err and "lower" in err
    code, _, err = run_cli(["show", str(path)], capsys)
    assert code == 0, err
