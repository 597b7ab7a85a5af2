"""Finding a link's elements in an :class:`~gzinertia.edit.editor.XmlEditor` and writing its
``<fluid_added_mass>``: the only element an added-mass edit touches (plus, directly before it, a
one-line ``<!-- gzinertia ... -->`` comment saying how the values were obtained).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from lxml import etree

from gzinertia.edit.editor import XmlEditor
from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.numbers import MAX_MAGNITUDE
from gzinertia.physics.negligible import RELATIVE_ZERO, entry_scales
from gzinertia.records import HydroPlugin, LinkRecord
from gzinertia.sdf.fluid_added_mass import SDF_AXES, SDF_TAGS, values_of
from gzinertia.sdf.xml import child, line_of
from gzinertia.spatial.added_mass import WRITTEN_DIGITS as SIGNIFICANT_DIGITS
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.scoped_names import leaf_name

__all__ = [
    "NonFiniteValueError",
    "NotEditableError",
    "ascii_comment",
    "fluid_added_mass_lines",
    "format_value",
    "inertial_element",
    "link_element",
    "plugin_element",
    "refuse_unwritable",
    "remove_fluid_added_mass",
    "require_finite",
    "same_file",
    "write_fluid_added_mass",
]


class NotEditableError(SdfError):
    """A link whose added mass cannot be written as things stand (no ``<inertial>``, or one
    libsdformat recomputes)."""


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether ``a`` and ``b`` resolve to the same file."""
    return Path(a).resolve() == Path(b).resolve()


def link_element(editor: XmlEditor, link: LinkRecord) -> etree._Element:
    """The ``<link>`` element of ``link`` in the editor's file (by line and name)."""
    short = leaf_name(link.name)
    elem = editor.find("link", link.source.line, "name", short)
    if elem is not None:
        return elem
    raise SdfError(editor.name, link.source.line, f"cannot find <link name={short!r}> to edit")


def plugin_element(editor: XmlEditor, plugin: HydroPlugin) -> etree._Element:
    """The ``<plugin>`` element of a Hydrodynamics plugin record (by line and file name)."""
    elem = editor.find("plugin", plugin.source.line, "filename", plugin.filename)
    if elem is not None:
        return elem
    raise SdfError(editor.name, plugin.source.line, "cannot find the Hydrodynamics <plugin>")


class NonFiniteValueError(GzInertiaError):
    """A value to write that is not a finite number (a computation overflowed): nothing is
    written, whatever the other values are."""


def format_value(x: float, scale: float) -> str:
    """Ten significant digits; round-off below ``RELATIVE_ZERO·scale`` written as 0 (``scale``
    in the value's own unit: :func:`gzinertia.physics.negligible.entry_scales`). ``x`` and ``scale``
    must be finite (:class:`NonFiniteValueError` otherwise: an infinite scale would write every
    entry as 0)."""
    if not (math.isfinite(x) and math.isfinite(scale)):
        raise NonFiniteValueError(
            f"cannot write {x!r} (scale {scale!r}): a computation overflowed float64; "
            "nothing written"
        )
    if abs(x) <= RELATIVE_ZERO * scale or x == 0.0:
        return "0"
    return f"{x:.{SIGNIFICANT_DIGITS}g}"


def fluid_added_mass_lines(A_BBo_B: AddedMass, comment: str, indent_unit: str) -> list[str]:
    """The element's lines (all 21 entries, spec order) preceded by the provenance comment.

    ``A_BBo_B`` must be about the link origin in link axes, as the spec says (a ValueError
    otherwise); its symmetric part is written, linear-first ``[x y z p q r]``.

    Round-off is written as 0, judged within units (kg, kg·m, kg·m²) by
    :func:`gzinertia.physics.negligible.entry_scales`, never by comparing kg·m² with kg."""
    if (A_BBo_B.point, A_BBo_B.axes) != ("Bo", "B"):
        raise ValueError("<fluid_added_mass> is about the link origin in link axes (A_BBo_B)")
    values = values_of(A_BBo_B)
    scales = entry_scales(A_BBo_B.symmetric().linear_first())
    scale = {t: float(scales[SDF_AXES.index(t[0]), SDF_AXES.index(t[1])]) for t in SDF_TAGS}
    if "--" in comment:
        raise ValueError("an XML comment cannot contain '--'")
    lines = [f"<!-- {comment} -->", "<fluid_added_mass>"]
    lines += [f"{indent_unit}<{t}>{format_value(values[t], scale[t])}</{t}>" for t in SDF_TAGS]
    return [*lines, "</fluid_added_mass>"]


