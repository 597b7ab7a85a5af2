"""What ``addmass --bem`` shows while it solves: one line per solve when stderr is not a
terminal (CI logs, pipes, these tests), rich bars per link and per solve on a terminal or with
``--progress``. The counts are checked against what was solved: two solves per link (the result
and the coarser one for the error estimate), six radiation problems per body and solve.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.addmass_bem import BemSettings, add_mass_bem
from gzinertia.report.bem_progress import BarProgress, LineProgress, bem_progress

#: (:func:`_model`) Two small spheres of different sizes (equal ones would share a cache entry), coarse panels (about 200): the solves take a fraction of a second.
PANEL = "0.09"


def _link(name: str, y: float, radius: float) -> str:
    """A 30 kg sphere of ``radius`` at ``y``."""
    return sdf.link(name, sdf.inertial(30.0, 0.5 * np.eye(3), posed=False),
                    sdf.sphere(radius, pose=None, name="hull"), pose=(0, y, 0, 0, 0, 0))


def _model(tmp_path: Path) -> Path:
    path = tmp_path / "pair.sdf"
    path.write_text(sdf.model(_link("a", 1.0, 0.2), _link("b", -1.0, 0.17), version="1.10",
                              name="pair"))
    return path


def test_not_a_terminal_one_line_per_solve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Captured stderr is not a terminal: no bar, no control characters, exactly one status
    line per solve (two per link), each naming its link; a cached re-run solves nothing and
    prints no status line."""
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = _model(tmp_path)
    args = ["addmass", str(path), "--bem", "--panel-size", PANEL, "-o", str(tmp_path / "o.sdf")]
    code, _, err = run_cli(args, capsys)
    assert code == 0, err
    assert "\x1b" not in err and "\r" not in err
    status = [line for line in err.splitlines() if line.startswith("... ")]
    assert len(status) == 4, err
    for name in ("pair::a", "pair::b"):
        mine = [line for line in status if line.startswith(f"... {name}: ")]
        assert len(mine) == 2 and "BEM solve," in mine[0] and "error estimate" in mine[1]
    code, _, err = run_cli(args, capsys)
    assert code == 0 and not [line for line in err.splitlines() if line.startswith("... ")]


def test_bars_on_a_forced_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar path on a console forced to be a terminal: the links bar covers both links, the
    solve bar ends each solve at its six radiation problems, it writes to its console and to
    nothing else, and it is gone (transient) when closed."""
    from rich.console import Console

    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    sink = io.StringIO()
    console = Console(file=sink, force_terminal=True, width=100)
    bar = BarProgress(console)
    solves: list[tuple[str, float | None, float]] = []
    original = bar.solve

    def record(description: str, problems: int) -> None:
        if bar.solves is not None:  # the previous solve, as it ended
            task = bar.progress.tasks[1]
            solves.append((str(task.description), task.total, task.completed))
        original(description, problems)

    bar.solve = record  # type: ignore[method-assign]
    settings = BemSettings(1000.0, panel_size=float(PANEL), use_cache=False)
    solved = add_mass_bem(AddedMassRequest(_model(tmp_path)), settings, progress=bar).links
    last = bar.progress.tasks[1]
    solves.append((str(last.description), last.total, last.completed))
    links = bar.progress.tasks[0]
    bar.close()
    assert len(solved) == 2
    assert len(solves) == 4 and all(total == 6 and done == 6 for _, total, done in solves)
    assert links.total == 2 and links.completed == 2
    assert sink.getvalue(), "the bar wrote nothing to its console"


def test_the_choice_of_display(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--progress`` forces the bar, ``--no-progress`` the lines; by default the bar only on a
    terminal outside CI (captured stderr here is neither)."""
    monkeypatch.delenv("CI", raising=False)
    assert isinstance(bem_progress(False), LineProgress)
    assert isinstance(bem_progress(None), LineProgress)
    forced = bem_progress(True)
    assert isinstance(forced, BarProgress)
    forced.close()
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert isinstance(bem_progress(None), LineProgress)


def test_under_a_waterline_the_status_line_counts_wetted_panels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under ``--waterline`` only the part of each hull below the free surface is solved on:
    the status line says so ("wetted panels") with the count the provenance comment gives for
    the same link; in unbounded fluid the closed surface is solved on and the line says
    "panels" only."""
    import re

    monkeypatch.setenv("GZINERTIA_CACHE_DIR", str(tmp_path / "cache"))
    path = _model(tmp_path)
    args = ["addmass", str(path), "--bem", "--panel-size", PANEL, "--waterline", "0"]
    code, _, err = run_cli([*args, "--in-place"], capsys)
    assert code == 0, err
    comments = re.findall(r"(\d+) wetted panels \(cut at the waterline", path.read_text())
    status = [line for line in err.splitlines() if line.startswith("... ")]
    solved = [re.search(r"BEM solve, (\d+) wetted panels$", line) for line in status]
    assert [m.group(1) for m in solved if m] == comments and len(comments) == 2, err
    assert all("wetted panels" in line for line in status), err
    code, _, err = run_cli(["addmass", str(_model(tmp_path)), "--bem", "--panel-size", PANEL,
                            "-o", str(tmp_path / "o.sdf")], capsys)
    status = [line for line in err.splitlines() if line.startswith("... ")]
    assert code == 0 and len(status) == 4 and not any("wetted" in s for s in status), err
