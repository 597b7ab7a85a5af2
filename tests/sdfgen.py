"""Random SDFormat (1.9–1.11) documents for differential tests of the reader against Drake.

:func:`random_sdf` returns the text of a ``<world>`` with 1–3 models or of a single ``<model>``,
deterministic given the ``numpy.random.Generator``. What it exercises:

* nested models to depth 3, some with ``placement_frame`` (a link or frame of theirs, possibly
  scoped ``inner::link``); ``placement_frame`` on top-level and world models too;
* ``<frame>`` elements with ``attached_to`` (links, frames, joints, nested models, scoped names
  such as ``nested::link``) and poses ``relative_to`` any earlier frame-like entity of the scope;
* links posed ``relative_to`` other links, frames, joints (a joint's own child included, when
  the joint's pose is explicit), nested models and scoped names; acyclic by construction
  (every reference names an entity created earlier; XML order is sometimes shuffled, so
  references also point forward in the text);
* joints (``revolute``, ``prismatic``, ``fixed``, ``ball``, ``continuous``) whose
  ``<parent>``/``<child>`` may be scoped links of nested models (or ``world`` for top-level
  models), forming a forest (no kinematic loops, no link with two parent joints), with poses
  omitted (relative to the child) or explicit ``relative_to``;
* poses in every form: omitted, rpy radians, ``degrees="true"``, explicit
  ``rotation_format="euler_rpy"``, ``rotation_format="quat_xyzw"`` (unit quaternions only:
  libsdformat keeps a non-unit quaternion unnormalised and gz-math's vector rotation assumes
  unit length, so Drake's poses then depend on the path through the pose graph), with and
  without ``relative_to``;
* world ``<frame>`` chains (``relative_to``/``attached_to`` world frames, models and scoped
  model entities ``m0::link0``), models posed ``relative_to`` world frames or other models,
  static models;
* ``<inertial>`` with mass in [0.1, 100], a rotated ``<pose>`` in any form and a random valid
  inertia (principal moments satisfying the triangle inequality with a 5 % margin, rotated by a
  random rotation, written as the six entries in the inertial frame); sometimes no
  ``<inertial>`` (1 kg, unit inertia), no ``<inertia>`` (unit inertia) or no ``<mass>`` (1 kg).

Links and nested models are numbered per model (``link0``, ``nested0``, ...), so the same names
recur in different models and only scoping tells them apart; frames and joints are numbered
document-wide, because Drake puts a frame (and a joint's ``<joint>_parent``/``_child`` frames)
into the model instance of the link it is attached to, where names must be unique.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sdf_builders import num as fmt  # shortest text that reads back as the same double

MAX_DEPTH = 3
JOINT_TYPES = ("revolute", "prismatic", "fixed", "ball", "continuous")
VERSIONS = ("1.9", "1.10", "1.11")


def _chain_joint_xml(k: int, name: str, ind: str) -> str:
    """The revolute joint ``j{k}`` from ``link{k-1}`` to ``name`` (a chain of links)."""
    return (f'{ind}<joint name="j{k}" type="revolute">\n'
            f"{ind}  <parent>link{k - 1}</parent>\n{ind}  <child>{name}</child>\n"
            f"{ind}  <axis><xyz>0 0 1</xyz></axis>\n{ind}</joint>\n")


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly random rotation matrix (from a random unit quaternion)."""
    q = rng.normal(size=4)
    x, y, z, w = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_principal_moments(rng: np.random.Generator, margin: float = 0.05) -> np.ndarray:
    """Three positive moments with ``I_i + I_j ≥ (1 + margin)·I_k`` for every permutation."""
    scale = 10.0 ** rng.uniform(-2, 1)
    while True:
        a, b = rng.uniform(0.05, 1.0, size=2) * scale
        lo, hi = abs(a - b), a + b
        lo_m, hi_m = lo + margin * hi, hi / (1 + margin)  # margin in both directions
        if lo_m < hi_m:
            c = rng.uniform(lo_m, hi_m)
            moments = np.array([a, b, c])
            s = moments.sum()
            if all(s - m >= (1 + margin) * m - 1e-15 * s for m in moments):
                return moments


