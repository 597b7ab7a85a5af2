"""UUV Simulator's underwater-object plugin: the one home of its vocabulary and semantics.

Read from ``uuv_gazebo_plugins/uuv_gazebo_plugins/src/{UnderwaterObjectPlugin,
HydrodynamicModel,BuoyantObject}.cc`` at UUV Simulator commit
``bfb40cb153684a0703173117b6bbf4258e8e71c5`` (line references in ``docs/classic_plugins.md``).
The plugin (``libuuv_underwater_object_plugin.so`` or its ROS wrapper
``libuuv_underwater_object_ros_plugin.so``) holds a ``<link name=...>`` per link it acts on.

Points, axes, ordering:

* every 6x6 matrix (:attr:`UuvLink.Ma`, :attr:`UuvLink.D_lin`, :attr:`UuvLink.D_forward`,
  :attr:`UuvLink.D_quad`) is **linear-first** ``[u v w p q r]``, multiplies the velocity of the
  **link origin** Bo relative to the fluid, expressed in the link axes with y and z negated
  (the plugin's "NED" flip, applied to the linear AND the angular part: axes F =
  ``diag(1, -1, -1)``·B);
* the hydrodynamic force the plugin computes is turned back to link axes and applied at the
  link's **centre of mass** Bcm (Gazebo classic's ``AddRelativeForce``), the torque in link
  axes; :func:`hydrodynamic_wrench_Bo` gives the equivalent wrench about Bo;
* the buoyancy force is vertical in the world (+z), applied at ``<center_of_buoyancy>``
  (``p_BcmC_B``, from the link's **centre of mass** Bcm in link axes: Gazebo classic's
  ``AddForceAtRelativePosition`` hands the point to ODE's ``dBodyAddForceAtRelPos``, whose
  body sits at the centre of mass; gazebo-classic ``gazebo/physics/ode/ODELink.cc`` at
  012727234c28e0eb43628c7d011b9635a7b8ef97).

Sign convention (Fossen): the plugin applies ``tau = -D(nu)·nu - Ma·a - Ca(nu)·nu`` with
``D(nu) = -(DLin + u·DForward) - diag(DQuad)·|nu|``: **negative** ``<linear_damping>`` and
``<quadratic_damping>`` values dissipate energy; ``<added_mass>`` is positive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal, cast

import numpy as np
from lxml import etree

from gzinertia.errors import SdfError
from gzinertia.record_base import Record
from gzinertia.records import SourceRef
from gzinertia.sdf.values import parse_bool, parse_float, parse_floats, text_of
from gzinertia.sdf.xml import child, children, line_of
from gzinertia.vocabulary.fluids import UUV_PLUGIN_FLUID_DENSITY

__all__ = [
    "ACCELERATION_FILTER_ALPHA",
    "CONSTRUCTION_DENSITY",
    "DEFAULT_FLUID_DENSITY",
    "FILENAMES",
    "MODEL_TYPES",
    "NED_FLIP",
    "UuvLink",
    "UuvPlugin",
    "added_mass_Bo_B",
    "buoyancy_force_W",
    "filter_acceleration",
    "hydrodynamic_wrench",
    "hydrodynamic_wrench_Bo",
    "is_uuv_underwater_object",
    "read_uuv_plugin",
]

#: The plugin's file names (with or without ``lib`` and ``.so``).
FILENAMES = ("uuv_underwater_object_plugin", "uuv_underwater_object_ros_plugin")
#: ``<hydrodynamic_model><type>`` values the plugin registers.
MODEL_TYPES = ("fossen", "sphere", "cylinder", "spheroid", "box")
ModelType = Literal["fossen", "sphere", "cylinder", "spheroid", "box"]
#: The plugin-level ``<fluid_density>`` default (UnderwaterObjectPlugin.cc).
DEFAULT_FLUID_DENSITY = UUV_PLUGIN_FLUID_DENSITY
#: The density the shape models and ``<neutrally_buoyant>`` use: BuoyantObject's default, in
#: force while the link's model is built, before the plugin sets ``<fluid_density>``.
CONSTRUCTION_DENSITY = UUV_PLUGIN_FLUID_DENSITY
#: The weight of the newest finite-difference acceleration in the plugin's filter.
ACCELERATION_FILTER_ALPHA = 0.3
#: The plugin's "NED" flip of a linear-first 6-vector (y, z, q, r negated).
NED_FLIP = np.diag([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])

#: Damping tags that take 6 (diagonal) or 36 (row-major) values.
_DAMPING_TAGS = ("linear_damping", "linear_damping_forward_speed", "quadratic_damping")
#: Tags the plugin lists as parameters but never reads from the SDF (set only through the ROS
#: plugin's services): ``scaling_*`` default 1, ``offset_*`` default 0.
UNREAD_TAGS = (
    "scaling_added_mass", "offset_added_mass", "scaling_damping", "offset_linear_damping",
    "offset_lin_forward_speed_damping", "offset_nonlin_damping", "scaling_volume",
    "offset_volume",
)


def is_uuv_underwater_object(filename: str) -> bool:
    """Whether a ``<plugin filename>`` is UUV Simulator's underwater-object plugin."""
    base = filename.strip().rsplit("/", 1)[-1]
    base = base.removeprefix("lib").removesuffix(".so")
    return base in FILENAMES


