"""Differential tests: our SDF reader (:mod:`gzinertia.sdf`) against libsdformat itself (C++).

libsdformat is the library Gazebo loads SDFormat with. The oracle is ``sdformat12`` (Debian
bookworm's libsdformat 12.3), driven by ``oracles/sdformat_dump.cc`` (one process per batch of
files, see :mod:`oracles.sdformat_oracle`). Drake vendors its own libsdformat and is compared in
``test_reader_vs_drake.py``; this is a second, independent oracle.

**What is compared**, per file: the scoped link names (as sets, and, within each model, their
order, which libsdformat keeps as written), and per link

* ``X_WB`` (position and rotation matrix separately),
* the mass,
* ``M_BBo_B`` (6x6, angular-first, about the link origin in link axes); libsdformat's is built
  from its mass, ``X_BI`` and ``I_BBcm_I`` with gzinertia's own
  :func:`~gzinertia.spatial.inertia.spatial_inertia_about_origin` and
  :func:`~gzinertia.spatial.inertia.reexpress_inertia`,

each to ``‖ours − theirs‖ ≤ 1e-12·max(1, ‖theirs‖)``. *Not* compared: ``<fluid_added_mass>``
(libsdformat 12 does not know the element), collisions, plugins, the reader's notes.

**Spec versions.** libsdformat 12 implements SDFormat up to 1.9. A file declaring 1.10 or
newer is given to it as a temporary copy whose ``<sdf version>`` (and that of every file it
includes, and of ``model.config``) says 1.9, *only* when none of these files uses a 1.10+
feature that changes the compared quantities (:data:`NEWER_SEMANTICS`): ``<inertial auto>``
(1.11), merge-includes directly in a ``<world>`` (1.10), ``<joint>`` directly in a ``<world>``
(1.10). Such files are skipped with the feature named. The other 1.10+ additions leave names,
poses and rigid inertias alone and are allowed: ``<fluid_added_mass>`` (never folded into the
rigid inertia by libsdformat; 12 warns about an unknown element), ``<density>`` and
``<auto_inertia_params>`` (used only with ``auto``), ``<mimic>``, joint limit defaults,
``screw_thread_pitch``, optional plugin names. Our reader always reads the original file.

**Errors.** A file libsdformat loads with errors is skipped with its first error, except for
"invalid inertia" errors (``LINK_INERTIA_INVALID``): libsdformat reports them and keeps the
file's values (:func:`test_oracle_keeps_an_invalid_inertia`), so those links are compared.

**A libsdformat 12 bug.** libsdformat 12 rounds the pose of an ``<include merge="true">`` to 6
significant digits (gazebosim/sdformat#1136, fixed in libsdformat 13 by #1137); files with a
merge-include whose pose has more digits are skipped with that reason
(:func:`test_oracle_rounds_merge_include_poses_to_six_digits` shows the bug).

Inputs: (a) every file of ``sdf_examples/`` (model path ``sdf_examples/``); (b) the corpus
(``../shared/corpus``, skipped when absent), with the repository's model folders as model path;
(c) random documents from :mod:`sdfgen` (one oracle process for the whole batch; a small batch
in the default run, a large one under ``slow``).
"""

from __future__ import annotations

import functools
import re
import shutil
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sdf_builders as sdf
from conftest import CORPUS, EXAMPLES
from oracles.sdformat_oracle import (
    SdformatFile,
    SdformatLink,
    build_sdformat_dump,
    read_batches_with_sdformat,
    read_with_sdformat,
)
from sdfgen import sdf_for_seed

from gzinertia.records import SdfDocument
from gzinertia.sdf import read_sdf_file
from gzinertia.sdf.includes import UnresolvedIncludeError, resolve_uri
from gzinertia.sdf.xml import parse_xml_file
from gzinertia.spatial.inertia import reexpress_inertia, spatial_inertia_about_origin

RTOL = 1e-12
SDF_SUFFIXES = (".sdf", ".world")
ORACLE_VERSION = (1, 9)  # the newest SDFormat libsdformat 12 implements
LINK_INERTIA_INVALID = 18  # sdf::ErrorCode::LINK_INERTIA_INVALID in libsdformat 12
N_RANDOM_FAST = 24  # libsdformat 12 needs ~50-150 ms per random document (element cloning)
N_RANDOM_SLOW = 400


