"""What a user expects of a file edited in place, beyond atomicity (tests/test_safe_write.py):
symbolic links are written through, hard links, read-only files and non-regular targets are
refused with one line, owner, group, mode and extended attributes are kept, two writers never
lose an update silently, and a killed writer's temporary is removed by the next write."""

from __future__ import annotations

import multiprocessing
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from gzinertia.errors import GzInertiaError
from gzinertia.io.safe_write import write_atomically

# Inline: bytes to write atomically, not models (the writer never parses them).
OLD = b"<sdf version='1.10'><!-- old --></sdf>\n"
NEW = b"<sdf version='1.10'><!-- new --></sdf>\n"
ROOT = os.geteuid() == 0


@pytest.fixture(autouse=True)
def _deadline(deadline: None) -> None:
    """A write that blocks: a hang fails the test (conftest.deadline), not the suite."""


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".gzinertia-tmp" in p.name)


# --- links --------------------------------------------------------------------------------------


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "models" / "model.sdf"
    real.parent.mkdir()
    real.write_bytes(OLD)
    first = tmp_path / "link.sdf"
    first.symlink_to(Path("models") / "model.sdf")
    second = tmp_path / "link2.sdf"
    second.symlink_to(first.name)  # a chain of two links
    write_atomically(second, NEW, expected=OLD)
    assert second.is_symlink() and first.is_symlink()
    assert os.readlink(second) == "link.sdf"
    assert real.read_bytes() == NEW
    assert temporaries(tmp_path) == [] and temporaries(real.parent) == []


def test_in_place_through_a_symbolic_link_edits_its_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = tmp_path / "box_rov.sdf"
    real.write_bytes((EXAMPLES / "box_rov" / "model.sdf").read_bytes())
    link = tmp_path / "link.sdf"
    link.symlink_to(real.name)
    before = real.read_bytes()
    status, _, err = run_cli(["addmass", "--ellipsoid", "--density", "1025", "--in-place",
                              str(link)], capsys)
    assert status == 0, err
    assert link.is_symlink() and real.read_bytes() != before
    status, _, err = run_cli(["addmass", "--ellipsoid", "--density", "1025", "--check",
                              str(link)], capsys)
    assert status == 0, err


def test_a_file_with_hard_links_is_refused_and_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)
    other = tmp_path / "other.sdf"
    os.link(target, other)
    with pytest.raises(GzInertiaError, match="has 2 hard links"):
        write_atomically(target, NEW, expected=OLD)
    assert target.read_bytes() == OLD and other.read_bytes() == OLD
    assert os.stat(target).st_ino == os.stat(other).st_ino
    assert temporaries(tmp_path) == []


# --- metadata -----------------------------------------------------------------------------------


@pytest.mark.skipif(not ROOT, reason="giving a file to another owner needs root")
def test_owner_and_group_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)
    os.chown(target, 12345, 23456)
    os.chmod(target, 0o664)
    write_atomically(target, NEW)
    st = os.stat(target)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (12345, 23456, 0o664)
    assert target.read_bytes() == NEW


def test_extended_attributes_and_mode_bits_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)
    try:
        os.setxattr(target, "user.gzinertia.test", b"kept \x00 bytes")
    except OSError as exc:
        pytest.skip(f"no user extended attributes here: {exc}")
    os.chmod(target, 0o2750)  # setgid and an odd mode survive (chown would clear setgid)
    write_atomically(target, NEW)
    assert os.getxattr(target, "user.gzinertia.test") == b"kept \x00 bytes"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o2750
    assert target.read_bytes() == NEW


