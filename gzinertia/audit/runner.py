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

import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import gzinertia.audit
import gzinertia.checks
import gzinertia.gazebo
import gzinertia.physics
import gzinertia.sdf
import gzinertia.urdf
from gzinertia.audit.cache import AuditCache, file_digest, run_key
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.discover import Target, discover, world_files
from gzinertia.audit.findings import (
    MACRO_CALL_ARG,
    MACRO_CALL_WORDS,
    AuditResult,
    FileStatus,
    Finding,
)
from gzinertia.audit.jobs import MAX_JOBS, capped_jobs, default_jobs
from gzinertia.errors import GzInertiaError, MacrosOnlyError, SdfError
from gzinertia.io.limits import ReadLimits
from gzinertia.model_reader import read_model_file
from gzinertia.record_base import ValueRecord
from gzinertia.sdf.stdin_names import STDIN_NAME
from gzinertia.vocabulary.model_suffixes import is_urdf_path, is_xacro_path
from gzinertia.vocabulary.scoped_names import leaf_name

if TYPE_CHECKING:
    from lxml import etree

    import gzinertia.audit.rules
    import gzinertia.audit.workers
    import gzinertia.checks.context
    import gzinertia.gazebo.world_engine
    import gzinertia.physics.mesh_fallback
    import gzinertia.physics.shapes
    import gzinertia.sdf.stdin
    import gzinertia.urdf.fragments
    import gzinertia.urdf.reader
    import gzinertia.urdf.xacro_sandbox
    from gzinertia.audit.cache import AuditCache, CachedResult
    from gzinertia.checks.context import DocumentContext
    from gzinertia.gazebo.target import Target as GazeboTarget
    from gzinertia.io.limits import ReadLimits
    from gzinertia.records import Dependency, SdfDocument
    from gzinertia.urdf.fragments import Includers

__all__ = [
    "MAX_JOBS",
    "PARALLEL_MIN_FILES",
    "FileResult",
    "Progress",
    "audit",
    "capped_jobs",
    "check_document",
    "default_jobs",
    "folders_of",
    "open_cache",
]

# The checks, the reader and NumPy are imported when a file must be checked: a run whose files
# all come from the result cache does without them.

#: ``progress(done, total, path)`` is called after each file.
Progress = Callable[[int, int, str], None]


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _document_context(
    doc: SdfDocument, config: AuditConfig, tree: etree._Element | None = None
) -> DocumentContext:
    context = gzinertia.checks.context
    densities = context.DEFAULT_FLUIDS if config.density is None else (("fluid", config.density),)
    target = gzinertia.gazebo.world_engine.document_target(config.target, doc.path,
                                                           doc.root_kind, tree)
    return context.DocumentContext(target.reads(doc), densities=densities,
                                   tolerance=config.tolerance, net_buoyancy=config.net_buoyancy,
                                   tree=tree, target=target)


def check_document(
    doc: SdfDocument, config: AuditConfig, tree: etree._Element | None = None
) -> list[Finding]:
    """The findings of the selected rules on one read document, suppressions applied except
    per-path ignores (see :func:`audit`). Raises whatever a rule raises. ``tree``: the
    document's parsed tree when its path cannot be read again (standard input). The rules, the
    fits and the hydrostatics share each collision's solid (computed once per document), a
    mesh that cannot be closed handled as the ``hull`` setting says."""
    physics = gzinertia.physics
    with physics.shapes.shared_solids(), physics.mesh_fallback.hull_fallback(config.hull):
        return _check_document(doc, config, tree)


def _check_document(
    doc: SdfDocument, config: AuditConfig, tree: etree._Element | None
) -> list[Finding]:

    selected = config.selected(gzinertia.audit.rules.RULES)
    ctx = _document_context(doc, config, tree)
    findings: list[Finding] = []
    for code, rule in gzinertia.audit.rules.RULES.items():
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
    in_file = {lk.name: lk.name_in_file for lk in doc.links}
    return _with_macro_calls(doc, [
        _with_link_in_file(f, in_file[f.link]) if f.link in in_file else f
        for f in findings
        if f.link is None or f.code not in suppressed.get(f.link, ())
    ])


