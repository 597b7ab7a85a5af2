"""Safe writes: a file edited in place is, at every instant, either its old or its new bytes."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from gzinertia.errors import GzInertiaError
from gzinertia.io.safe_write import write_atomically

# Inline: bytes to write atomically, not models (the writer never parses them).
OLD = b"<sdf version='1.10'><!-- old -->" + b"a" * 2_000_000 + b"</sdf>\n"
NEW = b"<sdf version='1.10'><!-- new -->" + b"b" * 2_000_000 + b"</sdf>\n"

WRITER = """
import sys
from pathlib import Path
from gzinertia.io.safe_write import write_atomically
path = Path(sys.argv[1])
old, new = Path(sys.argv[2]).read_bytes(), Path(sys.argv[3]).read_bytes()
print("ready", flush=True)
while True:
    write_atomically(path, new)
    write_atomically(path, old)
"""


def test_sigkill_at_random_points_leaves_old_or_new_bytes(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    target = tmp_path / "model.sdf"
    (tmp_path / "old").write_bytes(OLD)
    (tmp_path / "new").write_bytes(NEW)
    kills = 0
    for _ in range(25):
        target.write_bytes(OLD)
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), str(tmp_path / "old"), str(tmp_path / "new")],
            stdout=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(float(rng.uniform(0.0, 0.08)))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += proc.returncode == -signal.SIGKILL
        assert target.read_bytes() in (OLD, NEW)
    assert kills == 25


def test_mode_is_kept_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)
    os.chmod(target, 0o640)
    write_atomically(target, NEW)
    assert target.read_bytes() == NEW
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.sdf"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write into a read-only folder")
def test_a_failed_write_leaves_the_original(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "model.sdf"
    target.write_bytes(OLD)
    os.chmod(folder, 0o500)
    try:
        with pytest.raises(GzInertiaError, match="cannot write"):
            write_atomically(target, NEW)
    finally:
        os.chmod(folder, 0o700)
    assert target.read_bytes() == OLD


def test_a_failed_rename_leaves_the_original_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "model.sdf"
    target.write_bytes(OLD)

    def refuse(*_: object, **__: object) -> None:  # os.replace(tmp, name, src_dir_fd=...)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(GzInertiaError, match="No space left"):
        write_atomically(target, NEW)
    assert target.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.sdf"]
