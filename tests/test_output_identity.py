"""benchmarks/output_identity.py, the byte-identity check of issue 26: two recordings of one tree
are identical (the recorder is deterministic), a changed output is reported, and the recorder's
in-process runs give what processes of the console script give."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "output_identity.py"

#: A few invocations of each kind on two small examples: reads, edits in place (SDFormat and
#: URDF), standard input, a bad input (exit 2), help text.
SUBSET = (
    r"^(show|show --json|audit --no-cache -j 1 --format json|addmass --ellipsoid --check"
    r"|addmass --ellipsoid --in-place) \{r\}/examples/box_rov/model\.sdf$"
    r"|^(expand --sdf|audit --fix --no-cache -j 1) \{r\}/examples/defects/urdf_massless_link/"
    r"|< examples/box_rov|^show \{r\}/bad/empty\.sdf$|^expand --help$"
)


def _script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, cwd=cwd, check=False)


def _record(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    done = _script("--record", str(out), "--no-bem", "--quick", "--match", SUBSET, *extra,
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _record(tmp_path_factory.mktemp("identity"), "a.json")


def _invocations(path: Path) -> list[dict[str, object]]:
    return json.loads(path.read_text())["invocations"]  # type: ignore[no-any-return]


def test_the_subset_covers_reads_edits_stdin_and_bad_inputs(recording: Path) -> None:
    """The recording holds what the other tests compare: an edit in place whose written bytes
    are recorded, a bad input's one line and exit 2."""
    runs = {str(e["key"]): e for e in _invocations(recording)}
    assert len(runs) == 10
    edit = runs["addmass --ellipsoid --in-place {r}/examples/box_rov/model.sdf"]
    original = (REPO / "sdf_examples" / "box_rov" / "model.sdf").read_text()
    written = edit["written"]
    assert isinstance(written, dict) and set(written) == {"examples/box_rov/model.sdf"}
    assert "<fluid_added_mass>" in written["examples/box_rov/model.sdf"]
    assert written["examples/box_rov/model.sdf"] != original
    bad = runs["show {r}/bad/empty.sdf"]
    assert bad["status"] == 2 and bad["stdout"] == "" and bad["written"] == {}
    assert str(bad["stderr"]).count("\n") == 1 and "bad/empty.sdf" in str(bad["stderr"])


def test_each_invocation_sees_the_inputs_as_built(tmp_path: Path) -> None:
    """What an invocation wrote, changed or deleted is recorded and undone before the next."""
    sys.path.insert(0, str(SCRIPT.parent))
    import output_identity

    root, pristine = tmp_path / "root", tmp_path / "pristine"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "kept.sdf").write_text("kept")
    (root / "edited.sdf").write_text("before")
    (root / "deleted.sdf").write_text("deleted")
    shutil.copytree(root, pristine)
    before = output_identity._listing(root)
    (root / "edited.sdf").write_text("after, longer")
    (root / "deleted.sdf").unlink()
    (root / "sub" / "new.png").write_bytes(b"\x89PNG")
    written = output_identity._restore(root, pristine, before)
    assert set(written) == {"edited.sdf", "deleted.sdf", "sub/new.png"}
    assert written["edited.sdf"] == "after, longer" and written["deleted.sdf"] == "<deleted>"
    assert written["sub/new.png"].startswith("sha256:")
    assert output_identity._listing(root) == before
    assert (root / "edited.sdf").read_text() == "before"


def test_two_recordings_of_one_tree_are_identical(recording: Path, tmp_path: Path) -> None:
    second = _record(tmp_path, "b.json")
    done = _script("--compare", str(recording), str(second), cwd=tmp_path)
    total = len(_invocations(recording))
    assert done.returncode == 0, done.stdout
    assert done.stdout.strip().endswith(f"{total} of {total} invocations identical, 0 differ")


def test_a_changed_output_is_reported(recording: Path, tmp_path: Path) -> None:
    """One stdout altered by a line, one written file altered, one invocation dropped: each is
    named with what differs, and the comparison exits 1."""
    data = json.loads(recording.read_text())
    runs = data["invocations"]
    shown = next(e for e in runs if e["key"] == "show {r}/examples/box_rov/model.sdf")
    lines = shown["stdout"].splitlines()
    original_line = lines[3]
    lines[3] = "a line the other tree prints"
    shown["stdout"] = "\n".join(lines) + "\n"
    edit = next(e for e in runs if e["written"])
    (name, text), = edit["written"].items()
    edit["written"][name] = text.replace("<", "[", 1)
    dropped = runs.pop()
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    done = _script("--compare", str(recording), str(changed), cwd=tmp_path)
    assert done.returncode == 1
    out = done.stdout
    assert "DIFFERS: gzinertia show {r}/examples/box_rov/model.sdf\n  stdout:" in out
    assert f"    -{original_line}\n" in out and "    +a line the other tree prints\n" in out
    assert f"DIFFERS: gzinertia {edit['key']}\n  wrote {name}:" in out
    assert f"DIFFERS: gzinertia {dropped['key']}\n  only in A" in out
    total = len(_invocations(recording))
    assert out.strip().endswith(f"{total - 3} of {total} invocations identical, 3 differ")


def test_in_process_runs_give_what_processes_give(recording: Path, tmp_path: Path) -> None:
    """The recorder runs each invocation in one long-lived process; the same subset run as one
    process per invocation (as a user runs it) is byte for byte the same."""
    processes = _record(tmp_path, "processes.json", "--subprocess")
    done = _script("--compare", str(recording), str(processes), cwd=tmp_path)
    assert done.returncode == 0, done.stdout
