"""Hydrostatics as gz-sim's Buoyancy system computes them, next to the exact geometry.

What Gazebo does (gz-sim ``src/systems/buoyancy/Buoyancy.cc``, gz-math shapes, gz-common
``Mesh::Volume``), reproduced here:

* **Volume of a link** (uniform fluid): the sum over its collisions of each geometry's volume:
  primitives exactly (box, sphere, cylinder, capsule, ellipsoid, cone); a mesh by gz-common's
  ``Mesh::Volume``: the sum over the file's submeshes (OBJ groups and materials, COLLADA
  ``<triangles>`` blocks; one for STL) of each one's absolute signed-tetrahedron sum,
  **without** ``<scale>`` (:func:`gazebo_mesh_volume`); planes, heightmaps and unknown shapes
  count 0.
* **Centre of volume of a link**: ``Σ V_c·p_BoCo_B / Σ V_c``, each collision weighted at its
  **origin** Co (not its centroid): exact for the centred primitives, wrong for a cone (its
  centroid is a quarter of its length below its origin) and for a mesh whose centroid is not at
  its origin (gz-sim#3909, with the scale).
* **Uniform fluid**: force ``-ρ·V·g`` at the centre of volume, whatever the link's height
  (the whole world is fluid).
* **Graded fluid**: per collision, the volume below each layer's height is that of the shape
  below the plane ``z_C = h - z_WCo`` **in the shape's own axes** (the plane is not rotated,
  gz-sim#3892: right for upright shapes only), the centre of each slab placed with the full
  pose; the slab between two heights gets the density of the lower layer (``default_density``
  below the first); the part above the highest layer is placed as if the whole shape's centre
  of volume were its origin (right for every primitive but the cone). Meshes and other shapes
  get **no** buoyancy in a graded world.

:func:`link_hydrostatics` computes both Gazebo's numbers and the exact geometry's (the solid
the geometry pipeline makes of a mesh, after ``<scale>``: :mod:`gzinertia.physics.mesh_body`;
collisions that overlap counted once, their union's:
:mod:`gzinertia.physics.link_union`; graded slices by the true horizontal plane, on the
shape's triangle mesh), so the difference can be reported. Frames: W world, M model, B link
(origin Bo), C collision; ``p_WB`` in the JSON is the centre of buoyancy, ``p_WG`` the centre
of mass.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gzinertia.physics.collision_mesh import collision_trimesh
from gzinertia.physics.mesh_load import (
    FILE_MESHES,
    MeshFileError,
    MeshSource,
    ShapeError,
    read_mesh,
)
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, Collision, Geometry, LinkRecord
from gzinertia.spatial.rotation import Pose, Vec3
from gzinertia.vocabulary.scoped_names import top_scope

#: Gazebo's threshold under which a slab adds no force (``1e-10`` m³ in GradedFluidDensity).
GAZEBO_SLAB_EPSILON = 1e-10
#: Shapes gz-sim's graded buoyancy computes (meshes and the rest get nothing).
GRADED_SHAPES = ("box", "sphere", "cylinder", "capsule", "ellipsoid", "cone")


@dataclass(frozen=True, repr=False, eq=False)
class CollisionVolume(ValueRecord):
    """One collision's displaced volume: Gazebo's (``volume_gz``, centre at the collision origin
    ``p_BoCv_B_gz``) and the exact solid's (``volume``, centroid ``p_BoCv_B``; ``None`` when the
    geometry has no solid), in the link frame B (m³, m)."""

    name: str
    kind: str
    volume_gz: float
    p_BoCv_B_gz: Vec3
    volume: float | None
    p_BoCv_B: Vec3 | None
    note: str | None = None
    #: How many submeshes gz-common builds from a mesh file (:func:`gazebo_submesh_volumes`;
    #: Gazebo's volume sums their absolute volumes); 1 for other shapes.
    submeshes: int = 1
    #: The mesh file (``None`` for other shapes, or a mesh that did not resolve) and whether
    #: its ``<scale>`` is not 1 (Gazebo's volume ignores it).
    mesh_path: str | None = None
    scaled: bool = False


@dataclass(frozen=True, repr=False, eq=False)
class LinkHydrostatics(ValueRecord):
    """A link's buoyancy at its pose ``X_WB`` as Gazebo computes it, and by exact geometry.

    ``volume`` and ``p_BoBv_B`` (centre of volume, link frame) are Gazebo's; ``volume_exact`` and
    ``p_BoBv_B_exact`` the exact geometry's. ``f_W`` (N, world) is the buoyancy Gazebo applies
    and ``p_WB`` (world) the centre of buoyancy: the mean of the points Gazebo applies its
    forces at, weighted by each force along "up" (the centre of volume when nothing acts);
    ``f_W_exact``/``p_WB_exact`` the same by exact geometry.
    ``enabled`` is False when the plugin's ``<enable>`` list leaves the link out (then
    ``f_W`` is zero). ``mass`` (kg) and ``p_WG`` (world) are the link's centre of mass.
    """

    name: str
    model: str
    enabled: bool
    mass: float
    p_WG: Vec3
    volume: float
    p_BoBv_B: Vec3
    volume_exact: float
    p_BoBv_B_exact: Vec3
    f_W: Vec3
    p_WB: Vec3
    f_W_exact: Vec3
    p_WB_exact: Vec3
    collisions: tuple[CollisionVolume, ...]
    static: bool = False
    #: The free body the link moves with (:attr:`LinkRecord.body`; ``""``: the whole model),
    #: and whether a joint holds that body to the world (fixed: ``static``-like; or hinged).
    body: str = ""
    anchored: bool = False
    #: What uniting overlapping collisions did to the exact figures
    #: (:attr:`gzinertia.physics.link_union.LinkUnion.note`), ``None`` when they are apart.
    volume_exact_note: str | None = None

    def __post_init__(self) -> None:
        for name in ("p_WG", "p_BoBv_B", "p_BoBv_B_exact", "f_W", "p_WB", "f_W_exact",
                     "p_WB_exact"):
            value = np.array(getattr(self, name), dtype=float).reshape(3)
            value.setflags(write=False)
            object.__setattr__(self, name, value)

    @property
    def volume_exact_kind(self) -> str:
        """``"exact"`` when every collision's solid is the shape's own (closed pieces united,
        repairs included) and overlapping collisions are united, ``"approximate"`` when a solid
        is a convex hull or an overlap is counted twice
        (:func:`gzinertia.physics.mesh_body.approximated`)."""
        from gzinertia.physics.mesh_body import approximated

        notes = [c.note for c in self.collisions] + [self.volume_exact_note]
        return "approximate" if any(approximated(note) for note in notes) else "exact"


# ---------------------------------------------------------------------------------------------
# Gazebo's volumes


def gazebo_submesh_volumes(path: str, source: MeshSource = FILE_MESHES) -> tuple[float, ...]:
    """Each submesh's ``SubMesh::Volume`` as gz-common computes it: ``|Σ v1·(v2×v3)/6|`` over
    the submesh's triangles, in the file's units, unscaled; one per submesh of the file as
    gz-common's loaders split it, read from ``source``
    (:meth:`~gzinertia.io.mesh_source.MeshSource.submeshes`; from files:
    :func:`gzinertia.io.mesh_submeshes.gazebo_submeshes`, OBJ groups and materials, COLLADA
    ``<triangles>`` blocks, STL one). Computed once per process while the
    source's stamp of the mesh is unchanged (an edited file is read again); the mesh is first
    read as every mesh is (:func:`gzinertia.physics.mesh_load.read_mesh`), so a mesh that is not
    read raises the same :class:`~gzinertia.physics.shapes.ShapeError`.

    This is gz-common since #877 (commit 252093cf, 2026-08-20: "fix Volume() for meshes offset
    from the origin"); before it ``SubMesh::Volume`` summed ``|v1·(v2×v3)/6|`` per triangle,
    which counts a closed mesh whose origin lies outside it more than once. gz-sim's Buoyancy
    system takes ``Mesh::Volume`` (:func:`gazebo_mesh_volume`)."""
    return _submesh_volumes(path, source, source.stamp(path))


@functools.lru_cache(maxsize=64)
def _submesh_volumes(path: str, source: MeshSource, stamp: Hashable) -> tuple[float, ...]:
    """:func:`gazebo_submesh_volumes` (``stamp`` is part of the key only)."""
    read_mesh(path, (1.0, 1.0, 1.0), source)
    try:
        return tuple(abs(signed_volume(t)) for t in source.submeshes(path))
    except MeshFileError as exc:
        raise ShapeError(str(exc)) from None


def gazebo_mesh_volume(path: str, source: MeshSource = FILE_MESHES) -> float:
    """gz-common's ``Mesh::Volume`` (``graphics/src/Mesh.cc``), which gz-sim's Buoyancy system
    takes for a mesh collision: the sum over the file's submeshes of each one's absolute
    signed volume (:func:`gazebo_submesh_volumes`), unscaled. It equals the solid's volume
    for a closed mesh of one submesh; split into several (OBJ groups, COLLADA blocks) whose
    pieces are not closed, it counts what the pieces' signed volumes about the file's origin
    add, which is more than the solid when the origin lies outside it."""
    return float(sum(gazebo_submesh_volumes(path, source)))


def signed_volume(triangles: Any) -> float:
    """``Σ v1·(v2×v3)/6`` over triangles ``(n, 3, 3)`` (m³; positive for outward winding)."""
    t = np.asarray(triangles, dtype=float)
    if len(t) == 0:
        return 0.0
    return float(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])).sum() / 6.0)


def collision_volume(collision: Collision) -> CollisionVolume:
    """Gazebo's and the exact volume and centre of one collision, in the link frame."""
    from gzinertia.physics.shapes import collision_solid

    geometry = collision.geometry
    p_BoCo_B = np.asarray(collision.X_BC.p, dtype=float)
    note = None
    try:
        solid = collision_solid(collision)
        volume: float | None = solid.volume
        p_exact: Vec3 | None = np.asarray(solid.p_FoFc_F, dtype=float)
        if solid.approximation:
            note = solid.approximation
    except ShapeError as exc:
        volume, p_exact, note = None, None, str(exc)
    submeshes = 1
    if geometry.kind in GRADED_SHAPES:
        volume_gz = volume or 0.0
    elif geometry.kind == "mesh" and geometry.mesh_path is not None:
        try:
            parts = gazebo_submesh_volumes(geometry.mesh_path)
            volume_gz, submeshes = float(sum(parts)), len(parts)
        except ShapeError as exc:
            volume_gz, note = 0.0, str(exc)
    else:
        volume_gz = 0.0  # plane (ignored), heightmap and unknown shapes (Gazebo: unsupported)
    return CollisionVolume(collision.name, geometry.kind, volume_gz, p_BoCo_B, volume, p_exact,
                           note, submeshes, geometry.mesh_path,
                           geometry.kind == "mesh" and tuple(geometry.scale) != (1.0, 1.0, 1.0))


