"""Throughput of the closed-form ellipsoid added mass against MuJoCo's compiler.

Run: ``python benchmarks/bench_tuckerman.py [--n 1000000] [--n-mujoco 2000] [--repeats 5]``

Times ``tuckerman_kappa`` and ``ellipsoid_added_mass`` on N random ellipsoids (aspect ratios up to
1:100, one call each, vectorised) and MuJoCo compiling one model holding M fluid ellipsoids (one
free body each; compiling also parses the XML and builds everything else, so its rate is an upper
bound on MuJoCo's added-mass work). Prints the median of the repeats as ellipsoids per second.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

import mujoco
import numpy as np
import scipy

from gzinertia.tuckerman import FLUID_DENSITIES, ellipsoid_added_mass, tuckerman_kappa


def random_semi_axes(n: int, seed: int = 0) -> np.ndarray:
    """n ellipsoids, semi-axes log-uniform in [0.01, 1] m (aspect ratios up to 1:100)."""
    rng = np.random.default_rng(seed)
    return np.exp(rng.uniform(np.log(0.01), 0.0, size=(n, 3)))


def median_seconds(function: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def mujoco_xml(semi_axes: np.ndarray, density: float) -> str:
    bodies = "".join(
        f'<body><freejoint/><geom type="ellipsoid" size="{a!r} {b!r} {c!r}" '
        'fluidshape="ellipsoid"/></body>'
        for a, b, c in semi_axes.tolist()
    )
    return (
        f'<mujoco><option density="{density!r}" viscosity="0"/>'
        f"<worldbody>{bodies}</worldbody></mujoco>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="ellipsoids for gzinertia")
    parser.add_argument("--n-mujoco", type=int, default=2000, help="ellipsoids for MuJoCo")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rho = FLUID_DENSITIES["seawater"]

    axes = random_semi_axes(args.n)
    ellipsoid_added_mass(axes[:1000], rho)  # warm-up (imports, caches)
    t_kappa = median_seconds(lambda: tuckerman_kappa(axes), args.repeats)
    t_added = median_seconds(lambda: ellipsoid_added_mass(axes, rho), args.repeats)

    axes_mj = random_semi_axes(args.n_mujoco, seed=1)
    xml = mujoco_xml(axes_mj, rho)
    t_mujoco = median_seconds(lambda: mujoco.MjModel.from_xml_string(xml), args.repeats)

    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
        f"mujoco {mujoco.__version__}; median of {args.repeats} runs"
    )
    rows = [
        ("gzinertia tuckerman_kappa", args.n, t_kappa),
        ("gzinertia ellipsoid_added_mass", args.n, t_added),
        ("mujoco MjModel.from_xml_string", args.n_mujoco, t_mujoco),
    ]
    print(f"{'what':<34}{'ellipsoids':>12}{'seconds':>10}{'ellipsoids/s':>15}{'µs each':>10}")
    for name, count, seconds in rows:
        print(
            f"{name:<34}{count:>12,}{seconds:>10.3f}{count / seconds:>15,.0f}"
            f"{1e6 * seconds / count:>10.3f}"
        )


if __name__ == "__main__":
    main()
