"""Does ``addmass --bem``'s reported error bound the true error? (docs/bem.md, *Sharp edges*)

Run: ``python benchmarks/bem_error_bound.py [--quick] [--references FILE.json]``

For boxes of several aspect ratios and a cylinder (sharp edges), and a sphere and an ellipsoid
(smooth), at each ``--quality``: the panel count, whether the tool found sharp edges, the true
error in the metric the tool reports (each block's largest entry error relative to its scale,
the largest over the blocks), the reported figure, their ratio, the largest ratio of an entry's
true error to its reported bound (at most 1: the bound holds), and ``k`` = each block's
relative true error divided by ``h/ℓ`` (what the sharp-edge floor must cover).

References: the sphere and the ellipsoid by Tuckerman's closed form; the boxes and the cylinder
by Capytaine on structured quadrilateral meshes (its own ``mesh_parallelepiped`` and
``mesh_vertical_cylinder``) at three resolutions, Richardson-extrapolated with a fitted order
(``tests/oracles/capytaine_oracle.py::richardson_reference``), with its uncertainty, which is
added to the true error. ``--references`` keeps the references between runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from common import REPO, machine_description, print_table

sys.path.insert(0, str(REPO / "tests"))

from oracles.capytaine_oracle import richardson_reference

from gzinertia.physics.bem import QUALITY_PANELS, bem_added_mass
from gzinertia.physics.bem_error import BLOCKS, block_scales
from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose
from gzinertia.spatial.tuckerman import ellipsoid_added_mass_matrix

DENSITY = 1000.0
#: name: (gzinertia geometry, reference kind, dimensions, Richardson levels).
BODIES: dict[str, tuple[Geometry, str, tuple[float, ...], tuple[int, int, int]]] = {
    "cube 1 m": (Geometry("box", size=(1.0, 1.0, 1.0)), "box", (1.0, 1.0, 1.0), (16, 24, 32)),
    "box 1 x 0.5 x 0.25": (
        Geometry("box", size=(1.0, 0.5, 0.25)), "box", (1.0, 0.5, 0.25), (24, 36, 48)
    ),
    "plate 1 x 1 x 0.1": (
        Geometry("box", size=(1.0, 1.0, 0.1)), "box", (1.0, 1.0, 0.1), (20, 28, 40)
    ),
    "cylinder r 0.25, L 1": (
        Geometry("cylinder", radius=0.25, length=1.0), "cylinder", (0.25, 1.0), (40, 56, 80)
    ),
    "sphere r 0.5": (Geometry("sphere", radius=0.5), "ellipsoid", (0.5, 0.5, 0.5), (0, 0, 0)),
    "ellipsoid 0.3 x 0.15 x 0.1": (
        Geometry("ellipsoid", size=(0.3, 0.15, 0.1)), "ellipsoid", (0.3, 0.15, 0.1), (0, 0, 0)
    ),
}


def reference(name: str, cache: dict[str, list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """The converged matrix and its uncertainty (6x6 each), from ``cache`` when there."""
    _, kind, dims, levels = BODIES[name]
    if kind == "ellipsoid":
        return ellipsoid_added_mass_matrix(dims, DENSITY), np.zeros((6, 6))
    if name not in cache:
        A, u = richardson_reference(kind, dims, levels, DENSITY)
        cache[name] = [*A.ravel().tolist(), *u.ravel().tolist()]
    values = np.asarray(cache[name])
    return values[:36].reshape(6, 6), values[36:].reshape(6, 6)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fast and default only")
    parser.add_argument("--references", type=Path, help="JSON file keeping the references")
    parser.add_argument("--body", action="append", help="only these bodies (names as listed)")
    args = parser.parse_args()
    for line in machine_description(["capytaine", "manifold3d"]):
        print(line)
    cache: dict[str, list[float]] = {}
    if args.references is not None and args.references.exists():
        cache = json.loads(args.references.read_text())
    qualities = ["fast", "default"] if args.quick else list(QUALITY_PANELS)
    rows = []
    for name, (geometry, *_) in BODIES.items():
        if args.body and name not in args.body:
            continue
        exact, u = reference(name, cache)
        if args.references is not None:
            args.references.write_text(json.dumps(cache))
        collision = Collision("c", Pose(np.zeros(3), np.eye(3)), geometry, SourceRef("b", 1))
        for quality in qualities:
            r = bem_added_mass([collision], DENSITY, quality=quality, use_cache=False)  # type: ignore[arg-type]
            A = r.A_BBo_B.symmetric().linear_first()
            error = np.abs(A - exact) + u
            scales = block_scales(A, r.length_scale)
            block = [float(error[b].max()) / s for b, s in zip(BLOCKS, scales, strict=True)]
            true = max(block)
            h_l = r.panel_size / r.length_scale
            rows.append((
                name, quality, r.panels, f"{r.sharpest_edge:.0f}°",
                f"{100 * true:.2f} %", f"{100 * r.relative_error:.2f} %",
                f"{true / r.relative_error:.2f}", f"{float(np.max(error / r.error_bound)):.2f}",
                " ".join(f"{b / h_l:.2f}" for b in (block[0], block[1], block[3])),
                f"{100 * float(u.max()) / scales[0]:.2g} %",
            ))
            print(*rows[-1], sep=" | ", flush=True)
    print_table(
        ("body", "quality", "panels", "sharpest edge", "true", "reported", "true/reported",
         "max entry true/bound", "k lin cpl ang", "reference u"),
        rows,
    )


if __name__ == "__main__":
    main()
