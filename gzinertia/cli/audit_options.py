"""``gzinertia audit``'s arguments and flags: their declarations and help texts (the command
in :mod:`gzinertia.cli.audit` names them), in the order ``--help`` lists them."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from gzinertia.audit.discover import searched_patterns_text
from gzinertia.cli.options import FormatChoice, SeverityChoice, ToleranceChoice

__all__ = [
    "CacheDirFlag",
    "ConfigFlag",
    "DensityFlag",
    "DocsUrlFlag",
    "ExcludeFlag",
    "ExtendExcludeFlag",
    "FailOnFlag",
    "FixFlag",
    "ForceExcludeFlag",
    "IgnoreFlag",
    "IsolatedFlag",
    "JobsFlag",
    "MaxIncludedModelsFlag",
    "MaxLinksFlag",
    "NoCacheFlag",
    "OutputFlag",
    "OutputFormatFlag",
    "PathsArgument",
    "SelectFlag",
    "ToleranceFlag",
]


PathsArgument = Annotated[
    list[str],
    typer.Argument(
        help=f"SDFormat, URDF or xacro files or folders (searched for "
        f"{searched_patterns_text()}); - reads one SDFormat file from "
        "standard input (reported as <stdin>, includes relative to the working directory)."
    ),
]

OutputFormatFlag = Annotated[
    FormatChoice,
    typer.Option(
        "--format", help="Report format: table, text, json, sarif, junit or github."
    ),
]

FailOnFlag = Annotated[
    Optional[SeverityChoice],  # noqa: UP045
    typer.Option(
        "--fail-on",
        help="Exit 1 when a finding is this severe or worse: error (default), warning, info.",
    ),
]

SelectFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--select", help="Only these rules (codes or prefixes, e.g. GZI1,GZI204)."),
]

IgnoreFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--ignore", help="Leave these rules out (codes or prefixes)."),
]

ToleranceFlag = Annotated[
    Optional[ToleranceChoice],  # noqa: UP045
    typer.Option(
        "--tolerance",
        help="Inertia validity tolerance: gz (gz-math/libsdformat, default) or drake.",
    ),
]

DensityFlag = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--density",
        help="Fluid density in kg/m^3 for added-mass checks (default: water or air).",
    ),
]

ConfigFlag = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--config",
        help="Settings file (.gzinertia.toml, or a pyproject.toml with [tool.gzinertia]) for "
        "every file, its relative paths relative to the working directory; no other "
        "settings file is read. Default: for each audited file, the nearest one above it "
        "(else above the working directory).",
    ),
]

IsolatedFlag = Annotated[
    bool,
    typer.Option(
        "--isolated",
        help="Read no settings file: the defaults and the command-line options only.",
    ),
]

OutputFlag = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option("--output", "-o", help="Write the report to this file instead of stdout."),
]

JobsFlag = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes for large runs (default: the CPUs available, at most 8; "
        "1 to stay in one process; capped at the CPUs available and at 64).",
    ),
]

CacheDirFlag = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--cache-dir",
        help="Where unchanged files' results are kept between runs (default: "
        "$GZINERTIA_CACHE_DIR, else .gzinertia_cache in the working directory).",
    ),
]

NoCacheFlag = Annotated[
    bool,
    typer.Option("--no-cache", help="Check every file, neither reading nor writing a cache."),
]

DocsUrlFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--docs-url",
        help="Base URL of the docs/ folder's parent (e.g. https://github.com/OWNER/gzinertia/"
        "blob/TAG/) for the SARIF rules' helpUri: docs/rules/CODE.md under it. Default: "
        "$GZINERTIA_DOCS_URL, else the docs next to the installed code when present.",
    ),
]

MaxLinksFlag = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--max-links",
        help="Most links one file may hold, included models counted (default: "
        "$GZINERTIA_MAX_LINKS, else 500000); a file with more is an error.",
    ),
]

MaxIncludedModelsFlag = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(
        "--max-included-models",
        help="Most <include>s one file may pull in, at any depth (default: "
        "$GZINERTIA_MAX_INCLUDED_MODELS, else 10000); a file with more is an error.",
    ),
]

ExcludeFlag = Annotated[
    Optional[list[str]],  # noqa: UP045
    typer.Option(
        "--exclude",
        help="Leave out files and folders matching these globs (repeatable or comma-"
        "separated; ruff's semantics: a name matches at any depth, a path with / from the "
        "working directory). Replaces the settings' exclude and the default (hidden "
        "folders).",
    ),
]

ExtendExcludeFlag = Annotated[
    Optional[list[str]],  # noqa: UP045
    typer.Option(
        "--extend-exclude",
        help="Like --exclude, but added to the settings' exclude and the default.",
    ),
]

ForceExcludeFlag = Annotated[
    bool,
    typer.Option(
        "--force-exclude",
        help="Leave out matching files named on the command line too (as ruff; e.g. for "
        "pre-commit, which names each file).",
    ),
]

FixFlag = Annotated[
    bool,
    typer.Option(
        "--fix",
        help="First apply the safe fixes (each rule's page says which are safe: GZI103 and "
        "GZI104 by the nearest valid inertia when no principal moment moves by more than "
        "0.1 %), in place and atomically; then audit.",
    ),
]
