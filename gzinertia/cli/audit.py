"""``gzinertia audit``: a physics lint for SDFormat model repositories (the rules of
:data:`gzinertia.audit.catalogue.RULE_INFOS`).

Exit status: 0 when nothing is at or above ``--fail-on``; 1 when something is; 2 for a usage
error or a file that could not be read (the other files are still audited and reported).
"""

import os
import stat
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import gzinertia
import gzinertia.audit
import gzinertia.cli
import gzinertia.io
import gzinertia.report
from gzinertia import __version__
from gzinertia.arguments import docs_base_uri, read_limits, worker_count
from gzinertia.arguments import ellipsoid_scale as scale_factor
from gzinertia.audit.catalogue import RULE_INFOS, rule_range
from gzinertia.audit.findings import AuditResult
from gzinertia.cli.app import app
from gzinertia.cli.audit_options import (
    CacheDirFlag,
    ConfigFlag,
    DensityFlag,
    DocsUrlFlag,
    EllipsoidScaleFlag,
    ExcludeFlag,
    ExtendExcludeFlag,
    FailOnFlag,
    FixFlag,
    ForceExcludeFlag,
    IgnoreFlag,
    IsolatedFlag,
    JobsFlag,
    MaxIncludedModelsFlag,
    MaxLinksFlag,
    NoCacheFlag,
    OutputFlag,
    OutputFormatFlag,
    PathsArgument,
    ReportFlag,
    SelectFlag,
    ToleranceFlag,
    WaterlineFlag,
)
from gzinertia.cli.flags import Maybe, flag
from gzinertia.cli.options import model_input_options
from gzinertia.errors import GzInertiaError
from gzinertia.io.confined import first_link, working_root
from gzinertia.model_input import ModelInput

if TYPE_CHECKING:
    from collections.abc import Callable

    import gzinertia.audit.cache
    import gzinertia.audit.config
    import gzinertia.audit.migration
    import gzinertia.audit.projects
    import gzinertia.audit.runner
    import gzinertia.cli.audit_fix
    import gzinertia.io.safe_write
    import gzinertia.report.audit.migration
    import gzinertia.report.rich_progress
    import gzinertia.report.rich_text
    from gzinertia.audit.config import AuditConfig
    from gzinertia.audit.findings import AuditResult, Severity
    from gzinertia.audit.projects import ProjectRun
    from gzinertia.io.limits import ReadLimits
    from gzinertia.report.rich_progress import Progress, TaskID

__all__ = [
    "AUDIT_HELP",
    "PROGRESS_MIN_FILES",
    "audit",
    "exit_status",
]

#: The target release and engine (:mod:`gzinertia.gazebo.target`).
GazeboFlag = Annotated[Maybe[list[str]], flag("--gazebo",
    "The Gazebo release that will run the model: fortress, garden, harmonic, ionic or jetty "
    "(default: the settings' gazebo, else jetty, the newest stable). Twice (--gazebo A "
    "--gazebo B): only the findings that differ from A to B (a migration check).")]
EngineFlag = Annotated[Maybe[str], flag("--engine",
    "The physics engine: dartsim (dart), bullet, bullet-featherstone, tpe or mujoco (default: "
    "the settings' engine, else a world's Physics system's, else dartsim).")]

#: Show a progress bar (stderr, terminals only, not in CI) from this many files on.
PROGRESS_MIN_FILES = 20


#: ``audit --help``'s text: the rules' range from the registry (:func:`rule_range`).
AUDIT_HELP = f"""Audit SDFormat models for inertia and added-mass mistakes (rules {rule_range()}).

Every finding names the rule, the file and line, the link, the numbers that prove it and
the fix; docs/rules/CODE.md explains each rule. Suppress one inside a link with
<!-- gzinertia: ignore[GZI204] -->, or in the settings (select, ignore, per-path-ignores).
Every report names the settings files that changed what was checked.
"""


