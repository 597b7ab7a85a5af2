"""Shared test helpers: repository paths and random physical quantities."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "sdf_examples"
CORPUS = REPO.parent / "shared" / "corpus"

#: Values that hostile-input tests write into numeric SDF elements and attributes.
NASTY_VALUES = [b"nan", b"-inf", b"", b"1e999", b"x", b"1 2 3 4 5 6 7", b"-0", b"0x10", b"\x00",
                b"1e-400", b"\xc3\x28", b"&amp;", b"]]>", b"<a/>", b"-1e308"]

# `gzinertia audit` keeps a result cache in the working directory by default: the tests share
# one in a temporary folder instead (every CLI run in the suite goes through it, so results
# served from the cache are checked by the same assertions as fresh ones).
os.environ.setdefault("GZINERTIA_CACHE_DIR", tempfile.mkdtemp(prefix="gzinertia-test-cache-"))
# pytest-xdist's workers inherit the folder from the process that started them: each takes a
# folder of its own inside it, so that no worker's audit sees (or prunes) another's entries.
if (_WORKER := os.environ.get("PYTEST_XDIST_WORKER")) and os.environ["GZINERTIA_CACHE_DIR"]:
    _WORKER_CACHE = Path(os.environ["GZINERTIA_CACHE_DIR"]) / _WORKER
    _WORKER_CACHE.mkdir(mode=0o700, exist_ok=True)
    os.environ["GZINERTIA_CACHE_DIR"] = str(_WORKER_CACHE)
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


# ---------------------------------------------------------------------------------------------
# Selection. pyproject's ``addopts`` deselect the slow tests (``-m 'not slow'``), but a ``-m``
# on the command line replaces it, so ``pytest -m "not oracle"`` ran the slow ones too (issue 26).
# A marker expression that does not name ``slow`` now keeps them deselected; one that names it
# decides (``-m slow``, ``-m "oracle and not slow"``, ``-m "slow or not slow"`` for every test).
# The commands and what they select: README.md, "Which tests run".


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if re.search(r"\bslow\b", config.getoption("markexpr") or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


# ---------------------------------------------------------------------------------------------
# Parallel runs (``pytest -n auto``, README.md, "Running the suite in parallel"). The workers
# start with the environment of the process that starts them, so they compute on one thread
# each (OpenBLAS, Capytaine's OpenMP): N workers on N cores, not N times N threads waiting on
# each other. A value set by hand is kept.

#: The variables that set the number of threads of the BLAS and OpenMP libraries.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, called before it starts workers
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[object]) -> None:
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")


# ---------------------------------------------------------------------------------------------
# Oracles. A test that needs Drake, DART, MuJoCo, Capytaine or the libsdformat oracle program is
# marked ``@pytest.mark.oracle("pydrake")`` (the importable module, or "sdformat" for the
# compiled oracle): it runs under ``-m oracle`` and is skipped, alone, when that oracle is
# missing. Modules that also hold tests without an oracle import the oracle with
# :func:`oracle_module`, which imports it on first use, so that the module itself always loads.

#: Oracles that are not a Python module, and how to tell that they are there.
_PROGRAM_ORACLES = {"sdformat": "libsdformat 12 oracle program (g++, pkg-config sdformat12)"}


def _skip_unless_available(name: str) -> None:
    if name == "sdformat":
        from oracles.sdformat_oracle import build_sdformat_dump

        if build_sdformat_dump() is None:
            pytest.skip(f"needs the {_PROGRAM_ORACLES[name]}")
    else:
        pytest.importorskip(name, reason=f"needs the {name} oracle")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("oracle"):
        for name in mark.args:
            _skip_unless_available(name)


class _OracleModule:
    """A module imported on first attribute access; the test that touches a missing one is
    skipped (``pytest.importorskip``), not the whole test module."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: object | None = None

    def __getattr__(self, attribute: str) -> object:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if self._module is None:
            self._module = pytest.importorskip(self._name, reason=f"needs the {self._name} oracle")
        return getattr(self._module, attribute)


def oracle_module(name: str) -> Any:
    """``name`` imported lazily (see :class:`_OracleModule`)."""
    return _OracleModule(name)


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fails the test that uses it with TimeoutError after 60 s (SIGALRM), instead of letting a
    hang (a FIFO, a lock never released, an include bomb) stop the whole suite."""
    import signal

    def expire(*_: object) -> None:
        raise TimeoutError("the test took more than 60 s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def child_processes() -> set[int]:
    """The processes whose parent is this one, zombies (not reaped) included."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == os.getpid():
            found.add(int(stat.parent.name))
    return found
