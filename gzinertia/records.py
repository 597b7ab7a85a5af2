"""Immutable records of what an SDFormat file says about its links, resolved to numbers.

The reader (:mod:`gzinertia.sdf`) produces an :class:`SdfDocument`; every computation downstream
reads these records and nothing else. Each record keeps where it came from (:class:`SourceRef`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from gzinertia.dependency import Dependency
from gzinertia.hydrodynamics_terms import derivatives
from gzinertia.record_base import Forwarded, Record, ValueRecord
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.inertia import (
    parallel_axis,
    reexpress_inertia,
    spatial_inertia_about_com,
    spatial_inertia_about_origin,
)
from gzinertia.spatial.matrix import SpatialInertia
from gzinertia.spatial.rotation import Mat3, Pose, Vec3
from gzinertia.vocabulary.fluids import FRESHWATER_DENSITY
from gzinertia.vocabulary.scoped_names import enclosing_scopes
from gzinertia.wording import bounded

__all__ = [
    "DEFAULT_GRAVITY_W",
    "BuoyancyKind",
    "BuoyancyWorld",
    "Collision",
    "Dependency",
    "Geometry",
    "GeometryKind",
    "HydroPlugin",
    "Inertial",
    "LinkRecord",
    "Note",
    "NoteLevel",
    "SdfDocument",
    "SourceRef",
    "UnreadVisual",
    "UnresolvedInclude",
    "named",
]


# Records holding poses or matrices (NumPy arrays) derive from ``Record`` and are compared and
# hashed by identity; records of plain values derive from ``ValueRecord`` and keep the value
# equality of ``@dataclass(frozen=True)`` (see :mod:`gzinertia.record_base`).


@dataclass(frozen=True, repr=False, eq=False)
class SourceRef(ValueRecord):
    """A place in a file: path as given (or resolved for includes) and 1-based line."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


NoteLevel = Literal["info", "warning", "error"]


@dataclass(frozen=True, repr=False, eq=False)
class Note(ValueRecord):
    """Something the reader noticed and did the way libsdformat does (e.g. ignored, defaulted).

    ``link`` is the scoped name of the link the note is about (``None`` for notes about the file,
    an include or a model): the reader sets it when it writes the note, so the audit never has
    to guess it from line numbers (several links may share a line, an included file's lines are
    shared by every instance of it). ``data`` holds the facts the message states, by name, for
    rules that build their own message (never parse ``message``): ``inertia-defaulted`` has
    ``attributes`` (URDF-style attributes written on ``<inertia>``, ``""`` if none);
    ``mass-defaulted`` has ``attributes`` (on ``<mass>``) and ``value`` (its ``value``
    attribute, when written);
    ``unresolved-include`` has ``uri`` and ``not_downloaded`` (``"true"`` when the message already
    says a remote model is never downloaded); ``unknown-uri-scheme`` has ``uri`` when it is
    about an ``<include>`` that did not resolve (the :class:`UnresolvedInclude` of that URI)."""

    level: NoteLevel
    code: str
    message: str
    source: SourceRef
    link: str | None = None
    data: Mapping[str, str] = field(default_factory=dict, hash=False, compare=False)

    def __str__(self) -> str:
        return f"{self.source}: {self.level}: {self.message}"


GeometryKind = Literal[
    "box", "sphere", "cylinder", "capsule", "ellipsoid", "cone", "mesh", "plane", "heightmap",
    "other",
]


@dataclass(frozen=True, repr=False, eq=False)
class Geometry(ValueRecord):
    """A collision shape in its own frame (SI units, mesh sizes after ``<scale>``).

    ``size`` holds box full sizes ``(x, y, z)`` or ellipsoid semi-axes ``(a, b, c)``; ``radius``
    and ``length`` the sphere/cylinder/capsule/cone dimensions (capsule length excludes the
    caps; a cone (SDFormat 1.11) has its base of ``radius`` at ``z = -length/2`` and its apex at
    ``z = +length/2``, as gz-math's ``Cone``);
    meshes keep their URI, the file it resolved to (or ``None``) and ``scale``.
    """

    kind: GeometryKind
    size: tuple[float, float, float] | None = None
    radius: float | None = None
    length: float | None = None
    mesh_uri: str | None = None
    mesh_path: str | None = None
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    normal: tuple[float, float, float] | None = None


@dataclass(frozen=True, repr=False, eq=False)
class Collision(Record):
    """A ``<collision>`` of a link: its pose in the link frame (``X_BC``) and its geometry.

    A link's ``<visual>`` shapes use the same record (:attr:`LinkRecord.visuals`): ``X_BC`` is
    then the visual's pose ``X_BV`` and ``density`` is ``None``."""

    name: str
    X_BC: Pose
    geometry: Geometry
    source: SourceRef
    density: float | None = None


