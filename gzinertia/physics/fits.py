"""Ellipsoid fits of a link's fluid-displacing shape, for Tuckerman added mass.

A fit gives one or more ellipsoids E posed in the link frame B by ``X_BE`` (origin ``Eo`` at the
ellipsoid's centre, E's axes along its semi-axes). The added mass ``A_EEo_E`` of each
(:func:`gzinertia.spatial.tuckerman.ellipsoid_added_mass_matrix`, linear-first, diagonal in E)
moves to the link origin with ``transform_spatial(A_EEo_E, X_BE.R, X_BE.p, "linear-first")``.

Methods (``FIT_METHODS``):

* ``volume`` (default): one ellipsoid per separate body of the link. Collisions that touch or
  overlap form one body (:mod:`gzinertia.physics.contact_groups`); a body's ellipsoid has the volume
  ``V``, centroid and principal axes of the union of its collision solids
  (:mod:`gzinertia.physics.shapes`, meshes after ``<scale>``). Its axis ratios come from the solids'
  second moments about the centroid ``S = ½·tr(G)·1 - G`` (``G = G_BBc_B``, the unit-density
  inertia; ``S = ∫ r rᵀ dV``): a solid ellipsoid has ``S = V/5·diag(a², b², c²)``, so
  ``a_i ∝ √s_i``, scaled so ``4/3·π·abc = V``. A single ellipsoid collision fits itself exactly.
  Separate bodies (a catamaran's hulls, a pontoon pair, an ROV's floats) each get their own
  ellipsoid and the matrices are summed at Bo: one ellipsoid around all of them puts fluid where
  there is none (two spheres of radius r at ±5r: sway added mass 29x too small), while the
  interaction neglected by the sum falls as (size/distance)³ (Capytaine, in the tests).
* ``mujoco``: MuJoCo's rule (``fluidshape="ellipsoid"``), one ellipsoid per collision at the
  collision frame: sphere ``(r, r, r)``, capsule ``(r, r, L/2 + r)``, cylinder ``(r, r, L/2)``
  (SDF ``<length>`` is the full length), box half-sizes, ellipsoid radii. MuJoCo has no cone:
  a cone gets the mesh rule below on its exact extent: semi-axes ``r``, ``r`` and ``3L/4`` (the
  apex's distance) about its centroid, its axes in MuJoCo's mesh order. A mesh geom is
  re-centred at its centroid and turned to its principal axes (largest principal moment on x,
  smallest on z, as MuJoCo does), and its semi-axes are ``max(|min|, |max|)`` of the vertex
  coordinates along each of those axes (MuJoCo's mesh ``geom_size``: the half-sizes of the
  smallest centroid-centred box around the vertices, not of the bounding box). The centroid and
  axes are those of the exact solid: MuJoCo's mesh ``inertia="exact"``; its default
  ``"legacy"`` agrees for convex meshes only.
* ``inertia``: the uniform solid ellipsoid with the link's mass and rotational inertia about the
  centre of mass (``a_i² = 5/(2m)·(I_j + I_k - I_i)``), centred at Bcm on the principal axes.
* ``explicit``: semi-axes, centre and roll-pitch-yaw given by the user (:func:`explicit_fit`).

For ``volume`` and ``inertia`` the principal axes are ordered and signed so that E is as close to
B as possible (E = B when the link's shape is aligned with its axes).

Mistakes a user can make (no usable collision, a plane or heightmap, an unresolved mesh, a
degenerate shape, a defaulted or invalid inertia) raise :class:`FitError` naming the link, its
source and another fit to try.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from gzinertia.errors import Float64OverflowError, GzInertiaError
from gzinertia.options import option
from gzinertia.physics.ellipsoid import (
    PosedEllipsoid,
    primitive_semi_axes,
    semi_axes_problem,
)
from gzinertia.physics.shapes import (
    ShapeError,
    SolidProperties,
    collision_solid,
    load_mesh,
)
from gzinertia.physics.shapes import solid_properties as geometry_solid
from gzinertia.record_base import ValueRecord
from gzinertia.records import Collision, Geometry, LinkRecord
from gzinertia.spatial.added_mass import AddedMass, ellipsoid_added_mass
from gzinertia.spatial.inertia import (
    DBL_EPSILON,
    equivalent_ellipsoid_semi_axes,
    principal_axes,
    reverses_orientation,
    triangle_margin,
)
from gzinertia.spatial.rotation import Mat3, Pose, Vec3
from gzinertia.spatial.tuckerman import MAX_AXIS_RATIO
from gzinertia.wording import bounded, vector

__all__ = [
    "DEFAULT_FIT",
    "FIT_METHODS",
    "SEPARATE_BODIES_REASON",
    "EllipsoidFit",
    "FitError",
    "FitMethod",
    "ellipsoid_of_solid",
    "explicit_fit",
    "fit_link",
    "mujoco_semi_axes_and_frame",
]

FitMethod = Literal["mujoco", "volume", "inertia", "explicit"]
#: The fit methods, the default (``volume``) first.
FIT_METHODS: tuple[FitMethod, ...] = ("volume", "mujoco", "inertia", "explicit")
DEFAULT_FIT: FitMethod = "volume"

def _explicit_hint() -> str:
    return option("explicit_ellipsoid")


class FitError(GzInertiaError):
    """A link (or explicit input) that the requested ellipsoid fit cannot handle.

    ``problem``: the message without its advice; ``fallback``: the fit that does not need what
    this one lacked (``"inertia"`` when the collisions cannot be fitted, ``"volume"`` when the
    inertia cannot), ``None`` when no other fit helps. A command that has no explicit ellipsoid
    (``plot``) words its own advice from these."""

    def __init__(self, message: str, *, problem: str | None = None,
                 fallback: FitMethod | None = None) -> None:
        super().__init__(message)
        self.problem = message if problem is None else problem
        self.fallback = fallback


def _unfit(problem: str, fallback: FitMethod) -> FitError:
    """``problem``, advising the ``fallback`` fit or an explicit ellipsoid (spelled when raised,
    so as the caller's interface spells options: :func:`gzinertia.options.option`)."""
    if fallback == "inertia":
        hint = f"use the 'inertia' fit or give the ellipsoid with {_explicit_hint()}"
    else:
        hint = f"use the 'volume' fit (from the collisions) or {_explicit_hint()}"
    return FitError(f"{problem}; {hint}", problem=problem, fallback=fallback)


@dataclass(frozen=True, repr=False, eq=False)
class EllipsoidFit(ValueRecord):
    """The ellipsoids of one fit of a link, and what to tell the user about it.

    ``ellipsoids`` holds one ellipsoid, except for ``mujoco`` (one per collision) and ``volume``
    (one per separate body); ``description``
    is one line naming the method; ``approximation`` says what the shapes approximated (e.g. a
    non-watertight mesh replaced by its convex hull), ``None`` when nothing was.
    """

    method: FitMethod
    ellipsoids: tuple[PosedEllipsoid, ...]
    description: str
    approximation: str | None = None

    def added_mass(self, density: float) -> AddedMass:
        """``A_BBo_B`` in a fluid of ``density`` (kg/m³): the sum over the ellipsoids of each
        Tuckerman ``A_EEo_E`` rotated to link axes and moved from its centre Eo to the link
        origin Bo (exact congruences). Linear-first ``[x y z p q r]``."""
        total: AddedMass | None = None
        try:
            for ellipsoid in self.ellipsoids:
                _, A_BBo_B = ellipsoid_added_mass(ellipsoid.semi_axes, density, ellipsoid.X_FE)
                total = A_BBo_B if total is None else total + A_BBo_B
        except Float64OverflowError as exc:
            raise FitError(f"{self.description}: {exc}") from None
        if total is None:
            raise FitError(f"{self.description}: no ellipsoid to compute added mass from")
        return total


# --- principal frames -------------------------------------------------------------------------


def _snap_symmetric(M: ArrayLike) -> Mat3:
    """The symmetric part of ``M`` with off-diagonal rounding noise (below ``16·ε·tr``) set to
    zero, so that a shape aligned with B keeps exactly B's axes even where moments are equal."""
    A = np.asarray(M, dtype=float)
    A = 0.5 * (A + A.T)
    noise = 16.0 * DBL_EPSILON * abs(float(np.trace(A)))
    off = ~np.eye(3, dtype=bool)
    A[off & (np.abs(A) <= noise)] = 0.0
    return A


def _proper(R: Mat3) -> Mat3:
    """``R`` with its last column negated if needed so that ``det R = +1``."""
    R = np.array(R, dtype=float)
    if reverses_orientation(R):
        R[:, 2] = -R[:, 2]
    return R


#: Principal values closer than this (relative to the largest) are treated as equal: within such
#: a group any orthonormal axes are principal, and the ones nearest B's axes are taken. Changing
#: the axes within a group changes the fitted ellipsoid by at most this much (relative).
_EQUAL_VALUES_RTOL = 1e-12


def _align_degenerate(values: Vec3, R_BP: Mat3) -> Mat3:
    """``R_BP`` (eigenvector columns of ascending ``values``) with the axes of each group of
    equal values turned, within their plane, onto the link axes nearest to it (the identity for
    three equal values)."""
    v = np.asarray(values, dtype=float)
    R = np.array(R_BP, dtype=float)
    tol = _EQUAL_VALUES_RTOL * float(np.max(np.abs(v)))
    if v[2] - v[0] <= tol:
        return np.eye(3)
    for i, j in ((0, 1), (1, 2)):
        if v[j] - v[i] <= tol:
            plane = R[:, [i, j]]  # orthonormal basis of the eigenplane
            # the link axis with the largest component in the plane, and its in-plane direction
            row = int(np.argmax(np.linalg.norm(plane, axis=1)))
            c = plane[row] / np.linalg.norm(plane[row])
            R[:, i] = plane @ c
            R[:, j] = plane @ np.array([-c[1], c[0]])
    return R


def _principal_frame(M: ArrayLike) -> tuple[Vec3, Mat3]:
    """Ascending principal values of a symmetric 3x3 and a rotation whose columns are their
    axes, with equal values' axes on the link axes where the eigenspace allows."""
    values, R = principal_axes(_snap_symmetric(M))
    return values, _proper(_align_degenerate(values, R))


def _nearest_to_link(
    values: Vec3, R_BP: Mat3, descending: bool = False
) -> tuple[Vec3, Mat3]:
    """Permutes and signs the columns of ``R_BP`` (with ``values``) so that the result is a proper
    rotation as close to the identity as the principal directions allow; with ``descending``,
    only among the orders that keep ``values`` non-increasing (equal values in any order)."""
    v = np.asarray(values, dtype=float)
    tol = _EQUAL_VALUES_RTOL * float(np.max(np.abs(v)))
    perms = [
        p
        for p in itertools.permutations(range(3))
        if not descending or all(v[p[k]] >= v[p[k + 1]] - tol for k in range(2))
    ]
    rows = np.asarray(R_BP, dtype=float).tolist()  # the same sums, without NumPy scalars
    best = max(perms, key=lambda perm: sum(abs(rows[j][perm[j]]) for j in range(3)))
    order = list(best)
    R = R_BP[:, order].copy()
    signs = np.where(np.diag(R) < 0.0, -1.0, 1.0)
    R = R * signs
    if reverses_orientation(R):
        weakest = int(np.argmin(np.abs(np.diag(R))))
        R[:, weakest] = -R[:, weakest]
    return v[order], R


# --- helpers ----------------------------------------------------------------------------------


def _where(link: LinkRecord) -> str:
    return f"{link.source}: link '{link.name}'"


def _kinds(collisions: Sequence[Collision]) -> str:
    counts: dict[str, int] = {}
    for c in collisions:
        counts[c.geometry.kind] = counts.get(c.geometry.kind, 0) + 1
    return ", ".join(k if n == 1 else f"{n}× {k}" for k, n in counts.items())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _check_semi_axes(semi_axes: Vec3, what: str) -> str | None:
    """Why these semi-axes cannot make an ellipsoid (``None`` when they can)."""
    problem = semi_axes_problem(semi_axes, MAX_AXIS_RATIO)
    return None if problem is None else f"{what}: {problem}"


def _fmt(v: ArrayLike) -> str:
    return vector(np.asarray(v, dtype=float).ravel(), 6)


def _collision_label(c: Collision) -> str:
    return f"collision '{c.name}' ({c.geometry.kind}, {c.source})"


def _usable_collisions(link: LinkRecord, method: FitMethod) -> tuple[Collision, ...]:
    """The link's collisions, or a :class:`FitError` if it has none or one without a volume."""
    if not link.collisions:
        raise _unfit(f"{_where(link)} has no <collision> to fit the {method} ellipsoid to",
                     "inertia")
    for c in link.collisions:
        kind = c.geometry.kind
        if kind in ("plane", "heightmap", "other"):
            shape = "an unsupported geometry" if kind == "other" else f"a {kind}"
            raise _unfit(
                f"{_where(link)}: {_collision_label(c)} is {shape}, which displaces no finite "
                "volume of fluid", "inertia",
            )
        if kind == "mesh" and c.geometry.mesh_path is None:
            raise _unfit(
                f"{_where(link)}: {_collision_label(c)}: mesh {c.geometry.mesh_uri!r} did not "
                "resolve to a file (set GZ_SIM_RESOURCE_PATH or pass the model path)", "inertia",
            )
    return link.collisions


def _shape_error(link: LinkRecord, c: Collision, exc: ShapeError) -> FitError:
    return _unfit(f"{_where(link)}: {_collision_label(c)}: {exc}", "inertia")


def _approximations(notes: Sequence[tuple[Collision, str | None]]) -> str | None:
    parts = [f"collision '{c.name}': {note}" for c, note in notes if note]
    return "; ".join(parts) if parts else None


# --- mujoco -----------------------------------------------------------------------------------


def _mesh_vertices_C(geometry: Geometry) -> Vec3:
    """The mesh's vertices in the collision frame C, after ``<scale>`` (shape (n, 3), m)."""
    assert geometry.mesh_path is not None
    return np.asarray(load_mesh(geometry.mesh_path, geometry.scale).vertices, dtype=float)


def _mujoco_cone(radius: float, length: float, geometry: Geometry) -> tuple[Vec3, Pose, None]:
    """MuJoCo has no cone: a cone reaches it as a mesh, so its mesh rule applies, with the
    cone's exact extent in place of vertices: E at the centroid ``(0, 0, -L/4)`` on the
    principal axes (largest moment on x), semi-axes the cone's furthest reach from the
    centroid along each (``max(h(e) - c·e, h(-e) + c·e)`` with the support function h)."""
    from gzinertia.physics.contact_groups import cone_support

    solid = geometry_solid(geometry)
    moments, R_CP = _principal_frame(solid.G_FFc_F)
    _moments, R_CE = _nearest_to_link(moments, R_CP, descending=True)
    c = np.asarray(solid.p_FoFc_F, dtype=float)
    h = cone_support(radius, length)
    semi = np.array([max(float(h(e) @ e) - float(c @ e), float(h(-e) @ -e) + float(c @ e))
                     for e in np.asarray(R_CE).T])
    return semi, Pose(c, R_CE), None


def mujoco_semi_axes_and_frame(geometry: Geometry) -> tuple[Vec3, Pose, str | None]:
    """MuJoCo's fluid-ellipsoid semi-axes of one collision geometry, the frame E they are along
    (``X_CE`` in the collision frame C) and the shape's approximation note.

    Primitives: E = C. Meshes: E at the solid's centroid on its principal axes, x along the
    largest principal moment (MuJoCo's mesh frame); semi-axes ``max|v_E|`` over the vertices.
    Raises :class:`ShapeError` for a geometry without a solid.
    """
    kind = geometry.kind
    primitive = primitive_semi_axes(geometry)
    if primitive is not None:
        return primitive, Pose(), None
    if kind == "mesh":
        solid = geometry_solid(geometry)  # validates the mesh (ShapeError otherwise)
        moments, R_CP = _principal_frame(solid.G_FFc_F)
        # MuJoCo's mesh frame: descending moments (x the largest); signs as near C as possible
        _moments, R_CE = _nearest_to_link(moments, R_CP, descending=True)
        X_CE = Pose(solid.p_FoFc_F, R_CE)
        v_E = (_mesh_vertices_C(geometry) - solid.p_FoFc_F) @ R_CE
        return np.max(np.abs(v_E), axis=0), X_CE, solid.approximation
    if kind == "cone" and geometry.radius is not None and geometry.length is not None:
        return _mujoco_cone(geometry.radius, geometry.length, geometry)
    if kind in ("sphere", "capsule", "cylinder", "box", "ellipsoid", "cone"):
        raise ShapeError(f"the {kind} geometry is missing its dimensions")
    raise ShapeError(f"a {kind} geometry has no MuJoCo fluid ellipsoid")


def _mujoco_fit(link: LinkRecord) -> EllipsoidFit:
    collisions = _usable_collisions(link, "mujoco")
    ellipsoids: list[PosedEllipsoid] = []
    notes: list[tuple[Collision, str | None]] = []
    for c in collisions:
        try:
            semi_axes, X_CE, note = mujoco_semi_axes_and_frame(c.geometry)
        except ShapeError as exc:
            raise _shape_error(link, c, exc) from exc
        problem = _check_semi_axes(semi_axes, f"the MuJoCo ellipsoid of {_collision_label(c)}")
        if problem:
            raise _unfit(f"{_where(link)}: {problem}", "inertia")
        ellipsoids.append(PosedEllipsoid(semi_axes, c.X_BC @ X_CE, c.name))
        notes.append((c, note))
    n = len(ellipsoids)
    what = "one ellipsoid" if n == 1 else f"{n} ellipsoids, one per collision"
    return EllipsoidFit(
        "mujoco",
        tuple(ellipsoids),
        f"mujoco fit (MuJoCo's fluidshape=ellipsoid rule): {what} ({_kinds(collisions)})",
        _approximations(notes),
    )


# --- volume -----------------------------------------------------------------------------------


def ellipsoid_of_solid(solid: SolidProperties) -> tuple[Vec3, Pose]:
    """The ellipsoid with the solid's volume, centroid and principal axes, its axis ratios those
    of the solid's second moments: semi-axes along E's axes and ``X_FE`` in the solid's frame F.

    ``S = ½·tr(G)·1 - G = R_FE·diag(s)·R_FEᵀ``, ``a_i = k·√s_i`` with ``4/3·π·abc = V``.
    Non-positive second moments give NaN or zero semi-axes (for the caller to report).
    """
    G = np.asarray(solid.G_FFc_F, dtype=float)
    s, R_FP = _principal_frame(0.5 * np.trace(G) * np.eye(3) - G)
    s, R_FE = _nearest_to_link(s, R_FP)
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(s / np.max(s))  # in (0, 1]: no overflow in the product
        k = np.cbrt(3.0 * solid.volume / (4.0 * np.pi * np.prod(root)))
        semi_axes = k * root
    return semi_axes, Pose(solid.p_FoFc_F, R_FE)


def _bodies(collisions: Sequence[Collision], solids: Sequence[SolidProperties]) -> list[list[int]]:
    """The collisions grouped into separate bodies: those that touch or overlap are one body
    (:mod:`gzinertia.physics.contact_groups`)."""
    from gzinertia.physics.contact_groups import convex_shape, touching_groups

    if len(collisions) == 1:
        return [[0]]
    shapes = [convex_shape(c, s.volume) for c, s in zip(collisions, solids, strict=True)]
    return touching_groups(shapes)


#: Why separate bodies get separate ellipsoids (said in every such fit's description).
SEPARATE_BODIES_REASON = (
    "one ellipsoid per body, summed at the link origin (one ellipsoid around all of them would "
    "put fluid between them; the interaction this neglects falls as (size/distance)^3)"
)


def _volume_fit(link: LinkRecord) -> EllipsoidFit:
    from gzinertia.physics.link_union import link_solid

    collisions = _usable_collisions(link, "volume")
    solids: list[SolidProperties] = []
    for c in collisions:
        try:
            solids.append(collision_solid(c))
        except ShapeError as exc:
            raise _shape_error(link, c, exc) from exc
    bodies = _bodies(collisions, solids)
    ellipsoids: list[PosedEllipsoid] = []
    volume = 0.0
    unions: list[str] = []
    for body in bodies:
        try:  # the body's solids united (overlaps once): the one pipeline's body
            part = link_solid([collisions[i] for i in body])
        except ShapeError as exc:
            raise _unfit(f"{_where(link)}: {exc}", "inertia") from exc
        volume += part.volume
        own = {s.approximation for s in (solids[i] for i in body)}
        if part.approximation and part.approximation not in own:  # what uniting did
            unions.append(part.approximation.rsplit("; ", 1)[-1])
        semi_axes, X_BE = ellipsoid_of_solid(part)
        what = "the volume-equivalent ellipsoid of its collisions"
        if len(bodies) > 1:
            names = bounded(f"'{collisions[i].name}'" for i in body)
            what = f"the volume-equivalent ellipsoid of collision(s) {names}"
        problem = _check_semi_axes(semi_axes, what)
        if problem:
            raise _unfit(f"{_where(link)}: {problem}", "inertia")
        label = None if len(bodies) == 1 else "+".join(collisions[i].name for i in body)
        ellipsoids.append(PosedEllipsoid(semi_axes, X_BE, label))
    n = len(collisions)
    description = (
        f"volume fit to {_plural(n, 'collision')} ({_kinds(collisions)}): V = {volume:.6g} m³"
    )
    if len(bodies) > 1:
        description += f", {len(bodies)} separate bodies: {SEPARATE_BODIES_REASON}"
    elif n > 1:
        description += ", one body (the collisions touch): one ellipsoid"
    notes = [_approximations([(c, s.approximation) for c, s in zip(collisions, solids,
                                                                    strict=True)]), *unions]
    return EllipsoidFit(
        "volume", tuple(ellipsoids), description, "; ".join(n for n in notes if n) or None
    )


# --- inertia ----------------------------------------------------------------------------------


def _inertia_fit(link: LinkRecord) -> EllipsoidFit:
    inertial = link.inertial
    problem = None
    if inertial.defaulted:
        problem = "has no <inertial> (libsdformat's default 1 kg and unit inertia)"
    elif inertial.auto:
        problem = (
            'has <inertial auto="true">: its inertia is computed from the collisions, so fit '
            "the collisions themselves (the volume or mujoco fit)"
        )
    elif inertial.inertia_defaulted or (
        inertial.source is not None and inertial.inertia_source is None
    ):
        problem = "has no <ixx>..<izz> in its <inertial> (the spec's default unit inertia)"
    elif not (np.isfinite(inertial.mass) and inertial.mass > 0.0):
        problem = f"has mass {inertial.mass:g} kg; the inertia fit needs a positive mass"
    if problem:
        raise _unfit(f"{_where(link)} {problem}", "volume")
    I_BBcm_B = inertial.I_BBcm_B
    if not np.all(np.isfinite(I_BBcm_B)):
        raise _unfit(f"{_where(link)} has a non-finite inertia", "volume")
    moments, R_BP = _principal_frame(I_BBcm_B)
    # λ₁ + λ₂ - λ₃ is 2m/5·c² for the smallest semi-axis c: below rounding it is a flat disk
    margin, noise = triangle_margin(moments), 16.0 * DBL_EPSILON * float(np.sum(moments))
    if margin < -noise:
        raise _unfit(
            f"{_where(link)}: its principal moments {_fmt(moments)} kg·m² violate the triangle "
            "inequality, so no solid ellipsoid has them", "volume",
        )
    if margin <= noise:
        raise _unfit(
            f"{_where(link)}: the equivalent solid ellipsoid of its inertia is degenerate: "
            f"principal moments {_fmt(moments)} kg·m² give a flat disk (λ₁ + λ₂ = λ₃)", "volume",
        )
    semi_axes = equivalent_ellipsoid_semi_axes(inertial.mass, moments)
    problem = _check_semi_axes(semi_axes, "the equivalent solid ellipsoid of its inertia")
    if problem:
        raise _unfit(f"{_where(link)}: {problem}", "volume")
    semi_axes, R_BE = _nearest_to_link(semi_axes, R_BP)
    return EllipsoidFit(
        "inertia",
        (PosedEllipsoid(semi_axes, Pose(inertial.p_BoBcm_B, R_BE)),),
        f"inertia fit: the uniform solid ellipsoid of the link's {inertial.mass:g} kg and its "
        "inertia, centred at the centre of mass",
        None,
    )


# --- public -----------------------------------------------------------------------------------


def fit_link(link: LinkRecord, method: FitMethod) -> EllipsoidFit:
    """The ellipsoid fit ``method`` of the link's fluid-displacing shape, posed in the link frame.

    ``mujoco`` and ``volume`` use the collisions, ``inertia`` the ``<inertial>``; ``explicit``
    needs values: use :func:`explicit_fit`. Raises :class:`FitError` (naming the link and its
    source, suggesting another fit) when the link cannot be fitted that way.
    """
    if method == "volume":
        return _volume_fit(link)
    if method == "mujoco":
        return _mujoco_fit(link)
    if method == "inertia":
        return _inertia_fit(link)
    if method == "explicit":
        raise ValueError("the explicit fit takes its values from the user: call explicit_fit()")
    raise ValueError(f"unknown fit method {method!r} (known: {', '.join(FIT_METHODS)})")


def _three(values: ArrayLike, what: str) -> Vec3:
    try:
        v = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise FitError(f"{what} must be three numbers, got {values!r}") from exc
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise FitError(f"{what} must be three finite numbers, got {values!r}")
    return v


def explicit_fit(
    semi_axes: ArrayLike, center: ArrayLike = (0.0, 0.0, 0.0), rpy: ArrayLike = (0.0, 0.0, 0.0)
) -> EllipsoidFit:
    """An ellipsoid given by the user: ``semi_axes`` (m) along E's axes, its centre
    ``p_BoEo_B = center`` (m) and ``R_BE`` from SDFormat roll-pitch-yaw ``rpy`` (rad), both in
    the link frame B. Raises :class:`FitError` for anything but three finite positive lengths,
    or a non-finite centre or angle."""
    r = _three(semi_axes, option("semi_axes"))
    problem = _check_semi_axes(r, f"the {option('semi_axes')} ellipsoid")
    if problem:
        raise FitError(f"{problem}: give three positive lengths a,b,c in metres")
    p = _three(center, option("center"))
    angles = _three(rpy, option("rpy"))
    return EllipsoidFit(
        "explicit",
        (PosedEllipsoid(r, Pose.from_xyz_rpy(p, angles)),),
        f"explicit ellipsoid: semi-axes {_fmt(r)} m, centre {_fmt(p)} m, rpy {_fmt(angles)} rad "
        "in the link frame",
        None,
    )
