"""The ``duplicate-package`` notes of a URDF or xacro reading: a package named by
``$(find pkg)`` or ``package://pkg`` that has more than one copy under the package roots
(:mod:`gzinertia.urdf.ros_packages` says which copy is taken).

Apart from :mod:`~gzinertia.urdf.ros_packages` because the notes are records (NumPy), which the
xacro expansion's helper process, that imports the package search, starts without.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from gzinertia.records import Note, SourceRef
from gzinertia.urdf.ros_packages import package_copies

__all__ = ["duplicate_package_notes"]

_USE = re.compile(r"\$\(find\s+([^\s)]+)\s*\)|package://([^/\s\"'<>]+)")


def duplicate_package_notes(
    files: Iterable[tuple[str, str]], package_paths: Sequence[str | Path] = ()
) -> list[Note]:
    """One ``duplicate-package`` warning per package that ``files`` (``(name, text)`` pairs:
    the file read and those it included) name by ``$(find pkg)`` or ``package://pkg`` and that
    has more than one copy under the package roots, at its first use: which copy was taken
    (:func:`~gzinertia.urdf.ros_packages.find_package`'s) and where the others are
    (``data``: ``package``, ``taken``, ``others`` separated by ``os.pathsep``)."""
    first: dict[str, SourceRef] = {}
    for name, text in files:
        for match in _USE.finditer(text):
            package = match.group(1) or match.group(2)
            if package not in first:
                first[package] = SourceRef(name, text.count("\n", 0, match.start()) + 1)
    notes = []
    for package, where in first.items():
        copies = package_copies(package, package_paths)
        if len(copies) < 2:
            continue
        taken, others = copies[0], copies[1:]
        shown = ", ".join(map(str, others[:3])) + (f" and {len(others) - 3} more"
                                                   if len(others) > 3 else "")
        notes.append(Note(
            "warning", "duplicate-package",
            f"package {package!r} is found {len(copies)} times: took {taken} (the first on "
            f"the package path, as ROS's ament index and rospack take it); also at {shown} "
            "(put the one you mean first: --package-path, AMENT_PREFIX_PATH order)",
            where, data={"package": package, "taken": str(taken),
                         "others": os.pathsep.join(map(str, others))},
        ))
    return notes
