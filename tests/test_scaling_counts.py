"""Every command does work linear in the number of links: a guard that counts, not times.

Time is measured by ``benchmarks/bench_scaling.py``; these tests only check that the amount of
Python executed inside gzinertia (lines run, counted with :func:`sys.settrace`, deterministic
for a given input) grows in proportion to the number of links. Running a command on a model of
``4n`` links must execute at most about 4 times the lines it executes on ``n`` links; an edit
that looked each link up by scanning all of them, or checked each edit against every earlier
one, ran about 16 times as many.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import pytest
import sdf_builders as sdf

#: Links of the smaller model; the larger has 4 times as many.
N = 32
#: Allowed growth of the line count from N to 4N links: linear is at most 4 (fixed costs make
#: it less); the counts are deterministic, so the margin is small. The quadratic look-ups this
#: guards against gave x4.2 to x4.7 here (addmass, hydro, convert both ways).
LINEAR_GROWTH = 4.05


def model_sdf(links: int) -> str:
    """One model of ``links`` links in a chain: each has a box collision, a diagonal inertia
    and a Hydrodynamics plugin; one in two has ``<fluid_added_mass>``, the others have
    added-mass terms in their plugin (so that every command has work on every link)."""
    parts = []
    for k in range(links):
        A = np.diag([1.0, 2.0, 3.0, 0.0, 0.0, 0.0]) if k % 2 else None  # linear-first
        inertial = sdf.inertial(2.0, np.diag([0.1, 0.2, 0.25]), A=A, posed=False)
        parts.append(sdf.link(f"l{k}", inertial, sdf.box((0.4, 0.6, 0.8), pose=None),
                              pose=(1, 0, 0, 0, 0, 0) if k else sdf.ORIGIN,
                              relative_to=f"l{k - 1}" if k else None))
        terms = {"xU": -5.0} if k % 2 else {"xDotU": -1.0, "yDotV": -2.0, "xU": -5.0}
        parts.append(sdf.hydro_plugin(f"l{k}", terms))
        if k:
            parts.append(sdf.joint(f"j{k}", f"l{k - 1}", f"l{k}", type="revolute",
                                   axis=(0, 0, 1)))
    return sdf.model(*parts, version="1.10")


def lines_run(action: Callable[[], object]) -> int:
    """How many lines of gzinertia's own modules ``action`` executes."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def global_(frame: FrameType, event: str, arg: Any) -> Any:
        return local if "/gzinertia/" in frame.f_code.co_filename else None

    previous = sys.gettrace()
    sys.settrace(global_)
    try:
        action()
    finally:
        sys.settrace(previous)
    return count


def _addmass(path: Path) -> object:
    from gzinertia.edit.addmass import FitChooser, add_mass

    return add_mass(
        path,
        fit_for=FitChooser(),
        density=1000.0,
        pattern=None,
        upgrade_version=False,
        model_paths=[],
    )


def _hydro(path: Path) -> object:
    from gzinertia.edit.hydro import hydro
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

    return hydro(
        path,
        pattern="*",
        method="volume",
        density=1000.0,
        viscosity=1e-3,
        force=True,  # the generated plugins carry damping terms of their own
        coefs=EllipsoidFluidCoefficients(),
        couplings=False,
        model_paths=[],
    )


def _hydro_to_sdf(path: Path) -> object:
    from gzinertia.edit.convert import hydro_to_sdf

    return hydro_to_sdf(
        path, pattern=None, sign="auto", remove_plugin_terms=False, force=True, model_paths=[]
    )


def _sdf_to_hydro(path: Path) -> object:
    from gzinertia.edit.convert import sdf_to_hydro

    return sdf_to_hydro(path, pattern=None, sign="fossen", model_paths=[])


def _shift_last(path: Path) -> object:
    from gzinertia.edit.shift import shift

    last = path.read_text().count("<link ") - 1
    last -= 0 if last % 2 else 1  # a link with <fluid_added_mass>
    return shift(path, pattern=f"l{last}", point="com", axes="link", force=False, model_paths=[])


def _show(path: Path) -> object:
    from rich.console import Console

    from gzinertia.report.show import document_summary
    from gzinertia.report.tables import render_show
    from gzinertia.sdf import read_sdf_file

    doc = read_sdf_file(path)
    summary = document_summary(doc, list(doc.links), "angular-first")
    render_show(summary, Console(file=io.StringIO(), width=120))
    return summary


def _audit(path: Path) -> object:
    from gzinertia.audit.runner import audit

    return audit([str(path)])


COMMANDS: dict[str, Callable[[Path], object]] = {
    "addmass": _addmass,
    "hydro": _hydro,
    "convert --hydro-to-sdf": _hydro_to_sdf,
    "convert --sdf-to-hydro": _sdf_to_hydro,
    "shift": _shift_last,
    "show": _show,
    "audit": _audit,
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_work_grows_linearly_with_links(command: str, tmp_path: Path) -> None:
    counts = []
    for links in (N, 4 * N):
        path = tmp_path / f"m{links}.sdf"
        path.write_text(model_sdf(links))
        run = COMMANDS[command]
        run(path)  # first call: imports and caches, not counted
        counts.append(lines_run(lambda p=path, run=run: run(p)))  # type: ignore[misc]
    growth = counts[1] / counts[0]
    assert growth <= LINEAR_GROWTH, (
        f"{command}: {counts[0]} lines for {N} links, {counts[1]} for {4 * N} "
        f"(x{growth:.2f}, linear is at most x4)"
    )
