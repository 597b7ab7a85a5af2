"""Small composable builders of SDFormat text for tests: the one way tests write SDF by hand.

Each builder returns a fragment (``link``, ``inertial``, ``box``, ``hydro_plugin``, ...) and
they nest as the elements do::

    text = model(link("a", inertial(2.0, np.eye(3)), box((1, 1, 1))), version="1.11")
    path = write(tmp_path, text)

Frames as SDFormat 1.7+ writes them: ``pose(values, relative_to=...)``, ``frame(name,
attached_to=..., pose=..., relative_to=...)``, ``joint(name, parent, child, type=..., pose=...,
relative_to=...)``, and ``relative_to`` on every element that has a ``<pose>`` (``link``,
``inertial``, ``collision``, ``visual``, ``nested_model``, ``include`` with its
``placement_frame``). ``MODEL_FRAME`` is ``__model__``. Each file builder lays out one element
of its top level per line (the first part on line 4: line numbers are predictable);
:func:`lines` puts an element's children one per line, :func:`one_line` and
:func:`one_element_per_line` give the other layouts. Also: ``visual``, ``auto_inertial``
(SDFormat 1.11), ``plane_geometry``, the world's ``buoyancy_plugin``, ``model_config``.

Texts whose bytes are the point of a test (hostile or malformed input, comment- and
layout-preserving edits, asserted line numbers of a hand-made layout) stay inline in their test,
with a comment saying so.

Numbers are written with ``repr`` (every digit). Inertias of solids come from Drake
(``box_inertia``, ``sphere_inertia``: imported only when called). Randomised whole documents for
differential tests are in :mod:`sdfgen`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from gzinertia.sdf.fluid_added_mass import SDF_TAGS


def num(x: float) -> str:
    return repr(float(x))


def vec(v: Iterable[float]) -> str:
    return " ".join(num(x) for x in v)


def inertia_xml(I: np.ndarray) -> str:
    return (
        "<inertia>"
        f"<ixx>{num(I[0, 0])}</ixx><ixy>{num(I[0, 1])}</ixy><ixz>{num(I[0, 2])}</ixz>"
        f"<iyy>{num(I[1, 1])}</iyy><iyz>{num(I[1, 2])}</iyz><izz>{num(I[2, 2])}</izz>"
        "</inertia>"
    )


def added_mass_xml(A: np.ndarray) -> str:
    entries = []
    for tag in SDF_TAGS:
        i, j = "xyzpqr".index(tag[0]), "xyzpqr".index(tag[1])
        entries.append(f"<{tag}>{num(A[i, j])}</{tag}>")
    return "<fluid_added_mass>" + "".join(entries) + "</fluid_added_mass>"


def inertial(
    mass: float,
    I: np.ndarray | None,
    com: Sequence[float] = (0.0, 0.0, 0.0),
    A: np.ndarray | None = None,
    extra: str = "",
    rpy: Sequence[float] = (0.0, 0.0, 0.0),
    *,
    relative_to: str | None = None,
    posed: bool = True,
) -> str:
    """``<inertial>``: ``X_BI`` from ``com`` (``p_BoBcm_B``) and ``rpy`` (``R_BI``), ``I`` is
    ``I_BBcm_I`` (``None``: no ``<inertia>`` element, SDFormat's unit diagonal), ``A``
    (linear-first) its ``<fluid_added_mass>``. ``relative_to`` goes on the ``<pose>`` (which
    SDFormat ignores there: the reader notes it); ``posed=False`` writes no ``<pose>`` at all
    (the link frame)."""
    added = "" if A is None else added_mass_xml(A)
    angles = "0 0 0" if not any(rpy) else vec(rpy)
    inertia = "" if I is None else inertia_xml(I)
    own = _pose(f"{vec(com)} {angles}", relative_to=relative_to) if posed else ""
    return f"<inertial>{own}<mass>{num(mass)}</mass>{inertia}{added}{extra}</inertial>"


def auto_inertial(
    density: float | None = None, *, mass: float | None = None, extra: str = ""
) -> str:
    """``<inertial auto="true">`` (SDFormat 1.11: mass, centre of mass and inertia computed from
    the collisions), of the collisions' ``density`` (kg/m³) when given, rescaled to ``mass``
    (kg) when given; ``extra``: further elements (which libsdformat overwrites or drops)."""
    rho = "" if density is None else f"<density>{num(density)}</density>"
    own_mass = "" if mass is None else f"<mass>{num(mass)}</mass>"
    return f'<inertial auto="true">{rho}{own_mass}{extra}</inertial>'


Pose6 = Sequence[float]
ORIGIN: Pose6 = (0, 0, 0, 0, 0, 0)

#: The implicit frame of the enclosing model (SDFormat 1.7+), for ``relative_to`` and
#: ``attached_to``.
MODEL_FRAME = "__model__"


def pose(
    values: Pose6 | str | None = ORIGIN, *, relative_to: str | None = None,
    degrees: bool = False,
) -> str:
    """``<pose>`` of ``values`` (``x y z roll pitch yaw``: position of the element's frame in
    the frame ``relative_to`` names, fixed-axis roll-pitch-yaw in radians, or degrees with
    ``degrees=True``); ``values=None`` writes an empty element (the identity pose). A string is
    written as given (for texts that are the point of a test: ``"1 2 3 0 0 0"``)."""
    attrs = "" if relative_to is None else f' relative_to="{relative_to}"'
    if degrees:
        attrs += ' degrees="true"'
    if values is None:
        return f"<pose{attrs}/>"
    body = values if isinstance(values, str) else vec(values)
    return f"<pose{attrs}>{body}</pose>"


_pose = pose  # for the builders below, whose ``pose`` argument shadows the function


def _own_pose(values: Pose6 | None, relative_to: str | None) -> str:
    """The ``<pose>`` of an element: none when neither is given; ``relative_to`` alone gives
    an empty element (the identity in that frame)."""
    if values is None and relative_to is None:
        return ""
    return _pose(values, relative_to=relative_to)


def rpy_of(R: np.ndarray) -> tuple[float, float, float]:
    """SDFormat roll-pitch-yaw of a rotation (``R = Rz·Ry·Rx``), computed here, not by the
    library under test."""
    pitch = float(np.arcsin(-np.clip(R[2, 0], -1.0, 1.0)))
    return float(np.arctan2(R[2, 1], R[2, 2])), pitch, float(np.arctan2(R[1, 0], R[0, 0]))


def pose_of(p: Iterable[float], R: np.ndarray | None = None) -> tuple[float, ...]:
    """A ``<pose>`` of position ``p`` and rotation ``R`` (identity when None)."""
    angles = (0.0, 0.0, 0.0) if R is None else rpy_of(R)
    return (*(float(x) for x in p), *angles)


# --- geometry bodies (the inside of <geometry>) and collisions around them --------------------


def box_geometry(size: Sequence[float]) -> str:
    return f"<box><size>{vec(size)}</size></box>"


def sphere_geometry(radius: float) -> str:
    return f"<sphere><radius>{num(radius)}</radius></sphere>"


def cylinder_geometry(radius: float, length: float, kind: str = "cylinder") -> str:
    """``<cylinder>`` (or ``kind="capsule"``) of this radius and length."""
    return f"<{kind}><radius>{num(radius)}</radius><length>{num(length)}</length></{kind}>"


def plane_geometry(normal: Sequence[float], size: Sequence[float] | None = None) -> str:
    """``<plane>`` of this ``normal`` (and ``size``)."""
    own_size = "" if size is None else f"<size>{vec(size)}</size>"
    return f"<plane><normal>{vec(normal)}</normal>{own_size}</plane>"


def ellipsoid_geometry(radii: Sequence[float]) -> str:
    return f"<ellipsoid><radii>{vec(radii)}</radii></ellipsoid>"


def mesh_geometry(uri: str, scale: Sequence[float] | None = None) -> str:
    own_scale = "" if scale is None else f"<scale>{vec(scale)}</scale>"
    return f"<mesh><uri>{uri}</uri>{own_scale}</mesh>"


def collision(
    geometry: str, pose: Pose6 | None = ORIGIN, name: str = "c", density: float | None = None,
    *, relative_to: str | None = None,
) -> str:
    """``<collision>`` around a ``<geometry>`` body (``pose=None``: no ``<pose>`` element;
    ``density``: the collision's own ``<density>``, SDFormat 1.11; ``relative_to``: the frame
    its pose is in, the link's by default)."""
    own = _own_pose(pose, relative_to)
    rho = "" if density is None else f"<density>{num(density)}</density>"
    return f'<collision name="{name}">{own}{rho}<geometry>{geometry}</geometry></collision>'


def visual(
    geometry: str, pose: Pose6 | None = ORIGIN, name: str = "v", *,
    relative_to: str | None = None,
) -> str:
    """``<visual>`` around a ``<geometry>`` body, posed as :func:`collision` is."""
    own = _own_pose(pose, relative_to)
    return f'<visual name="{name}">{own}<geometry>{geometry}</geometry></visual>'


def box(
    size: Sequence[float], pose: Pose6 | None = ORIGIN, name: str = "c",
    density: float | None = None,
) -> str:
    return collision(box_geometry(size), pose, name, density)


def sphere(
    radius: float, pose: Pose6 | None = ORIGIN, name: str = "c", density: float | None = None
) -> str:
    return collision(sphere_geometry(radius), pose, name, density)


def cylinder(
    radius: float, length: float, pose: Pose6 | None = ORIGIN, name: str = "c",
    density: float | None = None,
) -> str:
    return collision(cylinder_geometry(radius, length), pose, name, density)


def ellipsoid(
    radii: Sequence[float], pose: Pose6 | None = ORIGIN, name: str = "c",
    density: float | None = None,
) -> str:
    return collision(ellipsoid_geometry(radii), pose, name, density)


def mesh(
    uri: str, scale: Sequence[float] | None = None, pose: Pose6 | None = ORIGIN, name: str = "c"
) -> str:
    return collision(mesh_geometry(uri, scale), pose, name)


def link(
    name: str, *parts: str, pose: Sequence[float] | None = None, relative_to: str | None = None
) -> str:
    """``<link>`` of ``parts`` (inertial, collisions, visuals), posed ``X_FB`` in the frame
    ``relative_to`` names (the model frame by default); neither given: no ``<pose>``."""
    return f'<link name="{name}">{_own_pose(pose, relative_to)}{"".join(parts)}</link>'


def frame(
    name: str, *parts: str, attached_to: str | None = None, pose: Pose6 | None = None,
    relative_to: str | None = None,
) -> str:
    """``<frame>``: attached to the frame ``attached_to`` names (the enclosing model's or
    world's frame by default), posed in ``relative_to`` (by default the ``attached_to`` frame,
    as SDFormat defines it)."""
    to = "" if attached_to is None else f' attached_to="{attached_to}"'
    return f'<frame name="{name}"{to}>{_own_pose(pose, relative_to)}{"".join(parts)}</frame>'


def joint(
    name: str, parent: str, child: str, *parts: str, type: str = "fixed",
    pose: Pose6 | None = None, relative_to: str | None = None,
    axis: Sequence[float] | None = None,
) -> str:
    """``<joint>`` of ``type`` between the frames ``parent`` and ``child`` (``"world"`` for
    the world), posed ``X_CJ`` in the child frame unless ``relative_to`` names another;
    ``axis``: its ``<axis><xyz>`` (in the joint frame); ``parts``: further elements
    (``<limit>``...)."""
    own = _own_pose(pose, relative_to)
    own_axis = "" if axis is None else f"<axis><xyz>{vec(axis)}</xyz></axis>"
    return (
        f'<joint name="{name}" type="{type}"><parent>{parent}</parent><child>{child}</child>'
        f'{own}{own_axis}{"".join(parts)}</joint>'
    )


def hydro_plugin(link_name: str, terms: dict[str, float], disable: bool | None = None) -> str:
    body = "".join(f"<{k}>{num(v)}</{k}>" for k, v in terms.items())
    flag = "" if disable is None else (
        f"<disable_added_mass>{str(disable).lower()}</disable_added_mass>"
    )
    return (
        '<plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">'
        f"<link_name>{link_name}</link_name>{body}{flag}</plugin>"
    )


def _model_attrs(
    name: str, canonical_link: str | None, placement_frame: str | None
) -> str:
    canonical = "" if canonical_link is None else f' canonical_link="{canonical_link}"'
    placement = "" if placement_frame is None else f' placement_frame="{placement_frame}"'
    return f'name="{name}"{canonical}{placement}'


def buoyancy_plugin(
    uniform: float | None = None, *, default: float | None = None,
    changes: Sequence[tuple[float, float]] = (),
) -> str:
    """The world's Buoyancy plugin: a uniform fluid of density ``uniform`` (kg/m³), or (when
    ``uniform`` is None) graded: ``default`` density, and ``(above_depth, density)`` for each
    layer above that depth (m, world z); no argument: an empty plugin (Gazebo's defaults)."""
    if uniform is None and default is None and not changes:
        fluid = ""
    elif uniform is not None:
        fluid = f"<uniform_fluid_density>{num(uniform)}</uniform_fluid_density>"
    else:
        own = "" if default is None else f"<default_density>{num(default)}</default_density>"
        layers = "".join(
            f"<density_change><above_depth>{num(z)}</above_depth><density>{num(rho)}</density>"
            "</density_change>" for z, rho in changes
        )
        fluid = f"<graded_buoyancy>{own}{layers}</graded_buoyancy>"
    return (
        '<plugin filename="gz-sim-buoyancy-system" name="gz::sim::systems::Buoyancy">'
        f"{fluid}</plugin>"
    )


def model(
    *parts: str, version: str = "1.10", name: str = "m", static: bool = False,
    pose: Pose6 | None = None, relative_to: str | None = None,
    canonical_link: str | None = None, placement_frame: str | None = None,
) -> str:
    """A whole file: ``<sdf>`` with one ``<model>`` of ``parts`` (one per line: the first part
    is on line 4). ``pose``/``relative_to``: the model frame's pose ``X_WM`` (on line 3, with
    the model); ``canonical_link``, ``placement_frame``: its attributes."""
    flag = "<static>true</static>" if static else ""
    attrs = _model_attrs(name, canonical_link, placement_frame)
    own = _own_pose(pose, relative_to)
    return (
        f'<?xml version="1.0"?>\n<sdf version="{version}">\n<model {attrs}>{own}{flag}\n'
        + "\n".join(parts)
        + "\n</model>\n</sdf>\n"
    )


def nested_model(
    name: str, *parts: str, pose: Pose6 | None = None, relative_to: str | None = None,
    canonical_link: str | None = None, placement_frame: str | None = None,
    static: bool = False,
) -> str:
    """A ``<model>`` inside another (a fragment, for :func:`model` or :func:`world`), posed
    ``X_PM`` in the frame ``relative_to`` names (the parent model's by default)."""
    attrs = _model_attrs(name, canonical_link, placement_frame)
    flag = "<static>true</static>" if static else ""
    own = _own_pose(pose, relative_to)
    return f'<model {attrs}>{own}{flag}{"".join(parts)}</model>'


def include(
    uri: str, name: str | None = None, pose: Pose6 | None = None, *,
    parts: Sequence[str] = (), relative_to: str | None = None, placement_frame: str | None = None,
    merge: bool | None = None, static: bool | None = None,
) -> str:
    """``<include>`` of the model at ``uri``, renamed ``name``, posed in the frame
    ``relative_to`` names, with its ``<placement_frame>`` (the included model's frame put at
    that pose) and ``merge`` attribute; ``parts``: elements inside (plugins)."""
    own_name = "" if name is None else f"<name>{name}</name>"
    own = _own_pose(pose, relative_to)
    placement = (
        "" if placement_frame is None else f"<placement_frame>{placement_frame}</placement_frame>"
    )
    flag = "" if static is None else f"<static>{str(static).lower()}</static>"
    merged = "" if merge is None else f' merge="{str(merge).lower()}"'
    return (
        f"<include{merged}><uri>{uri}</uri>{own_name}{own}{placement}{flag}"
        f'{"".join(parts)}</include>'
    )


def world(*parts: str, version: str = "1.10", name: str = "w") -> str:
    """A whole file: ``<sdf>`` with one ``<world>`` of ``parts`` (models, includes, plugins)."""
    return (
        f'<?xml version="1.0"?>\n<sdf version="{version}">\n<world name="{name}">\n'
        + "\n".join(parts)
        + "\n</world>\n</sdf>\n"
    )


def model_config(sdf: str = "model.sdf", version: str = "1.9", name: str | None = None) -> str:
    """A ``model.config`` naming the model's SDFormat file ``sdf`` of ``version``."""
    own_name = "" if name is None else f"<name>{name}</name>"
    return (
        f'<?xml version="1.0"?><model>{own_name}<sdf version="{version}">{sdf}</sdf></model>'
    )


def lines(*parts: str) -> str:
    """``parts`` one per line, as one part of an element (``link("l", lines(a, b))``): for
    tests that name the line of an element inside a link or model."""
    return "\n" + "\n".join(parts) + "\n"


def one_line(text: str) -> str:
    """A whole file of :func:`model` or :func:`world` laid out on one line (for tests of
    layout: every element on line 1)."""
    return "".join(line.strip() for line in text.splitlines()) + "\n"


def one_element_per_line(text: str) -> str:
    """The same document with a line break before every element (the layout oracle of
    attribution tests: a layout-independent reader finds the same things)."""
    return re.sub(r"><", ">\n<", text)


def write(folder: Path, text: str, name: str = "model.sdf") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def box_inertia(mass: float, size: Sequence[float]) -> np.ndarray:
    """Uniform solid box about its centre: Drake's ``UnitInertia.SolidBox`` times the mass."""
    from pydrake.multibody.tree import UnitInertia

    return mass * np.array(UnitInertia.SolidBox(*size).CopyToFullMatrix3())


def sphere_inertia(mass: float, radius: float) -> np.ndarray:
    from pydrake.multibody.tree import UnitInertia

    return mass * np.array(UnitInertia.SolidSphere(radius).CopyToFullMatrix3())


BOX = (0.4, 0.3, 0.2)
BOX_MASS = 1000.0 * 0.4 * 0.3 * 0.2  # neutrally buoyant in fresh water


def box_link(name: str = "body", mass: float = BOX_MASS, I: np.ndarray | None = None,
             com: Sequence[float] = (0, 0, 0), A: np.ndarray | None = None, extra: str = "",
             pose: Sequence[float] | None = None) -> str:
    I = box_inertia(mass, BOX) if I is None else I
    return link(name, inertial(mass, I, com, A, extra), box(BOX), pose=pose)
