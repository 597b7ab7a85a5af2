"""Which tests a marker expression selects (issue 26 item 10; README.md, "Which tests run").

``-m`` on the command line replaces pyproject's ``addopts`` (``-m 'not slow'``); the conftest
keeps the slow tests deselected unless the expression names ``slow``. Checked by set algebra
over pytest's own collection of a module that holds slow, oracle and plain tests: each
documented command selects what README.md says it does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: A module holding slow tests, oracle tests and tests that are neither.
MODULES = ("tests/test_overlap.py",)


def _selected(*options: str) -> set[str]:
    """The node ids pytest collects with these options (run from the checkout's root)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *options, *MODULES],
        capture_output=True, text=True, cwd=REPO, env=env, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {line for line in done.stdout.splitlines() if "::" in line}


def test_documented_marker_expressions_select_what_the_readme_says() -> None:
    every = _selected("-m", "slow or not slow")
    slow = _selected("-m", "slow")
    oracle = _selected("-m", "oracle and (slow or not slow)")
    assert slow and oracle and slow & oracle and every - slow - oracle  # all kinds are present
    assert _selected() == every - slow  # `make test` (pytest -q): addopts
    assert _selected("-m", "not oracle") == every - slow - oracle
    assert _selected("-m", "not slow and not oracle") == every - slow - oracle
    assert _selected("-m", "oracle") == oracle - slow
    assert _selected("-m", "oracle and slow") == oracle & slow
    assert _selected("-m", "") == every - slow
