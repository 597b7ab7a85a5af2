"""How a link's hydrostatics time grows with its collision count, apart and overlapping (issue 24:
the exact volume is the union of the link's collisions).

Run: ``python benchmarks/bench_link_union.py [--repeats 3] [--quick]``

For links of n boxes (n = 10 to 2,560; ``--quick``: up to 640) in a row along x, laid out
**apart** (no union measured: the sweep finds no pair) and **overlapping** each its neighbour
(every box in the union, manifold3d's batch union), the median of ``--repeats`` runs of
:func:`gzinertia.physics.hydrostatics.link_hydrostatics` in a uniform fluid, then the exponent
``k`` of ``t ∝ n^k`` fitted over n ≥ 160 (1: linear); and the same for
:func:`gzinertia.physics.link_union.link_solid`, the body the fits, the plausibility rules,
``fix --method geometry`` and the plots take (volume, centroid and second moments of the union).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from common import machine_description, median_seconds, print_table

from gzinertia.physics.hydrostatics import link_hydrostatics
from gzinertia.physics.link_union import link_solid
from gzinertia.records import BuoyancyWorld, Collision, Geometry, Inertial, LinkRecord, SourceRef
from gzinertia.spatial.rotation import Pose


def _link(n: int, pitch: float) -> LinkRecord:
    """n unit boxes whose centres are ``pitch`` apart along x."""
    here = SourceRef("bench.sdf", 1)
    boxes = tuple(Collision(f"c{k}", Pose(np.array([pitch * k, 0.0, 0.0])),
                            Geometry("box", size=(1.0, 1.0, 1.0)), here) for k in range(n))
    return LinkRecord("m::body", "m", Pose(), Inertial(mass=1.0), boxes, here)


def _exponent(sizes: list[int], times: list[float]) -> float:
    big = [(math.log(n), math.log(t)) for n, t in zip(sizes, times, strict=True) if n >= 160]
    return float(np.polyfit(*zip(*big, strict=True), 1)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for line in machine_description(["numpy", "manifold3d"]):
        print(line)
    fluid = BuoyancyWorld("uniform", 1000.0)
    sizes = [10 * 4**k for k in range(4 if args.quick else 5)]
    rows: list[list[object]] = []
    times: dict[str, list[float]] = {k: [] for k in ("apart", "overlapping", "solid apart",
                                                      "solid overlapping")}
    for n in sizes:
        for key, pitch in (("apart", 2.0), ("overlapping", 0.5)):
            times[key].append(median_seconds(
                lambda n=n, p=pitch: link_hydrostatics(_link(n, p), fluid), args.repeats))
            times[f"solid {key}"].append(median_seconds(
                lambda n=n, p=pitch: link_solid(_link(n, p).collisions), args.repeats))
        rows.append([n, *(f"{t[-1] * 1e3:.1f}" for t in times.values())])
    print_table(["boxes", *(f"{k} [ms]" for k in times)], rows)
    print("; ".join(f"{k}: t ∝ n^{_exponent(sizes, t):.2f}" for k, t in times.items())
          + " (n ≥ 160)")

if __name__ == "__main__":
    main()