def random_inertia(rng: np.random.Generator) -> np.ndarray:
    """A valid rotational inertia ``R·diag(λ)·Rᵀ`` (3x3, about the centre of mass)."""
    R = random_rotation(rng)
    I = R @ np.diag(random_principal_moments(rng)) @ R.T
    return 0.5 * (I + I.T)


def pose_xml(
    rng: np.random.Generator,
    relative_to: str | None = None,
    indent: str = "",
    *,
    allow_omit: bool = True,
    scale: float = 2.0,
) -> str:
    """A ``<pose>`` element in a random form (``""`` when omitted and ``relative_to`` is None)."""
    attrs = f' relative_to="{relative_to}"' if relative_to is not None else ""
    form = rng.choice(["omit", "zero", "rpy", "deg", "euler", "quat"],
                      p=[0.15, 0.05, 0.35, 0.15, 0.05, 0.25])
    if form == "omit" and allow_omit:
        if relative_to is None:
            return ""
        form = "rpy"  # relative_to needs an element to live on
    xyz = rng.uniform(-scale, scale, size=3)
    if rng.random() < 0.1:
        xyz[:] = 0.0
    xyz_s = " ".join(fmt(v) for v in xyz)
    if form == "zero" or form == "omit":
        return f"{indent}<pose{attrs}>0 0 0 0 0 0</pose>\n"
    if form in ("rpy", "euler"):
        rpy = rng.uniform(-math.pi, math.pi, size=3)
        extra = ' rotation_format="euler_rpy"' if form == "euler" else ""
        return f"{indent}<pose{attrs}{extra}>{xyz_s} {' '.join(fmt(v) for v in rpy)}</pose>\n"
    if form == "deg":
        rpy = rng.uniform(-180.0, 180.0, size=3)
        if rng.random() < 0.5:
            rpy = np.round(rpy)  # whole degrees, as people write them
        return (f'{indent}<pose{attrs} degrees="true">{xyz_s} '
                f"{' '.join(fmt(v) for v in rpy)}</pose>\n")
    # Unit quaternions only: libsdformat keeps a non-unit one as written and gz-math's
    # ``Quaternion * Vector3`` assumes unit length, so poses resolved through an inverse
    # (e.g. a joint's frame in its child link) come out wrong in Drake (and in Gazebo).
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return (f'{indent}<pose{attrs} rotation_format="quat_xyzw">{xyz_s} '
            f"{' '.join(fmt(v) for v in q)}</pose>\n")


def inertial_xml(rng: np.random.Generator, indent: str) -> str:
    """An ``<inertial>`` (or ``""``: then the spec's 1 kg and unit inertia apply)."""
    u = rng.random()
    if u < 0.1:
        return ""
    inner = indent + "  "
    parts = []
    if rng.random() < 0.95:
        parts.append(f"{inner}<mass>{fmt(rng.uniform(0.1, 100.0))}</mass>\n")
    parts.append(pose_xml(rng, None, inner, scale=1.0))
    if u >= 0.2:
        I = random_inertia(rng)
        ii = inner + "  "
        entries = "".join(
            f"{ii}<{tag}>{fmt(I[i, j])}</{tag}>\n"
            for tag, i, j in [("ixx", 0, 0), ("ixy", 0, 1), ("ixz", 0, 2),
                              ("iyy", 1, 1), ("iyz", 1, 2), ("izz", 2, 2)]
        )
        parts.append(f"{inner}<inertia>\n{entries}{inner}</inertia>\n")
    rng.shuffle(parts)
    return f"{indent}<inertial>\n{''.join(parts)}{indent}</inertial>\n"


