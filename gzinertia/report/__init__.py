"""Output formats: plain data for JSON, rich tables for terminals.

Floor: above the audit, the edits and the physics (it renders what they return: an
:class:`~gzinertia.audit.findings.AuditResult`, a fix's result, hydrostatics, a link's
records), below the CLI, which calls it; nothing below it prints. Every format of ``gzinertia
audit`` is in :mod:`gzinertia.report.audit`, one module per format; JSON text is written by
:mod:`gzinertia.report.json_text` (non-finite numbers as ``null``) and, a piece at a time, by
:mod:`gzinertia.report.json_stream`.

The face loads nothing: the submodules named in :data:`__all__` are imported at their first use
(``gzinertia.report.show.document_summary(...)``), so that the command line imports
``gzinertia.report`` at its top and ``--help`` loads none of them.
"""

from gzinertia.lazy_face import lazy_submodules

__all__ = [
    "audit", "bem_progress", "fix", "hydrostatics", "json_stream", "json_text", "plot",
    "plot_figure", "rich_progress", "rich_text", "show", "tables",
]

__getattr__ = lazy_submodules(__name__, __all__)
