"""The documentation site builds strictly: a broken link or anchor in docs/, or a docstring
cross-reference to a name that no longer exists, fails the suite (mkdocs.yml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings", reason="the docs extra: pip install -e '.[docs]'")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "reference" / "physics" / "index.html").is_file()
