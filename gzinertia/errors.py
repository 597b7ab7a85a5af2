"""Errors that reach the user as one line naming the file and line."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gzinertia.dependency import Dependency

__all__ = ["Float64OverflowError", "GzInertiaError", "MacrosOnlyError", "SdfError"]


class GzInertiaError(Exception):
    """Base class of every error the CLI reports without a traceback (exit status 2)."""


class SdfError(GzInertiaError):
    """A file that cannot be read as SDFormat: ``file:line: message``."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


class Float64OverflowError(ValueError, OverflowError):
    """A computation whose result does not fit in float64 (inf or NaN where a number belongs).

    Raised by the numeric core, which knows no file: commands turn it into a
    :class:`GzInertiaError` naming the file, line and link, before anything is written. It is a
    ``ValueError`` too, as the numeric functions' other refusals are."""


class MacrosOnlyError(SdfError):
    """A xacro file that expands to no ``<link>``: a library of macros, not a robot (the audit
    lists it as skipped, not as an error). ``dependencies``: what its expansion read
    (:class:`~gzinertia.dependency.Dependency` records), for the audit's cache."""

    def __init__(self, file: str, line: int | None, message: str,
                 dependencies: tuple[Dependency, ...] = ()) -> None:
        super().__init__(file, line, message)
        self.dependencies = dependencies
