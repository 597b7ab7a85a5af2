"""``gzinertia audit --fix``: the safe fixes, applied before the audit (ruff's convention: each
rule's page in ``docs/rules/`` says whether its fix is safe).

URDF and xacro files are fixed as ``gzinertia fix`` fixes them (each link's own ``<inertial>``;
a xacro only where its values are literal). Safe today: GZI103 and GZI104 repaired by the
nearest valid inertia (``gzinertia fix``'s
default method) when no principal moment moves by more than
:data:`gzinertia.edit.fix.SAFE_RELATIVE_CHANGE` of the largest: round-off and values written
with too few digits. Everything else needs ``gzinertia fix`` and a choice of method.

Each file is fixed under the settings the audit applies to it (its nearest settings file,
``--config``, or none with ``--isolated``; then the command-line options): rules it does not
select, ignores, or ignores for its path (``per-path-ignores``) are not fixed, and its
``tolerance`` decides what is invalid.

A file found by walking a folder is written only within that folder, through no link below it
(:attr:`gzinertia.cli.delivery.WriteMode.tree`); one whose link leads out of it was listed as
skipped and is not touched. A file named on the command line is written through its links.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from gzinertia.audit import discover as discovery  # looked up when called: tests swap it
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.projects import exclusions, settings_groups
from gzinertia.audit.runner import folders_of
from gzinertia.cli.delivery import WriteMode, deliver
from gzinertia.edit.backends import model_format
from gzinertia.edit.fix import FixOptions
from gzinertia.edit.fix_options import FixTarget
from gzinertia.errors import GzInertiaError, MacrosOnlyError
from gzinertia.report.fix import describe_link

SAFE_CODES = ("GZI103", "GZI104")


def apply_safe_fixes(
    paths: Sequence[str],
    config_file: Path | None,
    known_codes: frozenset[str],
    overrides: Callable[[AuditConfig], AuditConfig],
    isolated: bool = False,
) -> int:
    """Applies the safe fixes to every SDF file ``paths`` name (folders searched as the audit
    searches them), in place; the number of links repaired. Files that cannot be read or
    edited are left as they are (the audit that follows reports them). Suppression comments
    in a link are respected. ``isolated``: no settings file is read (``--isolated``)."""
    if "-" in paths:
        raise GzInertiaError("--fix cannot rewrite standard input; name the file")
    repaired = 0
    walk = exclusions(config_file, known_codes, isolated, overrides)
    targets = [t for t in discovery.discover(list(paths), walk) if t.state == "audit"]
    roots = folders_of(list(paths))  # what the audit lets a xacro file read
    for base, members in settings_groups(targets, known_codes, config_file, isolated):
        config = overrides(base)
        for target in members:
            checked = config.checked(SAFE_CODES, target.path)
            codes = tuple(c for c in SAFE_CODES if c in checked)
            if not codes:
                continue
            options = FixOptions(
                method="nearest", select=codes, tolerance=config.tolerance, safe_only=True
            )
            path = Path(target.path)
            tree = target.tree or None  # found by walking: written only within that folder
            try:
                fixed = FixTarget(path, list(config.model_paths),
                                  xacro_args=config.xacro_args_for(target.path) or None,
                                  xacro_policy=config.xacro_policy(roots), tree=tree)
                result = model_format(path).fix_edit(fixed, options)  # as `gzinertia fix`
                deliver(path, result.old, result.new, WriteMode(in_place=True, tree=tree))
            except MacrosOnlyError:  # a fragment: the audit lists it skipped, with why
                continue
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
