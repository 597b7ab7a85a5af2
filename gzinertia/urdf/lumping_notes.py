"""What libsdformat's URDF→SDF lumping (:mod:`gzinertia.urdf.lumping`) gets wrong or drops,
as notes: rotations its ``getRPY`` mangles near ±90° pitch, a 0/0 lumping, a massless link
dropped with its subtree, a lumped link with an invalid inertia, and each lumping itself."""

from __future__ import annotations

import numpy as np

from gzinertia.physics.gz_math_inertia import gz_epsilon, gz_is_valid, gz_principal_moments
from gzinertia.records import Note
from gzinertia.spatial.rotation import Pose
from gzinertia.urdf.model import UrdfInertial, UrdfJoint, UrdfRobot

__all__ = [
    "GIMBAL_SIN_PITCH",
    "dropped_note",
    "gimbal_note",
    "gimbal_rotations",
    "invalid_inertial",
    "invalid_lumped_note",
    "lumped_note",
    "nan_note",
    "near_gimbal",
]

#: urdfdom's ``Rotation::getRPY`` (which libsdformat's lumping goes through) snaps the pitch to
#: ±90° once ``|sin(pitch)| ≥ 0.99999`` (within 0.26° of it) and sets the roll to 0.
GIMBAL_SIN_PITCH = 0.99999


def near_gimbal(X: Pose) -> bool:
    """Whether libsdformat's lumping mangles rotation ``X.R`` (see :data:`GIMBAL_SIN_PITCH`)."""
    return bool(abs(X.R[2, 0]) >= GIMBAL_SIN_PITCH)


def gimbal_rotations(name: str, gimbal: dict[str, list[tuple[list[str], str]]]) -> list[str]:
    """The rotations libsdformat lumps into ``name`` wrongly, each once: for each child lumped
    into it, those of that lumping, then the child's own, depth first. Gathered for the kept
    links only (each lumped link once), not held by every link for all those below it, which
    made a chain of such joints quadratic in memory."""
    out: list[str] = []
    todo: list[list[str] | str] = [name]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            out.extend(item)
            continue
        for bad, child in reversed(gimbal.get(item, [])):
            todo += [child, bad]
    return list(dict.fromkeys(out))


def gimbal_note(robot: UrdfRobot, name: str, where: list[str], prefix: str) -> Note:
    """The warning that libsdformat lumps the inertia of kept link ``name`` wrongly (``where``:
    the rotations near ±90° pitch, :func:`gimbal_rotations`)."""
    return Note(
        "warning",
        "urdf-lumping-gimbal",
        f"libsdformat lumps the inertia of {name!r} wrongly: {', '.join(where)} has a pitch "
        "within 0.26° of ±90°, which urdfdom's getRPY snaps to exactly ±90° (roll 0), so the "
        "lumped inertia Gazebo uses is rotated wrong; gzinertia shows the exact one (move the "
        "pitch away from ±90°, e.g. by an equivalent rotation, or preserve the fixed joint)",
        robot.links[name].source,
        link=prefix + name,
    )


def nan_note(robot: UrdfRobot, name: str, joint: UrdfJoint, prefix: str) -> Note:
    """The error that libsdformat's lumping into ``name`` divides 0 by 0 at ``joint``."""
    return Note(
        "error",
        "urdf-lumping-nan",
        f"libsdformat cannot lump into {name!r}: fixed joint {joint.name!r} adds a zero-mass "
        f"<inertial> ({joint.child!r}) to a link that has no mass yet ({joint.parent!r}), "
        "and its lumping divides 0 by 0: the lumped pose is NaN and Gazebo refuses the model "
        "('Pose values must be finite'); gzinertia shows the sum without it (remove the "
        "zero-mass <inertial>, or give the link its mass)",
        robot.links[name].source,
        link=prefix + name,
    )




def dropped_note(
    robot: UrdfRobot, name: str, pj: UrdfJoint | None, lost: list[str], legacy: bool,
    parent_reduced: bool,
) -> Note:
    """The warning that libsdformat drops massless link ``name`` (parent joint ``pj``) and the
    links ``lost`` below it; ``legacy``: libsdformat < 12.7.2, which drops it even when its
    parent joint is reduced (``parent_reduced``)."""
    link = robot.links[name]
    what = "no <inertial>" if link.inertial is None else f"mass {link.inertial.mass:g}"
    others = [n for n in lost if n != name]
    tail = f", nor the {len(others)} link(s) below it ({', '.join(others)})" if others else ""
    joint = f", nor its joint {pj.name!r}" if pj is not None else ""
    why = (
        " (libsdformat < 12.7.2 drops a massless link even when a fixed joint lumps it)"
        if legacy and parent_reduced else ""
    )
    return Note(
        "warning",
        "urdf-massless-link-dropped",
        f"link {name!r} has {what}: libsdformat does not model it{joint}{tail}; Gazebo "
        f"simulates none of them{why}",
        link.source,
        link=f"{robot.name}::{name}",
    )


def invalid_inertial(inertial: UrdfInertial | None) -> str:
    """Why libsdformat/gz-math would call this inertial invalid (``""`` when it is valid):
    negative mass, or principal moments about the centre of mass that are negative or break
    the triangle inequality beyond ``ε = 10·DBL_EPSILON·½·trace``, judged exactly as
    libsdformat does (gz-math's ``MassMatrix3::IsValid``,
    :mod:`gzinertia.physics.gz_math_inertia`)."""
    if inertial is None:
        return ""
    if inertial.mass < 0.0:
        return f"mass {inertial.mass:g} < 0"
    I = np.asarray(inertial.I_BBcm_I, dtype=float)
    if gz_is_valid(inertial.mass, I):
        return ""
    moments = sorted(gz_principal_moments(I))
    eps = gz_epsilon(moments)
    if moments[0] < -eps:
        return f"a principal moment is negative ({moments[0]:.6g})"
    if moments[0] + moments[1] < moments[2] - eps:
        return ("its principal moments break the triangle inequality "
                f"({moments[0]:.6g} + {moments[1]:.6g} < {moments[2]:.6g})")
    return "it is not positive semi-definite (a leading principal minor is negative)"


def invalid_lumped_note(
    robot: UrdfRobot, small: str, big: str, joint: UrdfJoint, why: str, prefix: str
) -> Note:
    """The error that ``joint`` lumps link ``small``, whose inertia is invalid (``why``), into
    ``big``."""
    inertial = robot.links[small].inertial
    assert inertial is not None
    return Note(
        "error",
        "urdf-lumped-inertia-invalid",
        f"link {small!r} has an invalid inertia ({why}) and fixed joint {joint.name!r} lumps "
        f"it into {big!r}: Gazebo simulates the sum, and reports any 'invalid inertia' under "
        f"{big!r}, or none when the sum looks valid; fix the values of {small!r}",
        inertial.inertia_source,
        link=prefix + big,
    )


def lumped_note(
    robot: UrdfRobot, small: str, big: str, joint: UrdfJoint, prefix: str
) -> Note:
    """The note that ``joint`` lumps link ``small`` into ``big`` (one body in Gazebo)."""
    return Note(
        "info",
        "urdf-link-lumped",
        f"link {small!r} is lumped into {big!r} through fixed joint {joint.name!r}: Gazebo "
        f"simulates one body (add <gazebo reference=\"{joint.name}\"><preserveFixedJoint>true"
        "</preserveFixedJoint></gazebo> to keep it a link)",
        robot.links[small].source,
        link=prefix + big,
    )