@dataclass(frozen=True, repr=False, eq=False)
class UnreadVisual(ValueRecord):
    """A ``<visual>`` of a link that could not be read into a posed shape: its ``name``, where
    it is written, and ``reason`` (its ``<pose relative_to>`` names no frame, its
    ``<geometry>`` cannot be read). Users of visuals refuse or stay silent rather than
    compute with a part of the link missing."""

    name: str
    source: SourceRef
    reason: str

    def __str__(self) -> str:
        return f"{self.source}: visual {self.name!r}: {self.reason}"


@dataclass(frozen=True, repr=False, eq=False)
class HydroPlugin(ValueRecord):
    """Gazebo's Hydrodynamics system configured for one link.

    ``terms`` maps parameter names (``xDotU``, ``xUabsU``, ``xU``, ...) to values as written;
    ``disable_added_mass`` is ``<disable_added_mass>``. The vocabulary (term names, the
    ``<iDotJ>`` matrix, whether its added mass is active) is :mod:`gzinertia.hydrodynamics_terms`.
    """

    filename: str
    name: str
    link_name: str
    terms: dict[str, float]
    disable_added_mass: bool
    source: SourceRef
    term_sources: dict[str, SourceRef] = field(default_factory=dict)
    #: The XML comment written with the plugin (URDF: inside its ``<gazebo>`` block before the
    #: ``<plugin>``, or directly before the block), gzinertia's provenance; ``None`` elsewhere.
    comment: str | None = None
    #: The signed quadratic terms ``<iJK>`` (``xUU``, ``xUV``...: ``s_k·s_j`` since
    #: gazebosim/gz-sim#1784, ``|u|·u`` for the diagonal six before), as written; their
    #: places are in ``term_sources``.
    signed_quadratic: dict[str, float] = field(default_factory=dict)

    @property
    def written_terms(self) -> dict[str, float]:
        """Every term as written: :attr:`terms` and :attr:`signed_quadratic` (what an edit
        that wrote terms reads back)."""
        return {**self.terms, **self.signed_quadratic}

    @property
    def D_BBo_B(self) -> NDArray[np.float64]:
        """The added-mass derivatives ``<iDotJ>`` as a 6x6, **linear-first**, about the link
        origin in link axes: ``D[i, j]`` is ``<{xyzkmn[i]}Dot{UVWPQR[j]}>`` (0 when absent).
        Fossen's convention writes them negative: the added mass is ``-sym(D)``."""
        return derivatives(self.terms)


def _default_inertia() -> Mat3:
    I = np.eye(3)
    I.setflags(write=False)
    return I


@dataclass(frozen=True, repr=False, eq=False)
class Inertial(Record):
    """A link's ``<inertial>`` as libsdformat loads it.

    ``X_BI`` is ``<inertial><pose>`` (always relative to the link frame B; its origin is Bcm),
    ``I_BBcm_I`` the ``<inertia>`` matrix about Bcm in I axes, ``A_BBo_B`` the
    ``<fluid_added_mass>`` matrix about the link origin in link axes, an
    :class:`~gzinertia.spatial.added_mass.AddedMass` (``None`` when absent; ``.linear_first()``
    is SDF's ``[x y z p q r]``). :attr:`M_BBo_B` and :attr:`M_BBcm_B` are
    :class:`~gzinertia.spatial.matrix.SpatialInertia` values; every 6x6 comes out as an
    array only through ``.linear_first()`` or ``.angular_first()``.

    Flags keep what the file did not say: ``defaulted`` (no ``<inertial>``: 1 kg, unit inertia),
    ``inertia_defaulted`` (``<inertia>`` with none of the spec's child elements), ``auto``
    (``<inertial auto="true">``: mass, ``X_BI`` and ``I_BBcm_I`` are then the values libsdformat
    computes from the collisions, see :mod:`gzinertia.sdf.auto_inertial`), ``commented_out`` (no
    ``<inertial>`` but a comment in the link that holds one), ``added_mass_dropped`` (a
    ``<fluid_added_mass>`` was written, at ``added_mass_source``, but libsdformat dropped it
    because of ``auto``: ``A_BBo_B`` is then ``None``).
    """

    mass: float = 1.0
    X_BI: Pose = field(default_factory=Pose)
    I_BBcm_I: Mat3 = field(default_factory=_default_inertia)
    A_BBo_B: AddedMass | None = None
    defaulted: bool = False
    commented_out: bool = False
    inertia_defaulted: bool = False
    auto: bool = False
    added_mass_dropped: bool = False
    density: float | None = None
    source: SourceRef | None = None
    mass_source: SourceRef | None = None
    inertia_source: SourceRef | None = None
    added_mass_source: SourceRef | None = None
    #: The XML comment directly before ``<fluid_added_mass>`` (gzinertia's provenance), if any.
    added_mass_comment: str | None = None
    #: With ``auto``: the inertial as written (its ``<mass>``, ``<pose>`` and ``<inertia>``, or
    #: the spec's defaults, 1 kg and unit inertia at the link origin), what a libsdformat that
    #: does not know ``auto`` loads (before gazebosim/sdformat#1299); ``None`` otherwise.
    as_written: Inertial | None = None

    p_BoBcm_B = Forwarded[Vec3](
        "X_BI.p", "``p_BoBcm_B``: the centre of mass from the link origin, in link axes (m).")
    R_BI = Forwarded[Mat3](
        "X_BI.R", "``R_BI``: the inertial frame's orientation in the link frame.")

    @property
    def I_BBcm_B(self) -> Mat3:
        """``I_BBcm_B = R_BI·I_BBcm_I·R_BIᵀ``: about Bcm, in link axes B (kg·m²)."""
        return reexpress_inertia(self.I_BBcm_I, self.R_BI)

    @property
    def I_BBo_B(self) -> Mat3:
        """``I_BBo_B``: about the link origin Bo, in link axes B (parallel-axis theorem, kg·m²)."""
        return parallel_axis(self.I_BBcm_B, self.mass, self.p_BoBcm_B)

    @property
    def M_BBcm_B(self) -> SpatialInertia:
        """Spatial inertia about the centre of mass Bcm in link axes B."""
        return SpatialInertia(
            spatial_inertia_about_com(self.mass, self.I_BBcm_B, "angular-first"),
            ordering="angular-first", point="Bcm", axes="B",
        )

    @property
    def M_BBo_B(self) -> SpatialInertia:
        """Spatial inertia about the link origin Bo in link axes B."""
        return SpatialInertia(
            spatial_inertia_about_origin(self.mass, self.I_BBcm_B, self.p_BoBcm_B, "angular-first"),
            ordering="angular-first", point="Bo", axes="B",
        )


