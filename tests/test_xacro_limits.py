"""Each xacro expansion runs in a child process with a CPU-time, memory and wall-clock limit.
Expression bombs end as one line naming the file (and the line where it is known), exit status
2, well within the ``deadline``: refused by gzinertia's evaluator before they run (the default),
or stopped by the limits when the model is trusted (``--trust-xacro``, xacro's own ``eval``);
macros that multiply without any expression are stopped by the limits. Good files expand to
the same text whichever way the child is started."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import CORPUS, child_processes, run_cli

from gzinertia.errors import SdfError
from gzinertia.urdf.xacro_child import expand_annotated
from gzinertia.urdf.xacro_lines import strip
from gzinertia.urdf.xacro_policy import TRUST_FLAG, XacroPolicy
from gzinertia.urdf.xacro_sandbox import (
    ENV_XACRO_MEMORY,
    ENV_XACRO_SECONDS,
    XacroLimits,
    _run_forked,
    run_expansion,
    wall_seconds,
)

SECONDS = 1


def _bomb(tmp_path: Path, expression: str) -> Path:
    path = tmp_path / "bomb.urdf.xacro"
    path.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <link name="hull"/>\n'
        f'  <xacro:property name="p" value="${{{expression}}}"/>\n'
        '  <link name="${p}"/>\n'
        "</robot>\n"
    )
    return path


BOMBS = {
    "power tower": "2**2**40",
    "huge list": "[0]*10**10",
    "C loop": "python.sum(python.range(10**15))",
    "growing list": "len([x for x in python.range(10**12)])",
    "recursion": "(lambda f: f(f))(lambda f: f(f))",
    "exponential recursion": "(lambda f: f(f, 0))(lambda f, n: [f(f, n + 1) for _ in 'ab'])",
    "9**9**9": "9**9**9",
}


#: What gzinertia's evaluator says of each bomb: refused before anything runs, or a bound.
REFUSALS = ("is not evaluated", "more than", "longer than")


@pytest.mark.parametrize("trust", [False, True], ids=["evaluated", "trusted"])
@pytest.mark.parametrize("expression", BOMBS.values(), ids=BOMBS.keys())
def test_expression_bombs_exit_2_with_one_line(
    expression: str, trust: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, deadline: None,
) -> None:
    monkeypatch.setenv(ENV_XACRO_SECONDS, str(SECONDS))
    path = _bomb(tmp_path, expression)
    start = time.monotonic()
    code, out, err = run_cli(["show", *([TRUST_FLAG] if trust else []), str(path)], capsys)
    elapsed = time.monotonic() - start
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    assert line.startswith(f"gzinertia: error: {path}") and "xacro" in line
    assert elapsed < wall_seconds(XacroLimits(SECONDS)) + 5.0
    if trust:  # Python ran it: the limit that stopped it is named
        assert any(s in line for s in (ENV_XACRO_SECONDS, ENV_XACRO_MEMORY, "recursion"))
    else:  # refused or bounded before it ran, at the expression's line
        assert line.startswith(f"gzinertia: error: {path}:3: xacro: ")
        assert any(s in line for s in REFUSALS), line
        assert elapsed < 5.0


def test_macros_that_multiply_are_stopped_by_the_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    deadline: None,
) -> None:
    """No expression at all: each macro calls the next twice, 2**40 links. Only the child's
    limits stop it (the evaluator has nothing to refuse)."""
    monkeypatch.setenv(ENV_XACRO_SECONDS, str(SECONDS))
    macros = "".join(f'<xacro:macro name="m{i}"><xacro:m{i + 1}/><xacro:m{i + 1}/></xacro:macro>'
                     for i in range(40))
    path = tmp_path / "macro_bomb.urdf.xacro"
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    f'  {macros}<xacro:macro name="m40"><link name="l"/></xacro:macro>\n'
                    '  <xacro:m0/>\n</robot>\n')
    code, out, err = run_cli(["show", str(path)], capsys)
    assert code == 2 and out == ""
    [line] = err.strip().splitlines()
    assert line.startswith(f"gzinertia: error: {path}") and "xacro" in line
    assert any(s in line for s in (ENV_XACRO_SECONDS, ENV_XACRO_MEMORY)), line


def test_macro_recursion_and_the_memory_limit_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    deadline: None,
) -> None:
    """Trusted (Python evaluates), a list of 10⁸ entries (800 MB) is refused under a 200 MiB
    limit; the line of the expression is named."""
    monkeypatch.setenv(ENV_XACRO_MEMORY, "200")
    path = _bomb(tmp_path, "len([0]*10**8)")
    code, _, err = run_cli(["show", TRUST_FLAG, str(path)], capsys)
    assert code == 2
    assert err.strip() == (
        f"gzinertia: error: {path}:3: xacro: needs more memory than its limit "
        f"({ENV_XACRO_MEMORY}) evaluating ${{len([0]*10**8)}}"
    )
    monkeypatch.setenv(ENV_XACRO_SECONDS, "0")
    code, _, err = run_cli(["show", TRUST_FLAG, str(path)], capsys)
    assert code == 2 and ENV_XACRO_SECONDS in err and len(err.strip().splitlines()) == 1


def test_an_audit_reports_the_bomb_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    deadline: None,
) -> None:
    monkeypatch.setenv(ENV_XACRO_SECONDS, str(SECONDS))
    bomb = _bomb(tmp_path, BOMBS["C loop"])
    good = tmp_path / "good.urdf"
    good.write_text('<robot name="g"><link name="a"><inertial><mass value="1"/>'
                    '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                    "</link></robot>\n")
    code, out, _ = run_cli(["audit", "--format", "json", str(tmp_path)], capsys)
    import json

    report = json.loads(out)
    status = {Path(f["path"]).name: f["status"] for f in report["files"]}
    assert status == {bomb.name: "error", good.name: "ok"} and code == 2


def test_a_child_that_blocks_is_killed_at_the_wall_clock_limit(deadline: None) -> None:
    limits = XacroLimits(seconds=1)
    before = child_processes()  # helper processes other tests started live on
    start = time.monotonic()
    with pytest.raises(SdfError) as err:
        _run_forked(lambda: (time.sleep(600), ("ok",))[1], "x.xacro", limits)
    assert time.monotonic() - start < wall_seconds(limits) + 3.0
    assert "wall-clock limit" in str(err.value)
    assert child_processes() <= before  # reaped: no child left behind, not even a zombie


def _corpus_file() -> Path:
    found = sorted(CORPUS.rglob("wamv_base.urdf.xacro")) if CORPUS.is_dir() else []
    if not found:
        pytest.skip("corpus file not present")
    return found[0]


def test_forked_and_helper_children_expand_alike(deadline: None) -> None:
    """The helper process (used where forking this process is unsafe) gives what the forked
    child and in-process expansion give."""
    path = str(_corpus_file())
    here = expand_annotated(path)
    assert run_expansion(path, {}, [], fork=True) == here
    assert run_expansion(path, {}, [], fork=False) == here


def test_the_helper_keeps_the_limits(tmp_path: Path, deadline: None) -> None:
    trusted = XacroPolicy(trust=True)
    path = _bomb(tmp_path, BOMBS["huge list"])
    with pytest.raises(SdfError) as err:
        run_expansion(str(path), {}, [], XacroLimits(seconds=SECONDS), trusted, fork=False)
    assert str(err.value).startswith(f"{path}:3: xacro: needs more memory")
    slow = _bomb(tmp_path, BOMBS["C loop"])
    with pytest.raises(SdfError) as err:
        run_expansion(str(slow), {}, [], XacroLimits(seconds=SECONDS), trusted, fork=False)
    assert ENV_XACRO_SECONDS in str(err.value)
    good = tmp_path / "good.xacro"  # the helper survives its children's limit hits
    good.write_text('<robot name="g"><link name="a"/></robot>\n')
    assert run_expansion(str(good), {}, [], fork=False)[0] == "ok"


def test_with_another_thread_running_the_helper_expands_in_the_callers_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deadline: None
) -> None:
    """A thread is running (a progress bar, a threaded caller): expansion goes through the
    helper, with the caller's current environment (ROS_PACKAGE_PATH) and working folder
    (relative paths), which may change between calls."""
    import threading

    from gzinertia.urdf.xacro_sandbox import fork_is_safe

    def package(root: Path, mass: str) -> None:
        (root / "pkg").mkdir(parents=True)
        (root / "pkg" / "package.xml").write_text("<package><name>pkg</name></package>")
        (root / "pkg" / "m.xacro").write_text(
            f'<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
            f'<xacro:property name="mass" value="{mass}"/></robot>'
        )

    package(tmp_path / "ws1", "1.5")
    package(tmp_path / "ws2", "2.5")
    (tmp_path / "robot.xacro").write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="$(find pkg)/m.xacro"/><link name="a"><inertial>'
        '<mass value="${mass}"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
        "</inertial></link></robot>\n"
    )
    monkeypatch.chdir(tmp_path)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not fork_is_safe()
        masses = []
        for ws in ("ws1", "ws2"):
            monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / ws))
            _, text, *_ = run_expansion("robot.xacro", {}, [])
            masses.append(strip(text).split('<mass value="')[1].split('"')[0])
        assert masses == ["1.5", "2.5"]
    finally:
        stop.set()
        thread.join()
