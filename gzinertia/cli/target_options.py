"""The target options, ``--gazebo`` and ``--engine`` as the audit's: declared once for the
commands that show what a Gazebo release does with a model (``hydrostatics``, ``show``), and
made by :func:`gazebo_flag` and :func:`engine_flag` for the edits' flag records (``addmass``,
``convert``, ``hydro``), each saying its own default and effect."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from gzinertia.cli.flags import flag

__all__ = ["EngineOption", "GazeboOption", "engine_flag", "gazebo_flag"]

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


def gazebo_flag(default: str, effect: str = "") -> Any:
    """An edit's ``--gazebo`` (:func:`~gzinertia.cli.flags.flag`): the release the file is
    for, its ``default`` and what the edit does for it (``effect``), in its help."""
    said = f": {effect}" if effect else ""
    return flag("--gazebo", "The Gazebo release the file is for, as audit --gazebo (default: "
                f"{default}){said}.")


def engine_flag(default: str, effect: str) -> Any:
    """An edit's ``--engine``: the physics engine, its ``default`` and ``effect``."""
    return flag("--engine", f"The physics engine, as audit --engine (default: {default}): "
                f"{effect}")
