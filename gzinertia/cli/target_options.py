"""The target options of the commands that show what a Gazebo release does with a model
(``hydrostatics``, ``show``): ``--gazebo`` and ``--engine``, as the audit's, declared once."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

__all__ = ["EngineOption", "GazeboOption"]

#: ``--gazebo``: the release whose behaviour is shown beside the exact model.
GazeboOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--gazebo", help="The Gazebo release, as audit --gazebo: also show what it "
                 "computes and applies beside the exact geometry (default: the settings' "
                 "gazebo; neither: not shown)."),
]
#: ``--engine``: its physics engine.
EngineOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--engine", help="The physics engine, as audit --engine (default: the "
                 "settings' engine, else a world's, else dartsim)."),
]