class _Forest:
    """Union-find over fully scoped link names: joints must keep the kinematic graph a forest."""

    def __init__(self) -> None:
        self.up: dict[str, str] = {}
        self.has_parent: set[str] = set()

    def find(self, a: str) -> str:
        self.up.setdefault(a, a)
        while self.up[a] != a:
            self.up[a] = self.up[self.up[a]]
            a = self.up[a]
        return a

    def can_join(self, parent: str, child: str) -> bool:
        return child not in self.has_parent and self.find(parent) != self.find(child)

    def join(self, parent: str, child: str) -> None:
        self.up[self.find(child)] = self.find(parent)
        self.has_parent.add(child)


@dataclass
class _Model:
    """A generated model: its XML body and what its parent scope may name inside it."""

    name: str
    body: list[str]
    refs: list[str] = field(default_factory=list)  # frame-like, relative to this model
    links: list[str] = field(default_factory=list)  # links, relative to this model
    placeable: list[str] = field(default_factory=list)  # placement_frame candidates


class _Generator:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.forest = _Forest()
        self.global_counts = {"frame": 0, "joint": 0}

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, items: list[str]) -> str:
        return items[int(self.rng.integers(len(items)))]

    def ref(self, refs: list[str], p_default: float = 0.35) -> str | None:
        """A ``relative_to`` target among earlier entities, or ``None`` (the default)."""
        if not refs or self.chance(p_default):
            return None
        return self.pick(refs)

    def model(self, name: str, depth: int, prefix: str, static: bool, indent: str) -> _Model:
        """Generate a model's contents; ``prefix`` is its full scope (``top::n0::``)."""
        rng = self.rng
        ind = indent + "  "
        m = _Model(name, [])
        chunks: list[str] = []
        refs: list[str] = ["__model__"]  # frame-like entities of this scope, creation order
        links: list[str] = []  # links of this scope (scoped for nested ones)
        n_links = int(rng.integers(1, 4))
        n_frames = int(rng.integers(0, 4))
        n_nested = int(rng.integers(0, 3)) if depth < MAX_DEPTH else 0
        n_joints = 0 if static else int(rng.integers(0, 4))
        ops = ["link"] * n_links + ["frame"] * n_frames + ["model"] * n_nested
        ops += ["joint"] * n_joints
        rng.shuffle(ops)
        counters = {"link": 0, "frame": 0, "model": 0, "joint": 0}

        def new_name(kind: str) -> str:
            if kind in ("frame", "joint"):
                # Drake adds a <frame> (and a joint's ``<name>_parent``/``_child`` frames) to
                # the model instance of the link it is attached to, and frame names must be
                # unique per instance: number frames and joints document-wide.
                self.global_counts[kind] += 1
                return f"{kind}{self.global_counts[kind] - 1}"
            n = f"{kind if kind != 'model' else 'nested'}{counters[kind]}"
            counters[kind] += 1
            return n

        def add_link(relative_to: str | None) -> str:
            ln = new_name("link")
            text = f'{ind}<link name="{ln}">\n'
            text += pose_xml(rng, relative_to, ind + "  ")
            text += inertial_xml(rng, ind + "  ")
            text += f"{ind}</link>\n"
            chunks.append(text)
            refs.append(ln)
            links.append(ln)
            m.placeable.append(ln)
            return ln

        for op in ops:
            if op == "link":
                add_link(self.ref(refs))
            elif op == "frame":
                fn = new_name("frame")
                attached = self.ref(refs, p_default=0.3)
                attr = f' attached_to="{attached}"' if attached is not None else ""
                text = f'{ind}<frame name="{fn}"{attr}>\n'
                text += pose_xml(rng, self.ref(refs), ind + "  ")
                text += f"{ind}</frame>\n"
                chunks.append(text)
                refs.append(fn)
                m.placeable.append(fn)
            elif op == "model":
                nn = new_name("model")
                sub = self.model(nn, depth + 1, f"{prefix}{nn}::", static, ind)
                chunks.append(self.model_xml(sub, self.ref(refs), ind))
                refs.append(nn)
                refs.extend(f"{nn}::{r}" for r in sub.refs)
                links.extend(f"{nn}::{ln}" for ln in sub.links)
                m.placeable.extend(f"{nn}::{p}" for p in sub.placeable if p.count("::") < 1)
            elif op == "joint":
                self.joint(new_name, chunks, refs, links, add_link, prefix, depth, ind)
        if not any(c.lstrip().startswith("<link") for c in chunks):
            add_link(self.ref(refs))  # a model needs a link of its own (canonical link)
        if self.chance(0.3):
            rng.shuffle(chunks)  # forward references in the text
        m.body = chunks
        m.refs = [r for r in refs if r != "__model__"]
        m.links = links
        return m

    def joint(
        self,
        new_name: Callable[[str], str],
        chunks: list[str],
        refs: list[str],
        links: list[str],
        add_link: Callable[[str | None], str],
        prefix: str,
        depth: int,
        ind: str,
    ) -> None:
        """Add a joint to the model being generated (nothing when no pair keeps a forest)."""
        rng = self.rng
        jt = str(rng.choice(JOINT_TYPES))
        jn = new_name("joint")
        candidates = [*links, "world"] if depth == 0 else list(links)
        pattern_child = self.chance(0.3) and bool(links)
        if pattern_child:
            # A new link posed relative to the joint that has it as child (joint pose explicit).
            parent = self.pick(links)
            body = pose_xml(rng, self.pick(refs), ind + "  ", allow_omit=False)
            refs.append(jn)  # the child link may name the joint
            child = add_link(jn)
            self.forest.join(self.full(prefix, parent), self.full(prefix, child))
        else:
            pairs = [(p, c) for p in candidates for c in links
                     if p != c and self.forest.can_join(self.full(prefix, p), self.full(prefix, c))]
            if not pairs:
                return
            parent, child = pairs[int(rng.integers(len(pairs)))]
            self.forest.join(self.full(prefix, parent), self.full(prefix, child))
            body = pose_xml(rng, self.ref(refs), ind + "  ")
            refs.append(jn)
        text = f'{ind}<joint name="{jn}" type="{jt}">\n'
        text += f"{ind}  <parent>{parent}</parent>\n{ind}  <child>{child}</child>\n"
        text += body
        if jt in ("revolute", "prismatic", "continuous"):  # Drake requires an axis
            axis = rng.normal(size=3)
            axis /= np.linalg.norm(axis)
            text += f"{ind}  <axis><xyz>{' '.join(fmt(v) for v in axis)}</xyz></axis>\n"
        text += f"{ind}</joint>\n"
        chunks.append(text)

    @staticmethod
    def full(prefix: str, name: str) -> str:
        return "world" if name == "world" else prefix + name

    def model_xml(self, m: _Model, relative_to: str | None, indent: str,
                  static: bool = False) -> str:
        attrs = f' name="{m.name}"'
        if m.placeable and self.chance(0.25):
            attrs += f' placement_frame="{self.pick(m.placeable)}"'
        text = f"{indent}<model{attrs}>\n"
        if static:
            text += f"{indent}  <static>true</static>\n"
        text += pose_xml(self.rng, relative_to, indent + "  ")
        text += "".join(m.body)
        text += f"{indent}</model>\n"
        return text

    def world(self) -> str:
        rng = self.rng
        n_models = int(rng.integers(1, 4))
        n_frames = int(rng.integers(0, 4))
        ops = ["model"] * n_models + ["frame"] * n_frames
        rng.shuffle(ops)
        refs: list[str] = ["world"]
        chunks: list[str] = []
        nm = nf = 0
        ind = "    "
        for op in ops:
            if op == "model":
                name = f"model{nm}"
                nm += 1
                static = self.chance(0.1)
                m = self.model(name, 0, f"{name}::", static, ind)
                chunks.append(self.model_xml(m, self.ref(refs), ind, static))
                refs.append(name)
                refs.extend(f"{name}::{r}" for r in m.refs)
            else:
                fn = f"wframe{nf}"
                nf += 1
                attached = self.ref(refs, p_default=0.4)
                attr = f' attached_to="{attached}"' if attached is not None else ""
                text = f'{ind}<frame name="{fn}"{attr}>\n'
                text += pose_xml(rng, self.ref(refs), ind + "  ")
                text += f"{ind}</frame>\n"
                chunks.append(text)
                refs.append(fn)
        if self.chance(0.3):
            rng.shuffle(chunks)
        return '  <world name="w">\n' + "".join(chunks) + "  </world>\n"

    def single_model(self) -> str:
        m = self.model("robot", 0, "robot::", False, "  ")
        return self.model_xml(m, None, "  ")


