"""``gzinertia audit``: a physics lint for SDFormat model repositories.

The rules (``GZI101``–``GZI210``) read resolved link records and produce
:class:`~gzinertia.audit.findings.Finding` objects; :mod:`gzinertia.audit.formats` turns an
:class:`~gzinertia.audit.findings.AuditResult` into text, a rich table, JSON, SARIF 2.1.0, JUnit
XML or GitHub workflow-command annotations.
"""
