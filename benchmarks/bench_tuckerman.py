"""Throughput of the closed-form ellipsoid added mass against MuJoCo's compiler.

Run: ``python benchmarks/bench_tuckerman.py [--n 1000000] [--n-mujoco 4000] [--repeats 5]
[--quick]``

Times, on N random ellipsoids (semi-axes log-uniform in [0.01, 1] m, so aspect ratios up to
1:100; one vectorised call each):

* ``gzinertia.spatial.tuckerman.ellipsoid_added_mass`` (κ, m_A and I_A) and ``tuckerman_kappa`` (κ
only);
* for scale, ``scipy.special.elliprd`` on the 3N argument triples that κ needs (what
  ``tuckerman_kappa`` called before it computed κ and the moment integrals in one duplication
  loop), and the agreement of the two κ;
* one call of ``ellipsoid_added_mass`` on a single ellipsoid (what the audit does per link);
* MuJoCo compiling one model whose single free body holds M ellipsoid geoms with
  ``fluidshape="ellipsoid"`` (MuJoCo then integrates κ and stores m_A, I_A in ``geom_fluid``),
  and the same model without ``fluidshape``: the difference estimates MuJoCo's own added-mass
  work, the first number is an upper bound on it. One body with many geoms keeps MuJoCo's
  compile time linear in M (many free bodies make it superlinear).

Prints the median of the repeats as ellipsoids per second. Target: >= 1e6 ellipsoids/s for
``ellipsoid_added_mass``.
"""

from __future__ import annotations

import argparse
import statistics
import timeit

import mujoco
import numpy as np
from common import machine_description, median_seconds, print_table
from scipy.special import elliprd

from gzinertia.spatial.tuckerman import FLUID_DENSITIES, ellipsoid_added_mass, tuckerman_kappa

TARGET = 1e6


def random_semi_axes(n: int, seed: int = 0) -> np.ndarray:
    """n ellipsoids, semi-axes log-uniform in [0.01, 1] m (aspect ratios up to 1:100)."""
    rng = np.random.default_rng(seed)
    return np.exp(rng.uniform(np.log(0.01), 0.0, size=(n, 3)))


def mujoco_xml(semi_axes: np.ndarray, density: float, fluid: bool) -> str:
    shape = ' fluidshape="ellipsoid"' if fluid else ""
    geoms = "".join(
        f'<geom type="ellipsoid" size="{a!r} {b!r} {c!r}"{shape} contype="0" conaffinity="0"/>'
        for a, b, c in semi_axes.tolist()
    )
    return (
        f'<mujoco><option density="{density!r}" viscosity="0"/>'
        f"<worldbody><body><freejoint/>{geoms}</body></worldbody></mujoco>"
    )


def scipy_kappa(axes: np.ndarray) -> np.ndarray:
    """κ by scipy's R_D on the 3N triples (the method tuckerman_kappa used before)."""
    s = axes / axes.max(axis=-1, keepdims=True)
    x = s * s
    j, k = [1, 2, 0], [2, 0, 1]
    return (2.0 / 3.0) * np.prod(s, axis=-1, keepdims=True) * elliprd(x[:, j], x[:, k], x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="ellipsoids for gzinertia")
    parser.add_argument("--n-mujoco", type=int, default=4000, help="ellipsoids for MuJoCo")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="100,000 and 1,000 ellipsoids")
    args = parser.parse_args()
    if args.quick:
        args.n, args.n_mujoco, args.repeats = 100_000, 1000, 3
    rho = FLUID_DENSITIES["seawater"]
    for line in machine_description(("numpy", "scipy", "mujoco")):
        print(line)

    axes = random_semi_axes(args.n)
    ellipsoid_added_mass(axes[:1000], rho)  # warm-up
    t_added = median_seconds(lambda: ellipsoid_added_mass(axes, rho), args.repeats)
    t_kappa = median_seconds(lambda: tuckerman_kappa(axes), args.repeats)
    t_scipy = median_seconds(lambda: scipy_kappa(axes), args.repeats)
    agreement = float(np.max(np.abs(tuckerman_kappa(axes) / scipy_kappa(axes) - 1.0)))
    one = axes[0]
    t_one = min(timeit.repeat(lambda: ellipsoid_added_mass(one, rho), number=200, repeat=5)) / 200

    axes_mj = random_semi_axes(args.n_mujoco, seed=1)
    with_fluid = mujoco_xml(axes_mj, rho, fluid=True)
    without = mujoco_xml(axes_mj, rho, fluid=False)
    t_mj, t_mj0 = [], []
    for _ in range(args.repeats):  # interleaved: load hits both alike
        t_mj.append(median_seconds(lambda: mujoco.MjModel.from_xml_string(with_fluid), 1))
        t_mj0.append(median_seconds(lambda: mujoco.MjModel.from_xml_string(without), 1))
    t_mujoco, t_mujoco0 = statistics.median(t_mj), statistics.median(t_mj0)

    def row(name: str, count: int, seconds: float) -> list[object]:
        if seconds <= 0.0:
            return [name, f"{count:,}", f"{seconds:.4f}", "below noise", ""]
        return [
            name,
            f"{count:,}",
            f"{seconds:.4f}",
            f"{count / seconds:,.0f}",
            f"{1e6 * seconds / count:.3f}",
        ]

    print(f"\nmedian of {args.repeats} runs")
    print_table(
        ["what", "ellipsoids", "seconds", "ellipsoids/s", "µs each"],
        [
            row("gzinertia ellipsoid_added_mass", args.n, t_added),
            row("gzinertia tuckerman_kappa", args.n, t_kappa),
            row("scipy elliprd x3 (κ only)", args.n, t_scipy),
            row("gzinertia ellipsoid_added_mass, 1 call", 1, t_one),
            row("mujoco compile, fluidshape", args.n_mujoco, t_mujoco),
            row("mujoco compile, no fluidshape", args.n_mujoco, t_mujoco0),
            row("mujoco difference (fluid work)", args.n_mujoco, t_mujoco - t_mujoco0),
        ],
    )
    rate = args.n / t_added
    verdict = "met" if rate >= TARGET else "missed"
    print(f"target >= {TARGET:.0e} ellipsoids/s for ellipsoid_added_mass: {verdict} ({rate:.3g}/s)")
    print(f"max relative difference of κ from scipy's elliprd: {agreement:.2e}")


if __name__ == "__main__":
    main()
