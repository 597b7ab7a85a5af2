"""``gzinertia audit`` on a DAVE-sized ROS description workspace: first run and from the cache.

Run: ``python benchmarks/bench_xacro_tree.py [--files 150] [--repeat 3] [--jobs N]
[--trees BEFORE AFTER]``

Builds the generated workspace of ``tests/xacro_workspace.py`` (about 150 xacro files over ten
description packages and a shared one: a quarter robots, the rest macro-only fragments; every
robot and fragment includes a library of 40 sensor macros through ``$(find)``, as DAVE's files
include uuv_simulator's snippets; ``load_yaml`` parameters, ``package://`` meshes, xacro
arguments) and times the command line as a user runs it, with ``--package-path`` on the
workspace:

* first run: an empty cache folder (every file expanded and checked);
* cached run: the same command again (every file served from the cache).

Each repetition runs every tree in turn (``--trees``: checkouts whose ``gzinertia`` is put
first on ``PYTHONPATH``; default: this checkout), so that load from other users of the machine
spreads over all of them; prints the medians. Targets (issue 25 item 17): first run under 3 s
on 2 cores, cached run under 0.5 s. The exit status of each run is checked: 1 (findings),
never 2.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import CHILD_ENV, GZINERTIA, REPO, machine_description, print_table

sys.path.insert(0, str(REPO / "tests"))

from xacro_workspace import build_workspace


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(tree: Path, args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall time and CPU time (the command and every process it waited for) of one run."""
    env = {**CHILD_ENV, "PYTHONPATH": str(tree)}
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run([GZINERTIA, *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: exit status {done.returncode}: {done.stderr.decode()[-500:]}")
    return elapsed, _cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--trees", nargs="+", type=Path, default=[REPO])
    args = parser.parse_args()
    for line in machine_description(("gzinertia", "xacro", "numpy", "lxml")):
        print(line)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = build_workspace(root / "ws", files=args.files)
        print(f"workspace: {ws.files} xacro files ({len(ws.robots)} robots, "
              f"{len(ws.fragments)} fragments) in {len(ws.packages)} packages")
        command = ["audit", "ws", "--package-path", "ws", "--format", "json"]
        if args.jobs is not None:
            command += ["--jobs", str(args.jobs)]
        for tree in args.trees:  # warm-up: bytecode written, files in the page cache
            _run(tree, [*command, "--no-cache"], root)
        runs: dict[Path, dict[str, list[tuple[float, float]]]] = {
            t: {"first": [], "cached": []} for t in args.trees}
        for _ in range(args.repeat):
            for tree in args.trees:
                cache = root / "cache"
                shutil.rmtree(cache, ignore_errors=True)
                with_cache = [*command, "--cache-dir", str(cache)]
                runs[tree]["first"].append(_run(tree, with_cache, root))
                runs[tree]["cached"].append(_run(tree, with_cache, root))
        print(f"median of {args.repeat}, seconds; CPU: user + system of the command and its "
              f"children (load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())})")

        def median(values: list[tuple[float, float]], i: int) -> float:
            return statistics.median(v[i] for v in values)

        print_table(
            ["tree", "first run", "CPU", "per file ms", "cached run", "CPU"],
            [[str(t), f"{median(v['first'], 0):.2f}", f"{median(v['first'], 1):.2f}",
              f"{1000 * median(v['first'], 0) / ws.files:.1f}",
              f"{median(v['cached'], 0):.2f}", f"{median(v['cached'], 1):.2f}"]
             for t, v in runs.items()],
        )


if __name__ == "__main__":
    main()