@dataclass(frozen=True, repr=False, eq=False)
class UuvLink(Record):
    """What the plugin applies to one link, as it reads its ``<link>`` block.

    Matrices: 6x6, linear-first, about the link origin, in the plugin's flipped axes (module
    docstring). ``volume``: the declared ``<volume>`` (m³; 0 when absent); with
    ``neutrally_buoyant`` the plugin replaces it by ``mass / 1028``. ``box``: ``<box>``'s
    (width, length, height) along link (x, y, z), the plugin's bounding box; ``None`` when
    absent (then the plugin uses Gazebo's bounding box of the link). ``notes``: what the
    plugin assumes or ignores here, in words."""

    link: str
    model_type: ModelType
    volume: float
    volume_declared: bool
    p_BcmC_B: tuple[float, float, float]
    cob_declared: bool
    neutrally_buoyant: bool
    box: tuple[float, float, float] | None
    Ma: np.ndarray
    D_lin: np.ndarray
    D_forward: np.ndarray
    D_quad: np.ndarray
    surface: tuple[float, float, float] | None
    source: SourceRef
    added_mass_source: SourceRef | None = None
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True, repr=False, eq=False)
class UuvPlugin(Record):
    """One underwater-object ``<plugin>``: its plugin-level settings and its links."""

    filename: str
    fluid_density: float
    flow_velocity_topic: str | None
    use_global_current: bool
    debug: bool
    links: tuple[UuvLink, ...]
    source: SourceRef
    notes: tuple[str, ...] = field(default=())
    #: The scoped name of the SDF ``<model>`` holding the plugin (``""``: none, as in URDF).
    model: str = ""


def _matrix(elem: etree._Element, file: str, counts: tuple[int, ...]) -> np.ndarray:
    values = parse_floats(elem, file)
    if len(values) not in counts:
        raise SdfError(file, line_of(elem), f"<{elem.tag}> has {len(values)} values; the "
                       f"plugin takes {' or '.join(map(str, counts))}")
    if len(values) == 6:
        return np.diag(values)
    return np.array(values, dtype=float).reshape(6, 6)


def _positive(params: etree._Element, tag: str, file: str) -> float | None:
    elem = child(params, tag)
    return None if elem is None else parse_float(elem, file)


