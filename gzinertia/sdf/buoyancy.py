"""Reading a world's Buoyancy system (``gz::sim::systems::Buoyancy``) and its gravity.

What gz-sim's ``Buoyancy::Configure`` reads, the way it reads it:

* ``<uniform_fluid_density>`` (kg/m³): one density everywhere (the whole world is fluid).
* otherwise ``<graded_buoyancy>``: ``<default_density>`` (the fluid below the lowest layer) and
  ``<density_change>`` elements, each ``<above_depth>`` (a world height z, m, despite its name)
  and ``<density>``: the fluid from that height up to the next one has that density. Layers
  are keyed by height: two at the same height keep the last one written (a ``std::map``).
* neither: 1000 kg/m³ uniform (Gazebo warns).
* no Buoyancy plugin at all: **no buoyancy**. gz-sim's default server configuration
  (``include/gz/sim/server.config`` at gz-sim 93bbf3ed, 2026-07-02: the Physics,
  UserCommands and SceneBroadcaster systems, loaded only for a world that names no plugin)
  has no Buoyancy system, so a world that does not name one applies none; a model file does
  not say which world it goes into (:func:`buoyancy_system_caveat`).
* ``<enable>`` (repeatable): scoped names (without the world's) of links or models whose links
  get buoyancy; none means every link.

The world's ``<gravity>`` (default ``0 0 -9.8``) is the gravity both buoyancy and weight use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from lxml import etree

from gzinertia.records import DEFAULT_GRAVITY_W, BuoyancyKind, BuoyancyWorld, SourceRef
from gzinertia.vocabulary.fluids import DEFAULT_FLUID_DENSITY

if TYPE_CHECKING:
    from gzinertia.spatial.rotation import Pose
from gzinertia.sdf.values import child_pose, parse_float, parse_floats
from gzinertia.sdf.xml import child, children, line_of, parse_xml_file_shared
from gzinertia.spatial.rotation import Pose


def is_buoyancy_plugin(elem: etree._Element) -> bool:
    """A ``<plugin>`` that loads gz-sim's (or Ignition Gazebo's) Buoyancy system."""
    name = (elem.get("name") or "").strip()
    filename = (elem.get("filename") or "").strip()
    return name.endswith("systems::Buoyancy") or "buoyancy-system" in filename


#: Whether the Buoyancy system acts: ``"loaded"`` (the world names it), ``"absent"`` (a world
#: that does not: Gazebo applies no buoyancy), ``"unknown"`` (a model file: its world is not
#: known).
BuoyancySystem = Literal["loaded", "absent", "unknown"]


def buoyancy_system_caveat(state: BuoyancySystem, density: float) -> str | None:
    """What a result computed in a fluid of ``density`` (kg/m³) means when the world loads no
    Buoyancy system (``"absent"``) or is not known (``"unknown"``); ``None`` when it loads
    one. The one wording of ``hydrostatics`` and the audit's flotation rules."""
    if state == "absent":
        return (f"no Buoyancy system: Gazebo applies no buoyancy; floating result shown as if "
                f"a Buoyancy system with rho={density:g} kg/m^3 were added")
    if state == "unknown":
        return (f"a model file does not name its world: Gazebo applies buoyancy only in a world "
                f"that loads the Buoyancy system; assumed one with rho={density:g} kg/m^3")
    return None


def buoyancy_system_of(
    path: str | Path, root: etree._Element | None = None
) -> tuple[BuoyancyWorld | None, BuoyancySystem]:
    """The Buoyancy system of the file's world (:func:`read_buoyancy_world`) and whether it
    acts (:data:`BuoyancySystem`); ``root`` as for :func:`read_buoyancy_world`."""
    file = str(path)
    root = parse_xml_file_shared(file) if root is None else root
    fluid = read_buoyancy_world(file, root)
    if fluid is not None:
        return fluid, "loaded"
    return None, "absent" if child(root, "world") is not None else "unknown"


def read_world_gravity(world: etree._Element, file: str) -> tuple[float, float, float]:
    """The world's ``<gravity>`` (m/s², world frame), Gazebo's default when absent."""
    elem = child(world, "gravity")
    if elem is None:
        return DEFAULT_GRAVITY_W
    g = parse_floats(elem, file, 3)
    return (g[0], g[1], g[2])


