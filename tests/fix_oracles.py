"""Oracles the repair tests share: what libsdformat and Drake's ``fix_inertia`` make of a file,
and random inertias just outside the valid set."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

LINK_INERTIA_INVALID = 18  # sdf::ErrorCode::LINK_INERTIA_INVALID in libsdformat 12


def libsdformat_inertia_errors(path: Path) -> list[str]:
    """What libsdformat (the compiled oracle) says of the file's link inertias: the messages of
    its ``LINK_INERTIA_INVALID`` errors (skips where the oracle cannot be built)."""
    from oracles.sdformat_oracle import build_sdformat_dump, read_with_sdformat

    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    [result] = read_with_sdformat([path])
    assert result["root"] != "none", result["errors"][:3]
    return [e["message"] for e in result["errors"] if e["code"] == LINK_INERTIA_INVALID]


def drake_fix_inertia(path: Path, role: str = "proximity") -> dict[str, np.ndarray]:
    """Drake's fix_inertia result per body (scoped name): ``M_BBo_B`` angular-first, at full
    precision, from the collision (proximity) geometry with the body's declared mass."""
    from pydrake.geometry import Role, SceneGraph
    from pydrake.multibody import _inertia_fixer
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant
    from pydrake.multibody.tree import BodyIndex

    plant = MultibodyPlant(0.0)
    scene_graph = SceneGraph()
    plant.RegisterAsSourceForSceneGraph(scene_graph)
    Parser(plant).AddModels(str(path))
    roles = {"proximity": Role.kProximity, "illustration": Role.kIllustration}
    processor = _inertia_fixer.InertiaProcessor(plant, scene_graph, None, [roles[role]])
    out = {}
    for i in range(1, plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        fixed = processor._maybe_fix_inertia(BodyIndex(i))
        if fixed is None:
            continue
        M_BBcm_B, pose = fixed
        M_BBo_B = M_BBcm_B.Shift(-np.asarray(pose[:3]))
        name = f"{plant.GetModelInstanceName(body.model_instance())}::{body.name()}"
        out[name] = M_BBo_B.CopyToFullMatrix6()
    return out


def near_valid_inertia(seed: int) -> np.ndarray:
    """A random inertia (random axes) just outside the valid set: a triangle inequality or the
    smallest moment broken by up to 20 % of the largest moment."""
    rng = np.random.default_rng(seed)
    lam = np.sort(rng.uniform(0.05, 1.0, size=3))
    kind = seed % 3
    if kind == 0:  # triangle broken
        lam[2] = lam[0] + lam[1] + rng.uniform(1e-12, 0.2) * lam[2]
    elif kind == 1:  # a slightly negative moment
        lam[0] = -rng.uniform(1e-12, 0.2) * lam[2]
    else:  # both at once, in shuffled order
        lam[0] = -rng.uniform(0.0, 0.1) * lam[2]
        lam[2] = lam[1] + rng.uniform(0.0, 0.2) * lam[2]
        rng.shuffle(lam)
    R = Rotation.random(random_state=seed).as_matrix()
    return R @ np.diag(lam) @ R.T
