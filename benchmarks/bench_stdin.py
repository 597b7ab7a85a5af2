"""Standard input (FILE ``-``) against the file: wall time, CPU time and peak memory.

Run: ``python benchmarks/bench_stdin.py [--links 1000,10000] [--repeats 3]``

For ``show --json``, ``addmass --ellipsoid``, ``fix --all-links`` and ``audit`` on one generated
model (:func:`synthetic_corpus.write_compact_model`) of each size, runs ``CMD FILE`` and
``CMD - < FILE`` as fresh processes of the installed console script (output discarded) and prints
the medians: reading standard input must cost what reading the file costs. Then an endless
stream (``yes``-like, from a child process) piped into ``show -``, ``fix -`` and ``addmass -``:
the time and peak memory until the one-line refusal at the 64 MiB size limit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from common import GZINERTIA, machine_description, print_table
from synthetic_corpus import write_compact_model

COMMANDS = {
    "show --json": ["show", "--json"],
    "addmass --ellipsoid": ["addmass", "--ellipsoid"],
    "fix --all-links": ["fix", "--all-links"],
    "audit": ["audit", "--no-cache", "--format", "json"],
}
ENDLESS = (
    "import sys\nchunk = b'<sdf>' + b' ' * 65531\n"
    "try:\n    while True: sys.stdout.buffer.write(chunk)\nexcept OSError:\n    pass\n"
)


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu: float
    peak_mib: float
    status: int


def run(args: list[str], stdin: int | None) -> Run:
    """One process, output discarded, standard input from ``stdin`` (a descriptor)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdin=stdin, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    return Run(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0,
               os.waitstatus_to_exitcode(status))


def median(runs: list[Run]) -> Run:
    return Run(statistics.median(r.seconds for r in runs), statistics.median(r.cpu for r in runs),
               max(r.peak_mib for r in runs), max(r.status for r in runs))


def from_file(args: list[str], path: Path) -> Run:
    return run([GZINERTIA, *args, str(path)], None)


def from_stdin(args: list[str], path: Path) -> Run:
    with path.open("rb") as f:
        return run([GZINERTIA, *args, "-"], f.fileno())


def endless(args: list[str]) -> Run:
    writer = subprocess.Popen([sys.executable, "-c", ENDLESS], stdout=subprocess.PIPE)
    assert writer.stdout is not None
    try:
        return run([GZINERTIA, *args, "-"], writer.stdout.fileno())
    finally:
        writer.stdout.close()
        writer.kill()
        writer.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", default="1000,10000")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    for line in machine_description():
        print(line)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in (int(x) for x in options.links.split(",")):
            path = Path(folder) / f"big{n}.sdf"
            write_compact_model(path, n)
            for name, args in COMMANDS.items():
                f = median([from_file(args, path) for _ in range(options.repeats)])
                s = median([from_stdin(args, path) for _ in range(options.repeats)])
                rows.append([f"{name} ({n} links)", f"{f.seconds:.2f}", f"{s.seconds:.2f}",
                             f"{s.seconds / f.seconds:.2f}", f"{f.peak_mib:.0f}",
                             f"{s.peak_mib:.0f}", f"{f.status}/{s.status}"])
    print_table(["command", "FILE s", "- s", "ratio", "FILE MiB", "- MiB", "exit"], rows)
    print()
    rows = []
    for name, args in (("show", ["show"]), ("fix", ["fix"]),
                       ("addmass", ["addmass", "--ellipsoid"])):
        r = endless(args)
        rows.append([f"{name} - < endless", f"{r.seconds:.2f}", f"{r.cpu:.2f}",
                     f"{r.peak_mib:.0f}", r.status])
    print_table(["endless standard input", "wall s", "CPU s", "peak MiB", "exit"], rows)


if __name__ == "__main__":
    main()
