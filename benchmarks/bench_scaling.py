"""How every command's time and memory grow with the number of links: 10 to 10,000 links in one
model, and optionally a 60 MB file of 300,000 links.

Run: ``python benchmarks/bench_scaling.py [--part library|commands|all] [--max-links 10000]
[--repeats 3] [--large] [--quick]``

**Commands** (``--part commands``): each command a user runs, as a fresh process of the console
script on a file of n links (100 to 10,000), output discarded: ``show`` (the rich tables),
``show --json``, ``audit --no-cache``, ``addmass`` (every link, ``-o OUT``, and ``--diff``),
``shift`` (one link), ``convert`` both ways (every link has a Hydrodynamics plugin:
:func:`synthetic_corpus.hydro_plugin_xml`), ``hydro`` (every link) and ``plot``. Wall time and
its CPU time (user + system, which the load of a shared machine leaves nearly alone) and its
peak resident memory (``wait4``'s ``rusage``), then per command the fit of CPU time
``t = a + b·n`` (``a`` is start-up, ``b`` the cost per link, R² how straight the line is), the
exponent of ``log t`` against ``log n`` over n ≥ 1,000 and the peak memory per link. ``--large``
adds ``audit`` and ``show --json`` on terse files (:func:`synthetic_corpus.write_compact_model`)
of 30,000, 100,000 and 300,000 links (the last about 60 MB).

**Library** (``--part library``), the original part of this script:

For each size, one file holding one model (:func:`synthetic_corpus.write_single_model`): a
4-ary ``tree`` of links posed ``relative_to`` and jointed to their parent (depth log₄ n, like a
robot with many short limbs) and, with ``--topology chain`` or ``both``, a single ``chain``
(depth n, the worst case for pose resolution). Times, in-process and after a warm-up, the median
of ``--repeats`` runs of ``gzinertia.audit.runner.audit([file])``, of the same without the one
pairwise rule (GZI210, fluid ellipsoids of every pair of links), of the SDF reader alone and of
a bare lxml parse (a size is left out once a quadratic extrapolation from the last one says it
would take more than ``--budget`` seconds), then fits ``t = a + b·n`` (least squares; R² says
how straight the line is) and ``log t = c + k·log n`` (the exponent ``k``: 1 is linear, 2
quadratic), the latter over all sizes and over n ≥ 300, where fixed per-file costs no longer
dominate.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import CHILD_ENV, GZINERTIA, machine_description, median_seconds, print_table
from lxml import etree
from synthetic_corpus import write_compact_model, write_single_model

SIZES = (10, 30, 100, 300, 1000, 3000, 10000)
COMMAND_SIZES = (100, 300, 1000, 3000, 10000)
LARGE_SIZES = (30000, 100000, 300000)


def linear_fit(n: list[float], t: list[float]) -> tuple[float, float, float]:
    """``(a, b, R²)`` of the least-squares line ``t = a + b·n``."""
    mean_n, mean_t = statistics.fmean(n), statistics.fmean(t)
    sxx = sum((x - mean_n) ** 2 for x in n)
    sxy = sum((x - mean_n) * (y - mean_t) for x, y in zip(n, t, strict=True))
    b = sxy / sxx
    a = mean_t - b * mean_n
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(n, t, strict=True))
    ss_tot = sum((y - mean_t) ** 2 for y in t)
    return a, b, 1.0 - ss_res / ss_tot if ss_tot > 0 else 1.0


def loglog_exponent(n: list[float], t: list[float]) -> float:
    """Slope of ``log t`` against ``log n`` (least squares)."""
    return linear_fit([math.log(x) for x in n], [math.log(y) for y in t])[1]


#: The one rule that compares every pair of links (fluid ellipsoids of one model, all pairs):
#: timed with and without it.
PAIRWISE_RULE = "GZI210"


def timers(path: Path) -> dict[str, Callable[[], object]]:
    from gzinertia.audit.config import AuditConfig
    from gzinertia.audit.rules import RULES
    from gzinertia.audit.runner import audit
    from gzinertia.edit.fix import FixOptions, fix
    from gzinertia.sdf import read_sdf_file

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    without_pairs = AuditConfig(ignore=(PAIRWISE_RULE,), known_codes=frozenset(RULES))
    return {
        "audit": lambda: audit([str(path)]),
        f"audit-{PAIRWISE_RULE}": lambda: audit([str(path)], without_pairs),
        "reader": lambda: read_sdf_file(path),
        "fix-geometry": lambda: fix(path, FixOptions("geometry", all_links=True), []),
        "lxml": lambda: etree.fromstring(path.read_bytes(), parser),
    }


@dataclass(frozen=True)
class Run:
    """One process: wall seconds, CPU seconds (user + system: what load on a shared machine
    leaves alone), peak resident memory in MiB, exit status."""

    seconds: float
    cpu: float
    peak_mib: float
    status: int


def run_process(args: list[str], env: dict[str, str] | None = None) -> Run:
    """Runs ``args`` with output discarded (in ``env``, default :data:`common.CHILD_ENV`); its
    wall time and peak RSS (``wait4``)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env or CHILD_ENV
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return Run(elapsed, cpu, usage.ru_maxrss / 1024.0, process.returncode)


