"""How ``addmass --bem`` shows its progress on stderr (stdout is kept for ``--diff``).

* :class:`LineProgress` (stderr not a terminal: CI logs, pipes, tests): one line per solve,
  ``... LINK: BEM solve, N panels``, nothing per radiation problem.
* :class:`BarProgress` (a terminal, or ``--progress``): two rich bars, the links of the run and
  the radiation problems of the current solve (six per body), removed when the run ends.

Both follow :class:`gzinertia.edit.addmass_bem.BemRunProgress`. rich is imported only when a bar
is shown.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING, Any

import gzinertia.report

if TYPE_CHECKING:
    from rich.console import Console

    import gzinertia.report.rich_progress
    import gzinertia.report.rich_text


class LineProgress:
    """One line per solve on ``stream`` (default stderr), prefixed with the link's name."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream
        self.current = ""

    def link(self, name: str, index: int, total: int) -> None:
        """Link ``name`` is reached, ``index`` (from 0) of ``total`` selected."""
        self.current = name

    def solve(self, description: str, problems: int) -> None:
        """A solve starts: ``description`` says what; ``problems`` radiation problems follow."""
        print(f"... {self.current}: {description}", file=self.stream or sys.stderr, flush=True)

    def advance(self) -> None:
        """One radiation problem of the current solve is solved."""
        pass

    def close(self) -> None:
        """The run has ended: finish the display."""
        pass


class BarProgress:
    """A bar over the run's links and one over the current solve's radiation problems, on
    ``console`` (default: a rich console on stderr); transient: gone when :meth:`close` is
    called, leaving the summary lines alone. Redrawn at each event, not by rich's refresh
    thread: with no other thread running, the BEM's native meshing is forked from this process
    (:mod:`gzinertia.physics.mesh_sandbox`), not handed to its slower helper process."""

    def __init__(self, console: Console | None = None) -> None:
        bars = gzinertia.report.rich_progress
        self.progress = bars.Progress(
            bars.TextColumn("{task.description}"),
            bars.BarColumn(),
            bars.MofNCompleteColumn(),
            console=console or gzinertia.report.rich_text.Console(stderr=True),
            transient=True,
            auto_refresh=False,
        )
        self.progress.start()
        self.links: Any = None
        self.solves: Any = None
        self.current = ""

    def link(self, name: str, index: int, total: int) -> None:
        """Link ``name`` is reached, ``index`` (from 0) of ``total`` selected."""
        self.current = name
        if self.links is None:
            self.links = self.progress.add_task("links", total=total)
        self.progress.update(self.links, completed=index, description=f"link {name}")
        self.progress.refresh()

    def solve(self, description: str, problems: int) -> None:
        """A solve starts: ``description`` says what; ``problems`` radiation problems follow."""
        text = f"  {description}"
        if self.solves is None:
            self.solves = self.progress.add_task(text, total=problems)
        else:
            self.progress.reset(self.solves, total=problems, description=text)
        self.progress.refresh()

    def advance(self) -> None:
        """One radiation problem of the current solve is solved."""
        if self.solves is not None:
            self.progress.advance(self.solves)
            self.progress.refresh()

    def close(self) -> None:
        """The run has ended: finish the display."""
        if self.links is not None:
            total = self.progress.tasks[0].total
            self.progress.update(self.links, completed=total)
        self.progress.stop()


def bem_progress(show_bar: bool | None) -> LineProgress | BarProgress:
    """The bar when asked (``True``: drawn even when stderr is not a terminal), or when not
    told (``None``) and stderr is a terminal outside CI (``$CI`` unset, as the audit's bar);
    the one-line status otherwise."""
    if show_bar is None:
        return BarProgress() if sys.stderr.isatty() and not os.environ.get("CI") else LineProgress()
    if not show_bar:
        return LineProgress()
    asked = gzinertia.report.rich_text.Console(stderr=True, force_terminal=True)
    return BarProgress(asked)  # asked for: drawn anyway
