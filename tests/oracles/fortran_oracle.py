"""A Fortran list-directed ``READ`` (gfortran) as the oracle for WAMIT ``.1`` numbers.

``fortran_read.f90`` (next to this file) reads each line it is given as OpenFAST's HydroDyn
reads a line of a ``.1`` file (``READ (Line,*) TmpPer, I, J, TmpData1``) and prints the four
values (17 significant digits) or ``error``. :func:`read_with_fortran` runs it on many lines in
one process; ``None`` when ``gfortran`` is missing (the test then skips).
"""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Sequence
from pathlib import Path

from oracles.compiled import compiled_program

SOURCE = Path(__file__).resolve().parent / "fortran_read.f90"


@functools.cache
def build_fortran_read() -> Path | None:
    """The compiled ``fortran_read`` program, or ``None`` (no ``gfortran``, or it failed)."""
    return compiled_program("gfortran", SOURCE, ["-O1"])


def read_with_fortran(lines: Sequence[str]) -> list[tuple[float, int, int, float] | None] | None:
    """``(PER, I, J, A)`` as a Fortran list-directed read takes each line, ``None`` for a line
    it refuses; ``None`` altogether without ``gfortran``."""
    program = build_fortran_read()
    if program is None:
        return None
    out = subprocess.run(
        [str(program)], input="".join(line + "\n" for line in lines),
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.splitlines()
    assert len(out) == len(lines), out
    read: list[tuple[float, int, int, float] | None] = []
    for text in out:
        if text.strip() == "error":
            read.append(None)
        else:
            per, i, j, a = text.split()
            read.append((float(per), int(i), int(j), float(a)))
    return read
