"""What the checks read: one document and, per link, quantities derived once and cached.

:class:`DocumentContext` wraps an :class:`~gzinertia.records.SdfDocument` with the audit settings
(fluid densities, inertia tolerance) and the SDF version of every file it came from.
:class:`LinkContext` caches, per link, what several rules need: the principal moments of the
rigid inertia, the union of the collision solids in the link frame B (volume ``V``, centroid
``p_BoBc_B``, unit-density inertia ``G_BBc_B``), the axis-aligned bounding box of the
collisions in B, the volume-fit fluid ellipsoid (:func:`gzinertia.physics.fits.fit_link`
``"volume"``)
and the reader's notes about the link (each note names its link: ``Note.link``). Nothing is
computed until a rule asks for it, so a run with few rules selected does little work.

Collision-based quantities are ``None`` (with a reason) when any collision of the link has no
solid to compute: a plane or heightmap, a mesh whose URI did not resolve or cannot be loaded.
Rules that need them then stay silent rather than guess.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.checks.matrices import implied_centre
from gzinertia.checks.tolerance import Tolerance
from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.physics.collision_volume import collision_volume, gazebo_sum
from gzinertia.physics.ellipsoid import primitive_semi_axes
from gzinertia.physics.fits import FitError, fit_link
from gzinertia.physics.gz_math_inertia import (
    gz_epsilon,
    gz_is_near_positive,
    gz_principal_moments,
    gz_valid_moments,
)
from gzinertia.physics.link_union import link_solid
from gzinertia.physics.placeholder import PLACEHOLDER_VOLUME, is_placeholder
from gzinertia.physics.shapes import ShapeError, load_mesh
from gzinertia.record_base import Forwarded, Record
from gzinertia.records import Collision, LinkRecord, Note, SdfDocument, SourceRef
from gzinertia.spatial.inertia import drake_tolerance, gz_tolerance, principal_axes, triangle_margin
from gzinertia.spatial.rotation import Vec3
from gzinertia.vocabulary.fluids import AIR_DENSITY, FRESHWATER_DENSITY
from gzinertia.vocabulary.scoped_names import top_scope

if TYPE_CHECKING:
    from lxml import etree

    from gzinertia.physics.fits import EllipsoidFit
    from gzinertia.physics.shapes import SolidProperties

__all__ = [
    "DEFAULT_FLUIDS",
    "PLACEHOLDER_VOLUME",
    "DocumentContext",
    "LinkContext",
    "collision_corners_C",
]

#: Fluids tried when no density is configured: fresh water (Gazebo's Buoyancy default) and air.
DEFAULT_FLUIDS: tuple[tuple[str, float], ...] = (
    ("water", FRESHWATER_DENSITY),
    ("air", AIR_DENSITY),
)




@functools.lru_cache(maxsize=256)
def _mesh_bounds_C(path: str, scale: tuple[float, float, float]) -> tuple[Vec3, Vec3] | None:
    """Axis-aligned bounds of a mesh's vertices in its collision frame C, after ``<scale>``."""
    try:
        vertices = np.asarray(load_mesh(path, scale).vertices, dtype=float)
    except ShapeError:
        return None
    if vertices.size == 0:
        return None
    return vertices.min(axis=0), vertices.max(axis=0)


def _local_bounds_C(collision: Collision) -> tuple[list[float], list[float]] | None:
    """The collision geometry's bounding box in its own frame C as ``(lo, hi)`` corners, plain
    floats (a primitive's box is its ellipsoid's), or ``None`` when the shape has none (plane,
    heightmap, unresolved mesh)."""
    g = collision.geometry
    half = primitive_semi_axes(g)
    if half is not None:
        h = half.tolist()
        return [-h[0], -h[1], -h[2]], h
    if g.kind == "mesh" and g.mesh_path is not None:
        sx, sy, sz = (float(s) for s in g.scale)
        bounds = _mesh_bounds_C(g.mesh_path, (sx, sy, sz))
        return None if bounds is None else (bounds[0].tolist(), bounds[1].tolist())
    return None


