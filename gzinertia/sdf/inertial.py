"""Reading ``<inertial>`` as libsdformat does: spec defaults, ignored relative_to, added mass.

With ``auto="true"`` the values are read as written (``Inertial.auto`` set); the reader then
replaces them by what libsdformat computes from the collisions
(:func:`gzinertia.sdf.auto_inertial.resolve_auto_inertial`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from lxml import etree

from gzinertia.records import Inertial, Note, SourceRef
from gzinertia.sdf.fluid_added_mass import SDF_TAGS, added_mass_from_values
from gzinertia.sdf.values import attr_bool, parse_float, parse_pose
from gzinertia.sdf.xml import child, children, first_children, line_of
from gzinertia.spatial.rotation import IDENTITY_POSE, Pose

if TYPE_CHECKING:
    from gzinertia.spatial.added_mass import AddedMass

__all__ = ["INERTIA_DEFAULTS", "INERTIA_TAGS", "read_inertial"]

INERTIA_TAGS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
INERTIA_DEFAULTS = {"ixx": 1.0, "iyy": 1.0, "izz": 1.0, "ixy": 0.0, "ixz": 0.0, "iyz": 0.0}
_COMMENTED_INERTIAL = re.compile(r"<\s*inertial[\s>/]")


def _auto_notes(
    elem: etree._Element,
    file: str,
    has_pose: bool,
    inertia_elem: etree._Element | None,
    fam: etree._Element | None,
) -> list[Note]:
    """What ``auto="true"`` does to the values written in ``<inertial>`` (see auto_inertial)."""
    notes: list[Note] = []
    written = [t for t, present in (("<pose>", has_pose), ("<inertia>", inertia_elem is not None))
               if present]
    if written:
        notes.append(
            Note(
                "warning",
                "auto-inertial-overwritten",
                f'<inertial auto="true"> with {" and ".join(written)}: libsdformat warns and '
                "overwrites them with the values computed from the collisions",
                SourceRef(file, line_of(elem)),
            )
        )
    if fam is not None:
        notes.append(
            Note(
                "warning",
                "auto-inertial-added-mass",
                '<fluid_added_mass> in an <inertial auto="true">: libsdformat replaces the whole '
                "inertial by the one computed from the collisions and drops the added mass "
                "without a word",
                SourceRef(file, line_of(fam)),
            )
        )
    return notes


def _read_mass(elem: etree._Element, file: str, notes: list[Note]) -> float:
    """``<mass>``'s value as libsdformat reads it: the element's text, and the spec's default,
    1 kg, when it has none (``<mass/>``, or URDF's ``<mass value="500"/>``: the attribute is
    not read), which ``notes`` gets as ``mass-defaulted`` (``data``: ``attributes``, the
    element's attributes as written, ``""`` when none, and ``value``, the ``value`` attribute,
    when there is one)."""
    if (elem.text or "").strip():
        return parse_float(elem, file)
    attrs = " ".join(f'{k!s}="{v!s}"' for k, v in elem.attrib.items())
    value = elem.get("value")
    said = f"<mass {attrs}/>" if attrs else "<mass> with no text"
    notes.append(
        Note(
            "error" if attrs else "warning",
            "mass-defaulted",
            f"{said}: libsdformat reads the element's text only, so the spec's default mass "
            f"of 1 kg applies"
            + (f" (attributes {attrs} are URDF style and not read)" if attrs else ""),
            SourceRef(file, line_of(elem)),
            data={"attributes": attrs, **({} if value is None else {"value": value.strip()})},
        )
    )
    return 1.0


def read_inertial(link: etree._Element, file: str) -> tuple[Inertial, list[Note]]:
    """The link's ``<inertial>`` (or the spec default when absent) and what was noticed."""
    notes: list[Note] = []
    elem = child(link, "inertial")
    if elem is None:
        return _missing_inertial(link, file, notes), notes
    auto = attr_bool(elem, "auto", file)
    parts = first_children(elem)
    mass_elem = parts.get("mass")
    mass = 1.0 if mass_elem is None else _read_mass(mass_elem, file, notes)
    poses = children(elem, "pose")
    X_BI = _read_pose(poses, file, notes)
    inertia_elem = parts.get("inertia")
    I, inertia_defaulted = _read_inertia(inertia_elem, file, auto, notes)
    fam = parts.get("fluid_added_mass")
    A = _read_added_mass(fam, file)
    if auto:
        notes.extend(_auto_notes(elem, file, bool(poses), inertia_elem, fam))
    density_elem = parts.get("density")
    density = None if density_elem is None else parse_float(density_elem, file)
    def at(part: etree._Element | None) -> SourceRef | None:
        return None if part is None else SourceRef(file, line_of(part))

    inertial = Inertial(
        mass=mass, X_BI=X_BI, I_BBcm_I=I, A_BBo_B=A, inertia_defaulted=inertia_defaulted,
        auto=auto, density=density, source=SourceRef(file, line_of(elem)),
        mass_source=at(mass_elem), inertia_source=at(inertia_elem), added_mass_source=at(fam),
        added_mass_comment=_comment_before(fam),
    )
    return inertial, notes


