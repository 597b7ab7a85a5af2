"""Helpers shared by the benchmark scripts: timing, machine description, table printing.

Not a benchmark itself. The scripts import it as a sibling module (``python benchmarks/x.py``
puts ``benchmarks/`` first on ``sys.path``).
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The project's console script next to the running interpreter (the venv's), else on PATH.
GZINERTIA = str(Path(sys.executable).with_name("gzinertia"))
if not Path(GZINERTIA).exists():  # pragma: no cover - a venv always has it
    GZINERTIA = shutil.which("gzinertia") or "gzinertia"


def seconds(function: Callable[[], object]) -> float:
    """Wall time of one call, in seconds."""
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def median_seconds(function: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``repeats`` calls, in seconds."""
    return statistics.median(seconds(function) for _ in range(repeats))


#: The environment timed commands run in: this one without ``PYTHONDONTWRITEBYTECODE``, so a
#: warm-up run writes the package's bytecode (``__pycache__``) and the timed runs read it, as
#: an installed package does. With the variable set, every process compiles each gzinertia
#: module it imports from source again (about 0.1 s for the command line, growing with every
#: module) and the figures measure the compiler.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_quiet(args: Sequence[str], env: dict[str, str] | None = None) -> int:
    """Runs a command with stdout and stderr discarded (in :data:`CHILD_ENV` unless ``env`` is
    given); returns its exit status."""
    return subprocess.run(
        list(args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=CHILD_ENV if env is None else env,
        check=False,
    ).returncode


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (other engineers share the machine)."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def version_of(distribution: str) -> str:
    """An installed distribution's version, or ``absent``."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def machine_description(packages: Sequence[str] = ()) -> list[str]:
    """Lines naming the machine, the interpreter and the versions of ``packages``."""
    cores = os.cpu_count()
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        usable = cores or 0
    lines = [
        f"cpu: {_cpu_model()}, {cores} logical cores ({usable} usable), RAM {_memory_gib()}",
        f"os: {platform.platform()}",
        f"python: {platform.python_version()} ({sys.executable})",
    ]
    if packages:
        lines.append("packages: " + ", ".join(f"{p} {version_of(p)}" for p in packages))
    lines.append(f"load average (1/5/15 min): {load_average()}")
    return lines


def print_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A plain aligned text table (first column left-aligned, the others right-aligned)."""
    cells = [[str(c) for c in header], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    for n, row in enumerate(cells):
        print(
            "  ".join(
                c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(row)
            )
        )
        if n == 0:
            print("  ".join("-" * w for w in widths))


@contextlib.contextmanager
def git_worktree(rev: str) -> Iterator[Path]:
    """A temporary detached ``git worktree`` of ``rev`` of this checkout (a tree to put first on
    ``PYTHONPATH``, as ``--base REV`` does); removed afterwards, also on error."""
    folder = Path(tempfile.mkdtemp(prefix="gzinertia-base-"))
    tree = folder / "tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), rev],
                   check=True, capture_output=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)],
                       check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
