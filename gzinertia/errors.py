"""Errors that reach the user as one line naming the file and line."""

from __future__ import annotations


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
