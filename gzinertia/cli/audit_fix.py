"""``gzinertia audit --fix``: the safe fixes, applied before the audit (ruff's convention: each
rule's page in ``docs/rules/`` says whether its fix is safe).

URDF and xacro files are fixed as ``gzinertia fix`` fixes them (each link's own ``<inertial>``;
a xacro only where its values are literal). Safe today: GZI103 and GZI104 repaired by the
nearest valid inertia (``gzinertia fix``'s
default method) when no principal moment moves by more than
:data:`gzinertia.edit.fix.SAFE_RELATIVE_CHANGE` of the largest: round-off and values written
with too few digits. Everything else needs ``gzinertia fix`` and a choice of method.

Each file is fixed under the settings the audit applies to it (its nearest settings file or
``--config``, then the command-line options): rules it does not select, ignores, or ignores
for its path (``per-path-ignores``) are not fixed, and its ``tolerance`` decides what is invalid.

A file found by walking a folder is written only within that folder, through no link below it
(:attr:`gzinertia.edit.output.WriteMode.tree`); one whose link leads out of it was listed as
skipped and is not touched. A file named on the command line is written through its links.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from gzinertia.audit.config import AuditConfig
from gzinertia.errors import GzInertiaError

SAFE_CODES = ("GZI103", "GZI104")


def _matches(code: str, patterns: Collection[str]) -> bool:
    return any(p == "ALL" or code.startswith(p) for p in patterns)


def apply_safe_fixes(
    paths: Sequence[str],
    config_file: Path | None,
    known_codes: frozenset[str],
    overrides: Callable[[AuditConfig], AuditConfig],
) -> int:
    """Applies the safe fixes to every SDF file ``paths`` name (folders searched as the audit
    searches them), in place; the number of links repaired. Files that cannot be read or
    edited are left as they are (the audit that follows reports them). Suppression comments
    in a link are respected."""
    from gzinertia.audit.config import load_config, load_config_file
    from gzinertia.audit.discover import discover
    from gzinertia.audit.projects import group_targets
    from gzinertia.edit.fix import FixOptions, fix
    from gzinertia.edit.output import WriteMode, deliver
    from gzinertia.report.fix import describe_link
    from gzinertia.sdf.model_file import is_urdf_path

    if "-" in paths:
        raise GzInertiaError("--fix cannot rewrite standard input; name the file")
    repaired = 0
    targets = [t for t in discover(list(paths)) if t.state == "audit"]
    for source, members in group_targets(targets, config_file):
        if config_file is not None:
            base = load_config(config_file, known_codes)
        elif source is None:
            base = AuditConfig(known_codes=known_codes)
        else:
            base = load_config_file(source, known_codes)
        config = overrides(base)
        for target in members:
            ignored = config.ignored_for(target.path)
            codes = tuple(c for c in config.selected(SAFE_CODES) if not _matches(c, ignored))
            if not codes:
                continue
            options = FixOptions(
                method="nearest", select=codes, tolerance=config.tolerance, safe_only=True
            )
            path = Path(target.path)
            tree = target.tree or None  # found by walking: written only within that folder
            try:
                if is_urdf_path(path):
                    from gzinertia.urdf.fix import fix_urdf

                    result = fix_urdf(path, options, list(config.model_paths), tree=tree)
                else:
                    result = fix(path, options, list(config.model_paths))
                deliver(path, result.old, result.new, WriteMode(in_place=True, tree=tree))
            except GzInertiaError as exc:
                print(f"gzinertia: note: --fix left {path} as it was ({exc})", file=sys.stderr)
                continue
            for link in result.fixed:
                print(f"fixed {path}: {describe_link(link)}", file=sys.stderr)
            for note in result.skipped:
                print(f"{path}: {note}", file=sys.stderr)
            for pending in result.pending:
                print(f"{path}: warning: not written: {pending}", file=sys.stderr)
            repaired += len(result.fixed)
    return repaired
