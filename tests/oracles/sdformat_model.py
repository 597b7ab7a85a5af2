"""libsdformat's whole model (links with collisions, visuals, sensors and plugins; joints with
axes, limits and dynamics; model plugins) as an oracle for ``gzinertia expand --sdf``.

``sdformat_model_dump.cc`` (next to this file; its header gives the JSON format and frames)
loads each file with ``sdf::Root::Load``: a URDF file goes through libsdformat's own URDF→SDF
conversion, so dumping a URDF and the SDF gzinertia prints from it compares the two models
through libsdformat's own reading. Compiled once per machine as ``sdformat_dump`` is.
"""

from __future__ import annotations

import functools
import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from oracles.compiled import compiled_program
from oracles.sdformat_oracle import _pkg_config_flags

SOURCE = Path(__file__).resolve().parent / "sdformat_model_dump.cc"


@functools.cache
def build_sdformat_model_dump() -> Path | None:
    """The compiled ``sdformat_model_dump``, or ``None`` when it cannot be built."""
    flags = _pkg_config_flags()
    if flags is None:
        return None
    return compiled_program("g++", SOURCE, ["-std=c++17", "-O1", *flags])


def dump_models(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """libsdformat's model of each file in ``paths`` (one process; results in that order).
    Raises ``RuntimeError`` when the oracle cannot be built or fails."""
    binary = build_sdformat_model_dump()
    if binary is None:
        raise RuntimeError("cannot build sdformat_model_dump (needs g++, pkg-config, sdformat12)")
    if not paths:
        return []
    proc = subprocess.run([str(binary), *(str(p.resolve()) for p in paths)],
                          capture_output=True, text=True, timeout=900, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or len(lines) != len(paths):
        raise RuntimeError(f"sdformat_model_dump failed (exit {proc.returncode}): "
                           f"{proc.stderr[-2000:]}")
    return [json.loads(line) for line in lines]