@pytest.fixture(scope="module", autouse=True)
def _oracle() -> None:
    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable: needs g++, pkg-config and sdformat12 "
                    "(apt-get install libsdformat-dev)")


# ------------------------------------------------------------------------------------------
# SDFormat versions and what is new after 1.9


def _version(text: str | None) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in (text or "").strip().split("."))
    except ValueError:
        return (0,)


def local_name(elem: etree._Element) -> str:
    """The tag without any namespace (comments and processing instructions give '')."""
    tag = elem.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _true(value: str | None) -> bool:
    return (value or "").strip().lower() in ("true", "1")


def _auto_inertial(root: etree._Element) -> bool:
    return any(local_name(e) == "inertial" and _true(e.get("auto")) for e in root.iter("*"))


def _world_children(root: etree._Element, tag: str) -> Iterator[etree._Element]:
    for world in root.iter("world"):
        yield from (e for e in world if isinstance(e.tag, str) and local_name(e) == tag)


#: 1.10+ features that change names, poses or rigid inertias (or that libsdformat 12 cannot
#: express): (description for the skip reason, detector on the parsed file).
NEWER_SEMANTICS = (
    ("<inertial auto='true'> (SDFormat 1.11, libsdformat 14+: mass, CoM and inertia computed "
     "from the collisions; libsdformat 12 ignores the attribute)", _auto_inertial),
    ("<include merge='true'> directly in a <world> (SDFormat 1.10)",
     lambda root: any(_true(e.get("merge")) for e in _world_children(root, "include"))),
    ("<joint> directly in a <world> (SDFormat 1.10)",
     lambda root: any(True for _ in _world_children(root, "joint"))),
)


def _included_files(path: Path, model_paths: Sequence[Path]) -> list[Path]:
    """``path`` and every file it includes, transitively (unresolvable URIs are left out)."""
    seen: list[Path] = []
    todo = [path.resolve()]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.append(f)
        try:
            root = parse_xml_file(f)
        except Exception:
            continue
        for uri in root.iter("uri"):
            parent = uri.getparent()
            if parent is None or local_name(parent) != "include" or not (uri.text or "").strip():
                continue
            try:
                todo.append(resolve_uri(uri.text or "", f, model_paths).path.resolve())
            except UnresolvedIncludeError:
                continue
    return seen


@dataclass(frozen=True)
class SpecCheck:
    """Whether libsdformat 12 can stand in for a file: ``newer`` lists the files declaring a
    version above 1.9, ``blockers`` the 1.10+ features (with the file using them) that stop it."""

    newer: tuple[Path, ...]
    blockers: tuple[str, ...]


def spec_check(path: Path, model_paths: Sequence[Path]) -> SpecCheck:
    """:class:`SpecCheck` of ``path`` and everything it includes."""
    newer: list[Path] = []
    blockers: list[str] = []
    for f in _included_files(path, model_paths):
        try:
            root = parse_xml_file(f)
        except Exception:
            continue
        if _version(root.get("version")) <= ORACLE_VERSION:
            continue
        newer.append(f)
        blockers += [f"{what} in {f.name}" for what, found in NEWER_SEMANTICS if found(root)]
    return SpecCheck(tuple(newer), tuple(blockers))


_SDF_VERSION = re.compile(r"""(<sdf\b[^>]*?\bversion\s*=\s*)(["'])(\d+\.\d+)\2""")


def as_sdformat_1_9(text: str) -> str:
    """``text`` with every ``<sdf version="X">`` above 1.9 set to 1.9 (nothing else changes)."""

    def sub(m: re.Match[str]) -> str:
        if _version(m.group(3)) <= ORACLE_VERSION:
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}1.9{m.group(2)}"

    return _SDF_VERSION.sub(sub, text)


def copy_as_1_9(src_dir: Path, dst_dir: Path) -> Path:
    """A copy of the folder ``src_dir`` with :func:`as_sdformat_1_9` applied to its SDF files and
    ``model.config`` files (other files copied as they are); returns ``dst_dir``."""
    shutil.copytree(src_dir, dst_dir)
    for f in dst_dir.rglob("*"):
        if f.is_file() and (f.suffix in SDF_SUFFIXES or f.name == "model.config"):
            f.write_text(as_sdformat_1_9(f.read_text(encoding="utf-8")), encoding="utf-8")
    return dst_dir


