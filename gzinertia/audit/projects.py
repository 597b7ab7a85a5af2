"""An audit of paths that belong to several projects: each file with its own project's settings.

Settings are found for each audited file (:class:`~gzinertia.audit.config.ConfigFinder`, the
nearest ``.gzinertia.toml`` or ``pyproject.toml`` with ``[tool.gzinertia]`` above it, as ruff
does), the files are audited in groups that share settings, and the results are merged back
into one result in the order the files were found. The command-line options apply to every
group; ``--config FILE`` makes one group with that file's settings, ``--isolated`` one with
none (ruff's semantics). The result names each settings file that changed what was checked
(:mod:`gzinertia.audit.settings_use`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gzinertia.audit.config import (
    AuditConfig,
    ConfigFinder,
    check_settings_choice,
    load_config,
    load_config_file,
)
from gzinertia.audit.discover import Target, discover
from gzinertia.audit.exclude import Exclusion
from gzinertia.audit.findings import AuditResult, Finding
from gzinertia.audit.runner import Progress, folders_of
from gzinertia.audit.runner import audit as run_audit
from gzinertia.audit.settings_use import settings_use
from gzinertia.io.limits import ReadLimits
from gzinertia.record_base import ValueRecord

__all__ = [
    "ProjectRun",
    "audit_projects",
    "exclusions",
    "group_targets",
    "merge",
    "settings_groups",
]


@dataclass(frozen=True, repr=False, eq=False)
class ProjectRun(ValueRecord):
    """The files of one settings file (``config.source``; ``None``: the defaults) and their
    result."""

    config: AuditConfig
    result: AuditResult


def group_targets(
    targets: Sequence[Target], config_file: Path | None, finder: ConfigFinder | None = None
) -> list[tuple[Path | None, list[Target]]]:
    """``targets`` grouped by their settings file (``--config`` ``config_file``: one group),
    groups in the order of their first file, files in order within each."""
    if config_file is not None:
        return [(config_file, list(targets))] if targets else []
    finder = finder or ConfigFinder()
    groups: dict[Path | None, list[Target]] = {}
    for target in targets:
        groups.setdefault(finder.for_path(target.path), []).append(target)
    return list(groups.items())


def settings_groups(
    targets: Sequence[Target],
    known_codes: Iterable[str],
    config_file: Path | None = None,
    isolated: bool = False,
) -> list[tuple[AuditConfig, list[Target]]]:
    """``targets`` grouped by the settings that apply to them (:func:`group_targets`), each
    group with those settings before the command-line options: its settings file's, ``--config``
    ``config_file``'s for every file, or the defaults (no file above it, or ``isolated``: no
    settings file is read). Every settings file is read before any model."""
    check_settings_choice(config_file, isolated)
    known = frozenset(known_codes)
    if isolated:
        return [(AuditConfig(known_codes=known), list(targets))] if targets else []
    out = []
    for source, members in group_targets(targets, config_file):
        if config_file is not None:
            base = load_config(config_file, known)
        elif source is None:
            base = AuditConfig(known_codes=known)
        else:
            base = load_config_file(source, known)
        out.append((base, members))
    return out


def exclusions(
    config_file: Path | None,
    known_codes: Iterable[str],
    isolated: bool = False,
    overrides: Callable[[AuditConfig], AuditConfig] = lambda config: config,
) -> Callable[[str], Exclusion]:
    """For each path given on the command line, what its settings leave out of the walk
    (:mod:`gzinertia.audit.exclude`): those of ``--config`` ``config_file``, or of the nearest
    settings file above it (a folder: in it or above; else above the working directory), or
    the defaults (``isolated``), with the command-line options (``overrides``) applied."""
    known = frozenset(known_codes)
    finder = ConfigFinder()

    def of(given: str) -> Exclusion:
        if isolated:
            base = AuditConfig(known_codes=known)
        elif config_file is not None:
            base = load_config(config_file, known)
        else:
            full = os.path.abspath(given)
            found = finder.nearest(Path(full if os.path.isdir(full) else os.path.dirname(full)))
            found = found or finder.nearest(finder.cwd)
            base = AuditConfig(known_codes=known) if found is None else load_config_file(
                found, known)
        return overrides(base).exclusion()

    return of


def audit_projects(
    paths: Sequence[str],
    *,
    config_file: Path | None,
    known_codes: Sequence[str] | frozenset[str],
    isolated: bool = False,
    overrides: Callable[[AuditConfig], AuditConfig] = lambda config: config,
    progress: Progress | None = None,
    jobs: int = 1,
    cache_dir: Path | None = None,
    cache_notes: list[str] | None = None,
    limits: ReadLimits | None = None,
    keep_documents: bool = False,
) -> tuple[AuditResult, list[ProjectRun]]:
    """Audits ``paths``, each file with its own settings (:func:`settings_groups`; ``overrides``
    applied to each: the command-line options). Returns the merged result, which names the
    settings files that changed what was checked, and each group's settings and result (each
    group's ``fail_on`` decides whether its findings fail the run). ``limits`` and
    ``keep_documents``: as for :func:`~gzinertia.audit.runner.audit`."""
    check_settings_choice(config_file, isolated)
    targets = discover(paths, exclusions(config_file, known_codes, isolated, overrides))
    groups = settings_groups(targets, known_codes, config_file, isolated)
    baseline = overrides(AuditConfig(known_codes=frozenset(known_codes)))
    roots = folders_of(paths)
    runs: list[ProjectRun] = []
    uses = []
    done = 0
    for base, members in groups:
        config = overrides(base)
        offset = done

        def step(n: int, _total: int, path: str, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + n, len(targets), path)

        result = run_audit(
            [t.path for t in members],
            config,
            targets=members,
            progress=step,
            jobs=jobs,
            cache_dir=cache_dir,
            cache_notes=cache_notes,
            limits=limits,
            read_roots=roots,
            keep_documents=keep_documents,
        )
        runs.append(ProjectRun(config, result))
        uses.append(settings_use(config, baseline, [t.path for t in members
                                                    if t.state == "audit"]))
        done += len(members)
    audited_by = [group for _, group in groups]
    merged = merge(targets, audited_by, [r.result for r in runs])
    # each run's target, then the worlds' that changed it (for the files they judged)
    judged = tuple(dict.fromkeys(
        [run.config.target for run in runs]
        + [t for run in runs for t in run.result.targets[1:]])) or (baseline.target,)
    return replace(merged, settings=tuple(u for u in uses if u is not None),
                   targets=judged), runs


def merge(
    targets: Sequence[Target], groups: Sequence[Sequence[Target]], results: Sequence[AuditResult]
) -> AuditResult:
    """One result from the groups' results (``results[i]`` audited ``groups[i]``): files in
    the order ``targets`` were found, each finding once. A finding about a file that another
    group audits (a model of project B included by project A) is left to that group: the
    file's own project's settings decide what is reported about it. A file its group did not
    read (a xacro macro library is skipped; an error) leaves findings about it to the group
    that found them (a link a macro from project B builds in project A's robot)."""
    status = {s.path: s for r in results for s in r.files}
    files = tuple(status[t.path] for t in targets if t.path in status)
    owner = {
        t.real: i for i, group in enumerate(groups) for t in group
        if t.real and t.path in status and status[t.path].status == "ok"
    }
    real_of: dict[str, str] = {}
    seen: dict[tuple[str, str, int, str | None, str], Finding] = {}
    for i, result in enumerate(results):
        for f in result.findings:
            if f.file not in real_of:
                real_of[f.file] = os.path.realpath(f.file)
            if owner.get(real_of[f.file], i) != i:
                continue
            seen.setdefault((f.code, f.file, f.line, f.link, f.message), f)
    documents = {path: doc for r in results for path, doc in r.documents.items()}
    return AuditResult(files, tuple(seen.values()), documents=documents)
