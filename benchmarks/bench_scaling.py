"""How audit and reader time grow with the number of links: 10 to 10,000 links in one model.

Run: ``python benchmarks/bench_scaling.py [--max-links 10000] [--repeats 3] [--quick]``

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
import shutil
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from common import machine_description, median_seconds, print_table
from lxml import etree
from synthetic_corpus import write_single_model

SIZES = (10, 30, 100, 300, 1000, 3000, 10000)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-links", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--topology", choices=("tree", "chain", "both"), default="both")
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
        for topology in topologies:
            run_topology(folder, topology, sizes, args.repeats, args.budget)
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
