"""Differential tests: our SDF reader (:mod:`gzinertia.sdf`) against Drake's parser.

For every link, ``X_WB`` and ``M_BBo_B`` (angular-first, about the link origin, link axes) must
equal Drake's to 1e-12 relative (``‖ours − drake‖ ≤ 1e-12·max(1, ‖drake‖)``, positions and
rotations separately), and both must see the same set of scoped link names. Inputs:

(a) random documents from :mod:`sdfgen` (fixed seeds, in batches; a failure names the seed);
(b) every file of ``sdf_examples/`` (Drake gets a :func:`drake_compatible_copy`);
(c) the public corpus in ``../shared/corpus`` (files Drake cannot load, even stripped, are
    skipped with Drake's error as the reason).

The ``test_oracle_*`` tests check the Drake side alone (the facts ``drake_oracle`` documents).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pydrake")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracles.drake_oracle import (
    DrakeLoad,
    Links,
    drake_compatible_copy,
    drake_links,
    drake_links_stripped,
    load_in_drake,
)
from sdf_builders import frame, inertial, joint, link, model, nested_model, world
from sdfgen import sdf_for_seed

pytestmark = pytest.mark.oracle("pydrake")

REPO = Path(__file__).resolve().parents[1]
SDF_EXAMPLES = REPO / "sdf_examples"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

RTOL = 1e-12
N_BATCHES, BATCH = 8, 25  # 200 random documents
SDF_SUFFIXES = (".sdf", ".world")


def _read(path: Path, model_paths: list[Path] | None = None):
    from gzinertia.sdf import read_sdf_file  # the reader under test

    if model_paths is None:
        return read_sdf_file(path)
    return read_sdf_file(path, model_paths=model_paths)


def _close(ours: np.ndarray, ref: np.ndarray) -> bool:
    return bool(np.linalg.norm(ours - ref) <= RTOL * max(1.0, float(np.linalg.norm(ref))))


def compare(doc, drake: DrakeLoad) -> list[str]:
    """Mismatches between our document and Drake's load (empty when they agree)."""
    assert drake.links is not None
    problems: list[str] = []
    ours = {link.name: link for link in doc.links}
    theirs: Links = drake.links
    expected = set(theirs) | set(drake.excluded)
    if set(ours) != expected:
        problems.append(
            f"link names differ: only ours {sorted(set(ours) - expected)}, "
            f"only Drake's {sorted(expected - set(ours))}"
        )
    for name in sorted(set(ours) & set(theirs)):
        link = ours[name]
        X_WB, M_BBo_B = theirs[name]
        p, R = np.asarray(link.X_WB.p, float), np.asarray(link.X_WB.R, float)
        M = np.asarray(link.M_BBo_B.angular_first(), float)
        if not _close(p, X_WB[:3, 3]):
            problems.append(f"{name}: p_WB {p} != Drake {X_WB[:3, 3]} "
                            f"(|Δ| = {np.linalg.norm(p - X_WB[:3, 3]):.3g})")
        if not _close(R, X_WB[:3, :3]):
            problems.append(f"{name}: R_WB differs by {np.linalg.norm(R - X_WB[:3, :3]):.3g}:"
                            f"\n{R}\nDrake:\n{X_WB[:3, :3]}")
        if not _close(M, M_BBo_B):
            problems.append(f"{name}: M_BBo_B differs by {np.linalg.norm(M - M_BBo_B):.3g}:"
                            f"\n{M}\nDrake:\n{M_BBo_B}")
    return problems


# ------------------------------------------------------------------------------------------
# (a) random documents


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_random_models_match_drake(batch: int, tmp_path: Path) -> None:
    failures: list[str] = []
    for seed in range(batch * BATCH, (batch + 1) * BATCH):
        path = tmp_path / f"seed{seed}.sdf"
        path.write_text(sdf_for_seed(seed), encoding="utf-8")
        drake = load_in_drake(path)
        assert drake.ok, f"seed {seed}: generated file rejected by Drake: {drake.error}"
        assert not drake.excluded, f"seed {seed}: Drake replaced inertias {drake.excluded}"
        try:
            doc = _read(path)
        except Exception as exc:
            failures.append(f"seed {seed}: reader raised {type(exc).__name__}: {exc}")
            continue
        problems = compare(doc, drake)
        if problems:
            failures.append(f"seed {seed} (sdfgen.sdf_for_seed({seed})):\n  "
                            + "\n  ".join(problems[:5]))
    assert not failures, "\n".join(failures)


