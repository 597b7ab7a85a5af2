"""The library's report: :func:`html_report`, the page ``gzinertia report`` and ``gzinertia
audit --report`` write (docs/report.md). Floor: the library face (composes the readers, the
audit and :mod:`gzinertia.report.html_files`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import source_overrides
from gzinertia.audit.projects import audit_projects
from gzinertia.model_input import ModelInput, ModelSource, takes_keywords
from gzinertia.model_reader import read_model_file
from gzinertia.report.html_files import (
    AUDIT_RUN_NOTE,
    HtmlReport,
    PageSettings,
    audit_findings,
    audited_files,
    html_page,
    model_files,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from gzinertia.audit.findings import AuditResult, Finding
    from gzinertia.records import SdfDocument

__all__ = ["HtmlReport", "html_report"]


@takes_keywords(ModelSource)
def html_report(
    *paths: str | Path,
    ellipsoid_scale: float | None = None,
    docs_base: str | None = None,
    waterline: float | None = None,
    audit: AuditResult | None = None,
    **source: Unpack[ModelSource],
) -> HtmlReport:
    """The HTML report (one self-contained page, :class:`HtmlReport` ``.text``) of the model
    files of ``paths`` (files, or folders searched as the audit searches them): per model its
    collisions and visuals in 3D, link frames, centres of mass, inertia ellipsoids, G and B
    and the waterline, the findings and the numbers (docs/report.md).

    The files are read as :func:`gzinertia.read` reads them (``source``:
    :class:`~gzinertia.model_input.ModelSource`). Findings: those of
    ``audit`` (an :class:`~gzinertia.audit.findings.AuditResult`; its readable files are then
    drawn and ``paths`` must be empty), else each file's :func:`gzinertia.audit_paths`.
    ``ellipsoid_scale`` multiplies every inertia ellipsoid (``None``: each between 2 % and
    75 % of its model's extent); ``docs_base`` the absolute URI the rule pages
    ``docs/rules/CODE.md`` are under; ``waterline`` the free surface's height (m, world) at
    which floating models are solved. What is left out or not drawn is in ``.skipped`` and
    ``.not_drawn`` and on the page. Raises :class:`~gzinertia.errors.GzInertiaError` for a
    named file that cannot be read, when no model file is left, and (with the install hint)
    without the ``report`` extra.
    """
    if audit is not None and paths:
        raise ValueError("html_report draws the audit's files: give paths or audit, not both")
    given = ModelInput.given(source)
    read = partial(read_model_file, model_paths=given.search_paths,
                   xacro_args=given.xacro_mapping, xacro_policy=given.xacro_policy)
    if audit is not None:
        found, skipped = audited_files(audit)
        return html_page(found, skipped, partial(_of_audit, audit, read),
                         PageSettings(ellipsoid_scale, docs_base, waterline, AUDIT_RUN_NOTE))
    found, skipped = model_files(paths)
    empty = f"{paths[0]}: no model file to report" if len(paths) == 1 else (
        "no model file to report")
    return html_page(found, skipped, partial(_isolated, given, read),
                     PageSettings(ellipsoid_scale, docs_base, waterline), empty)


def _of_audit(audit: AuditResult, read: Callable[[str], SdfDocument],
              file: str) -> tuple[SdfDocument, list[Finding]]:
    """The document of ``file`` that ``audit`` read and judged, else (its result came from the
    cache or a worker process) ``read``'s, with ``audit``'s findings in it."""
    doc = audit.documents.get(file)
    doc = read(file) if doc is None else doc
    return doc, audit_findings(audit, doc)


def _isolated(source: ModelInput, read: Callable[[str], SdfDocument],
              file: str) -> tuple[SdfDocument, list[Finding]]:
    """``file`` audited alone, as :func:`gzinertia.audit_paths` audits it (no settings file,
    no cache, in this process), with the document that audit read and judged; a file the
    audit could not read as a document (unreadable, a fragment) is read by ``read``, which
    says why it cannot be drawn."""
    result, _ = audit_projects(
        [file], config_file=None, known_codes=frozenset(RULE_INFOS), isolated=True,
        overrides=source_overrides(source), keep_documents=True)
    doc = result.documents.get(file)
    return (read(file) if doc is None else doc), list(result.findings)
