"""The ``gzinertia`` command line: one module per command, all registered on one typer app."""

import os

# Before anything imports NumPy: the command line works on 3x3 and 6x6 matrices, where a
# multi-threaded BLAS only costs start-up (OpenBLAS starts a thread per core as NumPy loads,
# about 50 ms of a 0.25 s budget on a busy 2-core machine). A value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from gzinertia.cli import addmass, audit, convert, fix, hydro, plot, shift, show  # noqa: F401
from gzinertia.cli.app import app, main

__all__ = ["app", "main"]