def _shape(
    kind: ModelType, params: etree._Element, file: str, mass: float | None,
    box: tuple[float, float, float] | None, Ma: np.ndarray, D_quad: np.ndarray,
    notes: list[str],
) -> None:
    """Overwrites the entries of ``Ma`` and ``D_quad`` that a shape model computes."""
    rho = CONSTRUCTION_DENSITY
    radius = _positive(params, "radius", file)
    length = _positive(params, "length", file)
    extents = None if box is None else (box[0], box[1], box[2])
    if kind in ("sphere", "cylinder", "spheroid") and radius is None:
        if extents is None:
            raise SdfError(file, line_of(params), f"{kind} model without <radius> nor <box>: "
                           "the plugin takes the radius from Gazebo's bounding box of the "
                           "link, which gzinertia does not reproduce")
        radius = min(extents)
        notes.append(f"{kind}: radius taken from <box> (smallest side {radius:g} m)")
    if kind in ("cylinder", "spheroid") and length is None:
        if extents is None:
            raise SdfError(file, line_of(params), f"{kind} model without <length> nor <box>")
        length = max(extents)
        notes.append(f"{kind}: length taken from <box> (largest side {length:g} m)")
    if kind == "sphere":
        assert radius is not None
        for i in range(3):
            Ma[i, i] = 2.0 / 3.0 * rho * math.pi * radius**3
            D_quad[i, i] = -0.5 * rho * 0.5 * math.pi * radius**2
    elif kind == "cylinder":
        assert radius is not None and length is not None
        _cylinder(params, file, radius, length, extents, Ma, D_quad, notes)
    elif kind == "spheroid":
        assert radius is not None and length is not None
        if mass is None:
            raise SdfError(file, line_of(params), "spheroid model: the link's mass is needed")
        _spheroid(radius, length, mass, Ma)
        notes.append("spheroid: the plugin says this model is still in development")
    elif kind == "box":
        notes.append("box: the plugin computes drag coefficients from <cd>, <length>, <width>, "
                     "<height> but never puts them into its damping matrix: no effect")


def _cylinder(
    params: etree._Element, file: str, radius: float, length: float,
    extents: tuple[float, float, float] | None, Ma: np.ndarray, D_quad: np.ndarray,
    notes: list[str],
) -> None:
    rho = CONSTRUCTION_DENSITY
    ratio = length / (2.0 * radius)
    circ = [(1, 0.91), (2, 0.85), (4, 0.87), (7, 0.99)]
    cd_circ = next((cd for top, cd in circ if ratio <= top), math.nan)
    if math.isnan(cd_circ):
        notes.append(f"cylinder: length/diameter {ratio:g} > 7 leaves the plugin's circular "
                     "drag coefficient uninitialised (undefined behaviour): taken as NaN")
    rect = [(1, 0.63), (2, 0.68), (5, 0.74), (10, 0.82)]
    cd_length = next((cd for top, cd in rect if ratio <= top), 0.98)
    axis_elem = child(params, "axis")
    if axis_elem is not None:
        axis = text_of(axis_elem)
        if axis not in ("i", "j", "k"):
            raise SdfError(file, line_of(axis_elem), f"cylinder <axis> {axis!r}: i, j or k")
    elif extents is not None:
        axis = "ijk"[int(np.argmax(extents))]
        notes.append(f"cylinder: axis {axis} from the longest side of <box>")
    else:
        raise SdfError(file, line_of(params), "cylinder model without <axis> nor <box>")
    along = "ijk".index(axis)
    ma_length = rho * math.pi * radius**2 * length
    ma_circ = rho * math.pi * radius**2  # as the plugin writes it (not a mass: no length)
    ma_torque = rho * math.pi * radius**2 * length**3 / 12.0
    d_circ = -0.5 * cd_circ * math.pi * radius**2 * rho
    d_length = -0.5 * cd_length * radius * length * rho
    for i in range(3):
        Ma[i, i] = ma_circ if i == along else ma_length
        D_quad[i, i] = d_circ if i == along else d_length
        if i != along:
            Ma[3 + i, 3 + i] = ma_torque
    notes.append("cylinder: the added mass along the axis is rho·pi·r² (the plugin omits the "
                 "length: kg/m, not kg)")


def _spheroid(radius: float, length: float, mass: float, Ma: np.ndarray) -> None:
    ecc = math.sqrt(1.0 - (radius / length) ** 2)
    ln = math.log((1.0 + ecc) / (1.0 - ecc))
    alpha = 2.0 * (1.0 - ecc**2) / ecc**3 * (0.5 * ln - ecc)
    beta = 1.0 / ecc**2 - (1.0 - ecc**2 / (2.0 * ecc**3)) * ln
    Ma[0, 0] = mass * alpha / (2.0 - alpha)
    Ma[1, 1] = Ma[2, 2] = mass * beta / (2.0 - beta)
    Ma[3, 3] = 0.0
    minus = radius**2 - length**2
    plus = radius**2 + length**2
    Ma[4, 4] = Ma[5, 5] = (-0.2 * mass * minus**2 * (alpha - beta)
                           / (2.0 * minus - plus * (alpha - beta)))


