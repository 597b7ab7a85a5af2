"""``<inertial auto="true">`` (SDFormat 1.11) resolved as libsdformat and Gazebo resolve it.

What libsdformat does (``Link::ResolveAutoInertials``, ``Collision::CalculateInertial``,
``Geometry::CalculateInertial``, gz-math's ``Inertial::operator+=``), and so what this module
computes, for a link B whose ``<inertial>`` has ``auto="true"``:

* every ``<collision>`` C contributes a uniform solid of density ``ρ_C``: its own ``<density>``,
  else ``<inertial><density>``, else 1000 kg/m³ (water; :data:`DEFAULT_DENSITY`). Its mass is
  ``ρ_C·V_C``, its centre of mass the centroid ``p_BoCc_B`` and its rotational inertia
  ``ρ_C·G_BCc_B`` (:func:`gzinertia.physics.shapes.collision_solid`, through the resolved ``X_BC``);
* box, sphere, cylinder, capsule, ellipsoid and cone in closed form (gz-math's mass matrices;
  a cone's centre of mass a quarter of its length below its origin, as ``Cone::CalculateInertial``).
  Meshes need a calculator registered with libsdformat; Gazebo (gz-sim) registers its
  ``MeshInertiaCalculator``, which integrates the triangles after ``<scale>``: that is what
  this module follows (a mesh that bounds no volume is replaced by its convex hull, with a
  warning). A collision whose inertia cannot be computed (plane, heightmap, unknown shape,
  unresolved mesh, density ≤ 0, zero volume) is an error in libsdformat and adds nothing;
* the contributions are summed by ``Inertial::operator+=``: masses add, the centre of mass is
  mass-weighted and each inertia moves to it by the parallel-axis theorem, in link axes. The
  result's pose has **no rotation**: ``X_BI = (p_BoBcm_B, 1)`` and ``I_BBcm_I = I_BBcm_B``;
* ``<mass>``, when written (libsdformat 14.7, 15.2 and 16.0 on: the row
  ``sdformat-auto-inertial-mass`` of :data:`gzinertia.gazebo.releases.CHANGES`), rescales the
  sum to that mass: the centre of mass stays, the inertia is multiplied by ``m / Σm_C``
  (``<inertial><density>`` and the collision densities then only weight the collisions
  against each other);
* ``<pose>`` and ``<inertia>`` are overwritten (libsdformat warns) and ``<fluid_added_mass>``
  is dropped without a word (``Inertial.added_mass_dropped``);
* no ``<collision>`` at all is an error (``ELEMENT_MISSING``) and the link keeps libsdformat's
  initial inertial: 1 kg, unit inertia at the link origin (the added mass then survives).

Drake loads such files through libsdformat, so its parser is the oracle for primitives; its own
mesh calculator differs (see ``tests/test_auto_inertial.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from gzinertia.physics.shapes import ShapeError, SolidProperties, collision_solid
from gzinertia.records import Collision, Inertial, Note, NoteLevel, SourceRef
from gzinertia.spatial.inertia import parallel_axis
from gzinertia.spatial.rotation import Mat3, Pose, Vec3
from gzinertia.vocabulary.fluids import FRESHWATER_DENSITY

__all__ = [
    "DEFAULT_DENSITY",
    "collision_density",
    "resolve_auto_inertial",
    "sum_rigid_bodies",
]

#: libsdformat's ``Collision::DensityDefault()``: water, kg/m³ (1000, the same number as
#: :data:`gzinertia.vocabulary.fluids.FRESHWATER_DENSITY`).
DEFAULT_DENSITY = FRESHWATER_DENSITY


def collision_density(collision: Collision, link_density: float | None) -> float:
    """``ρ_C``: ``<collision><density>``, else ``<inertial><density>``, else 1000 kg/m³."""
    if collision.density is not None:
        return collision.density
    if link_density is not None:
        return link_density
    return DEFAULT_DENSITY


def sum_rigid_bodies(
    parts: Sequence[tuple[float, Vec3, Mat3]],
) -> tuple[float, Vec3, Mat3]:
    """``(m, p_BoBcm_B, I_BBcm_B)`` of rigid parts ``(m_i, p_BoCcm_B, I_CCcm_B)`` in link axes.

    ``m = Σ m_i``; ``p_BoBcm_B = Σ m_i·p_i / m``; ``I_BBcm_B = Σ I_i + m_i·[d_i]×[d_i]×ᵀ`` with
    ``d_i = p_i - p_BoBcm_B`` (gz-math's ``Inertial::operator+=``, whose sum has no rotation).
    Parts of zero total mass give ``(0, 0, 0)``.
    """
    mass = float(sum(m for m, _, _ in parts))
    if not mass > 0.0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    p_BoBcm_B = sum((m * np.asarray(p, dtype=float) for m, p, _ in parts), np.zeros(3)) / mass
    I_BBcm_B = np.zeros((3, 3))
    for m, p, I in parts:
        I_BBcm_B += parallel_axis(I, m, np.asarray(p, dtype=float) - p_BoBcm_B)
    return mass, p_BoBcm_B, 0.5 * (I_BBcm_B + I_BBcm_B.T)


def _solid_of(collision: Collision, link: str) -> tuple[SolidProperties | None, list[Note]]:
    """The collision's solid in B, or ``None`` with the error libsdformat/gz-sim would report."""
    notes: list[Note] = []
    geometry = collision.geometry
    what = f"link {link!r}, collision {collision.name!r}"
    try:
        solid = collision_solid(collision)
    except ShapeError as exc:
        if geometry.kind in ("plane", "heightmap", "other"):
            detail = (
                f"libsdformat cannot compute the inertia of a {geometry.kind} geometry"
                + (" (gzinertia reads cones, polylines and empty geometries as 'other';"
                   " libsdformat computes cones)" if geometry.kind == "other" else "")
            )
        else:
            detail = f"its inertia cannot be computed ({exc})"
        notes.append(
            Note(
                "error",
                "auto-inertial-collision",
                f'<inertial auto="true">, {what}: {detail}; libsdformat reports the collision\'s '
                "inertia as invalid and it adds nothing to the link",
                collision.source,
            )
        )
        return None, notes
    if geometry.kind == "mesh":
        message = (
            f'<inertial auto="true">, {what}: mesh inertia computed from its triangles after '
            "<scale>, as Gazebo's MeshInertiaCalculator does (libsdformat without Gazebo, e.g. "
            "`gz sdf`, uses 1 kg and unit inertia for a mesh)"
        )
        level: NoteLevel = "info"
        if solid.approximation:
            level = "warning"
            message += (
                f"; gzinertia's solid: {solid.approximation} (docs/meshes.md), whereas Gazebo "
                "integrates the triangles as they are (a meaningless or invalid inertia for a "
                "mesh that bounds no volume)"
            )
        notes.append(Note(level, "auto-inertial-mesh", message, collision.source))
    return solid, notes


def resolve_auto_inertial(
    link: str, inertial: Inertial, collisions: Sequence[Collision], where: SourceRef
) -> tuple[Inertial, list[Note]]:
    """The inertial libsdformat computes for a link with ``<inertial auto="true">``.

    ``link`` names the link in messages, ``inertial`` is the ``<inertial>`` as written (its
    ``mass`` counts only when ``mass_source`` says ``<mass>`` was written), ``collisions`` have
    their poses ``X_BC`` resolved in the link frame B, ``where`` locates the link. Returns the
    resolved :class:`~gzinertia.records.Inertial` (``auto=True``, ``X_BI`` without rotation,
    ``I_BBcm_I`` in link axes, ``A_BBo_B = None``) and the notes. An inertial without ``auto``
    is returned unchanged.
    """
    if not inertial.auto:
        return inertial, []
    src = inertial.source or where
    if not collisions:
        note = Note(
            "error",
            "auto-inertial-no-collisions",
            f'link {link!r} has <inertial auto="true"> but no <collision>: libsdformat reports '
            "ELEMENT_MISSING and keeps 1 kg and unit inertia at the link origin",
            src,
        )
        return replace(inertial, mass=1.0, X_BI=Pose(), I_BBcm_I=np.eye(3)), [note]

    notes: list[Note] = []
    parts = _collision_parts(link, inertial, collisions, notes)
    mass, p_BoBcm_B, I_BBcm_B = sum_rigid_bodies(parts)
    how = (
        f"{mass:.6g} kg from {len(parts)} of {len(collisions)} collision"
        f"{'' if len(collisions) == 1 else 's'}"
    )
    if inertial.mass_source is not None:
        if mass > 0.0:
            I_BBcm_B = I_BBcm_B * (inertial.mass / mass)
            how += f", rescaled to <mass> {inertial.mass:g} kg (libsdformat 15.2 and newer)"
            mass = inertial.mass
        else:
            how += f"; <mass> {inertial.mass:g} kg cannot rescale a zero mass"
    notes.append(
        Note(
            "info",
            "auto-inertial",
            f'link {link!r}: <inertial auto="true"> resolved as libsdformat does: {how}, '
            "centre of mass and inertia in link axes",
            src,
        )
    )
    resolved = replace(
        inertial,
        mass=mass,
        X_BI=Pose(p_BoBcm_B, np.eye(3)),
        I_BBcm_I=I_BBcm_B,
        A_BBo_B=None,
        added_mass_dropped=inertial.A_BBo_B is not None,
        inertia_defaulted=False,
    )
    return resolved, notes


def _collision_parts(
    link: str, inertial: Inertial, collisions: Sequence[Collision], notes: list[Note]
) -> list[tuple[float, Vec3, Mat3]]:
    """Each collision's uniform solid as libsdformat weighs it for ``<inertial auto="true">``:
    ``(mass, p_BoCcm_B, I_BCcm_B)`` (the solid posed in the link frame B, inertia about its
    centroid Ccm) at its density (its own ``<density>``, else the
    inertial's, else water's); a collision whose density gives no valid inertia or whose shape
    has no solid adds nothing, and ``notes`` says so (and when water's density was assumed)."""
    parts: list[tuple[float, Vec3, Mat3]] = []
    for collision in collisions:
        rho = collision_density(collision, inertial.density)
        if collision.density is None and inertial.density is None:
            notes.append(
                Note(
                    "info",
                    "auto-inertial-density",
                    f'<inertial auto="true">, link {link!r}, collision {collision.name!r}: no '
                    f"<density> here or in <inertial>, so libsdformat uses "
                    f"{DEFAULT_DENSITY:g} kg/m^3 (water)",
                    collision.source,
                )
            )
        if not (np.isfinite(rho) and rho > 0.0):
            notes.append(
                Note(
                    "error",
                    "auto-inertial-collision",
                    f'<inertial auto="true">, link {link!r}, collision {collision.name!r}: '
                    f"density {rho:g} kg/m^3 gives an invalid inertia; it adds nothing",
                    collision.source,
                )
            )
            continue
        solid, solid_notes = _solid_of(collision, link)
        notes.extend(solid_notes)
        if solid is None:
            continue
        parts.append((rho * solid.volume, solid.p_FoFc_F, rho * solid.G_FFc_F))
    return parts
