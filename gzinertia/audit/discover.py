"""Which files an audit reads: ``PATH...`` → SDFormat files, in a deterministic order.

* A directory is searched recursively for ``*.sdf`` and ``*.world`` files (``model.sdf``
  included); hidden directories (``.git``, ``.venv``...) are not entered. Templates that are not
  XML until rendered (``*.sdf.erb``, ``*.sdf.em``, ``*.sdf.in``, and the same for ``.world``)
  are listed as skipped.
* A file given by name is audited whatever its suffix, except templates (skipped).
* A path that does not exist is an error.

Files keep the spelling they were given (directory argument joined with the relative path,
normalised: ``./a/b.sdf`` is ``a/b.sdf``);
each file is listed once (the first spelling of its resolved path wins). Files found under one
directory are sorted by their path.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

SDF_SUFFIXES = (".sdf", ".world")
TEMPLATE_SUFFIXES = (".erb", ".em", ".in")

TargetState = Literal["audit", "skipped", "error"]


@dataclass(frozen=True)
class Target:
    """A file to audit (``audit``), or one reported without reading it (``skipped``, ``error``)
    with the reason in ``message``; ``real`` is its path with symlinks resolved (``""`` for
    ``error``)."""

    path: str
    state: TargetState
    message: str | None = None
    real: str = ""


def template_kind(name: str) -> str | None:
    """``".sdf.erb"``-style suffix when ``name`` is an SDF template, else ``None``."""
    lower = name.lower()
    for sdf in SDF_SUFFIXES:
        for template in TEMPLATE_SUFFIXES:
            if lower.endswith(sdf + template):
                return sdf + template
    return None


def is_sdf_file(name: str) -> bool:
    return name.lower().endswith(SDF_SUFFIXES)


def _skipped_template(path: str, kind: str) -> Target:
    return Target(
        path,
        "skipped",
        f"{kind} template: not XML until rendered (render it, e.g. with erb/empy/CMake "
        "configure_file, and audit the result)",
    )


def _walk(root: str) -> list[str]:
    """Every SDF file or template under ``root``, sorted, hidden directories left out."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if is_sdf_file(name) or template_kind(name):
                found.append(os.path.normpath(os.path.join(dirpath, name)))
    return sorted(found, key=lambda p: Path(p).as_posix())


def discover(paths: Sequence[str]) -> list[Target]:
    """The targets for ``paths`` (files or directories), in order, each file once."""
    targets: list[Target] = []
    seen: set[str] = set()

    def add(target: Target) -> None:
        if target.state == "error":
            key = target.path
        else:
            key = os.path.realpath(target.path)
            target = replace(target, real=key)
        if key in seen:
            return
        seen.add(key)
        targets.append(target)

    for given in paths:
        if os.path.isdir(given):
            for path in _walk(given):
                kind = template_kind(os.path.basename(path))
                add(_skipped_template(path, kind) if kind else Target(path, "audit"))
        elif os.path.exists(given):
            kind = template_kind(os.path.basename(given))
            add(_skipped_template(given, kind) if kind else Target(given, "audit"))
        else:
            add(Target(given, "error", f"{given}: no such file or directory"))
    return targets
