"""``audit(paths, config) → AuditResult``: files → documents → rules → findings.

Each file is read once (:func:`gzinertia.sdf.read_sdf_file`, includes resolved through the
configured model paths); the selected rules run on its links and on the whole document; then
inline suppressions (``<!-- gzinertia: ignore[GZI204] -->`` inside a link), ``ignore`` and
per-path ignores remove findings. A file that cannot be read becomes a ``FileStatus`` error
(one line naming file and line) and the run goes on; so does a rule that fails on a link
(reported the same way, naming the rule: a bug to report). Findings about an included file
that is also audited on its own are reported once, under the spelling it was given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.context import DEFAULT_FLUIDS, DocumentContext
from gzinertia.audit.discover import Target, discover
from gzinertia.audit.findings import AuditResult, FileStatus, Finding
from gzinertia.audit.rules import RULES
from gzinertia.errors import GzInertiaError
from gzinertia.records import SdfDocument

#: ``progress(done, total, path)`` is called after each file.
Progress = Callable[[int, int, str], None]


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _document_context(doc: SdfDocument, config: AuditConfig) -> DocumentContext:
    densities = DEFAULT_FLUIDS if config.density is None else (("fluid", config.density),)
    return DocumentContext(doc, densities=densities, tolerance=config.tolerance)


def check_document(doc: SdfDocument, config: AuditConfig) -> list[Finding]:
    """The findings of the selected rules on one read document, suppressions applied except
    per-path ignores (see :func:`audit`). Raises whatever a rule raises."""
    selected = config.selected(RULES)
    ctx = _document_context(doc, config)
    findings: list[Finding] = []
    for code, rule in RULES.items():
        if code not in selected:
            continue
        if rule.check_document is not None:
            findings.extend(rule.check_document(ctx))
        if rule.check_link is not None:
            for link_ctx in ctx.links:
                try:
                    findings.extend(rule.check_link(link_ctx))
                except Exception as exc:  # a bug in a rule: name it, keep the run going
                    raise _RuleError(code, link_ctx.name, exc) from exc
    suppressed = {lk.name: lk.suppressed_codes for lk in doc.links}
    return [f for f in findings if f.link is None or f.code not in suppressed.get(f.link, ())]


def _dedupe_key(f: Finding) -> tuple[str, str, int, str]:
    """One finding per rule and element at fault: the same included model audited on its own,
    or included twice, gives one finding (pairs of links keep their other link's name)."""
    other = str(f.values.get("other_link", "")).rsplit("::", 1)[-1]
    return (f.code, f.file, f.line, other)


class _RuleError(Exception):
    def __init__(self, code: str, link: str, exc: Exception) -> None:
        super().__init__(f"{code} on link {link!r}: {type(exc).__name__}: {exc}")


#: Below this many files an audit runs in one process (starting workers costs more).
PARALLEL_MIN_FILES = 32


def _audit_file(
    path: str, search: Sequence[str], config: AuditConfig
) -> tuple[FileStatus, list[Finding]]:
    """Reads and checks one file: its status and findings (never raises)."""
    from gzinertia.sdf import read_sdf_file

    try:
        doc = read_sdf_file(path, search)
        found = check_document(doc, config)
    except GzInertiaError as exc:
        return FileStatus(path, "error", _one_line(str(exc))), []
    except _RuleError as exc:
        message = f"{path}: internal error in rule {exc} (please report)"
        return FileStatus(path, "error", _one_line(message)), []
    except Exception as exc:  # never a traceback: the file is reported, the run goes on
        message = f"{path}: cannot be read: {type(exc).__name__}: {exc}"
        return FileStatus(path, "error", _one_line(message)), []
    return FileStatus(path, "ok"), found


def _audited(
    targets: Sequence[Target], search: Sequence[str], config: AuditConfig, jobs: int
) -> Iterator[tuple[FileStatus, list[Finding]]]:
    """Each target's status and findings, in order; files spread over ``jobs`` processes when
    there are enough of them."""
    to_check = [t.path for t in targets if t.state == "audit"]
    if jobs > 1 and len(to_check) >= PARALLEL_MIN_FILES:
        from concurrent.futures import ProcessPoolExecutor
        from functools import partial

        check = partial(_audit_file, search=search, config=config)
        chunk = max(1, len(to_check) // (8 * jobs))
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = pool.map(check, to_check, chunksize=chunk)
            for target in targets:
                if target.state != "audit":
                    yield FileStatus(target.path, target.state, target.message), []
                else:
                    yield next(results)
        return
    for target in targets:
        if target.state != "audit":
            yield FileStatus(target.path, target.state, target.message), []
        else:
            yield _audit_file(target.path, search, config)


def default_jobs() -> int:
    """Worker processes for a large audit: the CPUs this process may use, at most 8."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


def audit(
    paths: Sequence[str],
    config: AuditConfig | None = None,
    *,
    model_paths: Sequence[str] = (),
    progress: Progress | None = None,
    jobs: int = 1,
) -> AuditResult:
    """Audits files and directories (see :mod:`gzinertia.audit.discover`) with ``config``.

    ``model_paths`` are searched for ``model://`` URIs before ``config.model_paths`` and the
    environment (``GZ_SIM_RESOURCE_PATH``...). ``jobs`` > 1 checks files in that many worker
    processes when there are at least :data:`PARALLEL_MIN_FILES` of them; results are the same
    and in the same order.
    """
    config = config or AuditConfig(known_codes=frozenset(RULES))
    search = [*model_paths, *config.model_paths]
    targets = discover(paths)
    given = {os.path.realpath(t.path): t.path for t in targets if t.state == "audit"}
    statuses: list[FileStatus] = []
    findings: dict[tuple[str, str, int, str], Finding] = {}
    for done, (target, (status, found)) in enumerate(
        zip(targets, _audited(targets, search, config, jobs), strict=True), start=1
    ):
        statuses.append(status)
        if status.status == "ok":
            for f in found:
                file = given.get(os.path.realpath(f.file), f.file)
                if file != f.file:
                    f = Finding(f.code, f.severity, file, f.line, f.link, f.message,
                                dict(f.values))
                if config.is_ignored(f.code, file):
                    continue
                findings.setdefault(_dedupe_key(f), f)
        if progress is not None:
            progress(done, len(targets), target.path)
    return AuditResult(tuple(statuses), tuple(findings.values()))
