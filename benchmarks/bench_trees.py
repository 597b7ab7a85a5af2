"""Cold start and corpus audit of several gzinertia trees, interleaved: before/after comparisons.

Run: ``python benchmarks/bench_trees.py TREE [TREE ...] [--runs 15] [--repeats 5] [--files 100]``
or ``python benchmarks/bench_trees.py --base REV [...]``

``--base REV`` compares ``REV`` (a temporary ``git worktree``, removed afterwards) with this
checkout, as ``output_identity.py --base`` does; with two trees each table also gives the second
tree's medians over the first's (wall, CPU) and whether the CPU ratio stays within 5 % (issue 26's
budget for a refactoring: "cold start and the corpus benchmark within 5 % of before"; CPU, which
other users' load disturbs less than wall time).

Each ``TREE`` is a folder holding the ``gzinertia`` package (a checkout, or ``git archive REV``
unpacked); it is put first on ``PYTHONPATH`` of every command, so the venv's console script runs
that tree's code. On a machine shared with others, times taken minutes apart are not comparable:
here every repetition runs each tree in turn (forwards, then backwards), and the table gives each
tree's median wall time and median CPU time (user + system of the process, which other users'
load disturbs less).

* Cold start (``--runs`` processes each): ``gzinertia --help``, ``show --json FILE``,
  ``audit --no-cache FILE`` and ``audit FILE`` re-run with a filled cache, on
  ``sdf_examples/torpedo_auv/model.sdf`` (as ``bench_coldstart.py``).
* Corpus (``--repeats`` each, ms per file): the gzinertia rows of ``bench_corpus.py`` on one
  synthetic corpus built by this tree's ``synthetic_corpus.py``: the CLI with its default
  ``--jobs``, with ``--jobs 1``, re-run with a cache; the audit in-process, and re-run with a cache.

Commands run with bytecode written and read (``common.CHILD_ENV``); one warm-up run per command.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import CHILD_ENV, GZINERTIA, REPO, git_worktree, load_average, print_table
from synthetic_corpus import Corpus, build_corpus

SMALL_FILE = REPO / "sdf_examples" / "torpedo_auv" / "model.sdf"
PYTHON = str(Path(GZINERTIA).with_name("python"))
Sample = tuple[float, float]  # (wall s, CPU s)

_IN_PROCESS = """
import json, sys, time
from pathlib import Path
from gzinertia.audit.runner import audit
root, models, cache = sys.argv[1:4]
audit([root], model_paths=[models])  # imports done, OS cache warm
audit([root], model_paths=[models], cache_dir=Path(cache))  # fills the cache
out = []
for kwargs in ({}, {"cache_dir": Path(cache)}):
    wall, cpu = time.perf_counter(), time.process_time()
    audit([root], model_paths=[models], **kwargs)
    out.append([time.perf_counter() - wall, time.process_time() - cpu])