# ------------------------------------------------------------------------------------------
# A libsdformat 12 bug fixed in 13: merge-include poses rounded to 6 significant digits
#
# libsdformat 12 places a merged model (``<include merge="true">`` in a ``<model>``) through a
# proxy ``<frame>`` whose pose it sets with ``Param::Set(Pose3d)``, which goes through a string
# of 6 significant digits: ``<pose degrees="true">0 0 0 0 0 -180</pose>`` becomes a yaw of
# -3.14159. Reported as gazebosim/sdformat#1136 ("Param::Set truncates floating point
# numbers"), fixed in libsdformat 13 by gazebosim/sdformat#1137; Gazebo (libsdformat 13+) and
# our reader keep every digit.

PARAM_SET_TRUNCATION = (
    "libsdformat 12 rounds the pose of a merge-include to 6 significant digits "
    "(Param::Set, gazebosim/sdformat#1136, fixed in libsdformat 13 by #1137)"
)


def _six_digits_lose(values: Sequence[float]) -> bool:
    return any(float(f"{v:.6g}") != v for v in values)


def _pose_values(elem: etree._Element) -> list[float]:
    """``x y z roll pitch yaw`` (radians) of a ``<pose>`` as libsdformat 12 would print it."""
    words = [float(w) for w in (elem.text or "").split()]
    if (elem.get("rotation_format") or "euler_rpy").strip() == "quat_xyzw":
        from gzinertia.sdf.values import parse_pose

        return [*words[:3], *parse_pose(elem, "").X.rpy()]
    return [*words[:3], *(np.radians(words[3:]) if _true(elem.get("degrees")) else words[3:])]


def truncated_merge_includes(path: Path, model_paths: Sequence[Path]) -> list[str]:
    """The merge-includes (of ``path`` and its includes) whose pose libsdformat 12 changes."""
    found: list[str] = []
    for f in _included_files(path, model_paths):
        try:
            root = parse_xml_file(f)
        except Exception:
            continue
        for inc in root.iter("include"):
            uri = inc.find("uri")
            if not _true(inc.get("merge")) or uri is None:
                continue
            pose = inc.find("pose")
            placement = inc.find("placement_frame") is not None
            if pose is None:  # the included model's own pose (and placement frame) apply
                try:
                    target = resolve_uri(uri.text or "", f, model_paths).path
                    model = parse_xml_file(target).find("model")
                except Exception:
                    continue
                pose = None if model is None else model.find("pose")
                placement = placement or (model is not None and bool(model.get("placement_frame")))
            if placement or (pose is not None and _six_digits_lose(_pose_values(pose))):
                found.append(f"{(uri.text or '').strip()} in {f.name}:{inc.sourceline}")
    return found


def truncation_reason(path: Path, model_paths: Sequence[Path]) -> str | None:
    """A skip reason naming the merge-includes libsdformat 12 moves (``None`` when none)."""
    truncated = truncated_merge_includes(path, model_paths)
    return f"{PARAM_SET_TRUNCATION}: {'; '.join(truncated)}" if truncated else None


# ------------------------------------------------------------------------------------------
# Comparison


def _pose_matrix(values: Sequence[float | None]) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in values], dtype=float).reshape(4, 4)


def their_M_BBo_B(link: SdformatLink) -> np.ndarray:
    """libsdformat's link inertia as ``M_BBo_B`` (angular-first, about Bo, link axes)."""
    ixx, iyy, izz, ixy, ixz, iyz = (np.nan if v is None else v for v in link["I"])
    I_BBcm_I = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    X_BI = _pose_matrix(link["X_BI"])
    mass = np.nan if link["mass"] is None else float(link["mass"])
    I_BBcm_B = reexpress_inertia(I_BBcm_I, X_BI[:3, :3])
    return spatial_inertia_about_origin(mass, I_BBcm_B, X_BI[:3, 3], "angular-first")


def _rel(ours: np.ndarray, ref: np.ndarray) -> float:
    return float(np.linalg.norm(ours - ref) / max(1.0, float(np.linalg.norm(ref))))


