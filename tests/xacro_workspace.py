"""A generated ROS description workspace shaped like DAVE's ``urdf/`` tree (not a benchmark).

:func:`build_workspace` writes ``packages`` description packages (each with a ``package.xml``)
under one folder, about ``files`` xacro files in all: per package, a few top-level robots
(``<robot>`` files that expand to links), and fragments that define macros only (thrusters,
sensors, a hull), included by the robots through ``$(find pkg)`` from their own and from a
shared package, a ``load_yaml`` parameter file, xacro arguments with defaults, and
``package://`` STL meshes (a closed tetrahedron) on the hull's collision. As in DAVE, most files
are xacro and most of those are fragments. Used by ``benchmarks/bench_xacro_tree.py`` and ``tests/test_audit_cache_xacro.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: A closed tetrahedron (ASCII STL), the mesh every hull collides with.
TETRA_STL = """solid t
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 1 0
vertex 1 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 0 1
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0 1
vertex 0 1 0
endloop
endfacet
facet normal 1 1 1
outer loop
vertex 1 0 0
vertex 0 1 0
vertex 0 0 1
endloop
endfacet
endsolid t
"""

_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'

SHARED = "shared_description"


def _fragment(name: str, k: int) -> str:
    """A macro-only fragment: a thruster-like link and its joint, with a sensor from the shared
    snippets (which it includes)."""
    return f"""<?xml version="1.0"?>
<robot {_NS}>
  <xacro:include filename="$(find {SHARED})/urdf/snippets.xacro"/>
  <xacro:property name="{name}_mass" value="{0.5 + k * 0.01:.3f}"/>
  <xacro:macro name="{name}" params="parent id x:=0 y:=0 z:=0">
    <link name="${{parent}}_{name}_${{id}}">
      <inertial>
        <origin xyz="0 0 0" rpy="0 ${{pi/2}} 0"/>
        <mass value="${{{name}_mass}}"/>
        <inertia ixx="${{{name}_mass*0.01}}" ixy="0" ixz="0" iyy="${{{name}_mass*0.01}}"
                 iyz="0" izz="${{{name}_mass*0.015}}"/>
      </inertial>
      <collision><geometry><cylinder radius="0.05" length="0.1"/></geometry></collision>
    </link>
    <xacro:sensor_{k % 40} namespace="${{parent}}" parent_link="${{parent}}_{name}_${{id}}"/>
    <joint name="${{parent}}_{name}_${{id}}_joint" type="fixed">
      <origin xyz="${{x}} ${{y}} ${{z}}" rpy="0 0 0"/>
      <parent link="${{parent}}"/><child link="${{parent}}_{name}_${{id}}"/>
    </joint>
  </xacro:macro>
</robot>
"""


def _snippets(count: int = 40) -> str:
    """A library of sensor macros (a ``<gazebo>`` plugin block each), as uuv_simulator's
    sensor snippets that every DAVE robot and many of its fragments include."""
    macros = []
    for k in range(count):
        macros.append(f"""  <xacro:macro name="sensor_{k}" params="namespace parent_link rate:=10 noise:=0.01">
    <gazebo>
      <plugin filename="libsensor_{k}_plugin.so" name="${{namespace}}_sensor_{k}">
        <robot_namespace>${{namespace}}</robot_namespace>
        <link_name>${{parent_link}}</link_name>
        <update_rate>${{rate}}</update_rate>
        <noise_sigma>${{noise * {k + 1}}}</noise_sigma>
        <noise_amplitude>${{noise * 2 * {k + 1}}}</noise_amplitude>
        <topic>${{namespace}}/sensor_{k}</topic>
        <offset>${{0.1 * {k}}} 0 ${{-0.05 * {k}}}</offset>
      </plugin>
    </gazebo>
  </xacro:macro>""")
    return "\n".join(['<?xml version="1.0"?>', f"<robot {_NS}>", *macros, "</robot>", ""])


def _hull(pkg: str) -> str:
    """The hull macro: parameters from a YAML file, a ``package://`` mesh collision."""
    return f"""<?xml version="1.0"?>
<robot {_NS}>
  <xacro:property name="params" value="${{xacro.load_yaml('$(find {pkg})/config/hull.yaml')}}"/>
  <xacro:macro name="hull" params="name mass">
    <link name="${{name}}">
      <inertial>
        <mass value="${{mass}}"/>
        <inertia ixx="${{params['ixx']}}" ixy="0" ixz="0" iyy="${{params['iyy']}}" iyz="0"
                 izz="${{params['izz']}}"/>
      </inertial>
      <collision>
        <geometry><mesh filename="package://{pkg}/meshes/hull.stl"/></geometry>
      </collision>
      <visual>
        <geometry><mesh filename="package://{pkg}/meshes/hull.stl"/></geometry>
      </visual>
    </link>
  </xacro:macro>
</robot>
"""


