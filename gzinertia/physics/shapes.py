"""Collision solids: volume, centroid and unit-density rotational inertia of SDF geometries.

A :class:`SolidProperties` describes a uniform solid in some frame F: its volume ``V``, its
centroid ``Fc`` (``p_FoFc_F``) and ``G_FFc_F``, its rotational inertia about the centroid at
density 1 kg/m³ expressed in F's axes (m⁵). At density ρ the solid's mass is ``ρ·V`` and its
rotational inertia about its centre of mass is ``ρ·G_FFc_F``.

:func:`solid_properties` works in the geometry's own frame C (the ``<collision>`` frame), with
SDF's axes: cylinders, capsules and cones along z (a cone's base at ``z = -L/2``), boxes by full
sizes, ellipsoids by semi-axes. Meshes are read with trimesh after ``<scale>`` and made a solid
by :mod:`gzinertia.physics.mesh_body` (repaired, closed pieces united, a surface that cannot be
closed refused or replaced by the fallback chosen); the result says what was done in
``approximation``. :func:`collision_solid` re-expresses a solid in the
link frame B through ``X_BC``; :func:`combine_solids` is the union of disjoint solids. Inside a
:func:`shared_solids` block (the audit opens one per document), each collision record's solid
is computed once, however many computations ask for it.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

import gzinertia.physics
from gzinertia.physics.mesh_load import (
    FILE_MESHES,
    MeshSource,
    ShapeError,
    file_stamp,
    load_mesh,
    read_mesh,
)
from gzinertia.record_base import Record
from gzinertia.records import Collision, Geometry
from gzinertia.spatial.inertia import parallel_axis, reexpress_inertia
from gzinertia.spatial.rotation import Mat3, Vec3

if TYPE_CHECKING:
    import gzinertia.physics.mesh_body

__all__ = [
    "ShapeError",
    "SolidProperties",
    "box_solid",
    "capsule_solid",
    "checked_solid",
    "collision_solid",
    "combine_solids",
    "cone_solid",
    "cylinder_solid",
    "ellipsoid_solid",
    "file_stamp",
    "load_mesh",
    "mesh_solid",
    "reexpress_solid",
    "shared_solids",
    "solid_properties",
    "sphere_solid",
]


@dataclass(frozen=True, repr=False, eq=False)
class SolidProperties(Record):
    """Volume, centroid and unit-density rotational inertia of a solid, expressed in a frame F.

    ``volume`` in m³ (> 0); ``p_FoFc_F`` the centroid Fc (centre of volume) measured from F's
    origin, in F axes (m); ``G_FFc_F`` the rotational inertia at density 1 kg/m³ about the
    centroid, in F axes (m⁵), so that the solid at density ρ has inertia ``ρ·G_FFc_F`` about its
    centre of mass; ``approximation`` says what was approximated (``None`` when exact).
    """

    volume: float
    p_FoFc_F: Vec3
    G_FFc_F: Mat3
    approximation: str | None = None


def checked_solid(
    volume: float, p: Any, G: Any, approximation: str | None = None
) -> SolidProperties:
    """The solid, refused (:class:`ShapeError`) when a value overflowed float64: a shape whose
    size is below the reader's value limit can still have a volume or second moment beyond it
    (a box of side 1e100 has ``G ~ 1e500``)."""
    centroid = np.array(p, dtype=float).reshape(3)
    inertia = np.array(G, dtype=float).reshape(3, 3)
    # The usual case without NumPy's error-state switching (a tenth of an audit's time): when
    # twice the sum of the entries' magnitudes is finite, so is every entry and every sum of
    # two, an entry with itself included (``inertia + inertia.T``); NaN, infinity and huge
    # entries take the general check.
    finite = (
        math.isfinite(volume)
        and math.isfinite(sum(map(abs, centroid.tolist())))
        and math.isfinite(2.0 * sum(map(abs, inertia.ravel().tolist())))
    )
    if not finite:
        with np.errstate(over="ignore", invalid="ignore"):
            finite = math.isfinite(volume) and bool(np.all(np.isfinite(centroid)))
            finite = finite and bool(np.all(np.isfinite(inertia + inertia.T)))
    if not finite:
        raise ShapeError(
            "the shape is too large: its volume or second moment of volume overflows float64"
        )
    inertia = 0.5 * (inertia + inertia.T)
    centroid.setflags(write=False)
    inertia.setflags(write=False)
    return SolidProperties(float(volume), centroid, inertia, approximation)


def _require(value: float | None, what: str) -> float:
    if value is None:
        raise ShapeError(f"{what} is missing")
    return float(value)


def _require3(value: tuple[float, float, float] | None, what: str) -> tuple[float, float, float]:
    if value is None:
        raise ShapeError(f"{what} is missing")
    return (float(value[0]), float(value[1]), float(value[2]))


def box_solid(size: tuple[float, float, float]) -> SolidProperties:
    """Box of full sizes ``(x, y, z)`` centred on C: ``G = V/12·diag(y²+z², x²+z², x²+y²)``."""
    x, y, z = size
    V = x * y * z
    return checked_solid(
        V, np.zeros(3), V / 12.0 * np.diag([y * y + z * z, x * x + z * z, x * x + y * y])
    )


def sphere_solid(radius: float) -> SolidProperties:
    """Sphere centred on C: ``V = 4/3·π·r³``, ``G = 2/5·V·r²·1``."""
    V = 4.0 / 3.0 * math.pi * radius**3
    return checked_solid(V, np.zeros(3), 0.4 * V * radius * radius * np.eye(3))


def cylinder_solid(radius: float, length: float) -> SolidProperties:
    """Cylinder along C's z, centred on C: ``G = V·diag((3r²+L²)/12, (3r²+L²)/12, r²/2)``."""
    r2 = radius * radius
    V = math.pi * r2 * length
    transverse = V * (3.0 * r2 + length * length) / 12.0
    return checked_solid(V, np.zeros(3), np.diag([transverse, transverse, 0.5 * V * r2]))