def link_errors(ours: SdfDocument, theirs: SdformatFile) -> dict[str, dict[str, float]]:
    """Relative errors ``‖ours − theirs‖ / max(1, ‖theirs‖)`` per link present in both:
    ``p_WB``, ``R_WB``, ``mass`` and ``M_BBo_B``."""
    mine = {link.name: link for link in ours.links}
    out: dict[str, dict[str, float]] = {}
    for link in theirs["links"]:
        if link["name"] not in mine:
            continue
        rec = mine[link["name"]]
        X_WB = _pose_matrix(link["X_WB"])
        mass = np.nan if link["mass"] is None else float(link["mass"])
        out[link["name"]] = {
            "p_WB": _rel(np.asarray(rec.X_WB.p), X_WB[:3, 3]),
            "R_WB": _rel(np.asarray(rec.X_WB.R), X_WB[:3, :3]),
            "mass": _rel(np.array([rec.inertial.mass]), np.array([mass])),
            "M_BBo_B": _rel(np.asarray(rec.M_BBo_B.angular_first()), their_M_BBo_B(link)),
        }
    return out


def _scope(name: str) -> str:
    return name.rsplit("::", 1)[0]


def compare(ours: SdfDocument, theirs: SdformatFile) -> list[str]:
    """Mismatches between our reading and libsdformat's (empty when they agree)."""
    problems: list[str] = []
    our_names = [link.name for link in ours.links]
    their_names = [link["name"] for link in theirs["links"]]
    if set(our_names) != set(their_names):
        problems.append(
            f"link names differ: only ours {sorted(set(our_names) - set(their_names))}, "
            f"only libsdformat's {sorted(set(their_names) - set(our_names))}"
        )
    for scope in sorted({_scope(n) for n in their_names}):
        a = [n for n in our_names if _scope(n) == scope]
        b = [n for n in their_names if _scope(n) == scope]
        if set(a) == set(b) and a != b:
            problems.append(f"links of {scope} in another order: ours {a}, libsdformat's {b}")
    mine = {link.name: link for link in ours.links}
    theirs_by_name = {link["name"]: link for link in theirs["links"]}
    for name, errors in link_errors(ours, theirs).items():
        for what, err in errors.items():
            if not err <= RTOL:  # also catches NaN
                problems.append(f"{name}: {what} differs by {err:.3g} (relative)"
                                + _detail(what, mine[name], theirs_by_name[name]))
    return problems


def _detail(what: str, rec: object, link: SdformatLink) -> str:
    from gzinertia.records import LinkRecord

    assert isinstance(rec, LinkRecord)
    if what in ("p_WB", "R_WB"):
        return f"\n  ours:\n{rec.X_WB.matrix()}\n  libsdformat:\n{_pose_matrix(link['X_WB'])}"
    if what == "mass":
        return f": ours {rec.inertial.mass!r}, libsdformat {link['mass']!r}"
    return f"\n  ours:\n{rec.M_BBo_B.angular_first()}\n  libsdformat:\n{their_M_BBo_B(link)}"


def skip_reason(theirs: SdformatFile) -> str | None:
    """Why libsdformat's reading is not an oracle for this file (``None`` when it is)."""
    blocking = [e for e in theirs["errors"] if e["code"] != LINK_INERTIA_INVALID]
    if not blocking:
        return None
    e = blocking[0]
    where = f" ({Path(e['file']).name}:{e['line']})" if e["file"] and e["line"] else ""
    more = f" (+{len(blocking) - 1} more)" if len(blocking) > 1 else ""
    return f"libsdformat 12 reports errors: {e['message']}{where}{more}"


# ------------------------------------------------------------------------------------------
# (a) sdf_examples


def _files(base: Path) -> list[Path]:
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob("*") if p.suffix in SDF_SUFFIXES and p.is_file())


def _ids(paths: list[Path], base: Path) -> list[str]:
    return [str(p.relative_to(base)) for p in paths]


_EXAMPLES = _files(EXAMPLES)


@pytest.fixture(scope="module")
def examples_in_libsdformat(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, SdformatFile]:
    """libsdformat's reading of every example, from a copy of ``sdf_examples/`` marked 1.9."""
    copy = copy_as_1_9(EXAMPLES, tmp_path_factory.mktemp("libsdformat") / "sdf_examples")
    copies = [copy / p.relative_to(EXAMPLES) for p in _EXAMPLES]
    results = read_with_sdformat(copies, [copy])
    return dict(zip(_EXAMPLES, results, strict=True))