def collision_corners_C(collision: Collision) -> np.ndarray | None:
    """The 8 corners of the collision geometry's bounding box in its own frame C (n x 3), or
    ``None`` when the shape has none (plane, heightmap, unresolved mesh)."""
    bounds = _local_bounds_C(collision)
    if bounds is None:
        return None
    lo, hi = bounds
    return np.array(
        [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    )


@dataclass(repr=False)
class DocumentContext(Record):
    """One audited document and the settings the rules use.

    ``densities``: the candidate fluid densities (name, kg/m³) for added-mass plausibility;
    ``tolerance``: how inertia validity is judged (``"drake"`` or ``"gz"``).
    """

    doc: SdfDocument
    densities: tuple[tuple[str, float], ...] = DEFAULT_FLUIDS
    tolerance: Tolerance = "gz"
    _links: list[LinkContext] | None = None
    #: GZI302's threshold: net buoyancy as a fraction of the weight (``net-buoyancy``).
    net_buoyancy: float = 0.05
    #: The models' buoyancy, computed once by the hydrostatics rules (their cache).
    hydrostatics_cache: object | None = None
    #: The document's parsed tree when it cannot be read again from its path (standard input):
    #: what the records do not hold (a world's Buoyancy plugin) is read from it.
    tree: etree._Element | None = None
    #: The Gazebo release and engine the document is judged for (a world's own engine in it).
    target: Target = DEFAULT_TARGET

    @property
    def links(self) -> list[LinkContext]:
        """A :class:`LinkContext` per link, in document order."""
        if self._links is None:
            notes: dict[str, list[Note]] = {}
            for note in self.doc.notes:
                if note.link is not None:
                    notes.setdefault(note.link, []).append(note)
            self._links = [
                LinkContext(link, self, tuple(notes.get(link.name, ()))) for link in self.doc.links
            ]
        return self._links

    def sdf_version(self, file: str) -> str:
        """The ``<sdf version>`` declared by ``file`` (the audited file or one it includes)."""
        return self.doc.file_versions.get(file, "")

    def notes(self, code: str) -> list[Note]:
        """The reader's notes with this code."""
        return [n for n in self.doc.notes if n.code == code]


@dataclass(repr=False)
class LinkContext(Record):
    """One link of a :class:`DocumentContext`, with cached derived quantities (SI units)."""

    link: LinkRecord
    document: DocumentContext
    notes: tuple[Note, ...] = ()

    # --- identity -------------------------------------------------------------------------
    name = Forwarded[str]("link.name", "The link's scoped name (``model::link``).")
    where = Forwarded[SourceRef](
        "link.source", "Where the link is written (file and line of ``<link>``).")

    @property
    def top_model(self) -> str:
        """The top-level model the link belongs to (first component of its scoped name)."""
        return top_scope(self.link.name)

    def notes_with(self, code: str) -> list[Note]:
        """The notes the reader left on this link with this ``code``."""
        return [n for n in self.notes if n.code == code]

    @functools.cached_property
    def moves(self) -> bool:
        """Not static and not welded to the world by a fixed joint: its inertia matters."""
        return not (self.link.static or self.link.welded_to_world)

    # --- rigid inertia --------------------------------------------------------------------
    @property
    def written_inertia(self) -> bool:
        """Whether mass and inertia are the author's numbers (not defaults, not computed)."""
        inertial = self.link.inertial
        return not (inertial.defaulted or inertial.auto)

    @functools.cached_property
    def principal_moments(self) -> Vec3:
        """Ascending principal moments of ``I_BBcm`` (kg·m²; NaN if the inertia is not finite)."""
        I = self.link.inertial.I_BBcm_I
        if not np.all(np.isfinite(I)):
            return np.full(3, np.nan)
        return principal_axes(I)[0]

    @functools.cached_property
    def inertia_tolerance(self) -> float:
        """The validity ε of the chosen tolerance (Drake's or gz-math's) for these moments."""
        moments = np.abs(self.principal_moments)
        if self.document.tolerance == "drake":
            return drake_tolerance(moments)
        return gz_tolerance(moments)

    @functools.cached_property
    def gz_principal_moments(self) -> tuple[float, float, float]:
        """The principal moments gz-math computes (what libsdformat judges validity on)."""
        return gz_principal_moments(self.link.inertial.I_BBcm_I)

    @functools.cached_property
    def inertia_is_psd(self) -> bool:
        """Positive semi-definite: with ``--tolerance gz`` exactly as libsdformat decides
        (gz-math's leading minors and closed-form moments,
        :mod:`gzinertia.physics.gz_math_inertia`), with ``drake`` on the eigenvalues."""
        if not self._finite_moments:
            return False
        if self.document.tolerance == "gz":
            gz = self.gz_principal_moments
            eps = gz_epsilon(gz)
            return gz_is_near_positive(0.0, self.link.inertial.I_BBcm_I) and min(gz) + eps >= 0
        return bool(self.principal_moments[0] >= -self.inertia_tolerance)

    @functools.cached_property
    def _finite_moments(self) -> bool:
        """Whether :attr:`principal_moments` are finite, without computing them when the
        entries settle it: finite entries of magnitude at most 1e300 have eigenvalues bounded
        by 3e300 (the Frobenius norm), which LAPACK computes without overflow."""
        if all(abs(v) <= 1e300 for v in self.link.inertial.I_BBcm_I.ravel().tolist()):
            return True  # (NaN fails the comparison)
        return bool(np.all(np.isfinite(self.principal_moments)))

    @functools.cached_property
    def inertia_is_valid(self) -> bool:
        """Positive semi-definite and satisfying the triangle inequality (to the tolerance;
        with ``--tolerance gz`` libsdformat's verdict, ``MassMatrix3::IsValid``)."""
        if not self.inertia_is_psd:
            return False
        if self.document.tolerance == "gz":
            return gz_valid_moments(self.gz_principal_moments)
        return triangle_margin(self.principal_moments) >= -self.inertia_tolerance

    @property
    def mass_is_positive(self) -> bool:
        """``<mass>`` finite and positive."""
        m = self.link.inertial.mass
        return math.isfinite(m) and m > 0.0

    # --- collisions -----------------------------------------------------------------------
    @functools.cached_property
    def _solid(self) -> tuple[SolidProperties | None, str | None]:
        if not self.link.collisions:
            return None, "the link has no <collision>"
        try:
            return link_solid(self.link.collisions), None
        except ShapeError as exc:
            return None, str(exc)

    @property
    def solid(self) -> SolidProperties | None:
        """The body the collisions displace in B, their union (overlaps counted once:
        :func:`gzinertia.physics.link_union.link_solid`), or ``None``."""
        return self._solid[0]

    @property
    def is_placeholder(self) -> bool:
        """Collisions that enclose (almost) nothing: not the body's shape."""
        return is_placeholder(self.solid)

    @property
    def geometry(self) -> SolidProperties | None:
        """:attr:`solid` when it stands for the body (not a placeholder), else ``None``."""
        return None if self.is_placeholder else self.solid

    @functools.cached_property
    def judged_geometry(self) -> tuple[SolidProperties, str] | None:
        """What the plausibility rules (GZI105, GZI106) compare the inertia with: ``(solid,
        "collisions")`` (:attr:`geometry`); for a link with no ``<collision>``, the union of
        its visuals in B, ``(solid, "visuals")``, when every visual was read and they enclose
        more than a placeholder's volume; else ``None``."""
        if self.link.collisions:
            return None if self.geometry is None else (self.geometry, "collisions")
        if not self.link.visuals or self.link.unread_visuals:
            return None

        try:
            solid = link_solid(self.link.visuals, "visual")
        except ShapeError:
            return None
        if is_placeholder(solid):
            return None
        return solid, "visuals"

    @functools.cached_property
    def gazebo_volume(self) -> tuple[float, Vec3]:
        """What gz-sim's Buoyancy system floats for the link: its volume (m³, the collisions'
        summed, overlaps counted twice, meshes by gz-common's rule) and centre ``p_BoBv_B`` (m,
        link frame; each collision at its origin): :func:`gzinertia.physics.collision_volume.
        gazebo_sum`. Rules that say what Gazebo will do use this, not :attr:`geometry`."""
        return gazebo_sum([collision_volume(c) for c in self.link.collisions])

    @functools.cached_property
    def bounding_box(self) -> tuple[Vec3, Vec3] | None:
        """``(lo, hi)``: the axis-aligned box in B around every collision (each shape's own
        bounding box turned into B, so slightly larger for rotated shapes), or ``None``."""
        corners = []
        for c in self.link.collisions:
            corners_C = collision_corners_C(c)
            if corners_C is None:
                return None
            corners.append(c.X_BC.p + corners_C @ c.X_BC.R.T)
        if not corners:
            return None
        points = np.vstack(corners)
        return points.min(axis=0), points.max(axis=0)

    def certainly_inside_bounding_box(self, p_BoQ_B: Vec3) -> bool:
        """Whether the point Q (measured from Bo, in B) lies inside :attr:`bounding_box` by
        more than that box's rounding, decided in plain floats without building the box: each
        collision's box in B is ``p_BoCo_B ± Σ_j |R_BC[i, j]|·(half-size)_j``, the exact extent of
        its eight corners. False: outside, near a face, or no box (then build it)."""
        collisions = self.link.collisions
        if not collisions:
            return False
        lo, hi = [math.inf] * 3, [-math.inf] * 3
        scale = 0.0  # the sum of every term's magnitude: bounds each corner's rounding
        for c in collisions:
            bounds = _local_bounds_C(c)
            if bounds is None:
                return False
            lo_C, hi_C = bounds
            p, R = c.X_BC.p.tolist(), c.X_BC.R.tolist()
            for i in range(3):
                a = b = p[i]
                scale += abs(a)
                for r, l, h in zip(R[i], lo_C, hi_C, strict=True):
                    u, v = r * l, r * h
                    if u > v:
                        u, v = v, u
                    a += u
                    b += v
                    scale += abs(u) + abs(v)
                if a < lo[i]:
                    lo[i] = a
                if b > hi[i]:
                    hi[i] = b
        if not math.isfinite(scale):
            return False  # (NaN or infinity anywhere: it propagates into the sum)
        q = np.asarray(p_BoQ_B, dtype=float).tolist()
        margin = 1e-9 * (scale + abs(q[0]) + abs(q[1]) + abs(q[2]))
        return all(lo[i] + margin < q[i] < hi[i] - margin for i in range(3))  # (NaN: False)

    # --- fluid ----------------------------------------------------------------------------
    @functools.cached_property
    def fluid_fit(self) -> EllipsoidFit | None:
        """The volume-fit fluid ellipsoid of the collisions (``None`` if it cannot be fitted or
        the collisions are a placeholder)."""
        if self.geometry is None:
            return None
        try:
            return fit_link(self.link, "volume")
        except FitError:
            return None

    @functools.cached_property
    def _A_BBo_B_per_density(self) -> np.ndarray | None:
        """Tuckerman ``A_BBo_B`` (linear-first) of :attr:`fluid_fit` in a fluid of 1 kg/m³."""
        fit = self.fluid_fit
        return None if fit is None else fit.added_mass(1.0).linear_first()

    def expected_added_mass(self, density: float) -> np.ndarray | None:
        """Tuckerman ``A_BBo_B`` (linear-first) of :attr:`fluid_fit` at ``density`` (kg/m³;
        added mass is proportional to the fluid's density)."""
        A_BBo_B = self._A_BBo_B_per_density
        return None if A_BBo_B is None else density * A_BBo_B

    @functools.cached_property
    def added_mass(self) -> np.ndarray | None:
        """``<fluid_added_mass>`` as libsdformat loads it (``A_BBo_B``, linear-first, symmetric,
        read-only), ``None`` when absent or all zero."""
        A = self.link.inertial.A_BBo_B
        if A is None:
            return None
        S = A.symmetric().linear_first()
        S.setflags(write=False)  # shared by the rules that read it
        return S if np.any(S) else None

    def fluid_centre(self) -> tuple[Vec3, str] | None:
        """Where the displaced fluid is centred, in B: the collision centroid (centre of
        buoyancy), else the centre of mass when it is written and away from the origin. For a
        link whose collisions are several separate bodies (the volume fit gives one ellipsoid
        each), the centre of the fitted added mass instead: the point about which its coupling
        is symmetric, which a sum of bodies puts where their added masses (not their volumes)
        balance."""
        geometry = self.geometry
        if geometry is not None:
            fit = self.fluid_fit
            if fit is not None and len(fit.ellipsoids) > 1:
                A = self._A_BBo_B_per_density
                centre = None if A is None else implied_centre(A)
                if centre is not None:
                    return centre, "centre of the fitted bodies' added mass"
            return np.array(geometry.p_FoFc_F), "collision centroid"
        if self.written_inertia and np.any(self.link.inertial.p_BoBcm_B):
            return np.array(self.link.inertial.p_BoBcm_B), "centre of mass"
        return None

