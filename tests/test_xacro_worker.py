"""xacro files expanded one after another in one long-lived limited worker (issue 25 item 17):
the result of each is the result of a child of its own (the per-file fork is the oracle); no
state of one file reaches the next; a limit hit, a crash or a hang ends the worker and the next
file gets a new one; the environment and working folder of each call reach it; each step's CPU
time is limited even when the step does not let Python's signal handler run."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import child_processes

from gzinertia.errors import SdfError
from gzinertia.sandbox_worker import LimitedWorker, available
from gzinertia.urdf import xacro_sandbox
from gzinertia.urdf.xacro_policy import XacroPolicy
from gzinertia.urdf.xacro_sandbox import (
    ENV_XACRO_MEMORY,
    ENV_XACRO_SECONDS,
    XacroLimits,
    run_expansion,
    wall_seconds,
)

pytestmark = pytest.mark.skipif(not available(), reason="no /proc or fork here")

NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _write(path: Path, body: str) -> str:
    path.write_text(f'<robot name="r" {NS}>\n{body}\n</robot>\n')
    return str(path)


def _alone(path: str, package_paths: list[str] | None = None,
           policy: XacroPolicy | None = None) -> tuple[object, ...]:
    """The oracle: the file expanded by a child forked for it alone."""
    return run_expansion(path, {}, package_paths or [], policy=policy, fork=True)


def _worker_pid() -> int | None:
    worker = xacro_sandbox._WORKER
    return None if worker.idle() else worker._pid


def test_files_expand_in_one_worker_as_each_in_a_child_of_its_own(
    tmp_path: Path, deadline: None
) -> None:
    paths = [_write(tmp_path / f"r{k}.urdf.xacro",
                    f'<xacro:property name="m" value="{k + 1}"/>'
                    f'<xacro:macro name="l" params="i"><link name="l${{i}}_${{m*2}}"/>'
                    f'</xacro:macro><xacro:l i="a"/><xacro:l i="b"/>') for k in range(5)]
    results = [run_expansion(p, {}, []) for p in paths[:1]]
    pid = _worker_pid()
    assert pid is not None and pid != os.getpid()  # a child, not this process
    results += [run_expansion(p, {}, []) for p in paths[1:]]
    assert _worker_pid() == pid  # the same worker for every file
    assert results == [_alone(p) for p in paths]


def test_no_state_of_one_file_reaches_the_next(tmp_path: Path, deadline: None) -> None:
    """A property, a macro and an argument default of one file are unknown to the next, as
    they are to a child of its own."""
    first = _write(tmp_path / "a.urdf.xacro",
                   '<xacro:arg name="x" default="1"/><xacro:property name="p" value="2"/>'
                   '<xacro:macro name="m"><link name="m"/></xacro:macro><link name="a"/>')
    second = _write(tmp_path / "b.urdf.xacro", '<link name="${p}"/>')
    third = _write(tmp_path / "c.urdf.xacro", "<xacro:m/>")
    fourth = _write(tmp_path / "d.urdf.xacro", '<link name="$(arg x)"/>')
    assert run_expansion(first, {}, [])[0] == "ok"
    for path in (second, third, fourth):
        with pytest.raises(SdfError) as in_worker:
            run_expansion(path, {}, [])
        with pytest.raises(SdfError) as alone:
            _alone(path)
        assert str(in_worker.value) == str(alone.value)


def test_a_limit_hit_ends_the_worker_and_the_next_file_gets_a_new_one(
    tmp_path: Path, deadline: None
) -> None:
    """Macros that multiply (no expression: only the limits stop them), then a good file."""
    macros = "".join(f'<xacro:macro name="m{i}"><xacro:m{i + 1}/><xacro:m{i + 1}/></xacro:macro>'
                     for i in range(40))
    bomb = _write(tmp_path / "bomb.urdf.xacro",
                  f'{macros}<xacro:macro name="m40"><link name="l"/></xacro:macro><xacro:m0/>')
    good = _write(tmp_path / "good.urdf.xacro", '<link name="a"/>')
    assert run_expansion(good, {}, [])[0] == "ok"
    before = _worker_pid()
    limits = XacroLimits(seconds=1, memory_mib=256)
    start = time.monotonic()
    with pytest.raises(SdfError) as err:
        run_expansion(bomb, {}, [], limits)
    assert time.monotonic() - start < wall_seconds(limits) + 3.0
    assert str(err.value).startswith(bomb) and "\n" not in str(err.value)
    assert any(s in str(err.value) for s in (ENV_XACRO_SECONDS, ENV_XACRO_MEMORY))
    assert _worker_pid() is None  # ended (and reaped)
    with pytest.raises(ChildProcessError):
        os.waitpid(before or -1, os.WNOHANG)
    assert run_expansion(good, {}, []) == _alone(good)
    assert _worker_pid() not in (None, before)


def test_each_call_has_the_callers_environment_and_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deadline: None
) -> None:
    policy = XacroPolicy(env=frozenset({"HULL"}))
    _write(tmp_path / "e.urdf.xacro", '<link name="$(env HULL)"/>')
    monkeypatch.chdir(tmp_path)
    for value in ("one", "two"):
        monkeypatch.setenv("HULL", value)
        result = run_expansion("e.urdf.xacro", {}, [], policy=policy)  # relative: the folder
        assert result == _alone("e.urdf.xacro", policy=policy)
        assert f'name="{value}"' in str(result[1])


def _spin_with_sigxcpu_blocked(request: object) -> bytes:
    """A step that does not let the soft CPU limit's signal in (as native code that never
    returns to Python would not): only the hard limit stops it."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGXCPU})
    while True:
        pass


def test_a_step_that_ignores_its_cpu_limit_is_killed_past_it(deadline: None) -> None:
    worker = LimitedWorker(_spin_with_sigxcpu_blocked, lambda limits: "cpu")
    limits = XacroLimits(seconds=1, memory_mib=256)
    start = time.monotonic()
    outcome = worker.call("spin", limits)
    elapsed = time.monotonic() - start
    assert outcome.data == b"" and outcome.signal == signal.SIGKILL
    assert elapsed < limits.seconds + 2.0 + 2.0  # the CPU limit, its margin, and the polling
    assert worker.idle()


def test_a_step_that_blocks_is_killed_at_the_wall_clock_limit(deadline: None) -> None:
    xacro_sandbox._WORKER.stop()  # (another test's)
    before = child_processes()  # helper processes other tests started live on
    worker = LimitedWorker(lambda request: (time.sleep(600), b"")[1], lambda limits: "cpu")
    limits = XacroLimits(seconds=1, memory_mib=256)
    start = time.monotonic()
    outcome = worker.call("sleep", limits)
    assert outcome.status is None and outcome.data == b""
    assert time.monotonic() - start < wall_seconds(limits) + 2.0
    assert worker.idle()
    assert child_processes() <= before  # reaped: no child left behind, not even a zombie