def buoyancy_from_plugin(
    plugin: etree._Element, file: str, g_W: tuple[float, float, float] = DEFAULT_GRAVITY_W
) -> BuoyancyWorld:
    """The fluid a Buoyancy ``<plugin>`` element configures (Gazebo's reading, see module)."""
    source = SourceRef(file, line_of(plugin))
    enabled = tuple((e.text or "").strip() for e in children(plugin, "enable"))
    uniform = child(plugin, "uniform_fluid_density")
    if uniform is not None:
        return BuoyancyWorld("uniform", parse_float(uniform, file), (), enabled, g_W, source)
    graded = child(plugin, "graded_buoyancy")
    if graded is None:
        return BuoyancyWorld(
            "uniform", DEFAULT_FLUID_DENSITY, (), enabled, g_W, source,
            ("neither <graded_buoyancy> nor <uniform_fluid_density>: Gazebo uses 1000 kg/m^3",),
        )
    density = DEFAULT_FLUID_DENSITY
    layers: dict[float, float] = {}
    notes: list[str] = []
    for elem in graded.iterchildren(etree.Element):
        if elem.tag == "default_density":
            density = parse_float(elem, file)
        elif elem.tag == "density_change":
            depth, rho = child(elem, "above_depth"), child(elem, "density")
            height = 0.0 if depth is None else parse_float(depth, file)
            value = 0.0 if rho is None else parse_float(rho, file)
            if depth is None or rho is None:
                notes.append(
                    f"{file}:{line_of(elem)}: <density_change> without "
                    f"{'<above_depth>' if depth is None else '<density>'}: Gazebo reads 0"
                )
            layers[height] = value
    kind: BuoyancyKind = "graded"
    return BuoyancyWorld(kind, density, tuple(sorted(layers.items())), enabled, g_W, source,
                         tuple(notes))


def read_buoyancy_world(
    path: str | Path, root: etree._Element | None = None
) -> BuoyancyWorld | None:
    """The Buoyancy system of the ``<world>`` in the file at ``path`` (its first such plugin,
    as Gazebo loads one system of a kind per world); ``None`` when the file holds no world or
    its world has no Buoyancy plugin. Raises :class:`~gzinertia.errors.SdfError` for a file
    that cannot be read or a value that is not a number. ``root``: the file's parsed tree when
    it is not read from ``path`` (standard input, named ``<stdin>``)."""
    file = str(path)
    root = parse_xml_file_shared(file) if root is None else root
    world = child(root, "world")
    if world is None:
        return None
    g_W = read_world_gravity(world, file)
    for plugin in children(world, "plugin"):
        if is_buoyancy_plugin(plugin):
            return buoyancy_from_plugin(plugin, file, g_W)
    return None


def read_gravity(
    path: str | Path, root: etree._Element | None = None
) -> tuple[float, float, float]:
    """The gravity of the ``<world>`` in the file (Gazebo's default for a model file);
    ``root`` as for :func:`read_buoyancy_world`."""
    file = str(path)
    world = child(parse_xml_file_shared(file) if root is None else root, "world")
    return DEFAULT_GRAVITY_W if world is None else read_world_gravity(world, file)


def read_model_poses(path: str | Path, root: etree._Element | None = None) -> dict[str, Pose]:
    """``X_WM`` of each top-level model the file poses directly: a ``<model>`` (or a named
    ``<include>``) with a ``<pose>`` relative to the world (no ``relative_to``, or
    ``relative_to="world"``), or none (identity). Models posed relative to other frames are left
    out (their model frame is then not reported). ``root`` as for
    :func:`read_buoyancy_world`."""
    file = str(path)
    root = parse_xml_file_shared(file) if root is None else root
    world = child(root, "world")
    parent = root if world is None else world
    poses: dict[str, Pose] = {}
    for elem in parent.iterchildren("model", "include"):
        if elem.tag == "model":
            name = (elem.get("name") or "").strip()
        else:
            name_elem = child(elem, "name")
            name = "" if name_elem is None else (name_elem.text or "").strip()
        if not name:
            continue
        spec = child_pose(elem, file)
        if spec is None:
            poses[name] = Pose()
        elif spec.relative_to in ("", "world"):
            poses[name] = spec.X
    return poses
