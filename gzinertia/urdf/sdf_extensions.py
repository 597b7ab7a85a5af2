"""The ``<gazebo>`` blocks of a URDF as libsdformat's conversion copies them into the SDFormat
model (``parser_urdf.cc``: ``InsertSDFExtensionLink``, ``…Collision``, ``…Visual``,
``…Joint``, ``…Robot``): what ``gzinertia expand --sdf`` writes.

* ``<gazebo>`` without reference: every child is copied verbatim into the ``<model>``
  (``<plugin>``, ``<static>``, …).
* ``<gazebo reference="LINK">``: the URDF names libsdformat turns into SDF (``<mu1>``, ``<mu2>``,
  ``<kp>``, ``<kd>``, ``<fdir1>``, ``<maxVel>``, ``<minDepth>`` into each of that link's
  collisions' ``<surface>``, ``<maxContacts>``, ``<laserRetro>`` into its collisions,
  ``<material>`` into its visuals, ``<visual>``/``<collision>`` blocks' children into them
  (the shapes libsdformat matches by name: :func:`shape_extras`), ``<selfCollide>``,
  ``<gravity>``, ``<turnGravityOff>``, ``<kinematic>`` into the link) are converted; every
  other child (``<sensor>``, ``<plugin>``, ``<velocity_decay>``, …) is copied verbatim into
  the link that holds LINK (the link it is lumped into, when it is; a lumped link's sensors
  and projectors moved into that link's frame).
* ``<gazebo reference="JOINT">``: ``<provideFeedback>``, ``<implicitSpringDamper>`` (or
  ``<cfmDamping>``), ``<stopCfm>``, ``<stopErp>``, ``<fudgeFactor>`` into the joint's
  ``<physics>``, ``<springReference>``, ``<springStiffness>`` into its axis dynamics; the
  lumping switches are consumed; every other child is copied verbatim into the joint.

A reference naming neither a link nor a joint libsdformat keeps is not written, and said.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from lxml import etree

from gzinertia.record_base import Record
from gzinertia.sdf.values import parse_pose
from gzinertia.spatial.rotation import Pose
from gzinertia.urdf.model import UrdfRobot

__all__ = ["Extensions", "merged", "merged_text", "shape_extras", "sort_extensions"]

#: URDF extension name → the element of a collision's ``<surface>`` it becomes.
SURFACE = {
    "mu1": "<friction><ode><mu>{}</mu></ode></friction>",
    "mu2": "<friction><ode><mu2>{}</mu2></ode></friction>",
    "fdir1": "<friction><ode><fdir1>{}</fdir1></ode></friction>",
    "kp": "<contact><ode><kp>{}</kp></ode></contact>",
    "kd": "<contact><ode><kd>{}</kd></ode></contact>",
    "maxVel": "<contact><ode><max_vel>{}</max_vel></ode></contact>",
    "minDepth": "<contact><ode><min_depth>{}</min_depth></ode></contact>",
}
#: URDF extension name → the element of a collision it becomes.
COLLISION = {"maxContacts": "<max_contacts>{}</max_contacts>",
             "laserRetro": "<laser_retro>{}</laser_retro>"}
#: URDF extension name → the element of a link it becomes.
LINK = {"selfCollide": "<self_collide>{}</self_collide>", "gravity": "<gravity>{}</gravity>",
        "kinematic": "<kinematic>{}</kinematic>"}
#: URDF extension name → the element of a joint it becomes.
JOINT = {
    "provideFeedback": "<physics><provide_feedback>{0}</provide_feedback><ode><provide_feedback>"
                       "{0}</provide_feedback></ode></physics>",
    "implicitSpringDamper": "<physics><ode><implicit_spring_damper>{}</implicit_spring_damper>"
                            "</ode></physics>",
    "cfmDamping": "<physics><ode><implicit_spring_damper>{}</implicit_spring_damper></ode>"
                  "</physics>",
    "stopCfm": "<physics><ode><limit><cfm>{}</cfm></limit></ode></physics>",
    "stopErp": "<physics><ode><limit><erp>{}</erp></limit></ode></physics>",
    "fudgeFactor": "<physics><ode><fudge_factor>{}</fudge_factor></ode></physics>",
}
AXIS_DYNAMICS = {"springReference": "<spring_reference>{}</spring_reference>",
                 "springStiffness": "<spring_stiffness>{}</spring_stiffness>"}
CONSUMED = ("disableFixedJointLumping", "preserveFixedJoint")
#: Elements of a lumped link libsdformat moves into the kept link's frame (their ``<pose>``).
MOVED = ("sensor", "projector")


@dataclass(repr=False, eq=False)
class Extensions(Record):
    """The SDF text the ``<gazebo>`` blocks add, by where it goes: ``model`` (children of the
    ``<model>``), ``link[NAME]`` (of a kept link), ``shapes[NAME]`` (of its collisions and
    visuals: :func:`shape_extras` picks a shape's), ``joint[NAME]`` and
    ``axis_dynamics[NAME]``; ``unused``: what was not written, one sentence each."""

    model: list[str] = field(default_factory=list)
    link: dict[str, list[str]] = field(default_factory=dict)
    #: by kept link: ``(kind, reference, text)``, ``kind`` one of ``surface`` (a child of a
    #: collision's ``<surface>``), ``collision``, ``visual`` (a child of the shape)
    shapes: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    joint: dict[str, list[str]] = field(default_factory=dict)
    axis_dynamics: dict[str, list[str]] = field(default_factory=dict)
    unused: list[str] = field(default_factory=list)


def _verbatim(elem: etree._Element) -> str:
    return etree.tostring(elem, encoding="unicode", with_tail=False)


def _text(elem: etree._Element) -> str:
    return escape((elem.text or "").strip())


def _material(value: str) -> str:
    return ("<material><script><uri>file://media/materials/scripts/gazebo.material</uri>"
            f"<name>{value}</name></script></material>")


def sort_extensions(robot: UrdfRobot, holder: dict[str, str], joints: set[str]) -> Extensions:
    """The ``<gazebo>`` blocks of ``robot`` sorted by where they go: ``holder`` maps each link
    libsdformat keeps or lumps to the kept link that holds it, ``joints`` are the joints it
    writes."""
    out = Extensions()
    for ref, xml, where in robot.extensions:
        block = etree.fromstring(xml)
        children = [c for c in block if isinstance(c.tag, str)]
        if not ref:
            out.model.extend(_verbatim(c) for c in children)
        elif ref in holder:
            _link_extension(out, robot, ref, holder[ref], children)
        elif ref in joints:
            _joint_extension(out, ref, children)
        elif any(c.tag not in CONSUMED for c in children):
            out.unused.append(f"{where.file}:{where.line}: <gazebo reference={ref!r}> names no "
                              "link or joint libsdformat keeps: not written (Gazebo ignores it)")
    return out


def _link_extension(out: Extensions, robot: UrdfRobot, ref: str, kept: str,
                    children: list[etree._Element]) -> None:
    shapes = out.shapes.setdefault(kept, [])
    for c in children:
        tag = str(c.tag)
        if tag in SURFACE:
            shapes.append(("surface", ref, SURFACE[tag].format(_text(c))))
        elif tag in COLLISION:
            shapes.append(("collision", ref, COLLISION[tag].format(_text(c))))
        elif tag == "material":
            shapes.append(("visual", ref, _material(_text(c))))
        elif tag in ("visual", "collision"):
            # (libsdformat merges the block's children into the link's shapes)
            shapes.extend((tag, ref, _verbatim(e)) for e in c if isinstance(e.tag, str))
        elif tag in LINK:
            out.link.setdefault(kept, []).append(LINK[tag].format(_text(c)))
        elif tag == "turnGravityOff":
            on = _text(c).lower() not in ("true", "1", "yes")
            out.link.setdefault(kept, []).append(f"<gravity>{str(on).lower()}</gravity>")
        else:
            if ref != kept and tag in MOVED:
                _move(c, _pose_in(robot, ref, kept), robot.file)
            out.link.setdefault(kept, []).append(_verbatim(c))


def shape_extras(ext: Extensions, kept: str, kind: str, name: str) -> list[str]:
    """What the ``<gazebo>`` blocks add to the ``kind`` (``collision`` or ``visual``) named
    ``name`` (its SDF name) of the ``kept`` link, as libsdformat 12 applies them
    (``InsertSDFExtensionCollision``/``…Visual``): a block of the kept link itself to its shapes
    whose name holds the link's name and no ``_fixed_joint_lump__``; a block of a link ``L``
    lumped into it to the shapes whose name holds ``_fixed_joint_lump__L_{kind}``. The
    ``<surface>`` parts are merged into one; of two elements of one tag, the later is kept."""
    lump = "_fixed_joint_lump__"
    chosen: dict[str, etree._Element] = {}
    surface: etree._Element | None = None
    for part, ref, text in ext.shapes.get(kept, []):
        if part != kind and not (kind == "collision" and part == "surface"):
            continue
        if ref == kept:
            if kept not in name or lump in name:
                continue
        elif f"{lump}{ref}_{kind}" not in name:
            continue
        elem = etree.fromstring(text)
        if part == "surface":
            wrapped = etree.Element("surface")
            wrapped.append(elem)
            surface = wrapped if surface is None else merged(surface, wrapped)
        else:
            chosen.pop(str(elem.tag), None)
            chosen[str(elem.tag)] = elem
    if surface is not None:
        chosen["surface"] = surface
    return [_verbatim(e) for e in chosen.values()]


def _pose_in(robot: UrdfRobot, link: str, kept: str) -> Pose:
    """``X_KL``: the lumped ``link``'s frame in the frame of the ``kept`` link it is lumped
    into (the fixed joints' ``<origin>`` s between them)."""
    parent_joint = robot.parent_joint
    X = Pose()
    while link != kept:
        joint = parent_joint[link]
        X = joint.X_PJ @ X
        link = joint.parent
    return X


def _move(elem: etree._Element, X_KL: Pose, file: str) -> None:
    """``elem``'s ``<pose>`` (in the lumped link's frame L; identity when absent) rewritten in
    the kept link's frame K, as libsdformat moves a lumped link's sensors and projectors."""
    pose = elem.find("pose")
    if pose is None:
        pose = etree.SubElement(elem, "pose")
    X = X_KL @ parse_pose(pose, file).X
    for attribute in ("degrees", "rotation_format"):
        pose.attrib.pop(attribute, "")
    pose.text = " ".join(repr(float(v)) for v in (*X.p, *X.rpy()))


def _joint_extension(out: Extensions, ref: str, children: list[etree._Element]) -> None:
    physics: etree._Element | None = None  # (one <physics> for the joint, the parts merged)
    for c in children:
        tag = str(c.tag)
        if tag in CONSUMED:
            continue
        if tag in JOINT:
            part = etree.fromstring(JOINT[tag].format(_text(c)))
            physics = part if physics is None else merged(physics, part)
        elif tag in AXIS_DYNAMICS:
            out.axis_dynamics.setdefault(ref, []).append(AXIS_DYNAMICS[tag].format(_text(c)))
        else:
            out.joint.setdefault(ref, []).append(_verbatim(c))
    if physics is not None:
        out.joint.setdefault(ref, []).insert(0, _verbatim(physics))


def merged_text(first: str, then: str) -> str:
    """:func:`merged` on XML text: ``then``'s children merged into ``first``."""
    return _verbatim(merged(etree.fromstring(first), etree.fromstring(then)))


def merged(into: etree._Element, part: etree._Element) -> etree._Element:
    """``into`` with the children of ``part`` (same tag) merged in, element by element; a leaf
    given twice takes the later value."""
    for child in part:
        mine = into.find(str(child.tag))
        if mine is None or len(child) == 0:
            if mine is not None:
                into.remove(mine)
            into.append(child)
        else:
            merged(mine, child)
    return into