@app.command(help=AUDIT_HELP)
@model_input_options
def audit(
    paths: PathsArgument,
    output_format: OutputFormatFlag = "table",
    fail_on: FailOnFlag = None,
    select: SelectFlag = None,
    ignore: IgnoreFlag = None,
    tolerance: ToleranceFlag = None,
    density: DensityFlag = None,
    config: ConfigFlag = None,
    isolated: IsolatedFlag = False,
    output: OutputFlag = None,
    jobs: JobsFlag = None,
    cache_dir: CacheDirFlag = None,
    no_cache: NoCacheFlag = False,
    docs_url: DocsUrlFlag = None,
    max_links: MaxLinksFlag = None,
    max_included_models: MaxIncludedModelsFlag = None,
    exclude: ExcludeFlag = None,
    extend_exclude: ExtendExcludeFlag = None,
    force_exclude: ForceExcludeFlag = False,
    fix: FixFlag = False,
    report: ReportFlag = None,
    gazebo: GazeboFlag = None,
    engine: EngineFlag = None,
    waterline: WaterlineFlag = None,
    ellipsoid_scale: EllipsoidScaleFlag = "auto",
    *,
    source: ModelInput,
) -> None:
    """Audit SDFormat models for inertia and added-mass mistakes (:data:`AUDIT_HELP`: the
    command's help, its rules' range taken from the registry)."""
    overrides = partial(
        _with_overrides, source, select=select, ignore=ignore, fail_on=fail_on,
        density=density, tolerance=tolerance, exclude=exclude, extend_exclude=extend_exclude,
        force_exclude=force_exclude, gazebo=_first(gazebo), engine=engine,
    )
    # usage errors (bad codes, a bad --config) before any file is read
    known = frozenset(RULE_INFOS)
    gzinertia.audit.config.check_settings_choice(config, isolated)
    settings = gzinertia.audit.config
    overrides(settings.load_config(config, known) if config
              else settings.AuditConfig(known_codes=known))
    page = _page_options(output_format == "html" or report is not None, waterline, ellipsoid_scale)
    jobs = _jobs(jobs)
    limits = read_limits(max_links, max_included_models)
    for option, path in (("--output", output), ("--report", report)):
        if path is not None:
            _check_output(path, option)
    if not no_cache and cache_dir is None:
        cache_dir = gzinertia.audit.cache.default_cache_dir()
    if fix:
        gzinertia.cli.audit_fix.apply_safe_fixes(paths, config, known, overrides, isolated)
    if "-" in paths:  # standard input is read in this process, never in a worker
        jobs = 1
    if gazebo is not None and len(gazebo) == 2:
        if output_format == "html" or report is not None:
            raise GzInertiaError("--gazebo A --gazebo B lists the findings that differ, as text "
                                 "or json; --format html and --report draw one audit")
        later = partial(overrides, gazebo=gazebo[1])
        _migration(paths, config, isolated, (overrides, later), jobs,
                   None if no_cache else cache_dir, limits, output_format, output)
        return
    result, runs = _run(paths, config, isolated, overrides, jobs,
                        None if no_cache else cache_dir, limits, keep_documents=page is not None)
    _outputs(result, source, output_format, output, report, docs_url, page)
    # each file fails at its own project's fail-on (or --fail-on)
    status = max((exit_status(run.result, run.config.fail_on) for run in runs), default=0)
    if status:
        raise typer.Exit(status)


def _with_overrides(
    source: ModelInput, config: "AuditConfig", *, select: str | None, ignore: str | None,
    fail_on: str | None, density: float | None, tolerance: str | None,
    exclude: list[str] | None, extend_exclude: list[str] | None, force_exclude: bool,
    gazebo: str | None = None, engine: str | None = None,
) -> "AuditConfig":
    """``config`` with the command line's settings over it
    (:func:`gzinertia.audit.config.with_overrides`), the model input's among them."""
    return gzinertia.audit.config.source_overrides(
        source,
        select=select,
        ignore=ignore,
        fail_on=fail_on,
        density=density,
        tolerance=tolerance,
        exclude=None if exclude is None else _globs(exclude),
        extend_exclude=_globs(extend_exclude or []),
        force_exclude=force_exclude,
        gazebo=gazebo,
        engine=engine,
    )(config)


