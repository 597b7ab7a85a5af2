"""Which files an audit reads: ``PATH...`` → SDFormat files, in a deterministic order.

* A directory is searched recursively for :data:`SEARCHED_PATTERNS` (``*.sdf``, ``*.world``,
  ``*.urdf``, ``*.xacro``; ``model.sdf`` included); hidden directories (``.git``,
  ``.venv``...) are not entered (the default ``exclude``).
* Files that hold a model in a form the audit cannot read are listed as skipped, each with why
  and what to run instead, wherever they are found (in a folder or given by name): SDFormat
  templates that are not XML until rendered (``*.sdf.erb``, ``*.sdf.em``, ``*.sdf.in``,
  ``*.sdf.jinja``, ``*.sdf.jinja2``, ``*.sdf.j2``, ``*.sdf.xacro``, and the same for
  ``.world``) and URDF templates such as ``*.urdf.erb``. A tree that holds only those reports
  them all, never "no findings in 0 files".
* URDF and xacro files (``*.urdf``, ``*.xacro``, ``*.urdf.xacro``) are audited as Gazebo
  converts them (:mod:`gzinertia.urdf`); a xacro file that expands to no link (macros only)
  is reported skipped, with why, when it is read.
* Any other file given by name is audited whatever its suffix.
* A file found in a folder that is a symbolic link leading out of that folder (or dangling
  there) is listed as skipped, with why, and never read (nor written by ``audit --fix``): a
  pull request must not make the audit read, or fix, a file elsewhere on the machine. A link
  that stays in the folder is followed. A file named on the command line is read whatever
  links it goes through. Linked folders are not entered (as before).
* A path that does not exist is an error. ``-`` is standard input (:data:`STDIN_NAME`).
* Files and folders the ``exclude`` settings leave out (:mod:`gzinertia.audit.exclude`:
  hidden ones by default) are not searched; those a setting or ``--exclude`` leaves out are
  listed as skipped, naming the pattern and where it was written. A file named on the
  command line is audited whatever the patterns say, unless ``--force-exclude``.

Files keep the spelling they were given (directory argument joined with the relative path,
normalised: ``./a/b.sdf`` is ``a/b.sdf``);
each file is listed once (the first spelling of its resolved path wins). Files found under one
directory are sorted by their path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gzinertia.audit.exclude import Exclusion, skipped_message
from gzinertia.io.confined import within
from gzinertia.record_base import ValueRecord
from gzinertia.sdf.stdin_names import STDIN_ARG, STDIN_NAME
from gzinertia.shell import shell_quote
from gzinertia.vocabulary.model_suffixes import (
    URDF_SUFFIX,
    URDF_SUFFIXES,
    XACRO_SUFFIX,
    XACRO_SUFFIXES,
    is_xacro_path,
)

__all__ = [
    "OTHER_FORMATS",
    "SDF_SUFFIXES",
    "SEARCHED_PATTERNS",
    "TEMPLATE_SUFFIXES",
    "Target",
    "TargetState",
    "discover",
    "is_sdf_file",
    "other_format",
    "searched_patterns_text",
    "template_kind",
    "world_files",
]

SDF_SUFFIXES = (".sdf", ".world")
TEMPLATE_SUFFIXES = (".erb", ".em", ".in", ".jinja", ".jinja2", ".j2", *XACRO_SUFFIXES)
#: Model formats that are not SDFormat (checked after the SDF templates).
OTHER_FORMATS = (*URDF_SUFFIXES, *(URDF_SUFFIX + t for t in TEMPLATE_SUFFIXES))

#: URDF and xacro are read (as Gazebo converts them: gzinertia.urdf); a xacro that holds only
#: macros is reported skipped by the runner, with why.
URDF_READ = (*URDF_SUFFIXES, URDF_SUFFIX + XACRO_SUFFIX)

#: The model files a folder is searched for, as shell patterns (templates of them are found
#: too, and listed as skipped): what ``audit --help`` and the GitHub Action's ``paths`` say.
SEARCHED_PATTERNS: tuple[str, ...] = tuple(f"*{s}" for s in (*SDF_SUFFIXES, *URDF_SUFFIXES))


def searched_patterns_text() -> str:
    """``"*.sdf, *.world, *.urdf and *.xacro"``: :data:`SEARCHED_PATTERNS` in prose."""
    *rest, last = SEARCHED_PATTERNS
    return f"{', '.join(rest)} and {last}"

TargetState = Literal["audit", "skipped", "error"]


@dataclass(frozen=True, repr=False, eq=False)
class Target(ValueRecord):
    """A file to audit (``audit``), or one reported without reading it (``skipped``, ``error``)
    with the reason in ``message``; ``real`` is its path with symlinks resolved (``""`` for
    ``error`` and for a link leading out of its folder); ``tree``: the folder it was found in
    by walking, symlinks resolved (``""`` for a file named on the command line), which
    whatever is written for it stays in."""

    path: str
    state: TargetState
    message: str | None = None
    real: str = ""
    tree: str = ""


def template_kind(name: str) -> str | None:
    """``".sdf.erb"``-style suffix when ``name`` is an SDF template, else ``None``."""
    lower = name.lower()
    for sdf in SDF_SUFFIXES:
        for template in TEMPLATE_SUFFIXES:
            if lower.endswith(sdf + template):
                return sdf + template
    return None


def other_format(name: str) -> str | None:
    """``".urdf"``, ``".xacro"``, ``".urdf.erb"``... when ``name`` is a model in a format that
    is not SDFormat, else ``None``."""
    lower = name.lower()
    return next((s for s in sorted(OTHER_FORMATS, key=len, reverse=True) if lower.endswith(s)),
                None)


def is_sdf_file(name: str) -> bool:
    """Whether ``name`` ends in an SDFormat suffix (``.sdf``, ``.world``; case-insensitive)."""
    return name.lower().endswith(SDF_SUFFIXES)


def _skipped_template(path: str, kind: str) -> Target:
    if is_xacro_path(kind):
        expanded = f"model{kind[:-len(XACRO_SUFFIX)]}"
        how = f"expand it (xacro {shell_quote(path)} > {expanded}) and audit the result"
    else:
        how = ("render it (erb, empy, jinja2, CMake configure_file...) and audit the result")
    return Target(path, "skipped", f"{kind} template: not SDFormat XML until rendered; {how}")


def _skipped_other(path: str, kind: str) -> Target:
    if kind == URDF_SUFFIX:
        why = ("URDF, not SDFormat: gzinertia reads SDFormat only; convert it as Gazebo does "
               f"(gz sdf -p {shell_quote(path)} > model.sdf) and audit the result")
    elif is_xacro_path(kind):
        why = (f"xacro macros, not SDFormat: expand them (xacro {shell_quote(path)} > model.urdf),"
               " convert (gz sdf -p model.urdf > model.sdf) and audit the result")
    else:
        why = (f"{kind} template of a URDF, not SDFormat: render it, convert it (gz sdf -p "
               "model.urdf > model.sdf) and audit the result")
    return Target(path, "skipped", why)


def _classify(path: str) -> Target:
    """The target for a file: skipped (template, other format, with why) or to audit."""
    name = os.path.basename(path)
    kind = template_kind(name)
    if kind:
        return _skipped_template(path, kind)
    other = other_format(name)
    if other and other not in URDF_READ:
        return _skipped_other(path, other)
    return Target(path, "audit")


def _walk(root: str, exclusion: Exclusion) -> list[tuple[str, Target | None]]:
    """Every SDF, URDF or xacro file or template under ``root``, sorted, with ``None``, and each
    file or folder ``exclusion`` leaves out with its skipped target (those the defaults leave
    out, such as hidden folders, are not listed)."""
    found: list[tuple[str, Target | None]] = []

    def excluded(path: str, folder: bool) -> bool:
        pattern = exclusion.match(path, folder)
        if pattern is not None and pattern.origin:
            found.append((path, Target(path, "skipped", skipped_message(path, pattern, folder))))
        return pattern is not None

    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames if not excluded(os.path.normpath(os.path.join(dirpath, d)), True)
        )
        for name in filenames:
            if is_sdf_file(name) or template_kind(name) or other_format(name):
                path = os.path.normpath(os.path.join(dirpath, name))
                if not excluded(path, False):
                    found.append((path, None))
    return sorted(found, key=lambda item: Path(item[0]).as_posix())


def _leaving(path: str, given: str) -> Target:
    """A file found in the folder ``given`` whose links lead out of it: skipped, not read."""
    return Target(path, "skipped", f"a symbolic link to a file outside the folder audited "
                  f"({given}): not read; name it on the command line to audit it")


def discover(
    paths: Sequence[str], exclusion: Callable[[str], Exclusion] | None = None
) -> list[Target]:
    """The targets for ``paths`` (files or directories), in order, each file once. A link
    skipped because it leads out of the folder walked is audited in its place when it is also
    named on the command line. ``exclusion(path)``: what leaves files out under the given
    ``path`` (:mod:`gzinertia.audit.exclude`; default: hidden files and folders); what it
    leaves out is listed skipped, with why."""
    def excluding(given: str) -> Exclusion:
        return Exclusion.of(None) if exclusion is None else exclusion(given)

    targets: list[Target] = []
    seen: set[str] = set()
    leaving: dict[str, int] = {}  # skipped links, by absolute path: their index in targets

    def add(target: Target, tree: str = "", given: str = "") -> None:
        if target.state == "error" or target.path == STDIN_NAME:
            key = target.path
        else:
            key = os.path.realpath(target.path)
            if tree and not within(key, tree):  # a link out of the folder walked
                if key not in seen and os.path.abspath(target.path) not in leaving:
                    leaving[os.path.abspath(target.path)] = len(targets)
                    targets.append(_leaving(target.path, given))
                return
            target = Target(target.path, target.state, target.message, key, tree)
            named = None if tree else leaving.pop(os.path.abspath(target.path), None)
            if named is not None and key not in seen:  # named after all: audited there
                seen.add(key)
                targets[named] = target
                return
        if key in seen:
            return
        seen.add(key)
        targets.append(target)

    for given in paths:
        if given == STDIN_ARG:
            add(Target(STDIN_NAME, "audit"))
        elif os.path.isdir(given):
            tree = os.path.realpath(given)
            for path, skipped in _walk(given, excluding(given)):
                add(skipped or _classify(path), tree, given)
        elif os.path.exists(given):
            pattern = excluding(given).named(given)
            if pattern is not None:
                add(Target(given, "skipped", skipped_message(given, pattern, False)))
            else:
                add(_classify(given))
        else:
            add(Target(given, "error", f"{given}: no such file or directory"))
    return targets


def world_files(paths: Iterable[str]) -> list[str]:
    """Those of ``paths`` (files audited already) whose bytes hold a ``<world`` and gz-sim's
    Physics system's name: the worlds whose engine may change the run's target
    (:func:`gzinertia.gazebo.world_engine.world_targets` reads them), found without parsing."""
    found = []
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if b"<world" in data and b"physics-system" in data:
            found.append(path)
    return found