# ------------------------------------------------------------------------------------------
# (b) sdf_examples


def _example_files() -> list[Path]:
    if not SDF_EXAMPLES.is_dir():
        return []
    return sorted(p for p in SDF_EXAMPLES.rglob("*") if p.suffix in SDF_SUFFIXES and p.is_file())


def _skip_reason(drake: DrakeLoad, tmp_path: Path) -> str:
    where = "/*" + re.escape(str(tmp_path / "drake").lstrip("/"))
    return "Drake cannot load it: " + re.sub(where, "<copy>", str(drake.error))


def _ids(paths: list[Path], base: Path) -> list[str]:
    return [str(p.relative_to(base)) for p in paths]


_EXAMPLES = _example_files()


@pytest.mark.skipif(not _EXAMPLES, reason="no files in sdf_examples/")
@pytest.mark.parametrize("path", _EXAMPLES, ids=_ids(_EXAMPLES, SDF_EXAMPLES))
def test_sdf_examples_match_drake(path: Path, tmp_path: Path) -> None:
    drake = drake_links_stripped(path, tmp_path / "drake", [SDF_EXAMPLES])
    if not drake.ok:
        pytest.skip(_skip_reason(drake, tmp_path))
    doc = _read(path, [SDF_EXAMPLES])
    problems = compare(doc, drake)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------
# (c) the public corpus


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in SDF_SUFFIXES and p.is_file())


def corpus_model_paths(path: Path) -> list[Path]:
    """Model paths for a corpus file: folders holding model folders of the same repository."""
    rel = path.relative_to(CORPUS).parts
    repo = CORPUS / rel[0] if rel[0] != "_generated" else CORPUS / rel[0] / rel[1]
    return sorted({cfg.parent.parent for cfg in repo.rglob("model.config")})


_CORPUS = _corpus_files()


@pytest.mark.skipif(not _CORPUS, reason="corpus absent (../shared/corpus)")
@pytest.mark.parametrize("path", _CORPUS, ids=_ids(_CORPUS, CORPUS) if _CORPUS else None)
def test_corpus_matches_drake(path: Path, tmp_path: Path) -> None:
    model_paths = corpus_model_paths(path)
    drake = drake_links_stripped(path, tmp_path / "drake", model_paths)
    if not drake.ok:
        pytest.skip(_skip_reason(drake, tmp_path))
    doc = _read(path, model_paths)
    problems = compare(doc, drake)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------
# The oracle alone (no reader needed)


def _drake_of(text: str, tmp_path: Path) -> Links:
    path = tmp_path / "oracle.sdf"
    path.write_text(text, encoding="utf-8")
    return drake_links(path)


def test_oracle_names_and_model_pose(tmp_path: Path) -> None:
    links = _drake_of(
        model(link("a", pose=(0, 0, 1, 0, 0, 0)),
              nested_model("n1", link("b"), nested_model("n2", link("c"))),
              version="1.9", name="top", pose=(1, 2, 3, 0, 0, 0)),
        tmp_path,
    )
    assert set(links) == {"top::a", "top::n1::b", "top::n1::n2::c"}
    np.testing.assert_allclose(links["top::a"][0][:3, 3], [1, 2, 4])  # model pose applied
    np.testing.assert_allclose(links["top::n1::n2::c"][0][:3, 3], [1, 2, 3])
    in_world = _drake_of(
        world(frame("f", pose=(0, 0, 1, 0, 0, 0)),
              nested_model("m1", link("a"), pose=(1, 0, 0, 0, 0, 0), relative_to="f"),
              nested_model("m2", link("a"), nested_model("n", link("b"))),
              version="1.9"),
        tmp_path,
    )
    assert set(in_world) == {"m1::a", "m2::a", "m2::n::b"}  # no world name in the scope
    np.testing.assert_allclose(in_world["m1::a"][0][:3, 3], [1, 0, 1])


