"""``--diff`` output: a unified diff in difflib's format, built in linear time. Oracles: GNU
``patch`` turns the old file into the new one with it, and on inputs without repeated lines
(where the alignment is unique) it is ``difflib.unified_diff``'s text."""

from __future__ import annotations

import difflib
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from gzinertia.edit.line_diff import unified_diff

EXAMPLE = Path(__file__).resolve().parent.parent / "sdf_examples" / "torpedo_auv" / "model.sdf"


def _mutated(lines: list[str], rng: random.Random, repeated: bool) -> list[str]:
    """``lines`` with a few blocks inserted, deleted or replaced (blocks of repeated lines, as
    ``<fluid_added_mass>`` entries are, when ``repeated``)."""
    out = list(lines)
    for n in range(rng.randint(1, 6)):
        at = rng.randint(0, len(out))
        block = [
            "<xy>0</xy>\n" if repeated else f"new {n} {k}\n" for k in range(rng.randint(0, 5))
        ]
        out[at : at + rng.randint(0, 3)] = block
    return out


def _apply(tmp_path: Path, old: list[str], diff: str) -> str:
    target = tmp_path / "f.txt"
    target.write_text("".join(old))
    subprocess.run(
        ["patch", "-s", str(target)], input=diff, text=True, check=True, capture_output=True
    )
    return target.read_text()


@pytest.mark.skipif(shutil.which("patch") is None, reason="GNU patch not installed")
@pytest.mark.parametrize("seed", range(30))
def test_patch_turns_old_into_new(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    old = EXAMPLE.read_text().splitlines(keepends=True)
    if seed % 2:  # many repeated lines, the case difflib is slow on
        old = [f"<xx>{k % 3}</xx>\n" for k in range(200)] + old
    new = _mutated(old, rng, repeated=seed % 3 == 0)
    diff = "".join(unified_diff(old, new, "a/f.txt", "b/f.txt"))
    if old == new:
        assert diff == ""
    else:
        assert _apply(tmp_path, old, diff) == "".join(new)


@pytest.mark.parametrize("seed", range(30))
def test_same_text_as_difflib_when_lines_are_unique(seed: int) -> None:
    rng = random.Random(seed)
    old = [f"line {k}\n" for k in range(rng.randint(0, 60))]
    new = _mutated(old, rng, repeated=False)
    ours = list(unified_diff(old, new, "a/x", "b/x"))
    assert ours == list(difflib.unified_diff(old, new, "a/x", "b/x"))


@pytest.mark.skipif(shutil.which("patch") is None, reason="GNU patch not installed")
def test_a_long_stretch_without_anchors_is_replaced_whole_and_still_applies(
    tmp_path: Path,
) -> None:
    old = [f"<xx>{k % 2}</xx>\n" for k in range(1200)]  # no line unique: no anchor
    new = _mutated(old, random.Random(7), repeated=True)
    diff = "".join(unified_diff(old, new, "a/f.txt", "b/f.txt"))
    assert _apply(tmp_path, old, diff) == "".join(new)
