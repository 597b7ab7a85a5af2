"""``gzinertia audit --fix``: the safe fixes, applied before the audit (ruff's convention: each
rule's page in ``docs/rules/`` says whether its fix is safe).

Safe today: GZI103 and GZI104 repaired by the nearest valid inertia (``gzinertia fix``'s
default method) when no principal moment moves by more than
:data:`gzinertia.edit.fix.SAFE_RELATIVE_CHANGE` of the largest: round-off and values written
with too few digits. Everything else needs ``gzinertia fix`` and a choice of method.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from gzinertia.errors import GzInertiaError

SAFE_CODES = ("GZI103", "GZI104")


def _codes(option: str | None) -> tuple[str, ...]:
    return tuple(c.strip().upper() for c in (option or "").split(",") if c.strip())


def apply_safe_fixes(
    paths: Sequence[str],
    tolerance: str | None,
    select: str | None,
    ignore: str | None,
    model_paths: Sequence[Path],
) -> int:
    """Applies the safe fixes to every SDF file ``paths`` name (folders searched as the audit
    searches them), in place; the number of links repaired. Files that cannot be read or
    edited are left as they are (the audit that follows reports them). ``select``/``ignore``
    (the audit's options) narrow the codes; suppression comments in a link are respected."""
    from gzinertia.audit.discover import discover
    from gzinertia.edit.fix import FixOptions, fix
    from gzinertia.edit.output import WriteMode, deliver
    from gzinertia.report.fix import describe_link

    if "-" in paths:
        raise GzInertiaError("--fix cannot rewrite standard input; name the file")
    chosen, left_out = _codes(select), _codes(ignore)
    codes = tuple(
        c for c in SAFE_CODES
        if (not chosen or any(c.startswith(p) or p == "ALL" for p in chosen))
        and not any(c.startswith(p) or p == "ALL" for p in left_out)
    )
    if not codes:
        return 0
    options = FixOptions(
        method="nearest",
        select=codes,
        tolerance="drake" if tolerance == "drake" else "gz",
        safe_only=True,
    )
    repaired = 0
    for target in discover(list(paths)):
        if target.state != "audit":
            continue
        path = Path(target.path)
        try:
            result = fix(path, options, list(model_paths))
            deliver(path, result.old, result.new, WriteMode(in_place=True))
        except GzInertiaError as exc:
            print(f"gzinertia: note: --fix left {path} as it was ({exc})", file=sys.stderr)
            continue
        for link in result.fixed:
            print(f"fixed {path}: {describe_link(link)}", file=sys.stderr)
        for note in result.skipped:
            print(f"{path}: {note}", file=sys.stderr)
        repaired += len(result.fixed)
    return repaired