def _run(
    paths: list[str], config: Path | None, isolated: bool,
    overrides: "Callable[[AuditConfig], AuditConfig]", jobs: int | None,
    cache_dir: Path | None, limits: "ReadLimits", keep_documents: bool = False,
) -> "tuple[AuditResult, list[ProjectRun]]":
    """The audit of ``paths`` (:func:`gzinertia.audit.projects.audit_projects`) with a progress
    bar on a terminal, and why the cache kept nothing, when it did not, on stderr;
    ``keep_documents``: the result holds what it read (for the HTML page)."""
    cache_notes: list[str] = []
    with _ProgressBar() as bar:
        result, runs = gzinertia.audit.projects.audit_projects(
            paths,
            config_file=config,
            known_codes=frozenset(RULE_INFOS),
            isolated=isolated,
            overrides=overrides,
            progress=bar.update,
            jobs=gzinertia.audit.runner.default_jobs() if jobs is None else jobs,
            cache_dir=cache_dir,
            cache_notes=cache_notes,
            limits=limits,
            keep_documents=keep_documents,
        )
    for note in cache_notes:  # the report is complete either way; say why nothing was kept
        typer.echo(f"gzinertia: note: {note} (--no-cache turns the cache off)", err=True)
    return result, runs


def _first(gazebo: list[str] | None) -> str | None:
    """The first ``--gazebo`` (the only one, or the target migrated from); more than two are
    refused."""
    if gazebo and len(gazebo) > 2:
        raise GzInertiaError("--gazebo: give one release, or two to compare (--gazebo A "
                             f"--gazebo B), not {len(gazebo)}")
    return gazebo[0] if gazebo else None


def _migration(
    paths: list[str], config: Path | None, isolated: bool,
    overrides: "tuple[Callable[[AuditConfig], AuditConfig], Callable[[AuditConfig], AuditConfig]]",
    jobs: int | None, cache_dir: Path | None, limits: "ReadLimits", output_format: str,
    output: Path | None,
) -> None:
    """``--gazebo A --gazebo B``: the audit under each target and the findings that differ
    (:func:`gzinertia.audit.migration.target_change`), as JSON or text; exit 2 for a file
    that could not be read, 1 for a new finding at or above ``--fail-on``."""
    before, _ = _run(paths, config, isolated, overrides[0], jobs, cache_dir, limits)
    after, runs = _run(paths, config, isolated, overrides[1], jobs, cache_dir, limits)
    change = gzinertia.audit.migration.target_change(before, after)
    text = gzinertia.report.audit.migration.render_target_change(change, output_format, __version__)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write(output, text)
    new = AuditResult(after.files, change.new)
    status = max((exit_status(new, run.config.fail_on) for run in runs), default=0)
    if status:
        raise typer.Exit(status)


def _jobs(jobs: int | None) -> int | None:
    """``--jobs`` as the library takes it (:func:`gzinertia.arguments.worker_count`), its note
    (capped to the machine) on stderr."""
    count, note = worker_count(jobs)
    if note:
        typer.echo(f"gzinertia: note: {note}", err=True)
    return count


def _show(result: "AuditResult", output_format: str, output: Path | None,
          docs_url: str | None) -> None:
    """The report in ``output_format``: a rich table on a terminal (when there is something to
    show), else the format's text on stdout or in ``output``."""
    clean = not result.findings and all(s.status == "ok" for s in result.files)
    if output is None and output_format == "table" and sys.stdout.isatty() and not clean:
        console = gzinertia.report.rich_text.Console()
        gzinertia.report.audit.render_table(result, console, RULE_INFOS)
        return
    project_uri = docs_base_uri(docs_url) if output_format == "sarif" else None
    _deliver(gzinertia.report.audit.render(result, output_format, RULE_INFOS, __version__,
                                           project_uri=project_uri),
             output)


def _page_options(wanted: bool, waterline: float | None,
                  ellipsoid_scale: str) -> "dict[str, float | None] | None":
    """The HTML page's own options as :func:`gzinertia.html_report` takes them when a page is
    ``wanted`` (``--report`` or ``--format html``), else ``None``; given without a page, they
    are refused (they would change nothing)."""
    if not wanted:
        if waterline is not None or ellipsoid_scale != "auto":
            raise GzInertiaError("--waterline and --ellipsoid-scale draw the HTML page: give "
                                 "--report PAGE or --format html with them")
        return None
    return {"waterline": waterline, "ellipsoid_scale": scale_factor(ellipsoid_scale)}


