"""Which URDF and xacro files are fragments: parts of a robot that only another file makes whole.

Description repositories hold, beside their robots, files that are never expanded on their own
(uuv_simulator's ``rexrov_actuators.xacro``, VRX's ``thruster_layouts/*.xacro``, every
``*_macro.xacro``). Read alone they give no robot, or fail (a property, macro or link of the
including file is missing). A file is a fragment when, read without expanding it
(:func:`outline`):

* its root's elements are only ``xacro:macro``, ``xacro:property`` and ``xacro:arg``
  definitions (:data:`DEFINITIONS`): a macro library, which expands to nothing
  (:func:`static_reason`). With ``xacro:include``s besides, what it includes may still hold a
  robot: it is a fragment when its expansion gives none or fails
  (:func:`only_definitions_and_includes`);
* it is a xacro ``<robot>`` without a ``name``: urdfdom loads no robot without one, and
  ``xacro:include`` keeps only the included root's children, so the file is only ever included
  (:func:`static_reason`);
* another audited xacro file includes it (:class:`Includers`) and it cannot be read alone.

Anything else that cannot be read is broken, not a fragment: a robot file (named, with links
or joints outside macro definitions) that nothing includes is what a user launches.

Include file names are resolved as far as they can be without expanding
(:func:`include_patterns`): ``$(find pkg)`` through the package paths, a relative name
against the including file's folder, ``$(arg name)`` as the file's ``xacro:arg`` default and
as any text, ``$(optenv NAME default)`` as its default and as any text, ``${...}``,
``$(env)``, ``$(eval)`` as any text. A pattern whose file name is nothing but such text
(``$(arg urdf_extras)``) names no file: it would claim every file in its folder.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gzinertia.errors import GzInertiaError, MacrosOnlyError
from gzinertia.record_base import Record
from gzinertia.sdf.xml import line_of, parse_xml_file
from gzinertia.urdf.ros_packages import find_package
from gzinertia.vocabulary.model_suffixes import is_urdf_path, is_xacro_path

__all__ = [
    "DEFINITIONS",
    "MAX_GLOBS_PER_FOLDER",
    "Includers",
    "Outline",
    "include_patterns",
    "only_definitions_and_includes",
    "outline",
    "refuse_fragment",
    "static_reason",
]

#: The xacro elements that define without emitting anything.
DEFINITIONS = frozenset({"macro", "property", "arg"})
_INCLUDE = "include"
#: ``$(...)`` and ``${...}`` substitutions (not nested: a nested one is any text as a whole).
_SUBSTITUTION = re.compile(r"\$\((\w+)\s*([^()]*)\)|\$\{[^{}]*\}")


@dataclass(frozen=True, repr=False, eq=False)
class Outline(Record):
    """What a URDF or xacro file's root holds, read without expanding it: its tag, whether it
    has a ``name``, whether its elements are only xacro definitions and includes, its top-level
    ``xacro:arg`` defaults, and the ``filename`` of each ``xacro:include`` (anywhere in it, in
    document order), with the line of the root."""

    root: str
    named: bool
    definitions: bool
    includes: tuple[str, ...]
    arg_defaults: Mapping[str, str]
    line: int


def _xacro_name(elem: object) -> str | None:
    """``"macro"`` for ``<xacro:macro>`` (by prefix, as xacro matches them), else ``None``."""
    tag = getattr(elem, "tag", None)
    if not isinstance(tag, str):
        return None
    prefix = getattr(elem, "prefix", None)
    local = tag.rsplit("}", 1)[-1]
    return local if prefix == "xacro" else None


def outline(path: str | Path) -> Outline | None:
    """The outline of the file ``path``; ``None`` when it cannot be read or parsed (its
    reader then says why)."""
    try:
        root = parse_xml_file(path)
    except GzInertiaError:
        return None
    kinds = [_xacro_name(e) for e in root if isinstance(e.tag, str)]
    defaults = {
        str(e.get("name")): str(e.get("default"))
        for e in root if _xacro_name(e) == "arg" and e.get("name") and e.get("default") is not None
    }
    includes = tuple(str(e.get("filename")) for e in root.iter()
                     if _xacro_name(e) == _INCLUDE and e.get("filename"))
    return Outline(
        root=str(root.tag), named=bool((root.get("name") or "").strip()),
        definitions=all(k in DEFINITIONS or k == _INCLUDE for k in kinds),
        includes=includes, arg_defaults=defaults, line=line_of(root),
    )


def static_reason(shape: Outline) -> str | None:
    """Why a xacro file with this outline is a fragment whatever its expansion would give, or
    ``None``: a macro library without includes, or a ``<robot>`` without a name."""
    if shape.root == "robot" and shape.definitions and not shape.includes:
        return "xacro macros only (macro, property and argument definitions: no link or joint)"
    if shape.root == "robot" and not shape.named:
        return ("a xacro <robot> without a name (only ever included: urdfdom loads no robot "
                "without one)")
    return None


def only_definitions_and_includes(shape: Outline) -> str | None:
    """Why a xacro file whose expansion failed or gave no link is a fragment when its root
    holds only definitions and includes, else ``None``."""
    if shape.root == "robot" and shape.definitions:
        return "xacro macros and includes only (no link or joint of its own)"
    return None


def refuse_fragment(path: str | Path, verb: str = "edit") -> None:
    """Raises :class:`~gzinertia.errors.MacrosOnlyError` when the xacro file ``path`` is a
    fragment an edit has nothing to change in (macro definitions and includes only, or a
    nameless ``<robot>``): ``verb`` (``"fix"``...) says what the command does."""
    if not is_xacro_path(path):
        return
    shape = outline(path)
    if shape is None:
        return
    why = static_reason(shape) or only_definitions_and_includes(shape)
    if why is not None:
        raise MacrosOnlyError(
            str(path), shape.line,
            f"{why}: nothing to {verb} here, {verb} it where it is used (run the command on "
            "the robot file that includes it)",
        )


def _substituted(name: str, shape: Outline, exact: bool) -> str | None:
    """``name`` with its substitutions replaced: by defaults where ``exact`` and known (else
    ``None``), or all by ``*``."""
    def one(match: re.Match[str]) -> str:
        verb, rest = match.group(1), (match.group(2) or "").split()
        if exact and verb == "arg" and rest and rest[0] in shape.arg_defaults:
            return shape.arg_defaults[rest[0]]
        if exact and verb == "optenv" and len(rest) > 1:
            return " ".join(rest[1:])
        if exact:
            raise LookupError
        return "*"

    try:
        for _ in range(4):  # a default may hold a substitution itself ($(optenv) in an arg)
            replaced = _SUBSTITUTION.sub(one, name)
            if replaced == name:
                break
            name = replaced
    except LookupError:
        return None
    return None if "$(" in name or "${" in name else name


def include_patterns(
    path: str, shape: Outline, package_paths: Sequence[str | Path] = ()
) -> list[str]:
    """Absolute ``fnmatch`` patterns of the files the xacro file ``path`` (outline ``shape``)
    includes, as far as they resolve without expanding it (module docstring)."""
    folder = os.path.dirname(os.path.abspath(path))
    out: list[str] = []
    for raw in shape.includes:
        finds = re.findall(r"\$\(find\s+([^()\s]+)\s*\)", raw)
        rest = raw
        for package in finds:
            found = find_package(package, package_paths)
            if found is None:
                rest = ""
                break
            call = re.search(r"\$\(find\s+" + re.escape(package) + r"\s*\)", rest)
            if call is not None:  # spliced, not substituted: the folder's text is taken as is
                rest = rest[:call.start()] + str(found) + rest[call.end():]
        rest = rest.replace("$(dirname)", folder)
        if not rest:
            continue
        for exact in (True, False):
            name = _substituted(rest, shape, exact)
            if name is None:
                continue
            base = os.path.basename(name)
            if not base.replace("*", "").strip(".").lower() or base.startswith("*."):
                continue  # the whole file name is a substitution: it names no file
            out.append(os.path.normpath(os.path.join(folder, name)))
    return list(dict.fromkeys(out))


#: Most wildcard include patterns kept per folder (and for patterns whose folder holds a
#: wildcard): asking which file includes another stays linear in the files audited. Beyond
#: them a file is not recognised as included, so it stays unreadable: never silent.
MAX_GLOBS_PER_FOLDER = 256


class Includers:
    """Which audited xacro file includes a file (:func:`include_patterns`): built from the
    audited files once, when first asked, then asked per file (a dictionary look-up, and at
    most :data:`MAX_GLOBS_PER_FOLDER` wildcard patterns of its folder matched)."""

    def __init__(self, paths: Sequence[str], package_paths: Sequence[str | Path] = ()) -> None:
        self._paths = [p for p in paths if is_xacro_path(p)]
        self._package_paths = tuple(package_paths)
        self._exact: dict[str, str] | None = None
        #: wildcard patterns by their folder ("" for a folder that holds a wildcard)
        self._globs: dict[str, list[tuple[str, str]]] = {}

    def _index(self) -> dict[str, str]:
        if self._exact is None:
            self._exact = {}
            for path in self._paths:
                shape = outline(path)
                if shape is None:
                    continue
                for pattern in include_patterns(path, shape, self._package_paths):
                    if not _wild(pattern):
                        self._exact.setdefault(pattern, path)
                        continue
                    folder = os.path.dirname(pattern)
                    bucket = self._globs.setdefault("" if _wild(folder) else folder, [])
                    if len(bucket) < MAX_GLOBS_PER_FOLDER:
                        bucket.append((pattern, path))
        return self._exact

    def of(self, path: str) -> str | None:
        """The first audited file that includes ``path`` (other than itself), or ``None``."""
        if not is_urdf_path(path):
            return None
        exact = self._index()
        real = os.path.realpath(path)
        names = dict.fromkeys((os.path.normpath(os.path.abspath(path)), real))
        for name in names:
            found = exact.get(name)
            if found is not None and os.path.realpath(found) != real:
                return found
        for name in names:
            for pattern, includer in (*self._globs.get(os.path.dirname(name), ()),
                                      *self._globs.get("", ())):
                if os.path.realpath(includer) != real and fnmatch.fnmatchcase(name, pattern):
                    return includer
        return None


def _wild(text: str) -> bool:
    return any(c in text for c in "*?[")