def _with_link_in_file(f: Finding, name: str) -> Finding:
    """``f`` with ``link_in_file``: its values are plain already (not normalised again)."""
    return Finding.from_json_data(f.code, f.severity, f.file, f.line, f.link, f.message,
                                  dict(f.values), name, f.message_template, f.message_args)


def _with_macro_calls(doc: SdfDocument, findings: list[Finding]) -> list[Finding]:
    """Findings on a link a xacro macro built also name where the macro was called (the
    finding's file and line are where the element is written, inside the macro)."""
    calls = {n.link: n.data["called"] for n in doc.notes
             if n.code == "xacro-macro-call" and n.link is not None}
    if not calls:
        return findings
    return [_with_macro_call(f, calls[f.link]) if f.link in calls else f for f in findings]


def _with_macro_call(f: Finding, call: str) -> Finding:
    """``f`` saying where its link's macro was called: :data:`MACRO_CALL_WORDS` after its
    message (the call an argument of the template) and in its values."""
    template = (f.message_template or "") + MACRO_CALL_WORDS.format(call=f"{{{MACRO_CALL_ARG}}}")
    args = {**f.message_args, MACRO_CALL_ARG: call}
    return replace(f, message=template.format_map(args), values={**f.values, MACRO_CALL_ARG: call},
                   message_template=template, message_args=args)


def _dedupe_key(f: Finding) -> tuple[str, str, int, str, str]:
    """One finding per rule and element at fault, keyed on the link as written in its file:
    the same included model audited on its own, or included twice, gives one finding; two
    links on one line give two (pairs of links keep their other link's name)."""
    other = leaf_name(str(f.values.get("other_link", "")))
    return (f.code, f.file, f.line, f.link_in_file or f.link or "", other)


class _RuleError(Exception):
    def __init__(self, code: str, link: str, exc: Exception) -> None:
        super().__init__(f"{code} on link {link!r}: {type(exc).__name__}: {exc}")


#: Below this many files an audit runs in one process (starting workers costs more).
PARALLEL_MIN_FILES = 32


@dataclass(frozen=True, repr=False, eq=False)
class FileResult(ValueRecord):
    """One audited file: its status, findings, the URIs its reading looked up, and the digest
    of its bytes taken before they were read (for :class:`~gzinertia.audit.cache.AuditCache`)."""

    status: FileStatus
    findings: list[Finding]
    dependencies: tuple[Dependency, ...] = ()
    digest: str | None = None
    #: Skipped as a fragment of a robot (:mod:`gzinertia.urdf.fragments`): why.
    fragment: str | None = None
    #: A URDF or xacro file that could not be read on its own: a fragment if another audited
    #: file includes it (decided by :func:`audit`, which sees them all).
    alone_failed: bool = False
    #: The document read (only in the auditing process: documents do not cross processes).
    document: SdfDocument | None = None


