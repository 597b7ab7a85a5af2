"""Rich rendering of ``show`` summaries for a terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

__all__ = ["render_show"]


def _num(v: float | None, digits: int = 6) -> str:
    return "—" if v is None else f"{v + 0.0:.{digits}g}"  # + 0.0 turns -0 into 0


def _vec(values: list[float | None]) -> str:
    return "[" + ", ".join(_num(v, 5) for v in values) + "]"


def _matrix(rows: list[list[float | None]], title: str) -> Table:
    table = Table(title=title, show_header=False, box=None, pad_edge=False, title_justify="left")
    for _ in rows[0]:
        table.add_column(justify="right")
    for row in rows:
        table.add_row(*(_num(v, 5) for v in row))
    return table


def _row(table: Table, key: str, value: str) -> None:
    table.add_row(Text(key), Text(value))  # Text: no markup, so "[kg]" stays as written


def _format_name(summary: dict[str, Any]) -> str:
    """``SDFormat``, or for a URDF/xacro file what Gazebo converts it to."""
    urdf = str(summary["file"]).lower().endswith((".urdf", ".xacro"))
    return "URDF, converted as libsdformat does to SDFormat" if urdf else "SDFormat"


def render_show(summary: dict[str, Any], console: Console) -> None:
    """One panel per link: pose, mass properties, the 6x6 about Bo, and what Gazebo builds."""
    console.print(
        f"[bold]{summary['file']}[/bold]  {_format_name(summary)} {summary['sdf_version']}  "
        f"{len(summary['links'])} link(s)  6x6 ordering: {summary['ordering']}"
    )
    for link in summary["links"]:
        facts = Table(show_header=False, box=None, pad_edge=False)
        facts.add_column(style="cyan")
        facts.add_column()
        _row(facts, "defined at", f"{link['file']}:{link['line']}")
        _row(facts, "p_WoBo_W", _vec(link["X_WB"]["p"]))
        mass = _num(link["mass"])
        if link["inertial_defaulted"]:
            mass += "  (no <inertial>: libsdformat default 1 kg, unit inertia)"
        _row(facts, "mass [kg]", mass)
        _row(facts, "p_BoBcm_B [m]", _vec(link["p_BoBcm_B"]))
        _row(facts, "principal moments [kg·m²]", _vec(link["principal_moments"]))
        _row(
            facts,
            "equivalent ellipsoid semi-axes [m]",
            _vec(link["equivalent_ellipsoid_semi_axes"]),
        )
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
        _row(facts, "fluid added mass", added)
        parts: list[Any] = [facts, _matrix(link["M_BBo_B"], "M_BBo_B")]
        if hydro is not None:
            parts.append(
                _matrix(hydro["A_BBo_B"], "A_BBo_B = -D (Hydrodynamics plugin)")
            )
        if link["A_BBo_B"] is not None:
            parts.append(_matrix(link["A_BBo_B"], "A_BBo_B (fluid added mass about Bo)"))
            parts.append(
                _matrix(link["gazebo_dart_tensor"], "what Gazebo gives DART (M_BBo_B + A_BBo_B)")
            )
        console.print(Panel(Group(*parts), title=Text(link["name"], style="bold"), expand=False))