def median_run(args: list[str], repeats: int, env: dict[str, str] | None = None) -> Run:
    runs = [run_process(args, env) for _ in range(repeats)]
    return Run(
        statistics.median(r.seconds for r in runs),
        statistics.median(r.cpu for r in runs),
        max(r.peak_mib for r in runs),
        max(r.status for r in runs),
    )


def command_lines(folder: Path, n: int) -> dict[str, list[str]]:
    """The command lines timed at ``n`` links (their input files are written here)."""
    plain, hydro = folder / f"cmd_tree_{n}.sdf", folder / f"cmd_hydro_{n}.sdf"
    write_single_model(plain, n, "tree")
    write_single_model(hydro, n, "tree", hydro_plugins=True)
    first_added = re.search(
        r'<link name="([^"]+)">(?:(?!</link>).)*<fluid_added_mass>',
        plain.read_text(encoding="utf-8"),
        re.S,
    )
    assert first_added is not None, "the synthetic model has added mass on one link in five"
    out, png = str(folder / "out.sdf"), str(folder / "out.png")
    g = GZINERTIA
    return {
        "show": [g, "show", str(plain)],
        "show --json": [g, "show", "--json", str(plain)],
        "audit": [g, "audit", "--no-cache", str(plain)],
        "addmass -o": [g, "addmass", "--ellipsoid", str(plain), "-o", out],
        "addmass --diff": [g, "addmass", "--ellipsoid", str(plain), "--diff"],
        "shift (1 link)": [
            g,
            "shift",
            str(plain),
            "--link",
            first_added.group(1),
            "--from",
            "com",
            "-o",
            out,
        ],
        "convert --hydro-to-sdf": [g, "convert", "--hydro-to-sdf", str(hydro), "-o", out],
        "convert --sdf-to-hydro": [
            g,
            "convert",
            "--sdf-to-hydro",
            "--sign",
            "fossen",
            "--engine",
            "tpe",
            str(hydro),
            "-o",
            out,
        ],
        "hydro": [g, "hydro", str(plain), "--link", "*", "-o", out],
        "plot": [g, "plot", str(plain), "-o", png],
    }


def fit_rows(results: dict[str, list[tuple[int, Run]]], big_from: int) -> list[list[str]]:
    """Per command: the linear fit of CPU time (and the R² of wall time), the exponent of CPU
    time over n >= ``big_from``, memory per link."""
    rows = []
    for name, measured in results.items():
        n_all = [float(n) for n, _ in measured]
        t_all = [r.cpu for _, r in measured]
        if len(measured) < 2:
            continue
        a, b, r2 = linear_fit(n_all, t_all)
        wall_r2 = linear_fit(n_all, [r.seconds for _, r in measured])[2]
        big = [(float(n), r.cpu) for n, r in measured if n >= big_from]
        k_big = (
            loglog_exponent([n for n, _ in big], [t for _, t in big])
            if len(big) >= 2
            else float("nan")
        )
        _, mem_b, _ = linear_fit(n_all, [r.peak_mib for _, r in measured])
        rows.append(
            [
                name,
                f"{int(n_all[-1])}",
                f"{a:.3f}",
                f"{1e3 * b:.3f}",
                f"{r2:.5f}",
                f"{wall_r2:.5f}",
                f"{k_big:.2f}",
                f"{1024 * mem_b:.1f}",
                f"{measured[-1][1].peak_mib:.0f}",
            ]
        )
    return rows


FIT_HEADER = [
    "command",
    "up to n",
    "a s",
    "b ms/link",
    "R²",
    "R² wall",
    "exponent",
    "KiB/link",
    "peak MiB (largest)",
]


def run_commands(folder: Path, sizes: list[int], repeats: int, budget: float) -> None:
    results: dict[str, list[tuple[int, Run]]] = {}
    skipped: dict[str, int] = {}
    rows = []
    for n in sizes:
        for name, args in command_lines(folder, n).items():
            done = results.setdefault(name, [])
            if done and done[-1][1].cpu * (n / done[-1][0]) ** 2 * repeats > budget:
                skipped.setdefault(name, n)
                continue
            run = median_run(args, repeats)
            if run.status >= 2:
                print(f"warning: {name} at {n} links exited {run.status}: {' '.join(args)}")
            done.append((n, run))
            rows.append(
                [
                    name,
                    n,
                    f"{run.seconds:.3f}",
                    f"{run.cpu:.3f}",
                    f"{1e3 * run.cpu / n:.3f}",
                    f"{run.peak_mib:.0f}",
                    run.status,
                ]
            )
        print(f"  ... {n} links done", flush=True)
    rows.sort(key=lambda r: list(results).index(str(r[0])))
    print(f"\ncommands: one process each, median of {repeats} run(s), output discarded")
    print_table(["command", "links", "wall s", "CPU s", "CPU ms/link", "peak MiB", "exit"], rows)
    print("\nfits of CPU time: t = a + b·n; exponent of log t vs log n over n >= 1000")
    print_table(FIT_HEADER, fit_rows(results, 1000))
    for name, n in skipped.items():
        print(f"note: {name} not run from {n} links on: over the {budget:.0f} s budget at n²")