print(json.dumps(out))
"""


def _env(tree: Path) -> dict[str, str]:
    return dict(CHILD_ENV, PYTHONPATH=str(tree))


def _run(tree: Path, args: list[str]) -> Sample:
    """One process: its wall time and CPU time (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(tree), check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _in_process(tree: Path, corpus: Corpus, cache: Path) -> tuple[Sample, Sample]:
    args = [PYTHON, "-c", _IN_PROCESS, str(corpus.root), str(corpus.model_path), str(cache)]
    out = subprocess.run(args, capture_output=True, text=True, env=_env(tree), check=True)
    first, cached = json.loads(out.stdout)
    return (first[0], first[1]), (cached[0], cached[1])


def _turn(trees: list[Path], i: int) -> list[Path]:
    """The trees in the order repetition ``i`` runs them: forwards, then backwards, so that no
    tree always runs right after another's work (or always first)."""
    return trees if i % 2 == 0 else trees[::-1]


def _cell(samples: list[Sample], scale: float) -> str:
    wall = statistics.median(s[0] for s in samples) * scale
    cpu = statistics.median(s[1] for s in samples) * scale
    return f"{wall:.3f} / {cpu:.3f}" if scale == 1.0 else f"{wall:.2f} / {cpu:.2f}"


#: The slowdown a refactoring may cost (issue 26): second tree's median CPU time over the first's.
BUDGET = 1.05


def _ratios(samples: dict[tuple[Path, str], list[Sample]], trees: list[Path],
            row: str) -> list[str]:
    """With two trees: the second's medians over the first's (wall, CPU), and the verdict on
    the CPU ratio against :data:`BUDGET`; nothing otherwise."""
    if len(trees) != 2:
        return []
    before, after = (samples[(tree, row)] for tree in trees)
    wall, cpu = (statistics.median(s[k] for s in after) / statistics.median(s[k] for s in before)
                 for k in (0, 1))
    return [f"{wall:.3f} / {cpu:.3f}", "ok" if cpu <= BUDGET else f"over {BUDGET - 1:.0%}"]


def _header(first: str, trees: list[Path]) -> list[str]:
    names = [str(tree) for tree in trees]
    return [first, *names, *(["after / before", "CPU within 5 %"] if len(trees) == 2 else [])]


def cold_start(trees: list[Path], runs: int) -> None:
    caches = {tree: Path(tempfile.mkdtemp(prefix="gzinertia-trees-")) for tree in trees}
    small = str(SMALL_FILE)

    def commands(tree: Path) -> dict[str, list[str]]:
        return {
            "gzinertia --help": [GZINERTIA, "--help"],
            "gzinertia show --json FILE": [GZINERTIA, "show", "--json", small],
            "gzinertia audit --no-cache FILE": [GZINERTIA, "audit", "--no-cache", small],
            "gzinertia audit FILE (cached re-run)": [
                GZINERTIA, "audit", "--cache-dir", str(caches[tree]), small,
            ],
        }

    for tree in trees:  # warm-up: bytecode, OS cache, the result cache
        for argv in commands(tree).values():
            _run(tree, argv)
    samples: dict[tuple[Path, str], list[Sample]] = {}
    for i in range(runs):
        for name in commands(trees[0]):
            for tree in _turn(trees, i):
                samples.setdefault((tree, name), []).append(_run(tree, commands(tree)[name]))
    print(f"\ncold start: median wall s / CPU s of {runs} processes each "
          f"(load average {load_average()})")
    rows = [[name, *(_cell(samples[(tree, name)], 1.0) for tree in trees),
             *_ratios(samples, trees, name)] for name in commands(trees[0])]
    print_table(_header("command", trees), rows)
    for cache in caches.values():
        shutil.rmtree(cache, ignore_errors=True)


def corpus_audit(trees: list[Path], repeats: int, files: int) -> None:
    work = Path(tempfile.mkdtemp(prefix="gzinertia-trees-corpus-"))
    try:
        corpus = build_corpus(work / "corpus", files)
        n = len(corpus.files)
        caches = {tree: work / f"cache-{i}" for i, tree in enumerate(trees)}
        base = [GZINERTIA, "audit", str(corpus.root), "--model-path", str(corpus.model_path),
                "--format", "json", "--output", os.devnull]
        modes = {
            "CLI, default --jobs": ["--no-cache"],
            "CLI, --jobs 1": ["--no-cache", "--jobs", "1"],
            "CLI, cached re-run": ["--jobs", "1", "--cache-dir"],
        }
        rows = [*modes, "in-process", "in-process, cached re-run"]
        samples: dict[tuple[Path, str], list[Sample]] = {}

        def argv(tree: Path, mode: str) -> list[str]:
            extra = modes[mode] + ([str(caches[tree])] if modes[mode][-1] == "--cache-dir" else [])
            return [*base, *extra]

        for tree in trees:  # warm-up, and fill the CLI's cache
            _run(tree, argv(tree, "CLI, cached re-run"))
            _in_process(tree, corpus, caches[tree] / "in-process")
        for i in range(repeats):
            for tree in _turn(trees, i):
                for mode in modes:
                    samples.setdefault((tree, mode), []).append(_run(tree, argv(tree, mode)))
                first, cached = _in_process(tree, corpus, caches[tree] / "in-process")
                samples.setdefault((tree, "in-process"), []).append(first)
                samples.setdefault((tree, "in-process, cached re-run"), []).append(cached)
        print(f"\ncorpus: {n} files, {corpus.total_links} links; median wall ms / CPU ms per "
              f"file of {repeats} repetitions (load average {load_average()})")
        table = [[row, *(_cell(samples[(tree, row)], 1000.0 / n) for tree in trees),
                  *_ratios(samples, trees, row)] for row in rows]
        print_table(_header("audit", trees), table)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _measure(trees: list[Path], args: argparse.Namespace) -> None:
    if args.part in ("all", "cold"):
        cold_start(trees, args.runs)
    if args.part in ("all", "corpus"):
        corpus_audit(trees, args.repeats, args.files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, help="folders holding gzinertia/")
    parser.add_argument("--base", metavar="REV",
                        help="compare REV (a temporary git worktree) with this checkout")
    parser.add_argument("--runs", type=int, default=15, help="cold-start processes per command")
    parser.add_argument("--repeats", type=int, default=5, help="corpus repetitions")
    parser.add_argument("--files", type=int, default=100, help="corpus files")
    parser.add_argument("--part", choices=("all", "cold", "corpus"), default="all")
    args = parser.parse_args()
    if args.base:
        if args.trees:
            parser.error("give trees or --base REV, not both")
        with git_worktree(args.base) as before:
            print(f"before: {args.base} in {before}; after: {REPO}")
            _measure([before, REPO], args)
        return
    if not args.trees:
        parser.error("give at least one tree, or --base REV")
    trees = [tree.resolve() for tree in args.trees]
    for tree in trees:
        if not (tree / "gzinertia" / "__init__.py").is_file():
            parser.error(f"{tree} holds no gzinertia package")
    _measure(trees, args)


if __name__ == "__main__":
    main()
