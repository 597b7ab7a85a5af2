"""Reading COLLADA meshes: time against triangle count, next to the same mesh as binary STL.

Run: ``python benchmarks/bench_collada.py [--repeats 3] [--max-subdivisions 7] [--quick]``

For icospheres of 2 to ``--max-subdivisions`` subdivisions (320 to 327,680 triangles), written
as a DAE (positions and normals, their own index offsets, as Blender writes them) and as a binary
STL, the median wall time of ``gzinertia.io.mesh_trimesh.load_mesh_file`` on each (a fresh read: the
loader itself does not cache), the time per triangle, and the exponent of ``log t`` against
``log n`` over the three largest sizes (1 is linear). The DAE is parsed by lxml and decoded in
double precision by ``gzinertia.io.mesh_collada``; the STL by trimesh.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

from common import REPO, machine_description, median_seconds, print_table

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-subdivisions", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="up to 20,480 triangles, once")
    args = parser.parse_args()
    if args.quick:
        args.max_subdivisions, args.repeats = min(args.max_subdivisions, 4), 1

    import trimesh
    from test_collada import collada, geometry_xml  # the tests' COLLADA writer

    from gzinertia.io.mesh_trimesh import load_mesh_file

    rows, sizes, times = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for subdivisions in range(2, args.max_subdivisions + 1):
            sphere = trimesh.creation.icosphere(subdivisions=subdivisions)
            dae = Path(tmp) / f"s{subdivisions}.dae"
            stl = Path(tmp) / f"s{subdivisions}.stl"
            dae.write_text(collada(geometry_xml("s", sphere),
                                   '<node name="s"><instance_geometry url="#s"/></node>'))
            sphere.export(stl)
            t_dae = median_seconds(lambda d=dae: load_mesh_file(str(d)), args.repeats)
            t_stl = median_seconds(lambda s=stl: load_mesh_file(str(s)), args.repeats)
            n = len(sphere.faces)
            sizes.append(n)
            times.append(t_dae)
            rows.append([f"{n:,}", f"{dae.stat().st_size / 1e6:.2f}", f"{t_dae * 1e3:.1f}",
                         f"{t_dae / n * 1e6:.2f}", f"{t_stl * 1e3:.1f}"])
    print("\n".join(machine_description()))
    print_table(["triangles", "DAE MB", "DAE ms", "DAE µs/triangle", "STL ms"], rows)
    if len(sizes) >= 3:
        k = math.log(times[-1] / times[-3]) / math.log(sizes[-1] / sizes[-3])
        print(f"exponent of t against n over the three largest sizes: {k:.2f}")


if __name__ == "__main__":
    main()