def test_oracle_defaults_and_invalid_inertia(tmp_path: Path) -> None:
    path = tmp_path / "d.sdf"
    path.write_text(
        model(link("none"),
              link("mass_only", inertial(2.0, None, posed=False)),
              link("bad", inertial(2.0, np.diag([1.0, 1.0, 5.0]), posed=False)),  # 1 + 1 < 5
              version="1.9"),
        encoding="utf-8",
    )
    result = load_in_drake(path)
    assert result.links is not None
    np.testing.assert_allclose(result.links["m::none"][1], np.eye(6), atol=1e-15)
    np.testing.assert_allclose(result.links["m::mass_only"][1],
                               np.diag([1, 1, 1, 2, 2, 2.0]), atol=1e-15)
    assert "m::bad" not in result.links
    assert set(result.excluded) == {"m::bad"}


def test_oracle_copy_strips_what_drake_rejects(tmp_path: Path) -> None:
    src = tmp_path / "src.world"
    # Inline: the copy is checked line for line against these lines (what it blanks, what it keeps).
    src.write_text(
        """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <model name="m">
      <link name="a">
        <plugin filename="x" name="y"><foo>1</foo></plugin>
        <inertial><pose relative_to="__model__">0.5 0 0 0 0 0</pose><mass>2</mass></inertial>
        <sensor name="s" type="imu"><alwaysOn>1</alwaysOn></sensor>
      </link>
      <unknown_thing>1</unknown_thing>
      <link name="b"><pose>0 0 1 0 0 0</pose></link>
    </model>
  </world>
</sdf>
""",
        encoding="utf-8",
    )
    assert not load_in_drake(src).ok  # .world is not a type Drake knows, and the content
    dst = drake_compatible_copy(src, tmp_path / "out")
    assert dst.suffix == ".sdf"
    assert len(dst.read_text().splitlines()) == len(src.read_text().splitlines())
    links = drake_links(dst)
    assert set(links) == {"m::a", "m::b"}
    assert links["m::a"][1][3, 3] == 2.0
    c = 0.5  # the inertial pose's offset along x, relative_to ignored (as libsdformat does)
    np.testing.assert_allclose(links["m::a"][1][:3, 3:], 2.0 * np.array(
        [[0, 0, 0], [0, 0, -c], [0, c, 0]]), atol=1e-15)
    np.testing.assert_allclose(links["m::b"][0][:3, 3], [0, 0, 1])


WELDS = world(
    nested_model(
        "m", link("a"), link("b"), joint("ab", "a", "b", type="revolute", axis=(0, 0, 1)),
        nested_model("inner", link("a"), joint("weld", "world", "a")),
    ),
    nested_model("n", link("a")),
    nested_model(
        "k", link("tool"), link("body"), link("wheel"),
        joint("mount", "body", "tool"),
        joint("to_world", "world", "body"),
        joint("axle", "body", "wheel", type="continuous", axis=(0, 1, 0)),
    ),
    version="1.9",
)


def test_links_welded_to_the_world_match_drake(tmp_path: Path) -> None:
    """``LinkRecord.welded_to_world`` is Drake's ``GetBodiesWeldedTo(world)``: fixed joints to
    ``world`` in nested models, chains of fixed joints; a same-named link elsewhere is free."""
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant

    path = tmp_path / "welds.sdf"
    path.write_text(WELDS, encoding="utf-8")
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(str(path))
    plant.Finalize()
    world = plant.world_body()
    drake_welded = {
        f"{plant.GetModelInstanceName(b.model_instance())}::{b.name()}"
        for b in plant.GetBodiesWeldedTo(world)
        if b.index() != world.index()
    }
    doc = _read(path)
    assert {link.name for link in doc.links if link.welded_to_world} == drake_welded
    assert len(drake_welded) == 3 and len(doc.links) == 7
