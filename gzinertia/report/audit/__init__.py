r"""Every output of ``gzinertia audit``: text, rich table, JSON, SARIF 2.1.0, JUnit XML, GitHub;
one module per format (:mod:`.text`, :mod:`.table`, :mod:`.json_format`, :mod:`.sarif`,
:mod:`.junit`, :mod:`.github`), the lines they share in :mod:`.lines`, portable paths in
:mod:`.locations`. The audit hands over data (:class:`~gzinertia.audit.findings.AuditResult`);
nothing under :mod:`gzinertia.audit` prints or formats.

All formats show the same findings in the same order (:attr:`Finding.sort_key`) and the files that
could not be audited. Conventions shared by the formats:

* Paths: text, table and JSON keep them exactly as the audit was given them. JUnit and GitHub
  write them with forward slashes, absolute paths under the working directory made relative to
  it; SARIF writes those as percent-encoded URI references relative to ``%SRCROOT%`` (the
  directory the audit ran in, normally the repository root) and other absolute paths as
  ``file://`` URIs.
* Names a pull request chooses cannot steer a CI log or a viewer: every format that is shown as it
  is (text, table, JUnit, GitHub, and what a SARIF viewer shows: messages and link names) shows
  the control characters (C0, DEL, C1 such as U+009B), format characters (bidi overrides and
  isolates such as U+202E, U+2066) and line separators of file names, link names, settings and
  messages escaped, with the undecodable bytes of a file name (:func:`~gzinertia.wording.visible`:
  ``\n``, ``\x1b``, ``\x9b``, ``\u202e``, ``\xff``), so no output line can begin with ``::`` (a
  GitHub Actions workflow command) and no name can recolour, move or reorder what a log shows.
  Messages keep their own line breaks where the format has them (GitHub ``%0A``, SARIF text;
  :func:`~gzinertia.wording.visible_lines`). SARIF percent-encodes the bytes of a name in its
  URIs. JSON is data: it keeps names exactly, so that a program finds the file, and is ASCII-only,
  every other character written as a ``\u`` escape (docs/json.md).
* Settings: each format names the settings files that changed what was checked
  (:attr:`AuditResult.settings`): text and table a line each before the summary
  (:func:`~gzinertia.report.audit.lines.settings_line`), JSON ``settings``, SARIF
  ``toolConfigurationNotifications``, GitHub a notice (a warning for one that switched every
  rule off in a file), JUnit a property of each file's suite.
* Severities: ``error``/``warning``/``info``; SARIF levels ``error``/``warning``/``note``; GitHub
  commands ``error``/``warning``/``notice``.
* Non-finite numbers in ``values`` (JSON, SARIF, JUnit details): JSON has no NaN or infinity,
  so they are written as ``null``, as ``gzinertia show --json`` does (docs/json.md): every
  number in gzinertia's JSON is finite, a string is always a string (``"NaN"`` stays the text
  ``NaN``), and ``null`` stands where a number is not finite or absent.
* ``line`` 0 means the whole file: no line is printed (text, GitHub) and SARIF has no region.
"""

from __future__ import annotations

from collections.abc import Mapping

from gzinertia.audit.findings import AuditResult, RuleInfo
from gzinertia.lazy_face import lazy_submodules
from gzinertia.report.audit.github import render_github
from gzinertia.report.audit.json_format import render_json
from gzinertia.report.audit.junit import render_junit
from gzinertia.report.audit.sarif import render_sarif
from gzinertia.report.audit.table import render_plain_table, render_table
from gzinertia.report.audit.text import render_text
from gzinertia.vocabulary.choices import AuditFormat as Format

__all__ = ["FORMATS", "OUTPUT_FORMATS", "Format", "render", "render_table"]

FORMATS: tuple[Format, ...] = ("table", "json", "sarif", "junit", "github", "text")
#: ``audit --format``'s choices: :data:`FORMATS`, rendered here from the result, and the HTML
#: page, which draws the audited models too (:func:`gzinertia.html_report` reads them).
OUTPUT_FORMATS: tuple[str, ...] = (*FORMATS, "html")

#: Imported at its first use (``gzinertia.report.audit.migration``): only a run whose target
#: changed the findings shows it.
__getattr__ = lazy_submodules(__name__, ("migration",))


def render(
    result: AuditResult,
    fmt: str,
    rules: Mapping[str, RuleInfo],
    version: str,
    *,
    project_uri: str | None = None,
) -> str:
    """``result`` in format ``fmt`` (one of :data:`FORMATS`) as a string ending in a newline.

    ``rules`` maps codes to their :class:`RuleInfo` (SARIF descriptors, table rule names);
    ``version`` is gzinertia's version (JSON ``version``, SARIF ``tool.driver.version``);
    ``project_uri`` see :func:`~gzinertia.report.audit.sarif.to_sarif_log`. ``table`` is
    rendered without colour at a fixed width; call :func:`render_table` with a terminal console
    for colour.
    """
    if fmt == "text":
        return render_text(result)
    if fmt == "json":
        return render_json(result, version)
    if fmt == "sarif":
        return render_sarif(result, rules, version, project_uri)
    if fmt == "junit":
        return render_junit(result)
    if fmt == "github":
        return render_github(result)
    if fmt == "table":
        return render_plain_table(result, rules)
    raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