def capsule_solid(radius: float, length: float) -> SolidProperties:
    """Capsule along C's z (cylinder of ``length`` plus two hemispherical caps), centred on C.

    Cylinder ``V_c = π·r²·L``, caps together ``V_s = 4/3·π·r³``; about z
    ``G_zz = V_c·r²/2 + V_s·2r²/5``; transverse
    ``G_xx = V_c·(3r² + L²)/12 + V_s·(2r²/5 + L²/4 + 3·L·r/8)`` (each cap's inertia about its flat
    face, ``2/5·m·r²``, moved to C through its centroid at ``3r/8`` from the face).
    """
    r, L = radius, length
    r2 = r * r
    V_c = math.pi * r2 * L
    V_s = 4.0 / 3.0 * math.pi * r2 * r
    axial = 0.5 * V_c * r2 + 0.4 * V_s * r2
    transverse = V_c * (3.0 * r2 + L * L) / 12.0 + V_s * (0.4 * r2 + 0.25 * L * L + 0.375 * L * r)
    return checked_solid(V_c + V_s, np.zeros(3), np.diag([transverse, transverse, axial]))


def cone_solid(radius: float, length: float) -> SolidProperties:
    """Cone along C's z, base of ``radius`` at ``z = -L/2``, apex at ``z = +L/2`` (gz-math's
    ``Cone``): ``V = π·r²·L/3``, centroid ``(0, 0, -L/4)`` (a quarter of the height above the
    base), ``G = V·diag(3(4r² + L²)/80, 3(4r² + L²)/80, 3r²/10)`` about the centroid (gz-math's
    ``MassMatrix3::SetFromConeZ``)."""
    r2, L = radius * radius, length
    V = math.pi * r2 * L / 3.0
    transverse = V * 3.0 * (4.0 * r2 + L * L) / 80.0
    return checked_solid(V, np.array([0.0, 0.0, -0.25 * L]),
                  np.diag([transverse, transverse, 0.3 * V * r2]))


def ellipsoid_solid(radii: tuple[float, float, float]) -> SolidProperties:
    """Ellipsoid of semi-axes ``(a, b, c)`` along C's axes.

    ``V = 4/3·π·a·b·c``, ``G = V/5·diag(b²+c², a²+c², a²+b²)``.
    """
    a, b, c = radii
    V = 4.0 / 3.0 * math.pi * a * b * c
    return checked_solid(
        V, np.zeros(3), V / 5.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    )


def mesh_solid(path: str, scale: tuple[float, float, float] = (1.0, 1.0, 1.0),
               source: MeshSource = FILE_MESHES) -> SolidProperties:
    """A triangle mesh read from ``source`` (default: the file ``path`` on disk), scaled per
    axis, as a solid in the mesh frame C: the body :func:`gzinertia.physics.mesh_body.mesh_body`
    makes of it (repaired, its closed pieces united; a surface that cannot be closed refused, or
    its convex hull under a ``hull_fallback("convex")`` block). ``approximation`` is the body's
    note (what was done, and what the source assumed).
    """
    if abs(float(np.prod(scale))) == 0.0:
        raise ShapeError(f"mesh {path!r} has a zero <scale> {scale}")
    _require_solid_extent(path, np.asarray(read_mesh(path, scale, source).vertices, dtype=float))
    body = gzinertia.physics.mesh_body.mesh_body(path, scale, source)  # trimesh, loaded here
    props = body.trimesh().mass_properties  # density 1: inertia about the centroid, mesh axes
    volume = float(props.volume)
    if not volume > 0.0:
        raise ShapeError(f"mesh {path!r} encloses no volume")
    _require_body_moments(path, props.inertia)
    return checked_solid(volume, props.center_mass, props.inertia, body.note)


