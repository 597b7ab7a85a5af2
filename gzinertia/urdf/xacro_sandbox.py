"""Expanding xacro in a child process with a time and a memory limit.

xacro's ``${...}`` expressions are Python ``eval`` calls: xacro takes the builtins away but
not the time or memory an expression may take (``${2**2**40}``, ``${[0]*10**10}``,
``${sum(range(10**15))}``). Each expansion therefore runs in a child process:

* the child limits its own CPU time (``RLIMIT_CPU``, :data:`ENV_XACRO_SECONDS`, default
  :data:`DEFAULT_SECONDS` s) and the address space it may add (``RLIMIT_AS``,
  :data:`ENV_XACRO_MEMORY` MiB, default :data:`DEFAULT_MEMORY_MIB`) before it reads a byte;
* the parent waits at most :func:`wall_seconds` (three times the CPU limit, plus 5 s: the
  machine may be busy) of wall-clock time, then kills it;
* the child reads every file through :mod:`gzinertia.safe_read`, exactly as in-process
  expansion did, and sends back the text and the files it read (pickled, over a pipe).

The child is a ``fork`` of the calling process (xacro already imported: about 5 ms per file,
``benchmarks/bench_urdf.py --xacro``); where ``fork`` is unsafe (other threads running: a
progress bar, a threaded caller), a helper ``python -I`` process started once per process forks
the children instead (:class:`_Helper`). A limit hit, an error or a crash
becomes one :class:`~gzinertia.errors.SdfError` naming the file (and line, where known).
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import pickle
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

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.limits import ENV_XACRO_MEMORY, ENV_XACRO_SECONDS, _from_env
from gzinertia.record_base import ValueRecord
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
]

DEFAULT_SECONDS = 10
DEFAULT_MEMORY_MIB = 1024
#: The largest limits the environment may set: a day of CPU time, 4 TiB of address space
#: (larger ones overflow the clocks and resource limits the sandbox sets).
MAX_SECONDS = 86_400
MAX_MEMORY_MIB = 1 << 22


class CpuLimitError(Exception):
    """Raised in the child when it has used its CPU time (``SIGXCPU``)."""


@dataclass(frozen=True, repr=False, eq=False)
class XacroLimits(ValueRecord):
    """CPU seconds and memory (MiB of address space beyond what the process already has) one
    xacro expansion may use."""

    seconds: int = DEFAULT_SECONDS
    memory_mib: int = DEFAULT_MEMORY_MIB

    @classmethod
    def from_environment(cls) -> XacroLimits:
        """The limits the environment sets (``GZINERTIA_XACRO_SECONDS``,
        ``GZINERTIA_XACRO_MAX_MEMORY``), or the defaults."""
        return cls(
            _from_env(ENV_XACRO_SECONDS, DEFAULT_SECONDS, MAX_SECONDS),
            _from_env(ENV_XACRO_MEMORY, DEFAULT_MEMORY_MIB, MAX_MEMORY_MIB),
        )


def wall_seconds(limits: XacroLimits) -> float:
    """The wall-clock time the parent waits for the child."""
    return 3.0 * limits.seconds + 5.0


#: What the child sends back: ``("ok", annotated text, includes, files)`` or
#: ``("error", file, line, message)``.
Payload = tuple[Any, ...]


def _limit_self(limits: XacroLimits) -> None:
    """In the child: cap CPU time and address space; ``SIGXCPU`` raises
    :class:`CpuLimitError` (the hard CPU limit, 2 s later, kills)."""
    import resource

    def expire(*_: object) -> None:
        raise CpuLimitError(
            f"stopped after {limits.seconds} s of CPU time ({ENV_XACRO_SECONDS})"
        )

    signal.signal(signal.SIGXCPU, expire)
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
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = limits.seconds
    cpu_hard = cpu + 2 if hard == resource.RLIM_INFINITY else min(cpu + 2, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, cpu_hard), cpu_hard))


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


class _Discard(io.TextIOBase):
    """A text stream that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


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
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            import gc

            gc.freeze()  # the parent's objects: never scanned here (no copy-on-write faults)
            os.close(read_fd)
            sys.stderr = _Discard()  # xacro's warnings: the one line is the error, if any
            _limit_self(limits)
            _write_all(write_fd, _child_payload(work, path))
        except BaseException:
            code = 3
        os._exit(code)
    os.close(write_fd)
    reaped = False
    try:
        chunks: list[bytes] = []
        deadline = time.monotonic() + wall_seconds(limits)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise SdfError(path, None, f"xacro: stopped after {wall_seconds(limits):g} s "
                               f"(wall-clock limit; {ENV_XACRO_SECONDS})")
            ready, _, _ = select.select([read_fd], [], [], remaining)
            if ready:
                chunk = os.read(read_fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        reaped = True
        return _unpickle(b"".join(chunks), path, status, limits)
    finally:
        os.close(read_fd)
        if not reaped:
            with contextlib.suppress(ProcessLookupError):  # already gone
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from gzinertia.urdf.xacro_sandbox import _helper_main; _helper_main()"
)
_LENGTH = 8  # bytes of the big-endian length before each pickled message