def random_sdf(rng: np.random.Generator) -> str:
    """A random, valid SDFormat document (a ``<world>`` or a ``<model>`` root)."""
    gen = _Generator(rng)
    version = str(rng.choice(VERSIONS))
    root = gen.world() if gen.chance(0.5) else gen.single_model()
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n{root}</sdf>\n'


def sdf_for_seed(seed: int) -> str:
    """:func:`random_sdf` of ``numpy.random.default_rng(seed)``."""
    return random_sdf(np.random.default_rng(seed))


# ------------------------------------------------------------------------------------------
# <inertial auto="true"> (a separate stream: sdf_for_seed's documents stay as they were)

AUTO_SHAPES = ("box", "sphere", "cylinder", "capsule", "ellipsoid")


def geometry_xml(rng: np.random.Generator, kind: str, indent: str) -> str:
    """A ``<geometry>`` holding one primitive of random size (0.05–2 m)."""
    a, b, c = (fmt(v) for v in rng.uniform(0.05, 2.0, size=3))
    inner = {
        "box": f"<box><size>{a} {b} {c}</size></box>",
        "sphere": f"<sphere><radius>{a}</radius></sphere>",
        "cylinder": f"<cylinder><radius>{a}</radius><length>{b}</length></cylinder>",
        "capsule": f"<capsule><radius>{a}</radius><length>{b}</length></capsule>",
        "ellipsoid": f"<ellipsoid><radii>{a} {b} {c}</radii></ellipsoid>",
    }[kind]
    return f"{indent}<geometry>{inner}</geometry>\n"


