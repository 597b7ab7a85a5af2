"""libsdformat itself (C++, ``sdformat12``) as an oracle for link poses and rigid inertials.

``sdformat_dump.cc`` (next to this file) loads SDFormat files with ``sdf::Root::Load`` and
prints, per file, its errors and every link: scoped name, ``X_WB``, mass, ``X_BI`` and the
rotational inertia about Bcm in I axes (see the header of the ``.cc`` file for the exact
format and frames). :func:`build_sdformat_dump` compiles it once (``g++`` and
``pkg-config sdformat12``; the binary is cached by a hash of the source and the compiler
flags); :func:`read_with_sdformat` runs it on many files in one process, and
:func:`read_batches_with_sdformat` on batches of files with different model paths.

Debian bookworm's libsdformat is 12.3: it knows the SDFormat spec up to 1.9. Files declaring a
newer version load with a console error ("Unable to convert from SDF version 1.11 to 1.9") that
is *not* in the returned errors, and elements new in 1.10+ (``<fluid_added_mass>``,
``<inertial auto>``, ...) are unknown to it; callers must decide what is comparable.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from oracles.compiled import compiled_program

SOURCE = Path(__file__).resolve().parent / "sdformat_dump.cc"
PKG = "sdformat12"
#: The model path variables ``sdformat_dump`` reads (its ``model://`` search path, in order,
#: after the model paths it is given).
MODEL_PATH_VARIABLES = ("SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH")


class SdformatError(TypedDict):
    """One ``sdf::Error``: code (``sdf::ErrorCode`` as int), message, where (when known)."""

    code: int
    message: str
    file: str | None
    line: int | None


class SdformatVisual(TypedDict):
    """One ``<visual>``: its name and ``X_BV``, its pose in the link frame (4x4, row-major)."""

    name: str
    X_BV: list[float | None]


class SdformatLink(TypedDict):
    """One link as libsdformat loads it.

    ``X_WB`` and ``X_BI`` are 4x4 homogeneous matrices, row-major (16 numbers): the link frame
    in the root frame W, and the inertial frame I (origin Bcm) in the link frame B. ``I`` is the
    rotational inertia about Bcm in I axes, ``[ixx, iyy, izz, ixy, ixz, iyz]`` (tensor entries).
    ``visuals``: each ``<visual>`` with its pose in the link frame, ``relative_to`` resolved.
    Non-finite numbers come back as ``None``.
    """

    name: str
    X_WB: list[float | None]
    mass: float | None
    X_BI: list[float | None]
    I: list[float | None]
    visuals: list[SdformatVisual]


class SdformatFile(TypedDict):
    """What libsdformat made of one file (``root`` is ``"world"``, ``"model"`` or ``"none"``)."""

    file: str
    errors: list[SdformatError]
    root: str
    links: list[SdformatLink]


def _pkg_config_flags() -> list[str] | None:
    pkg_config = shutil.which("pkg-config")
    if pkg_config is None:
        return None
    try:
        out = subprocess.run(
            [pkg_config, "--cflags", "--libs", PKG],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout
    except (subprocess.SubprocessError, OSError):
        return None
    return out.split()


@functools.cache
def build_sdformat_dump() -> Path | None:
    """The compiled ``sdformat_dump`` program, or ``None`` when it cannot be built.

    ``None`` when ``g++`` or ``pkg-config`` is missing, ``pkg-config`` does not know
    ``sdformat12``, or the compilation fails. The binary is cached under
    ``$XDG_CACHE_HOME/gzinertia-oracles`` (else ``<tempdir>/gzinertia-oracles``), named by a
    hash of the source and the compiler flags, so it is compiled once per machine; the result
    is memoised for the session.
    """
    flags = _pkg_config_flags()
    if flags is None:
        return None
    return compiled_program("g++", SOURCE, ["-std=c++17", "-O1", *flags])


def read_with_sdformat(
    paths: Sequence[Path | str], model_paths: Sequence[Path | str] = ()
) -> list[SdformatFile]:
    """libsdformat's reading of every file in ``paths`` (one process; results in that order).

    ``model://`` includes are searched in ``model_paths`` first, then in the directories of
    ``SDF_PATH``, ``GZ_SIM_RESOURCE_PATH`` and ``IGN_GAZEBO_RESOURCE_PATH`` as set in the
    environment. Raises ``RuntimeError`` when the oracle cannot be built or the program fails
    (not when a file has errors: those are in ``errors``).
    """
    [results] = read_batches_with_sdformat([(paths, model_paths)])
    return results


def read_batches_with_sdformat(
    batches: Sequence[tuple[Sequence[Path | str], Sequence[Path | str]]],
) -> list[list[SdformatFile]]:
    """:func:`read_with_sdformat` for several ``(paths, model_paths)`` batches, all in one
    process (starting one costs about as much as reading a small file); one list per batch."""
    binary = build_sdformat_dump()
    if binary is None:
        raise RuntimeError(f"cannot build sdformat_dump (needs g++, pkg-config and {PKG})")
    args: list[str] = []
    for paths, model_paths in batches:
        args.append("--model-path=" + os.pathsep.join(str(Path(p).resolve()) for p in model_paths))
        args += [f"./{p}" if str(p).startswith("-") else str(p) for p in paths]
    expected = sum(len(paths) for paths, _ in batches)
    if expected == 0:
        return [[] for _ in batches]
    proc = subprocess.run(
        [str(binary), *args], capture_output=True, text=True, timeout=900, check=False
    )
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or len(lines) != expected:
        raise RuntimeError(
            f"sdformat_dump failed (exit {proc.returncode}, {len(lines)} of {expected} "
            f"results): {proc.stderr[-2000:]}"
        )
    results: list[SdformatFile] = [json.loads(line) for line in lines]
    out: list[list[SdformatFile]] = []
    for paths, _ in batches:
        out.append(results[: len(paths)])
        results = results[len(paths) :]
    return out
