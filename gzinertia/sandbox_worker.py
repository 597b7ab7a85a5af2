"""A long-lived limited child that runs one step after another: :class:`LimitedWorker`.

Forking a limited child per step (:func:`gzinertia.sandbox.run_forked`) costs about as much as
a small xacro expansion itself (copy-on-write faults, caches the child fills and throws away).
A worker is forked once, limits itself, and serves steps over a pipe until told to stop. Each
step stays as limited as a child of its own:

* memory: the worker caps its address space once, at :attr:`ChildLimits.memory_mib` beyond
  what the process held when it was forked (no step may use more; later steps share the
  budget with what earlier ones left, and the worker is replaced after :data:`MAX_STEPS`
  steps);
* CPU: before each step the worker sets its soft ``RLIMIT_CPU`` to the CPU time it has used
  plus :attr:`ChildLimits.seconds` (``SIGXCPU`` raises :class:`~gzinertia.sandbox.CpuLimitError`
  in it); the parent reads the worker's CPU time (``/proc/PID/stat``) while it waits and kills
  it 2 s past that, as the hard limit of a child of its own would;
* wall-clock: the parent waits :attr:`ChildLimits.wall_seconds` per step, then kills it.

A step that fails, or a worker that dies or is killed, ends the worker: the caller starts a
new one for the next step (no state of a failed step is reused). Only where ``/proc`` gives
the CPU time (Linux) and ``fork`` is safe (:func:`available`).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import pickle
import resource
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from gzinertia.io.limits import ChildLimits
from gzinertia.sandbox import (
    ChildOutcome,
    CpuLimitError,
    fork_is_safe,
    limit_memory,
    read_exactly,
    silence_stderr,
    write_all,
)

__all__ = ["MAX_STEPS", "LimitedWorker", "available"]

#: Steps one worker serves before it is replaced (its memory, its caches).
MAX_STEPS = 256
#: Seconds of CPU past a step's limit before the parent kills the worker (the hard limit a
#: child of its own has, :func:`gzinertia.sandbox.limit_self`).
HARD_MARGIN = 2.0
_LENGTH = 8
_POLL = 0.25  # seconds between two looks at the worker's CPU time
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process ``pid`` has used, from ``/proc`` (``None``:
    unknown)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


def available() -> bool:
    """Whether a worker can be used here: ``fork`` is safe and ``/proc`` gives a child's CPU
    time."""
    return fork_is_safe() and _cpu_seconds(os.getpid()) is not None


def _serve(req_fd: int, rep_fd: int, step: Callable[[Any], bytes], limits: ChildLimits,
           cpu_message: Callable[[ChildLimits], str]) -> None:
    """The worker's loop: each pickled request (length first) is given to ``step`` under a
    fresh CPU allowance, its bytes written back (length first), until end of file."""
    def expire(*_: object) -> None:
        raise CpuLimitError(cpu_message(limits))

    signal.signal(signal.SIGXCPU, expire)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides
    limit_memory(limits)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    while True:
        head = read_exactly(req_fd, _LENGTH)
        body = None if head is None else read_exactly(req_fd, int.from_bytes(head, "big"))
        if body is None:
            return
        usage = resource.getrusage(resource.RUSAGE_SELF)
        soft = int(usage.ru_utime + usage.ru_stime) + 1 + limits.seconds
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        reply = step(pickle.loads(body))
        write_all(rep_fd, len(reply).to_bytes(_LENGTH, "big") + reply)


class LimitedWorker:
    """A forked worker that runs ``step(request) -> bytes`` for request after request, each
    under ``limits`` (see the module's docstring); ``step`` turns its own errors into the bytes
    it returns; ``cpu_message(limits)`` is the message of the
    :class:`~gzinertia.sandbox.CpuLimitError` a step that uses its CPU time raises. Started on
    first use, in the process that uses it (a forked copy of this object in another process
    starts its own)."""

    def __init__(self, step: Callable[[Any], bytes],
                 cpu_message: Callable[[ChildLimits], str]) -> None:
        self._step = step
        self._cpu_message = cpu_message
        self._pid: int | None = None
        self._owner = 0
        self._fds: tuple[int, int] = (-1, -1)
        self._steps = 0
        self._limits: ChildLimits | None = None

    def _start(self, limits: ChildLimits) -> int:
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 0
            try:
                gc.freeze()  # the parent's objects: never scanned here (no copy-on-write)
                os.close(req_w)
                os.close(rep_r)
                silence_stderr()
                _serve(req_r, rep_w, self._step, limits, self._cpu_message)
            except BaseException:
                code = 3
            os._exit(code)
        os.close(req_r)
        os.close(rep_w)
        if self._owner != os.getpid():
            # A worker process of a multiprocessing pool ends without atexit handlers: its
            # finalizers stop (and reap) the worker it started.
            mp_util = sys.modules.get("multiprocessing.util")
            if mp_util is not None:
                mp_util.Finalize(None, self.stop, exitpriority=0)
            atexit.register(self.stop)
        self._pid, self._owner, self._fds = pid, os.getpid(), (req_w, rep_r)
        self._steps, self._limits = 0, limits
        return pid

    def idle(self) -> bool:
        """Whether the next :meth:`call` starts a worker (none runs for this process)."""
        return self._pid is None or self._owner != os.getpid()

    def stop(self) -> int | None:
        """Ends the worker (the next call starts a new one); its wait status (``None``: there
        was none, or it was not this process's)."""
        pid, self._pid = self._pid, None
        if pid is None or self._owner != os.getpid():
            return None
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        return os.waitpid(pid, 0)[1]

    def call(self, request: Any, limits: ChildLimits) -> ChildOutcome:
        """``step(request)`` in the worker: the bytes it returned (status 0, the worker goes
        on), or, when it returned nothing, how the worker ended (its wait status; ``None``:
        stopped at the wall-clock limit). A worker started under other limits is replaced."""
        if self._pid is not None and (self._owner != os.getpid() or self._limits != limits
                                      or self._steps >= MAX_STEPS):
            if self._owner == os.getpid():
                self.stop()
            self._pid = None
        pid = self._pid if self._pid is not None else self._start(limits)
        self._steps += 1
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        req_w, rep_r = self._fds
        start_cpu = _cpu_seconds(pid) or 0.0
        try:
            write_all(req_w, len(data).to_bytes(_LENGTH, "big") + data)
            reply = self._reply(rep_r, pid, start_cpu, limits)
        except OSError:
            reply = None
        if isinstance(reply, bytes):
            return ChildOutcome(reply, 0)
        if reply is _TIMED_OUT:
            self.stop()
            return ChildOutcome(b"", None)
        self._pid = None  # it ended (or closed its end): reap it
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # a worker that closed its pipe and lingers
        return ChildOutcome(b"", os.waitpid(pid, 0)[1])

    def _reply(self, fd: int, pid: int, start_cpu: float, limits: ChildLimits) -> object:
        """The worker's answer (bytes), waiting at most the wall-clock limit
        (:data:`_TIMED_OUT` past it) and killing the worker when the step's CPU time passes
        its limit by :data:`HARD_MARGIN`; ``None`` when the worker ended without one."""
        deadline = time.monotonic() + limits.wall_seconds
        buffer = bytearray()
        need: int | None = None
        while need is None or len(buffer) < need:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return _TIMED_OUT
            ready, _, _ = select.select([fd], [], [], min(remaining, _POLL))
            if not ready:
                used = _cpu_seconds(pid)
                if used is not None and used - start_cpu > limits.seconds + HARD_MARGIN:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return None
            buffer += chunk
            if need is None and len(buffer) >= _LENGTH:
                need = _LENGTH + int.from_bytes(buffer[:_LENGTH], "big")
        return bytes(buffer[_LENGTH:need])


_TIMED_OUT = object()