def gazebo_sum(parts: Sequence[CollisionVolume]) -> tuple[float, Vec3]:
    """Gazebo's volume of a link (m³) and its centre of volume ``p_BoBv_B`` (m, link frame B),
    as gz-sim's Buoyancy system sums its collisions: each ``volume_gz`` (overlaps counted
    twice) at the collision's origin; the origin B for no volume."""
    V_gz = sum(p.volume_gz for p in parts)
    p_gz = (sum((p.volume_gz * p.p_BoCv_B_gz for p in parts), np.zeros(3)) / V_gz
            if V_gz > 0 else np.zeros(3))
    return V_gz, p_gz


#: Relative difference between a collision's Gazebo volume and its solid's that
#: :func:`gazebo_volume_causes` explains.
CAUSE_TOLERANCE = 1e-9


def gazebo_volume_causes(collisions: Sequence[CollisionVolume]) -> list[str]:
    """Why Gazebo's volume of these mesh collisions differs from their solids' (one phrase per
    collision whose volumes differ): the per-submesh sum (:func:`gazebo_mesh_volume`) and the
    ignored ``<scale>``. Shared by ``hydrostatics`` and the audit (GZI305)."""
    out = []
    for c in collisions:
        if c.kind != "mesh" or c.volume is None or not (
                abs(c.volume_gz - c.volume) > CAUSE_TOLERANCE * c.volume):
            continue
        causes = []
        if c.submeshes > 1:
            from pathlib import PurePath

            name = PurePath(c.mesh_path or "").name
            causes.append(f"gz-common's Mesh::Volume sums |volume| over the {c.submeshes} "
                          f"submeshes of {name} (OBJ groups or materials, COLLADA <triangles> "
                          "blocks), counting open pieces about the file's origin")
        if c.scaled:
            causes.append("its <scale> ignored")
        if causes:
            out.append(f"{c.name}: {' and '.join(causes)}")
    return out


