"""Oracle programs compiled once per machine (C++ with ``g++``, Fortran with ``gfortran``).

:func:`compiled_program` compiles a source file next to the oracles and caches the binary under
``$XDG_CACHE_HOME/gzinertia-oracles`` (else ``<tempdir>/gzinertia-oracles``), named by a hash of
the source and the compiler flags, by one process at a time (xdist's workers ask together);
``None`` when the compiler is missing or the compilation fails (the tests that need the
program then skip).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from oracles.machine_lock import cache_dir, machine_lock


def compiled_program(compiler: str, source: Path, flags: Sequence[str]) -> Path | None:
    """``source`` compiled by ``compiler`` with ``flags`` (cached), or ``None``."""
    found = shutil.which(compiler)
    if found is None or not source.is_file():
        return None
    digest = hashlib.sha256(source.read_bytes() + "\0".join(flags).encode()).hexdigest()
    binary = cache_dir() / f"{source.stem}-{digest[:16]}"
    with machine_lock(binary.name):  # one compilation, however many workers ask at once
        return _compile(found, source, flags, binary)


def _compile(compiler: str, source: Path, flags: Sequence[str], binary: Path) -> Path | None:
    """``source`` compiled into ``binary``, unless it is there already (compiled before, or
    by the process that held the lock before)."""
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    try:
        binary.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=binary.name + ".", dir=binary.parent)
        os.close(fd)
    except OSError:
        return None
    try:
        subprocess.run(
            [compiler, str(source), "-o", tmp_name, *flags],
            capture_output=True, text=True, check=True, timeout=300,
        )
        os.replace(tmp_name, binary)  # atomic: concurrent sessions never see half a binary
    except (subprocess.SubprocessError, OSError):
        Path(tmp_name).unlink(missing_ok=True)
        return None
    return binary
