"""One lock per machine around a step that installs or builds an oracle.

pytest-xdist runs the suite in several worker processes, and two sessions may run at once on
one machine: two of them compiling one oracle program, or running ``apt-get`` together (dpkg's
lock makes the second fail), must take turns. :func:`machine_lock` holds an exclusive
``fcntl.flock`` on a file in the oracles' cache folder for the time of its ``with`` block; the
kernel releases it when the process ends, so a crashed worker never leaves it held.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def cache_dir() -> Path:
    """Where compiled oracles and their locks are kept: ``$XDG_CACHE_HOME/gzinertia-oracles``,
    else ``<tempdir>/gzinertia-oracles``."""
    base = os.environ.get("XDG_CACHE_HOME")
    return Path(base) / "gzinertia-oracles" if base else (
        Path(tempfile.gettempdir()) / "gzinertia-oracles"
    )


@contextmanager
def machine_lock(name: str) -> Iterator[None]:
    """Holds the machine-wide lock ``name`` (a file ``<cache_dir>/name.lock``) in its block;
    without a cache folder that can be written, the block runs unlocked (as before)."""
    try:
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