def _read_exactly(fd: int, n: int, deadline: float | None = None) -> bytes | None:
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


def _serve(request: dict[str, Any]) -> Payload:
    """One request in the helper: a forked, limited child expands the file in the caller's
    environment and working folder."""
    from gzinertia.urdf.xacro_expand import expand_annotated

    path, args, package_paths = request["path"], request["args"], request["package_paths"]
    env, cwd, policy = request["env"], request["cwd"], request["policy"]
    _warm(package_paths)

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
    """The helper process: serves requests from stdin until end of file (it is
    single-threaded: forking it is safe); each payload goes to stdout."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; EOF ends the helper
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    while True:
        head = _read_exactly(stdin, _LENGTH)
        body = None if head is None else _read_exactly(stdin, int.from_bytes(head, "big"))
        if body is None:
            return
        data = pickle.dumps(_serve(pickle.loads(body)), protocol=pickle.HIGHEST_PROTOCOL)
        _write_all(stdout, len(data).to_bytes(_LENGTH, "big") + data)


class _Helper:
    """A ``python -I`` process, started on first use, that forks one limited child per
    expansion: for processes that must not fork themselves (other threads running). Its
    start-up (about 0.1-0.2 s) is paid once per process; each expansion then costs about as
    much as a direct fork."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen[bytes]:
        package_root = str(Path(__file__).resolve().parents[2])
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-c", _BOOT, package_root],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=dict(os.environ), bufsize=0,
        )
        return self._proc

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout) if proc is not None else ():
            if stream is not None:
                stream.close()

    def run(self, path: str, args: dict[str, str], package_paths: list[str],
            limits: XacroLimits, policy: XacroPolicy) -> Payload:
        request = pickle.dumps({"path": path, "args": args, "package_paths": package_paths,
                                "limits": (limits.seconds, limits.memory_mib),
                                "env": dict(os.environ), "cwd": os.getcwd(),
                                "policy": policy})
        with self._lock:
            proc = self._proc if self._proc is not None and self._proc.poll() is None \
                else self._start()
            assert proc.stdin is not None and proc.stdout is not None
            deadline = time.monotonic() + wall_seconds(limits) + 10.0
            try:
                _write_all(proc.stdin.fileno(), len(request).to_bytes(_LENGTH, "big") + request)
                head = _read_exactly(proc.stdout.fileno(), _LENGTH, deadline)
                body = None if head is None else _read_exactly(
                    proc.stdout.fileno(), int.from_bytes(head, "big"), deadline)
            except (OSError, TimeoutError):
                body = None
            if body is None:
                self.stop()
                raise SdfError(path, None, "xacro: the expansion helper process stopped")
        payload = pickle.loads(body)
        if not isinstance(payload, tuple):  # pragma: no cover - our own helper
            raise SdfError(path, None, "xacro: the expansion sent nothing usable")
        return payload


_HELPER = _Helper()


def _stop_helper() -> None:
    _HELPER.stop()


atexit.register(_stop_helper)


def _warm(package_paths: list[str]) -> None:
    """Work every forked child would otherwise redo and throw away: import xacro (and its
    regular expressions, by expanding a tiny text of ours once) and find the packages under
    each package root (a walk of folders; no expression is evaluated)."""
    from gzinertia.urdf.xacro_expand import _packages_under, package_roots

    global _WARM
    if not _WARM:
        _WARM = True
        import xml.dom.expatbuilder
        import xml.parsers.expat  # noqa: F401

        import xacro
        import xacro.substitution_args

        import gzinertia.safe_read
        import gzinertia.sdf.xml
        import gzinertia.urdf.xacro_lines  # noqa: F401

        xacro.process_doc(xacro.parse('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/'
                                      'xacro"><xacro:property name="a" value="${1+1}"/>'
                                      '<link name="l${a}"/></robot>'), mappings={})
    for root in package_roots(package_paths):
        _packages_under(str(root))


_WARM = False


def fork_is_safe() -> bool:
    """Whether this process may ``fork`` a child that runs Python (no other thread could hold
    a lock the child needs)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def run_expansion(
    path: str,
    args: dict[str, str],
    package_paths: list[str],
    limits: XacroLimits | None = None,
    policy: XacroPolicy | None = None,
    *,
    fork: bool | None = None,
) -> Payload:
    """``expand_annotated(path, args, package_paths, policy)`` in a limited child process,
    forked from this process or, with ``fork=False`` (default where :func:`fork_is_safe` says
    no), from the helper process. Raises
    :class:`~gzinertia.errors.SdfError` for an error or a limit hit."""
    from gzinertia.urdf.xacro_expand import expand_annotated

    limits = limits or XacroLimits.from_environment()
    policy = policy or XacroPolicy()
    if fork if fork is not None else fork_is_safe():
        _warm(package_paths)
        payload = _run_forked(lambda: expand_annotated(path, args, package_paths, policy),
                              path, limits)
    else:
        payload = _HELPER.run(path, args, package_paths, limits, policy)
    if payload[0] == "error":
        _, file, line, message = payload
        raise SdfError(str(file), line, str(message))
    return payload
