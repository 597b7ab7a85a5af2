"""SDF version of files that an edit gives ``<fluid_added_mass>`` (an SDFormat 1.10 element).

By default the edit declares ``<sdf version="1.10">`` when the file's content means the same
under 1.10 as under its declared version, and refuses (naming the construct and its line) when
it does not. What "means the same" is taken from libsdformat's own conversion rules
(``sdf/1.5/1_4.convert`` ... ``sdf/1.8/1_7.convert``: the only changes libsdformat applies to
an older file before reading it): a file using none of the constructs they touch reads the same
once declared 1.10. ``keep`` (``--keep-version``) writes under the old version with a warning
(the audit's GZI201 then says what that costs).
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from gzinertia.edit.editor import XmlEditor
from gzinertia.errors import GzInertiaError
from gzinertia.options import option
from gzinertia.sdf.xml import child, line_of
from gzinertia.vocabulary.sdf_version import FLUID_ADDED_MASS_VERSION, SdfVersion

__all__ = [
    "FLUID_ADDED_MASS_VERSION",
    "OLDEST_UPGRADABLE",
    "check_version_for_added_mass",
    "meaning_changes",
    "version_tuple",
]

#: Below this the pose syntax itself differs (``<origin pose=...>``): never upgraded.
OLDEST_UPGRADABLE = (1, 4)


def version_tuple(version: str) -> tuple[int, ...]:
    """``"1.10"`` as ``(1, 10)``; ``(0,)`` when
    :class:`~gzinertia.vocabulary.sdf_version.SdfVersion` finds it unreadable (older than any,
    as an edit takes it: :func:`meaning_changes`' input)."""
    return SdfVersion(version).numbers or (0,)


def _local(elem: etree._Element) -> str:
    return str(elem.tag).rsplit("}", 1)[-1] if isinstance(elem.tag, str) else ""


def _elements(root: etree._Element, name: str) -> Iterator[etree._Element]:
    return (e for e in root.iter(etree.Element) if _local(e) == name)


def meaning_changes(root: etree._Element, version: tuple[int, ...]) -> list[tuple[int, str]]:
    """``(line, what)`` for each construct of a file declared ``version`` whose meaning
    libsdformat's conversion to 1.10 would change (empty: declaring 1.10 changes nothing)."""
    found: list[tuple[int, str]] = []
    if version < (1, 5):  # 1_4.convert: 1.4 joint axes are expressed in the model frame
        for joint in _elements(root, "joint"):
            for name in ("axis", "axis2"):
                axis = child(joint, name)
                if axis is not None:
                    found.append((line_of(axis), f"<{name}> of a 1.4 joint (model-frame axis)"))
    if version < (1, 6):  # 1_5.convert: gravity and magnetic field left <physics>
        for physics in _elements(root, "physics"):
            for name in ("gravity", "magnetic_field"):
                if child(physics, name) is not None:
                    found.append((line_of(physics), f"<physics><{name}> (moved in 1.6)"))
    if version < (1, 7):  # 1_6.convert: //pose/@frame, use_parent_model_frame
        for pose in _elements(root, "pose"):
            if pose.get("frame"):
                found.append((line_of(pose), "<pose frame=...> (became relative_to in 1.7)"))
        for elem in _elements(root, "use_parent_model_frame"):
            found.append((line_of(elem), "<use_parent_model_frame> (removed in 1.7)"))
        for elem in _elements(root, "frame"):
            found.append((line_of(elem), "<frame> (its semantics changed in 1.7)"))
    if version < (1, 8):  # 1_7.convert: flattened world models, <inertial><pose relative_to>
        for inertial in _elements(root, "inertial"):
            inertial_pose = child(inertial, "pose")
            if inertial_pose is not None and (inertial_pose.get("relative_to") or "").strip():
                found.append(
                    (line_of(inertial_pose), "<inertial><pose relative_to> (ignored since 1.8)")
                )
        for model in _elements(root, "model"):
            if "::" in (model.get("name") or ""):
                found.append((line_of(model), "a model name with '::' (unflattened in 1.8)"))
    return sorted(found)


def check_version_for_added_mass(editor: XmlEditor, version: str, keep: bool) -> str | None:
    """Declares SDF 1.10 on ``<sdf>`` of a file older than 1.10 when that changes nothing else
    (returns a note saying so), refuses when it would; with ``keep``, leaves the version and
    returns a warning. ``None`` for files already at 1.10 or newer."""
    declared = SdfVersion(version)
    if declared.known_at_least(FLUID_ADDED_MASS_VERSION):
        return None
    if keep:
        return (
            f"{editor.name}: declares SDF {version}, but <fluid_added_mass> is in the spec since "
            "1.10; libsdformat before 13 and tools that follow the declared version ignore it "
            f"(the audit reports GZI201; drop {option('keep_version')} to declare 1.10)"
        )
    root_line = line_of(editor.root)
    if not declared.known_at_least(OLDEST_UPGRADABLE):
        raise GzInertiaError(
            f"{editor.name}:{root_line}: declares SDF {version}; <fluid_added_mass> is SDF 1.10 "
            "and a file this old cannot just be declared 1.10: convert it first (`gz sdf -p`), "
            f"or pass {option('keep_version')} to write the element anyway"
        )
    changes = meaning_changes(editor.root, declared.read_as)
    if changes:
        line, what = changes[0]
        more = f" (and {len(changes) - 1} more)" if len(changes) > 1 else ""
        raise GzInertiaError(
            f"{editor.name}:{line}: declares SDF {version} and uses {what}{more}, whose meaning "
            "differs in SDF 1.10, the version <fluid_added_mass> needs: convert the file first "
            f"(`gz sdf -p`), or pass {option('keep_version')} to write the element under "
            f"SDF {version} (libsdformat before 13 ignores it)"
        )
    editor.set_attribute(editor.root, "version", "1.10")
    return (
        f"{editor.name}: declared SDF 1.10 (was {version}), the version <fluid_added_mass> needs; "
        f"nothing in the file means something else under 1.10 (libsdformat's conversion rules "
        f"from {version}); pass {option('keep_version')} to keep {version}"
    )
