"""Running one step in a child process with a time and a memory limit, so that whatever the
step does (an expression that never ends, a native library that crashes or allocates without
bound) ends as an outcome the caller words as one line, never as a dead or hung process.

* The child is a ``fork`` of the calling process (what the step needs is already imported:
  milliseconds per call). It limits its own CPU time (``RLIMIT_CPU``: ``SIGXCPU`` raises
  :class:`CpuLimitError` in it, the hard limit 2 s later kills it) and the address space it may
  add (``RLIMIT_AS``) before it runs the step, and sends back the bytes the step returns over a
  pipe (:func:`run_forked`).
* The parent waits at most a wall-clock time (the machine may be busy), then kills the child;
  it reports how the child ended (:class:`ChildOutcome`): the bytes, the exit status, the
  signal that killed it (``SIGSEGV``, ``SIGABRT``, the ``SIGKILL`` of the kernel's OOM killer or
  of the wall-clock limit).
* Where ``fork`` is unsafe (other Python threads running: a lock one of them holds would stay
  held in the child; for native steps, any other thread at all: :func:`process_is_single_threaded`),
  a :class:`Helper` process (``python -I``, started once per process and
  kind of work) forks the children instead: it runs a ``handle(request)`` function named by
  its boot line (:func:`serve_forever`).

Users: xacro expansion (:mod:`gzinertia.urdf.xacro_sandbox`) and the BEM's native meshing
(:mod:`gzinertia.physics.mesh_sandbox`).
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import io
import os
import pickle
import resource
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gzinertia.io.limits import ChildLimits
from gzinertia.record_base import ValueRecord

__all__ = [
    "ChildLimits",
    "ChildOutcome",
    "CpuLimitError",
    "Discard",
    "Helper",
    "fork_is_safe",
    "limit_memory",
    "limit_self",
    "process_is_single_threaded",
    "read_exactly",
    "run_forked",
    "serve_forever",
    "signal_name",
    "silence_stderr",
    "write_all",
]


class CpuLimitError(Exception):
    """Raised in the child when it has used its CPU time (``SIGXCPU``)."""


@dataclass(frozen=True, repr=False, eq=False)
class ChildOutcome(ValueRecord):
    """How a child ended: the bytes it sent, and its wait status (``None``: it was still
    running at the wall-clock limit and was killed)."""

    data: bytes
    status: int | None

    @property
    def signal(self) -> int | None:
        """The signal that ended the child, if one did."""
        if self.status is not None and os.WIFSIGNALED(self.status):
            return os.WTERMSIG(self.status)
        return None

    @property
    def exit_code(self) -> int | None:
        """The child's exit code, if it exited."""
        if self.status is not None and os.WIFEXITED(self.status):
            return os.WEXITSTATUS(self.status)
        return None


def signal_name(number: int) -> str:
    """``SIGSEGV`` for 11 (the number itself when the platform has no name for it)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def limit_self(limits: ChildLimits, cpu_message: str) -> None:
    """In the child: cap CPU time and address space; ``SIGXCPU`` raises
    :class:`CpuLimitError` with ``cpu_message`` (the hard CPU limit, 2 s later, kills)."""
    def expire(*_: object) -> None:
        raise CpuLimitError(cpu_message)

    signal.signal(signal.SIGXCPU, expire)
    limit_memory(limits)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = limits.seconds
    cpu_hard = cpu + 2 if hard == resource.RLIM_INFINITY else min(cpu + 2, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, cpu_hard), cpu_hard))


def limit_memory(limits: ChildLimits) -> None:
    """In the child: cap the address space at :attr:`ChildLimits.memory_mib` beyond what it
    holds now (where that is known: Linux), never above a cap already set."""
    used = 0
    try:
        with open("/proc/self/statm", "rb") as f:
            used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = used + limits.memory_mib * 1024 * 1024
    for cap in (soft, hard):
        if cap != resource.RLIM_INFINITY:
            want = min(want, cap)
    if used:  # the address space in use is known (Linux): the budget is on top of it
        with contextlib.suppress(ValueError, OSError):  # a system that does not enforce it
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))


class Discard(io.TextIOBase):
    """A text stream that keeps nothing."""

    def write(self, text: str) -> int:
        """Keeps nothing; says all of ``text`` was written."""
        return len(text)

    def flush(self) -> None:
        """Nothing to flush."""


def write_all(fd: int, data: bytes) -> None:
    """Writes all of ``data`` to ``fd``."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_exactly(fd: int, n: int, deadline: float | None = None) -> bytes | None:
    """``n`` bytes from ``fd`` (``None`` at end of file; ``TimeoutError`` past ``deadline``)."""
    chunks: list[bytes] = []
    while n > 0:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def silence_stderr() -> None:
    """In the child: nothing it writes reaches the caller's standard error, neither Python's
    warnings nor a native library's, nor the dump of a fault handler (``-X faulthandler``,
    pytest's) when it crashes: the caller's one line is the message."""
    faulthandler.disable()
    sys.stderr = Discard()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)


