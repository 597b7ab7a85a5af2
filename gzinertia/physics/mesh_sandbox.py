"""The BEM's native meshing (manifold3d's primitives, booleans and refinement, fast-simplification's
decimation) in a limited child process, so that a crash in native code (SIGSEGV, SIGABRT), the
kernel's OOM killer, a memory or CPU limit is one line naming the file and the link, exit status
2, never a dead process (docs/security.md, *Native code*).

The shapes are checked before (:mod:`gzinertia.physics.mesh_domain`: what the mesher is known to
take); this is the second layer, for what nobody knew. The child is a fork of this process
(:func:`gzinertia.sandbox.run_forked`: the modules are imported already) only where this
process runs no other thread at all (:func:`gzinertia.sandbox.process_is_single_threaded`):
a native thread pool that already ran here (manifold3d's, OpenMP's after a Capytaine solve,
OpenBLAS's) does not exist in a forked child, and a child that calls into it may wait forever.
Otherwise, which is the rule once numpy is imported, the child is forked from the helper process
(:class:`gzinertia.sandbox.Helper`, started once), which imports the mesher's libraries without
running them and runs the step in the caller's environment and working folder (about 10-25 ms
per link, ``benchmarks/bench_bem.py --child``). Limits:
:class:`gzinertia.io.limits.MesherLimits` (``GZINERTIA_MESH_SECONDS``,
``GZINERTIA_MESH_MAX_MEMORY``).
"""

from __future__ import annotations

import atexit
import importlib
import os
import pickle
from collections.abc import Callable
from typing import Any, TypeVar

from gzinertia.errors import GzInertiaError
from gzinertia.io.limits import ENV_MESH_MEMORY, ENV_MESH_SECONDS, MesherLimits
from gzinertia.options import interface, spelling
from gzinertia.physics.mesh_fallback import current_hull, hull_fallback
from gzinertia.sandbox import (
    ChildOutcome,
    CpuLimitError,
    Helper,
    process_is_single_threaded,
    run_forked,
    serve_forever,
    signal_name,
)

__all__ = ["MeshingError", "run_meshing"]

T = TypeVar("T")


class MeshingError(GzInertiaError):
    """The native meshing child crashed, was killed, or hit a limit (the message names the
    file, the link and the shapes)."""


def _payload(step: Callable[..., Any], args: tuple[Any, ...]) -> bytes:
    """In the child: ``step(*args)``'s result or what stopped it, pickled."""
    try:
        answer: tuple[Any, ...] = ("ok", step(*args))
    except GzInertiaError as exc:
        answer = ("error", str(exc))
    except MemoryError:
        answer = ("memory",)
    except CpuLimitError:
        answer = ("cpu",)
    except BaseException as exc:  # a bug: said, never a traceback from the child
        answer = ("bug", f"{type(exc).__name__}: {exc}")
    return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)


def _cpu_message(limits: MesherLimits) -> str:
    return f"stopped after {limits.seconds} s of CPU time ({ENV_MESH_SECONDS})"


def _answer(outcome: ChildOutcome, where: str, limits: MesherLimits) -> Any:
    """The step's result, or a :class:`MeshingError` (a :class:`GzInertiaError` the step
    raised comes back as one, with its own message)."""
    child = limits
    if outcome.status is None:
        raise MeshingError(
            f"{where}: meshing stopped after {child.wall_seconds:g} s (wall-clock limit; "
            f"{ENV_MESH_SECONDS})"
        )
    answer: tuple[Any, ...] = ()
    if outcome.data:
        try:
            answer = pickle.loads(outcome.data)
        except Exception:
            answer = ()
    if answer and answer[0] == "ok":
        return answer[1]
    if answer and answer[0] == "error":
        raise GzInertiaError(str(answer[1]))
    if answer and answer[0] == "memory":
        raise MeshingError(
            f"{where}: meshing needs more memory than its limit of {limits.memory_mib} MiB "
            f"({ENV_MESH_MEMORY})"
        )
    if answer and answer[0] == "bug":
        raise MeshingError(f"{where}: meshing failed, please report ({answer[1]})")
    sig = outcome.signal
    if (answer and answer[0] == "cpu") or (sig is not None and signal_name(sig) == "SIGXCPU"):
        raise MeshingError(f"{where}: meshing {_cpu_message(limits)}")
    if sig is not None and signal_name(sig) == "SIGKILL":
        raise MeshingError(
            f"{where}: the meshing process was killed (SIGKILL: out of memory, or past its "
            f"CPU limit, {ENV_MESH_SECONDS})"
        )
    if sig is not None:
        raise MeshingError(
            f"{where}: the native mesher (manifold3d, fast-simplification) crashed "
            f"({signal_name(sig)}) on these shapes; please report it with the model"
        )
    raise MeshingError(f"{where}: meshing failed (exit status {outcome.exit_code})")


