"""The audit's worker processes: the pool that checks files in parallel (``--jobs``), reached
through :mod:`gzinertia.audit`'s face only by a run that checks enough files with more than one
job (importing the process pool costs about 14 ms, which a cached run does without).
"""

import concurrent.futures

__all__ = ["process_pool"]


def process_pool(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes (forked where the platform forks: each inherits
    what the parent imported before, :func:`gzinertia.audit.runner` preloads the checks)."""
    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs)