def _read_link(elem: etree._Element, file: str, mass: float | None) -> UuvLink:
    notes: list[str] = []
    name = (elem.get("name") or "").strip()
    volume_elem = child(elem, "volume")
    volume = 0.0 if volume_elem is None else parse_float(volume_elem, file)
    cob_elem = child(elem, "center_of_buoyancy")
    cob = (0.0, 0.0, 0.0) if cob_elem is None else tuple(parse_floats(cob_elem, file, 3))
    neutral_elem = child(elem, "neutrally_buoyant")
    neutral = neutral_elem is not None and parse_bool(neutral_elem, file)
    box = None
    box_elem = child(elem, "box")
    if box_elem is not None:
        sides = [child(box_elem, t) for t in ("width", "length", "height")]
        if all(s is not None for s in sides):
            w, ln, h = (parse_float(s, file) for s in sides if s is not None)
            box = (w, ln, h)  # the plugin puts width along x, length along y
    surface = None
    tags = [child(elem, t) for t in ("metacentric_width", "metacentric_length",
                                      "submerged_height")]
    if all(t is not None for t in tags):
        mw, ml, sh = (parse_float(t, file) for t in tags if t is not None)
        surface = (mw, ml, sh)
    params = child(elem, "hydrodynamic_model")
    if params is None:
        raise SdfError(file, line_of(elem), f"<link name={name!r}> has no <hydrodynamic_model>")
    type_elem = child(params, "type")
    kind = "" if type_elem is None else text_of(type_elem)
    if kind not in MODEL_TYPES:
        raise SdfError(file, line_of(params), f"hydrodynamic model type {kind!r}: the plugin "
                       f"knows {', '.join(MODEL_TYPES)}")
    Ma = np.zeros((6, 6))
    added = child(params, "added_mass")
    if added is not None:
        Ma = _matrix(added, file, (36,))
    D = {}
    for tag in _DAMPING_TAGS:
        d_elem = child(params, tag)
        D[tag] = np.zeros((6, 6)) if d_elem is None else _matrix(d_elem, file, (6, 36))
    D_quad = np.diag(np.diag(D["quadratic_damping"]))
    if np.any(D["quadratic_damping"] != D_quad):
        notes.append("quadratic_damping: the plugin uses only the diagonal of the 36 values")
    for tag in UNREAD_TAGS:
        if child(params, tag) is not None or child(elem, tag) is not None:
            notes.append(f"<{tag}> is not read from the file by the plugin (only set through "
                         "the ROS plugin's services): ignored")
    model_type = cast(ModelType, kind)
    _shape(model_type, params, file, mass, box, Ma, D_quad, notes)
    if neutral:
        notes.append("neutrally_buoyant: the volume is replaced by mass/1028 and, fully "
                     "submerged, the buoyancy equals the weight")
    return UuvLink(
        link=name, model_type=model_type,
        volume=volume, volume_declared=volume_elem is not None,
        p_BcmC_B=(cob[0], cob[1], cob[2]), cob_declared=cob_elem is not None,
        neutrally_buoyant=neutral, box=box, Ma=Ma, D_lin=D["linear_damping"],
        D_forward=D["linear_damping_forward_speed"], D_quad=D_quad, surface=surface,
        source=SourceRef(file, line_of(elem)),
        added_mass_source=None if added is None else SourceRef(file, line_of(added)),
        notes=tuple(notes),
    )


def read_uuv_plugin(
    plugin: etree._Element, file: str, masses: dict[str, float] | None = None
) -> UuvPlugin:
    """Reads an underwater-object ``<plugin>`` element. ``masses``: link name → mass (kg),
    needed by the ``spheroid`` model only. Raises :class:`~gzinertia.errors.SdfError` (file
    and line) on what the plugin would refuse (an unknown model type, a wrong value count)."""
    masses = masses or {}
    density_elem = child(plugin, "fluid_density")
    topic = child(plugin, "flow_velocity_topic")
    current = child(plugin, "use_global_current")
    debug = child(plugin, "debug")
    links = tuple(
        _read_link(e, file, masses.get((e.get("name") or "").strip()))
        for e in children(plugin, "link")
    )
    return UuvPlugin(
        filename=(plugin.get("filename") or "").strip(),
        fluid_density=DEFAULT_FLUID_DENSITY if density_elem is None
        else parse_float(density_elem, file),
        flow_velocity_topic=None if topic is None else text_of(topic),
        use_global_current=current is None or parse_bool(current, file),
        debug=debug is not None and text_of(debug) not in ("0", "false", ""),
        links=links,
        source=SourceRef(file, line_of(plugin)),
    )


