"""How ``gzinertia migrate``'s time grows with the number of links it migrates (issue 26: every
command linear in its input).

Run: ``python benchmarks/bench_migrate_links.py [--repeats 3] [--sizes 5 10 20 40]``

For each size n, one SDFormat 1.9 model of n links (a box collision and an inertial each) whose
UUV Simulator underwater-object plugin holds n link blocks, each LAUV's published block
(``tests/classic_vehicles.py``: added mass, linear and quadratic damping), so that every link
gets a ``<fluid_added_mass>`` and a new Hydrodynamics plugin. Times, in-process and after a
warm-up, the median of ``--repeats`` calls of :func:`gzinertia.edit.migrate.migrate` (the edit
made and read back, nothing written), and prints seconds per link: flat when the command is
linear in the number of links, growing with n when it is not.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from common import REPO, machine_description, median_seconds, print_table

sys.path.insert(0, str(REPO / "tests"))

from classic_vehicles import LAUV_LINK, LAUV_MASS

from gzinertia.edit.migrate import migrate

SIZES = (5, 10, 20, 40)


def uuv_links_model(n: int) -> str:
    """One model of ``n`` links ``link_0``... (1 m apart on x) and one underwater-object plugin
    holding LAUV's block for each."""
    links = "".join(f"""
    <link name="link_{i}">
      <pose>{i} 0 0 0 0 0</pose>
      <inertial>
        <mass>{LAUV_MASS}</mass>
        <inertia><ixx>0.1</ixx><iyy>1.8</iyy><izz>1.8</izz>
          <ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia>
      </inertial>
      <collision name="hull"><geometry><box><size>1.08 0.15 0.15</size></box></geometry>
      </collision>
    </link>""" for i in range(n))
    blocks = "".join(LAUV_LINK.replace('name="base_link"', f'name="link_{i}"')
                     for i in range(n))
    return f"""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="fleet">{links}
    <plugin name="uuv_plugin" filename="libuuv_underwater_object_ros_plugin.so">
      <fluid_density>1028</fluid_density>{blocks}
    </plugin>
  </model>
</sdf>
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    args = parser.parse_args()
    for line in machine_description(["lxml", "numpy"]):
        print(line)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            path = Path(tmp) / f"fleet_{n}.sdf"
            path.write_text(uuv_links_model(n), encoding="utf-8")
            edit = migrate(path)  # warm-up, and the check that every link was migrated
            if len(edit.links) != n or not edit.changed:
                raise SystemExit(f"{path}: migrate wrote {len(edit.links)} of {n} links")
            t = median_seconds(lambda p=path: migrate(p), args.repeats)
            rows.append([str(n), f"{t:.3f}", f"{t / n:.4f}"])
    print_table(["links", "seconds", "seconds per link"], rows)


if __name__ == "__main__":
    main()
