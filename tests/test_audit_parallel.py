"""Large audits spread files over worker processes; the result is the same, in the same order."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import EXAMPLES

from gzinertia.audit.runner import PARALLEL_MIN_FILES, audit


def test_two_workers_give_the_same_result_as_one(tmp_path: Path) -> None:
    models = sorted(p for p in EXAMPLES.rglob("model.sdf"))
    for k in range(PARALLEL_MIN_FILES + 3):
        src = models[k % len(models)]
        folder = tmp_path / f"{k:02d}_{src.parent.name}"
        shutil.copytree(src.parent, folder)
    one = audit([str(tmp_path)], jobs=1)
    two = audit([str(tmp_path)], jobs=2)
    assert len(one.files) >= PARALLEL_MIN_FILES
    assert one == two
    assert one.findings  # the defects folder's models are among the copies