def _target(step: Callable[..., Any]) -> str:
    return f"{step.__module__}:{step.__qualname__}"


def _resolve(target: str) -> Callable[..., Any]:
    """The step a request names: a module-level function of gzinertia's own."""
    module, _, name = target.partition(":")
    if not module.startswith("gzinertia.") or "." in name:
        raise ValueError(f"not a meshing step: {target!r}")
    step = getattr(importlib.import_module(module), name)
    assert callable(step)
    return step  # type: ignore[no-any-return]


_MESHER_MODULES = ("manifold3d", "fast_simplification", "igl", "trimesh", "scipy.spatial")


def _import_the_mesher() -> None:
    """In the helper: the libraries the steps use, imported once (importing starts none of
    their thread pools), so that each child does not import them again (0.4 s a link)."""
    for name in _MESHER_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # the child words what is missing
            continue


def _serve(request: dict[str, Any]) -> tuple[bytes, int | None]:
    """One request in the helper: a forked, limited child runs the step in the caller's
    environment, working folder, spelling of options and mesh hull fallback."""
    step = _resolve(request["target"])
    _import_the_mesher()
    limits = MesherLimits(*request["limits"])

    def work() -> bytes:
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        # the caller's interface and mesh fallback (context variables)
        with interface(request["spelling"]), hull_fallback(request["hull"]):
            return _payload(step, request["args"])

    outcome = run_forked(
        work, limits, _cpu_message(limits)
    )
    return outcome.data, outcome.status


def _helper_main() -> None:
    """The helper process (:func:`gzinertia.sandbox.serve_forever`)."""
    serve_forever(_serve)


_HELPER = Helper(
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from gzinertia.physics.mesh_sandbox import _helper_main; _helper_main()"
)
atexit.register(_HELPER.stop)


def run_meshing(
    step: Callable[..., T], args: tuple[Any, ...], where: str, *, fork: bool | None = None
) -> T:
    """``step(*args)`` (a module-level function of gzinertia, its arguments picklable) in a
    limited child process: forked from this one (``fork=True``; the default only where
    :func:`gzinertia.sandbox.process_is_single_threaded`) or from the helper. A
    :class:`~gzinertia.errors.GzInertiaError` it raises is raised here; a crash, a kill or a
    limit hit is a :class:`MeshingError` naming ``where``."""
    limits = MesherLimits.from_environment()
    child = limits
    if fork if fork is not None else process_is_single_threaded():
        outcome = run_forked(lambda: _payload(step, args), child, _cpu_message(limits))
    else:
        request = pickle.dumps({
            "target": _target(step), "args": args, "limits": (limits.seconds, limits.memory_mib),
            "env": dict(os.environ), "cwd": os.getcwd(), "spelling": spelling(),
            "hull": current_hull(),
        }, protocol=pickle.HIGHEST_PROTOCOL)
        answer = _HELPER.call(request, child.wall_seconds + 10.0)
        if answer is None:
            raise MeshingError(f"{where}: the meshing helper process stopped")
        outcome = ChildOutcome(*answer)
    result: T = _answer(outcome, where, limits)
    return result
