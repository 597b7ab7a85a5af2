"""``gzinertia shift``: move a ``<fluid_added_mass>`` authored about another point to the link
origin."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import gzinertia
from gzinertia.cli.app import app, parse_vector
from gzinertia.cli.flags import flag
from gzinertia.cli.library import deliver_edit, edited
from gzinertia.cli.options import AxesChoice, CommandFile, editing_command
from gzinertia.record_base import ValueRecord

#: Where ``shift`` moves the matrix: the link origin, the point the spec says.
TargetPoint = Literal["origin"]

__all__ = ["ShiftFlags", "shift"]


@dataclass(frozen=True, repr=False, eq=False)
class ShiftFlags(ValueRecord):
    """``gzinertia shift``'s own flags, in the order ``--help`` lists them (``--link`` and
    ``--from`` are required)."""

    link: Annotated[str, flag("--link -l", "The link (glob matching one).")]
    from_point: Annotated[str, flag("--from",
        "Point the written matrix is about: com, origin, or x,y,z in the link frame.")]
    to: Annotated[TargetPoint, flag("--to",
        "Target point: the link origin (the spec's point).")] = "origin"
    axes: Annotated[AxesChoice, flag("",
        "Axes the written matrix is expressed in: link, or inertial (the <inertial><pose> "
        "rotation).")] = "link"
    force: Annotated[bool, flag("",
        "Shift even a matrix gzinertia wrote (already about the origin).")] = False


@app.command()
@editing_command
def shift(flags: ShiftFlags, file: CommandFile) -> None:
    """Rewrite a link's <fluid_added_mass> about the link origin (the spec's point).

    For matrices computed about the CoM or a hull centre and written unshifted: applies the
    exact change of point A_Bo = T^T A_Q T.
    """
    point: Any = flags.from_point
    if flags.from_point not in ("com", "origin"):
        point = parse_vector(flags.from_point, "--from", (0.0, 0.0, 0.0))
    edit = edited(gzinertia.shift, file.path, flags.link, source=point, axes=flags.axes,
                  force=flags.force, model_paths=file.sdf_search_paths("shift"),
                  data=file.data)
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
    deliver_edit(edit, file.mode)
