"""Every command does work linear in the number of links of a URDF or xacro file (issue 23,
item 10): a guard that counts, not times.

As :mod:`test_scaling_counts` does for SDFormat, these tests count the lines of gzinertia's own
modules that run (:func:`test_scaling_counts.lines_run`, deterministic for a given input) on a
robot of ``n`` links and of ``4n`` (:func:`urdfgen.large_urdf`: chains, stars and combs of
fixed and revolute joints, so that lumping has work) and require the count to grow at most
about 4 times. A link record that scanned every joint, an edit that looked each link up by
searching the whole text, or a lumped link's shapes found by scanning every dropped link made
the count grow 4.4 to 16 times. Time is measured by ``benchmarks/bench_urdf.py --commands``.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_scaling_counts import LINEAR_GROWTH, lines_run
from urdfgen import TOPOLOGIES, large_urdf

#: Links of the smaller robot; the larger has 4 times as many.
N = 32


def _growth(write: Callable[[int], Path], run: Callable[[Path], object]) -> tuple[int, int]:
    """Lines run on ``N`` and ``4N`` links (after a first, uncounted run of each: imports and
    caches)."""
    counts = []
    for links in (N, 4 * N):
        path = write(links)
        run(path)
        counts.append(lines_run(lambda p=path: run(p)))  # type: ignore[misc]
    return counts[0], counts[1]


def _assert_linear(what: str, counts: tuple[int, int]) -> None:
    growth = counts[1] / counts[0]
    assert growth <= LINEAR_GROWTH, (
        f"{what}: {counts[0]} lines for {N} links, {counts[1]} for {4 * N} "
        f"(x{growth:.2f}, linear is at most x4)"
    )


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("mode", ["lumped", "legacy", "unlumped"])
def test_reading_and_lumping_grow_linearly(topology: str, mode: str, tmp_path: Path) -> None:
    from gzinertia.urdf import read_urdf_file

    def write(links: int) -> Path:
        path = tmp_path / f"r{links}.urdf"
        path.write_text(large_urdf(links, topology, massless=True, plugins=True))
        return path

    def read(path: Path) -> object:
        return read_urdf_file(path, lump=mode != "unlumped", legacy=mode == "legacy")

    _assert_linear(f"read ({topology}, {mode})", _growth(write, read))


def _cli(*args: str) -> Callable[[Path], object]:
    """The command line run in this process on the file (``{}`` in ``args``), output
    discarded; its exit status (0, or 1 for findings)."""

    def run(path: Path) -> object:
        from gzinertia.cli import main

        argv = [a.replace("{}", str(path)) for a in args]
        out = path.with_name("out" + "".join(path.suffixes))
        argv = [str(out) if a == "OUT" else a for a in argv]
        saved = sys.argv
        sys.argv = ["gzinertia", *argv]
        status: object = 0
        try:
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                main()
        except SystemExit as exc:
            status = exc.code
        finally:
            sys.argv = saved
        assert status in (0, 1, None), f"gzinertia {' '.join(argv)}: {err.getvalue()}"
        return status

    return run


#: The commands that read URDF and xacro, as a user runs them (``{}``: the file).
COMMANDS: dict[str, tuple[str, ...]] = {
    "show": ("show", "{}"),
    "show --json": ("show", "--json", "{}"),
    "audit": ("audit", "--no-cache", "--jobs", "1", "{}"),
    "audit --fix": ("audit", "--fix", "--no-cache", "--jobs", "1", "{}"),
    "addmass": ("addmass", "--ellipsoid", "{}", "-o", "OUT"),
    "fix": ("fix", "--all-links", "{}", "-o", "OUT"),
    "hydrostatics": ("hydrostatics", "{}"),
    "plot": ("plot", "{}", "-o", "OUT.png"),
}


@pytest.mark.parametrize("suffix", [".urdf", ".urdf.xacro"])
@pytest.mark.parametrize("topology", ["chain", "comb"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_grows_linearly(
    command: str, topology: str, suffix: str, tmp_path: Path
) -> None:
    xacro = suffix != ".urdf"

    def write(links: int) -> Path:
        path = tmp_path / f"r{links}{suffix}"
        path.write_text(
            large_urdf(links, topology, massless=True, invalid=True, plugins=True, xacro=xacro)
        )
        return path

    _assert_linear(f"{command} ({topology}, {suffix})", _growth(write, _cli(*COMMANDS[command])))
