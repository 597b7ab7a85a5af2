"""``gzinertia show``: the JSON contract, the table, and errors as one line with exit status 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import CORPUS, EXAMPLES, rel_err, run_cli

from gzinertia.sdf import read_sdf_file
from gzinertia.spatial.algebra import block_swap

SHOW_KEYS = {
    "name",
    "file",
    "line",
    "X_WB",
    "mass",
    "inertial_defaulted",
    "p_BoBcm_B",
    "R_BI",
    "I_BBcm_B",
    "I_BBo_B",
    "M_BBcm_B",
    "M_BBo_B",
    "principal_moments",
    "R_BP",
    "equivalent_ellipsoid_semi_axes",
    "A_BBo_B",
    "gazebo_dart_tensor",
    "hydrodynamics_added_mass",
}
ADDED_MASS_WORLD = CORPUS / "gazebosim__gz-sim/test/worlds/fluid_added_mass.sdf"


def _shape(value: object) -> tuple[int, ...]:
    return np.asarray(value, dtype=float).shape


@pytest.mark.skipif(not ADDED_MASS_WORLD.is_file(), reason="corpus absent")
def test_json_has_the_documented_shape_in_both_orderings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = {}
    for ordering in ("angular-first", "linear-first"):
        code, out, _ = run_cli(
            ["show", str(ADDED_MASS_WORLD), "--json", "--ordering", ordering], capsys
        )
        assert code == 0
        data = json.loads(out)
        assert set(data) == {"file", "sdf_version", "ordering", "links", "notes"}
        assert data["ordering"] == ordering
        for link in data["links"]:
            assert set(link) == SHOW_KEYS
            assert _shape(link["X_WB"]["p"]) == (3,) and _shape(link["X_WB"]["R"]) == (3, 3)
            for key in ("M_BBcm_B", "M_BBo_B", "gazebo_dart_tensor"):
                assert _shape(link[key]) == (6, 6)
            assert link["A_BBo_B"] is None or _shape(link["A_BBo_B"]) == (6, 6)
        outputs[ordering] = data
    for a, b in zip(
        outputs["angular-first"]["links"], outputs["linear-first"]["links"], strict=True
    ):
        assert rel_err(block_swap(np.array(a["M_BBo_B"])), np.array(b["M_BBo_B"])) == 0.0


@pytest.mark.skipif(not ADDED_MASS_WORLD.is_file(), reason="corpus absent")
def test_link_glob_selects_scoped_or_unscoped_names(capsys: pytest.CaptureFixture[str]) -> None:
    doc = read_sdf_file(ADDED_MASS_WORLD)
    target = doc.links[0].name
    for pattern in (target, target.rsplit("::", 1)[-1]):
        code, out, _ = run_cli(["show", str(ADDED_MASS_WORLD), "--json", "--link", pattern], capsys)
        assert code == 0
        assert target in [link["name"] for link in json.loads(out)["links"]]
    code, _, err = run_cli(["show", str(ADDED_MASS_WORLD), "--link", "no_such_link"], capsys)
    assert code == 2 and "no link matches 'no_such_link'" in err


def test_table_names_every_link(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(EXAMPLES.rglob("*.sdf"))
    if not files:
        pytest.skip("no examples yet")
    for f in files:
        code, out, err = run_cli(["show", str(f), "-m", str(EXAMPLES)], capsys)
        assert code == 0, err
        for link in read_sdf_file(f, [EXAMPLES]).links:
            assert link.name in out


# The malformed texts stay inline: their bytes (and the line each fault is on) are the point.
# The frame faults are built (the model's first element is on line 4).
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "<sdf version='1.10'><model name='m'><link name='l'><pose>1 2 x 0 0 0</pose></link></model></sdf>",
            r":1: <pose> value 'x' is not a number",
        ),
        (
            "<sdf version='1.10'><model name='m'>\n<link name='l'><pose>1 2</pose></link></model></sdf>",
            r":2: <pose> needs 6 numbers, got 2",
        ),
        (
            sdf.model(sdf.link("a", relative_to="b"), sdf.link("b", relative_to="a"), version="1.10"),
            r":[45]: relative_to cycle",
        ),
        (
            sdf.model(sdf.link("a", relative_to="nope"), version="1.10"),
            r":4: link 'm::a': relative_to names 'nope', which is no frame",
        ),
        (
            "<sdf version='1.10'><model name='m'>\n<link name='a'><inertial><mass>nan</mass></inertial></link></model></sdf>",
            r":2: <mass> value 'nan' is not finite",
        ),
        ("<robot name='r'/>", r":1: root element is <robot>, not <sdf> \(this is URDF"),
        ("<sdf version='1.10'><model name='m'>\n<link name='a'>", r":2: not well-formed XML"),
        ("", r": file is empty"),
        ("\x00\x01binary", r"not well-formed XML"),
    ],
)
def test_bad_input_is_one_line_naming_file_and_line_with_status_2(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "bad.sdf"
    f.write_text(content)
    code, out, err = run_cli(["show", str(f)], capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"gzinertia: error: {f}")
    assert re.search(message, lines[0]), lines[0]


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["show"], capsys)[0] == 2
    assert run_cli(["show", "x.sdf", "--ordering", "sideways"], capsys)[0] == 2
    assert run_cli(["no-such-command"], capsys)[0] == 2


CORPUS_FILES = (
    sorted(p for p in CORPUS.rglob("*") if p.suffix in (".sdf", ".world") and p.is_file())
    if CORPUS.is_dir()
    else []
)


@pytest.mark.parametrize(
    "path", CORPUS_FILES, ids=[str(p.relative_to(CORPUS)) for p in CORPUS_FILES]
)
def test_every_corpus_file_loads_or_fails_in_one_line(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["show", str(path), "--json"], capsys)
    assert "Traceback" not in err
    if code == 0:
        assert json.loads(out)["file"] == str(path)
    else:
        assert code == 2
        line = err.strip()
        assert "\n" not in line
        assert re.match(rf"gzinertia: error: {re.escape(str(path))}(:\d+)?: ", line), line


def test_verbose_names_the_rule_that_found_each_include(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    world = EXAMPLES / "harbour_world.sdf"
    status, out, _ = run_cli(["show", str(world), "-m", str(EXAMPLES), "-l", "quay::*", "-v"], capsys)
    assert status == 0
    assert "'model://torpedo_auv' ->" in out and "(--model-path" in out
    status, out, _ = run_cli(["show", str(world), "-m", str(EXAMPLES), "-l", "quay::*"], capsys)
    assert "'model://torpedo_auv' ->" not in out
