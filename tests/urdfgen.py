"""Random URDF robots for the differential tests of the URDF reader (libsdformat, Drake).

Each robot is a random tree of links joined by fixed, revolute, continuous and prismatic
joints with rotated ``<origin>`` s; inertials are physical (random principal moments that obey
the triangle inequality, in a random inertial frame, with a random centre of mass). Some links
have no ``<inertial>`` (massless: libsdformat drops or lumps them), some fixed joints carry a
``<gazebo reference>`` block with ``<disableFixedJointLumping>`` or ``<preserveFixedJoint>``,
some robots hang from a ``world`` link, and some carry ``<gazebo>`` blocks libsdformat copies
(``<static>false</static>``, a link's ``<self_collide>``).

Not generated, because libsdformat 12.3 is then wrong in ways gzinertia deliberately does not
copy (docs/urdf.md): an ``<inertial>`` with mass 0 lumped with others (0/0 gives NaN).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GeneratedUrdf:
    seed: int
    text: str
    massless: tuple[str, ...]
    world: bool


def _f(x: float) -> str:
    return repr(float(x))


def _rpy(rng: np.random.Generator) -> str:
    """A rotation whose pitch stays 0.6° or more from ±90°: nearer, libsdformat's output loses
    digits (poses are written as roll-pitch-yaw, error ≈ 1e-16/cos(pitch)) and its lumping
    snaps the pitch to ±90° (urdfdom's getRPY, tested on its own)."""
    if rng.random() < 0.2:
        return "0 0 0"
    roll, pitch, yaw = rng.uniform(-np.pi, np.pi, 3)
    while abs(np.cos(pitch)) < 1e-2:
        pitch = rng.uniform(-np.pi, np.pi)
    return " ".join(_f(v) for v in (roll, pitch, yaw))


def _xyz(rng: np.random.Generator) -> str:
    return " ".join(_f(v) for v in rng.uniform(-2.0, 2.0, 3))


def _inertial(rng: np.random.Generator) -> str:
    mass = float(rng.uniform(0.1, 10.0))
    a, b = sorted(rng.uniform(0.01, 1.0, 2))
    moments = [a, b, float(rng.uniform(b - a, a + b) if b > a else rng.uniform(0.0, 2 * a))]
    moments[2] = max(moments[2], 1e-3)
    moments = list(rng.permutation(moments))
    # a random rotation of the principal frame, written as the inertia in the <origin> axes
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    R = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])
    I = R @ np.diag(moments) @ R.T * mass
    return (
        f'<inertial><origin xyz="{_xyz(rng)}" rpy="{_rpy(rng)}"/><mass value="{_f(mass)}"/>'
        f'<inertia ixx="{_f(I[0, 0])}" ixy="{_f(I[0, 1])}" ixz="{_f(I[0, 2])}" '
        f'iyy="{_f(I[1, 1])}" iyz="{_f(I[1, 2])}" izz="{_f(I[2, 2])}"/></inertial>'
    )


def random_urdf(seed: int) -> GeneratedUrdf:
    """A random robot (deterministic in ``seed``)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    world = rng.random() < 0.2
    names = [f"l{i}" for i in range(n)]
    massless = []
    lines = [f'<robot name="gen{seed}">']
    if world:
        lines.append('  <link name="world"/>')
    for i, name in enumerate(names):
        body = "" if (i > 0 or not world) and rng.random() < 0.15 else _inertial(rng)
        if i == 0 and not world and not body and rng.random() < 0.7:
            body = _inertial(rng)
        if not body:
            massless.append(name)
        collision = (
            f'<collision><origin xyz="{_xyz(rng)}" rpy="{_rpy(rng)}"/>'
            '<geometry><box size="0.1 0.2 0.3"/></geometry></collision>'
            if rng.random() < 0.5 else ""
        )
        lines.append(f'  <link name="{name}">{body}{collision}</link>')
    kinds = ["fixed", "fixed", "revolute", "continuous", "prismatic"]
    for i in range(1, n):
        parent = names[int(rng.integers(0, i))]
        kind = kinds[int(rng.integers(0, len(kinds)))]
        limit = (
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
            if kind in ("revolute", "prismatic") else ""
        )
        lines.append(
            f'  <joint name="j{i}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{names[i]}"/><origin xyz="{_xyz(rng)}" rpy="{_rpy(rng)}"/>{limit}'
            "</joint>"
        )
        if kind == "fixed" and rng.random() < 0.25:
            switch = ("disableFixedJointLumping", "preserveFixedJoint")[int(rng.integers(0, 2))]
            lines.append(f'  <gazebo reference="j{i}"><{switch}>true</{switch}></gazebo>')
    if world:
        # not "floating": libsdformat 12.3 then poses the link relative to a joint it does not
        # write (an error; docs/urdf.md)
        kind = ("fixed", "revolute", "continuous")[int(rng.integers(0, 3))]
        limit = (
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
            if kind == "revolute" else ""
        )
        lines.append(
            f'  <joint name="j0" type="{kind}"><parent link="world"/><child link="l0"/>'
            f'<origin xyz="{_xyz(rng)}" rpy="{_rpy(rng)}"/>{limit}</joint>'
        )
    if rng.random() < 0.3:
        lines.append("  <gazebo><static>false</static></gazebo>")
    if rng.random() < 0.3:
        lines.append(f'  <gazebo reference="{names[-1]}"><self_collide>true</self_collide></gazebo>')
    lines.append("</robot>")
    return GeneratedUrdf(seed, "\n".join(lines) + "\n", tuple(massless), world)


def with_invalid_inertias(text: str, seed: int, fraction: float = 0.5) -> str:
    """``text`` with about ``fraction`` of its ``<inertia>`` s made invalid: ``izz`` set to
    1.2·(ixx + iyy), beyond the triangle inequality in any axes (each diagonal entry of a
    valid inertia is at most the sum of the other two)."""
    import re

    rng = np.random.default_rng(seed)

    def breaks(match: re.Match[str]) -> str:
        if rng.random() >= fraction:
            return match.group(0)
        ixx, iyy = float(match.group("ixx")), float(match.group("iyy"))
        return match.group(0).replace(f'izz="{match.group("izz")}"',
                                      f'izz="{_f(1.2 * (ixx + iyy))}"')

    pattern = (r'<inertia ixx="(?P<ixx>[^"]+)"[^>]*iyy="(?P<iyy>[^"]+)"[^>]*'
               r'izz="(?P<izz>[^"]+)"/>')
    return re.sub(pattern, breaks, text)


def with_macro_named_link(text: str, robot: str, link: str) -> str:
    """``text`` as a xacro whose link ``link`` is named through a property (``${n}``): a link
    name no edit can write back literally."""
    return text.replace(
        f'<robot name="{robot}">',
        f'<robot name="{robot}" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        f'  <xacro:property name="n" value="{link}"/>',
    ).replace(f'<link name="{link}">', '<link name="${n}">')