def _audit_file(
    path: str,
    search: Sequence[str],
    config: AuditConfig,
    digest: bool = False,
    limits: ReadLimits | None = None,
    read_roots: Sequence[str] = (),
    keep: bool = False,
) -> FileResult:
    """Reads and checks one file (never raises); with ``digest``, digests its bytes first.
    ``limits`` caps what reading it may pull in (default: from the environment);
    ``read_roots``: the audited folders (a xacro file's reads may reach them); ``keep``: the
    result holds the document."""
    taken = None
    if digest and path != STDIN_NAME:  # standard input is never cached
        taken = file_digest(path)
    fragment = _static_fragment(path)
    if fragment is not None:  # cached by its bytes: the reason reads nothing else
        return FileResult(FileStatus(path, "skipped", fragment), [], (), taken,
                          fragment=fragment)
    try:
        tree = None
        if path == STDIN_NAME:
            doc, tree = gzinertia.sdf.stdin.read_stdin_model(search)
        else:
            doc = read_model_file(
                path, search, limits, xacro_args=config.xacro_args_for(path) or None,
                xacro_policy=config.xacro_policy(read_roots) if is_xacro_path(path) else None,
            )
        found = check_document(doc, config, tree)
    except MacrosOnlyError as exc:  # cached with its reason: what it read is known
        return FileResult(FileStatus(path, "skipped", _one_line(str(exc))), [],
                          exc.dependencies, taken, fragment=gzinertia.urdf.reader.MACROS_ONLY)
    except GzInertiaError as exc:
        return FileResult(_unreadable(path, exc), [], alone_failed=is_urdf_path(path))
    except _RuleError as exc:
        message = f"{path}: internal error in rule {exc} (please report)"
        return FileResult(FileStatus(path, "error", _one_line(message)), [])
    except Exception as exc:  # never a traceback: the file is reported, the run goes on
        message = f"{path}: internal error, please report ({type(exc).__name__}: {exc})"
        return FileResult(FileStatus(path, "error", _one_line(message)), [])
    return FileResult(FileStatus(path, "ok"), found, doc.dependencies, taken,
                      document=doc if keep else None)


def _static_fragment(path: str) -> str | None:
    """Why the xacro file ``path`` is a fragment without expanding it (a macro library, a
    nameless ``<robot>``: :func:`~gzinertia.urdf.fragments.static_reason`), else ``None``."""
    if not is_xacro_path(path):
        return None

    shape = gzinertia.urdf.fragments.outline(path)
    return None if shape is None else gzinertia.urdf.fragments.static_reason(shape)


def _as_fragment(result: FileResult, includers: Includers) -> FileResult:
    """``result`` with a fragment's skip said in full: what includes it (audited through it)
    or that nothing audited does; a URDF or xacro file that failed alone becomes a skipped
    fragment when an audited file includes it, or when it holds only definitions and
    includes (what reading it alone ran into is said too)."""
    status = result.status
    includer = includers.of(status.path)
    through = (f"audited through {includer}, which includes it" if includer else
               "no audited file includes it: audit the file that includes it")
    if result.fragment is not None:
        message = f"{status.path}: {result.fragment}; {through}"
        return replace(result, status=FileStatus(status.path, "skipped", message))
    if not result.alone_failed:
        return result
    shape = gzinertia.urdf.fragments.outline(status.path) if includer is None else None
    why = None if shape is None else gzinertia.urdf.fragments.only_definitions_and_includes(shape)
    if includer is None and why is None:
        return result
    why = why or "a fragment of a robot, not one on its own"
    message = f"{status.path}: {why}; {through}; on its own: {status.message}"
    return replace(result, status=FileStatus(status.path, "skipped", message), fragment=why)


def _unreadable(path: str, exc: GzInertiaError) -> FileStatus:
    """The status of a file the reader refused: its one line, and the place it names."""
    where = (exc.file, exc.line or 0) if isinstance(exc, SdfError) else (None, 0)
    return FileStatus(path, "error", _one_line(str(exc)), *where)


