"""The SDFormat model Gazebo builds from a URDF, as text: what ``gzinertia expand --sdf``
prints.

The links are those :func:`gzinertia.urdf.reader.read_urdf_model` converts as libsdformat
does (fixed-joint lumping, massless links dropped, libsdformat's shape names): each link's pose
``X_MB`` in the model frame (the URDF's root link frame), its ``<inertial>`` (``X_BI`` as
``<pose>``, the mass, ``I_BBcm_I``), its collisions and visuals (``X_BC``/``X_BV``,
geometry, a visual's URDF colour; ``package://`` written ``model://``, as libsdformat 12
does). The joints between kept
links follow, as libsdformat writes them (the joint frame is the child link frame, so no
``<pose>``; the axis in it), then the model's ``<gazebo>`` children
(:mod:`gzinertia.urdf.sdf_extensions` sorts every ``<gazebo>`` block). Numbers are written as
the shortest text that reads back as the same double. What is not written (``floating`` and
``planar`` joints, blocks naming nothing kept) is said in a comment at
the top of the text and returned, one sentence each.
"""

from __future__ import annotations

import math
from dataclasses import replace
from xml.sax.saxutils import quoteattr

import numpy as np

from gzinertia.errors import SdfError
from gzinertia.records import Collision, Geometry, LinkRecord
from gzinertia.urdf.model import WORLD, UrdfJoint
from gzinertia.urdf.reader import CONVERTED_SDF_VERSION, UrdfModel
from gzinertia.urdf.sdf_extensions import (
    Extensions,
    merged_text,
    shape_extras,
    sort_extensions,
)
from gzinertia.vocabulary.scoped_names import within_top

__all__ = ["converted_sdf"]

#: URDF joint types libsdformat (12.3, the oracle) writes no SDF joint for.
FREE = ("floating", "planar")


def _num(x: float) -> str:
    return repr(float(x))


def _vec(values: object) -> str:
    return " ".join(_num(v) for v in values)  # type: ignore[attr-defined]


def _geometry(g: Geometry) -> str:
    if g.kind == "box" and g.size is not None:
        return f"<box><size>{_vec(g.size)}</size></box>"
    if g.kind == "sphere" and g.radius is not None:
        return f"<sphere><radius>{_num(g.radius)}</radius></sphere>"
    if g.kind == "cylinder" and g.radius is not None and g.length is not None:
        return (f"<cylinder><radius>{_num(g.radius)}</radius><length>{_num(g.length)}"
                "</length></cylinder>")
    if g.kind == "mesh" and g.mesh_uri is not None:
        uri = g.mesh_uri  # libsdformat writes package:// as model://
        uri = "model://" + uri[len("package://"):] if uri.startswith("package://") else uri
        return (f"<mesh><uri>{_escape(uri)}</uri><scale>{_vec(g.scale)}</scale>"
                "</mesh>")
    return "<empty/>"  # (URDF has no other shape the reader keeps)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _shape(kind: str, c: Collision, indent: str, extra: list[str]) -> str:
    return (f"{indent}<{kind} name={quoteattr(c.name)}>\n"
            f"{indent}  <pose>{_vec(c.X_BC.p)} {_vec(c.X_BC.rpy())}</pose>\n"
            f"{indent}  <geometry>{_geometry(c.geometry)}</geometry>\n"
            + "".join(f"{indent}  {e}\n" for e in extra)
            + f"{indent}</{kind}>\n")


def _material(rgba: tuple[float, ...]) -> str:
    """A URDF colour as libsdformat 12.3 writes it (the oracle's output): ``<diffuse>`` and
    ``<ambient>`` both the colour read as a C ``float``, red, green and blue times 1.25."""
    f = [float(np.float32(c)) for c in rgba]
    colour = _vec([*(min(c * 1.25, 1.0) for c in f[:3]), f[3]])
    return f"<material><diffuse>{colour}</diffuse><ambient>{colour}</ambient></material>"


def _link(link: LinkRecord, ext: Extensions, colours: dict[int, tuple[float, ...]]) -> str:
    inertial = link.inertial
    I = inertial.I_BBcm_I
    entries = "".join(
        f"<{tag}>{_num(I[i, j])}</{tag}>"
        for tag, i, j in (("ixx", 0, 0), ("ixy", 0, 1), ("ixz", 0, 2), ("iyy", 1, 1),
                          ("iyz", 1, 2), ("izz", 2, 2))
    )
    short = within_top(link.name)
    collisions = [_shape("collision", c, "      ", shape_extras(ext, short, "collision", c.name))
                  for c in link.collisions]
    visuals = []
    for v in link.visuals:
        extras = shape_extras(ext, short, "visual", v.name)
        rgba = colours.get(id(v.geometry))
        if rgba is not None:  # (a <gazebo> material's script is merged into it)
            given = [e for e in extras if e.startswith("<material")]
            extras = [e for e in extras if not e.startswith("<material")]
            extras.insert(0, merged_text(_material(rgba), given[0]) if given else _material(rgba))
        visuals.append(_shape("visual", v, "      ", extras))
    return (
        f"    <link name={quoteattr(short)}>\n"
        f"      <pose>{_vec(link.X_WB.p)} {_vec(link.X_WB.rpy())}</pose>\n"
        "      <inertial>\n"
        f"        <pose>{_vec(inertial.X_BI.p)} {_vec(inertial.X_BI.rpy())}</pose>\n"
        f"        <mass>{_num(inertial.mass)}</mass>\n"
        f"        <inertia>{entries}</inertia>\n"
        "      </inertial>\n"
        + "".join(collisions) + "".join(visuals)
        + "".join(f"      {e}\n" for e in ext.link.get(short, []))
        + "    </link>\n"
    )


