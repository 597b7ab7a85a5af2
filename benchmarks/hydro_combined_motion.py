"""Accuracy of ``gzinertia hydro``'s damping terms for combined motion, against MuJoCo.

Run: ``python benchmarks/hydro_combined_motion.py`` (about 10 s). Prints the table quoted in
docs/fluid_forces.md ("Combined motion"); ``tests/test_hydro_combined.py`` runs the same
measurement and checks that the docs quote it.

Population (fixed seeds): :data:`N_ELLIPSOIDS` ellipsoids centred at the link origin with their
axes along the link's (the setting where single-axis motion is exact), semi-axes ``s·(1, b, c)``
in random order, ``b, c`` log-uniform in [0.1, 1] (aspect ratios up to 10), ``s`` in [0.1, 0.5] m,
MuJoCo's default coefficients, water (1025 kg/m³), no viscosity (the viscous terms are linear
and isotropic, hence exact in every direction). Motions: :data:`N_DIRECTIONS` random unit
translations ``v`` (no rotation) and as many random unit rotations ``ω`` (no translation),
the same for every ellipsoid; the error is scale-free in the speed.

For each motion the plugin's wrench (gz-sim's damping formula, :func:`plugin_wrench`) is compared
with MuJoCo's ``qfrc_fluid`` on the same ellipsoid (``fluidshape="ellipsoid"``) on the block the
motion drives: the force for a translation, the moment for a rotation; error
``‖W_plugin − W_MuJoCo‖ / ‖W_MuJoCo‖`` on that block. Two references:

* ``drag``: MuJoCo's quadratic drag only (a model with the Kutta and Magnus coefficients 0, and,
  for rotations, MuJoCo's gyroscopic added-mass moment ``(I_A∘ω)×ω`` taken out, computed from
  its ``geom_fluid``);
* ``whole``: everything MuJoCo applies on that block: drag plus Kutta lift for translations,
  angular drag plus ``(I_A∘ω)×ω`` for rotations. (A translation also gets MuJoCo's Munk moment
  ``(m_A∘v)×v`` on the other block; damping terms have no counterpart of it, the plugin's
  added-mass Coriolis term does: see docs/added_mass.md.)

Two sets of terms: the diagonal ``hydro`` writes by default, and with ``--cross-terms``
(:func:`gzinertia.physics.hydro_damping.quadratic_cross_terms` added).
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

import mujoco
import numpy as np

from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients
from gzinertia.physics.hydro_damping import (
    hydrodynamics_damping,
    plugin_wrench,
    quadratic_cross_terms,
    sum_damping,
)
from gzinertia.spatial.rotation import Pose

N_ELLIPSOIDS = 40
N_DIRECTIONS = 100
DENSITY = 1025.0


class Row(NamedTuple):
    motion: str  # "translation" | "rotation"
    reference: str  # "drag" | "whole"
    terms: str  # "diagonal" | "cross terms"
    median: float
    maximum: float


def population(n: int = N_ELLIPSOIDS, seed: int = 12) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        r = rng.uniform(0.1, 0.5) * np.array([1.0, *10 ** rng.uniform(-1.0, 0.0, size=2)])
        out.append(rng.permutation(r))
    return out


def directions(n: int = N_DIRECTIONS, seed: int = 13) -> np.ndarray:
    d = np.random.default_rng(seed).normal(size=(n, 3))
    return d / np.linalg.norm(d, axis=1)[:, None]


def _fmt(values: object) -> str:
    return " ".join(f"{float(x):.17g}" for x in np.ravel(np.asarray(values, dtype=float)))


def _mujoco_wrenches(
    ellipsoids: list[np.ndarray], states: np.ndarray, lift: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``qfrc_fluid`` as linear-first ``[f; τ]`` in link axes per (ellipsoid, state), and the
    ``geom_fluid`` added-mass coefficients per ellipsoid. Bodies sit at the origin unrotated."""
    coefs = EllipsoidFluidCoefficients()
    fluidcoef = coefs.as_mujoco() if lift else (*coefs.as_mujoco()[:3], 0.0, 0.0)
    bodies = "".join(
        f'<body pos="{3 * i} 0 0"><freejoint/><geom type="ellipsoid" size="{_fmt(r)}" '
        f'contype="0" conaffinity="0" fluidshape="ellipsoid" fluidcoef="{_fmt(fluidcoef)}"/>'
        "</body>"
        for i, r in enumerate(ellipsoids)
    )
    model = mujoco.MjModel.from_xml_string(
        f'<mujoco><option density="{DENSITY:.17g}" viscosity="0" gravity="0 0 0"/>'
        f"<worldbody>{bodies}</worldbody></mujoco>"
    )
    data = mujoco.MjData(model)
    out = np.zeros((len(ellipsoids), len(states), 6))
    for k, s in enumerate(states):
        data.qvel[:] = np.tile(s, len(ellipsoids))  # free joint: [v_W; ω_B], R_WB = 1
        mujoco.mj_forward(model, data)
        out[:, k, :] = data.qfrc_fluid.reshape(len(ellipsoids), 6)
    return out, np.array(model.geom_fluid[:, 6:12])


def _errors(plugin: np.ndarray, reference: np.ndarray, block: slice) -> np.ndarray:
    d = np.linalg.norm(plugin[..., block] - reference[..., block], axis=-1)
    return np.asarray(d / np.linalg.norm(reference[..., block], axis=-1)).ravel()


def measure(n_ellipsoids: int = N_ELLIPSOIDS, n_directions: int = N_DIRECTIONS) -> list[Row]:
    ellipsoids = population(n_ellipsoids)
    dirs = directions(n_directions)
    coefs = EllipsoidFluidCoefficients()
    params = {
        "diagonal": [hydrodynamics_damping(r, Pose(), DENSITY, 0.0, coefs) for r in ellipsoids],
    }
    params["cross terms"] = [
        sum_damping([p, quadratic_cross_terms(r, Pose(), DENSITY, coefs)])
        for p, r in zip(params["diagonal"], ellipsoids, strict=True)
    ]
    rows = []
    for motion, block in (("translation", slice(0, 3)), ("rotation", slice(3, 6))):
        states = np.zeros((len(dirs), 6))
        states[:, block] = dirs
        whole, geom_fluid = _mujoco_wrenches(ellipsoids, states, lift=True)
        drag, _ = _mujoco_wrenches(ellipsoids, states, lift=False)
        if motion == "rotation":  # take out MuJoCo's (I_A∘ω)×ω
            I_A = DENSITY * geom_fluid[:, None, 3:]
            drag[..., 3:] -= np.cross(I_A * dirs[None], dirs[None])
        for name, sets in params.items():
            plugin = np.array([plugin_wrench(p, states) for p in sets])
            for ref_name, ref in (("drag", drag), ("whole", whole)):
                e = _errors(plugin, ref, block)
                rows.append(Row(motion, ref_name, name, float(np.median(e)), float(np.max(e))))
    return rows


def table(rows: list[Row]) -> str:
    lines = [
        "| motion | MuJoCo reference | terms | median error | max error |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.motion} | {r.reference} | {r.terms} | {100 * r.median:.1f} % | "
            f"{100 * r.maximum:.1f} % |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.parse_args()
    print(table(measure()))


if __name__ == "__main__":
    main()