def _outputs(result: "AuditResult", source: ModelInput, output_format: str,
             output: Path | None, report: Path | None, docs_url: str | None,
             page_options: "dict[str, float | None] | None") -> None:
    """The report in ``output_format`` (:func:`_show`, or the HTML page drawn with
    ``page_options``), and the page written to ``report`` when asked: after the other format's
    output, so that a page that cannot be drawn or written costs that output nothing."""
    if page_options is not None and output_format == "html":
        _deliver(_page(result, source, docs_url, page_options), output)
        return
    _show(result, output_format, output, docs_url)
    if page_options is not None and report is not None:
        _write(report, _page(result, source, docs_url, page_options), "--report")


def _deliver(text: str, output: Path | None) -> None:
    """The report's text on stdout, or written to ``output``."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write(output, text)


def _page(result: "AuditResult", source: ModelInput, docs_url: str | None,
          options: "dict[str, float | None]") -> str:
    """The HTML page of the files ``result`` read, with its findings
    (:func:`gzinertia.html_report`, its ``options``: :func:`_page_options`); what it left out
    or could not draw on stderr."""
    page = gzinertia.html_report(
        **source.keywords(), docs_base=docs_base_uri(docs_url), audit=result, **options)
    for line in [*page.skipped, *page.not_drawn]:
        typer.echo(f"gzinertia: note: report: {line}", err=True)
    return page.text


def _globs(values: list[str]) -> list[str]:
    """``--exclude`` values: each repeatable, and comma-separated as ruff takes them."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def exit_status(result: "AuditResult", fail_on: "Severity") -> int:
    """2 if a file could not be read, else 1 if a finding is at or above ``fail_on``, else 0."""
    if result.files_with("error"):
        return 2
    return 1 if result.fails(fail_on) else 0


def _check_output(path: Path, flag: str = "--output") -> None:
    """Refuses, before anything is read, a report path below the working directory that goes
    through a symbolic link (or is one): a pull request can commit ``gzinertia.sarif`` as a
    link to a file elsewhere (the write refuses it again). A path outside the working
    directory is the user's choice, taken as named."""
    root = working_root(path)
    link = None if root is None else first_link(path, root)
    if link is not None:
        raise GzInertiaError(
            f"{flag} {path}: {link} is a symbolic link: a report is never written through a "
            "link (name the real path)"
        )


def _write(path: Path, text: str, flag: str = "--output") -> None:
    """The report, written atomically, through no symbolic link below the working directory
    (:func:`gzinertia.io.confined.working_root`); outside it, as named: links followed, and a
    character device or FIFO (``/dev/null``, ``/dev/stdout``) written to, not replaced; errors
    name the option that gave ``path`` (``flag``)."""
    root = working_root(path)
    data = text.encode("utf-8")
    try:
        if root is None and _is_stream(path):
            with open(path, "wb") as out:
                out.write(data)
        else:
            gzinertia.io.safe_write.write_atomically(path, data, root=root)
    except OSError as exc:
        raise GzInertiaError(f"{flag} {path}: cannot write: {exc.strerror or exc}") from None
    except GzInertiaError as exc:
        raise GzInertiaError(f"{flag} {exc}") from None


def _is_stream(path: Path) -> bool:
    """Whether ``path`` (links followed) is a character device or a FIFO."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


class _ProgressBar:
    """A rich progress bar on stderr for long runs on a terminal; silent otherwise (CI, pipes)."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty() and not os.environ.get("CI")
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> "_ProgressBar":
        return self

    def update(self, done: int, total: int, path: str) -> None:
        if not self.enabled or total < PROGRESS_MIN_FILES:
            return
        if self.progress is None:
            console = gzinertia.report.rich_text.Console(stderr=True)
            self.progress = gzinertia.report.rich_progress.Progress(console=console,
                                                                    transient=True)
            self.progress.start()
            self.task = self.progress.add_task("auditing", total=total)
        assert self.task is not None
        self.progress.update(self.task, completed=done, description=os.path.basename(path))

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()
