"""A URDF ``<robot>`` as urdfdom (the parser libsdformat converts URDF with) reads it.

Only what matters to inertia is kept: links (``<inertial>`` and ``<collision>``), joints (type,
parent, child, ``<origin>``) and the ``<gazebo>`` extension blocks (the two lumping switches,
``<static>``, and Hydrodynamics plugins). Every element keeps its file and line.

urdfdom's rules, followed here (an error is one line naming file and line):

* ``<origin xyz rpy>``: three numbers each, both optional (zero); rotation ``rpy`` is extrinsic
  X-Y-Z, ``R = Rz(yaw)·Ry(pitch)·Rx(roll)``, as in SDFormat.
* ``<inertial>``: ``<mass value>`` and ``<inertia>`` with all six attributes ``ixx ixy ixz iyy
  iyz izz`` are required (no defaults); ``<origin>`` optional. The inertia is about the centre of
  mass, in the axes of the inertial ``<origin>``; products are tensor entries (``ixy = -∫xy dm``).
* A link without ``<inertial>`` has no mass (libsdformat drops it unless lumping absorbs it).
* Exactly one root link (no parent joint); each link the child of at most one joint; joint
  names and link names unique; joint types ``revolute continuous prismatic fixed floating
  planar``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.numbers import MAX_MAGNITUDE, c_double
from gzinertia.record_base import Record, ValueRecord
from gzinertia.records import Collision, Geometry, HydroPlugin, SourceRef, UnreadVisual
from gzinertia.sdf.hydro import is_gz_hydrodynamics, read_hydrodynamics
from gzinertia.sdf.xml import line_of
from gzinertia.spatial.rotation import Pose
from gzinertia.wording import bounded

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
INERTIA_ATTRIBUTES = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
WORLD = "world"


@dataclass(frozen=True, repr=False, eq=False)
class UrdfInertial(ValueRecord):
    """``<inertial>``: mass, ``X_BI`` (the inertial ``<origin>``), ``I_BBcm_I`` (tensor)."""

    mass: float
    X_BI: Pose
    I_BBcm_I: np.ndarray
    source: SourceRef
    mass_source: SourceRef
    inertia_source: SourceRef


@dataclass(repr=False)
class UrdfLink(Record):
    """A URDF ``<link>``: its ``<inertial>`` (``None`` when absent), collisions and visuals
    (``X_BC`` of a visual is its ``<origin>``, ``X_BV``), and the visuals that could not be
    read."""

    name: str
    source: SourceRef
    inertial: UrdfInertial | None
    collisions: list[Collision] = field(default_factory=list)
    visuals: list[Collision] = field(default_factory=list)
    unread_visuals: list[UnreadVisual] = field(default_factory=list)
    #: the colour of each of ``visuals`` (same order) as urdfdom reads its ``<material>``
    #: (``<color rgba>``, the robot's material of that name, black for a texture alone), or
    #: ``None``; physics does not use it (``expand --sdf`` writes it)
    visual_rgba: list[tuple[float, ...] | None] = field(default_factory=list)


@dataclass(frozen=True, repr=False, eq=False)
class UrdfJoint(ValueRecord):
    """A URDF ``<joint>``: ``X_PJ`` is its ``<origin>``, the child link frame in the parent's."""

    name: str
    kind: str
    parent: str
    child: str
    X_PJ: Pose  # the joint's <origin>: child link frame in the parent link frame
    source: SourceRef
    #: ``<axis xyz>`` in the joint frame (the child link frame), as written (urdfdom's default
    #: ``1 0 0`` when absent)
    axis: tuple[float, float, float] = (1.0, 0.0, 0.0)
    #: ``<limit>``: ``(lower, upper, effort, velocity)`` (urdfdom's default 0 for each attribute
    #: left out), ``None`` without ``<limit>``
    limit: tuple[float, ...] | None = None
    #: ``<dynamics>``: ``(damping, friction)`` (0 for each left out), ``None`` without it
    dynamics: tuple[float, ...] | None = None
    #: why ``axis``, ``limit`` or ``dynamics`` could not be read (physics does not use them:
    #: only ``expand --sdf`` refuses the joint)
    unread: str | None = None


