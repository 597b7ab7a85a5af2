"""Rich rendering of ``show`` summaries for a terminal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.panel import Panel
from rich.text import Span, Text

from gzinertia.record_base import Record
from gzinertia.vocabulary.model_suffixes import is_urdf_path

__all__ = ["render_show"]


def _num(v: float | None, digits: int = 6) -> str:
    return "—" if v is None else f"{v + 0.0:.{digits}g}"  # + 0.0 turns -0 into 0


def _vec(values: list[float | None]) -> str:
    return "[" + ", ".join(_num(v, 5) for v in values) + "]"


@dataclass(repr=False)
class _Lines(Record):
    """A panel's lines as plain strings, with the ranges (line, start, end, style) to style:
    cheaper to build than rich ``Text`` appends, which cost about as much as the numbers."""

    lines: list[str] = field(default_factory=list)
    styles: list[tuple[int, int, int, str]] = field(default_factory=list)

    def text(self) -> Text:
        body = Text("\n".join(self.lines))
        offsets, at = [], 0
        for line in self.lines:
            offsets.append(at)
            at += len(line) + 1
        body.spans = [Span(offsets[n] + a, offsets[n] + b, style) for n, a, b, style in self.styles]
        return body


def _matrix(rows: list[list[float | None]], title: str, out: _Lines) -> None:
    """Appends ``title`` and the matrix, each column right-aligned, two spaces apart.

    Laid out here rather than as a rich ``Table``: rich measures every cell of every nested
    table again for the panel around it, about 7 ms a link, which made ``show`` of 10,000 links
    take 80 s."""
    cells = [[_num(v, 5) for v in row] for row in rows]
    widths = [max(len(row[j]) for row in cells) for j in range(len(cells[0]))]
    out.lines.append(title)
    for row in cells:
        out.lines.append("  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)))


def _facts(pairs: list[tuple[str, str]], out: _Lines) -> None:
    """Appends ``key  value`` lines, keys in cyan and padded to the longest."""
    width = max(len(key) for key, _ in pairs)
    for key, value in pairs:
        out.styles.append((len(out.lines), 0, len(key), "cyan"))
        out.lines.append(key.ljust(width) + "  " + value)  # not markup: "[kg]" stays as written


def _format_name(summary: dict[str, Any]) -> str:
    """``SDFormat``, or for a URDF/xacro file what Gazebo converts it to."""
    urdf = is_urdf_path(str(summary["file"]))
    return "URDF, converted as libsdformat does to SDFormat" if urdf else "SDFormat"


def render_show(summary: dict[str, Any], console: Console) -> None:
    """One panel per link: pose, mass properties, the 6x6 about Bo, and what Gazebo builds."""
    console.print(
        f"[bold]{summary['file']}[/bold]  {_format_name(summary)} {summary['sdf_version']}  "
        f"{len(summary['links'])} link(s)  6x6 ordering: {summary['ordering']}"
    )
    for link in summary["links"]:
        mass = _num(link["mass"])
        if link["inertial_defaulted"]:
            mass += "  (no <inertial>: libsdformat default 1 kg, unit inertia)"
        hydro = link.get("hydrodynamics_added_mass")
        if link["A_BBo_B"] is not None and hydro is not None:
            added = (
                "A_BBo_B below, and the Hydrodynamics plugin "
                f"({hydro['file']}:{hydro['line']}) applies its -D too: counted twice"
            )
        elif link["A_BBo_B"] is not None:
            added = "A_BBo_B below"
        elif hydro is not None:
            added = (
                f"applied by the Hydrodynamics plugin ({hydro['file']}:{hydro['line']}): "
                "its <iDotJ> terms D sign-converted as gz-sim 6.12+ applies them, "
                "A_BBo_B = -D below"
            )
        else:
            added = "none"
        semi_axes = _vec(link["equivalent_ellipsoid_semi_axes"])
        body = _Lines()
        _facts(
            [
                ("defined at", f"{link['file']}:{link['line']}"),
                ("p_WoBo_W", _vec(link["X_WB"]["p"])),
                ("mass [kg]", mass),
                ("p_BoBcm_B [m]", _vec(link["p_BoBcm_B"])),
                ("principal moments [kg·m²]", _vec(link["principal_moments"])),
                ("equivalent ellipsoid semi-axes [m]", semi_axes),
                ("fluid added mass", added),
            ],
            body,
        )
        _matrix(link["M_BBo_B"], "M_BBo_B", body)
        if hydro is not None:
            _matrix(hydro["A_BBo_B"], "A_BBo_B = -D (Hydrodynamics plugin)", body)
        if link["A_BBo_B"] is not None:
            _matrix(link["A_BBo_B"], "A_BBo_B (fluid added mass about Bo)", body)
            _matrix(link["gazebo_dart_tensor"], "what Gazebo gives DART (M_BBo_B + A_BBo_B)", body)
        panel = _panel(body, link["name"], console.width)
        # A box drawn here fits the width: nothing for rich to wrap (soft_wrap skips it).
        console.print(panel, soft_wrap=isinstance(panel, Text))


def _panel(body: _Lines, title: str, width: int) -> Panel | Text:
    """``body`` in a rounded box titled ``title``, as rich's ``Panel(expand=False)`` draws it.

    Drawn here when it fits ``width`` (rich's panel wraps and measures every line again, most
    of what ``show`` cost a link); rich's own panel, which wraps, when it does not fit."""
    sizes = [cell_len(line) for line in body.lines]
    inner = max(max(sizes), cell_len(title) + 2)
    if inner + 4 > width:
        return Panel(body.text(), title=Text(title, style="bold"), expand=False)
    left = (inner - cell_len(title)) // 2
    right = inner - cell_len(title) - left
    top = f"╭{'─' * left} {title} {'─' * right}╮"
    boxed = _Lines([top], [(0, left + 2, left + 2 + len(title), "bold")])
    for line, size in zip(body.lines, sizes, strict=True):
        boxed.lines.append(f"│ {line}{' ' * (inner - size)} │")
    boxed.styles += [(n + 1, a + 2, b + 2, style) for n, a, b, style in body.styles]
    boxed.lines.append(f"╰{'─' * (inner + 2)}╯")
    return boxed.text()
