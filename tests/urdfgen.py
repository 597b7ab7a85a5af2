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


#: The shapes :func:`large_urdf` builds: each link's parent.
TOPOLOGIES = ("chain", "star", "comb")


def _parent(k: int, topology: str) -> int:
    """The parent of link ``k > 0``: ``k - 1`` (chain), ``0`` (star), or in a comb the spine
    link before (even ``k``) or the spine link it hangs from (odd ``k``: a leaf)."""
    if topology == "chain":
        return k - 1
    if topology == "star":
        return 0
    return k - 2 if k % 2 == 0 else k - 1


def large_urdf(
    links: int,
    topology: str = "chain",
    *,
    massless: bool = False,
    invalid: bool = False,
    plugins: bool = False,
    xacro: bool = False,
    spacing: float = 2.0,
) -> str:
    """A robot of ``links`` links for the scaling tests and benchmarks (deterministic).

    Every link has a rotated ``<inertial>`` (a box's inertia), a box ``<collision>`` and a
    cylinder ``<visual>``, and sits in its own cell of a grid of ``spacing`` metres (its
    joint's ``<origin>`` undoes the yaw of 0.1 rad that every joint adds): 2 m keeps each
    link's shapes apart, 0.5 m makes neighbours' fluid ellipsoids overlap (GZI210). The joint to link ``k`` is fixed for even ``k`` in a chain or star and for
    every leaf of a comb (lumped), revolute otherwise; one fixed joint in four is kept by
    ``<preserveFixedJoint>``. ``massless``: one link in four, hung by a fixed joint, has no
    ``<inertial>`` (lumped; libsdformat < 12.7.2 drops it with what hangs below it, and moves
    its shapes). ``invalid``: every other inertia breaks the triangle inequality (``fix``
    has work). ``plugins``: one link in three has a Hydrodynamics plugin (one in six with added
    mass). ``xacro``: a xacro file, masses written as a property and one link in five made by
    a macro (not written literally: edits report it instead).
    """
    import math

    side = math.ceil(math.sqrt(links))
    yaw = [0.0] * links

    def cell(k: int) -> tuple[float, float]:
        return spacing * (k % side), spacing * (k // side)

    head = '<robot name="big"'
    lines = [head + (' xmlns:xacro="http://www.ros.org/wiki/xacro">' if xacro else ">")]
    if xacro:
        lines += [
            '  <xacro:property name="m" value="1.5"/>',
            '  <xacro:macro name="made" params="name">',
            '    <link name="${name}"><inertial><mass value="${m}"/>',
            '      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>',
            "    </link>",
            "  </xacro:macro>",
        ]
    for k in range(links):
        if xacro and k % 5 == 4:
            lines.append(f'  <xacro:made name="l{k}"/>')
            continue
        m = 1.0 + (k % 7) * 0.5
        ixx, iyy = m * (0.36 + 0.64) / 12.0, m * (0.16 + 0.64) / 12.0
        izz = 2.5 * (ixx + iyy) if invalid and k % 2 else m * (0.16 + 0.36) / 12.0
        mass = "${m}" if xacro else _f(m)
        inertial = (
            "" if massless and k % 4 == (1 if topology == "comb" else 2) else
            f'<inertial><origin xyz="0.01 0.02 0.03" rpy="0.1 0.2 0.3"/><mass value="{mass}"/>'
            f'<inertia ixx="{_f(ixx)}" ixy="0" ixz="0" iyy="{_f(iyy)}" iyz="0" '
            f'izz="{_f(izz)}"/></inertial>'
        )
        lines.append(
            f'  <link name="l{k}">{inertial}<collision><origin xyz="0 0 0.05"/>'
            '<geometry><box size="0.4 0.6 0.8"/></geometry></collision>'
            '<visual><geometry><cylinder radius="0.2" length="0.5"/></geometry></visual></link>'
        )
    for k in range(1, links):
        p = _parent(k, topology)
        fixed = k % 2 == 1 if topology == "comb" else k % 2 == 0
        yaw[k] = yaw[p] + 0.1
        (x, y), (px, py) = cell(k), cell(p)
        c, s = math.cos(yaw[p]), math.sin(yaw[p])
        dx, dy = c * (x - px) + s * (y - py), -s * (x - px) + c * (y - py)
        limit = "" if fixed else '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
        lines.append(
            f'  <joint name="j{k}" type="{"fixed" if fixed else "revolute"}">'
            f'<parent link="l{p}"/><child link="l{k}"/>'
            f'<origin xyz="{_f(dx)} {_f(dy)} 0" rpy="0 0 0.1"/>{limit}</joint>'
        )
        if fixed and k % 8 in (0, 1):
            lines.append(f'  <gazebo reference="j{k}"><preserveFixedJoint>true'
                         "</preserveFixedJoint></gazebo>")
    if plugins:
        for k in range(0, links, 3):
            terms = "<xU>-5</xU><yV>-6</yV>" + ("<xDotU>-3</xDotU>" if k % 2 else "")
            lines.append(
                f'  <gazebo reference="l{k}"><plugin filename="gz-sim-hydrodynamics-system" '
                'name="gz::sim::systems::Hydrodynamics">'
                f"<link_name>l{k}</link_name>{terms}</plugin></gazebo>"
            )
    lines.append("</robot>")
    return "\n".join(lines) + "\n"


def with_gimbal_pitches(text: str, seed: int, fraction: float = 0.5) -> str:
    """``text`` with about ``fraction`` of its ``rpy`` rotations (joint and inertial
    ``<origin>`` s) given a pitch of 90°, which libsdformat's lumping mangles (GZI403)."""
    import re

    rng = np.random.default_rng(seed)

    def turn(match: re.Match[str]) -> str:
        if rng.random() >= fraction:
            return match.group(0)
        return f'rpy="{match.group(1)} 1.5707963 {match.group(2)}"'

    return re.sub(r'rpy="(\S+) \S+ (\S+)"', turn, text)