def _missing_inertial(link: etree._Element, file: str, notes: list[Note]) -> Inertial:
    """The spec's default inertial of a ``link`` without ``<inertial>``; ``notes`` gets
    ``inertial-defaulted`` (saying whether one is commented out)."""
    commented = any(
        isinstance(c, etree._Comment) and _COMMENTED_INERTIAL.search(c.text or "")
        for c in link.iter(etree.Comment)
    )
    where = SourceRef(file, line_of(link))
    msg = "no <inertial>: libsdformat uses 1 kg and unit inertia"
    if commented:
        msg = "<inertial> is commented out: libsdformat uses 1 kg and unit inertia"
    notes.append(Note("info", "inertial-defaulted", msg, where))
    return Inertial(defaulted=True, commented_out=commented, source=where)


def _read_pose(poses: list[etree._Element], file: str, notes: list[Note]) -> Pose:
    """``X_BI`` from the first of ``<inertial>``'s ``<pose>`` elements (identity: none), as
    libsdformat reads it: ``relative_to`` ignored and a second ``<pose>`` not read, each
    said in ``notes``."""
    if not poses:
        return IDENTITY_POSE
    spec = parse_pose(poses[0], file)
    if spec.relative_to:
        notes.append(
            Note(
                "warning",
                "inertial-relative-to",
                f"<inertial><pose relative_to={spec.relative_to!r}> is ignored "
                "(libsdformat since SDF 1.8): the pose is taken relative to the link",
                SourceRef(file, spec.line),
            )
        )
    if len(poses) > 1:
        notes.append(
            Note(
                "warning",
                "duplicate-pose",
                f"{len(poses)} <pose> elements in <inertial>: only the first is read",
                SourceRef(file, line_of(poses[1])),
            )
        )
    return spec.X


def _read_inertia(
    inertia_elem: etree._Element | None, file: str, auto: bool, notes: list[Note]
) -> tuple[npt.NDArray[np.float64], bool]:
    """``I_BBcm_I`` from ``<inertia>`` (the spec's defaults for what it leaves out), and whether
    it was defaulted whole: an ``<inertia>`` with none of ``<ixx>``..``<izz>`` (not ``auto``),
    said in ``notes``."""
    values = dict(INERTIA_DEFAULTS)
    inertia_defaulted = False
    if inertia_elem is not None:
        entries = first_children(inertia_elem)
        present = [t for t in INERTIA_TAGS if t in entries]
        for t in present:
            values[t] = parse_float(entries[t], file)
        if not present and not auto:
            inertia_defaulted = True
            attrs = " ".join(f'{k!s}="{v!s}"' for k, v in inertia_elem.attrib.items())
            notes.append(
                Note(
                    "error" if attrs else "warning",
                    "inertia-defaulted",
                    "<inertia> has none of <ixx>..<izz>"
                    + (f" (attributes {attrs} are URDF style and not read)" if attrs else "")
                    + ": the spec's defaults (unit inertia) apply",
                    SourceRef(file, line_of(inertia_elem)),
                    data={"attributes": attrs},
                )
            )
    I = np.array(
        [
            [values["ixx"], values["ixy"], values["ixz"]],
            [values["ixy"], values["iyy"], values["iyz"]],
            [values["ixz"], values["iyz"], values["izz"]],
        ]
    )
    return I, inertia_defaulted


def _read_added_mass(
    fam: etree._Element | None, file: str
) -> AddedMass | None:
    """``A_BBo_B`` from ``<fluid_added_mass>`` (its terms left out are 0; ``None``: none)."""
    if fam is None:
        return None
    terms = first_children(fam)
    fam_values = {t: parse_float(terms[t], file) if t in terms else 0.0 for t in SDF_TAGS}
    return added_mass_from_values(fam_values)


def _comment_before(elem: etree._Element | None) -> str | None:
    """The text of the XML comment directly before ``elem`` (whitespace between them allowed),
    where gzinertia writes how a ``<fluid_added_mass>`` was obtained; None when there is none."""
    prev = None if elem is None else elem.getprevious()
    if prev is not None and isinstance(prev, etree._Comment):
        return (prev.text or "").strip()
    return None