@dataclass(frozen=True, repr=False, eq=False)
class LinkRecord(Record):
    """One link, resolved: scoped name, pose in the root frame ``X_WB``, inertial, collisions.

    ``name`` is scoped from the top-level model (``model::nested::link``); ``X_WB`` is the link
    frame's pose in the world (for a model file: the world its top-level model is posed in).
    """

    name: str
    model: str
    X_WB: Pose
    inertial: Inertial
    collisions: tuple[Collision, ...]
    source: SourceRef
    static: bool = False
    hydrodynamics: tuple[HydroPlugin, ...] = ()
    suppressed_codes: frozenset[str] = frozenset()
    #: Joined to ``world`` by a chain of fixed joints (Drake: welded to the world): never moves.
    welded_to_world: bool = False
    #: The link's scoped name as written in the file that holds it (model names from that
    #: file's root, not the names ``<include>`` gave them): one element read through two
    #: includes, or audited on its own too, has one ``name_in_file``.
    name_in_file: str = ""
    #: The free body the link belongs to: the scoped name of the root link of the set of links
    #: joined to it by joints (:mod:`gzinertia.physics.bodies`); ``""`` when the reader does
    #: not know (URDF: one tree, the whole model).
    body: str = ""
    #: Its body is joined to ``world`` by some joint (fixed or not): not a free vehicle.
    body_anchored: bool = False
    #: The link's ``<visual>`` shapes, read with its collisions: each a :class:`Collision`
    #: whose ``X_BC`` is the visual's pose ``X_BV`` in the link frame B (``relative_to``
    #: resolved through the file's frame graph, as libsdformat does) and whose mesh URIs are
    #: resolved as the collisions' are. ``()`` where the reader reads none (URDF).
    visuals: tuple[Collision, ...] = ()
    #: The visuals that could not be read (left out of ``visuals``).
    unread_visuals: tuple[UnreadVisual, ...] = ()

    M_BBo_B = Forwarded[SpatialInertia](
        "inertial.M_BBo_B",
        "The link's spatial inertia about its origin Bo in link axes (``inertial.M_BBo_B``).")
    M_BBcm_B = Forwarded[SpatialInertia](
        "inertial.M_BBcm_B", "The link's spatial inertia about its centre of mass in link axes.")
    A_BBo_B = Forwarded["AddedMass | None"](
        "inertial.A_BBo_B",
        "The link's ``<fluid_added_mass>`` (``inertial.A_BBo_B``): about Bo in link axes.")


