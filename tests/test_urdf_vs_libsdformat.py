"""Differential tests: gzinertia's URDF reader against libsdformat's URDF→SDF conversion.

libsdformat is what Gazebo converts URDF with. Two oracles, both Debian's libsdformat 12.3:

* ``sdformat_dump`` (``oracles/sdformat_dump.cc``): ``sdf::Root::Load`` on the ``.urdf`` file
  itself, which converts it and loads the result; one process for a whole batch of files.
* ``ign sdf -p FILE.urdf``: the SDF text libsdformat writes, read back with gzinertia's own SDF
  reader (slow: about 2 s a file, so a handful of files).

Compared per link that survives (names as sets: the same links are kept), each to
``‖ours − theirs‖ ≤ 1e-12·max(1, ‖theirs‖)``: ``p_WB``, ``R_WB``, the mass and ``M_BBo_B``
(6x6, angular-first, about the link origin in link axes). libsdformat 12.3 predates
gazebosim/sdformat#1238, so gzinertia reads with ``legacy=True`` here (see
:mod:`gzinertia.urdf.lumping`); a separate test shows where the current rule differs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import CORPUS
from corpus_packages import corpus_xacros, in_tree, package_tree
from oracles.sdformat_oracle import SdformatLink, build_sdformat_dump, read_with_sdformat
from urdfgen import random_urdf

from gzinertia.records import SdfDocument
from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.inertia import reexpress_inertia, spatial_inertia_about_origin
from gzinertia.urdf import read_urdf_bytes, read_urdf_file

RTOL = 1e-12
N_RANDOM = 320


def _needs_dump() -> None:
    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable: needs g++, pkg-config and sdformat12")


def _needs_ign() -> str:
    ign = shutil.which("ign") or shutil.which("gz")
    if ign is None:
        pytest.skip("ign/gz sdf (ignition-tools with libsdformat) not installed")
    return ign


def _rel(ours: np.ndarray, ref: np.ndarray) -> float:
    return float(np.linalg.norm(ours - ref) / max(1.0, float(np.linalg.norm(ref))))


def _their_M(link: SdformatLink) -> np.ndarray:
    ixx, iyy, izz, ixy, ixz, iyz = (np.nan if v is None else v for v in link["I"])
    I_BBcm_I = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    X_BI = np.array(link["X_BI"], dtype=float).reshape(4, 4)
    I_BBcm_B = reexpress_inertia(I_BBcm_I, X_BI[:3, :3])
    mass = float(link["mass"] if link["mass"] is not None else np.nan)
    return spatial_inertia_about_origin(mass, I_BBcm_B, X_BI[:3, 3], "angular-first")


def _compare_docs(ours: SdfDocument, theirs: SdfDocument, what: str) -> None:
    assert {r.name for r in ours.links} == {r.name for r in theirs.links}, what
    by_name = {r.name: r for r in theirs.links}
    for rec in ours.links:
        ref = by_name[rec.name]
        errors = {
            "p_WB": _rel(np.asarray(rec.X_WB.p), np.asarray(ref.X_WB.p)),
            "R_WB": _rel(np.asarray(rec.X_WB.R), np.asarray(ref.X_WB.R)),
            "mass": _rel(np.array([rec.inertial.mass]), np.array([ref.inertial.mass])),
            "M_BBo_B": _rel(rec.M_BBo_B.angular_first(), ref.M_BBo_B.angular_first()),
        }
        assert max(errors.values()) <= RTOL, (what, rec.name, errors)
        # the shapes carry the names libsdformat gives them (--geometry and the BEM provenance)
        assert sorted(c.name for c in rec.collisions) == sorted(c.name for c in ref.collisions)
        assert sorted(v.name for v in rec.visuals) == sorted(v.name for v in ref.visuals)


def _with_visuals(text: str) -> str:
    """The robot with a ``<visual>`` beside each ``<collision>`` (the same shape and origin;
    every other one named, the others not, and every third collision named): libsdformat
    moves visuals and collisions of lumped links and renames both."""
    import re

    count = iter(range(10**6))

    def visual(match: re.Match[str]) -> str:
        k = next(count)
        collision = match.group(0)
        if k % 3 == 0:
            collision = collision.replace("<collision>", f'<collision name="c{k}">', 1)
        body = match.group(1)
        tag = f'<visual name="v{k}">' if k % 2 else "<visual>"
        return f"{collision}{tag}{body}</visual>"

    return re.sub(r"<collision>(.*?)</collision>", visual, text, flags=re.S)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, str]]:
    folder = tmp_path_factory.mktemp("urdfgen")
    out = []
    for seed in range(N_RANDOM):
        g = random_urdf(seed)
        path = folder / f"gen{seed}.urdf"
        text = _with_visuals(g.text)
        path.write_text(text)
        out.append((path, text))
    return out


def test_generated_urdfs_read_as_libsdformat_converts_them(
    generated: list[tuple[Path, str]],
) -> None:
    """320 random robots: fixed-joint chains, rotated origins, massless links, world, gazebo
    blocks. Every link libsdformat keeps is kept, with its pose and lumped inertia."""
    _needs_dump()
    results = read_with_sdformat([p for p, _ in generated])
    lumped = dropped = gimbals = empty = visuals = 0
    for (path, _), theirs in zip(generated, results, strict=True):
        ours = read_urdf_file(path, legacy=True)
        if not theirs["links"]:  # libsdformat refuses a model without links; so does the note
            empty += 1
            assert not ours.links and any(n.code == "urdf-no-links" for n in ours.notes), path
            continue
        assert not [e for e in theirs["errors"] if e["code"] != 18], theirs["errors"]
        lumped += sum(1 for n in ours.notes if n.code == "urdf-link-lumped")
        dropped += sum(1 for n in ours.notes if n.code == "urdf-massless-link-dropped")
        mine = {r.name: r for r in ours.links}
        assert set(mine) == {link["name"] for link in theirs["links"]}, path
        # libsdformat's own bug, noted by gzinertia: shown in test_gimbal_lumping_is_libsdformats_error_and_is_noted
        mangled = {n.link for n in ours.notes if n.code == "urdf-lumping-gimbal"}
        gimbals += len(mangled)
        for link in theirs["links"]:
            rec = mine[link["name"]]
            if rec.name in mangled:
                continue
            X_WB = np.array(link["X_WB"], dtype=float).reshape(4, 4)
            errors = {
                "p_WB": _rel(np.asarray(rec.X_WB.p), X_WB[:3, 3]),
                "R_WB": _rel(np.asarray(rec.X_WB.R), X_WB[:3, :3]),
                "mass": _rel(np.array([rec.inertial.mass]), np.array([float(link["mass"])])),
                "M_BBo_B": _rel(rec.M_BBo_B.angular_first(), _their_M(link)),
            }
            assert max(errors.values()) <= RTOL, (path, link["name"], errors)
            names = sorted(v.name for v in rec.visuals)
            assert names == sorted(v["name"] for v in link["visuals"]), (path, link["name"])
            visuals += len(names)
    assert visuals > 100  # the names of the shapes libsdformat lumps and renames
    # the generator exercised what it claims to
    assert lumped > 100 and dropped > 20


@pytest.mark.parametrize("seed", [0, 3, 7, 11, 19])
def test_generated_urdfs_equal_ign_sdf_output(
    generated: list[tuple[Path, str]], seed: int
) -> None:
    """``ign sdf -p`` writes the SDF libsdformat converts a URDF to; gzinertia reads the URDF
    as it reads that SDF."""
    ign = _needs_ign()
    path, _ = generated[seed]
    sdf = subprocess.run([ign, "sdf", "-p", str(path)], capture_output=True, timeout=120,
                         check=True).stdout
    _compare_docs(read_urdf_file(path, legacy=True), read_sdf_bytes(sdf, "converted.sdf"),
                  str(path))


def _corpus_urdfs() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix == ".urdf"
                  and p.relative_to(CORPUS).parts[0] != "_generated") + corpus_xacros(CORPUS)


@pytest.fixture(scope="module")
def corpus_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus's repositories as a package tree (tests/corpus_packages.py), built once."""
    return package_tree(CORPUS, tmp_path_factory.mktemp("corpus"))


