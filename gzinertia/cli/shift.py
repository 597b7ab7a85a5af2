"""``gzinertia shift``: move a ``<fluid_added_mass>`` authored about another point to the link
origin."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

import gzinertia
from gzinertia.cli.app import app, parse_vector
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import (
    AxesChoice,
    EditedFileArgument,
    model_input_options,
    sdf_only,
    write_mode_options,
)

if TYPE_CHECKING:
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.model_input import ModelInput


#: Where ``shift`` moves the matrix: the link origin, the point the spec says.
TargetPoint = Literal["origin"]

__all__ = ["shift"]


@app.command()
@write_mode_options
@model_input_options
def shift(
    file: EditedFileArgument,
    link: Annotated[str, typer.Option("--link", "-l", help="The link (glob matching one).")],
    from_point: Annotated[
        str,
        typer.Option(
            "--from",
            help="Point the written matrix is about: com, origin, or x,y,z in the link frame.",
        ),
    ],
    to: Annotated[
        TargetPoint, typer.Option("--to", help="Target point: the link origin (the spec's point).")
    ] = "origin",
    axes: Annotated[
        AxesChoice,
        typer.Option(
            help="Axes the written matrix is expressed in: link, or inertial (the "
            "<inertial><pose> rotation)."
        ),
    ] = "link",
    force: Annotated[
        bool, typer.Option(help="Shift even a matrix gzinertia wrote (already about the origin).")
    ] = False,
    *,
    mode: WriteMode,
    source: ModelInput,
) -> None:
    """Rewrite a link's <fluid_added_mass> about the link origin (the spec's point).

    For matrices computed about the CoM or a hull centre and written unshifted: applies the
    exact change of point A_Bo = T^T A_Q T.
    """
    point: Any = from_point
    if from_point not in ("com", "origin"):
        point = parse_vector(from_point, "--from", (0.0, 0.0, 0.0))
    edit = edited(gzinertia.shift, file, link, source=point, axes=axes, force=force,
                  model_paths=sdf_only(file, source, "shift"), data=mode.stdin_data)
    [shifted] = edit.links
    where = " ".join(f"{v:.6g}" for v in shifted.p_BoQ_B)
    if shifted.already_done:
        print(f"{shifted.link.name}: already moved from ({where}) m to the link origin by an "
              "earlier run; nothing to do", file=sys.stderr)
    else:
        print(
            f"{shifted.link.name}: moved from ({where}) m to the link origin; diagonal before "
            + " ".join(f"{v:.4g}" for v in shifted.A_before.linear_first().diagonal())
            + ", after "
            + " ".join(f"{v:.4g}" for v in shifted.A_BBo_B.linear_first().diagonal()),
            file=sys.stderr,
        )
    deliver_edit(edit, mode)
