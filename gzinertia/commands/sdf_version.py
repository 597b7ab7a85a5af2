"""SDF version checks for edits that write elements newer than a file's declared version."""

from __future__ import annotations

from gzinertia.edit.editor import XmlEditor
from gzinertia.errors import GzInertiaError

FLUID_ADDED_MASS_VERSION = (1, 10)


def version_tuple(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in version.strip().split("."))
    except ValueError:
        return (0,)


def check_version_for_added_mass(editor: XmlEditor, version: str, upgrade: bool) -> str | None:
    """A warning for a file older than SDF 1.10 (or, with ``upgrade``, sets ``version="1.10"``
    on ``<sdf>``). Files before 1.7 are refused an upgrade: their frame semantics differ."""
    if version_tuple(version) >= FLUID_ADDED_MASS_VERSION:
        return None
    if not upgrade:
        return (
            f"{editor.name}: declares SDF {version}, but <fluid_added_mass> is in the spec since "
            "1.10; simulators that read the file as an older version ignore it "
            "(pass --upgrade-version to declare 1.10)"
        )
    if version_tuple(version) < (1, 7):
        raise GzInertiaError(
            f"{editor.name}: declares SDF {version}; pose and joint frame semantics changed in "
            "1.7, so declaring 1.10 would move links: convert the file first "
            "(e.g. `gz sdf -p`), then add the added mass"
        )
    editor.set_attribute(editor.root, "version", "1.10")
    return None