# ---------------------------------------------------------------------------------------------
# Volumes below a plane z_C = d in a shape's own axes (gz-math's VolumeBelow, horizontal plane)


def _cap(r: float, d: float) -> tuple[float, float]:
    """Part of a sphere of radius r (centre 0) below z = d: (volume, volume·z_centroid)."""
    if d <= -r:
        return 0.0, 0.0
    if d >= r:
        return 4.0 / 3.0 * math.pi * r**3, 0.0
    h = r + d
    V = math.pi * h * h * (3.0 * r - h) / 3.0
    z = -3.0 * (2.0 * r - h) ** 2 / (4.0 * (3.0 * r - h))
    return V, V * z


def _cone_below(r: float, length: float, d: float) -> tuple[float, float]:
    """A cone along z (base of radius r at ``-L/2``, apex at ``+L/2``) below z = d: the whole
    cone minus the tip of height ``u = L/2 - d`` above the plane (gz-math's
    ``Cone::VolumeBelow``/``CenterOfVolumeBelow`` for a plane normal to its axis):
    ``V = π·r²·(L³ - u³)/(3L²)``, ``V·z_c = π·r²/L²·(L/2·(L³ - u³)/3 - (L⁴ - u⁴)/4)``."""
    L = length
    if L <= 0.0 or r <= 0.0:
        return 0.0, 0.0
    half = 0.5 * L
    u = half - min(max(d, -half), half)
    k = math.pi * r * r / (L * L)
    return k * (L**3 - u**3) / 3.0, k * (half * (L**3 - u**3) / 3.0 - (L**4 - u**4) / 4.0)