def auto_inertial_xml(rng: np.random.Generator, indent: str) -> str:
    """``<inertial auto="true">``, sometimes with ``<density>``, ``<mass>``, added mass."""
    inner = indent + "  "
    parts = []
    if rng.random() < 0.4:
        parts.append(f"{inner}<density>{fmt(rng.uniform(10.0, 5000.0))}</density>\n")
    if rng.random() < 0.4:
        parts.append(f"{inner}<mass>{fmt(rng.uniform(0.1, 100.0))}</mass>\n")
    if rng.random() < 0.2:  # dropped by libsdformat (and ignored by Drake anyway)
        parts.append(f"{inner}<fluid_added_mass><xx>{fmt(rng.uniform(1, 50))}</xx>"
                     f"<qq>{fmt(rng.uniform(1, 5))}</qq></fluid_added_mass>\n")
    rng.shuffle(parts)
    if not parts and rng.random() < 0.5:
        return f"{indent}<inertial auto='true'/>\n"
    return f'{indent}<inertial auto="true">\n{"".join(parts)}{indent}</inertial>\n'


def random_auto_inertial_sdf(rng: np.random.Generator) -> str:
    """A model whose links mostly have ``<inertial auto="true">``.

    Each auto link has 1–4 collisions of every primitive kind, posed in any form (also
    ``relative_to`` earlier links and frames of the model), with or without ``<density>``;
    the ``<inertial>`` may hold ``<density>``, ``<mass>`` and ``<fluid_added_mass>`` (never
    ``<pose>`` or ``<inertia>``: libsdformat warns and Drake turns its warnings into errors).
    Some links have an ordinary ``<inertial>`` for contrast.
    """
    version = str(rng.choice(VERSIONS))
    ind, refs, chunks = "    ", ["__model__"], []
    n_links = int(rng.integers(1, 5))
    n_frames = int(rng.integers(0, 3))
    ops = ["link"] * n_links + ["frame"] * n_frames
    rng.shuffle(ops)
    n_link = n_frame = 0
    for op in ops:
        if op == "frame":
            name = f"frame{n_frame}"
            n_frame += 1
            attached = refs[int(rng.integers(len(refs)))]
            chunks.append(f'{ind}<frame name="{name}" attached_to="{attached}">\n'
                          + pose_xml(rng, None, ind + "  ") + f"{ind}</frame>\n")
            refs.append(name)
            continue
        name = f"link{n_link}"
        n_link += 1
        text = f'{ind}<link name="{name}">\n' + pose_xml(rng, None, ind + "  ")
        auto = rng.random() < 0.85
        text += auto_inertial_xml(rng, ind + "  ") if auto else inertial_xml(rng, ind + "  ")
        for k in range(int(rng.integers(1, 5)) if auto else int(rng.integers(0, 2))):
            cind = ind + "    "
            relative_to = refs[int(rng.integers(len(refs)))] if rng.random() < 0.3 else None
            text += f'{ind}  <collision name="c{k}">\n' + pose_xml(rng, relative_to, cind)
            if rng.random() < 0.5:
                text += f"{cind}<density>{fmt(rng.uniform(10.0, 5000.0))}</density>\n"
            text += geometry_xml(rng, str(rng.choice(AUTO_SHAPES)), cind)
            text += f"{ind}  </collision>\n"
        text += f"{ind}</link>\n"
        chunks.append(text)
        refs.append(name)
    model = '  <model name="auto">\n' + pose_xml(rng, None, "    ") + "".join(chunks) + "  </model>\n"
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n{model}</sdf>\n'