def test_a_read_only_file_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "box_rov.sdf"
    target.write_bytes((EXAMPLES / "box_rov" / "model.sdf").read_bytes())
    before = target.read_bytes()
    os.chmod(target, 0o444)
    args = ["addmass", "--ellipsoid", "--density", "1025", "--in-place", str(target)]
    status, _, err = run_cli(args, capsys)
    assert status == 2 and "Traceback" not in err
    assert err.splitlines()[-1] == (
        f"gzinertia: error: {target}: is read-only (mode 444): refusing to write it "
        "(--force-readonly writes it and keeps it read-only)"
    )
    assert target.read_bytes() == before
    status, _, err = run_cli([*args, "--force-readonly"], capsys)
    assert status == 0, err
    assert target.read_bytes() != before
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o444


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_a_non_regular_output_is_never_replaced(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "device":
        if not ROOT:
            pytest.skip("creating a device node needs root")
        os.mknod(out, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a private /dev/null
    else:
        out.mkdir()
    mode_before = os.lstat(out).st_mode
    source = tmp_path / "box_rov.sdf"
    source.write_bytes((EXAMPLES / "box_rov" / "model.sdf").read_bytes())
    status, _, err = run_cli(["addmass", "--ellipsoid", "--density", "1025", "-o", str(out),
                              str(source)], capsys)
    assert status == 2 and "not a regular file: refusing to replace it" in err, err
    assert os.lstat(out).st_mode == mode_before
    assert temporaries(tmp_path) == []


# --- concurrent writers -------------------------------------------------------------------------


def _racer(target: str, data: bytes, start: multiprocessing.synchronize.Barrier,  # type: ignore[name-defined]
           results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    start.wait()
    try:
        write_atomically(target, data, expected=OLD)
        results.put(("ok", data))
    except GzInertiaError as exc:
        results.put(("refused", str(exc)))


def test_two_writers_of_one_read_never_both_succeed(tmp_path: Path) -> None:
    """Both read OLD and write their own edit at the same moment: exactly one wins, the other
    fails loudly, and the file holds the winner's bytes (no update lost silently)."""
    target = tmp_path / "model.sdf"
    ctx = multiprocessing.get_context("fork")
    for _ in range(8):
        target.write_bytes(OLD)
        start, results = ctx.Barrier(2), ctx.Queue()
        edits = [NEW + b"<!-- A -->", NEW + b"<!-- B -->"]
        procs = [ctx.Process(target=_racer, args=(str(target), e, start, results)) for e in edits]
        for p in procs:
            p.start()
        outcomes = [results.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        won = [data for status, data in outcomes if status == "ok"]
        lost = [msg for status, msg in outcomes if status == "refused"]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert "changed since gzinertia read it" in str(lost[0])
        assert target.read_bytes() == won[0]
        assert temporaries(tmp_path) == []


def test_an_edit_of_a_file_changed_meanwhile_fails_and_keeps_the_other_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process (here: planted between reading and writing) writes the file while
    ``addmass --in-place`` computes: exit 2, one line, the other process's bytes kept."""
    from gzinertia.edit import session

    target = tmp_path / "box_rov.sdf"
    target.write_bytes((EXAMPLES / "box_rov" / "model.sdf").read_bytes())
    theirs = target.read_bytes().replace(b"</sdf>", b"<!-- edited by someone else --></sdf>")
    finish = session.FileEdit.finish

    def someone_writes_meanwhile(self: session.FileEdit, *args: object) -> bytes:
        target.write_bytes(theirs)
        return finish(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(session.FileEdit, "finish", someone_writes_meanwhile)
    status, _, err = run_cli(["addmass", "--ellipsoid", "--in-place", str(target)], capsys)
    assert status == 2, err
    assert err.splitlines()[-1].startswith(f"gzinertia: error: {target}: changed since")
    assert target.read_bytes() == theirs


# --- temporaries of killed writers --------------------------------------------------------------


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)
    dead = tmp_path / f".model.sdf.gzinertia-tmp-{_dead_pid()}-0a1b2c3d"
    dead.write_bytes(b"half a fi")
    alive = tmp_path / f".model.sdf.gzinertia-tmp-{os.getpid()}-0a1b2c3d"
    alive.write_bytes(b"being written")
    unrelated = tmp_path / ".model.sdf.swp"
    unrelated.write_bytes(b"an editor's")
    write_atomically(target, NEW)
    assert not dead.exists()
    assert alive.exists() and unrelated.exists()  # a live writer's, and not ours
    assert target.read_bytes() == NEW


WRITER = """
import os, sys, time
from pathlib import Path
from gzinertia.io.safe_write import write_atomically

def fsync_then_hang(fd):  # the temporary is written: say so, and wait for the kill
    print("writing", flush=True)
    time.sleep(600)

os.fsync = fsync_then_hang
write_atomically(Path(sys.argv[1]), b"x" * 1_000_000)
"""


def test_after_sigkill_mid_write_the_next_run_leaves_no_temporary(tmp_path: Path) -> None:
    """A writer killed while writing leaves its temporary; the next write removes it."""
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)],
                            stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"writing"
    proc.send_signal(signal.SIGKILL)  # mid-write: the temporary is there, not yet renamed
    proc.wait()
    assert temporaries(tmp_path), "the killed writer left its temporary"
    assert target.read_bytes() == OLD
    write_atomically(target, NEW)
    assert temporaries(tmp_path) == []
    assert target.read_bytes() == NEW