def _prism(area: float, length: float, d: float) -> tuple[float, float]:
    """A straight prism along z of this cross-section, centred, below z = d."""
    h = min(max(d + 0.5 * length, 0.0), length)
    return area * h, area * h * (-0.5 * length + 0.5 * h)


def volume_below(geometry: Geometry, d: float) -> tuple[float, float]:
    """``(V, V·z_c)`` of the shape below the plane ``z_C = d`` in its own axes (the part's
    centroid is on the shape's z axis for every primitive): gz-math's ``VolumeBelow`` and
    ``CenterOfVolumeBelow`` for a plane normal to the shape's z. ``(0, 0)`` for other shapes."""
    kind = geometry.kind
    if kind == "box" and geometry.size is not None:
        x, y, z = geometry.size
        return _prism(x * y, z, d)
    if kind == "sphere" and geometry.radius is not None:
        return _cap(geometry.radius, d)
    if kind == "cylinder" and geometry.radius is not None and geometry.length is not None:
        return _prism(math.pi * geometry.radius**2, geometry.length, d)
    if kind == "capsule" and geometry.radius is not None and geometry.length is not None:
        r, half = geometry.radius, 0.5 * geometry.length
        Vc, Mc = _prism(math.pi * r * r, geometry.length, d)
        # lower hemisphere (centre -half, z <= -half): the sphere below min(d, -half)
        Vl, Ml = _cap(r, min(d, -half) + half)
        Ml += -half * Vl
        # upper hemisphere (centre +half, z >= +half): the sphere below d minus its lower half
        Vs, Ms = _cap(r, d - half) if d > half else (0.0, 0.0)
        if d > half:
            V0, M0 = _cap(r, 0.0)
            Vs, Ms = Vs - V0, Ms - M0
        Ms += half * Vs
        return Vc + Vl + Vs, Mc + Ml + Ms
    if kind == "ellipsoid" and geometry.size is not None:
        a, b, c = geometry.size
        V, M = _cap(c, d)  # the sphere of radius c stretched by a/c and b/c across z
        return V * a * b / (c * c), M * a * b / (c * c)
    if kind == "cone" and geometry.radius is not None and geometry.length is not None:
        return _cone_below(geometry.radius, geometry.length, d)
    return 0.0, 0.0


def _graded_gazebo(
    geometry: Geometry, X_WC: Pose, fluid: BuoyancyWorld, g_W: Any
) -> tuple[Any, Any]:
    """Gazebo's GradedFluidDensity for one shape at world pose X_WC: ``(force_W, Σ w_i·p_i)``
    with ``w_i`` each slab's force along ``up`` (N) and ``p_i`` its centre (world; Gazebo
    places it with the full pose), from which the centre of buoyancy follows."""
    force, moment = np.zeros(3), np.zeros(3)
    if geometry.kind not in GRADED_SHAPES:
        return force, moment
    z0 = float(X_WC.p[2])
    up = _up(g_W)
    prev_rho, prev_V, prev_M = fluid.density, 0.0, 0.0
    for height, rho in fluid.layers:
        V, M = volume_below(geometry, height - z0)
        if V <= 0.0 or abs(V - prev_V) < GAZEBO_SLAB_EPSILON:
            prev_rho = rho
            if V > 0.0:
                prev_V, prev_M = V, M
            continue
        f = -(V - prev_V) * prev_rho * np.asarray(g_W)
        z_slab = (M - prev_M) / (V - prev_V)
        point = X_WC.transform_point([0.0, 0.0, z_slab])
        force += f
        moment += float(f @ up) * point
        prev_rho, prev_V, prev_M = rho, V, M
    V_all, _ = volume_below(geometry, math.inf)
    M_all = 0.0  # Gazebo takes the whole shape's centre of volume at its origin (not a cone's)
    if abs(V_all - prev_V) >= GAZEBO_SLAB_EPSILON:
        f = -(V_all - prev_V) * prev_rho * np.asarray(g_W)
        point = X_WC.transform_point([0.0, 0.0, (M_all - prev_M) / (V_all - prev_V)])
        force += f
        moment += float(f @ up) * point
    return force, moment