@pytest.mark.parametrize("path", _corpus_urdfs(), ids=lambda p: p.name)
def test_corpus_urdf_and_xacro_equal_ign_sdf_output(
    path: Path, tmp_path: Path, corpus_tree: Path
) -> None:
    """Each corpus URDF/xacro, expanded with the corpus's repositories as the package path
    (``$(find uuv_descriptions)`` resolves to the corpus's copy), against libsdformat's
    conversion of the same expanded URDF. Files that do not expand (an included file the
    corpus does not hold, a fragment needing its includer's properties, malformed XML: the
    ``xacro`` command fails alike, tests/test_urdf_xacro.py) and macro libraries (no link) are
    skipped with the reason; docs/urdf.md lists them."""
    ign = _needs_ign()
    from gzinertia.errors import SdfError
    from gzinertia.urdf.xacro_expand import expand_xacro

    copy = in_tree(corpus_tree, CORPUS, path) if path.suffix == ".xacro" else path
    pkgs = [corpus_tree]
    try:
        text = expand_xacro(copy, {}, pkgs) if path.suffix == ".xacro" else path.read_text()
    except SdfError as exc:  # the reason is the skip message
        pytest.skip(f"does not expand: {exc}")
    if "<link" not in text:
        pytest.skip("macros only: no link after expansion")
    urdf = tmp_path / "expanded.urdf"
    urdf.write_text(text)
    proc = subprocess.run([ign, "sdf", "-p", str(urdf)], capture_output=True, timeout=120)
    if proc.returncode != 0 or b"<model" not in proc.stdout:
        pytest.skip(f"libsdformat does not convert it: {proc.stderr[-300:]!r}")
    ours = read_urdf_bytes(text.encode(), str(urdf), pkgs, legacy=True)
    _compare_docs(ours, read_sdf_bytes(proc.stdout, "converted.sdf"), str(path))