@dataclass(repr=False)
class UrdfRobot(Record):
    """A parsed ``<robot>``: links in document order, joints by child link name."""

    name: str
    file: str
    source: SourceRef
    links: dict[str, UrdfLink]
    joints: list[UrdfJoint]
    #: joint names with ``<disableFixedJointLumping>`` / ``<preserveFixedJoint>`` true
    #: (the ``<gazebo reference>`` line of each)
    unlumped: dict[str, SourceRef]
    static: bool = False
    #: Hydrodynamics plugins: ``(reference or "", plugin)``, in document order
    plugins: list[tuple[str, HydroPlugin]] = field(default_factory=list)
    #: every ``<gazebo>`` block as written: ``(reference or "", XML text, where)``, in document
    #: order (``expand --sdf`` copies them as libsdformat does)
    extensions: list[tuple[str, str, SourceRef]] = field(default_factory=list)
    #: the joints of ``unlumped`` with ``<preserveFixedJoint>`` true (libsdformat writes them as
    #: fixed joints; the others, ``<disableFixedJointLumping>`` only, as revolute joints locked
    #: at 0)
    preserved: set[str] = field(default_factory=set)

    @property
    def parent_joint(self) -> dict[str, UrdfJoint]:
        """Each child link's joint, by child link name."""
        return {j.child: j for j in self.joints}


def _numbers(elem: etree._Element, attr: str, file: str, count: int) -> list[float] | None:
    raw = elem.get(attr)
    if raw is None:
        return None
    words = raw.split()
    values = [c_double(w) for w in words]
    if len(words) != count or any(
        v is None or not (-MAX_MAGNITUDE <= v <= MAX_MAGNITUDE) for v in values
    ):
        raise SdfError(
            file, line_of(elem),
            f"<{elem.tag}> attribute {attr}={raw!r} is not {count} finite number"
            f"{'s' if count > 1 else ''}",
        )
    return [v for v in values if v is not None]


def _number(elem: etree._Element, attr: str, file: str) -> float:
    values = _numbers(elem, attr, file, 1)
    if values is None:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> has no {attr} attribute")
    return values[0]


def read_origin(parent: etree._Element, file: str) -> Pose:
    """The ``<origin>`` child of ``parent`` (identity when absent)."""
    origin = parent.find("origin")
    if origin is None:
        return Pose()
    xyz = _numbers(origin, "xyz", file, 3) or [0.0, 0.0, 0.0]
    rpy = _numbers(origin, "rpy", file, 3) or [0.0, 0.0, 0.0]
    return Pose.from_xyz_rpy(xyz, rpy)