# ---------------------------------------------------------------------------------------------
# Exact geometry: the solid's triangle mesh, sliced by true horizontal planes


def clip_below(triangles: Any, height: float) -> Any:
    """The parts of triangles ``(n, 3, 3)`` (world frame) below the plane ``z = height``, as
    triangles with the same winding (a triangle cut once gives one triangle or two)."""
    t = np.asarray(triangles, dtype=float)
    below = t[:, :, 2] <= height
    count = below.sum(axis=1)
    out = [t[count == 3]]
    for lone_below, n in ((True, 1), (False, 2)):
        sel = t[count == n]
        if len(sel) == 0:
            continue
        flags = below[count == n] if lone_below else ~below[count == n]
        first = np.argmax(flags, axis=1)  # the lone vertex, rotated to the front (same cycle)
        order = (first[:, None] + np.arange(3)[None, :]) % 3
        a, b, c = (np.take_along_axis(sel, order[:, k, None, None], axis=1)[:, 0]
                   for k in range(3))

        def cut(p: Any, q: Any) -> Any:
            s = (height - p[:, 2]) / (q[:, 2] - p[:, 2])
            return p + s[:, None] * (q - p)

        p_ab, p_ac = cut(a, b), cut(a, c)
        if lone_below:
            out.append(np.stack([a, p_ab, p_ac], axis=1))
        else:
            out.append(np.stack([p_ab, b, c], axis=1))
            out.append(np.stack([p_ab, c, p_ac], axis=1))
    return np.concatenate(out, axis=0)


def volume_below_plane(triangles: Any, height: float) -> tuple[float, Any]:
    """Volume (m³) and first moment of volume (m⁴, ``V·p_centroid``) of the closed, outward
    wound triangle surface's solid below the plane ``z = height``.

    Signed tetrahedra from an apex on the plane: the cap the cut would add lies in the plane
    through the apex, so it adds nothing, and the clipped triangles alone give the exact
    volume and centroid of the part below (no cap is built)."""
    t = clip_below(triangles, height)
    if len(t) == 0:
        return 0.0, np.zeros(3)
    apex = np.array([0.0, 0.0, height if math.isfinite(height) else 0.0])
    r = t - apex
    v = np.einsum("ij,ij->i", r[:, 0], np.cross(r[:, 1], r[:, 2])) / 6.0
    V = float(v.sum())
    centroids = apex + r.sum(axis=1) / 4.0  # of each tetrahedron (apex, r0, r1, r2)
    return V, (v[:, None] * centroids).sum(axis=0)


def _is_upright(geometry: Geometry, X_WC: Pose, up: Any) -> bool:
    """A primitive whose own z axis is vertical (either way up, every primitive but the cone
    being symmetric about its z = 0 plane; a cone apex up), or a sphere: its horizontal slices
    are the closed forms'."""
    if geometry.kind == "sphere":
        return True
    if geometry.kind not in GRADED_SHAPES or not np.allclose(up, [0.0, 0.0, 1.0]):
        return False
    R_zz = float(np.asarray(X_WC.R)[2, 2])
    return (R_zz if geometry.kind == "cone" else abs(R_zz)) >= 1.0 - 1e-12


def _upright_fluid_force(
    geometry: Geometry, X_WC: Pose, fluid: BuoyancyWorld, g_W: Any, up: Any
) -> tuple[Any, Any]:
    """Exact graded buoyancy of an upright primitive (closed forms, slab centres on the
    vertical through the shape's centre)."""
    force, moment = np.zeros(3), np.zeros(3)
    z0 = float(X_WC.p[2])
    heights = [h for h, _ in fluid.layers] + [math.inf]
    densities = [fluid.density] + [rho for _, rho in fluid.layers]
    prev_V, prev_M = 0.0, 0.0
    for height, rho in zip(heights, densities, strict=True):
        V, M = volume_below(geometry, height - z0)
        dV = V - prev_V
        if dV > 0.0:
            f = -dV * rho * np.asarray(g_W)
            force += f
            moment += float(f @ up) * (np.asarray(X_WC.p) + up * (M - prev_M) / dV)
        prev_V, prev_M = V, M
    return force, moment


