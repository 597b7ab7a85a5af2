"""Same outputs from two gzinertia trees: every command that reads URDF, xacro or SDF, byte for
byte, on the examples, the corpus and generated robots (a change made for speed must not change
what a user sees).

Run: ``python benchmarks/compare_trees.py BEFORE AFTER [--links 300] [--seeds 40] [--quick]``

``BEFORE`` and ``AFTER`` are folders holding the ``gzinertia`` package (a checkout, or
``git archive REV`` unpacked), put first on ``PYTHONPATH`` as in ``bench_trees.py``. Each tree
runs every case in one process of its own (the console script's ``main`` in-process, standard
output and error captured, ``COLUMNS=120``), on the same input paths; the script prints every
case whose exit status, standard output, standard error or written file differs, with the first
differing line, and exits 1 if there is any.

Inputs (written once to a temporary folder, the same for both trees):

* a copy of ``sdf_examples/``: its URDF files and SDFormat models;
* the corpus (``/work/shared/corpus`` and ``/work/shared/xacro-corpus``, skipped when absent):
  every ``*.urdf`` and ``*.xacro``, in a package tree (``tests/corpus_packages.py``) so that
  ``$(find)`` resolves;
* generated robots (``tests/urdfgen.py``): :func:`urdfgen.large_urdf` of ``--links`` links in
  each topology, with massless links, invalid inertias and Hydrodynamics plugins, as URDF and
  as xacro, and one whose links are so close that their fluid ellipsoids overlap (GZI210);
  and ``--seeds`` random robots (:func:`urdfgen.random_urdf`, half their inertias made
  invalid), also with half their rotations given a pitch of 90° (GZI403's notes).

Commands on URDF and xacro: ``show`` (``-v``, ``--json``), ``audit`` (table and JSON, and
``--fix`` on a copy beside the file), ``addmass --ellipsoid`` (``-o`` and ``--diff``), ``fix``
(nearest, ``--all-links``, and ``--method geometry --move-com --all-links``), ``hydrostatics``
(text and ``--json``) and ``plot`` (the PNG's bytes). On SDFormat: ``show --json``, ``audit``,
``addmass --ellipsoid -o`` and ``fix --all-links``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from common import GZINERTIA, REPO

PYTHON = str(Path(GZINERTIA).with_name("python"))
CORPORA = (REPO.parent / "shared" / "corpus", REPO.parent / "shared" / "xacro-corpus")

URDF_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("show", "{}"),
    ("show", "-v", "{}"),
    ("show", "--json", "{}"),
    ("audit", "--no-cache", "--jobs", "1", "{}"),
    ("audit", "--no-cache", "--jobs", "1", "--format", "json", "{}"),
    ("audit", "--fix", "--no-cache", "--jobs", "1", "COPY"),
    ("addmass", "--ellipsoid", "{}", "-o", "OUT"),
    ("addmass", "--ellipsoid", "{}", "--diff"),
    ("fix", "{}", "-o", "OUT"),
    ("fix", "--all-links", "{}", "-o", "OUT"),
    ("fix", "--method", "geometry", "--move-com", "--all-links", "{}", "-o", "OUT"),
    ("hydrostatics", "{}"),
    ("hydrostatics", "--json", "{}"),
    ("plot", "{}", "-o", "OUT.png"),
)
SDF_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("show", "--json", "{}"),
    ("audit", "--no-cache", "--jobs", "1", "{}"),
    ("addmass", "--ellipsoid", "{}", "-o", "OUT"),
    ("fix", "--all-links", "{}", "-o", "OUT"),
)


def _inputs(folder: Path, links: int, seeds: int, quick: bool) -> list[tuple[str, list[str]]]:
    """Writes the inputs; ``(file, extra arguments)`` for each (package and model paths)."""
    sys.path.insert(0, str(REPO / "tests"))
    from corpus_packages import package_tree
    from urdfgen import (
        TOPOLOGIES,
        large_urdf,
        random_urdf,
        with_gimbal_pitches,
        with_invalid_inertias,
    )

    out: list[tuple[str, list[str]]] = []
    examples = folder / "sdf_examples"
    shutil.copytree(REPO / "sdf_examples", examples)
    for path in sorted(examples.rglob("*")):
        if path.suffix in (".urdf", ".sdf"):
            out.append((str(path), ["-m", str(examples)] if path.suffix == ".sdf" else []))
    for corpus in CORPORA:
        if not corpus.is_dir():
            continue
        tree = package_tree(corpus, folder / corpus.name)
        files = sorted(p for p in tree.rglob("*") if p.suffix in (".urdf", ".xacro"))
        out += [(str(p), ["-m", str(tree)]) for p in files[: 4 if quick else None]]
    generated = folder / "generated"
    generated.mkdir()
    for topology in TOPOLOGIES:
        for suffix in (".urdf", ".urdf.xacro"):
            path = generated / f"{topology}{suffix}"
            path.write_text(large_urdf(links, topology, massless=True, invalid=True,
                                       plugins=True, xacro=suffix != ".urdf"))
            out.append((str(path), []))
    dense = generated / "dense.urdf"  # neighbours' fluid ellipsoids overlap: GZI210
    dense.write_text(large_urdf(links, "comb", plugins=True, spacing=0.5))
    out.append((str(dense), []))
    for seed in range(2 if quick else seeds):
        text = with_invalid_inertias(random_urdf(seed).text, seed)
        for name, variant in (("random", text), ("gimbal", with_gimbal_pitches(text, seed))):
            path = generated / f"{name}{seed}.urdf"
            path.write_text(variant)
            out.append((str(path), []))
    return out


def _cases(inputs: list[tuple[str, list[str]]]) -> list[list[str]]:
    cases = []
    for file, extra in inputs:
        urdf = file.endswith((".urdf", ".xacro"))
        for command in URDF_COMMANDS if urdf else SDF_COMMANDS:
            cases.append([*command, *extra, "FILE=" + file])  # -m: package paths for URDF
    return cases


def _run_case(case: list[str], scratch: Path) -> dict[str, object]:
    """One command in this process: exit status, outputs, and the bytes of what it wrote."""
    from gzinertia.cli import main

    *args, file_arg = case
    file = file_arg.removeprefix("FILE=")
    suffix = "".join(Path(file).suffixes[-2:]) or ".txt"
    out = scratch / ("out" + suffix)
    copy = Path(file).with_name("compare-copy-" + Path(file).name)  # beside: its includes
    argv = []
    for a in args:
        if a == "{}":
            argv.append(file)
        elif a == "COPY":
            shutil.copyfile(file, copy)
            argv.append(str(copy))
        elif a.startswith("OUT"):
            argv.append(str(out) + a[3:])
        else:
            argv.append(a)
    stdout, stderr = io.StringIO(), io.StringIO()
    sys.argv = ["gzinertia", *argv]
    status: object = 0
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            main()
    except SystemExit as exc:
        status = exc.code
    except BaseException as exc:  # recorded as a result, compared as one
        status = f"raised {type(exc).__name__}: {exc}"
    written = {}
    for path in (out, Path(str(out) + ".png"), copy):
        if path.exists():
            written[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
            text = path.read_bytes().decode("utf-8", "replace") if path.suffix != ".png" else ""
            written[path.name + " text"] = text
            path.unlink()
    return {"status": status, "stdout": stdout.getvalue(), "stderr": stderr.getvalue(),
            "written": written}


def _child(cases_file: str, result_file: str, scratch: str) -> None:
    import gzinertia

    cases = json.loads(Path(cases_file).read_text())
    results = {"gzinertia": gzinertia.__file__, "cases": []}
    for case in cases:
        results["cases"].append(_run_case(case, Path(scratch)))  # type: ignore[attr-defined]
    Path(result_file).write_text(json.dumps(results))


def _first_difference(a: str, b: str) -> str:
    for n, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False), 1):
        if x != y:
            return f"line {n}:\n      - {x[:200]}\n      + {y[:200]}"
    return f"lengths {len(a)} and {len(b)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, help="BEFORE AFTER")
    parser.add_argument("--links", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="a few files of each kind")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    if len(args.trees) != 2:
        parser.error("give two trees: BEFORE AFTER")
    folder = Path(tempfile.mkdtemp(prefix="gzinertia-compare-"))
    try:
        cases = _cases(_inputs(folder, args.links, args.seeds, args.quick))
        (folder / "cases.json").write_text(json.dumps(cases))
        (folder / "scratch").mkdir()
        results = []
        for tree in args.trees:
            env = dict(os.environ, PYTHONPATH=str(tree.resolve()), COLUMNS="120")
            result = folder / "result.json"
            subprocess.run(
                [PYTHON, __file__, "--child", str(folder / "cases.json"), str(result),
                 str(folder / "scratch")],
                env=env, check=True, cwd=folder,
            )
            results.append(json.loads(result.read_text()))
            statuses = Counter(str(r["status"]) for r in results[-1]["cases"])
            print(f"{tree}: {len(cases)} cases run with {results[-1]['gzinertia']}; exit "
                  "statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
        differ = 0
        for case, before, after in zip(cases, results[0]["cases"], results[1]["cases"],
                                       strict=True):
            if before == after:
                continue
            differ += 1
            print(f"DIFFERS: gzinertia {' '.join(case)}")
            for key in ("status", "stdout", "stderr"):
                if before[key] != after[key]:
                    print(f"  {key}: {_first_difference(str(before[key]), str(after[key]))}")
            for name in sorted(set(before["written"]) | set(after["written"])):
                x, y = before["written"].get(name), after["written"].get(name)
                if x != y and not name.endswith(" text"):
                    text = name + " text"
                    print(f"  {name}: " + _first_difference(before["written"].get(text) or "",
                                                            after["written"].get(text) or ""))
        print(f"{len(cases) - differ} of {len(cases)} cases identical, {differ} differ")
        sys.exit(1 if differ else 0)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
