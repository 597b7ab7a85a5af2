"""The SDFormat model Gazebo builds from a URDF, as text: what ``gzinertia expand --sdf``
prints.

The links are those :func:`gzinertia.urdf.reader.read_urdf_file` converts as libsdformat does
(fixed-joint lumping, massless links dropped, libsdformat's collision names): each link's pose
``X_MB`` in the model frame (the URDF's root link frame), its ``<inertial>`` (``X_BI`` as
``<pose>``, the mass, ``I_BBcm_I``) and its collisions (``X_BC`` and geometry; mesh URIs as
written, ``package://`` included). Numbers are written as the shortest text that reads back as
the same double. What the link records do not hold is not written, and the file says so in a
comment at its top: joints, visuals, sensors, plugins and ``<gazebo>`` extensions (``gz sdf -p
FILE.urdf`` writes them all).
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from gzinertia.records import Collision, Geometry, LinkRecord, SdfDocument
from gzinertia.urdf.reader import CONVERTED_SDF_VERSION

__all__ = ["LEFT_OUT", "converted_sdf"]

#: What the text leaves out (its top comment and ``expand``'s note say so).
LEFT_OUT = "joints, visuals, sensors, plugins and <gazebo> extensions"


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
        return (f"<mesh><uri>{_escape(g.mesh_uri)}</uri><scale>{_vec(g.scale)}</scale>"
                "</mesh>")
    return "<empty/>"  # (URDF has no other shape the reader keeps)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _collision(c: Collision, indent: str) -> str:
    return (f"{indent}<collision name={quoteattr(c.name)}>\n"
            f"{indent}  <pose>{_vec(c.X_BC.p)} {_vec(c.X_BC.rpy())}</pose>\n"
            f"{indent}  <geometry>{_geometry(c.geometry)}</geometry>\n"
            f"{indent}</collision>\n")


def _link(link: LinkRecord) -> str:
    inertial = link.inertial
    I = inertial.I_BBcm_I
    entries = "".join(
        f"<{tag}>{_num(I[i, j])}</{tag}>"
        for tag, i, j in (("ixx", 0, 0), ("ixy", 0, 1), ("ixz", 0, 2), ("iyy", 1, 1),
                          ("iyz", 1, 2), ("izz", 2, 2))
    )
    short = link.name.split("::", 1)[-1]
    return (
        f"    <link name={quoteattr(short)}>\n"
        f"      <pose>{_vec(link.X_WB.p)} {_vec(link.X_WB.rpy())}</pose>\n"
        "      <inertial>\n"
        f"        <pose>{_vec(inertial.X_BI.p)} {_vec(inertial.X_BI.rpy())}</pose>\n"
        f"        <mass>{_num(inertial.mass)}</mass>\n"
        f"        <inertia>{entries}</inertia>\n"
        "      </inertial>\n"
        + "".join(_collision(c, "      ") for c in link.collisions)
        + "    </link>\n"
    )


def converted_sdf(doc: SdfDocument) -> str:
    """The SDFormat text of ``doc`` (a URDF or xacro file read by
    :func:`~gzinertia.urdf.reader.read_urdf_file`): one ``<model>`` named as the robot with
    every link libsdformat keeps, in its order; libsdformat reads the same link poses, masses
    and inertias from it as from the URDF."""
    model = doc.links[0].model if doc.links else ""
    said = (f"gzinertia expand, SDF: the links libsdformat converts {doc.path} to (fixed-joint "
            f"lumping, massless links dropped); not written: {LEFT_OUT} (gz sdf -p writes them)")
    while "--" in said:  # (a comment cannot hold it)
        said = said.replace("--", "- -")
    return (
        f'<?xml version="1.0"?>\n<sdf version="{CONVERTED_SDF_VERSION}">\n'
        f"  <!-- {said} -->\n"
        f"  <model name={quoteattr(model)}>\n"
        + "".join(_link(link) for link in doc.links)
        + "  </model>\n</sdf>\n"
    )
