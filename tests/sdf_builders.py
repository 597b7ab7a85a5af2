"""Small composable builders of SDFormat text for tests: the one way tests write SDF by hand.

Each builder returns a fragment (``link``, ``inertial``, ``box``, ``hydro_plugin``, ...) and
they nest as the elements do::

    text = model(link("a", inertial(2.0, np.eye(3)), box((1, 1, 1))), version="1.11")
    path = write(tmp_path, text)

Numbers are written with ``repr`` (every digit). Inertias of solids come from Drake
(``box_inertia``, ``sphere_inertia``: imported only when called). Randomised whole documents for
differential tests are in :mod:`sdfgen`.
"""

from __future__ import annotations

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
    I: np.ndarray,
    com: Sequence[float] = (0.0, 0.0, 0.0),
    A: np.ndarray | None = None,
    extra: str = "",
    rpy: Sequence[float] = (0.0, 0.0, 0.0),
) -> str:
    """``<inertial>``: ``X_BI`` from ``com`` (``p_BoBcm_B``) and ``rpy`` (``R_BI``), ``I`` is
    ``I_BBcm_I``, ``A`` (linear-first) its ``<fluid_added_mass>``."""
    added = "" if A is None else added_mass_xml(A)
    angles = "0 0 0" if not any(rpy) else vec(rpy)
    return (
        f"<inertial><pose>{vec(com)} {angles}</pose><mass>{num(mass)}</mass>"
        f"{inertia_xml(I)}{added}{extra}</inertial>"
    )


Pose6 = Sequence[float]
ORIGIN: Pose6 = (0, 0, 0, 0, 0, 0)


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


def ellipsoid_geometry(radii: Sequence[float]) -> str:
    return f"<ellipsoid><radii>{vec(radii)}</radii></ellipsoid>"


def mesh_geometry(uri: str, scale: Sequence[float] | None = None) -> str:
    own_scale = "" if scale is None else f"<scale>{vec(scale)}</scale>"
    return f"<mesh><uri>{uri}</uri>{own_scale}</mesh>"


def collision(
    geometry: str, pose: Pose6 | None = ORIGIN, name: str = "c", density: float | None = None
) -> str:
    """``<collision>`` around a ``<geometry>`` body (``pose=None``: no ``<pose>`` element;
    ``density``: the collision's own ``<density>``, SDFormat 1.11)."""
    own = "" if pose is None else f"<pose>{vec(pose)}</pose>"
    rho = "" if density is None else f"<density>{num(density)}</density>"
    return f'<collision name="{name}">{own}{rho}<geometry>{geometry}</geometry></collision>'


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


def link(name: str, *parts: str, pose: Sequence[float] | None = None) -> str:
    own = "" if pose is None else f"<pose>{vec(pose)}</pose>"
    return f'<link name="{name}">{own}{"".join(parts)}</link>'


def hydro_plugin(link_name: str, terms: dict[str, float], disable: bool | None = None) -> str:
    body = "".join(f"<{k}>{num(v)}</{k}>" for k, v in terms.items())
    flag = "" if disable is None else (
        f"<disable_added_mass>{str(disable).lower()}</disable_added_mass>"
    )
    return (
        '<plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">'
        f"<link_name>{link_name}</link_name>{body}{flag}</plugin>"
    )


def model(*parts: str, version: str = "1.10", name: str = "m", static: bool = False) -> str:
    """A whole file: ``<sdf>`` with one ``<model>`` of ``parts`` (one per line)."""
    flag = "<static>true</static>" if static else ""
    return (
        f'<?xml version="1.0"?>\n<sdf version="{version}">\n<model name="{name}">{flag}\n'
        + "\n".join(parts)
        + "\n</model>\n</sdf>\n"
    )


def nested_model(name: str, *parts: str, pose: Pose6 | None = None) -> str:
    """A ``<model>`` inside another (a fragment, for :func:`model` or :func:`world`)."""
    own = "" if pose is None else f"<pose>{vec(pose)}</pose>"
    return f'<model name="{name}">{own}{"".join(parts)}</model>'


def include(uri: str, name: str | None = None, pose: Pose6 | None = None) -> str:
    own_name = "" if name is None else f"<name>{name}</name>"
    own = "" if pose is None else f"<pose>{vec(pose)}</pose>"
    return f"<include><uri>{uri}</uri>{own_name}{own}</include>"


def world(*parts: str, version: str = "1.10", name: str = "w") -> str:
    """A whole file: ``<sdf>`` with one ``<world>`` of ``parts`` (models, includes, plugins)."""
    return (
        f'<?xml version="1.0"?>\n<sdf version="{version}">\n<world name="{name}">\n'
        + "\n".join(parts)
        + "\n</world>\n</sdf>\n"
    )


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
