"""What ``--hull wrap`` costs as a mesh file grows (docs/meshes.md, *The wrap*).

Run: ``python benchmarks/bench_wrap.py [--quick]``

A torpedo (a cylinder of radius 0.1 m and length 0.9 m with a hemispherical nose, manifold3d)
with its tail cap removed, refined to edges of 0.06 m down to 0.0075 m (``--quick``: to
0.015 m): for each, the triangle count, the seconds of one
:func:`gzinertia.physics.mesh_wrap.wrapped` call in a fresh process, that process's peak
resident memory above the same process before the call, and the wrap's volume against the
closed torpedo's. The grid is fixed (at most 2^18 points), so the time grows with the winding
number's tree and the distance queries (``O(G·log F + F)``) and the memory with ``F``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from common import REPO, machine_description, print_table

_CHILD = """
import json, resource, sys, time
import numpy as np, manifold3d as m3, trimesh
from gzinertia.physics.mesh_wrap import wrapped
body = m3.Manifold.cylinder(0.9, 0.1, 0.1, 64) + m3.Manifold.sphere(0.1, 64).translate([0, 0, 0.9])
out = body.refine_to_length(float(sys.argv[1])).to_mesh64()
v = np.asarray(out.vert_properties, dtype=float)[:, :3]
f = np.asarray(out.tri_verts, dtype=np.int64)
closed = float(body.volume())
f = f[~np.all(np.abs(v[f][:, :, 2]) < 1e-9, axis=1)]  # the flat tail cap removed
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
wv, wf, how = wrapped(v, f, "bench")
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
volume = float(trimesh.Trimesh(wv, wf, process=False).volume)
print(json.dumps([len(f), seconds, peak / 1024.0, volume / closed - 1.0, how.cell]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="up to 0.015 m edges")
    args = parser.parse_args()
    for line in machine_description(["libigl", "manifold3d"]):
        print(line)
    lengths = [0.06, 0.03, 0.015] + ([] if args.quick else [0.0075])
    rows = []
    for length in lengths:
        out = subprocess.run([sys.executable, "-c", _CHILD, repr(length)], capture_output=True,
                             text=True, check=True, cwd=REPO).stdout
        faces, seconds, mib, error, cell = json.loads(out.splitlines()[-1])
        rows.append((f"{length:g}", faces, f"{seconds:.2f}", f"{mib:.0f}",
                     f"{100 * error:+.2f} %", f"{1000 * cell:.2f} mm"))
        print(*rows[-1], sep=" | ", flush=True)
    print_table(("edge (m)", "triangles", "seconds", "peak MiB added", "volume error", "cell"),
                rows)


if __name__ == "__main__":
    main()