def _inertial(elem: etree._Element, file: str) -> UrdfInertial:
    mass = elem.find("mass")
    if mass is None:
        raise SdfError(file, line_of(elem), "<inertial> has no <mass> (URDF requires it)")
    inertia = elem.find("inertia")
    if inertia is None:
        raise SdfError(file, line_of(elem), "<inertial> has no <inertia> (URDF requires it)")
    v = {a: _number(inertia, a, file) for a in INERTIA_ATTRIBUTES}
    I = np.array(
        [[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
         [v["ixz"], v["iyz"], v["izz"]]]
    )
    I.setflags(write=False)
    return UrdfInertial(
        mass=_number(mass, "value", file),
        X_BI=read_origin(elem, file),
        I_BBcm_I=I,
        source=SourceRef(file, line_of(elem)),
        mass_source=SourceRef(file, line_of(mass)),
        inertia_source=SourceRef(file, line_of(inertia)),
    )


def _geometry(elem: etree._Element | None, file: str) -> Geometry:
    shape = None if elem is None else next((c for c in elem if isinstance(c.tag, str)), None)
    if shape is None:
        return Geometry("other")
    if shape.tag == "box":
        size = _numbers(shape, "size", file, 3) or [0.0, 0.0, 0.0]
        return Geometry("box", size=(size[0], size[1], size[2]))
    if shape.tag == "sphere":
        return Geometry("sphere", radius=_number(shape, "radius", file))
    if shape.tag == "cylinder":
        return Geometry(
            "cylinder", radius=_number(shape, "radius", file),
            length=_number(shape, "length", file),
        )
    if shape.tag == "capsule":
        return Geometry(
            "capsule", radius=_number(shape, "radius", file),
            length=_number(shape, "length", file),
        )
    if shape.tag == "mesh":
        scale = _numbers(shape, "scale", file, 3) or [1.0, 1.0, 1.0]
        return Geometry(
            "mesh", mesh_uri=(shape.get("filename") or "").strip(),
            scale=(scale[0], scale[1], scale[2]),
        )
    return Geometry("other")


def _rgba(material: etree._Element | None, named: dict[str, tuple[float, ...]]
          ) -> tuple[float, ...] | None:
    """A ``<material>``'s colour as urdfdom reads it (:attr:`UrdfLink.visual_rgba`); one that
    is not four numbers is none."""
    if material is None:
        return None
    color = material.find("color")
    words = (color.get("rgba") or "").split() if color is not None else []
    values = [c_double(w) for w in words]
    if len(values) == 4 and all(v is not None for v in values):
        return tuple(v for v in values if v is not None)
    if color is None and material.find("texture") is not None:
        return (0.0, 0.0, 0.0, 1.0)
    return named.get((material.get("name") or "").strip()) if color is None else None


def _read_visuals(elem: etree._Element, file: str, link: UrdfLink,
                  named: dict[str, tuple[float, ...]] | None) -> None:
    """The link's ``<visual>`` shapes, read as its collisions are; one that cannot be read is
    recorded in ``link.unread_visuals`` (physics does not use visuals). ``named``: the
    colours of the robot's ``<material>`` s, by name (``None``: colours not read)."""
    for v in elem.iterchildren("visual"):
        name, where = (v.get("name") or "").strip(), SourceRef(file, line_of(v))
        try:
            X_BV, geometry = read_origin(v, file), _geometry(v.find("geometry"), file)
        except SdfError as exc:
            link.unread_visuals.append(UnreadVisual(name, where, exc.message))
            continue
        link.visuals.append(Collision(name=name, X_BC=X_BV, geometry=geometry, source=where))
        link.visual_rgba.append(None if named is None else _rgba(v.find("material"), named))


def _attributes(elem: etree._Element | None, names: tuple[str, ...], file: str,
                default: float) -> tuple[float, ...] | None:
    """The numbers of ``elem``'s attributes ``names`` (``default`` for one left out), ``None``
    without ``elem``."""
    if elem is None:
        return None
    values = (_numbers(elem, a, file, 1) for a in names)
    return tuple(default if v is None else v[0] for v in values)


def _joint_motion(
    elem: etree._Element, file: str
) -> tuple[tuple[float, float, float], tuple[float, ...] | None, tuple[float, ...] | None,
           str | None]:
    """A ``<joint>``'s axis, limit and dynamics (:class:`UrdfJoint`), or why not read."""
    try:
        axis_elem = elem.find("axis")
        xyz = None if axis_elem is None else _numbers(axis_elem, "xyz", file, 3)
        axis = (1.0, 0.0, 0.0) if xyz is None else (xyz[0], xyz[1], xyz[2])
        limit = _attributes(elem.find("limit"), ("lower", "upper", "effort", "velocity"), file,
                            0.0)
        dynamics = _attributes(elem.find("dynamics"), ("damping", "friction"), file, 0.0)
    except SdfError as exc:
        return (1.0, 0.0, 0.0), None, None, f"line {exc.line}: {exc.message}"
    return axis, limit, dynamics, None


def _flag(elem: etree._Element) -> bool:
    """A ``<gazebo>`` switch as libsdformat reads it: text (or ``value``) true/yes/1."""
    raw = (elem.text or elem.get("value") or "").strip()
    return raw.lower() in ("true", "yes") or raw == "1"


def _name(elem: etree._Element, file: str) -> str:
    name = (elem.get("name") or "").strip()
    if not name:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> has no name attribute")
    return name


def parse_robot(root: etree._Element, file: str, max_links: int | None = None, *,
                whole: bool = False) -> UrdfRobot:
    """The robot ``root`` (a ``<robot>`` element) describes, checked as urdfdom checks it.
    ``whole=True`` also reads what only the SDFormat text of ``expand --sdf`` needs (physics
    does not): the joints' axis, limit and dynamics, the visuals' colours and the ``<gazebo>``
    blocks as written; otherwise those fields keep their defaults (urdfdom's axis, no limit,
    no dynamics, no colour, no block)."""
    if root.tag != "robot":
        raise SdfError(file, line_of(root), f"root element is <{root.tag}>, not <robot> (URDF)")
    robot_name = (root.get("name") or "").strip()
    if not robot_name:
        raise SdfError(file, line_of(root), "<robot> has no name attribute")
    links: dict[str, UrdfLink] = {}
    joints: list[UrdfJoint] = []
    gazebo = _Extensions()
    named: dict[str, tuple[float, ...]] = {}  # the robot's materials (urdfdom reads them first)
    for m in root.iterchildren("material") if whole else ():
        rgba = _rgba(m, {})
        if rgba is not None:
            named.setdefault((m.get("name") or "").strip(), rgba)
    for elem in root:
        if elem.tag == "link":
            name = _name(elem, file)
            if name in links:
                raise SdfError(file, line_of(elem), f"link {name!r} is not unique")
            if max_links is not None and len(links) >= max_links:
                raise SdfError(
                    file, line_of(elem), f"more than {max_links} links (GZINERTIA_MAX_LINKS)"
                )
            links[name] = _read_link(elem, file, name, named if whole else None)
        elif elem.tag == "joint":
            joints.append(_read_joint(elem, file, whole))
        elif elem.tag == "gazebo":
            gazebo.read(elem, file, whole)
    _check_tree(robot_name, file, root, links, joints)
    return UrdfRobot(
        robot_name, file, SourceRef(file, line_of(root)), links, joints, gazebo.unlumped,
        gazebo.static, gazebo.plugins, gazebo.extensions, gazebo.preserved,
    )


def _read_link(
    elem: etree._Element, file: str, name: str, named: dict[str, tuple[float, ...]] | None
) -> UrdfLink:
    """The ``<link>`` ``elem`` named ``name``: its inertial, collisions and visuals (their
    colours with ``named``, the robot's materials, when given)."""
    inertial_elem = elem.find("inertial")
    link = UrdfLink(
        name, SourceRef(file, line_of(elem)),
        None if inertial_elem is None else _inertial(inertial_elem, file),
    )
    for c in elem.iterchildren("collision"):
        link.collisions.append(
            Collision(
                name=(c.get("name") or "").strip(),
                X_BC=read_origin(c, file),
                geometry=_geometry(c.find("geometry"), file),
                source=SourceRef(file, line_of(c)),
            )
        )
    _read_visuals(elem, file, link, named)
    return link


def _read_joint(elem: etree._Element, file: str, whole: bool) -> UrdfJoint:
    """The ``<joint>`` ``elem``, checked as urdfdom checks it (a known type, a parent and a
    child link); with ``whole`` its axis, limit and dynamics too."""
    name = _name(elem, file)
    kind = (elem.get("type") or "").strip()
    if kind not in JOINT_TYPES:
        raise SdfError(
            file, line_of(elem), f"joint {name!r} has type {kind!r}, not one of "
            + ", ".join(JOINT_TYPES),
        )
    ends = {}
    for end in ("parent", "child"):
        e = elem.find(end)
        ends[end] = "" if e is None else (e.get("link") or "").strip()
        if not ends[end]:
            raise SdfError(file, line_of(elem), f"joint {name!r} has no <{end} link>")
    return UrdfJoint(name, kind, ends["parent"], ends["child"], read_origin(elem, file),
                     SourceRef(file, line_of(elem)),
                     *(_joint_motion(elem, file) if whole else ()))


@dataclass(repr=False, eq=False)
class _Extensions(Record):
    """What a robot's ``<gazebo>`` blocks say, gathered in file order (the fields of
    :class:`UrdfRobot` of the same names)."""

    unlumped: dict[str, SourceRef] = field(default_factory=dict)
    static: bool = False
    plugins: list[tuple[str, HydroPlugin]] = field(default_factory=list)
    extensions: list[tuple[str, str, SourceRef]] = field(default_factory=list)
    preserved: set[str] = field(default_factory=set)

    def read(self, elem: etree._Element, file: str, whole: bool) -> None:
        """Adds the ``<gazebo>`` block ``elem`` (with ``whole``, its text as written too)."""
        ref = (elem.get("reference") or "").strip()
        if whole:
            self.extensions.append((ref, etree.tostring(elem, encoding="unicode",
                                                        with_tail=False),
                                    SourceRef(file, line_of(elem))))
        for c in elem:
            if c.tag in ("disableFixedJointLumping", "preserveFixedJoint") and ref:
                if _flag(c):
                    self.unlumped.setdefault(ref, SourceRef(file, line_of(elem)))
                    if c.tag == "preserveFixedJoint":
                        self.preserved.add(ref)
            elif c.tag == "static" and not ref:
                self.static = _flag(c)
            elif c.tag == "plugin" and is_gz_hydrodynamics(c):
                plugin = replace(read_hydrodynamics(c, file), comment=_comment_before(c))
                self.plugins.append((ref, plugin))


def _check_tree(
    robot: str, file: str, root: etree._Element, links: dict[str, UrdfLink],
    joints: list[UrdfJoint],
) -> None:
    """The tree checks of urdfdom: known links, one parent each, no loop, one root."""
    names: set[str] = set()
    parent_of: dict[str, UrdfJoint] = {}
    for j in joints:
        where = j.source
        if j.name in names:
            raise SdfError(where.file, where.line, f"joint {j.name!r} is not unique")
        names.add(j.name)
        for end in (j.parent, j.child):
            if end not in links:
                raise SdfError(where.file, where.line, f"joint {j.name!r} names unknown link "
                               f"{end!r}")
        if j.child in parent_of:
            raise SdfError(where.file, where.line, f"link {j.child!r} is the child of two joints "
                           f"({parent_of[j.child].name!r} and {j.name!r})")
        parent_of[j.child] = j
    roots = [n for n in links if n not in parent_of]
    if not links:
        raise SdfError(file, line_of(root), f"robot {robot!r} has no links")
    if len(roots) != 1:
        what = bounded(repr(r) for r in roots) if roots else "none (the joints form a loop)"
        raise SdfError(file, line_of(root), f"URDF needs exactly one root link, found {what}")
    # every link reaches the root (a loop hanging off the tree does not)
    children: dict[str, list[str]] = {}
    for j in joints:
        children.setdefault(j.parent, []).append(j.child)
    reached, todo = {roots[0]}, [roots[0]]
    while todo:
        for c in children.get(todo.pop(), ()):
            reached.add(c)
            todo.append(c)
    lost = next((n for n in links if n not in reached), None)
    if lost is not None:
        j = parent_of[lost]
        raise SdfError(j.source.file, j.source.line, f"joints form a loop through link {lost!r}")


def _comment_before(elem: etree._Element) -> str | None:
    """The comment written with a ``<gazebo>`` block's element: the nearest comment before it
    inside the block (only whitespace and comments between), else the one directly before the
    block (``addmass`` on URDF wrote it there before it wrote it inside)."""
    for node in (elem, elem.getparent()):
        if node is None:
            return None
        prev = node.getprevious()
        if isinstance(prev, etree._Comment):
            return (prev.text or "").strip()
    return None