def _exact_fluid_force(
    collision: Collision, X_WB: Pose, fluid: BuoyancyWorld, g_W: Any
) -> tuple[Any, Any]:
    """``(force_W, Σ w_i·p_i)`` on one collision by exact geometry in a graded fluid (as
    :func:`_graded_gazebo`, slabs cut by true horizontal planes)."""
    X_WC = X_WB @ collision.X_BC
    up = _up(g_W)
    if _is_upright(collision.geometry, X_WC, up):
        return _upright_fluid_force(collision.geometry, X_WC, fluid, g_W, up)
    mesh = collision_trimesh(collision)
    if mesh is None:
        return np.zeros(3), np.zeros(3)
    return _mesh_fluid_force(np.asarray(mesh.triangles), X_WC, fluid, g_W)


def _mesh_fluid_force(
    triangles_F: Any, X_WF: Pose, fluid: BuoyancyWorld, g_W: Any
) -> tuple[Any, Any]:
    """``(force_W, Σ w_i·p_i)`` on the solid a closed, outward triangle surface ``(n, 3, 3)``
    (in frame F, posed ``X_WF``) bounds, in a graded fluid: slabs cut by true horizontal
    planes."""
    up = _up(g_W)
    force, moment = np.zeros(3), np.zeros(3)
    triangles = np.asarray(triangles_F, dtype=float) @ np.asarray(X_WF.R).T + np.asarray(X_WF.p)
    heights = [h for h, _ in fluid.layers] + [math.inf]
    densities = [fluid.density] + [rho for _, rho in fluid.layers]
    prev_V, prev_M = 0.0, np.zeros(3)
    for height, rho in zip(heights, densities, strict=True):
        V, M = volume_below_plane(triangles, height)
        dV = V - prev_V
        if dV > 0.0:
            f = -dV * rho * np.asarray(g_W)
            force += f
            moment += float(f @ up) * (M - prev_M) / dV
        prev_V, prev_M = V, M
    return force, moment


def _up(g_W: Any) -> Any:
    """The unit vector against gravity (+z without gravity)."""
    g = float(np.linalg.norm(g_W))
    return -np.asarray(g_W, dtype=float) / g if g > 0 else np.array([0.0, 0.0, 1.0])


def _centre(force: Any, first_moment: Any, up: Any, fallback: Any) -> Any:
    """``Σ w_i·p_i / Σ w_i`` (``fallback`` when no force acts)."""
    w = float(force @ up)
    return np.asarray(first_moment) / w if w != 0.0 else np.asarray(fallback, dtype=float)


# ---------------------------------------------------------------------------------------------
# Links and models


