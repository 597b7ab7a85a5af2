"""Shared test helpers: repository paths and random physical quantities."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "sdf_examples"
CORPUS = REPO.parent / "shared" / "corpus"

# `gzinertia audit` keeps a result cache in the working directory by default: the tests share
# one in a temporary folder instead (every CLI run in the suite goes through it, so results
# served from the cache are checked by the same assertions as fresh ones).
os.environ.setdefault("GZINERTIA_CACHE_DIR", tempfile.mkdtemp(prefix="gzinertia-test-cache-"))
# Fuel URLs resolve from the local Fuel caches: the suite sees empty ones, never the machine's
# (a developer's ~/.gz/fuel would otherwise change what the corpus audit finds).
_NO_FUEL = tempfile.mkdtemp(prefix="gzinertia-test-fuel-")
os.environ["GZ_FUEL_CACHE_PATH"] = _NO_FUEL
os.environ["IGN_FUEL_CACHE_PATH"] = _NO_FUEL

# Property tests are deterministic: a random draw must never decide whether a change lands.
# "deterministic" (the default, in CI and locally): derandomized, no example database, and a
# failure prints the blob that reproduces it (pin it with @example). HYPOTHESIS_PROFILE=explore
# draws at random with more examples, to look for new failures on purpose.
settings.register_profile(
    "deterministic", derandomize=True, database=None, print_blob=True, deadline=None
)
settings.register_profile("explore", max_examples=500, print_blob=True, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q @ np.diag(np.sign(np.diag(r)))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    return q


def random_valid_inertia(rng: np.random.Generator, mass: float) -> np.ndarray:
    """A rotational inertia about the CoM of a random solid box of this mass (in random axes)."""
    a, b, c = rng.uniform(0.05, 2.0, size=3)
    moments = mass / 12.0 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    R = random_rotation(rng)
    return R @ np.diag(moments) @ R.T


def random_spd6(rng: np.random.Generator) -> np.ndarray:
    A = rng.normal(size=(6, 6))
    return A @ A.T + 0.5 * np.eye(6)


def rel_err(a: np.ndarray, b: np.ndarray) -> float:
    """``‖a - b‖ / max(1, ‖b‖)`` (max-norms)."""
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(1.0, np.max(np.abs(b))))


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261122)


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Runs ``gzinertia ARGS`` in-process as the console script does; returns (status, out, err)."""
    import sys

    from gzinertia.cli import main

    old = sys.argv
    sys.argv = ["gzinertia", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = old
    out, err = capsys.readouterr()
    return code, out, err
