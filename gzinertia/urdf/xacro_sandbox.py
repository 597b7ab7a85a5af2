"""Expanding xacro in a child process with a time and a memory limit.

xacro's ``${...}`` expressions are Python ``eval`` calls: xacro takes the builtins away but
not the time or memory an expression may take (``${2**2**40}``, ``${[0]*10**10}``,
``${sum(range(10**15))}``). Each expansion therefore runs in a child process:

* the child limits its own CPU time (``RLIMIT_CPU``, :data:`ENV_XACRO_SECONDS`, default
  :data:`DEFAULT_SECONDS` s) and the address space it may add (``RLIMIT_AS``,
  :data:`ENV_XACRO_MEMORY` MiB, default :data:`DEFAULT_MEMORY_MIB`) before it reads a byte;
* the parent waits at most :func:`wall_seconds` (three times the CPU limit, plus 5 s: the
  machine may be busy) of wall-clock time, then kills it;
* the child reads every file through :mod:`gzinertia.io.safe_read`, exactly as in-process
  expansion did, and sends back the text and the files it read (pickled, over a pipe).

The child is a ``fork`` of the calling process (xacro already imported: about 5 ms per file,
``benchmarks/bench_urdf.py --xacro``); where ``fork`` is unsafe (other threads running: a
progress bar, a threaded caller), a helper ``python -I`` process started once per process forks
the children instead (:class:`_Helper`). A limit hit, an error or a crash
becomes one :class:`~gzinertia.errors.SdfError` naming the file (and line, where known).
"""

from __future__ import annotations

import atexit
import os
import pickle
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.io.limits import ENV_XACRO_MEMORY, ENV_XACRO_SECONDS
from gzinertia.sandbox import (
    ChildLimits,
    CpuLimitError,
    Helper,
    fork_is_safe,
    run_forked,
    serve_forever,
)
from gzinertia.sandbox_worker import LimitedWorker
from gzinertia.sandbox_worker import available as worker_available
from gzinertia.urdf import ros_packages
from gzinertia.urdf.ros_packages import package_roots, packages_under
from gzinertia.urdf.xacro_child import expand_annotated, prime
from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = [
    "DEFAULT_MEMORY_MIB",
    "DEFAULT_SECONDS",
    "ENV_XACRO_MEMORY",
    "ENV_XACRO_SECONDS",
    "CpuLimitError",
    "XacroLimits",
    "run_expansion",
    "wall_seconds",
    "warm",
]

DEFAULT_SECONDS = 10
DEFAULT_MEMORY_MIB = 1024


@dataclass(frozen=True, repr=False, eq=False)
class XacroLimits(ChildLimits):
    """CPU seconds and memory (MiB of address space beyond what the process already has) one
    xacro expansion may use (``GZINERTIA_XACRO_SECONDS``, ``GZINERTIA_XACRO_MAX_MEMORY``)."""

    seconds: int = DEFAULT_SECONDS
    memory_mib: int = DEFAULT_MEMORY_MIB

    ENV_SECONDS: ClassVar[str] = ENV_XACRO_SECONDS
    ENV_MEMORY: ClassVar[str] = ENV_XACRO_MEMORY


def wall_seconds(limits: ChildLimits) -> float:
    """The wall-clock time the parent waits for the child."""
    return limits.wall_seconds


#: What the child sends back: ``("ok", annotated text, includes, files)`` or
#: ``("error", file, line, message)``.
Payload = tuple[Any, ...]


def _child_payload(work: Callable[[], Payload], path: str) -> bytes:
    try:
        return pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
    except SdfError as exc:
        return pickle.dumps(("error", exc.file, exc.line, exc.message))
    except GzInertiaError as exc:
        return pickle.dumps(("error", path, None, str(exc)))
    except MemoryError:
        return pickle.dumps(("error", path, None, "xacro: the expansion needs more memory than "
                             f"its limit ({ENV_XACRO_MEMORY})"))
    except CpuLimitError as exc:
        return pickle.dumps(("error", path, None, f"xacro: {exc}"))
    except BaseException as exc:  # never a traceback from the child
        return pickle.dumps(("error", path, None, f"xacro: {type(exc).__name__}: {exc}"))


def _status_message(status: int, limits: XacroLimits) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            return (f"xacro: stopped after {limits.seconds} s of CPU time "
                    f"({ENV_XACRO_SECONDS})")
        return f"xacro: the expansion crashed (signal {signal.Signals(sig).name})"
    return f"xacro: the expansion failed (exit status {os.waitstatus_to_exitcode(status)})"


def _unpickle(data: bytes, path: str, status: int, limits: XacroLimits) -> Payload:
    if not data:
        raise SdfError(path, None, _status_message(status, limits))
    try:
        payload = pickle.loads(data)
    except Exception:
        raise SdfError(path, None, _status_message(status, limits)) from None
    if not isinstance(payload, tuple):
        raise SdfError(path, None, "xacro: the expansion sent nothing usable")
    return payload


def _run_forked(work: Callable[[], Payload], path: str, limits: XacroLimits) -> Payload:
    outcome = run_forked(
        lambda: _child_payload(work, path),
        limits,
        f"stopped after {limits.seconds} s of CPU time ({ENV_XACRO_SECONDS})",
    )
    if outcome.status is None:
        raise SdfError(path, None, f"xacro: stopped after {wall_seconds(limits):g} s "
                       f"(wall-clock limit; {ENV_XACRO_SECONDS})")
    return _unpickle(outcome.data, path, outcome.status, limits)


_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from gzinertia.urdf.xacro_sandbox import _helper_main; _helper_main()"
)


