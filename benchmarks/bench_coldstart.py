"""Cold start of the ``gzinertia`` command line: wall clock and what each command imports.

Run: ``python benchmarks/bench_coldstart.py [--runs 15] [--quick]``

For ``gzinertia --help``, ``gzinertia show`` (JSON and table) and ``gzinertia audit`` on one
small file (``sdf_examples/torpedo_auv/model.sdf``, 6 links), prints the median wall time of
``--runs`` fresh processes of the installed console script (output discarded), next to the bare
interpreter, ``import typer``, ``import numpy`` and typer's runtime coercion layer (typer 0.2x
builds a pydantic ``TypeAdapter`` for every non-flag parameter) for scale. Then one run per
command under ``PYTHONPROFILEIMPORTTIME=1`` (``python -X importtime``): the total import time,
the largest imports, and which heavy packages were loaded (numpy, scipy, matplotlib, trimesh,
rich, pydantic, lxml). Import times under the profiler are inflated; compare them with each other.
Target: at most 0.25 s per command.

The commands run with bytecode written and read (``common.CHILD_ENV``), as an installed package.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import (
    CHILD_ENV,
    GZINERTIA,
    REPO,
    machine_description,
    print_table,
    run_quiet,
    seconds,
)

SMALL_FILE = REPO / "sdf_examples" / "torpedo_auv" / "model.sdf"
HEAVY = ("numpy", "scipy", "matplotlib", "trimesh", "rich", "pydantic", "lxml")
TARGET_SECONDS = 0.25
_IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


#: What typer 0.2x loads to coerce any non-flag parameter (pydantic TypeAdapters).
TYPER_RUNTIME = "import typer, typer._adapters, pydantic.plugin._loader"


def commands(with_audit: bool, quick: bool, cache: Path) -> dict[str, list[str]]:
    small = str(SMALL_FILE)
    out = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import typer'": [sys.executable, "-c", "import typer"],
        "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
        "python -c '<typer runtime>'": [sys.executable, "-c", TYPER_RUNTIME],
        "gzinertia --help": [GZINERTIA, "--help"],
        "gzinertia show --json FILE": [GZINERTIA, "show", "--json", small],
    }
    if not quick:
        out["gzinertia show FILE"] = [GZINERTIA, "show", small]
    if with_audit:
        # A first audit of the file (every file checked, no cache read or written); then the
        # same file again with a cache that already holds it (what a re-run costs).
        out["gzinertia audit FILE"] = [GZINERTIA, "audit", "--no-cache", small]
        if not quick:
            out["gzinertia audit --format json FILE"] = [
                GZINERTIA,
                "audit",
                "--no-cache",
                "--format",
                "json",
                small,
            ]
        out["gzinertia audit FILE (re-run, cached)"] = [
            GZINERTIA,
            "audit",
            "--cache-dir",
            str(cache),
            small,
        ]
    return out


def imports_of(args: list[str]) -> tuple[float, list[tuple[float, str]], set[str]]:
    """(total self import time in s, top-level imports by cumulative time, top packages)."""
    env = dict(CHILD_ENV, PYTHONPROFILEIMPORTTIME="1")
    stderr = subprocess.run(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True, check=False
    ).stderr
    total, top, packages = 0.0, [], set()
    for line in stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if not match:
            continue
        own, cumulative, indent, name = match.groups()
        total += int(own) / 1e6
        packages.add(name.split(".")[0])
        if len(indent) <= 2:  # imported by the program itself, not by another import
            top.append((int(cumulative) / 1e6, name))
    top.sort(reverse=True)
    return total, top, packages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="processes per command (>= 10)")
    parser.add_argument("--quick", action="store_true", help="3 runs, fewer commands")
    args = parser.parse_args()
    runs = 3 if args.quick else max(args.runs, 10)

    for line in machine_description(("gzinertia", "typer", "pydantic", "numpy", "lxml", "rich")):
        print(line)
    with_audit = run_quiet([GZINERTIA, "audit", "--help"]) == 0
    cache = Path(tempfile.mkdtemp(prefix="gzinertia-coldstart-cache-"))
    table = commands(with_audit, args.quick, cache)
    if with_audit:  # fill the cache for the re-run row
        run_quiet(table["gzinertia audit FILE (re-run, cached)"])
    for argv in table.values():  # warm the OS file cache and __pycache__ once
        run_quiet(argv)
    times: dict[str, list[float]] = {name: [] for name in table}
    for _ in range(runs):  # interleaved, so load from other users hits every command alike
        for name, argv in table.items():
            times[name].append(seconds(lambda argv=argv: run_quiet(argv)))

    rows = []
    for name, argv in table.items():
        median = statistics.median(times[name])
        verdict = (
            "" if name.startswith("python") else ("ok" if median <= TARGET_SECONDS else "over")
        )
        if name.startswith("python"):
            heavy = ""
            total = 0.0
        else:
            total, _, packages = imports_of(argv)
            heavy = ",".join(p for p in HEAVY if p in packages)
        rows.append(
            [
                name,
                f"{median:.3f}",
                f"{min(times[name]):.3f}",
                f"{total:.3f}" if total else "",
                heavy,
                verdict,
            ]
        )
    print(f"\nwall clock, median and best of {runs} runs each; target <= {TARGET_SECONDS} s")
    print_table(["command", "median s", "best s", "imports s", "heavy imports", "target"], rows)
    if not with_audit:
        print("note: gzinertia audit is not available yet")

    for name, argv in table.items():
        if name.startswith("python"):
            continue
        total, top, _ = imports_of(argv)
        largest = ", ".join(f"{module} {1000 * t:.0f}" for t, module in top[:8])
        print(
            f"\n{name}: imports {1000 * total:.0f} ms in all; largest (ms, cumulative): {largest}"
        )
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
