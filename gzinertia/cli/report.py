"""``gzinertia report``: one self-contained HTML page that shows each model in 3D with its
inertia, buoyancy and audit findings (docs/report.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import gzinertia
import gzinertia.io
from gzinertia.cli.app import app
from gzinertia.cli.audit_options import DocsUrlFlag, EllipsoidScaleFlag, WaterlineFlag
from gzinertia.cli.flags import argument, flag
from gzinertia.cli.options import model_input_options

if TYPE_CHECKING:
    import gzinertia.io.safe_write
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
    ellipsoid_scale: EllipsoidScaleFlag = "auto",
    docs_url: DocsUrlFlag = None,
    waterline: WaterlineFlag = None,
    *,
    source: ModelInput,
) -> None:
    """Write an HTML report: collisions and visuals in 3D, link frames, centres of mass,
    inertia ellipsoids, G and B and the waterline, the audit's findings and the numbers.

    Opened offline in any browser (three.js is inlined: the report extra).
    """
    page = gzinertia.html_report(
        *files, **source.keywords(),
        ellipsoid_scale=gzinertia.arguments.ellipsoid_scale(ellipsoid_scale),
        docs_base=gzinertia.arguments.docs_base_uri(docs_url), waterline=waterline)
    gzinertia.io.safe_write.write_atomically(output, page.text.encode("utf-8"))
    for line in [*page.skipped, *page.not_drawn]:
        print(line, file=sys.stderr)
    print(f"wrote {output}", file=sys.stderr)