def _require_body_moments(path: str, I_per_density: Any) -> None:
    """Refuses volume integrals no body has: the principal moments of a solid (a hollow one
    too) are positive and satisfy the strict triangle inequality. A closed mesh whose pieces
    face opposite ways (an inside-out piece beside outward ones, as in DAVE's wave glider)
    sums them with opposite signs into moments that break it, and every geometry rule built on
    them would be meaningless (a safety net: :func:`gzinertia.physics.mesh_repair.repaired`
    turns such pieces outward first)."""
    with np.errstate(invalid="ignore"):
        I = np.asarray(I_per_density, dtype=float)
        moments = np.linalg.eigvalsh(0.5 * (I + I.T))
    if not (moments[0] > 0.0 and moments[0] + moments[1] > moments[2]):
        raise ShapeError(
            f"mesh {path!r} does not bound a solid: its closed pieces face opposite ways (an "
            "inside-out piece beside outward ones), so its volume integrals are no body's"
        )


def _require_solid_extent(path: str, vertices: Any) -> None:
    """Refuses a mesh whose vertices do not span three dimensions (all on a plane, a line or a
    point, to round-off): it bounds no volume and has no convex hull (qhull refuses it)."""
    with np.errstate(over="ignore", invalid="ignore"):
        centred = vertices - vertices.mean(axis=0)
        finite = bool(np.all(np.isfinite(centred)))
        size = float(np.max(np.abs(centred))) if finite and len(vertices) else 0.0
        singular: Any = np.linalg.svd(centred / size, compute_uv=False) if size > 0 else []
    if not finite:
        raise ShapeError(f"mesh {path!r} is too large: its coordinates overflow float64")
    if len(singular) < 3 or not singular[2] > 1e-9 * singular[0]:
        raise ShapeError(
            f"mesh {path!r} is flat (its vertices lie on a plane, a line or a point): "
            "it bounds no volume"
        )


def solid_properties(geometry: Geometry) -> SolidProperties:
    """The solid of a collision geometry in its own frame C (SDF axes, SI units).

    Raises :class:`ShapeError` for planes, heightmaps and unknown shapes, for a mesh whose URI
    did not resolve or whose file cannot be loaded, and for a shape of zero volume.
    """
    kind = geometry.kind
    with np.errstate(over="ignore", invalid="ignore"):  # _solid refuses what overflowed
        solid = _raw_solid(geometry, kind)
    if not solid.volume > 0.0:
        raise ShapeError(f"the {kind} geometry has zero volume")
    return solid


#: The solids of the shapes SDF gives by a ``<radius>`` and a ``<length>``.
_RADIUS_AND_LENGTH: dict[str, Callable[[float, float], SolidProperties]] = {
    "cylinder": cylinder_solid, "capsule": capsule_solid, "cone": cone_solid,
}


def _raw_solid(geometry: Geometry, kind: str) -> SolidProperties:
    if kind == "box":
        solid = box_solid(_require3(geometry.size, "box <size>"))
    elif kind == "sphere":
        solid = sphere_solid(_require(geometry.radius, "sphere <radius>"))
    elif kind in _RADIUS_AND_LENGTH:
        solid = _RADIUS_AND_LENGTH[kind](
            _require(geometry.radius, f"{kind} <radius>"),
            _require(geometry.length, f"{kind} <length>"),
        )
    elif kind == "ellipsoid":
        solid = ellipsoid_solid(_require3(geometry.size, "ellipsoid <radii>"))
    elif kind == "mesh":
        if geometry.mesh_path is None:
            raise ShapeError(f"mesh {geometry.mesh_uri!r} did not resolve to a file")
        solid = mesh_solid(geometry.mesh_path, geometry.scale)
    else:
        raise ShapeError(f"a {kind} geometry has no volume to compute")
    return solid


def reexpress_solid(solid_C: SolidProperties, R_BC: Any, p_BoCo_B: Any) -> SolidProperties:
    """A solid given in frame C re-expressed in frame B, where ``X_BC = (p_BoCo_B, R_BC)``.

    ``p_BoBc_B = p_BoCo_B + R_BC·p_CoCc_C``; ``G_BBc_B = R_BC·G_CCc_C·R_BCᵀ`` (same point).
    """
    R = np.asarray(R_BC, dtype=float)
    p_BoBc_B = np.asarray(p_BoCo_B, dtype=float) + R @ solid_C.p_FoFc_F
    return checked_solid(
        solid_C.volume, p_BoBc_B, reexpress_inertia(solid_C.G_FFc_F, R), solid_C.approximation
    )


