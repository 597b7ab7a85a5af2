"""How the hydrostatics time grows with the hull's triangle count (issue 15).

Run: ``python benchmarks/bench_hydrostatics.py [--repeats 3] [--quick]``

For icospheres of 320 to 327,680 triangles (``--quick``: up to 20,480), the median of
``--repeats`` runs of one exact slice by a plane (:func:`volume_below_plane`), of one waterplane
(:func:`waterplane`) and of a full floating equilibrium with trim
(:func:`solve_flotation`, G below the centre so the trim is found), then the exponent ``k`` of
``t ∝ n^k`` fitted over the sizes from 5,120 triangles up (1: linear).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import trimesh
from common import machine_description, median_seconds, print_table

from gzinertia.physics.flotation import solve_flotation, waterplane
from gzinertia.physics.volume_below import volume_below_plane


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for line in machine_description(["numpy", "trimesh"]):
        print(line)
    levels = range(1, 6) if args.quick else range(1, 8)
    rows, sizes, times = [], [], []
    for level in levels:
        mesh = trimesh.creation.icosphere(subdivisions=level, radius=1.0)
        t = np.asarray(mesh.triangles)
        n = len(t)
        slice_s = median_seconds(lambda t=t: volume_below_plane(t, 0.1), args.repeats)
        plane_s = median_seconds(lambda t=t: waterplane(t, 0.1), args.repeats)
        mass = 0.4 * 1000.0 * mesh.volume
        G = np.array([0.05, 0.02, -0.3])
        float_s = median_seconds(
            lambda t=t, m=mass, G=G: solve_flotation(t, m, G, 1000.0), 1)
        rows.append([n, f"{slice_s * 1e3:.2f}", f"{plane_s * 1e3:.2f}", f"{float_s:.3f}"])
        sizes.append(n)
        times.append(float_s)
    print_table(["triangles", "slice [ms]", "waterplane [ms]", "flotation [s]"], rows)
    big = [(math.log(n), math.log(s)) for n, s in zip(sizes, times, strict=True) if n >= 5120]
    if len(big) >= 2:
        k = np.polyfit(*zip(*big, strict=True), 1)[0]
        print(f"flotation time ∝ n^{k:.2f} over n ≥ 5120")


if __name__ == "__main__":
    main()