@pytest.mark.oracle("sdformat")
@pytest.mark.skipif(not _EXAMPLES, reason="no files in sdf_examples/")
@pytest.mark.parametrize("path", _EXAMPLES, ids=_ids(_EXAMPLES, EXAMPLES))
def test_sdf_examples_match_libsdformat(
    path: Path, examples_in_libsdformat: dict[Path, SdformatFile]
) -> None:
    check = spec_check(path, [EXAMPLES])
    if check.blockers:
        pytest.skip("uses SDFormat 1.10+ semantics libsdformat 12 lacks: "
                    + "; ".join(check.blockers))
    theirs = examples_in_libsdformat[path]
    reason = skip_reason(theirs) or truncation_reason(path, [EXAMPLES])
    if reason:
        pytest.skip(reason)
    problems = compare(read_sdf_file(path, [EXAMPLES]), theirs)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------
# (b) the public corpus


_CORPUS = _files(CORPUS)


@functools.cache
def corpus_model_paths(path: Path) -> list[Path]:
    """Model paths for a corpus file: folders holding model folders of the same repository."""
    rel = path.relative_to(CORPUS).parts
    repo = CORPUS / rel[0] if rel[0] != "_generated" else CORPUS / rel[0] / rel[1]
    return sorted({cfg.parent.parent for cfg in repo.rglob("model.config")})


@functools.cache
def _corpus_plan() -> dict[Path, str | None]:
    """Per corpus file: ``None`` when libsdformat 12 can read it, else the reason it cannot."""
    return {p: _corpus_skip(p) for p in _CORPUS}


def _corpus_skip(path: Path) -> str | None:
    check = spec_check(path, corpus_model_paths(path))
    if check.blockers:
        return "uses SDFormat 1.10+ semantics libsdformat 12 lacks: " + "; ".join(check.blockers)
    # A 1.10+ file without blockers: only standalone files are rewritten.
    if check.newer and (len(check.newer) > 1 or check.newer[0] != path.resolve()):
        return "includes SDFormat 1.10+ files (only standalone files are rewritten)"
    return None


@pytest.fixture(scope="module")
def corpus_in_libsdformat(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, SdformatFile]:
    """libsdformat's reading of the corpus files it can stand in for (one process)."""
    work = tmp_path_factory.mktemp("libsdformat_corpus")
    inputs: list[tuple[Path, Path]] = []
    for i, (path, reason) in enumerate(_corpus_plan().items()):
        if reason is not None:
            continue
        src = path
        if spec_check(path, corpus_model_paths(path)).newer:  # a standalone 1.10+ file
            src = work / f"{i}_{path.name}"
            src.write_text(as_sdformat_1_9(path.read_text(encoding="utf-8")), encoding="utf-8")
        inputs.append((path, src))
    batches = [([src], corpus_model_paths(path)) for path, src in inputs]
    results = read_batches_with_sdformat(batches)
    return {path: result for (path, _), [result] in zip(inputs, results, strict=True)}


@pytest.mark.oracle("sdformat")
@pytest.mark.skipif(not _CORPUS, reason="corpus absent (../shared/corpus)")
@pytest.mark.parametrize("path", _CORPUS, ids=_ids(_CORPUS, CORPUS) if _CORPUS else None)
def test_corpus_matches_libsdformat(
    path: Path, corpus_in_libsdformat: dict[Path, SdformatFile]
) -> None:
    reason = _corpus_plan()[path]
    if reason is not None:
        pytest.skip(reason)
    theirs = corpus_in_libsdformat[path]
    reason = skip_reason(theirs) or truncation_reason(path, corpus_model_paths(path))
    if reason:
        pytest.skip(reason)
    problems = compare(read_sdf_file(path, corpus_model_paths(path)), theirs)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------
# (c) random documents


def _random_batch(seeds: range, tmp_path: Path) -> list[str]:
    """Failures (empty when all agree) for these :func:`sdfgen.sdf_for_seed` documents."""
    originals, copies = [], []
    for seed in seeds:
        text = sdf_for_seed(seed)
        original = tmp_path / f"seed{seed}.sdf"
        original.write_text(text, encoding="utf-8")
        check = spec_check(original, [])
        assert not check.blockers, f"seed {seed}: sdfgen used {check.blockers}"
        copy = tmp_path / f"seed{seed}_as_1_9.sdf"
        copy.write_text(as_sdformat_1_9(text), encoding="utf-8")
        originals.append(original)
        copies.append(copy)
    failures: list[str] = []
    for seed, original, theirs in zip(seeds, originals, read_with_sdformat(copies), strict=True):
        if theirs["errors"]:
            failures.append(f"seed {seed}: libsdformat rejects the generated file: "
                            f"{theirs['errors'][0]['message']}")
            continue
        problems = compare(read_sdf_file(original), theirs)
        if problems:
            failures.append(f"seed {seed} (sdfgen.sdf_for_seed({seed})):\n  "
                            + "\n  ".join(problems[:5]))
    return failures