#: Very large limits libsdformat writes for a continuous joint (and a preserved fixed one).
UNLIMITED = 1e16


def _joint(j: UrdfJoint, parent: str, ext: Extensions, preserved: set[str]) -> str:
    """A joint as libsdformat writes it; its frame is the child link frame (no ``<pose>``),
    its axis in the joint frame (SDFormat 1.9's default ``expressed_in``)."""
    if j.unread is not None:
        raise SdfError(j.source.file, j.source.line, f"joint {j.name!r}: {j.unread}")
    kind = "revolute" if j.kind == "continuous" else j.kind
    if kind == "fixed" and j.parent != WORLD and j.name not in preserved:
        # <disableFixedJointLumping> alone: libsdformat writes a revolute joint locked at 0
        j = replace(j, axis=(0.0, 0.0, 1.0), limit=(0.0, 0.0, math.inf, math.inf),
                    dynamics=(0.0, 0.0))
        kind = "revolute"
    body = [f"<parent>{_escape(parent)}</parent>", f"<child>{_escape(j.child)}</child>"]
    if kind != "fixed":
        limit = ""
        if j.kind == "continuous":
            limit = f"<lower>{_num(-UNLIMITED)}</lower><upper>{_num(UNLIMITED)}</upper>"
        elif j.limit is not None:
            limit = f"<lower>{_num(j.limit[0])}</lower><upper>{_num(j.limit[1])}</upper>"
        if j.limit is not None and math.isfinite(j.limit[2]):
            limit += f"<effort>{_num(j.limit[2])}</effort><velocity>{_num(j.limit[3])}</velocity>"
        dynamics = ("" if j.dynamics is None else
                    f"<damping>{_num(j.dynamics[0])}</damping>"
                    f"<friction>{_num(j.dynamics[1])}</friction>")
        dynamics += "".join(ext.axis_dynamics.get(j.name, []))
        body.append(f"<axis><xyz>{_vec(j.axis)}</xyz>"
                    + (f"<limit>{limit}</limit>" if limit else "")
                    + (f"<dynamics>{dynamics}</dynamics>" if dynamics else "") + "</axis>")
    body.extend(ext.joint.get(j.name, []))
    return (f"    <joint name={quoteattr(j.name)} type={quoteattr(kind)}>\n"
            + "".join(f"      {b}\n" for b in body) + "    </joint>\n")


def converted_sdf(model: UrdfModel) -> tuple[str, list[str]]:
    """The SDFormat text of ``model`` (a URDF or xacro file read by
    :func:`~gzinertia.urdf.reader.read_urdf_model`) and what it could not write (one sentence
    each): one ``<model>`` named as the robot with every link libsdformat keeps, in its order
    (each posed in the model frame, the URDF's root link frame), the joints between them and
    the ``<gazebo>`` blocks (:mod:`gzinertia.urdf.sdf_extensions`); libsdformat reads the same
    model from it as from the URDF."""
    doc, robot, conversion = model.doc, model.robot, model.conversion
    kept = [within_top(r.name) for r in conversion.links]
    holder = {**{k: k for k in kept}, **conversion.lumped_into}
    joints = [j for j in sorted(robot.joints, key=lambda j: j.name) if j.child in kept]
    free = [j for j in joints if j.kind in FREE]
    written = [j for j in joints if j.kind not in FREE]
    ext = sort_extensions(robot, holder, {j.name for j in written})
    # each visual's colour, by its geometry record (which the conversion passes on as it is)
    colours = {id(v.geometry): rgba for lk in robot.links.values()
               for v, rgba in zip(lk.visuals, lk.visual_rgba, strict=True) if rgba is not None}
    said = [f"joint {j.name!r} ({j.kind}): libsdformat writes no joint for it (link "
            f"{j.child!r} is posed in the model frame here, free)" for j in free]
    said += ext.unused
    comment = (f"gzinertia expand, SDF: the model libsdformat converts {doc.path} to "
               "(fixed-joint lumping, massless links dropped)"
               + "".join(f"; {s}" for s in said))
    while "--" in comment:  # (a comment cannot hold it)
        comment = comment.replace("--", "- -")
    return (
        f'<?xml version="1.0"?>\n<sdf version="{CONVERTED_SDF_VERSION}">\n'
        f"  <!-- {comment} -->\n"
        f"  <model name={quoteattr(robot.name)}>\n"
        + "".join(_link(link, ext, colours) for link in conversion.links)
        + "".join(_joint(j, holder.get(j.parent, j.parent), ext, robot.preserved) for j in written)
        + "".join(f"    {e}\n" for e in ext.model)
        + "  </model>\n</sdf>\n"
    ), said