def test_corpus_xacros_expand_with_the_corpus_as_package_path(corpus_tree: Path) -> None:
    """``$(find pkg)`` of every corpus xacro file resolves when the package is in the corpus:
    no file fails for want of a package the corpus holds (it may still fail for an included
    file the corpus's copy of the package lacks)."""
    from gzinertia.errors import SdfError
    from gzinertia.urdf.ros_packages import find_package
    from gzinertia.urdf.xacro_expand import expand_xacro

    for path in corpus_xacros(CORPUS):
        try:
            expand_xacro(in_tree(corpus_tree, CORPUS, path), {}, [corpus_tree])
        except SdfError as exc:
            for pkg in re.findall(r"\$\(find (\w+)\): no package", str(exc)):
                assert find_package(pkg, [corpus_tree]) is None, (path, pkg)
                assert not any(p.name == pkg for p in CORPUS.rglob(pkg) if p.is_dir()), pkg


def test_current_libsdformat_keeps_links_below_a_lumped_massless_link() -> None:
    """libsdformat < 12.7.2 drops a massless link that a fixed joint lumps, and every link below
    it (the 12.3 oracle shows it); ≥ 12.7.2/13.5/14.0 (gazebosim/sdformat#1238) lumps it and
    keeps the links below. gzinertia follows the current rule by default."""
    text = b"""<robot name="r">
      <link name="hull"><inertial><mass value="2"/>
        <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
      <link name="mount"/>
      <link name="fin"><inertial><mass value="0.5"/>
        <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
      <joint name="a" type="fixed"><parent link="hull"/><child link="mount"/></joint>
      <joint name="b" type="revolute"><parent link="mount"/><child link="fin"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    </robot>"""
    current = read_urdf_bytes(text, "r.urdf")
    legacy = read_urdf_bytes(text, "r.urdf", legacy=True)
    assert [r.name for r in current.links] == ["r::hull", "r::fin"]
    assert [r.name for r in legacy.links] == ["r::hull"]
    assert any(n.code == "urdf-massless-link-dropped" and "fin" in n.message
               for n in legacy.notes)