def _robot(pkg: str, name: str, fragments: list[str], shared: list[str]) -> str:
    """A top-level robot: arguments, includes through ``$(find)``, macro calls."""
    includes = [f'  <xacro:include filename="$(find {SHARED})/urdf/snippets.xacro"/>',
                f'  <xacro:include filename="$(find {pkg})/urdf/hull.xacro"/>']
    includes += [f'  <xacro:include filename="$(find {pkg})/urdf/{f}.xacro"/>' for f in fragments]
    includes += [f'  <xacro:include filename="$(find {SHARED})/urdf/{f}.xacro"/>'
                 for f in shared]
    calls = []
    for i, f in enumerate([*fragments, *shared]):
        calls += [f'  <xacro:{f} parent="base_link" id="{j}" x="{0.1 * i:.1f}" y="{0.1 * j:.1f}"/>'
                  for j in range(2)]
    return "\n".join([
        '<?xml version="1.0"?>',
        f'<robot name="{name}" {_NS}>',
        '  <xacro:arg name="mass" default="20"/>',
        '  <xacro:arg name="namespace" default="auv"/>',
        *includes,
        '  <xacro:hull name="base_link" mass="$(arg mass)"/>',
        *calls,
        *[f'  <xacro:sensor_{k} namespace="$(arg namespace)" parent_link="base_link"/>'
          for k in range(0, 40, 4)],
        "</robot>",
        "",
    ])


@dataclass(frozen=True)
class Workspace:
    """What :func:`build_workspace` wrote: the package path to give, the robots and fragments,
    and, per package, its folder."""

    root: Path
    robots: list[Path]
    fragments: list[Path]
    packages: dict[str, Path]

    @property
    def files(self) -> int:
        """The xacro files written."""
        return len(self.robots) + len(self.fragments)


def _package(root: Path, pkg: str) -> Path:
    folder = root / pkg
    (folder / "urdf").mkdir(parents=True)
    (folder / "meshes").mkdir()
    (folder / "config").mkdir()
    (folder / "package.xml").write_text(
        f'<?xml version="1.0"?>\n<package format="3"><name>{pkg}</name></package>\n')
    (folder / "meshes" / "hull.stl").write_text(TETRA_STL)
    (folder / "config" / "hull.yaml").write_text("ixx: 0.5\niyy: 0.6\nizz: 0.7\n")
    return folder


def build_workspace(root: Path, files: int = 150, packages: int = 10) -> Workspace:
    """Writes the workspace under ``root`` (which must not hold one yet): about ``files`` xacro
    files over ``packages`` packages plus the shared one; a quarter of them robots."""
    shared_folder = _package(root, SHARED)
    shared_names = [f"shared_sensor_{k}" for k in range(4)]
    (shared_folder / "urdf" / "snippets.xacro").write_text(_snippets())
    fragments: list[Path] = [shared_folder / "urdf" / "snippets.xacro"]
    for k, name in enumerate(shared_names):
        path = shared_folder / "urdf" / f"{name}.xacro"
        path.write_text(_fragment(name, k))
        fragments.append(path)
    robots: list[Path] = []
    per_package = max(2, (files - len(shared_names)) // packages)
    n_robots = max(1, per_package // 4)
    n_fragments = per_package - n_robots - 1  # the hull is one fragment
    folders = {SHARED: shared_folder}
    for p in range(packages):
        pkg = f"vehicle{p}_description"
        folder = folders[pkg] = _package(root, pkg)
        (folder / "urdf" / "hull.xacro").write_text(_hull(pkg))
        fragments.append(folder / "urdf" / "hull.xacro")
        names = [f"{pkg}_part{k}" for k in range(n_fragments)]
        for k, name in enumerate(names):
            path = folder / "urdf" / f"{name}.xacro"
            path.write_text(_fragment(name, k))
            fragments.append(path)
        for r in range(n_robots):
            used = names[r::n_robots] or names[:1]
            path = folder / "urdf" / f"robot{r}.urdf.xacro"
            path.write_text(_robot(pkg, f"{pkg}_robot{r}", used, shared_names[r % 2::2]))
            robots.append(path)
    return Workspace(root, robots, fragments, folders)
