"""Reading URDF as Gazebo converts it: time and memory against the number of links.

Run: ``python benchmarks/bench_urdf.py [--sizes 1000,4000,16000] [--fix]`` (``--fix`` times
``gzinertia fix`` instead of reading);
``python benchmarks/bench_urdf.py --commands [--trees BEFORE AFTER] [--sizes 2000,8000,20000]
[--topology comb] [--xacro] [--repeat 1] [--only show,fix]`` times every command that reads
URDF as a user runs it, in each tree in turn (see :func:`run_commands`);
``python benchmarks/bench_urdf.py --xacro [--repeat 30]`` measures what the limited child
process adds to one xacro expansion: in-process (no limits), forked child (the default) and a
child of the helper process (where forking is unsafe; its start-up, once per process, is
printed separately), median ms per file; ``--numpy`` imports NumPy first (as an audit worker
has: OpenBLAS's fork handlers make each fork dearer).

Each robot is one chain (the worst case for lumping and for anything that walks up the tree):
link ``i`` hangs from link ``i-1`` by a fixed joint for even ``i`` (lumped) and a revolute one
for odd ``i``, every link with a rotated inertial. Prints the median wall time of three
``read_urdf_file`` calls, the time per link, and the peak traced memory; the time per link
should stay flat (the reader is linear in its input). ``--fix`` times ``gzinertia fix``
(nearest) instead, on the same chain with every inertia invalid (``izz = 2.5 > ixx + iyy``):
read, audit lumped and unlumped, write every link, read back and audit again.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from common import GZINERTIA, REPO, load_average, machine_description, print_table


def chain(n: int, izz: str = "1") -> str:
    lines = ['<robot name="chain">']
    for i in range(n):
        lines.append(
            f'<link name="l{i}"><inertial><origin xyz="0.1 0 0" rpy="0.1 0.2 0.3"/>'
            f'<mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="{izz}"/>'
            "</inertial></link>"
        )
    for i in range(1, n):
        kind = "fixed" if i % 2 == 0 else "revolute"
        limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>' if kind != "fixed" else ""
        lines.append(
            f'<joint name="j{i}" type="{kind}"><parent link="l{i - 1}"/><child link="l{i}"/>'
            f'<origin xyz="0.2 0 0" rpy="0 0 0.1"/>{limit}</joint>'
        )
    lines.append("</robot>")
    return "\n".join(lines)


XACRO = """<robot name="auv" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="m" value="12.5"/>
  <xacro:macro name="thruster" params="i x">
    <link name="thruster_${i}"><inertial><origin xyz="${x} 0 0"/><mass value="${m/10}"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
    <joint name="j${i}" type="revolute"><parent link="hull"/><child link="thruster_${i}"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  </xacro:macro>
  <link name="hull"><inertial><mass value="${m}"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="2"/></inertial></link>
  <xacro:thruster i="1" x="0.5"/><xacro:thruster i="2" x="-0.5"/>
  <xacro:thruster i="3" x="0.2"/><xacro:thruster i="4" x="-0.2"/>