def test_gimbal_lumping_is_libsdformats_error_and_is_noted(tmp_path: Path) -> None:
    """A fixed joint with pitch 0.0021 rad from 90° (|sin| > 0.99999): libsdformat lumps the
    child's inertia rotated wrong (urdfdom's getRPY snaps pitch and roll); GZI403's note says
    so. The same robot with the pitch 0.02 rad away matches libsdformat to 1e-12, and in both
    cases gzinertia's lumped body conserves the total spatial inertia of Drake's unlumped
    bodies (test_urdf_vs_drake), so the difference is libsdformat's."""
    _needs_dump()

    def robot(pitch: float) -> Path:
        path = tmp_path / f"p{pitch}.urdf"
        path.write_text(f"""<robot name="r">
          <link name="hull"><inertial><mass value="20"/>
            <inertia ixx="2" ixy="0" ixz="0" iyy="4" iyz="0" izz="4"/></inertial></link>
          <link name="sonar"><inertial><mass value="1"/>
            <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.25"/></inertial></link>
          <joint name="m" type="fixed"><parent link="hull"/><child link="sonar"/>
            <origin xyz="0.5 0 0" rpy="0.3 {pitch!r} 0"/></joint>
        </robot>""")
        return path

    near, far = robot(np.pi / 2 - 0.0021), robot(np.pi / 2 - 0.02)
    theirs_near, theirs_far = read_with_sdformat([near, far])
    ours_near, ours_far = read_urdf_file(near), read_urdf_file(far)
    assert [n.code for n in ours_near.notes if n.code == "urdf-lumping-gimbal"] == [
        "urdf-lumping-gimbal"
    ]
    assert not [n for n in ours_far.notes if n.code == "urdf-lumping-gimbal"]
    assert _rel(ours_far.links[0].M_BBo_B.angular_first(), _their_M(theirs_far["links"][0])) <= RTOL
    assert _rel(ours_near.links[0].M_BBo_B.angular_first(), _their_M(theirs_near["links"][0])) > 1e-6


def test_zero_mass_lumped_into_a_massless_link_breaks_libsdformat(tmp_path: Path) -> None:
    """libsdformat divides 0 by 0 lumping a zero-mass <inertial> into a link without mass: it
    refuses the model (non-finite pose). gzinertia reads the sum (the zero adds nothing) and
    says so (GZI403's note); without the zero-mass <inertial>, libsdformat agrees with it."""
    _needs_dump()
    body = """<link name="b"><inertial><origin xyz="0.1 0 0"/><mass value="1"/>
        <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
      <joint name="ja" type="fixed"><parent link="base"/><child link="a"/>
        <origin xyz="1 0 0"/></joint>
      <joint name="jb" type="fixed"><parent link="base"/><child link="b"/>
        <origin xyz="0 1 0"/></joint>"""
    zero = ('<link name="a"><inertial><mass value="0"/>'
            '<inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>')
    broken, fine = tmp_path / "broken.urdf", tmp_path / "fine.urdf"
    broken.write_text(f'<robot name="r"><link name="base"/>{zero}{body}</robot>')
    fine.write_text(f'<robot name="r"><link name="base"/><link name="a"/>{body}</robot>')
    theirs_broken, theirs_fine = read_with_sdformat([broken, fine])
    assert theirs_broken["errors"] and not theirs_broken["links"]
    ours = read_urdf_file(broken)
    assert [n.link for n in ours.notes if n.code == "urdf-lumping-nan"] == ["r::base"]
    [link] = theirs_fine["links"]
    assert _rel(ours.links[0].M_BBo_B.angular_first(), _their_M(link)) <= RTOL