def _serve(request: dict[str, Any]) -> Payload:
    """One request in the helper: a forked, limited child expands the file in the caller's
    environment and working folder."""
    path, args, package_paths = request["path"], request["args"], request["package_paths"]
    env, cwd, policy = request["env"], request["cwd"], request["policy"]
    warm(package_paths)

    def work() -> Payload:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        return expand_annotated(path, args, package_paths, policy)

    try:
        return _run_forked(work, path, XacroLimits(*request["limits"]))
    except SdfError as exc:
        return ("error", exc.file, exc.line, exc.message)


def _helper_main() -> None:
    """The helper process: serves requests from stdin until end of file
    (:func:`gzinertia.sandbox.serve_forever`)."""
    serve_forever(_serve)


class _Helper(Helper):
    """The :class:`gzinertia.sandbox.Helper` that forks one limited child per expansion: for
    processes that must not fork themselves (other threads running). Its start-up (about
    0.1-0.2 s) is paid once per process; each expansion then costs about as much as a direct
    fork."""

    def __init__(self) -> None:
        super().__init__(_BOOT)

    def run(self, path: str, args: dict[str, str], package_paths: list[str],
            limits: XacroLimits, policy: XacroPolicy) -> Payload:
        request = pickle.dumps({"path": path, "args": args, "package_paths": package_paths,
                                "limits": (limits.seconds, limits.memory_mib),
                                "env": dict(os.environ), "cwd": os.getcwd(),
                                "policy": policy})
        payload = self.call(request, wall_seconds(limits) + 10.0)
        if payload is None:
            raise SdfError(path, None, "xacro: the expansion helper process stopped")
        if not isinstance(payload, tuple):  # pragma: no cover - our own helper
            raise SdfError(path, None, "xacro: the expansion sent nothing usable")
        return payload


_HELPER = _Helper()


def _stop_helper() -> None:
    _HELPER.stop()


atexit.register(_stop_helper)


def warm(package_paths: list[str]) -> None:
    """Work every forked child would otherwise redo and throw away: import xacro (and its
    regular expressions, by expanding a tiny text of ours once) and find the packages under
    each package root (a walk of folders; no expression is evaluated)."""
    global _WARM
    if not _WARM:
        _WARM = True
        prime()
    for root in package_roots(package_paths):
        packages_under(str(root))


_WARM = False


def _cpu_message(limits: ChildLimits) -> str:
    return f"stopped after {limits.seconds} s of CPU time ({ENV_XACRO_SECONDS})"


#: The ROS package epoch the worker last saw (:data:`gzinertia.urdf.ros_packages.EPOCH`).
_SEEN_EPOCH = 0


def _worker_step(request: tuple[Any, ...]) -> bytes:
    """One expansion in the worker (:class:`~gzinertia.sandbox_worker.LimitedWorker`), in the
    caller's environment and working folder, with the packages it finds now."""
    global _SEEN_EPOCH
    path, args, package_paths, policy, env, cwd, epoch = request
    if epoch != _SEEN_EPOCH:
        ros_packages.forget_packages()
        _SEEN_EPOCH = epoch
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    return _child_payload(
        lambda: expand_annotated(path, args, package_paths, policy), path)


_WORKER = LimitedWorker(_worker_step, _cpu_message)


def _run_in_worker(path: str, args: dict[str, str], package_paths: list[str],
                   limits: XacroLimits, policy: XacroPolicy) -> Payload:
    """The expansion in the long-lived limited worker of this process; a worker whose
    expansion failed is replaced (nothing of a failed expansion is reused)."""
    global _SEEN_EPOCH
    if _WORKER.idle():
        _SEEN_EPOCH = ros_packages.EPOCH  # what the worker forked now inherits
    request = (path, args, package_paths, policy, dict(os.environ), os.getcwd(),
               ros_packages.EPOCH)
    outcome = _WORKER.call(request, limits)
    if outcome.status is None:
        raise SdfError(path, None, f"xacro: stopped after {wall_seconds(limits):g} s "
                       f"(wall-clock limit; {ENV_XACRO_SECONDS})")
    payload = _unpickle(outcome.data, path, outcome.status, limits)
    if payload[0] != "ok":
        _WORKER.stop()
    return payload


def run_expansion(
    path: str,
    args: dict[str, str],
    package_paths: list[str],
    limits: XacroLimits | None = None,
    policy: XacroPolicy | None = None,
    *,
    fork: bool | None = None,
) -> Payload:
    """``expand_annotated(path, args, package_paths, policy)`` in a limited child process:
    by default the long-lived limited worker of this process
    (:class:`~gzinertia.sandbox_worker.LimitedWorker`, where it is available and expressions
    are not trusted: a trusted model runs Python, which must not outlive its file); with
    ``fork=True`` (or a trusted policy) a child forked for this expansion alone; with
    ``fork=False`` (default where :func:`fork_is_safe` says no) a child of the helper
    process. Raises
    :class:`~gzinertia.errors.SdfError` for an error or a limit hit."""
    limits = limits or XacroLimits.from_environment()
    policy = policy or XacroPolicy()
    if fork is None and not policy.trust and worker_available():
        warm(package_paths)
        payload = _run_in_worker(path, args, package_paths, limits, policy)
    elif fork if fork is not None else fork_is_safe():
        warm(package_paths)
        payload = _run_forked(lambda: expand_annotated(path, args, package_paths, policy),
                              path, limits)
    else:
        payload = _HELPER.run(path, args, package_paths, limits, policy)
    if payload[0] == "error":
        _, file, line, message = payload
        raise SdfError(str(file), line, str(message))
    return payload
