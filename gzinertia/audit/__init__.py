"""``gzinertia audit``: a physics lint for SDFormat model repositories.

Files are found by :mod:`~gzinertia.audit.discover`, settings read by
:mod:`~gzinertia.audit.config`, and :func:`gzinertia.audit.runner.audit` runs the rules
(:mod:`gzinertia.audit.rules`, ``GZI001``–``GZI212``) on resolved link records
(:mod:`gzinertia.checks` computes what they share), producing
:class:`~gzinertia.audit.findings.Finding` objects gathered in an
:class:`~gzinertia.audit.findings.AuditResult` (findings, files not audited, settings used). The
audit returns data only and prints nothing: :mod:`gzinertia.report.audit` turns a result into
text, a rich table, JSON, SARIF 2.1.0, JUnit XML or GitHub workflow-command annotations.

The face loads nothing: the submodules named in :data:`__all__` are imported at their first use
(``gzinertia.audit.runner.default_jobs()``), so that the command line imports
``gzinertia.audit`` at its top and ``--help`` loads none of them.
"""

from gzinertia.lazy_face import lazy_submodules

__all__ = [
    "cache", "catalogue", "config", "discover", "findings", "migration", "projects", "rules",
    "runner", "target_choice", "workers",
]

__getattr__ = lazy_submodules(__name__, __all__)