def auto_inertial_sdf_for_seed(seed: int) -> str:
    """:func:`random_auto_inertial_sdf` of ``numpy.random.default_rng(seed)``."""
    return random_auto_inertial_sdf(np.random.default_rng(seed))


# ------------------------------------------------------------------------------------------
# Underwater vehicles for the editing commands (a separate stream: the others stay as they were)

VEHICLE_VERSIONS = ("1.6", "1.7", "1.9", "1.10", "1.11")
HYDRO_FILENAME = "gz-sim-hydrodynamics-system"


def _hydro_plugin_xml(rng: np.random.Generator, link: str, indent: str) -> str:
    """A Hydrodynamics plugin for ``link``: Fossen (negative) added-mass diagonal and damping,
    sometimes with ``<disable_added_mass>``."""
    inner = indent + "  "
    terms = []
    if rng.random() < 0.7:
        for name, scale in (("xDotU", 20.0), ("yDotV", 40.0), ("zDotW", 40.0),
                            ("kDotP", 1.0), ("mDotQ", 2.0), ("nDotR", 2.0)):
            terms.append(f"{inner}<{name}>{fmt(-rng.uniform(0.1, 1.0) * scale)}</{name}>\n")
        if rng.random() < 0.3:
            terms.append(f"{inner}<disable_added_mass>true</disable_added_mass>\n")
    for name in ("xUabsU", "yVabsV", "zWabsW", "xU", "yV", "zW"):
        if rng.random() < 0.6:
            terms.append(f"{inner}<{name}>{fmt(-rng.uniform(0.5, 50.0))}</{name}>\n")
    return (f'{indent}<plugin filename="{HYDRO_FILENAME}" name="gz::sim::systems::Hydrodynamics">\n'
            f"{inner}<link_name>{link}</link_name>\n{''.join(terms)}{indent}</plugin>\n")


