"""Output formats: plain data for JSON, rich tables for terminals.

Floor: above the audit, the edits and the physics (it renders what they return: an
:class:`~gzinertia.audit.findings.AuditResult`, a fix's result, hydrostatics, a link's
records), below the CLI, which calls it; nothing below it prints. Every format of ``gzinertia
audit`` is in :mod:`gzinertia.report.audit`, one module per format; JSON text is written by
:mod:`gzinertia.report.json_text` (non-finite numbers as ``null``) and, a piece at a time, by
:mod:`gzinertia.report.json_stream`.
"""

__all__: list[str] = []
