"""The BEM result cache: one JSON record per solve in ``<cache dir>/bem/<key>.json`` (the
audit's cache directory, ``$GZINERTIA_CACHE_DIR`` or ``.gzinertia_cache``), read and written
through no symbolic link (:mod:`gzinertia.io.cache_folder`); a cache that cannot be read or
written only costs time."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gzinertia.errors import GzInertiaError
from gzinertia.io.cache_folder import default_cache_dir, load_cache_file, store_cache_file


def _cache_file(key: str) -> Path:
    return default_cache_dir() / "bem" / f"{key}.json"


def load_cached(key: str) -> dict[str, Any] | None:
    """The cached JSON record under ``key`` (parsed JSON, so ``Any``), or ``None`` (also when
    the cache would be reached through a symbolic link:
    :func:`~gzinertia.io.cache_folder.load_cache_file`)."""
    try:
        data = json.loads(load_cache_file(default_cache_dir(), _cache_file(key)))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return data


def store(key: str, data: dict[str, object]) -> None:
    """Stores a record atomically, through no symbolic link
    (:func:`~gzinertia.io.cache_folder.store_cache_file`); a cache that cannot be written only
    costs time."""
    with contextlib.suppress(OSError, GzInertiaError):
        store_cache_file(default_cache_dir(), _cache_file(key), json.dumps(data).encode())


def cached_solve(
    key: str, use_cache: bool, solve: Callable[[], dict[str, Any]]
) -> tuple[dict[str, Any], bool, float]:
    """The record stored under ``key`` if ``use_cache`` and one is stored, else ``solve()``'s
    (stored under ``key`` when ``use_cache``), with whether it came from the cache and the
    seconds spent reading or solving it. A record is ``{"key": key, **solve()}``: plain JSON
    (lists of floats, which round-trip exactly)."""
    cached = load_cached(key) if use_cache else None
    start = time.perf_counter()
    record = cached if cached is not None else {"key": key, **solve()}
    if cached is None and use_cache:
        store(key, record)
    return record, cached is not None, time.perf_counter() - start
