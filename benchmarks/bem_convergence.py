"""Convergence of ``addmass --bem`` to Tuckerman's closed form on ellipsoids (docs/bem.md table).

Run: ``python benchmarks/bem_convergence.py [--quick]``

For a 0.3 x 0.15 x 0.1 m ellipsoid (three distinct semi-axes) and a 2:1 prolate spheroid, each
posed off the link origin and turned, at each ``--quality`` (and one finer panel size): the panel
count, the largest relative error of the linear and of the angular block against the closed
form moved to the link origin (``gzinertia.spatial.tuckerman`` + the exact change of point),
and the error the tool reports for itself (from its coarser second solve).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import machine_description, print_table
from scipy.spatial.transform import Rotation

from gzinertia.physics.bem import QUALITY_PANELS, bem_added_mass
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.spatial.rotation import Pose
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

BODIES = {
    "ellipsoid 0.3 x 0.15 x 0.1": (0.3, 0.15, 0.1),
    "prolate 0.4 x 0.2 x 0.2": (0.4, 0.2, 0.2),
}
X_BE = Pose(np.array([0.12, -0.05, 0.04]), Rotation.from_euler("xyz", [0.3, -0.5, 0.8]).as_matrix())


def _block_error(A: np.ndarray, exact: np.ndarray, rows: slice) -> float:
    return float(
        np.max(np.abs(A[rows, rows] - exact[rows, rows])) / np.max(np.abs(exact[rows, rows]))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fast and default only")
    args = parser.parse_args()
    for line in machine_description(["capytaine", "manifold3d"]):
        print(line)
    qualities = ["fast", "default"] if args.quick else list(QUALITY_PANELS)
    rows = []
    for name, axes in BODIES.items():
        collision = Collision("hull", X_BE, Geometry("ellipsoid", size=axes), SourceRef("e", 1))
        exact = AddedMass(ellipsoid_added_mass_matrix(axes, 1000.0), "Eo", "E").in_link(X_BE).A
        for quality in qualities:
            start = time.perf_counter()
            r = bem_added_mass([collision], 1000.0, quality=quality, use_cache=False)  # type: ignore[arg-type]
            secs = time.perf_counter() - start
            A = r.A_BBo_B.symmetric().A
            rows.append(
                (
                    name,
                    quality,
                    r.panels,
                    f"{100 * _block_error(A, exact, slice(0, 3)):.2f} %",
                    f"{100 * _block_error(A, exact, slice(3, 6)):.2f} %",
                    f"{100 * r.relative_error:.2f} %",
                    f"{secs:.1f}",
                )
            )
    print_table(
        ("body", "quality", "panels", "linear error", "angular error", "reported error", "seconds"),
        rows,
    )


if __name__ == "__main__":
    main()
