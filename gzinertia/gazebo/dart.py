"""What Gazebo builds from a link's ``<inertial>``, reproduced to compare with the true inertia.

* :func:`dart_spatial_tensor`: the tensor gz-physics' DART plugin hands to DART
  (``ConstructSdfLink``): DART's rigid spatial inertia about the link origin Bo from the mass,
  ``Inertial::Moi()`` (``I_BBcm_B``) and the centre of mass, plus ``<fluid_added_mass>``
  block-swapped to angular-first and added unshifted, i.e. taken to be about Bo in link axes,
  as the SDFormat spec says it is.
* :func:`gz_math_body_matrix` and :func:`gz_math_spatial_matrix`: gz-math's
  ``Inertial::BodyMatrix()``/``SpatialMatrix()``, linear-first. ``BodyMatrix()`` has the CoM
  inertia with CoM-offset coupling and no parallel-axis term, so it is the spatial inertia about
  no point; it is reproduced only to show how it differs from ``M_BBo_B`` and ``M_BBcm_B``.
"""

from __future__ import annotations

import numpy as np

from gzinertia.records import Inertial
from gzinertia.spatial.algebra import Mat6, Ordering, reorder
from gzinertia.spatial.rotation import skew

__all__ = ["dart_spatial_tensor", "gz_math_body_matrix", "gz_math_spatial_matrix"]


def dart_spatial_tensor(inertial: Inertial, ordering: Ordering = "angular-first") -> Mat6:
    """The 6x6 that Gazebo's DART plugin gives DART for this link: ``M_BBo_B + A_BBo_B``, the
    added mass unshifted (the spec puts it about Bo), about Bo in link axes, in ``ordering``
    (default angular-first, DART's ``getSpatialTensor()``)."""
    if inertial.A_BBo_B is None:
        return inertial.M_BBo_B.in_ordering(ordering)
    return (inertial.M_BBo_B + inertial.A_BBo_B).in_ordering(ordering)


def gz_math_body_matrix(inertial: Inertial, ordering: Ordering = "linear-first") -> Mat6:
    """gz-math ``Inertial::BodyMatrix()``: ``[[m·1, (m[c]×)ᵀ], [m[c]×, I_BBcm_B]]`` linear-first
    (returned in ``ordering``), link axes B, ``c = p_BoBcm_B``.

    It is about no one point (DESIGN.md §3): the rotational block is about the centre of mass
    Bcm, the coupling that of the offset from Bo, and the parallel-axis term is missing. It is
    reproduced to show that, not to compute with."""
    m = inertial.mass
    mc = m * skew(inertial.p_BoBcm_B)
    M = np.zeros((6, 6))
    M[:3, :3] = m * np.eye(3)
    M[3:, 3:] = inertial.I_BBcm_B
    M[3:, :3] = mc
    M[:3, 3:] = mc.T
    return reorder(M, "linear-first", ordering)


def gz_math_spatial_matrix(inertial: Inertial, ordering: Ordering = "linear-first") -> Mat6:
    """gz-math ``Inertial::SpatialMatrix()``: :func:`gz_math_body_matrix` plus ``A_BBo_B`` as
    written (unshifted), in link axes B, returned in ``ordering`` (default linear-first); like
    ``BodyMatrix()`` it is about no one point."""
    M = gz_math_body_matrix(inertial, "linear-first")
    if inertial.A_BBo_B is not None:
        M = M + inertial.A_BBo_B.linear_first()  # unshifted, as gz-math does
    return reorder(M, "linear-first", ordering)