def random_vehicle_sdf(rng: np.random.Generator) -> str:
    """A model of 1–4 links joined in a chain, each with an explicit ``<inertial>`` (random valid
    inertia), 1–3 primitive collisions near its origin, and sometimes a ``<fluid_added_mass>``
    (positive diagonal) and a Hydrodynamics plugin (Fossen-negative ``<iDotJ>`` diagonal, damping
    terms); declared SDF 1.6–1.11."""
    version = str(rng.choice(VEHICLE_VERSIONS))
    ind = "    "
    links, plugins = [], []
    n_links = int(rng.integers(1, 5))
    for k in range(n_links):
        name = f"link{k}"
        text = f'{ind}<link name="{name}">\n' + pose_xml(rng, None, ind + "  ", scale=1.5)
        inertial = inertial_xml(rng, ind + "  ")
        if inertial and rng.random() < 0.3:
            diag = rng.uniform(1.0, 50.0, size=3).tolist() + rng.uniform(0.1, 5.0, size=3).tolist()
            entries = "".join(f"<{t}>{fmt(v)}</{t}>"
                              for t, v in zip(("xx", "yy", "zz", "pp", "qq", "rr"), diag,
                                              strict=True))
            closing = f"{ind}  </inertial>\n"
            inertial = inertial.replace(
                closing, f"{ind}    <fluid_added_mass>{entries}</fluid_added_mass>\n{closing}")
        text += inertial
        for c in range(int(rng.integers(1, 4))):
            cind = ind + "    "
            text += f'{ind}  <collision name="c{c}">\n' + pose_xml(rng, None, cind, scale=0.3)
            text += geometry_xml(rng, str(rng.choice(AUTO_SHAPES[:4])), cind)
            text += f"{ind}  </collision>\n"
        text += f"{ind}</link>\n"
        links.append(text)
        if k:
            links.append(_chain_joint_xml(k, name, ind))
        if rng.random() < 0.5:
            plugins.append(_hydro_plugin_xml(rng, name, ind))
    model = ('  <model name="vehicle">\n' + pose_xml(rng, None, "    ")
             + "".join(links) + "".join(plugins) + "  </model>\n")
    return f'<?xml version="1.0"?>\n<sdf version="{version}">\n{model}</sdf>\n'


def vehicle_sdf_for_seed(seed: int) -> str:
    """:func:`random_vehicle_sdf` of ``numpy.random.default_rng(seed)``."""
    return random_vehicle_sdf(np.random.default_rng(seed))


# ------------------------------------------------------------------------------------------
# Links of every shape, for the ellipsoid fits (a separate stream: the others stay as they were)

#: Every collision shape the fits handle: the SDFormat 1.11 primitives and mesh files.
FIT_SHAPES = ("box", "sphere", "cylinder", "capsule", "ellipsoid", "cone", "mesh")
#: The closed meshes :func:`shapes_vehicle` writes (convex and not).
MESH_KINDS = ("box", "blob", "hull", "capsule", "annulus")