@pytest.mark.oracle("sdformat")
def test_random_models_match_libsdformat(tmp_path: Path) -> None:
    failures = _random_batch(range(N_RANDOM_FAST), tmp_path)
    assert not failures, "\n".join(failures)


@pytest.mark.oracle("sdformat")
@pytest.mark.slow
def test_many_random_models_match_libsdformat(tmp_path: Path) -> None:
    failures = _random_batch(range(N_RANDOM_FAST, N_RANDOM_FAST + N_RANDOM_SLOW), tmp_path)
    assert not failures, "\n".join(failures)


# ------------------------------------------------------------------------------------------
# The oracle alone (facts the comparisons above rely on)


@pytest.mark.oracle("sdformat")
def test_oracle_names_poses_and_inertia(tmp_path: Path) -> None:
    path = tmp_path / "m.sdf"
    I = np.array([[1.0, 0.1, 0.0], [0.1, 2.0, 0.0], [0.0, 0.0, 2.5]])
    path.write_text(
        sdf.model(
            sdf.link("a", sdf.inertial(2.0, I, com=(0.5, 0, 0)), pose=(1, 0, 0, 0, 0, 0)),
            sdf.nested_model("n", sdf.link("b"), pose=(0, 0, 1, 0, 0, 0)),
            version="1.9", name="top", pose=(1, 2, 3, 0, 0, np.pi / 2)),
        encoding="utf-8",
    )
    [result] = read_with_sdformat([path])
    assert result["errors"] == [] and result["root"] == "model"
    links = {link["name"]: link for link in result["links"]}
    assert list(links) == ["top::a", "top::n::b"]
    # the top-level model's own pose is applied: yaw 90° maps the link's x offset onto +y
    np.testing.assert_allclose(_pose_matrix(links["top::a"]["X_WB"])[:3, 3], [1, 3, 3],
                               atol=1e-15)
    np.testing.assert_allclose(_pose_matrix(links["top::n::b"]["X_WB"])[:3, 3], [1, 2, 4],
                               atol=1e-15)
    a = links["top::a"]
    assert a["mass"] == 2.0 and a["I"] == [1.0, 2.0, 2.5, 0.1, 0.0, 0.0]
    np.testing.assert_allclose(_pose_matrix(a["X_BI"])[:3, 3], [0.5, 0, 0])
    b = links["top::n::b"]  # no <inertial>: the spec's 1 kg and unit inertia
    assert b["mass"] == 1.0 and b["I"] == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]


@pytest.mark.oracle("sdformat")
def test_oracle_keeps_an_invalid_inertia(tmp_path: Path) -> None:
    path = tmp_path / "bad.sdf"
    path.write_text(
        sdf.model(sdf.link("bad", sdf.inertial(2.0, np.diag([1.0, 1.0, 5.0]), posed=False)),
                  version="1.9"),  # 1 + 1 < 5: not a physical inertia
        encoding="utf-8",
    )
    [result] = read_with_sdformat([path])
    assert [e["code"] for e in result["errors"]] == [LINK_INERTIA_INVALID]
    assert skip_reason(result) is None
    [link] = result["links"]
    assert link["mass"] == 2.0 and link["I"] == [1.0, 1.0, 5.0, 0.0, 0.0, 0.0]


@pytest.mark.oracle("sdformat")
def test_oracle_reports_errors_and_still_gives_a_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sdf"
    # Inline: a truncated file (its bytes are the point).
    broken.write_text("<sdf version='1.9'><model name='m'><link name='a'>", encoding="utf-8")
    missing = tmp_path / "missing.sdf"
    missing.write_text(
        sdf.world(sdf.include("model://nowhere"), sdf.nested_model("m", sdf.link("a")),
                  version="1.9"),
        encoding="utf-8",
    )
    results = read_with_sdformat([broken, missing])
    assert [r["file"] for r in results] == [str(broken), str(missing)]
    assert results[0]["errors"] and results[0]["links"] == []
    assert results[1]["errors"] and "nowhere" in results[1]["errors"][0]["message"]
    assert [link["name"] for link in results[1]["links"]] == ["m::a"]


