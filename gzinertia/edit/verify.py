"""A safety net for every edit: re-read the edited bytes and check that each link reads back as
before except for what the edit meant to change. An edit that fails the check is not written."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from gzinertia.errors import GzInertiaError
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.sdf import read_sdf_bytes
from gzinertia.spatial.added_mass import AddedMass

__all__ = ["WRITE_RTOL", "same_added_mass", "same_rigid", "verify_edit"]

#: Written values carry ten significant digits.
WRITE_RTOL = 1e-9


def same_rigid(a: LinkRecord, b: LinkRecord) -> bool:
    """``a`` and ``b`` have the very same pose ``X_WB``, mass, inertial pose ``X_BI``,
    ``I_BBcm_I`` and number of collisions (a link an edit should have left alone)."""
    ia, ib = a.inertial, b.inertial
    return (
        np.array_equal(a.X_WB.matrix(), b.X_WB.matrix())
        and ia.mass == ib.mass
        and np.array_equal(ia.X_BI.matrix(), ib.X_BI.matrix())
        and np.array_equal(ia.I_BBcm_I, ib.I_BBcm_I)
        and len(a.collisions) == len(b.collisions)
    )


def same_added_mass(A: AddedMass | None, B: AddedMass | None, rtol: float) -> bool:
    """``A`` (read back) equals ``B`` (meant) within ``rtol`` of ``B``'s largest entry, both
    about the same point in the same axes (``A_BBo_B``: about the link origin Bo in link axes
    B, compared linear-first); both finite (an infinite scale would accept anything, e.g. all
    zeros for an overflowed ``B``)."""
    if A is None or B is None:
        return A is None and B is None
    if (A.point, A.axes) != (B.point, B.axes):
        return False
    a, b = A.linear_first(), B.linear_first()
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return False
    scale = max(float(np.max(np.abs(b))), 1e-300)
    return float(np.max(np.abs(a - b))) <= rtol * scale


def verify_edit(
    path: Path,
    before: SdfDocument,
    new: bytes,
    model_paths: Sequence[str | Path],
    added_mass: Mapping[str, AddedMass | None],
    rigid: Mapping[str, Callable[[LinkRecord, LinkRecord], bool]] | None = None,
) -> SdfDocument:
    """Re-reads ``new`` and checks it against ``before``: same links, poses and rigid inertia;
    ``<fluid_added_mass>`` as given in ``added_mass`` (scoped link name → A_BBo_B or None for
    removed) and unchanged elsewhere. ``rigid``: for links whose rigid inertia the edit
    changes, the check ``(before, after) -> ok`` that replaces "the same". Returns the
    re-read document."""
    after = read_sdf_bytes(new, str(path), model_paths)
    if [lk.name for lk in after.links] != [lk.name for lk in before.links]:
        raise GzInertiaError(f"{path}: internal error: the edit changed the set of links")
    for old, new_link in zip(before.links, after.links, strict=True):
        same = (rigid or {}).get(old.name, same_rigid)
        if not same(old, new_link):
            raise GzInertiaError(
                f"{path}: internal error: the edit changed link {old.name!r}; nothing written"
            )
        if old.name in added_mass:
            want = added_mass[old.name]
            ok = same_added_mass(
                new_link.inertial.A_BBo_B, None if want is None else want.symmetric(), WRITE_RTOL
            )
        else:
            ok = same_added_mass(new_link.inertial.A_BBo_B, old.inertial.A_BBo_B, 0.0)
        if not ok:
            raise GzInertiaError(
                f"{path}: internal error: link {old.name!r} does not read back the added mass "
                "the edit meant to write; nothing written"
            )
    return after
