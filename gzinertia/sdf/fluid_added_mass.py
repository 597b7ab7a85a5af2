"""SDFormat's ``<fluid_added_mass>`` vocabulary: its 21 tag names and their values.

``<inertial><fluid_added_mass>`` (spec 1.10+) holds the upper triangle of a symmetric 6x6 about
the link origin in link axes, **linear-first** ``[x y z p q r]``, as 21 optional child elements
(default 0): ``xx xy xz xp xq xr yy yz yp yq yr zz zp zq zr pp pq pr qq qr rr``. This module is
the one place those names live; the matrix itself is a
:class:`gzinertia.spatial.added_mass.AddedMass`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.spatial.added_mass import AddedMass

if TYPE_CHECKING:
    from gzinertia.spatial.added_mass import AddedMass

__all__ = ["SDF_AXES", "SDF_TAGS", "added_mass_from_values", "values_of"]

#: Axis letters of ``<fluid_added_mass>``: linear x, y, z then angular p, q, r.
SDF_AXES = "xyzpqr"
#: The 21 child elements in spec order: the upper triangle, row by row.
SDF_TAGS: tuple[str, ...] = tuple(SDF_AXES[i] + SDF_AXES[j] for i in range(6) for j in range(i, 6))
#: Each tag's row and column in the linear-first matrix, in :data:`SDF_TAGS` order.
_ENTRIES = tuple((tag, SDF_AXES.index(tag[0]), SDF_AXES.index(tag[1])) for tag in SDF_TAGS)


def added_mass_from_values(
    values: Mapping[str, float], point: str = "Bo", axes: str = "B"
) -> AddedMass:
    """The symmetric matrix from ``<fluid_added_mass>`` entries by tag (missing ones are 0),
    about ``point`` in ``axes`` (the spec's Bo and B unless the caller knows otherwise).
    A ValueError names any key that is not one of :data:`SDF_TAGS`."""
    unknown = sorted(set(values) - set(SDF_TAGS))
    if unknown:
        raise ValueError(f"not <fluid_added_mass> entries: {', '.join(unknown)}")
    rows = [[0.0] * 6 for _ in range(6)]
    for tag, i, j in _ENTRIES:
        rows[i][j] = rows[j][i] = float(values.get(tag, 0.0))
    return AddedMass(np.array(rows), ordering="linear-first", point=point, axes=axes)


def values_of(A: AddedMass) -> dict[str, float]:
    """The 21 spec entries of ``A`` (upper triangle of its symmetric part, linear-first), by
    tag in spec order. The numbers are about ``A.point`` in ``A.axes``: the spec's element holds
    ``A_BBo_B``, about the link origin in link axes."""
    S = A.symmetric().linear_first()
    return {tag: float(S[SDF_AXES.index(tag[0]), SDF_AXES.index(tag[1])]) for tag in SDF_TAGS}
