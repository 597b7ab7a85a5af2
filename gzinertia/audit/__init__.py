"""``gzinertia audit``: a physics lint for SDFormat model repositories.

Files are found by :mod:`~gzinertia.audit.discover`, settings read by
:mod:`~gzinertia.audit.config`, and :func:`gzinertia.audit.runner.audit` runs the rules
(:mod:`gzinertia.audit.rules`, ``GZI001``–``GZI212``) on resolved link records
(:mod:`gzinertia.checks` computes what they share), producing
:class:`~gzinertia.audit.findings.Finding` objects gathered in an
:class:`~gzinertia.audit.findings.AuditResult` (findings, files not audited, settings used). The
audit returns data only and prints nothing: :mod:`gzinertia.report.audit` turns a result into
text, a rich table, JSON, SARIF 2.1.0, JUnit XML or GitHub workflow-command annotations.
"""

__all__: list[str] = []