def link_hydrostatics(link: LinkRecord, fluid: BuoyancyWorld) -> LinkHydrostatics:
    """The link's buoyancy at its pose ``link.X_WB`` in ``fluid``, as Gazebo applies it and by
    exact geometry (see the module)."""
    from gzinertia.physics.link_union import link_union

    g_W = np.asarray(fluid.g_W, dtype=float)
    X_WB = link.X_WB
    parts = tuple(collision_volume(c) for c in link.collisions)
    V_gz, p_gz = gazebo_sum(parts)
    solid = [p.volume is not None and p.p_BoCv_B is not None for p in parts]
    exact = [p for p, ok in zip(parts, solid, strict=True) if ok]
    union = link_union([c for c, ok in zip(link.collisions, solid, strict=True) if ok])
    V_ex = sum(p.volume or 0.0 for p in exact)
    M_ex = sum(((p.volume or 0.0) * np.asarray(p.p_BoCv_B) for p in exact), np.zeros(3))
    if union is not None:  # overlapping collisions displace their overlap once
        V_ex, M_ex = V_ex - union.overlap_volume, M_ex - union.overlap_moment
    p_ex = M_ex / V_ex if V_ex > 0 else np.zeros(3)
    enabled = fluid.is_enabled(link.name)
    inertial = link.inertial
    p_WG = X_WB.transform_point(inertial.p_BoBcm_B)
    p_WBv_gz, p_WBv_ex = X_WB.transform_point(p_gz), X_WB.transform_point(p_ex)
    zero = np.zeros(3)
    if not enabled:
        f_gz, p_gz_W, f_ex, p_ex_W = zero, p_WBv_gz, zero, p_WBv_ex
    elif fluid.kind == "uniform":
        f_gz = -fluid.density * V_gz * g_W
        f_ex = -fluid.density * V_ex * g_W
        p_gz_W, p_ex_W = p_WBv_gz, p_WBv_ex
    else:
        f_gz, m_gz = np.zeros(3), np.zeros(3)
        f_ex, m_ex = np.zeros(3), np.zeros(3)
        for c in link.collisions:
            f, m = _graded_gazebo(c.geometry, X_WB @ c.X_BC, fluid, g_W)
            f_gz, m_gz = f_gz + f, m_gz + m
            f, m = _exact_fluid_force(c, X_WB, fluid, g_W)
            f_ex, m_ex = f_ex + f, m_ex + m
        if union is not None and union.union_B is not None:  # the overlap's slices once
            for mesh, sign in ((union.union_B, 1.0), *((m, -1.0) for m in union.pieces_B)):
                f, m = _mesh_fluid_force(mesh, X_WB, fluid, g_W)
                f_ex, m_ex = f_ex + sign * f, m_ex + sign * m
        p_gz_W = _centre(f_gz, m_gz, _up(g_W), p_WBv_gz)
        p_ex_W = _centre(f_ex, m_ex, _up(g_W), p_WBv_ex)
    return LinkHydrostatics(
        link.name, link.model, enabled, inertial.mass, p_WG, V_gz, p_gz, V_ex, p_ex,
        f_gz, p_gz_W, f_ex, p_ex_W, parts, link.static, link.body,
        link.body_anchored or link.welded_to_world, union.note if union is not None else None,
    )