def filter_acceleration(
    filtered: np.ndarray, nu: np.ndarray, nu_last: np.ndarray, dt: float,
    alpha: float = ACCELERATION_FILTER_ALPHA,
) -> np.ndarray:
    """The plugin's filtered acceleration after a step: ``(1-alpha)·filtered +
    alpha·(nu - nu_last)/dt`` (flipped axes, linear-first); unchanged when ``dt <= 0``."""
    if dt <= 0.0:
        return filtered
    return (1.0 - alpha) * filtered + alpha * (nu - nu_last) / dt


def _skew(a: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def hydrodynamic_wrench(
    link: UuvLink, v_B: np.ndarray, w_B: np.ndarray, a_filtered: np.ndarray,
    R_WB: np.ndarray, flow_W: np.ndarray,
) -> np.ndarray:
    """The plugin's hydrodynamic wrench ``[f_B; t_B]`` (force applied at Bcm, both in link
    axes). ``v_B``, ``w_B``: the link origin's velocity and the angular velocity in link axes;
    ``a_filtered``: the plugin's filtered acceleration (flipped axes, linear-first);
    ``R_WB``: the link's orientation; ``flow_W``: the current in world axes."""
    nu = NED_FLIP @ np.concatenate([v_B - R_WB.T @ flow_W, w_B])
    ab = link.Ma @ nu
    Ca = np.zeros((6, 6))
    Ca[:3, 3:] = -_skew(ab[:3])
    Ca[3:, :3] = -_skew(ab[:3])
    Ca[3:, 3:] = -_skew(ab[3:])
    D = -link.D_lin - nu[0] * link.D_forward - np.diag(np.diag(link.D_quad) * np.abs(nu))
    tau = -D @ nu - link.Ma @ a_filtered - Ca @ nu
    result: np.ndarray = NED_FLIP @ tau
    return result


def hydrodynamic_wrench_Bo(wrench: np.ndarray, p_BoBcm_B: np.ndarray) -> np.ndarray:
    """A wrench applied at Bcm (``[f_B; t_B]``) as the same wrench about the link origin."""
    f = wrench[:3]
    return np.concatenate([f, wrench[3:] + np.cross(p_BoBcm_B, f)])


def added_mass_Bo_B(link: UuvLink, p_BoBcm_B: np.ndarray) -> np.ndarray:
    """The plugin's added mass as the link feels it: ``A`` (6x6, linear-first, link axes,
    about the link origin Bo) with ``-A·a_B`` the wrench about Bo of its added-mass term for a
    filtered acceleration ``a_B`` in link axes. ``A = T·F·Ma·F`` with ``F`` the flip and
    ``T = [[1, 0], [[p]×, 1]]``: the force is applied at Bcm (``p = p_BoBcm_B``), so ``A`` is
    symmetric only when ``Ma`` is and ``p = 0``; the input of an exact ``<fluid_added_mass>``
    conversion, which must report the rest."""
    T = np.eye(6)
    T[3:, :3] = _skew(np.asarray(p_BoBcm_B, dtype=float))
    result: np.ndarray = T @ NED_FLIP @ link.Ma @ NED_FLIP
    return result


def buoyancy_force_W(
    link: UuvLink, z_W: float, mass: float, g: float, fluid_density: float,
    height: float,
) -> float:
    """The plugin's buoyancy (N, world +z, applied at :attr:`UuvLink.p_BcmC_B`) of an
    underwater (not surface) link whose origin is at height ``z_W`` (the water surface at 0);
    ``height``: the plugin's bounding-box height (``<box>``'s or Gazebo's)."""
    volume = mass / CONSTRUCTION_DENSITY if link.neutrally_buoyant else link.volume
    volume = max(0.0, volume)
    if z_W + height / 2.0 > 0.0 and z_W < 0.0:
        return volume * (abs(z_W) + height / 2.0) / height * fluid_density * g
    if z_W + height / 2.0 < 0.0:
        return mass * g if link.neutrally_buoyant else volume * fluid_density * g
    return 0.0