def run_large(folder: Path, sizes: list[int]) -> None:
    results: dict[str, list[tuple[int, Run]]] = {}
    rows = []
    for n in sizes:
        path = folder / f"compact_{n}.sdf"
        write_compact_model(path, n)
        mb = path.stat().st_size / 1e6
        for name, args in {
            "audit": [GZINERTIA, "audit", "--no-cache", str(path)],
            "show --json": [GZINERTIA, "show", "--json", str(path)],
        }.items():
            run = run_process(args)
            results.setdefault(name, []).append((n, run))
            rows.append(
                [
                    name,
                    n,
                    f"{mb:.1f}",
                    f"{run.seconds:.2f}",
                    f"{run.cpu:.2f}",
                    f"{1e6 * run.cpu / n:.0f}",
                    f"{run.peak_mib:.0f}",
                    run.status,
                ]
            )
            print(f"  ... {name} {n} links: {run.seconds:.1f} s", flush=True)
        path.unlink()
    print("\nlarge: terse files (write_compact_model), one run each")
    print_table(
        ["command", "links", "MB", "wall s", "CPU s", "CPU µs/link", "peak MiB", "exit"], rows
    )
    print_table(FIT_HEADER, fit_rows(results, 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("library", "commands", "all"), default="all")
    parser.add_argument("--max-links", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--topology", choices=("tree", "chain", "both"), default="both")
    parser.add_argument("--large", action="store_true", help="also audit 30k..300k links")
    parser.add_argument("--quick", action="store_true", help="up to 300 links, 1 run each")
    parser.add_argument(
        "--budget", type=float, default=300.0, help="seconds one size may take (all repeats)"
    )
    args = parser.parse_args()
    if args.quick:
        args.max_links, args.repeats = min(args.max_links, 300), 1
    sizes = [n for n in SIZES if n <= args.max_links]
    topologies = ("tree", "chain") if args.topology == "both" else (args.topology,)

    for line in machine_description(("gzinertia", "numpy", "lxml")):
        print(line)
    folder = Path(tempfile.mkdtemp(prefix="gzinertia-scaling-"))
    try:
        if args.part in ("commands", "all"):
            command_sizes = [n for n in COMMAND_SIZES if n <= args.max_links]
            run_commands(folder, command_sizes, args.repeats, args.budget)
        if args.large:
            run_large(folder, list(LARGE_SIZES))
        if args.part in ("library", "all"):
            for topology in topologies:
                run_topology(folder, topology, sizes, args.repeats, args.budget)
        print(f"load average at the end (1/5/15 min): {os.getloadavg()}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_topology(
    folder: Path, topology: str, sizes: list[int], repeats: int, budget: float
) -> None:
    results: dict[str, list[tuple[int, float]]] = {}
    skipped: dict[str, int] = {}
    rows = []
    for index, n in enumerate(sizes):
        path = folder / f"{topology}_{n}.sdf"
        write_single_model(path, n, topology)
        row: list[object] = [n]
        for name, function in timers(path).items():
            if index == 0:
                function()  # warm-up: imports, caches
            done = results.setdefault(name, [])
            # Leave out sizes that would take longer than the budget if time grew as n².
            if done and done[-1][1] * (n / done[-1][0]) ** 2 * repeats > budget:
                skipped.setdefault(name, n)
                row += ["-", "-"]
                continue
            t = median_seconds(function, repeats)
            done.append((n, t))
            row += [f"{t:.4f}", f"{1e6 * t / n:.0f}"]
        rows.append(row)
    print(f"\n{topology}: one model of n links; median of {repeats} run(s)")
    header = ["links"]
    for name in results:
        header += [f"{name} s", f"{name} µs/link"]
    print_table(header, rows)
    fit_rows = []
    for name, measured in results.items():
        n_all = [float(n) for n, _ in measured]
        t_all = [t for _, t in measured]
        a, b, r2 = linear_fit(n_all, t_all)
        big = [(float(n), t) for n, t in measured if n >= 300]
        k_big = (
            loglog_exponent([n for n, _ in big], [t for _, t in big])
            if len(big) >= 2
            else float("nan")
        )
        fit_rows.append(
            [
                name,
                f"{int(n_all[-1])}",
                f"{1000 * a:.2f}",
                f"{1e6 * b:.1f}",
                f"{r2:.5f}",
                f"{loglog_exponent(n_all, t_all):.3f}",
                f"{k_big:.3f}",
            ]
        )
    print_table(
        ["fit", "up to n", "a ms", "b µs/link", "R²", "exponent (all)", "exponent (n>=300)"],
        fit_rows,
    )
    for name, n in skipped.items():
        print(
            f"note: {name} not run from {n} links on: at n² growth it would exceed the "
            f"{budget:.0f} s budget (--budget)"
        )


if __name__ == "__main__":
    main()