</robot>
"""


def bench_xacro(repeat: int) -> None:
    from gzinertia.urdf.xacro_child import expand_annotated
    from gzinertia.urdf.xacro_sandbox import run_expansion

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "auv.urdf.xacro")
        Path(path).write_text(XACRO)
        from gzinertia.urdf.xacro_sandbox import _HELPER

        _HELPER.stop()
        start = time.perf_counter()
        run_expansion(path, {}, [], fork=False)
        print(f"helper start-up and first expansion: {1e3 * (time.perf_counter() - start):.0f} ms")
        ways = {
            "in-process (no limits)": lambda: expand_annotated(path),
            "forked child": lambda: run_expansion(path, {}, [], fork=True),
            "helper (threads running)": lambda: run_expansion(path, {}, [], fork=False),
        }
        base = None
        print(f"{'expansion':<24} {'median ms':>10} {'added ms':>9}")
        for label, run in ways.items():
            run()  # imports, caches
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                run()
                times.append(time.perf_counter() - start)
            t = 1e3 * statistics.median(times)
            base = t if base is None else base
            print(f"{label:<24} {t:>10.2f} {t - base:>9.2f}")


#: The commands :func:`run_commands` times (``{}``: the robot; ``OUT``: an output file;
#: ``COPY``: a copy of the robot, made before each run, edited in place).
COMMANDS: dict[str, tuple[str, ...]] = {
    "show": ("show", "{}"),
    "show --json": ("show", "--json", "{}"),
    "audit": ("audit", "--no-cache", "{}"),
    "audit --fix": ("audit", "--fix", "--no-cache", "COPY"),
    "addmass --ellipsoid": ("addmass", "--ellipsoid", "{}", "-o", "OUT"),
    "fix": ("fix", "{}", "-o", "OUT"),
    "hydrostatics": ("hydrostatics", "{}"),
    "plot": ("plot", "{}", "-o", "OUT.png"),
    "expand --sdf": ("expand", "--sdf", "{}"),
}


def run_commands(
    trees: list[Path],
    sizes: list[int],
    topology: str,
    xacro: bool,
    repeats: int,
    only: list[str],
    budget: float,
) -> None:
    """Each command of :data:`COMMANDS` as a fresh process of the console script, output
    discarded, on one robot of n links (:func:`urdfgen.large_urdf`: fixed and revolute joints
    so that lumping has work, one link in four massless, every other inertia invalid so that
    ``fix`` has work, a Hydrodynamics plugin on one link in three; ``--xacro``: a xacro file
    with masses from a property and one link in five made by a macro, expanded under limits
    raised to 600 s and 4 GiB). With ``trees`` (folders holding the ``gzinertia`` package, put
    first on ``PYTHONPATH``, as in ``bench_trees.py``), each command runs in every tree in
    turn, forwards then backwards, so that a change of the machine's load falls on all of
    them; else in the current environment. Prints wall and CPU time (user + system, the
    xacro child's included) and peak memory per size and tree, then per command the growth
    of CPU time from the first size to each other, against the growth of the input (linear
    is the same factor). A size is left out when a quadratic extrapolation from the previous
    one exceeds ``budget`` seconds."""
    from bench_scaling import Run, median_run
    from common import CHILD_ENV

    sys.path.insert(0, str(REPO / "tests"))
    from urdfgen import large_urdf

    limits = {"GZINERTIA_XACRO_SECONDS": "600", "GZINERTIA_XACRO_MEMORY": "4096"} if xacro else {}
    envs = {str(t): dict(CHILD_ENV, PYTHONPATH=str(t.resolve()), **limits) for t in trees}
    envs = envs or {"this tree": dict(CHILD_ENV, **limits)}
    for line in machine_description(("gzinertia", "numpy", "lxml", "xacro")):
        print(line)
    print(f"trees: {', '.join(envs)}; {topology}{' (xacro)' if xacro else ''}; "
          f"median of {repeats} run(s)")
    names = [n for n in COMMANDS if not only or n in only]
    results: dict[tuple[str, str], list[tuple[int, Run]]] = {}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, n in enumerate(sizes):
            path = Path(tmp) / f"robot{n}{'.urdf.xacro' if xacro else '.urdf'}"
            path.write_text(large_urdf(n, topology, massless=True, invalid=True, plugins=True,
                                       xacro=xacro))
            copy, out = path.with_name("copy-" + path.name), Path(tmp) / f"out{path.suffix}"
            for name in names:
                args = [GZINERTIA]
                for a in COMMANDS[name]:
                    args.append(str(path) if a == "{}" else str(copy) if a == "COPY" else
                                str(out) + a[3:] if a.startswith("OUT") else a)
                row: list[object] = [name, n]
                order = list(envs) if k % 2 == 0 else list(reversed(envs))
                for tree in order:
                    done = results.setdefault((name, tree), [])
                    if done and done[-1][1].cpu * (n / done[-1][0]) ** 2 * repeats > budget:
                        row += ["-", "-", "-", "over budget"]
                        continue
                    if "COPY" in COMMANDS[name]:
                        shutil.copyfile(path, copy)  # (each repeat edits the copy: fixed once)
                    run = median_run(args, repeats, envs[tree])
                    done.append((n, run))
                    row += [f"{run.seconds:.2f}", f"{run.cpu:.2f}", f"{run.peak_mib:.0f}",
                            run.status]
                    print(f"  ... {name} {n} links ({tree}): {run.seconds:.1f} s", flush=True)
                if order != list(envs):  # columns in the order of the trees
                    cells = [row[2 + 4 * i : 6 + 4 * i] for i in range(len(envs))][::-1]
                    row = row[:2] + [c for cell in cells for c in cell]
                rows.append(row)
    header = ["command", "links"]
    for i, _ in enumerate(envs, 1):
        header += [f"wall s ({i})", f"CPU s ({i})", f"peak MiB ({i})", f"exit ({i})"]
    print("\n".join(f"({i}) {tree}" for i, tree in enumerate(envs, 1)))
    print_table(header, rows)
    growth_rows = []
    for (name, tree), measured in results.items():
        if len(measured) < 2:
            continue
        (n0, first), rest = measured[0], measured[1:]
        growth_rows.append([name, str(list(envs).index(tree) + 1)] + [
            f"x{r.cpu / first.cpu:.2f} CPU, x{r.seconds / first.seconds:.2f} wall "
            f"(input x{n / n0:g})" for n, r in rest])
    print_table(["command", "tree"] + [f"{sizes[0]} -> {n}" for n in sizes[1:]], growth_rows)
    print(f"load average at the end (1/5/15 min): {load_average()}")


def main() -> None:
    from gzinertia.edit.fix import FixOptions
    from gzinertia.edit.urdf_fix import fix_urdf
    from gzinertia.urdf import read_urdf_file

    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", help="default 1000,4000,16000 (--commands: 2000,8000,20000)")
    parser.add_argument("--xacro", action="store_true")
    parser.add_argument("--repeat", type=int, help="runs per figure (default 30; --commands: 1)")
    parser.add_argument("--numpy", action="store_true")
    parser.add_argument("--fix", action="store_true", help="time gzinertia fix instead")
    parser.add_argument("--commands", action="store_true", help="time every command")
    parser.add_argument("--trees", nargs="*", type=Path, default=[],
                        help="--commands: gzinertia trees to compare (PYTHONPATH), in turn")
    parser.add_argument("--topology", choices=("chain", "star", "comb"), default="comb")
    parser.add_argument("--only", default="", help="commands to time, comma-separated")
    parser.add_argument("--budget", type=float, default=900.0,
                        help="seconds one size of a command may take (all repeats)")
    args = parser.parse_args()
    if args.commands:
        sizes = [int(s) for s in (args.sizes or "2000,8000,20000").split(",")]
        only = [c.strip() for c in args.only.split(",") if c.strip()]
        run_commands(args.trees, sizes, args.topology, args.xacro, args.repeat or 1, only,
                     args.budget)
        return
    if args.numpy:
        import numpy  # noqa: F401
    if args.xacro:
        bench_xacro(args.repeat or 30)
        return
    sizes = [int(s) for s in (args.sizes or "1000,4000,16000").split(",")]

    def run(path: Path) -> object:
        return fix_urdf(path, FixOptions("nearest")) if args.fix else read_urdf_file(path)

    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'links':>8} {'median s':>10} {'µs/link':>9} {'peak MiB':>9}")
        for n in sizes:
            path = Path(tmp) / f"chain{n}.urdf"
            path.write_text(chain(n, "2.5" if args.fix else "1"))
            times = []
            for _ in range(3):
                start = time.perf_counter()
                run(path)
                times.append(time.perf_counter() - start)
            tracemalloc.start()
            run(path)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            t = statistics.median(times)
            print(f"{n:>8} {t:>10.3f} {1e6 * t / n:>9.1f} {peak / 2**20:>9.1f}")


if __name__ == "__main__":
    main()