def _mesh_file(rng: np.random.Generator, folder: Path, name: str) -> str:
    """A closed, outward-oriented mesh of random size written to ``folder/meshes/name.stl``
    (trimesh's creators), returned as the relative URI a model next to ``folder`` names."""
    import trimesh

    kind = str(rng.choice(MESH_KINDS))
    a, b, c = rng.uniform(0.05, 0.6, size=3)
    if kind == "box":
        mesh = trimesh.creation.box((a, b, c))
    elif kind == "blob":  # an ellipsoid's icosphere, off-centre in its own file
        mesh = trimesh.creation.icosphere(subdivisions=2)
        mesh.apply_scale((a, b, c))
        mesh.apply_translation(rng.uniform(-0.2, 0.2, size=3))
    elif kind == "hull":
        mesh = trimesh.convex.convex_hull(rng.uniform(-1.0, 1.0, size=(12, 3)) * (a, b, c))
    elif kind == "capsule":
        mesh = trimesh.creation.capsule(height=2.0 * a, radius=0.5 * b)
    else:  # a ring: not convex, centroid in the hole
        mesh = trimesh.creation.annulus(r_min=0.5 * a, r_max=0.5 * a + b, height=c)
    uri = f"meshes/{name}.stl"
    (folder / "meshes").mkdir(parents=True, exist_ok=True)
    mesh.export(folder / uri)
    return uri


def _shape_geometry(rng: np.random.Generator, kind: str, folder: Path, name: str,
                    indent: str) -> str:
    if kind == "cone":
        r, length = rng.uniform(0.05, 0.6, size=2)
        cone = f"<cone><radius>{fmt(r)}</radius><length>{fmt(length)}</length></cone>"
        return f"{indent}<geometry>{cone}</geometry>\n"
    if kind == "mesh":
        uri = _mesh_file(rng, folder, name)
        scale = ""
        if rng.random() < 0.4:
            scale = f"<scale>{' '.join(fmt(v) for v in rng.uniform(0.5, 2.0, size=3))}</scale>"
        return f"{indent}<geometry><mesh><uri>{uri}</uri>{scale}</mesh></geometry>\n"
    return geometry_xml(rng, kind, indent)


def shapes_vehicle(rng: np.random.Generator, folder: Path) -> str:
    """A model (SDFormat 1.11) of 1–3 links in a chain, each with an ``<inertial>`` as
    :func:`inertial_xml` writes it and 2–4 collisions of any of :data:`FIT_SHAPES` (every link
    at least one cone or mesh), posed near the link origin in any form (in half of the links
    all without rotation); mesh files (closed, some not convex, some scaled) are written under
    ``folder/meshes``."""
    ind = "    "
    links = []
    n_links = int(rng.integers(1, 4))
    for k in range(n_links):
        name = f"link{k}"
        text = f'{ind}<link name="{name}">\n' + pose_xml(rng, None, ind + "  ", scale=1.5)
        text += inertial_xml(rng, ind + "  ")
        n = int(rng.integers(2, 5))
        kinds = [str(rng.choice(FIT_SHAPES)) for _ in range(n)]
        if not {"cone", "mesh"} & set(kinds):
            kinds[int(rng.integers(n))] = str(rng.choice(["cone", "mesh"]))
        aligned = rng.random() < 0.5  # shapes posed without rotation, as people write them
        for c, kind in enumerate(kinds):
            cind = ind + "    "
            if aligned:
                xyz = " ".join(fmt(v) for v in rng.uniform(-0.4, 0.4, size=3))
                pose = f"{cind}<pose>{xyz} 0 0 0</pose>\n"
            else:
                pose = pose_xml(rng, None, cind, scale=0.4)
            text += f'{ind}  <collision name="c{c}">\n' + pose
            text += _shape_geometry(rng, kind, folder, f"{name}_c{c}", cind)
            text += f"{ind}  </collision>\n"
        text += f"{ind}</link>\n"
        links.append(text)
        if k:
            links.append(_chain_joint_xml(k, name, ind))
    pose = pose_xml(rng, None, "    ")
    model = f'  <model name="shapes">\n{pose}{"".join(links)}  </model>\n'
    return f'<?xml version="1.0"?>\n<sdf version="1.11">\n{model}</sdf>\n'


def shapes_vehicle_for_seed(seed: int, folder: Path) -> str:
    """:func:`shapes_vehicle` of ``numpy.random.default_rng(seed)``."""
    return shapes_vehicle(np.random.default_rng(seed), folder)
