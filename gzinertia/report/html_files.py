"""The HTML report of model files (``gzinertia report``, ``audit --report``, ``audit --format
html``): the files found (a folder's as the audit finds them), each read once and drawn, with
the findings of the audit that ran (its settings applied) or, without one, of an audit of the
file alone as :func:`gzinertia.audit_paths` runs it (no settings file), the page saying which.

Never silent: a file left out (a folder's template, a file of another format, one the audit
could not read, one that cannot be read for drawing when it came from a folder) is a line of
:attr:`HtmlReport.skipped`, shown at the top of the page; what could not be drawn of a model
is a line of :attr:`HtmlReport.not_drawn`. A file named on its own that cannot be read raises,
as every command does.

Floor: the report; the reading and the audit are given to it (:func:`gzinertia.html_report`
composes them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.audit.discover import discover
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.report.html_report import report_html
from gzinertia.report.scene import model_scene
from gzinertia.sdf.stdin_names import is_stdin_arg

if TYPE_CHECKING:
    from gzinertia.audit.findings import AuditResult, Finding
    from gzinertia.records import SdfDocument

__all__ = [
    "AUDIT_RUN_NOTE",
    "ISOLATED_NOTE",
    "HtmlReport",
    "PageSettings",
    "audit_findings",
    "audited_files",
    "html_page",
    "model_files",
]

#: What the page says of its findings when it audited each file itself.
ISOLATED_NOTE = ("Findings: the audit with no settings file read\n(as <code>gzinertia audit "
                 "--isolated</code>): a project's settings are not applied.")
#: ... and when they are those of the audit that wrote it.
AUDIT_RUN_NOTE = ("Findings: those of the <code>gzinertia audit</code> run that wrote this "
                  "page,\nwith the settings it read.")


@dataclass(frozen=True, repr=False, eq=False)
class HtmlReport(ValueRecord):
    """One self-contained HTML page (``text``: write it as UTF-8) of ``files`` (the model
    files drawn, in order); ``skipped``: a line per file left out, ``not_drawn``: a line per
    thing of a drawn model that the page could not draw (each names its file)."""

    text: str
    files: tuple[str, ...]
    skipped: tuple[str, ...]
    not_drawn: tuple[str, ...]


def model_files(paths: Sequence[str | Path]) -> tuple[list[tuple[str, bool]], list[str]]:
    """The model files of ``paths`` (a folder's as the audit finds them: *.sdf, *.world,
    *.urdf, *.xacro, hidden ones left out), each with whether it was named, and a line per
    file skipped (a template, a file of another format). A missing path, or standard input,
    is an error. Each file is named as the audit names it (as found, not normalised)."""
    if any(is_stdin_arg(Path(p)) for p in paths):
        raise GzInertiaError("report reads files only; save standard input to a file")
    found, skipped = [], []
    for target in discover([str(p) for p in paths]):
        if target.state == "error":
            raise GzInertiaError(target.message or f"{target.path}: cannot be read")
        if target.state == "skipped":
            skipped.append(f"{target.path}: skipped: {target.message}")
        else:
            found.append((target.path, not target.tree))
    return found, skipped


def audit_findings(result: AuditResult, doc: SdfDocument) -> list[Finding]:
    """The findings of ``result`` in ``doc``'s file or a file it includes."""
    files = {doc.path, *doc.file_versions}
    return [f for f in result.findings if f.file in files]


def audited_files(result: AuditResult) -> tuple[list[tuple[str, bool]], list[str]]:
    """The files an audit read (each as from a folder: one the page cannot read is left out,
    said) and a line per file the audit could not read."""
    found = [(s.path, False) for s in result.files if s.status == "ok"]
    skipped = [f"{s.path}: not drawn: the audit could not read it: {s.message}"
               for s in result.files if s.status == "error"]
    return found, skipped


@dataclass(frozen=True, repr=False, eq=False)
class PageSettings(ValueRecord):
    """How the page draws: ``scale`` multiplies every inertia ellipsoid (``None``: each
    between 2 % and 75 % of its model's extent); ``docs_base`` the absolute URI the rule pages
    ``docs/rules/CODE.md`` are under; ``waterline`` the free surface's height (m, world) at
    which floating models are solved; ``findings_note`` what the page says of its findings
    (:data:`ISOLATED_NOTE`, :data:`AUDIT_RUN_NOTE`)."""

    scale: float | None = None
    docs_base: str | None = None
    waterline: float | None = None
    findings_note: str = ISOLATED_NOTE


def html_page(
    found: Sequence[tuple[str, bool]],
    skipped: Sequence[str],
    judged: Callable[[str], tuple[SdfDocument, list[Finding]]],
    settings: PageSettings,
    empty: str = "no model file to report",
) -> HtmlReport:
    """The page of ``found`` (each file with whether it was named on its own), each drawn from
    ``judged``'s document with its findings (the audit's document where it kept one: each
    file is read once); a named file that cannot be read raises, a folder's is left out, said
    in ``skipped``; ``empty``: the error when no file is left to draw."""
    left_out, scenes = list(skipped), []
    for file, named in found:
        try:
            doc, findings = judged(file)
        except GzInertiaError as exc:
            if named:
                raise
            left_out.append(f"{exc} (not in the report)")
            continue
        scenes.append(model_scene(doc, findings, scale=settings.scale,
                                  docs_base=settings.docs_base, waterline=settings.waterline))
    if not scenes:
        raise GzInertiaError(empty)
    text = report_html(scenes, left_out, findings_note=settings.findings_note)
    return HtmlReport(text, tuple(str(s["file"]) for s in scenes), tuple(left_out),
                      tuple(line for scene in scenes for line in scene["not_drawn"]))
