"""Drake's URDF parser (pydrake), which does not lump fixed joints, as the oracle for gzinertia's
link records *before* libsdformat's conversion (``read_urdf_file(..., lump=False)``).

Per link (every link but ``world``, massless ones too): ``X_WB`` (default configuration: every
joint at zero) and ``M_BBo_B`` (6x6, angular-first, about the link origin in link axes), to
``‖ours − theirs‖ ≤ 1e-12·max(1, ‖theirs‖)``. The robots are those of :mod:`urdfgen`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

pytest.importorskip("pydrake")

from oracles.drake_oracle import load_in_drake
from urdfgen import random_urdf

from gzinertia.urdf import read_urdf_file

RTOL = 1e-12
SEEDS = range(0, 120)


def _rel(ours: np.ndarray, ref: np.ndarray) -> float:
    return float(np.linalg.norm(ours - ref) / max(1.0, float(np.linalg.norm(ref))))


def test_unlumped_records_equal_drakes_bodies(tmp_path: Path) -> None:
    compared = 0
    for seed in SEEDS:
        path = tmp_path / f"gen{seed}.urdf"
        path.write_text(random_urdf(seed).text)
        theirs = load_in_drake(path)
        assert theirs.links is not None, (seed, theirs.error)
        ours = read_urdf_file(path, lump=False)
        assert {r.name for r in ours.links} == set(theirs.links) | set(theirs.excluded), seed
        for rec in ours.links:
            if rec.name in theirs.excluded:
                continue
            X_WB, M_BBo_B = theirs.links[rec.name]
            errors = {
                "p_WB": _rel(np.asarray(rec.X_WB.p), X_WB[:3, 3]),
                "R_WB": _rel(np.asarray(rec.X_WB.R), X_WB[:3, :3]),
                "M_BBo_B": _rel(rec.M_BBo_B.angular_first(), M_BBo_B),
            }
            assert max(errors.values()) <= RTOL, (seed, rec.name, errors)
            compared += 1
    assert compared > 400


def test_lumping_conserves_the_total_spatial_inertia(tmp_path: Path) -> None:
    """Lumping only merges bodies: about the model origin, the sum of the kept links'
    spatial inertias equals the sum of Drake's bodies' (massless links, dropped with their
    subtrees, excluded: none below a kept link's fixed joints, by construction checked here)."""

    def about_model_origin(X_WB: np.ndarray, M_BBo_B: np.ndarray) -> np.ndarray:
        # angular-first: M_W = Φᵀ·(R M_B Rᵀ)·Φ with Φ = [[1, 0], [-[p]×, 1]] moving Bo to Wo
        R, p = X_WB[:3, :3], X_WB[:3, 3]
        Rb = np.block([[R, np.zeros((3, 3))], [np.zeros((3, 3)), R]])
        px = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
        Phi = np.block([[np.eye(3), np.zeros((3, 3))], [-px, np.eye(3)]])
        return Phi.T @ (Rb @ M_BBo_B @ Rb.T) @ Phi

    checked = 0
    for seed in SEEDS:
        g = random_urdf(seed)
        path = tmp_path / f"gen{seed}.urdf"
        path.write_text(g.text)
        lumped = read_urdf_file(path)
        if any(n.code == "urdf-massless-link-dropped" for n in lumped.notes):
            continue
        theirs = load_in_drake(path)
        assert theirs.links is not None
        total_drake = sum(about_model_origin(X, M) for X, M in theirs.links.values())
        total_ours = sum(
            about_model_origin(r.X_WB.matrix(), r.M_BBo_B.angular_first()) for r in lumped.links
        )
        assert _rel(total_ours, total_drake) <= RTOL, seed
        checked += 1
    assert checked > 60
