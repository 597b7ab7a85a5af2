"""The ``gzinertia`` command line: one module per command, all registered on one typer app."""

from gzinertia.cli import addmass, audit, convert, hydro, plot, shift, show  # noqa: F401  (registers)
from gzinertia.cli.app import app, main

__all__ = ["app", "main"]
