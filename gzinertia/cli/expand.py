"""``gzinertia expand``: the URDF the tool reads from a xacro file, or the SDFormat Gazebo
builds from it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia.sdf
import gzinertia.urdf
from gzinertia.cli.app import app
from gzinertia.cli.options import model_input_options
from gzinertia.errors import GzInertiaError
from gzinertia.vocabulary.model_suffixes import is_urdf_path, is_xacro_path

if TYPE_CHECKING:
    import gzinertia.sdf.xml
    import gzinertia.urdf.reader
    import gzinertia.urdf.sdf_text
    import gzinertia.urdf.xacro_expand
    from gzinertia.model_input import ModelInput

__all__ = ["expand"]


@app.command()
@model_input_options
def expand(
    file: Annotated[
        Path, typer.Argument(help="URDF or xacro file (.urdf, .xacro, .urdf.xacro).")
    ],
    sdf: Annotated[
        bool,
        typer.Option(
            "--sdf",
            help="Print the SDFormat model Gazebo builds from it (libsdformat's conversion: "
            "links with fixed-joint lumping and massless links dropped, collisions, visuals, "
            "joints, <gazebo> blocks) instead of the URDF.",
        ),
    ] = False,
    *,
    source: ModelInput,
) -> None:
    """Print the URDF gzinertia reads from FILE (a xacro expanded with the same options as
    every other command: --xacro-arg, --package-path, --xacro-env, --trust-xacro), or with
    --sdf the SDFormat model Gazebo builds from it, as libsdformat converts it: links (pose,
    inertial, collisions, visuals), joints (axis, limits, dynamics) and the <gazebo> blocks;
    what it cannot write (floating and planar joints) is said on stderr and in the file. What
    the other commands report is computed from exactly this."""
    if not is_urdf_path(file):
        raise GzInertiaError(
            f"{file}: expand reads URDF and xacro files (.urdf, .xacro, .urdf.xacro); an "
            "SDFormat file is read as it is written"
        )
    if sdf:
        model = gzinertia.urdf.reader.read_urdf_model(file, source.search_paths,
                                                      xacro_args=source.xacro_mapping,
                                                      xacro_policy=source.xacro_policy)
        text, unwritten = gzinertia.urdf.sdf_text.converted_sdf(model)
        sys.stdout.write(text)
        for note in model.doc.notes:
            print(note, file=sys.stderr)
        for said in unwritten:
            print(f"note: {file}: {said}", file=sys.stderr)
        return
    if not is_xacro_path(file):
        sys.stdout.buffer.write(gzinertia.sdf.xml.read_file_bytes(file))
        return

    expansion = gzinertia.urdf.xacro_expand.expand_xacro_sourced(
        file, source.xacro_mapping, source.search_paths, policy=source.xacro_policy)
    sys.stdout.write(expansion.text)

    for note in gzinertia.urdf.reader.optenv_notes(expansion.optenv_defaults):
        print(f"note: {note}", file=sys.stderr)
