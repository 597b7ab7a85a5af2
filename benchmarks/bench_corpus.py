"""gzinertia audit against libsdformat, Drake and a bare XML parse, over one synthetic corpus.

Run: ``python benchmarks/bench_corpus.py [--files 1000] [--repeats 3] [--quick] [--json OUT]``

Builds the corpus of :mod:`synthetic_corpus` (1,000 files, about 10,000 links once includes are
expanded; ``model://`` includes through ``--model-path``, nested models) in a temporary folder
and times, over the same files, in turn within each repetition (so that load from other users
of the machine spreads over all of them):

* ``gzinertia audit`` as one process over the whole tree (CLI, ``--format json``, report to
  ``/dev/null``), and the same audit in-process (:func:`gzinertia.audit.runner.audit`, imports
  done beforehand);
* gzinertia's SDF reader alone, in-process (:func:`gzinertia.sdf.read_sdf_file` per file);
* a bare lxml parse of each file (the floor), and of each file plus every file its includes
  pull in (what any reader that expands includes must parse);
* pydrake: ``Parser(plant).AddModels(file)`` per file into a fresh ``MultibodyPlant`` (model
  names map to the model folders through ``package_map()``), without ``Finalize()``;
* ``gz sdf -k FILE`` (or ``ign sdf -k``) per file, one process each as CI would run it, with
  ``GZ_SIM_RESOURCE_PATH``/``SDF_PATH``/``IGN_GAZEBO_RESOURCE_PATH`` set; skipped with a note when
  neither command (with its sdf plugin) is installed.

While ``gzinertia audit`` is not available (``gzinertia audit --help`` fails), ``gzinertia show
--json`` per file stands in for it; ``--show-sample N`` also times it on the first N files.
Prints the median of the repetitions, per-file times and the ratios the targets are about.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from common import (
    GZINERTIA,
    REPO,
    load_average,
    machine_description,
    print_table,
    run_quiet,
    seconds,
)
from lxml import etree
from synthetic_corpus import Corpus, build_corpus

from gzinertia.sdf.xml import safe_parser

PACKAGES = ("gzinertia", "numpy", "scipy", "lxml", "typer", "rich", "drake", "mujoco")


def audit_cli_available() -> bool:
    """True once ``gzinertia audit`` exists (it is being written while this script is)."""
    return run_quiet([GZINERTIA, "audit", "--help"]) == 0


def sdformat_command() -> list[str] | None:
    """``["gz", "sdf"]`` or ``["ign", "sdf"]`` when installed with its sdf plugin, else None."""
    for tool in ("gz", "ign"):
        exe = shutil.which(tool)
        if exe and run_quiet([exe, "sdf", "--help"]) == 0:
            return [exe, "sdf"]
    return None


def lxml_floor(paths: list[Path]) -> Callable[[], None]:
    parser = safe_parser()

    def run() -> None:
        for path in paths:
            etree.fromstring(path.read_bytes(), parser)

    return run


def reader(corpus: Corpus) -> Callable[[], None]:
    from gzinertia.sdf import read_sdf_file

    model_paths = [corpus.model_path]

    def run() -> None:
        for path in corpus.files:
            doc = read_sdf_file(path, model_paths)
            if len(doc.links) != corpus.links[path]:
                raise RuntimeError(f"{path}: read {len(doc.links)} links")

    return run


def audit_in_process(corpus: Corpus) -> Callable[[], None]:
    from gzinertia.audit.runner import audit

    def run() -> None:
        result = audit([str(corpus.root)], model_paths=[str(corpus.model_path)])
        audited = [f for f in result.files if f.status == "ok"]
        if len(audited) != len(corpus.files):
            raise RuntimeError(f"audited {len(audited)} of {len(corpus.files)} files")

    return run


def audit_cli(
    corpus: Corpus, jobs: int | None = None, cache: Path | None = None
) -> Callable[[], None]:
    """The CLI as users run it (``jobs=None``: its default worker count) or with ``--jobs``;
    every file checked (``--no-cache``), or with a result cache in ``cache``, filled by one
    run before the timed ones (the time of a re-run over unchanged files)."""
    args = [GZINERTIA, "audit", str(corpus.root), "--model-path", str(corpus.model_path)]
    args += ["--format", "json", "--output", os.devnull]
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    args += ["--no-cache"] if cache is None else ["--cache-dir", str(cache)]

    def run() -> None:
        status = run_quiet(args)
        if status not in (0, 1):  # 1: findings at error level, expected
            raise RuntimeError(f"gzinertia audit exited with status {status}")

    if cache is not None:
        run()
    return run


def show_per_file(corpus: Corpus, count: int) -> Callable[[], None]:
    files = corpus.files[:count]

    def run() -> None:
        for path in files:
            args = [GZINERTIA, "show", "--json", str(path), "--model-path", str(corpus.model_path)]
            if run_quiet(args) != 0:
                raise RuntimeError(f"gzinertia show failed on {path}")

    return run


def drake(corpus: Corpus) -> Callable[[], None]:
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant

    logging.getLogger("drake").setLevel(logging.ERROR)  # pydrake routes its log through here

    def run() -> None:
        for path in corpus.files:
            plant = MultibodyPlant(0.0)
            parser = Parser(plant)
            for name, folder in corpus.packages.items():
                parser.package_map().Add(name, str(folder))
            parser.AddModels(str(path))
            if plant.num_bodies() - 1 != corpus.links[path]:
                raise RuntimeError(f"Drake read {plant.num_bodies() - 1} links from {path}")

    return run


def audit_in_process_cached(corpus: Corpus) -> Callable[[], None]:
    """The in-process audit with a result cache filled by one run beforehand."""
    from gzinertia.audit.runner import audit

    cache = corpus.root / ".gzinertia_cache-in-process"

    def run() -> None:
        result = audit([str(corpus.root)], model_paths=[str(corpus.model_path)], cache_dir=cache)
        if sum(f.status == "ok" for f in result.files) != len(corpus.files):
            raise RuntimeError("the cached audit did not audit every file")

    run()
    return run


def libsdformat_in_process(corpus: Corpus) -> Callable[[], None] | None:
    """libsdformat 12 loading every file in one process (``tests/oracles/sdformat_dump``:
    ``sdf::Root`` load, includes, every link's pose resolved), or None when it cannot be built
    (needs g++ and Debian's libsdformat-dev)."""
    sys.path.insert(0, str(REPO / "tests"))
    from oracles.sdformat_oracle import build_sdformat_dump

    binary = build_sdformat_dump()
    if binary is None:
        return None
    args = [str(binary), f"--model-path={corpus.model_path}", *map(str, corpus.files)]

    def run() -> None:
        status = run_quiet(args)
        if status != 0:
            raise RuntimeError(f"sdformat_dump exited with status {status}")

    return run


def sdformat_check(corpus: Corpus, command: list[str]) -> Callable[[], None]:
    env = dict(os.environ)
    for var in ("GZ_SIM_RESOURCE_PATH", "SDF_PATH", "IGN_GAZEBO_RESOURCE_PATH"):
        env[var] = str(corpus.model_path)

    def run() -> None:
        for path in corpus.files:
            if run_quiet([*command, "-k", str(path)], env=env) != 0:
                raise RuntimeError(f"{' '.join(command)} -k failed on {path}")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="100 files, 1 repetition")
    parser.add_argument("--no-drake", action="store_true", help="leave pydrake out")
    parser.add_argument("--show-sample", type=int, default=0, help="also time show on N files")
    parser.add_argument("--keep", type=Path, help="build the corpus here and keep it")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if args.quick:
        args.files, args.repeats = min(args.files, 100), 1

    root = args.keep or Path(tempfile.mkdtemp(prefix="gzinertia-bench-"))
    try:
        corpus = build_corpus(root, args.files)
        results = run_benchmarks(corpus, args)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


def run_benchmarks(corpus: Corpus, args: argparse.Namespace) -> dict[str, object]:
    notes: list[str] = []
    for line in machine_description(PACKAGES):
        print(line)
    files, links = len(corpus.files), corpus.total_links
    parsed = sum(len(p) for p in corpus.parsed.values())
    print(f"corpus: {files} files, {links} links after includes, {parsed} XML parses with includes")

    tools: dict[str, tuple[Callable[[], None], int]] = {}
    have_audit = audit_cli_available()
    if have_audit:
        tools["gzinertia audit (CLI, default --jobs)"] = (audit_cli(corpus), files)
        tools["gzinertia audit (CLI, --jobs 1)"] = (audit_cli(corpus, 1), files)
        warm = corpus.root / ".gzinertia_cache"  # holds no SDF: not audited itself
        tools["gzinertia audit (CLI, unchanged files, cache)"] = (
            audit_cli(corpus, cache=warm),
            files,
        )
        tools["gzinertia audit (in-process)"] = (audit_in_process(corpus), files)
        tools["gzinertia audit (in-process, unchanged files, cache)"] = (
            audit_in_process_cached(corpus),
            files,
        )
    else:
        notes.append("gzinertia audit not available yet: timed `gzinertia show --json` per file")
        tools["gzinertia show --json (per file)"] = (show_per_file(corpus, files), files)
    if args.show_sample and have_audit:
        count = min(args.show_sample, files)
        tools[f"gzinertia show --json (per file, first {count})"] = (
            show_per_file(corpus, count),
            count,
        )
    tools["gzinertia reader (in-process)"] = (reader(corpus), files)
    tools["lxml parse (files)"] = (lxml_floor(corpus.files), files)
    all_parsed = [p for path in corpus.files for p in corpus.parsed[path]]
    tools["lxml parse (files + includes)"] = (lxml_floor(all_parsed), files)
    if not args.no_drake:
        try:
            tools["pydrake Parser.AddModels"] = (drake(corpus), files)
        except ImportError as exc:
            notes.append(f"pydrake skipped: {exc}")
    in_process = libsdformat_in_process(corpus)
    if in_process is not None:
        tools["libsdformat 12 load (C++, in-process, all files)"] = (in_process, files)
    else:
        notes.append("libsdformat in-process skipped: tests/oracles/sdformat_dump cannot be built")
    command = sdformat_command()
    if command:
        tools[f"{Path(command[0]).name} sdf -k (per file)"] = (
            sdformat_check(corpus, command),
            files,
        )
    else:
        notes.append(
            "gz/ign sdf -k skipped: neither `gz sdf` nor `ign sdf` is installed here (Debian: "
            "ignition-tools + libsdformat-dev, or gz-tools2 + libsdformat14)"
        )

    times: dict[str, list[float]] = {name: [] for name in tools}
    names = list(tools)
    load_before = load_average()
    for rep in range(args.repeats):
        order = names[rep % len(names) :] + names[: rep % len(names)]
        for name in order:
            times[name].append(seconds(tools[name][0]))
        print(f"repetition {rep + 1}/{args.repeats} done (load {load_average()})", flush=True)
    medians = {name: statistics.median(t) for name, t in times.items()}

    reference = [n for n in names if n.startswith("gzinertia audit") or "show" in n][:2]
    header = [
        "tool",
        "files",
        "median s",
        "ms/file",
        *(f"{r.split(' (')[0]} {_mode(r)} / tool" for r in reference),
    ]
    rows = []
    for name in names:
        count = tools[name][1]
        row: list[object] = [
            name,
            count,
            f"{medians[name]:.3f}",
            f"{1000 * medians[name] / count:.2f}",
        ]
        for ref in reference:
            per_file_ref = medians[ref] / tools[ref][1]
            row.append(f"{per_file_ref / (medians[name] / count):.2f}x")
        rows.append(row)
    print()
    print(
        f"median of {args.repeats} repetition(s); load average before {load_before}, "
        f"after {load_average()}"
    )
    print_table(header, rows)
    for note in notes:
        print(f"note: {note}")
    return {
        "machine": machine_description(PACKAGES),
        "files": files,
        "links": links,
        "repeats": args.repeats,
        "seconds": times,
        "median_seconds": medians,
        "notes": notes,
    }


def _mode(name: str) -> str:
    """The reference's short label: ``CLI``, ``CLI -j1`` or ``in-proc``."""
    if "--jobs 1" in name:
        return "CLI -j1"
    return "CLI" if "CLI" in name or "show" in name else "in-proc"


if __name__ == "__main__":
    main()
