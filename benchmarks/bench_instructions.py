"""Instructions executed (valgrind's cachegrind) by several gzinertia trees: before/after figures
that, unlike times, do not move with the machine's load.

Run: ``python benchmarks/bench_instructions.py TREE [TREE ...] [--files 100]``

Each ``TREE`` is a folder holding the ``gzinertia`` package (a checkout, or ``git archive REV``
unpacked), put first on ``PYTHONPATH`` as in ``bench_trees.py``; its bytecode is compiled first.
Every command runs from a neutral folder (``python -c`` puts the working directory first on
``sys.path``) with ``OPENBLAS_NUM_THREADS=1`` (OpenBLAS's idle threads spin under valgrind) and
``PYTHONHASHSEED=0``. Rows:

* the four cold-start commands of ``bench_coldstart.py`` on ``sdf_examples/torpedo_auv``;
* the synthetic corpus (``--files`` files): ``audit --jobs 1 --no-cache`` and its cached re-run
  as whole processes; the in-process audit and the reader alone in steady state (two passes in
  one process minus one pass).

Needs ``valgrind`` (Debian: ``apt-get install valgrind``). A tree takes about two minutes.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import GZINERTIA, REPO, print_table
from synthetic_corpus import Corpus, build_corpus

SMALL_FILE = REPO / "sdf_examples" / "torpedo_auv" / "model.sdf"
PYTHON = str(Path(GZINERTIA).with_name("python"))

_AUDIT_PASSES = """
import sys
from gzinertia.audit.runner import audit
for _ in range(int(sys.argv[1])):
    audit([sys.argv[2]], model_paths=[sys.argv[3]])
"""
_READ_PASSES = """
import glob, sys
from gzinertia.sdf import read_sdf_file
files = sorted(glob.glob(sys.argv[2] + "/robots/*.sdf"))
for _ in range(int(sys.argv[1])):
    for f in files:
        read_sdf_file(f, [sys.argv[3]])
"""


def _instructions(tree: Path, args: list[str], env: dict[str, str] | None = None) -> int:
    """Instructions one process executes (valgrind --tool=cachegrind, no cache simulation)."""
    child = dict(os.environ, **(env or {}))
    child.pop("PYTHONDONTWRITEBYTECODE", None)
    child.update(PYTHONPATH=str(tree), PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         *args],
        capture_output=True, text=True, env=child, cwd=tempfile.gettempdir(), check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count for {args}: {out.stderr[-500:]}")
    return int(found.group(1).replace(",", ""))


def _steady(tree: Path, script: str, corpus: Corpus) -> int:
    """One pass of ``script`` in a warm process: two passes minus one."""
    def passes(n: int) -> int:
        args = [PYTHON, "-c", script, str(n), str(corpus.root), str(corpus.model_path)]
        return _instructions(tree, args)

    return passes(2) - passes(1)


def _measure(tree: Path, corpus: Corpus) -> dict[str, int]:
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(tree / "gzinertia")], check=True,
                   stdout=subprocess.DEVNULL)
    gzi = [PYTHON, GZINERTIA]
    small = str(SMALL_FILE)
    whole = [*gzi, "audit", str(corpus.root), "--model-path", str(corpus.model_path),
             "--format", "json", "--output", os.devnull, "--jobs", "1"]
    rows: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {"GZINERTIA_CACHE_DIR": cache}
        rows["gzinertia --help"] = _instructions(tree, [*gzi, "--help"])
        rows["gzinertia show --json FILE"] = _instructions(tree, [*gzi, "show", "--json", small])
        rows["gzinertia audit --no-cache FILE"] = _instructions(
            tree, [*gzi, "audit", "--no-cache", small])
        _instructions(tree, [*gzi, "audit", small], env)  # fills the cache
        rows["gzinertia audit FILE (cached re-run)"] = _instructions(
            tree, [*gzi, "audit", small], env)
        rows["corpus: audit --jobs 1 --no-cache"] = _instructions(tree, [*whole, "--no-cache"])
        _instructions(tree, whole, env)  # fills the cache
        rows["corpus: cached re-run"] = _instructions(tree, whole, env)
    rows["corpus: audit in-process, steady state"] = _steady(tree, _AUDIT_PASSES, corpus)
    rows["corpus: reader alone, steady state"] = _steady(tree, _READ_PASSES, corpus)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--files", type=int, default=100)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        corpus = build_corpus(Path(tmp) / "corpus", files=args.files)
        figures = {tree: _measure(tree.resolve(), corpus) for tree in args.trees}
    rows = list(next(iter(figures.values())))
    print(f"\ninstructions (M), corpus of {args.files} files")
    print_table(
        ["measure", *(str(t) for t in args.trees)],
        [[row, *(f"{figures[t][row] / 1e6:,.0f}" for t in args.trees)] for row in rows],
    )


if __name__ == "__main__":
    main()