def collision_solid(collision: Collision) -> SolidProperties:
    """The collision's solid in the link frame B (through ``collision.X_BC``); inside a
    :func:`shared_solids` block, computed once per record (the refusal too)."""
    memo = _SHARED_SOLIDS.get()
    if memo is None:
        return _collision_solid(collision)
    hit = memo.get(id(collision))
    if hit is None or hit[0] is not collision:
        try:
            hit = (collision, _collision_solid(collision))
        except ShapeError as exc:
            hit = (collision, exc)
        memo[id(collision)] = hit  # the entry holds the record: its id is not reused meanwhile
    if isinstance(hit[1], ShapeError):
        raise ShapeError(str(hit[1]))
    return hit[1]


def _collision_solid(collision: Collision) -> SolidProperties:
    solid_C = solid_properties(collision.geometry)
    return reexpress_solid(solid_C, collision.X_BC.R, collision.X_BC.p)


#: The solids of :func:`shared_solids`' block: by ``id`` of the record, with the record itself
#: (kept alive, and compared by identity, so a freed record's reused ``id`` cannot match).
_SHARED_SOLIDS: ContextVar[
    dict[int, tuple[Collision, SolidProperties | ShapeError]] | None
] = ContextVar("gzinertia_shared_solids", default=None)


@contextlib.contextmanager
def shared_solids() -> Iterator[None]:
    """A block within which :func:`collision_solid` computes each :class:`Collision` record's
    solid once (records are immutable, and a solid is a function of its record and, for a mesh,
    of the file :func:`load_mesh` already caches); the solids are dropped when the block ends.
    Blocks nest (the outer one's solids are kept); each thread or task has its own."""
    if _SHARED_SOLIDS.get() is not None:
        yield
        return
    token = _SHARED_SOLIDS.set({})
    try:
        yield
    finally:
        _SHARED_SOLIDS.reset(token)


def combine_solids(solids: Sequence[SolidProperties]) -> SolidProperties:
    """The union of disjoint solids given in one frame F.

    Volumes add, the centroid is the volume-weighted mean ``p_FoFc_F = Σ V_i·p_i / V``, and each
    ``G_i`` moves to the common centroid by the parallel-axis theorem with "mass" ``V_i``
    (``G = Σ G_i + V_i·[d_i]×[d_i]×ᵀ``, ``d_i = p_i - p_FoFc_F``). Overlaps are counted twice.
    ``approximation`` lists the parts' approximations (``None`` when all are exact).
    """
    if not solids:
        raise ShapeError("no solids to combine")
    if len(solids) == 1:
        alone = _combined_alone(solids[0])
        if alone is not None:
            return alone
    volume = sum(s.volume for s in solids)
    if not volume > 0.0:
        raise ShapeError("the solids have no volume")
    centroid = sum((s.volume * s.p_FoFc_F for s in solids), np.zeros(3)) / volume
    G = np.zeros((3, 3))
    for s in solids:
        G += parallel_axis(s.G_FFc_F, s.volume, s.p_FoFc_F - centroid)
    notes = [s.approximation for s in solids if s.approximation]
    approximation = "; ".join(dict.fromkeys(notes)) if notes else None
    return checked_solid(volume, centroid, G, approximation)


def _combined_alone(solid: SolidProperties) -> SolidProperties | None:
    """``combine_solids([solid])`` without NumPy's small-array overhead, when its centroid
    comes back exactly (``(0 + V·p)/V == p``, the usual case; else ``None``: take the general
    path). The same IEEE operations on the same numbers give the same bits: the centroid is
    ``(0 + V·p)/V`` element by element, and with a zero offset the parallel-axis term adds
    (signed) zeros to ``G``, which then lands in a zero matrix: ``G + 0.0`` (``-0.0`` becomes
    ``+0.0``), already symmetric (exactly: ``_solid`` symmetrised it)."""
    V = solid.volume
    if not (type(V) is float and V > 0.0):
        return None
    p = np.asarray(solid.p_FoFc_F, dtype=float)
    G = np.asarray(solid.G_FFc_F, dtype=float)
    if p.shape != (3,) or G.shape != (3, 3):
        return None
    centroid = [(0.0 + V * x) / V for x in p.tolist()]
    if any(x - c != 0.0 for x, c in zip(p.tolist(), centroid, strict=True)):
        return None  # (NaN too)
    g = G.tolist()
    if not (g[0][1] == g[1][0] and g[0][2] == g[2][0] and g[1][2] == g[2][1]):
        return None
    p_FoFc_F = np.array(centroid)
    G_FFc_F = G + 0.0
    p_FoFc_F.setflags(write=False)
    G_FFc_F.setflags(write=False)
    return SolidProperties(V, p_FoFc_F, G_FFc_F, solid.approximation or None)
