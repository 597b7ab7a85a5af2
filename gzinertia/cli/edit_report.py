"""What every editing command prints on stderr after its per-link lines: the links it left
alone (``skipped NAME: why``), its notes (``note: ...``) and its warnings (``warning: ...``),
in that order, from the :class:`~gzinertia.edit.edit_result.Edit` the library returned."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gzinertia.edit.edit_result import Edit

__all__ = ["report_outcome"]


def report_outcome(edit: Edit[Any]) -> None:
    """``edit``'s skipped links, notes and warnings, one line each, on stderr."""
    said = (("skipped ", edit.skipped), ("note: ", edit.notes), ("warning: ", edit.warnings))
    for prefix, lines in said:
        sys.stderr.writelines(f"{prefix}{line}\n" for line in lines)
