"""``gzinertia show``: every link's inertia, in one documented JSON shape or as rich tables.

The JSON keys are a public contract (``docs/json.md``). All 6x6 matrices of one output are in the
requested ``ordering``; 3-vectors and 3x3 matrices are in link axes unless the name says other.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.gazebo.dart import dart_spatial_tensor
from gzinertia.hydrodynamics_terms import added_mass_active
from gzinertia.records import LinkRecord, Note, SdfDocument
from gzinertia.spatial.algebra import Ordering, reorder
from gzinertia.spatial.inertia import equivalent_ellipsoid_semi_axes, principal_axes

__all__ = [
    "document_summary",
    "hydrodynamics_added_mass",
    "link_summary",
    "note_summary",
]


def _plain(values: ArrayLike) -> Any:
    """Nested lists of floats, with non-finite numbers as ``None`` (JSON has no NaN)."""
    arr = np.asarray(values, dtype=float)
    if arr.ndim == 0:
        v = float(arr)
        return v if math.isfinite(v) else None
    return [_plain(row) for row in arr]


def link_summary(link: LinkRecord, ordering: Ordering) -> dict[str, Any]:
    """The ``show --json`` entry of one link."""
    inertial = link.inertial
    moments, R_BP = principal_axes(inertial.I_BBcm_B)
    A = None if inertial.A_BBo_B is None else inertial.A_BBo_B.in_ordering(ordering)
    return {
        "name": link.name,
        "file": link.source.file,
        "line": link.source.line,
        "X_WB": {"p": _plain(link.X_WB.p), "R": _plain(link.X_WB.R)},
        "mass": inertial.mass,
        "inertial_defaulted": inertial.defaulted,
        "p_BoBcm_B": _plain(inertial.p_BoBcm_B),
        "R_BI": _plain(inertial.R_BI),
        "I_BBcm_B": _plain(inertial.I_BBcm_B),
        "I_BBo_B": _plain(inertial.I_BBo_B),
        "M_BBcm_B": _plain(inertial.M_BBcm_B.in_ordering(ordering)),
        "M_BBo_B": _plain(inertial.M_BBo_B.in_ordering(ordering)),
        "principal_moments": _plain(moments),
        "R_BP": _plain(R_BP),
        "equivalent_ellipsoid_semi_axes": _plain(
            equivalent_ellipsoid_semi_axes(inertial.mass, moments)
        ),
        "A_BBo_B": None if A is None else _plain(A),
        "gazebo_dart_tensor": _plain(dart_spatial_tensor(inertial, ordering)),
        "hydrodynamics_added_mass": hydrodynamics_added_mass(link, ordering),
    }


def hydrodynamics_added_mass(link: LinkRecord, ordering: Ordering) -> dict[str, Any] | None:
    """What Gazebo's Hydrodynamics plugins on ``link`` apply as added mass (gz-sim 6.12+ / 7+:
    ``A_BBo_B = -sym(D)``, D the ``<iDotJ>`` terms as written, about the link origin in link
    axes), summed over the plugins whose added mass is on, with where the first is written;
    ``None`` when none applies any."""
    active = [
        p for p in link.hydrodynamics if added_mass_active(p)
    ]
    if not active:
        return None
    D = sum((p.D_BBo_B for p in active), np.zeros((6, 6)))
    A_BBo_B = -0.5 * (D + D.T) + 0.0  # linear-first
    return {
        "A_BBo_B": _plain(reorder(A_BBo_B, "linear-first", ordering)),
        "source": "Hydrodynamics plugin",
        "file": active[0].source.file,
        "line": active[0].source.line,
    }


def note_summary(note: Note) -> dict[str, Any]:
    """The ``show --json`` entry of one reader note."""
    return {
        "level": note.level,
        "code": note.code,
        "message": note.message,
        "file": note.source.file,
        "line": note.source.line,
        "link": note.link,
    }


def document_summary(
    doc: SdfDocument, links: list[LinkRecord], ordering: Ordering
) -> dict[str, Any]:
    """The whole ``show --json`` object."""
    return {
        "file": doc.path,
        "sdf_version": doc.sdf_version,
        "ordering": ordering,
        "links": [link_summary(link, ordering) for link in links],
        "notes": [note_summary(note) for note in doc.notes],
    }