@dataclass(frozen=True, repr=False, eq=False)
class ModelHydrostatics(ValueRecord):
    """A top-level model's buoyancy against its weight, at the poses the file gives.

    ``mass`` (kg), ``weight`` and ``buoyancy`` (N, magnitudes along gravity), ``volume`` (m³,
    Gazebo's, enabled links), ``fluid_density`` (kg/m³: ``buoyancy / (|g|·volume)``, the
    density the buoyancy corresponds to; the graded world's layers mix), ``p_WG``/``p_WB``
    centre of mass and centre of buoyancy (world), ``X_WM`` the model frame when the file poses
    it in the world (else ``None``). ``*_exact``: the same by exact geometry.
    """

    name: str
    links: tuple[LinkHydrostatics, ...]
    g_W: Vec3
    X_WM: Pose | None
    #: The fluid's density when it is uniform (kg/m³), ``None`` in a graded world: then
    #: :attr:`fluid_density` is that density exactly, not the round trip through the forces.
    uniform_density: float | None = None

    @property
    def mass(self) -> float:
        """Total mass of the model's links (kg)."""
        return float(sum(link.mass for link in self.links))

    @property
    def g(self) -> float:
        """``|g_W|`` (m/s²)."""
        return float(np.linalg.norm(self.g_W))

    @property
    def weight(self) -> float:
        """``mass·g`` (N)."""
        return self.mass * self.g

    def _up(self) -> Any:
        return _up(self.g_W)

    @property
    def f_W(self) -> Vec3:
        """The buoyancy force summed over the links (world axes, N; Gazebo's volumes)."""
        return np.asarray(sum((link.f_W for link in self.links), np.zeros(3)))

    @property
    def f_W_exact(self) -> Vec3:
        """:attr:`f_W` by exact geometry (world axes, N)."""
        return np.asarray(sum((link.f_W_exact for link in self.links), np.zeros(3)))

    @property
    def buoyancy(self) -> float:
        """The buoyancy along up, against gravity (N; Gazebo's volumes)."""
        return float(self.f_W @ self._up())

    @property
    def buoyancy_exact(self) -> float:
        """:attr:`buoyancy` by exact geometry (N)."""
        return float(self.f_W_exact @ self._up())

    @property
    def volume(self) -> float:
        """Gazebo's displaced volume of the enabled links (m³)."""
        return float(sum(link.volume for link in self.links if link.enabled))

    @property
    def volume_exact(self) -> float:
        """:attr:`volume` by exact geometry (m³)."""
        return float(sum(link.volume_exact for link in self.links if link.enabled))

    @property
    def fluid_density(self) -> float:
        """The density the buoyancy corresponds to (kg/m³; NaN without volume): in a uniform
        fluid the fluid's own (:attr:`uniform_density`), in a graded one ``buoyancy /
        (g·volume)``, the layers' mix."""
        d = self.g * self.volume
        if not d > 0:
            return math.nan
        return self.uniform_density if self.uniform_density is not None else self.buoyancy / d

    @property
    def net(self) -> float:
        """Buoyancy minus weight (N): positive floats up."""
        return self.buoyancy - self.weight

    @property
    def net_percent(self) -> float:
        """:attr:`net` as a percentage of the weight (NaN without weight)."""
        return 100.0 * self.net / self.weight if self.weight > 0 else math.nan

    @property
    def p_WG(self) -> Vec3:
        """Centre of mass G in the world (m; NaN without mass)."""
        m = self.mass
        if not m > 0:
            return np.full(3, math.nan)
        return np.asarray(sum((link.mass * link.p_WG for link in self.links), np.zeros(3)) / m)

    def _centre(self, exact: bool) -> Vec3:
        up = self._up()
        weights = [float((link.f_W_exact if exact else link.f_W) @ up) for link in self.links]
        total = sum(weights)
        if total == 0.0:
            return np.full(3, math.nan)
        pts = [link.p_WB_exact if exact else link.p_WB for link in self.links]
        return np.asarray(sum((w * p for w, p in zip(weights, pts, strict=True)),
                              np.zeros(3)) / total)

    @property
    def p_WB(self) -> Vec3:
        """Centre of buoyancy (world, m): the buoyancy-weighted mean of the links' points."""
        return self._centre(False)

    @property
    def p_WB_exact(self) -> Vec3:
        """Centre of buoyancy by exact geometry (world, m)."""
        return self._centre(True)

    @property
    def p_BG_W(self) -> Vec3:
        """The vector from B to G (world axes, m)."""
        return np.asarray(self.p_WG - self.p_WB)

    @property
    def righting_moment_W(self) -> Vec3:
        """The moment of buoyancy and weight about G at this pose (world axes, N·m):
        ``p_GB × F_B`` (weight acts at G): zero when B is straight above or below G."""
        return np.asarray(np.cross(self.p_WB - self.p_WG, self.buoyancy * self._up()))

    @property
    def restoring_stiffness(self) -> float:
        """Small-angle restoring moment per radian of tilt for a submerged body,
        ``B·(z_B - z_G)`` along ``up`` (N·m/rad): negative when B lies below G (unstable)."""
        return self.buoyancy * float((self.p_WB - self.p_WG) @ self._up())

    @property
    def anchored(self) -> bool:
        """Static, or held by a joint to the world: not a free vehicle (no rule judges it)."""
        return bool(self.links) and all(link.static or link.anchored for link in self.links)

    @property
    def bodies(self) -> tuple[ModelHydrostatics, ...]:
        """The model's free bodies (:mod:`gzinertia.physics.bodies`), each as the same
        numbers over its links, in file order of their first link. A model of one body gives
        one entry named as the model; otherwise each is named by its root link's scoped name
        (``model::link``). Rules and flotation judge these, not the model's sum."""
        groups: dict[str, list[LinkHydrostatics]] = {}
        for link in self.links:
            groups.setdefault(link.body or self.name, []).append(link)
        if len(groups) == 1:
            return (self,)
        return tuple(ModelHydrostatics(name, tuple(group), self.g_W, self.X_WM,
                                       self.uniform_density)
                     for name, group in groups.items())

    def in_model_frame(self, p_W: Any) -> Vec3 | None:
        """A world point in the model frame M (``None`` when M is not known)."""
        if self.X_WM is None:
            return None
        return np.asarray(self.X_WM.inverse().transform_point(p_W))


def top_model(link: LinkRecord) -> str:
    """The top-level model a link belongs to (first segment of its scoped name)."""
    return top_scope(link.name) if "::" in link.name else link.model


def model_hydrostatics(
    links: Sequence[LinkRecord],
    fluid: BuoyancyWorld,
    model_poses: dict[str, Pose] | None = None,
) -> list[ModelHydrostatics]:
    """Per top-level model (in file order), its links' hydrostatics in ``fluid``."""
    groups: dict[str, list[LinkHydrostatics]] = {}
    for link in links:
        groups.setdefault(top_model(link), []).append(link_hydrostatics(link, fluid))
    poses = model_poses or {}
    g_W = np.asarray(fluid.g_W, dtype=float)
    uniform = fluid.density if fluid.kind == "uniform" else None
    return [ModelHydrostatics(name, tuple(group), g_W, poses.get(name), uniform)
            for name, group in groups.items()]