def ascii_comment(text: str) -> str:
    """``text`` made safe for an XML comment in any ASCII-compatible encoding: superscripts
    spelled out, other non-ASCII characters replaced, no ``--``."""
    text = text.replace("\u00b2", "^2").replace("\u00b3", "^3").replace("\u00d7", "x")
    text = text.encode("ascii", errors="replace").decode("ascii")
    while "--" in text:
        text = text.replace("--", "-")
    return text


def inertial_element(editor: XmlEditor, link_elem: etree._Element) -> etree._Element:
    """The link's ``<inertial>``, refusing the cases where added mass would be lost or odd."""
    inertial = child(link_elem, "inertial")
    name = link_elem.get("name")
    if inertial is None:
        raise NotEditableError(
            editor.name,
            line_of(link_elem),
            f"link {name!r} has no <inertial> (libsdformat gives it 1 kg and unit inertia): "
            "write its mass and inertia before its added mass",
        )
    if (inertial.get("auto") or "").strip().lower() in ("true", "1"):
        raise NotEditableError(
            editor.name,
            line_of(inertial),
            f'link {name!r} has <inertial auto="true">: libsdformat drops <fluid_added_mass> '
            "when it computes the inertia; write mass and inertia explicitly first",
        )
    return inertial


def write_fluid_added_mass(
    editor: XmlEditor, link_elem: etree._Element, A_BBo_B: AddedMass, comment: str
) -> None:
    """Sets the link's ``<fluid_added_mass>`` to ``A_BBo_B``, about the link origin in link axes
    (:func:`fluid_added_mass_lines`), replacing an existing one and the gzinertia comment before
    it, or appending it as the last child of ``<inertial>``."""
    inertial = inertial_element(editor, link_elem)
    require_finite(editor, link_elem, "<fluid_added_mass>", A_BBo_B.linear_first().ravel().tolist())
    lines = fluid_added_mass_lines(A_BBo_B, comment, editor.indent_unit.decode())
    existing = child(inertial, "fluid_added_mass")
    if existing is not None:
        editor.replace_element(existing, lines, with_comment=True)
    else:
        editor.append_child_lines(inertial, lines)


def require_finite(
    editor: XmlEditor, elem: etree._Element, what: str, values: Sequence[float]
) -> None:
    """Refuses to write ``what`` into ``elem`` unless every value is a finite number the reader
    accepts (``|x| <= MAX_MAGNITUDE``): a :class:`NonFiniteValueError` naming file, line and
    link; nothing is written."""
    link = elem.get("name") if elem.tag == "link" else None
    refuse_unwritable(f"{editor.name}:{line_of(elem)}", what, link, values)


def refuse_unwritable(where: str, what: str, link: str | None, values: Sequence[float]) -> None:
    """:func:`require_finite` of values written at ``where`` (``file:line``) for ``link``."""
    bad = [v for v in values if not abs(v) <= MAX_MAGNITUDE]  # NaN too
    if bad:
        whose = f" of link {link!r}" if link else ""
        why = (
            "a computation overflowed float64"
            if not math.isfinite(bad[0])
            else f"beyond the {MAX_MAGNITUDE:g} that SDF values may reach"
        )
        raise NonFiniteValueError(
            f"{where}: the computed {what}{whose} cannot be written "
            f"({bad[0]!r}: {why}); nothing written"
        )


def remove_fluid_added_mass(editor: XmlEditor, link_elem: etree._Element) -> bool:
    """Removes the link's ``<fluid_added_mass>`` (and its gzinertia comment); False if none."""
    inertial = child(link_elem, "inertial")
    existing = None if inertial is None else child(inertial, "fluid_added_mass")
    if existing is None:
        return False
    editor.remove_element(existing, with_comment=True)
    return True

