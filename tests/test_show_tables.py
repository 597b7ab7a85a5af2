"""``show``'s panels are laid out as text for speed; rich's own nested tables in a panel (how
``show`` drew them before, at about 7 ms a link) are the oracle for what they must look like."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gzinertia.report.show import document_summary
from gzinertia.report.tables import _num, _vec, render_show
from gzinertia.sdf import read_sdf_file

EXAMPLES = Path(__file__).resolve().parent.parent / "sdf_examples"


def _rich_matrix(rows: list[list[float | None]], title: str) -> Table:
    table = Table(title=title, show_header=False, box=None, pad_edge=False, title_justify="left")
    for _ in rows[0]:
        table.add_column(justify="right")
    for row in rows:
        table.add_row(*(_num(v, 5) for v in row))
    return table


def _rich_panel(link: dict[str, Any]) -> Panel:
    """One link as rich tables in a panel (the previous implementation of ``show``)."""
    facts = Table(show_header=False, box=None, pad_edge=False)
    facts.add_column(style="cyan")
    facts.add_column()
    mass = _num(link["mass"])
    if link["inertial_defaulted"]:
        mass += "  (no <inertial>: libsdformat default 1 kg, unit inertia)"
    for key, value in (
        ("defined at", f"{link['file']}:{link['line']}"),
        ("p_WoBo_W", _vec(link["X_WB"]["p"])),
        ("mass [kg]", mass),
        ("p_BoBcm_B [m]", _vec(link["p_BoBcm_B"])),
        ("principal moments [kg·m²]", _vec(link["principal_moments"])),
        ("equivalent ellipsoid semi-axes [m]", _vec(link["equivalent_ellipsoid_semi_axes"])),
        ("fluid added mass", "none" if link["A_BBo_B"] is None else "A_BBo_B below"),
    ):
        facts.add_row(Text(key), Text(value))
    parts: list[Any] = [facts, _rich_matrix(link["M_BBo_B"], "M_BBo_B")]
    if link["A_BBo_B"] is not None:
        parts.append(_rich_matrix(link["A_BBo_B"], "A_BBo_B (fluid added mass about Bo)"))
        parts.append(
            _rich_matrix(link["gazebo_dart_tensor"], "what Gazebo gives DART (M_BBo_B + A_BBo_B)")
        )
    return Panel(Group(*parts), title=Text(link["name"], style="bold"), expand=False)


@pytest.mark.parametrize(
    "model", ["torpedo_auv/model.sdf", "box_rov/model.sdf", "spar_buoy/model.sdf", "arm/model.sdf"]
)
def test_panels_are_what_rich_tables_draw(model: str) -> None:
    doc = read_sdf_file(EXAMPLES / model, [EXAMPLES])
    summary = document_summary(doc, list(doc.links), "angular-first")
    ours = Console(file=io.StringIO(), width=120, color_system=None)
    render_show(summary, ours)
    oracle = Console(file=io.StringIO(), width=120, color_system=None)
    oracle.print(
        f"[bold]{summary['file']}[/bold]  SDFormat {summary['sdf_version']}  "
        f"{len(summary['links'])} link(s)  6x6 ordering: {summary['ordering']}"
    )
    for link in summary["links"]:
        oracle.print(_rich_panel(link))
    assert ours.file.getvalue() == oracle.file.getvalue()  # type: ignore[attr-defined]


def test_a_panel_wider_than_the_terminal_is_left_to_rich_to_wrap() -> None:
    doc = read_sdf_file(EXAMPLES / "torpedo_auv" / "model.sdf", [EXAMPLES])
    summary = document_summary(doc, list(doc.links), "angular-first")
    console = Console(file=io.StringIO(), width=50, color_system=None)
    render_show(summary, console)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert max(len(line) for line in lines) <= 50
    assert all(link["name"] in console.file.getvalue() for link in summary["links"])  # type: ignore[attr-defined]
