"""``gzinertia shift``: rewrite a ``<fluid_added_mass>`` authored about another point (the CoM,
a hull or ellipsoid centre) about the link origin, which is where the spec and Gazebo put it.

``A_BQ_F`` (about Q, in axes F = link or inertial axes) becomes ``A_BBo_B``: re-expressed in link
axes with ``R_BI`` when needed, then moved from Q to Bo by the exact congruence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gzinertia.edit.edit_result import Edit
from gzinertia.edit.links import ascii_comment, link_element, same_file, write_fluid_added_mass
from gzinertia.edit.session import FileEdit
from gzinertia.errors import Float64OverflowError, GzInertiaError, SettingError
from gzinertia.options import option
from gzinertia.record_base import Forwarded, ValueRecord
from gzinertia.records import LinkRecord
from gzinertia.sdf.xml import child
from gzinertia.selection import select_links
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.choices import ShiftAxes as SourceAxes
from gzinertia.wording import bounded

__all__ = [
    "ShiftResult",
    "ShiftedLink",
    "SourceAxes",
    "shift",
    "shift_comment",
    "shifted_added_mass",
    "source_point",
]



@dataclass(frozen=True, repr=False, eq=False)
class ShiftedLink(ValueRecord):
    """The link shifted, ``p_BoQ_B`` (m), the matrix as written taken about Q (``A_before``, in
    B axes) and the result ``A_BBo_B`` about Bo in B axes."""

    link: LinkRecord
    p_BoQ_B: tuple[float, float, float]
    A_before: AddedMass
    A_BBo_B: AddedMass
    #: The same shift was applied by an earlier run (its comment says so): nothing changed.
    already_done: bool = False


@dataclass(frozen=True, repr=False, eq=False)
class ShiftResult(Edit[ShiftedLink]):
    """The :class:`~gzinertia.edit.edit_result.Edit` of a shift: its one link's
    :class:`ShiftedLink`, whose fields it also gives directly."""

    @property
    def shifted(self) -> ShiftedLink:
        """The one link's outcome."""
        return self.links[0]

    link = Forwarded[LinkRecord]("shifted.link", "The link shifted.")
    p_BoQ_B = Forwarded["tuple[float, float, float]"](
        "shifted.p_BoQ_B",
        "The point the matrix was about, from the link origin in link axes (m).")
    A_before = Forwarded[AddedMass](
        "shifted.A_before", "The matrix as written, taken about Q, in B axes.")
    A_BBo_B = Forwarded[AddedMass]("shifted.A_BBo_B", "The matrix written: about Bo in B axes.")
    already_done = Forwarded[bool](
        "shifted.already_done", "The same shift was applied by an earlier run: nothing changed.")


def source_point(link: LinkRecord, point: str | tuple[float, float, float]) -> np.ndarray:
    """``p_BoQ_B`` for ``--from com|origin|x,y,z`` (a vector is in the link frame)."""
    if point == "com":
        return np.array(link.inertial.p_BoBcm_B, dtype=float)
    if point == "origin":
        return np.zeros(3)
    if isinstance(point, tuple):
        return np.array(point, dtype=float)
    raise SettingError("from", "{from} must be com, origin or x,y,z, not {value!r}", value=point)


def shifted_added_mass(
    link: LinkRecord, p_BoQ_B: np.ndarray, axes: SourceAxes
) -> tuple[AddedMass, AddedMass]:
    """The link's written matrix taken as about Q (in ``axes``), and the same about Bo in B."""
    if link.inertial.A_BBo_B is None:
        raise GzInertiaError(f"{link.source}: link {link.name!r} has no <fluid_added_mass>")
    # The numbers as written, taken as about Q in the named axes (what the user says they are).
    A_Q = AddedMass(link.inertial.A_BBo_B.linear_first(), ordering="linear-first", point="Q",
                    axes="I" if axes == "inertial" else "B")
    try:
        if axes == "inertial":
            A_Q = A_Q.reexpressed("B", link.inertial.R_BI)
        return A_Q, A_Q.shift(-p_BoQ_B, "Bo")
    except Float64OverflowError as exc:
        raise GzInertiaError(f"{link.source}: link {link.name!r}: {exc}; nothing written") from None


def shift(
    path: Path,
    *,
    pattern: str,
    point: str | tuple[float, float, float],
    axes: SourceAxes,
    force: bool,
    model_paths: Sequence[str | Path],
    data: bytes | None = None,
) -> ShiftResult:
    """Moves the selected link's ``<fluid_added_mass>`` from the given point to the origin
    (``path``, ``model_paths`` and ``data`` as :meth:`~gzinertia.edit.session.FileEdit.open`
    reads them)."""
    edit = FileEdit.open(path, model_paths, data)
    links = select_links(edit.doc.links, pattern, str(path))
    if len(links) != 1:
        names = bounded(lk.name for lk in links)
        raise GzInertiaError(
            f"{path}: {option('link')} must select one link, not {len(links)} ({names})"
        )
    link = links[0]
    if not same_file(link.source.file, path):
        raise GzInertiaError(f"{path}: link {link.name!r} is defined in {link.source.file}")
    p_BoQ_B = source_point(link, point)
    A_before, A_BBo_B = shifted_added_mass(link, p_BoQ_B, axes)
    editor = edit.editor
    link_elem = link_element(editor, link)
    inertial = child(link_elem, "inertial")
    existing = None if inertial is None else child(inertial, "fluid_added_mass")
    comment = shift_comment(p_BoQ_B, axes)
    if not force and existing is not None and editor.gzinertia_comment(existing) == comment:
        # This very shift was applied already: a re-run is a no-op (and --check passes).
        A_now = link.inertial.A_BBo_B
        assert A_now is not None  # shifted_added_mass refused a link without one
        done = ShiftedLink(link, _xyz(p_BoQ_B), A_now, A_now, True)
        return ShiftResult(path, edit.old, edit.old, (done,))
    if existing is not None and editor.has_gzinertia_comment(existing) and not force:
        raise GzInertiaError(
            f"{link.source}: the <fluid_added_mass> of {link.name!r} was written by gzinertia "
            "and is already about the link origin; shifting it again would be wrong "
            f"(pass {option('force')} if you edited it by hand since)"
        )
    if np.any(p_BoQ_B) or axes == "inertial":
        write_fluid_added_mass(editor, link_elem, A_BBo_B, comment)
    new = edit.finish({link.name: A_BBo_B})
    return ShiftResult(path, edit.old, new, (ShiftedLink(link, _xyz(p_BoQ_B), A_before, A_BBo_B),))


def _xyz(p: np.ndarray) -> tuple[float, float, float]:
    return (float(p[0]), float(p[1]), float(p[2]))


def shift_comment(p_BoQ_B: np.ndarray, axes: SourceAxes) -> str:
    """The comment written before a shifted ``<fluid_added_mass>``: it records the source
    point exactly (17 significant digits), so that a re-run with the same ``--from`` is
    recognised as done."""
    where = " ".join(f"{v:.17g}" for v in p_BoQ_B)
    return ascii_comment(
        f"gzinertia shift: moved from the point ({where}) m of the link frame "
        f"{'in inertial-frame axes ' if axes == 'inertial' else ''}to the link origin, "
        "link axes, by the exact change of point"
    )
