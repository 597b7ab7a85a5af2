"""``gzinertia audit``'s arguments and flags: their declarations and help texts (the command
in :mod:`gzinertia.cli.audit` names them), in the order ``--help`` lists them."""

from pathlib import Path
from typing import Annotated, Any

from gzinertia.audit.discover import searched_patterns_text
from gzinertia.cli.flags import Maybe, argument, flag
from gzinertia.cli.options import (
    TOLERANCE_CHOICES_HELP,
    FormatChoice,
    SeverityChoice,
    ToleranceChoice,
)

__all__ = [
    "CacheDirFlag",
    "ConfigFlag",
    "DensityFlag",
    "DocsUrlFlag",
    "EllipsoidScaleFlag",
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
    "ReportFlag",
    "SelectFlag",
    "ToleranceFlag",
    "WaterlineFlag",
]


PathsArgument = Annotated[list[str], argument(
    f"SDFormat, URDF or xacro files or folders (searched for "
    f"{searched_patterns_text()}); - reads one SDFormat file from "
    "standard input (reported as <stdin>, includes relative to the working directory).")]

OutputFormatFlag = Annotated[FormatChoice, flag("--format",
    "Report format: table, text, json, sarif, junit, github, or html (the page of gzinertia "
    "report, with this audit's findings: the report extra).")]

FailOnFlag = Annotated[Maybe[SeverityChoice], flag("--fail-on",
    "Exit 1 when a finding is this severe or worse: error (default), warning, info.")]

SelectFlag = Annotated[Maybe[str], flag("--select",
    "Only these rules (codes or prefixes, e.g. GZI1,GZI204).")]

IgnoreFlag = Annotated[Maybe[str], flag("--ignore", "Leave these rules out (codes or prefixes).")]

ToleranceFlag = Annotated[Maybe[ToleranceChoice], flag("--tolerance",
    f"Inertia validity tolerance: {TOLERANCE_CHOICES_HELP}.")]

DensityFlag = Annotated[Maybe[float], flag("--density",
    "Fluid density in kg/m^3 for added-mass checks (default: water or air).")]

ConfigFlag = Annotated[Maybe[Path], flag("--config",
    "Settings file (.gzinertia.toml, or a pyproject.toml with [tool.gzinertia]) for every file, "
    "its relative paths relative to the working directory; no other settings file is read. "
    "Default: for each audited file, the nearest one above it (else above the working directory).")]

IsolatedFlag = Annotated[bool, flag("--isolated",
    "Read no settings file: the defaults and the command-line options only.")]

OutputFlag = Annotated[Maybe[Path], flag("--output -o",
    "Write the report to this file instead of stdout.")]

ReportFlag = Annotated[Maybe[Path], flag("--report",
    "Also write the HTML page of gzinertia report, with this audit's findings, to this file "
    "(any --format; the report extra).")]

#: The HTML page's own options (gzinertia report's; audit's with --report or --format html).
EllipsoidScaleFlag = Annotated[str, flag("--ellipsoid-scale",
    "Scale of the equivalent inertia ellipsoids: a positive factor (1: true size), or auto "
    "(default): each between 2 % and 75 % of the model's extent. The page states each one's.")]
WaterlineFlag = Annotated[Maybe[float], flag("--waterline",
    "Free-surface height z (m, world) at which each model floats (as hydrostatics' "
    "--waterline): its draft, heel and righting-moment curve. Default: a graded fluid's "
    "lowest layer, for models that float.")]

JobsFlag = Annotated[Maybe[int], flag("--jobs -j",
    "Worker processes for large runs (default: the CPUs available, at most 8; 1 to stay in one "
    "process; capped at the CPUs available and at 64).")]

CacheDirFlag = Annotated[Maybe[Path], flag("--cache-dir",
    "Where unchanged files' results are kept between runs (default: $GZINERTIA_CACHE_DIR, else "
    ".gzinertia_cache in the working directory).")]

NoCacheFlag = Annotated[bool, flag("--no-cache",
    "Check every file, neither reading nor writing a cache.")]

DocsUrlFlag = Annotated[Maybe[str], flag("--docs-url",
    "Base URL of the docs/ folder's parent (e.g. https://github.com/OWNER/gzinertia/blob/TAG/) "
    "for the SARIF rules' helpUri: docs/rules/CODE.md under it. Default: $GZINERTIA_DOCS_URL, "
    "else the docs next to the installed code when present.")]



def _read_limit(names: str, what: str, variable: str, default: int) -> Any:
    """The flag of a read limit (:class:`~gzinertia.io.limits.ReadLimits`, not imported at
    start-up): its help says ``what`` it caps, its default (the environment variable
    ``variable``, else ``default``) and that a file going over it is an error."""
    return flag(names, f"{what} (default: ${variable}, else {default}); a file with more is "
                "an error.")


MaxLinksFlag = Annotated[Maybe[int], _read_limit(
    "--max-links", "Most links one file may hold, included models counted",
    "GZINERTIA_MAX_LINKS", 500000)]
MaxIncludedModelsFlag = Annotated[Maybe[int], _read_limit(
    "--max-included-models", "Most <include>s one file may pull in, at any depth",
    "GZINERTIA_MAX_INCLUDED_MODELS", 10000)]

ExcludeFlag = Annotated[Maybe[list[str]], flag("--exclude",
    "Leave out files and folders matching these globs (repeatable or comma-separated; ruff's "
    "semantics: a name matches at any depth, a path with / from the working directory). Replaces "
    "the settings' exclude and the default (hidden folders).")]

ExtendExcludeFlag = Annotated[Maybe[list[str]], flag("--extend-exclude",
    "Like --exclude, but added to the settings' exclude and the default.")]

ForceExcludeFlag = Annotated[bool, flag("--force-exclude",
    "Leave out matching files named on the command line too (as ruff; e.g. for pre-commit, which "
    "names each file).")]

FixFlag = Annotated[bool, flag("--fix",
    "First apply the safe fixes (each rule's page says which are safe: GZI103 and GZI104 by the "
    "nearest valid inertia when no principal moment moves by more than 0.1 %), in place and "
    "atomically; then audit.")]
