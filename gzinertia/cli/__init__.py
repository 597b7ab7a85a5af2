"""The ``gzinertia`` command line: one module per command, all registered on one typer app."""

import gc
import os

# Before anything imports NumPy: the command line works on 3x3 and 6x6 matrices, where a
# multi-threaded BLAS only costs start-up (OpenBLAS starts a thread per core as NumPy loads,
# about 50 ms of a 0.25 s budget on a busy 2-core machine). A value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from gzinertia.cli import (  # noqa: F401 (importing registers the commands)
    addmass,
    audit,
    convert,
    fix,
    hydro,
    hydrostatics,
    plot,
    shift,
    show,
)
from gzinertia.cli.app import app, main

# Reading a file builds a few dozen long-lived objects per link and no garbage cycles; with the
# default thresholds (700, 10, 10) the collector walks every live object again each time they
# grow by a quarter, 15 to 30 % of reading or auditing 10^5 links for nothing collected
# (benchmarks/bench_scaling.py --large). Cycles are still collected, less often.
gc.set_threshold(100_000, 50, 100)

__all__ = ["app", "main"]