@dataclass(frozen=True, repr=False, eq=False)
class UnresolvedInclude(ValueRecord):
    """An ``<include>`` whose URI did not resolve, and what its own text still says.

    ``name`` is the scoped name the included model would have: the include's ``<name>``, else
    the URI's last path segment (the model file may name it otherwise); ``plugins`` are the
    Hydrodynamics plugins written inside the ``<include>`` (libsdformat adds them to the
    included model), whose link would be ``f"{name}::{plugin.link_name}"``."""

    uri: str
    source: SourceRef
    name: str
    plugins: tuple[HydroPlugin, ...] = ()

    def plugin_link(self, plugin: HydroPlugin) -> str:
        """The scoped name the plugin's link would have."""
        return f"{self.name}::{plugin.link_name}" if self.name else plugin.link_name


@dataclass(frozen=True, repr=False, eq=False)
class SdfDocument(Record):
    """Everything read from one SDFormat file (with its includes).

    ``dependencies``: every include and mesh URI looked up while reading, in reading order;
    ``file_versions``: the ``<sdf version>`` declared by this file and each file it included;
    ``unresolved_includes``: the includes that did not resolve, with what their text says;
    ``unattached_plugins``: ``(link, plugin)`` for each Hydrodynamics plugin whose link was not
    read because an include did not resolve (written inside it, or naming a link of a model
    that holds one), with the scoped name the link would have: what the plugin's own text says
    can still be checked."""

    path: str
    sdf_version: str
    links: tuple[LinkRecord, ...]
    notes: tuple[Note, ...] = ()
    root_kind: Literal["world", "model"] = "model"
    dependencies: tuple[Dependency, ...] = ()
    file_versions: Mapping[str, str] = field(default_factory=dict)
    unresolved_includes: tuple[UnresolvedInclude, ...] = ()
    unattached_plugins: tuple[tuple[str, HydroPlugin], ...] = ()

    def link(self, name: str) -> LinkRecord:
        """The link with this scoped name (``KeyError`` naming the known links otherwise)."""
        return named(self.links, name, "link", self.path)

    def with_written_inertials(self) -> SdfDocument:
        """The document as a libsdformat without ``<inertial auto="true">`` reads it (before
        gazebosim/sdformat#1299: Fortress, Garden): each auto-resolved link with its inertial
        as written (:attr:`Inertial.as_written`); ``self`` when no link has one."""
        if not any(link.inertial.as_written is not None for link in self.links):
            return self
        return replace(self, links=tuple(
            link if link.inertial.as_written is None
            else replace(link, inertial=link.inertial.as_written) for link in self.links))


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_N = TypeVar("_N", bound=_Named)


def named(items: Sequence[_N], name: str, kind: str, path: str) -> _N:
    """The first of ``items`` whose ``name`` is ``name``; otherwise a ``KeyError`` saying that
    no ``kind`` of that name is in the file ``path`` and naming the ones there
    (:func:`gzinertia.wording.bounded`), e.g. ``no link named 'fin' in m.sdf (links: ...)``."""
    for item in items:
        if item.name == name:
            return item

    known = bounded(i.name for i in items) or "none"
    raise KeyError(f"no {kind} named {name!r} in {path} ({kind}s: {known})")


#: Gazebo's default gravity (SDFormat ``<world><gravity>``), m/s², world frame.
DEFAULT_GRAVITY_W: tuple[float, float, float] = (0.0, 0.0, -9.8)
BuoyancyKind = Literal["uniform", "graded"]


@dataclass(frozen=True, repr=False, eq=False)
class BuoyancyWorld(ValueRecord):
    """The fluid as Gazebo's Buoyancy system sees it.

    ``kind``: ``"uniform"`` (``density`` everywhere) or ``"graded"`` (``density`` below the
    lowest layer; ``layers`` as ``(height_m, density)`` sorted by height, each density holding
    from its height up to the next layer's). ``enabled``: the ``<enable>`` names (empty: every
    link). ``g_W``: gravity in the world frame (m/s²). ``source``: the plugin element (``None``
    when the fluid comes from the command line or defaults).
    """

    kind: BuoyancyKind = "uniform"
    density: float = FRESHWATER_DENSITY  # Gazebo's Buoyancy default
    layers: tuple[tuple[float, float], ...] = ()
    enabled: tuple[str, ...] = ()
    g_W: tuple[float, float, float] = DEFAULT_GRAVITY_W
    source: SourceRef | None = None
    notes: tuple[str, ...] = field(default=())

    def density_at(self, z_W: float) -> float:
        """The fluid density at world height ``z_W`` (kg/m³)."""
        rho = self.density
        if self.kind == "graded":
            for height, layer_density in self.layers:
                if z_W >= height:
                    rho = layer_density
        return rho

    def is_enabled(self, link_name: str) -> bool:
        """Whether Gazebo applies buoyancy to the link with this scoped name (``a::b::link``):
        the link or any model it is in is ``<enable>``d, or nothing is."""
        if not self.enabled:
            return True
        return link_name in self.enabled or any(
            scope in self.enabled for scope in enclosing_scopes(link_name)
        )
