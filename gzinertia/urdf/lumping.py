"""What libsdformat's URDF→SDF conversion makes of a robot's links (``parser_urdf.cc``).

* **Fixed-joint lumping.** A ``fixed`` joint is *reduced* unless its parent is ``world`` or a
  ``<gazebo reference="JOINT">`` block sets ``<disableFixedJointLumping>`` or
  ``<preserveFixedJoint>``. The child's inertial (with everything already lumped into it) is
  added to the parent's: masses add, the centre of mass is the mass-weighted mean and the
  inertia about it is the sum of the parallel-axis terms, expressed in the axes of the parent's
  inertial ``<origin>`` (identity when the parent had no ``<inertial>``). Here the sum is taken
  exactly once per kept link, as spatial inertias about its origin (``M_BBo_B``), which is the
  same physics with fewer roundings. The lumped link becomes a frame; its collisions move to
  the kept link, posed in its frame; the joints below it hang from the kept link.
* **Massless links.** A link whose inertial (after lumping into it) is missing or has no mass is
  not modelled, and its joints go with it: libsdformat ≥ 12.7.2, 13.5, 14.0
  (gazebosim/sdformat#1238: current Fortress, Garden, Harmonic and newer) drops it with its
  whole subtree unless its parent joint is reduced (then it is lumped and contributes
  nothing); libsdformat < 12.7.2 (``legacy=True``, Debian bookworm's 12.3) drops it with its
  subtree *even when* it is lumped, which also loses every link below it (a bug that changes
  the physics, noted).
* **world.** A root link named ``world`` is the world: its child links are kept (with a fixed
  joint to the world when the joint is fixed), never lumped into it.

Link poses ``X_WB`` are the products of the joint ``<origin>`` s from the root (the model frame).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from gzinertia.errors import SdfError
from gzinertia.record_base import Record, ValueRecord
from gzinertia.records import Collision, Inertial, LinkRecord, Note, SourceRef
from gzinertia.spatial.inertia import parallel_axis, reexpress_inertia
from gzinertia.spatial.rotation import Pose
from gzinertia.urdf.lumped_plugins import plugin_notes, with_plugins
from gzinertia.urdf.lumping_notes import (
    dropped_note,
    gimbal_note,
    gimbal_rotations,
    invalid_inertial,
    invalid_lumped_note,
    lumped_note,
    nan_note,
    near_gimbal,
)
from gzinertia.urdf.model import WORLD, UrdfInertial, UrdfJoint, UrdfLink, UrdfRobot

#: libsdformat < 12.7.2 tests the mass with ``ignition::math::equal(mass, 0)`` (|m| ≤ 1e-6).
LEGACY_MASS_EPSILON = 1e-6


@dataclass(repr=False)
class _Group(Record):
    """A link and what is lumped into it, as sums about the link origin, in link axes."""

    mass: float = 0.0
    first_moment: np.ndarray = field(default_factory=lambda: np.zeros(3))  # Σ m·p_BoBcm_B
    I_BBo_B: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))
    has_inertial: bool = False
    members: list[str] = field(default_factory=list)  # lumped links, document order


def _add(group: _Group, inertial: UrdfInertial, X_BL: Pose) -> None:
    """Adds a link L's own inertial, L posed at ``X_BL`` in the group's link B."""
    group.has_inertial = True
    m = inertial.mass
    if m == 0.0:
        return  # nothing to add (libsdformat would divide 0 by 0 here: see docs/urdf.md)
    X_BI = X_BL @ inertial.X_BI
    I_BBcm_B = reexpress_inertia(inertial.I_BBcm_I, X_BI.R)
    group.mass += m
    group.first_moment = group.first_moment + m * X_BI.p
    group.I_BBo_B = group.I_BBo_B + parallel_axis(I_BBcm_B, m, X_BI.p)


def is_reduced(joint: UrdfJoint | None, robot: UrdfRobot) -> bool:
    """``FixedJointShouldBeReduced`` and the ``world`` exception of ``ReduceFixedJoints``."""
    return (
        joint is not None
        and joint.kind == "fixed"
        and joint.name not in robot.unlumped
        and joint.parent != WORLD
    )


@dataclass(frozen=True, repr=False, eq=False)
class Conversion(ValueRecord):
    """The records of the kept links (in libsdformat's order), the notes, and for each lumped
    link the kept link that holds it."""

    links: tuple[LinkRecord, ...]
    notes: tuple[Note, ...]
    lumped_into: dict[str, str]
    dropped: tuple[str, ...]


def convert(robot: UrdfRobot, *, lump: bool = True, legacy: bool = False) -> Conversion:
    """The link records Gazebo builds from ``robot``; with ``lump=False`` every link but
    ``world`` with its own inertial (no ``<inertial>``: mass 0) and its own collisions, as a
    parser that does not lump (Drake) reads it."""
    tree = _Tree.of(robot)
    prefix = f"{robot.name}::"
    # one tree (urdfdom's rule): one body, held by the world when the root is ``world``
    anchored = any(j.parent == WORLD for j in robot.joints)
    if not lump:
        records = [
            _record(robot, robot.links[n], tree.X_MB[n], _own_group(robot.links[n]),
                    list(robot.links[n].collisions), prefix, set(), anchored,
                    visuals=list(robot.links[n].visuals))
            for n in tree.order if n != WORLD
        ]
        return Conversion(tuple(records), (), {}, ())
    groups, gimbal, nan_at = _groups(robot, tree)
    notes: list[Note] = []
    kept = _keep(robot, tree, groups, legacy, notes)
    records = _kept_records(robot, tree, groups, kept, anchored, notes)
    for name in kept.kept:
        where = gimbal_rotations(name, gimbal)
        if where:
            notes.append(gimbal_note(robot, name, where, prefix))
        if name in nan_at:
            notes.append(nan_note(robot, name, nan_at[name], prefix))
    notes.extend(plugin_notes(robot, records, kept.lumped_into, prefix))
    return Conversion(tuple(with_plugins(robot, records, kept.lumped_into, prefix)),
                      tuple(notes), kept.lumped_into, tuple(kept.dropped))


@dataclass(repr=False, eq=False)
class _Tree(Record):
    """A robot's tree as libsdformat walks it: the root link, each link's child joints (by
    joint name, as urdfdom's sorted map holds them), each link's pose ``X_MB`` in the model
    frame M (the root's), the links depth first (children by joint name), and each child
    link's joint."""

    root: str
    children: dict[str, list[UrdfJoint]]
    X_MB: dict[str, Pose]
    order: list[str]
    parent_joint: dict[str, UrdfJoint]

    @classmethod
    def of(cls, robot: UrdfRobot) -> _Tree:
        """``robot``'s tree."""
        children: dict[str, list[UrdfJoint]] = {}
        # urdfdom keeps joints in a map sorted by name: child links come in that order
        for j in sorted(robot.joints, key=lambda j: j.name):
            children.setdefault(j.parent, []).append(j)
        parent_joint = robot.parent_joint
        root = next(n for n in robot.links if n not in parent_joint)
        X_MB: dict[str, Pose] = {root: Pose()}
        order: list[str] = []  # depth first, children by joint name
        stack = [root]
        while stack:
            name = stack.pop()
            order.append(name)
            for j in reversed(children.get(name, [])):
                X_MB[j.child] = X_MB[name] @ j.X_PJ
                stack.append(j.child)
        return cls(root, children, X_MB, order, parent_joint)


def _groups(
    robot: UrdfRobot, tree: _Tree
) -> tuple[dict[str, _Group], dict[str, list[tuple[list[str], str]]], dict[str, UrdfJoint]]:
    """Each link's group, bottom-up (its own inertial plus its reduced children's groups);
    for each link, per child lumped into it, the rotations of that lumping libsdformat lumps
    wrongly (:data:`~gzinertia.urdf.lumping_notes.GIMBAL_SIN_PITCH`) and the child (whose own
    list follows); and for each link the lumping where libsdformat computes 0/0."""
    groups: dict[str, _Group] = {}
    gimbal: dict[str, list[tuple[list[str], str]]] = {}
    nan_at: dict[str, UrdfJoint] = {}
    for name in reversed(tree.order):
        link = robot.links[name]
        g = _own_group(link)
        lumps: list[tuple[list[str], str]] = []
        for j in tree.children.get(name, []):
            if is_reduced(j, robot):
                cg = groups[j.child]
                if cg.has_inertial and cg.mass == 0.0 and g.mass == 0.0:
                    nan_at.setdefault(name, j)  # libsdformat's dMassAdd divides 0 by 0 here
                if j.child in nan_at:
                    nan_at.setdefault(name, nan_at[j.child])
                _merge(g, cg, j.X_PJ)
                if not cg.has_inertial:
                    continue
                bad = []
                if link.inertial is not None and near_gimbal(link.inertial.X_BI):
                    bad.append(f"the <inertial><origin> of {name!r}")
                if near_gimbal(j.X_PJ):
                    bad.append(f"the <origin> of joint {j.name!r}")
                child_inertial = robot.links[j.child].inertial
                if child_inertial is not None and near_gimbal(child_inertial.X_BI):
                    bad.append(f"the <inertial><origin> of {j.child!r}")
                lumps.append((bad, j.child))
        if lumps:
            gimbal[name] = lumps
        groups[name] = g
    return groups, gimbal, nan_at


@dataclass(repr=False, eq=False)
class _Kept(Record):
    """Which links libsdformat keeps (in its order), drops, and lumps into which kept link;
    ``shapes_into``: each dropped link whose shapes still move to a kept link (legacy)."""

    kept: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    lumped_into: dict[str, str] = field(default_factory=dict)
    shapes_into: dict[str, str] = field(default_factory=dict)


def _keep(
    robot: UrdfRobot, tree: _Tree, groups: dict[str, _Group], legacy: bool, notes: list[Note]
) -> _Kept:
    """The links kept, dropped (each drop said in ``notes``) and lumped, walking from the
    root (from ``world``'s children when the root is ``world``)."""

    def massless(g: _Group) -> bool:
        if not g.has_inertial:
            return True
        return abs(g.mass) <= LEGACY_MASS_EPSILON if legacy else g.mass <= 0.0

    out = _Kept()
    holder: dict[str, str] = {}  # link -> the kept link (or world) it is lumped into
    root = tree.root
    start = [j.child for j in tree.children.get(root, [])] if root == WORLD else [root]
    stack = list(reversed(start))
    while stack:
        name = stack.pop()
        pj = tree.parent_joint.get(name)
        reduced = is_reduced(pj, robot)
        if pj is not None and reduced:
            holder[name] = holder.get(pj.parent, pj.parent)
        else:
            holder[name] = name
        if massless(groups[name]):
            # the joint is "reduced" for this test when it is fixed, even from world
            parent_reduced = pj is not None and pj.kind == "fixed" and pj.name not in robot.unlumped
            if legacy or not parent_reduced:
                lost = _subtree(name, tree.children)
                out.dropped.extend(lost)
                notes.append(dropped_note(robot, name, pj, lost, legacy, parent_reduced))
                if legacy and parent_reduced and pj is not None and pj.parent != WORLD:
                    # < 12.7.2 still moves its shapes first (ReduceFixedJoints runs before
                    # the mass test): those of it and of its fixed-joint descendants
                    for d in _reduced_part(name, tree.children, robot):
                        out.shapes_into[d] = holder[name]
                continue
        if pj is None or pj.parent == WORLD or not reduced:
            if not massless(groups[name]):
                out.kept.append(name)
        elif pj is not None:
            out.lumped_into[name] = holder[name]
        stack.extend(j.child for j in reversed(tree.children.get(name, [])))
    return out


def _kept_records(robot: UrdfRobot, tree: _Tree, groups: dict[str, _Group], kept: _Kept,
                  anchored: bool, notes: list[Note]) -> list[LinkRecord]:
    """The kept links' records, each with the shapes of the links lumped into it (and, legacy,
    of the dropped links whose shapes it gets), posed in its frame, in the order
    ``ReduceFixedJoints`` reaches them; ``notes`` gets each lumping and each lumped invalid
    inertia."""
    prefix = f"{robot.name}::"
    members: dict[str, list[str]] = {}
    for small, big in kept.lumped_into.items():
        members.setdefault(big, []).append(small)
    shapes_of: dict[str, list[str]] = {}  # kept link -> the dropped links whose shapes it gets
    for small, big in kept.shapes_into.items():
        shapes_of.setdefault(big, []).append(small)
    welded = _welded(robot, kept.kept)
    rank = {n: i for i, n in enumerate(tree.order)}
    records = []
    for name in kept.kept:
        link = robot.links[name]
        collisions = list(link.collisions)
        visuals = list(link.visuals)
        moved = [*members.get(name, []), *shapes_of.get(name, [])]
        for small in sorted(moved, key=rank.__getitem__):  # as ReduceFixedJoints reaches them
            X_BS = tree.X_MB[name].inverse() @ tree.X_MB[small]
            collisions.extend(
                Collision(c.name or small, X_BS @ c.X_BC, c.geometry, c.source, c.density)
                for c in robot.links[small].collisions
            )
            visuals.extend(  # libsdformat moves the lumped link's visuals as its collisions
                Collision(v.name or small, X_BS @ v.X_BC, v.geometry, v.source)
                for v in robot.links[small].visuals
            )
            if small in kept.shapes_into:
                continue  # dropped (legacy): only its shapes moved
            joint = tree.parent_joint[small]
            notes.append(lumped_note(robot, small, name, joint, prefix))
            invalid = invalid_inertial(robot.links[small].inertial)
            if invalid:
                notes.append(invalid_lumped_note(robot, small, name, joint, invalid, prefix))
        records.append(
            _record(robot, link, tree.X_MB[name], groups[name],
                    _sdf_names(name, collisions, "collision"), prefix, welded, anchored,
                    members.get(name, []), _sdf_names(name, visuals, "visual"))
        )
    return records


def _own_group(link: UrdfLink) -> _Group:
    g = _Group()
    if link.inertial is not None:
        _add(g, link.inertial, Pose())
    return g


def _merge(g: _Group, child: _Group, X_BC: Pose) -> None:
    """Adds the group of child link C (posed at ``X_BC``) to ``g``, about B's origin."""
    if child.has_inertial:
        g.has_inertial = True
    if child.mass == 0.0:
        return
    p = child.first_moment / child.mass  # p_CoCcm_C
    I_CCcm_C = child.I_BBo_B - child.mass * (np.dot(p, p) * np.eye(3) - np.outer(p, p))
    p_B = X_BC.transform_point(p)
    g.mass += child.mass
    g.first_moment = g.first_moment + child.mass * p_B
    g.I_BBo_B = g.I_BBo_B + parallel_axis(reexpress_inertia(I_CCcm_C, X_BC.R), child.mass, p_B)


def _reduced_part(name: str, children: dict[str, list[UrdfJoint]], robot: UrdfRobot) -> list[str]:
    """``name`` and the links below it through reduced (fixed, lumped) joints only."""
    out, stack = [], [name]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(j.child for j in children.get(n, []) if is_reduced(j, robot))
    return out


def _subtree(name: str, children: dict[str, list[UrdfJoint]]) -> list[str]:
    out, todo = [], [name]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(j.child for j in children.get(n, []))
    return out


def _welded(robot: UrdfRobot, kept: list[str]) -> set[str]:
    """Kept links joined to ``world`` by fixed joints only (one pass from the root down)."""
    children: dict[str, list[UrdfJoint]] = {}
    for j in robot.joints:
        children.setdefault(j.parent, []).append(j)
    welded: set[str] = set()
    todo = [j for j in children.get(WORLD, []) if j.kind == "fixed"]
    while todo:
        j = todo.pop()
        welded.add(j.child)
        todo.extend(c for c in children.get(j.child, []) if c.kind == "fixed")
    return welded & set(kept)


def _sdf_names(link: str, shapes: list[Collision], kind: str) -> list[Collision]:
    """The shapes named as libsdformat's conversion names them in the SDF Gazebo loads (so
    ``--geometry`` names and the BEM provenance name what Gazebo shows, and every name is
    unique): the ``k``-th shape of the kept ``link``, written with name (or, unnamed, lumped
    from link) ``n``, is ``{n}_{kind}`` when ``n`` begins with the link's name (the link itself,
    or a name such as ``base_link_inertia`` on ``base_link``: libsdformat 12.3, the oracle,
    tests the prefix), else ``{link}_fixed_joint_lump__{n}_{kind}``; ``_{k}`` is appended for
    ``k > 0``."""
    out = []
    for k, shape in enumerate(shapes):
        n = shape.name or link
        base = f"{n}_{kind}" if n.startswith(link) else f"{link}_fixed_joint_lump__{n}_{kind}"
        out.append(replace(shape, name=base if k == 0 else f"{base}_{k}"))
    return out


def _record(
    robot: UrdfRobot,
    link: UrdfLink,
    X_WB: Pose,
    g: _Group,
    collisions: list[Collision],
    prefix: str,
    welded: set[str],
    anchored: bool,
    members: list[str] | None = None,
    visuals: list[Collision] | None = None,
) -> LinkRecord:
    own = link.inertial
    if own is not None and not members:
        # nothing lumped: the values as written (no rounding through the sums)
        inertial = Inertial(
            mass=own.mass, X_BI=own.X_BI, I_BBcm_I=own.I_BBcm_I, source=own.source,
            mass_source=own.mass_source, inertia_source=own.inertia_source,
        )
    else:
        if g.mass != 0.0:
            p = g.first_moment / g.mass
            I_BBcm_B = g.I_BBo_B - g.mass * (np.dot(p, p) * np.eye(3) - np.outer(p, p))
            # libsdformat keeps the axes of the parent's own inertial <origin> (else identity)
            R_BI = own.X_BI.R if own is not None else np.eye(3)
            I_BBcm_I = R_BI.T @ I_BBcm_B @ R_BI
            I_BBcm_I = (I_BBcm_I + I_BBcm_I.T) / 2.0
            X_BI = Pose(p, R_BI)
        else:
            I_BBcm_I, X_BI = np.zeros((3, 3)), Pose()
        I_BBcm_I.setflags(write=False)
        first = own or next(
            (robot.links[m].inertial for m in members or [] if robot.links[m].inertial), None
        )
        inertial = Inertial(
            mass=g.mass,
            X_BI=X_BI,
            I_BBcm_I=I_BBcm_I,
            defaulted=not g.has_inertial,
            source=first.source if first else None,
            mass_source=first.mass_source if first else None,
            inertia_source=first.inertia_source if first else None,
        )
    if not (np.all(np.isfinite(inertial.I_BBcm_I)) and np.isfinite(inertial.mass)
            and np.all(np.isfinite(inertial.X_BI.p))):
        raise SdfError(link.source.file, link.source.line,
                       f"link {link.name!r}: lumping its fixed-joint children overflows float64 "
                       "(masses, inertias or offsets too large)")
    name = prefix + link.name
    return LinkRecord(
        name=name,
        model=robot.name,
        X_WB=X_WB,
        inertial=inertial,
        collisions=tuple(collisions),
        visuals=tuple(visuals or ()),
        unread_visuals=(*link.unread_visuals,
                        *(u for m in members or [] for u in robot.links[m].unread_visuals)),
        source=link.source,
        static=robot.static,
        welded_to_world=link.name in welded,
        name_in_file=name,
        body_anchored=anchored,
    )


__all__ = ["Conversion", "SourceRef", "convert", "is_reduced"]
