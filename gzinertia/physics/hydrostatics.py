"""Hydrostatics as gz-sim's Buoyancy system computes them, next to the exact geometry.

What Gazebo does (gz-sim ``src/systems/buoyancy/Buoyancy.cc``, gz-math shapes, gz-common
``Mesh::Volume``), reproduced here:

* **Volume of a link** (uniform fluid): the sum over its collisions of each geometry's volume:
  primitives exactly (box, sphere, cylinder, capsule, ellipsoid, cone); a mesh by gz-common's
  ``Mesh::Volume``: the sum over the file's submeshes (OBJ groups and materials, COLLADA
  ``<triangles>`` blocks; one for STL) of each one's absolute signed-tetrahedron sum,
  **without** ``<scale>`` (:func:`~gzinertia.physics.collision_volume.gazebo_mesh_volume`);
  planes, heightmaps and unknown shapes count 0.
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

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from gzinertia.physics.collision_volume import CollisionVolume, collision_volume, gazebo_sum
from gzinertia.physics.graded_buoyancy import (
    buoyancy_centre,
    exact_fluid_force,
    graded_gazebo,
    mesh_fluid_force,
    up_vector,
)
from gzinertia.physics.link_union import link_union
from gzinertia.physics.mesh_fallback import approximated
from gzinertia.record_base import ValueRecord
from gzinertia.records import BuoyancyWorld, LinkRecord
from gzinertia.spatial.rotation import Pose, Vec3
from gzinertia.vocabulary.proxy import is_buoyancy_proxy
from gzinertia.vocabulary.scoped_names import top_scope


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
        notes = [c.note for c in self.collisions] + [self.volume_exact_note]
        return "approximate" if any(approximated(note) for note in notes) else "exact"


def link_hydrostatics(link: LinkRecord, fluid: BuoyancyWorld) -> LinkHydrostatics:
    """The link's buoyancy at its pose ``link.X_WB`` in ``fluid``, as Gazebo applies it and by
    exact geometry (see the module)."""
    g_W = np.asarray(fluid.g_W, dtype=float)
    X_WB = link.X_WB
    parts = tuple(collision_volume(c) for c in link.collisions)
    V_gz, p_gz = gazebo_sum(parts)
    solid = [p.volume is not None and p.p_BoCv_B is not None for p in parts]
    exact = [p for p, ok in zip(parts, solid, strict=True) if ok]
    union = link_union([c for c, ok in zip(link.collisions, solid, strict=True)  # a proxy
                        if ok and not is_buoyancy_proxy(c.name)])  # floats on its own
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
            f, m = graded_gazebo(c.geometry, X_WB @ c.X_BC, fluid, g_W)
            f_gz, m_gz = f_gz + f, m_gz + m
            f, m = exact_fluid_force(c, X_WB, fluid, g_W)
            f_ex, m_ex = f_ex + f, m_ex + m
        if union is not None and union.union_B is not None:  # the overlap's slices once
            for mesh, sign in ((union.union_B, 1.0), *((m, -1.0) for m in union.pieces_B)):
                f, m = mesh_fluid_force(mesh, X_WB, fluid, g_W)
                f_ex, m_ex = f_ex + sign * f, m_ex + sign * m
        p_gz_W = buoyancy_centre(f_gz, m_gz, up_vector(g_W), p_WBv_gz)
        p_ex_W = buoyancy_centre(f_ex, m_ex, up_vector(g_W), p_WBv_ex)
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
        return up_vector(self.g_W)

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
