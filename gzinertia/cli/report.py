"""``gzinertia report``: one self-contained HTML page that shows each model in 3D with its
inertia, buoyancy and audit findings (docs/report.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from gzinertia.cli.app import app, load_document
from gzinertia.cli.audit_options import DocsUrlFlag
from gzinertia.cli.flags import Maybe, argument, flag
from gzinertia.cli.options import model_input_options
from gzinertia.errors import GzInertiaError

if TYPE_CHECKING:
    from gzinertia.model_input import ModelInput

__all__ = ["report"]

@app.command()
@model_input_options
def report(
    files: Annotated[list[Path], argument(
        "SDFormat world or model files, or URDF/xacro (read as Gazebo converts them), or "
        "folders (searched as audit searches them); one model file per entry of the page's "
        "chooser.")],
    output: Annotated[Path, flag("--output -o",
        "The HTML file to write (atomically); it needs no network to open.")],
    ellipsoid_scale: Annotated[str, flag("--ellipsoid-scale",
        "Scale of the equivalent inertia ellipsoids: a positive factor (1: true size), or auto "
        "(default): each at most 75 % of the model's extent. The page states each one's.")
    ] = "auto",
    docs_url: DocsUrlFlag = None,
    waterline: Annotated[Maybe[float], flag("--waterline",
        "Free-surface height z (m, world) at which each model floats (as hydrostatics' "
        "--waterline): its draft, heel and righting-moment curve. Default: a graded "
        "fluid's lowest layer, for models that float.")] = None,
    *,
    source: ModelInput,
) -> None:
    """Write an HTML report: collisions and visuals in 3D, link frames, centres of mass,
    inertia ellipsoids, G and B and the waterline, the audit's findings and the numbers.

    Opened offline in any browser (three.js is inlined: the report extra).
    """
    from gzinertia import arguments
    from gzinertia.api import audit_paths
    from gzinertia.io.safe_write import write_atomically
    from gzinertia.report.html_report import report_html
    from gzinertia.report.scene import model_scene

    scale = arguments.ellipsoid_scale(ellipsoid_scale)
    docs_base = arguments.docs_base_uri(docs_url)
    found, skipped = _model_files(files)
    scenes = []
    for file, named in found:
        try:
            doc = load_document(file, source)
        except GzInertiaError as exc:
            if named:
                raise
            skipped.append(f"{exc} (not in the report)")
            continue
        findings = audit_paths(file, model_paths=source.search_paths,
                               xacro_args=source.xacro_mapping, xacro_env=sorted(source.xacro_env),
                               trust_xacro=source.trust_xacro)
        scenes.append(model_scene(doc, findings, scale=scale, docs_base=docs_base,
                                  waterline=waterline))
    if not scenes:
        raise GzInertiaError(f"{files[0]}: no model file to report" if len(files) == 1
                             else "no model file to report")
    write_atomically(output, report_html(scenes, skipped).encode("utf-8"))
    for line in [*skipped, *(line for scene in scenes for line in scene["not_drawn"])]:
        print(line, file=sys.stderr)
    print(f"wrote {output}", file=sys.stderr)


def _model_files(paths: list[Path]) -> tuple[list[tuple[Path, bool]], list[str]]:
    """The model files of ``paths`` (a folder's as the audit finds them: *.sdf, *.world,
    *.urdf, *.xacro, hidden ones left out), each with whether it was named, and a line per
    file skipped (a template, a file of another format). A missing path, or standard input,
    is an error."""
    from gzinertia.audit.discover import discover
    from gzinertia.sdf.stdin import is_stdin_arg

    if any(is_stdin_arg(p) for p in paths):
        raise GzInertiaError("report reads files only; save standard input to a file")
    found, skipped = [], []
    for target in discover([str(p) for p in paths]):
        if target.state == "error":
            raise GzInertiaError(target.message or f"{target.path}: cannot be read")
        if target.state == "skipped":
            skipped.append(f"{target.path}: skipped: {target.message}")
        else:
            found.append((Path(target.path), not target.tree))
    return found, skipped