def _audited(
    targets: Sequence[Target],
    search: Sequence[str],
    config: AuditConfig,
    jobs: int,
    cache: AuditCache | None,
    limits: ReadLimits | None = None,
    read_roots: Sequence[str] = (),
) -> Iterator[FileResult]:
    """Each target's result, in order: from the cache where it is up to date, else checked,
    spread over ``jobs`` processes when enough files need checking."""
    cached: dict[int, CachedResult] = {}
    if cache is not None:
        for i, target in enumerate(targets):
            if target.state == "audit":
                hit = cache.lookup(target.path)
                if hit is not None:
                    cached[i] = hit
    to_check = [t.path for i, t in enumerate(targets) if t.state == "audit" and i not in cached]
    if jobs > 1 and len(to_check) >= PARALLEL_MIN_FILES:
        check = partial(
            _audit_file, search=search, config=config, digest=cache is not None, limits=limits,
            read_roots=read_roots,
        )
        jobs = min(jobs, len(to_check))
        chunk = max(1, len(to_check) // (8 * jobs))
        _preload(to_check, search)
        with gzinertia.audit.workers.process_pool(jobs) as pool:
            yield from _in_order(targets, cached, pool.map(check, to_check, chunksize=chunk))
        return
    checked = (
        _audit_file(path, search, config, cache is not None, limits, read_roots, keep=True)
        for path in to_check
    )
    yield from _in_order(targets, cached, checked)


def _preload(paths: Sequence[str], search: Sequence[str]) -> None:
    """Imports what checking ``paths`` surely needs before worker processes are forked, so
    that each inherits it instead of importing it again: the checks (and NumPy) and, for xacro
    files, xacro (:func:`gzinertia.urdf.xacro_sandbox.warm`: no model file is read)."""
    importlib.import_module("gzinertia.audit.rules")  # the checks, before the fork
    if any(is_xacro_path(p) for p in paths):
        gzinertia.urdf.xacro_sandbox.warm(list(search))


def _in_order(
    targets: Sequence[Target], cached: dict[int, CachedResult], checked: Iterator[FileResult]
) -> Iterator[FileResult]:
    for i, target in enumerate(targets):
        if target.state != "audit":
            yield FileResult(FileStatus(target.path, target.state, target.message), [])
        elif i in cached:
            hit = cached[i]
            status = (FileStatus(target.path, "ok") if hit.skipped is None
                      else FileStatus(target.path, "skipped", hit.skipped))
            yield FileResult(status, hit.findings, fragment=hit.fragment)
        else:
            yield next(checked)


class _Spellings:
    """The spelling an audited file was given, for any name of it: findings about an included
    file name it as the reader resolved it, and it is reported under the spelling it was
    audited by when it is audited too (symlinks resolved; files not audited keep their name)."""

    def __init__(self, targets: Sequence[Target]) -> None:
        audited = [t for t in targets if t.state == "audit"]
        self._spelled = {t.path for t in audited}
        self._by_real = {t.real: t.path for t in audited}
        self._known: dict[str, str] = {}

    def of(self, file: str) -> str:
        if file in self._spelled:
            return file
        if file not in self._known:
            self._known[file] = self._by_real.get(os.path.realpath(file), file)
        return self._known[file]


def folders_of(paths: Sequence[str]) -> tuple[str, ...]:
    """The folders among ``paths``, absolute: what an audit walks, and a xacro file found there
    may read (:meth:`~gzinertia.audit.config.AuditConfig.xacro_policy`)."""
    return tuple(os.path.abspath(p) for p in paths if os.path.isdir(p))


def open_cache(
    folder: Path, config: AuditConfig, search: Sequence[str], limits: ReadLimits | None = None
) -> AuditCache:
    """The result cache in ``folder`` for this configuration, model path and read limits."""
    key = run_key(
        config.selected(RULE_INFOS), config.density, config.tolerance, search, limits,
        net_buoyancy=config.net_buoyancy, xacro_env=config.xacro_env,
        trust_xacro=config.trust_xacro, hull=config.hull, target=config.target.as_json(),
    )
    return AuditCache(folder, key, search, config.xacro_args_for)


def _forget_packages() -> None:
    """ROS packages are found again, as they are now (a process may audit twice, with a
    package moved in between); nothing to forget where none was looked for."""
    ros_packages = sys.modules.get("gzinertia.urdf.ros_packages")
    if ros_packages is not None:
        ros_packages.forget_packages()


def audit(
    paths: Sequence[str],
    config: AuditConfig | None = None,
    *,
    model_paths: Sequence[str] = (),
    progress: Progress | None = None,
    jobs: int = 1,
    cache_dir: Path | None = None,
    cache_notes: list[str] | None = None,
    targets: Sequence[Target] | None = None,
    limits: ReadLimits | None = None,
    read_roots: Sequence[str] | None = None,
    keep_documents: bool = False,
) -> AuditResult:
    """Audits files and directories (see :mod:`gzinertia.audit.discover`) with ``config``.

    ``model_paths`` are searched for ``model://`` URIs before ``config.model_paths`` and the
    environment (``GZ_SIM_RESOURCE_PATH``...). ``jobs`` > 1 checks files in that many worker
    processes when there are at least :data:`PARALLEL_MIN_FILES` of them; results are the same
    and in the same order. With ``cache_dir``, files whose inputs are unchanged since a previous
    run with the same settings are not checked again (:mod:`gzinertia.audit.cache`); the
    result is the same as without. A cache that cannot be read or written is ignored, with a
    line appended to ``cache_notes`` when given. ``targets``: the files ``paths`` were
    already found to be (:func:`~gzinertia.audit.discover.discover`), to audit a part of them.
    ``limits`` caps the included models and links of each file
    (:class:`~gzinertia.io.limits.ReadLimits`; default: from the environment). ``read_roots``:
    folders a xacro file's reads may reach besides its own folder, package and the package
    paths (default: the folders among ``paths``). ``keep_documents``: the result holds the
    documents read and judged in this process (not those from the cache or a worker).
    """
    _forget_packages()
    config = config or AuditConfig(known_codes=frozenset(RULE_INFOS))
    search = [*model_paths, *config.model_paths]
    targets = discover(paths) if targets is None else list(targets)  # given: already found
    if limits is None:
        limits = ReadLimits.from_environment()
    cache = None if cache_dir is None else open_cache(cache_dir, config, search, limits)
    spelling = _Spellings(targets)
    if read_roots is None:
        read_roots = folders_of(paths)
    includers: Includers | None = None  # read when a URDF or xacro file needs it
    statuses: list[FileStatus] = []
    findings: dict[tuple[str, str, int, str, str], Finding] = {}
    documents: dict[str, SdfDocument] = {}
    for done, (target, result) in enumerate(
        zip(targets, _audited(targets, search, config, jobs, cache, limits, read_roots),
            strict=True),
        start=1,
    ):
        if cache is not None and result.digest is not None:  # as read alone: what includes
            cache.store(target.path, result.digest, result.findings,  # it is said each run
                        result.dependencies, result.status, result.fragment)
        if result.fragment is not None or result.alone_failed:
            if includers is None:
                audited = [t.path for t in targets if t.state == "audit"]
                includers = gzinertia.urdf.fragments.Includers(audited, search)
            result = _as_fragment(result, includers)
        status, found = result.status, result.findings
        statuses.append(status)
        if keep_documents and result.document is not None and status.status == "ok":
            documents[target.path] = result.document
        if status.status == "ok":
            for f in found:
                file = spelling.of(f.file)
                if file != f.file:
                    f = replace(f, file=file)
                if config.is_ignored(f.code, file):
                    continue
                findings.setdefault(_dedupe_key(f), f)
        if progress is not None:
            progress(done, len(targets), target.path)
    if cache is not None:
        cache.save()
        if cache_notes is not None:
            cache_notes.extend(cache.problems)
    return AuditResult(tuple(statuses), tuple(findings.values()),
                       targets=_judged_targets(statuses, config.target), documents=documents)


def _judged_targets(statuses: Sequence[FileStatus],
                    target: GazeboTarget) -> tuple[GazeboTarget, ...]:
    """The run's ``target``, then the target of each audited world whose Physics system
    changes the engine (its models are judged under it)."""
    judged = [target]
    if worlds := world_files(s.path for s in statuses if s.status == "ok"):
        judged += gzinertia.gazebo.world_engine.world_targets(worlds, target)  # lxml: a world
    return tuple(judged)