def run_forked(
    work: Callable[[], bytes], limits: ChildLimits, cpu_message: str
) -> ChildOutcome:
    """Runs ``work`` in a forked child under ``limits`` and returns what it sent and how it
    ended. ``work`` turns its own errors into the bytes it returns (an exception escaping it
    ends the child with exit code 3 and no bytes); the child's standard error is discarded
    (:func:`silence_stderr`)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            gc.freeze()  # the parent's objects: never scanned here (no copy-on-write faults)
            os.close(read_fd)
            silence_stderr()
            limit_self(limits, cpu_message)
            write_all(write_fd, work())
        except BaseException:
            code = 3
        os._exit(code)
    os.close(write_fd)
    reaped = False
    try:
        chunks: list[bytes] = []
        deadline = time.monotonic() + limits.wall_seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return ChildOutcome(b"".join(chunks), None)
            ready, _, _ = select.select([read_fd], [], [], remaining)
            if ready:
                chunk = os.read(read_fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        reaped = True
        return ChildOutcome(b"".join(chunks), status)
    finally:
        os.close(read_fd)
        if not reaped:
            with contextlib.suppress(ProcessLookupError):  # already gone
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


def fork_is_safe() -> bool:
    """Whether this process may ``fork`` a child that runs Python (no other thread could hold
    a lock the child needs)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def process_is_single_threaded() -> bool:
    """Whether this process runs no other thread at all, Python or native (``/proc/self/task``
    holds one entry; ``False`` where that cannot be read). A native library's thread pool that
    already ran here (manifold3d's workers, OpenMP's team after a Capytaine solve) is not
    rebuilt in a forked child: a child that calls into the library may wait forever on a worker
    that does not exist there. Steps that run native code fork only from such a process."""
    try:
        return hasattr(os, "fork") and len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


_LENGTH = 8  # bytes of the big-endian length before each pickled message


def serve_forever(handle: Callable[[Any], Any]) -> None:
    """The helper process's loop: each request read from stdin (pickled, length first) is
    given to ``handle``, its answer written to stdout, until end of file (the helper is
    single-threaded: forking it is safe)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; EOF ends the helper
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    while True:
        head = read_exactly(stdin, _LENGTH)
        body = None if head is None else read_exactly(stdin, int.from_bytes(head, "big"))
        if body is None:
            return
        data = pickle.dumps(handle(pickle.loads(body)), protocol=pickle.HIGHEST_PROTOCOL)
        write_all(stdout, len(data).to_bytes(_LENGTH, "big") + data)


class Helper:
    """A ``python -I`` process, started on first use, whose ``boot`` line (run with the
    package's folder as ``sys.argv[1]``) imports a module and calls :func:`serve_forever` with
    its request handler, which forks one limited child per request: for processes that must
    not fork themselves (other threads running). Its start-up (about 0.1-0.2 s, plus the
    imports its children need) is paid once per process."""

    def __init__(self, boot: str) -> None:
        self._boot = boot
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen[bytes]:
        package_root = str(Path(__file__).resolve().parents[1])
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", self._boot, package_root],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=dict(os.environ), bufsize=0,
        )
        return self._proc

    def stop(self) -> None:
        """Ends the helper process (the next request starts a new one)."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout) if proc is not None else ():
            if stream is not None:
                stream.close()

    def call(self, data: bytes, wall_seconds: float) -> Any:
        """The helper's answer (unpickled) to the pickled request ``data``, or ``None`` when
        the helper stopped or did not answer within ``wall_seconds`` (it is then stopped)."""
        with self._lock:
            proc = self._proc if self._proc is not None and self._proc.poll() is None \
                else self._start()
            assert proc.stdin is not None and proc.stdout is not None
            deadline = time.monotonic() + wall_seconds
            try:
                write_all(proc.stdin.fileno(), len(data).to_bytes(_LENGTH, "big") + data)
                head = read_exactly(proc.stdout.fileno(), _LENGTH, deadline)
                body = None if head is None else read_exactly(
                    proc.stdout.fileno(), int.from_bytes(head, "big"), deadline)
            except (OSError, TimeoutError):
                body = None
            if body is None:
                self.stop()
                return None
        return pickle.loads(body)