def _thing_model(tmp_path: Path) -> Path:
    """A model folder ``models/thing`` (``model.config`` and one link ``body``): the folder
    to put on the model path."""
    models = tmp_path / "models"
    (models / "thing").mkdir(parents=True)
    (models / "thing" / "model.config").write_text(
        sdf.model_config(version="1.9", name="thing"), encoding="utf-8")
    (models / "thing" / "model.sdf").write_text(
        sdf.model(sdf.link("body"), version="1.9", name="thing"), encoding="utf-8")
    return models


@pytest.mark.oracle("sdformat")
def test_oracle_resolves_model_uris_through_the_model_path(tmp_path: Path) -> None:
    models = _thing_model(tmp_path)
    world_file = tmp_path / "w.sdf"
    world_file.write_text(
        sdf.world(sdf.include("model://thing", "t1", (0, 0, 2, 0, 0, 0)), version="1.9"),
        encoding="utf-8",
    )
    [result] = read_with_sdformat([world_file], [models])
    assert result["errors"] == []
    [link] = result["links"]
    assert link["name"] == "t1::body"
    np.testing.assert_allclose(_pose_matrix(link["X_WB"])[:3, 3], [0, 0, 2])


def test_version_rewrite_changes_only_the_version() -> None:
    # Inline: the rewrite is checked byte for byte on these texts.
    text = '<?xml version="1.0"?>\n<sdf version="1.11">\n<model name="m"/></sdf>\n'
    assert as_sdformat_1_9(text) == text.replace('"1.11"', '"1.9"')
    assert as_sdformat_1_9(text.replace("1.11", "1.6")) == text.replace("1.11", "1.6")
    config = "<model><sdf version='1.10'>model.sdf</sdf></model>"
    assert as_sdformat_1_9(config) == config.replace("1.10", "1.9")


@pytest.mark.oracle("sdformat")
def test_oracle_rounds_merge_include_poses_to_six_digits(tmp_path: Path) -> None:
    """The libsdformat 12 bug behind :data:`PARAM_SET_TRUNCATION` (so the skip stays honest:
    this fails once the oracle keeps every digit)."""
    models = _thing_model(tmp_path)
    yaw = 1.23456789
    paths = []
    for merge in (True, False):
        text = sdf.world(sdf.nested_model("outer", sdf.link("l"), sdf.include(
            "model://thing", pose=(0, 0, 0, 0, 0, yaw), merge=merge)), version="1.9")
        world_file = tmp_path / f"merge_{str(merge).lower()}.sdf"
        world_file.write_text(text, encoding="utf-8")
        paths.append(world_file)
    [include_line] = [i for i, line in enumerate(text.splitlines(), 1) if "<include" in line]
    merged, nested = read_with_sdformat(paths, [models])
    assert merged["errors"] == [] and nested["errors"] == []

    def yaw_of(result: SdformatFile, name: str) -> float:
        [X] = [_pose_matrix(k["X_WB"]) for k in result["links"] if k["name"] == name]
        return float(np.arctan2(X[1, 0], X[0, 0]))

    assert yaw_of(nested, "outer::thing::body") == pytest.approx(yaw, abs=1e-15)
    assert yaw_of(merged, "outer::body") == pytest.approx(float(f"{yaw:.6g}"), abs=1e-15)
    assert truncated_merge_includes(paths[0], [models]) == [
        f"model://thing in merge_true.sdf:{include_line}"]
    assert truncated_merge_includes(paths[1], [models]) == []


@pytest.mark.oracle("sdformat")
def test_oracle_fast_load_equals_root_load(
    examples_in_libsdformat: dict[Path, SdformatFile],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``sdformat_dump`` copies a once-initialised spec instead of calling ``sdf::Root::Load``
    per file; with ``SDFORMAT_DUMP_PLAIN_LOAD`` it calls ``Root::Load``: same output."""
    picked = [p for p in _EXAMPLES if p.name == "harbour_world.sdf" or p.parent.name == "arm"]
    copy = copy_as_1_9(EXAMPLES, tmp_path / "sdf_examples")
    monkeypatch.setenv("SDFORMAT_DUMP_PLAIN_LOAD", "1")
    plain = read_with_sdformat([copy / p.relative_to(EXAMPLES) for p in picked], [copy])
    for path, result in zip(picked, plain, strict=True):
        fast = examples_in_libsdformat[path]
        assert result["links"] == fast["links"] and result["errors"] == fast["errors"]
