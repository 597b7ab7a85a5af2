"""The ``gzinertia`` command line: one module per command, all registered on one typer app.

A command's module is imported when that command runs (or when :data:`app` is asked for, e.g.
by ``gzinertia --help`` or a test: then every command's): typer turns a module's options into
click parameters, and a run of ``gzinertia show`` has no use for the other eight
(:data:`gzinertia.cli.app.COMMAND_MODULES`).
"""

import gc
import importlib
import os
from typing import TYPE_CHECKING, Any

# Before anything imports NumPy: the command line works on 3x3 and 6x6 matrices, where a
# multi-threaded BLAS only costs start-up (OpenBLAS starts a thread per core as NumPy loads,
# about 50 ms of a 0.25 s budget on a busy 2-core machine). A value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Reading a file builds a few dozen long-lived objects per link and no garbage cycles; with the
# default thresholds (700, 10, 10) the collector walks every live object again each time they
# grow by a quarter, 15 to 30 % of reading or auditing 10^5 links for nothing collected
# (benchmarks/bench_scaling.py --large). Cycles are still collected, less often. Set before the
# imports below, which build long-lived objects too.
gc.set_threshold(100_000, 50, 100)

from gzinertia.cli.app import main  # noqa: E402 (after the BLAS and collector settings)

if TYPE_CHECKING:
    from gzinertia.cli.app import app

# Importing the submodule bound its name here; ``app`` is the typer app (see __getattr__).
globals().pop("app", None)

__all__ = ["app", "main"]


#: Modules of the command line that a command's module reaches as ``gzinertia.cli.name``
#: (imported at their first use: ``--help`` loads none of them).
SUBMODULES = ("addmass_report", "audit_fix", "delivery")


def __getattr__(name: str) -> Any:
    """``app``: the typer app with every command registered (their modules imported); a module
    of :data:`SUBMODULES`, imported."""
    if name in SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from gzinertia.cli.app import app, register_commands

    register_commands()
    globals()["app"] = app
    return app
