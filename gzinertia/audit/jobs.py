"""How many worker processes an audit starts (:func:`gzinertia.audit.runner.audit`'s ``jobs``):
the CPUs this process may use, capped. Named from :mod:`gzinertia.audit.runner` too."""

from __future__ import annotations

import os

__all__ = ["MAX_JOBS", "capped_jobs", "default_jobs"]


def _cpus() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_jobs() -> int:
    """Worker processes for a large audit: the CPUs this process may use, at most 8."""
    return max(1, min(_cpus(), 8))


#: The most worker processes an audit starts, whatever ``--jobs`` asks for.
MAX_JOBS = 64


def capped_jobs(requested: int) -> tuple[int, str | None]:
    """``requested`` worker processes capped at the CPUs this process may use and at
    :data:`MAX_JOBS` (an audit is CPU-bound: more processes only cost memory and start-up),
    and a note saying so when it was capped (``None`` otherwise). The pool is also never
    larger than the number of files to check."""
    cpus = _cpus()
    jobs = max(1, min(requested, cpus, MAX_JOBS))
    if jobs == requested:
        return jobs, None
    return jobs, (
        f"--jobs {requested} capped to {jobs} (CPUs available: {cpus}; at most {MAX_JOBS})"
    )
