"""Hostile xacro (issue 23, items 1-5 and the xacro parts of 12): no code from the model, no
secret and no outside file in any output.

Each attack is rebuilt as a pull request would commit it and run through the command line in a
child process under a time and memory limit (``run_cli_limited``). An attack that would run
code writes a marker file: the marker must not appear, and under ``strace`` no process may
open it, start a program or start a process of its own. Each attack is also run with
``--trust-xacro`` where that shows the attack is real (the marker appears: that flag runs the
model's Python, as the docs say). Secrets are an environment variable the test sets: its value
must appear in no output of any command or format, unless the user named the variable.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_files import TIMEOUT_S, run_cli_limited

sys.path.insert(0, str(Path(__file__).resolve().parent))

XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
INERTIAL = ('<inertial><mass value="{mass}"/>'
            '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>')
SECRET_NAME = "GZI_TEST_SECRET"
SECRET = "hunter2-d0-not-print-me"
FORMATS = ("text", "json", "sarif", "github", "junit")


def robot(tmp: Path, body: str, name: str = "robot.urdf.xacro", mass: str = "1",
          link: str = "a") -> Path:
    """A robot with one link (named ``link``, its mass ``mass``) and ``body`` before it."""
    path = tmp / name
    path.write_text(f'<robot name="r" {XACRO_NS}>\n  {body}\n'
                    f'  <link name="{link}">{INERTIAL.format(mass=mass)}</link>\n</robot>\n')
    return path


def one_error_line(proc: subprocess.CompletedProcess[str], path: Path) -> str:
    """The one line a refused file gets: exit status 2, no traceback, the file (or the file
    it includes, ``path``) named with a line."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"gzinertia: error: {path}:"), line
    return line


def all_outputs(path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """What every command and audit format prints about ``path`` (stdout and stderr)."""
    runs = [["show", *args, str(path)], ["show", "--json", *args, str(path)]]
    runs += [["audit", "--no-cache", "--format", f, *args, str(path)] for f in FORMATS]
    texts = []
    for argv in runs:
        proc = run_cli_limited(argv, env=env)
        assert "Traceback" not in proc.stderr, proc.stderr
        texts.append(proc.stdout + proc.stderr)
    return "\n".join(texts)


# ---- 1-3. no code from the model ----------------------------------------------------------

def _lambda_attack(marker: Path) -> str:
    """xacro's names check sees only the top level: a lambda's body walks to ``open``."""
    return ("${(lambda: [c for c in ().__class__.__base__.__subclasses__() "
            "if c.__name__ == 'catch_warnings'][0]()._module.__builtins__['open']"
            f"('{marker}', 'w').write('pwned'))()}}")


def _eval_attack(marker: Path) -> str:
    """``$(eval)`` keeps Python's builtins; ``\\x29`` spells ``)`` past its lexer."""
    return ("$(eval ${'open(&quot;" + str(marker) + "&quot;, &quot;w&quot;\\x29"
            ".write(&quot;pwned&quot;\\x29'})")


ATTACKS = {"lambda": _lambda_attack, "eval": _eval_attack}


@pytest.mark.parametrize("attack", ATTACKS.values(), ids=ATTACKS.keys())
def test_no_expression_reaches_python(attack: object, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    path = robot(tmp_path, f'<xacro:property name="p" value="{attack(marker)}"/>'  # type: ignore[operator]
                 '<link name="b${p}"/>')
    for command in (["show"], ["hydrostatics"], ["audit", "--no-cache"]):
        proc = run_cli_limited([*command, str(path)])
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert not marker.exists()
    line = one_error_line(run_cli_limited(["show", str(path)]), path)
    assert re.search(r"is not evaluated|name 'open' is not defined", line), line
    # the attack is real: trusted, xacro's own eval runs it
    run_cli_limited(["show", "--trust-xacro", str(path)])
    assert marker.read_text() == "pwned"


def test_yaml_unit_tags_are_evaluated_without_python(tmp_path: Path) -> None:
    """xacro evaluates the text after a YAML unit tag (``!degrees 90``) as an expression."""
    marker = tmp_path / "pwned"
    (tmp_path / "units.yaml").write_text("angle: !degrees 90\n")
    (tmp_path / "attack.yaml").write_text(f"angle: !degrees \"{_lambda_attack(marker)[2:-1]}\"\n")
    good = robot(tmp_path, "", link="a_${xacro.load_yaml('units.yaml').angle}")
    proc = run_cli_limited(["show", "--json", str(good)])
    assert json.loads(proc.stdout)["links"][0]["name"] == f"r::a_{math.pi / 2}"
    bad = robot(tmp_path, "", name="bad.urdf.xacro",
                link="a_${xacro.load_yaml('attack.yaml').angle}")
    assert "is not evaluated" in one_error_line(run_cli_limited(["show", str(bad)]), bad)
    assert not marker.exists()


def test_str_format_walks_no_attribute(tmp_path: Path) -> None:
    """``'{0.__globals__[os].environ[X]}'.format(f)`` reads the environment without a name
    in the code (``\\x7d`` is ``}``, which would end xacro's ``${``)."""
    expression = "${'{0.__globals__[os].environ[" + SECRET_NAME + "]\\x7d'.format(xacro.tokenize)}"
    path = robot(tmp_path, f'<link name="{expression}"/>')
    env = {SECRET_NAME: SECRET}
    line = one_error_line(run_cli_limited(["show", str(path)], env=env), path)
    assert "format field" in line and "is not evaluated" in line
    assert SECRET not in all_outputs(path, env=env)


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace not installed")
def test_under_strace_no_attack_opens_a_file_or_starts_a_program(tmp_path: Path) -> None:
    """Every process of the run, followed: none opens the marker, none runs a program (no
    ``execve`` besides the first), none starts a process beyond the expansion's child."""
    marker = tmp_path / "pwned"
    body = "".join(f'<xacro:property name="p{i}" value="{attack(marker)}"/>'
                   for i, attack in enumerate(ATTACKS.values()))
    body += '<link name="b${p0}${p1}"/>'
    path = robot(tmp_path, body)
    log = tmp_path / "strace.log"
    program = ("from gzinertia.cli import main; import sys; sys.argv[0] = 'gzinertia'; main()")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    subprocess.run(
        ["strace", "-f", "-qq", "-o", str(log), "-e", "trace=execve,openat,open,creat,fork,"
         "vfork,clone,clone3", sys.executable, "-c", program, "show", str(path)],
        env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
    )
    trace = log.read_text()
    assert str(marker) not in trace
    assert len(re.findall(r"\bexecve\(", trace)) == 1, trace[-2000:]
    # one forked child for the expansion, nothing else (threads have CLONE_THREAD)
    processes = [ln for ln in trace.splitlines()
                 if re.search(r"\b(fork|vfork|clone3?)\(", ln) and "CLONE_THREAD" not in ln]
    assert len(processes) <= 1, processes
    assert not marker.exists()


# ---- 4. no secret in any output -----------------------------------------------------------

def test_env_of_a_variable_not_named_is_refused_without_its_value(tmp_path: Path) -> None:
    path = robot(tmp_path, "", link=f"$(env {SECRET_NAME})")
    env = {SECRET_NAME: SECRET}
    line = one_error_line(run_cli_limited(["show", str(path)], env=env), path)
    assert f"$(env {SECRET_NAME}): {SECRET_NAME} is not among" in line
    assert f"--xacro-env {SECRET_NAME}" in line
    outputs = all_outputs(path, env=env)
    assert SECRET not in outputs and SECRET_NAME in outputs
    # named, it is read (the user's choice)
    proc = run_cli_limited(["show", "--json", "--xacro-env", SECRET_NAME, str(path)], env=env)
    assert proc.returncode == 0 and f"r::{SECRET}" in proc.stdout


def test_optenv_of_a_variable_not_named_takes_its_default_and_says_so(tmp_path: Path) -> None:
    path = robot(tmp_path, "", link=f"x_$(optenv {SECRET_NAME} fallback)",
                 mass=f"$(optenv {SECRET_NAME}_MASS 2.5)")
    env = {SECRET_NAME: SECRET, f"{SECRET_NAME}_MASS": "7"}
    outputs = all_outputs(path, env=env)
    assert SECRET not in outputs
    proc = run_cli_limited(["show", "--json", str(path)], env=env)
    doc = json.loads(proc.stdout)
    masses = {link["name"]: link["mass"] for link in doc["links"]}
    assert masses == {"r::x_fallback": 2.5}  # the defaults
    audit = json.loads(run_cli_limited(["audit", "--no-cache", "--format", "json",
                                        "--select", "GZI404", str(path)], env=env).stdout)
    [finding] = audit["findings"]
    first = next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if "$(optenv" in ln)
    assert finding["code"] == "GZI404" and finding["line"] == first
    assert finding["values"]["variables"] == f"{SECRET_NAME},{SECRET_NAME}_MASS"
    # named in the settings, the variable is read, and nothing is reported
    (tmp_path / ".gzinertia.toml").write_text(
        f'xacro-env = ["{SECRET_NAME}_MASS", "{SECRET_NAME}"]\n')
    audit = json.loads(run_cli_limited(["audit", "--no-cache", "--format", "json", "--select",
                                        "GZI404", str(tmp_path)], env=env).stdout)
    assert audit["findings"] == []
    # ... and the report says which settings file let it be read (a pull request could add one)
    [use] = audit["settings"]
    assert use["changes"]["xacro-env"] == [f"{SECRET_NAME}_MASS", SECRET_NAME]


def test_a_named_variable_s_value_never_reaches_an_error_line(tmp_path: Path) -> None:
    """Named, its value enters the model (the user's choice) but an error quoting the
    evaluated text shows ``$(env NAME)`` in its place."""
    path = robot(tmp_path, f"<link name=\"${{float('$(env {SECRET_NAME})')}}\"/>")
    env = {SECRET_NAME: SECRET}
    line = one_error_line(
        run_cli_limited(["show", "--xacro-env", SECRET_NAME, str(path)], env=env), path)
    assert SECRET not in line and f"$(env {SECRET_NAME})" in line


# ---- 5. reads stay under the model's folders ----------------------------------------------

@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the checkout, with a YAML file and a xacro file that must stay unread."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text(f"token: {SECRET}\n")
    (folder / f"{SECRET}.xacro").write_text(f"<robot {XACRO_NS}/>\n")  # its name is secret
    (folder / "other.xacro").write_text(
        f'<robot {XACRO_NS}><xacro:property name="t" value="{SECRET}"/></robot>\n')
    return folder


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    folder = tmp_path / "checkout" / "urdf"
    folder.mkdir(parents=True)
    return folder


READS = {
    "load_yaml, absolute": "<link name=\"${{xacro.load_yaml('{outside}/secret.yaml').token}}\"/>",
    "load_yaml, relative": "<link name=\"${{xacro.load_yaml('../../outside/secret.yaml').token}}\"/>",
    "load_yaml, link": "<link name=\"${{xacro.load_yaml('link.yaml').token}}\"/>",
    "eval open": "<link name=\"$(eval ${{'open(&quot;{outside}/secret.yaml&quot;\\x29"
                 ".read(\\x29'}})\"/>",
    "include glob": '<xacro:include filename="{outside}/*.xacro"/>',
    "include glob through a link": '<xacro:include filename="linked/*.xacro"/>',
    "include, relative": '<xacro:include filename="../../outside/other.xacro"/>',
    "include through a link": '<xacro:include filename="linked/other.xacro"/>',
    "hidden folder": "<link name=\"${{xacro.load_yaml('.git/config.yaml')}}\"/>",
    "not YAML": "<link name=\"${{xacro.load_yaml('../../outside/other.xacro')}}\"/>",
}


@pytest.mark.parametrize("body", READS.values(), ids=READS.keys())
def test_reads_stay_under_the_model_s_folders(body: str, checkout: Path, outside: Path) -> None:
    (checkout / "link.yaml").symlink_to(outside / "secret.yaml")
    (checkout / "linked").symlink_to(outside)
    (checkout / ".git").mkdir()
    (checkout / ".git" / "config.yaml").write_text(f"token: {SECRET}\n")
    path = robot(checkout, body.format(outside=outside, secret=SECRET))
    line = one_error_line(run_cli_limited(["show", str(path)]), path)
    assert re.search(r"outside the folders xacro may read|is not defined|reads \.yaml", line), line
    outputs = all_outputs(path)
    assert SECRET not in outputs


def test_reads_reach_the_package_and_the_package_paths(tmp_path: Path) -> None:
    """What real models do still works: a file of the same package by a relative path, a
    file of another package through ``$(find)``, YAML beside it."""
    ws = tmp_path / "ws"
    for pkg in ("robot_description", "parts"):
        (ws / pkg / "urdf").mkdir(parents=True)
        (ws / pkg / "package.xml").write_text(f"<package><name>{pkg}</name></package>")
    (ws / "parts" / "config").mkdir()
    (ws / "parts" / "config" / "mass.yaml").write_text("mass: 4.5\n")
    (ws / "parts" / "urdf" / "part.xacro").write_text(
        f'<robot {XACRO_NS}><xacro:property name="m" '
        "value=\"${xacro.load_yaml('$(find parts)/config/mass.yaml').mass}\"/></robot>\n")
    (ws / "robot_description" / "urdf" / "common.xacro").write_text(
        f'<robot {XACRO_NS}><xacro:include filename="$(find parts)/urdf/part.xacro"/></robot>\n')
    robots = ws / "robot_description" / "robots"
    robots.mkdir()
    path = robot(robots, '<xacro:include filename="../urdf/common.xacro"/>', mass="${m}")
    proc = run_cli_limited(["show", "--json", "--package-path", str(ws), str(path)])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["links"][0]["mass"] == 4.5


def test_yaml_errors_do_not_quote_the_file(checkout: Path) -> None:
    (checkout / "bad.yaml").write_text(f"a: [1, 2\nb: {SECRET}: x\n")
    path = robot(checkout, "<link name=\"${xacro.load_yaml('bad.yaml')}\"/>")
    line = one_error_line(run_cli_limited(["show", str(path)]), path)
    assert "not valid YAML" in line and "line" in line and SECRET not in line


# ---- 12. messages -------------------------------------------------------------------------

def test_an_include_cycle_is_one_line_at_the_include(tmp_path: Path) -> None:
    a = robot(tmp_path, '<xacro:include filename="b.xacro"/>', name="a.urdf.xacro")
    b = tmp_path / "b.xacro"
    b.write_text(f'<robot {XACRO_NS}>\n\n  <xacro:include filename="a.urdf.xacro"/>\n</robot>\n')
    line = one_error_line(run_cli_limited(["show", str(a)]), b)
    assert line == (f"gzinertia: error: {b}:3: xacro: the include of {tmp_path / 'a.urdf.xacro'} "
                    "is a cycle (a.urdf.xacro -> b.xacro -> a.urdf.xacro)")
    selfish = robot(tmp_path, '<xacro:include filename="self.urdf.xacro"/>',
                    name="self.urdf.xacro")
    line = one_error_line(run_cli_limited(["show", str(selfish)]), selfish)
    assert line.startswith(f"gzinertia: error: {selfish}:2: xacro: the include of ")
    assert line.endswith("is a cycle (self.urdf.xacro -> self.urdf.xacro)")


@pytest.mark.parametrize("variable", ["GZINERTIA_XACRO_SECONDS", "GZINERTIA_XACRO_MAX_MEMORY"])
@pytest.mark.parametrize("value", ["99999999999999999999", "1e30", "0", "-5", "1_000", "٣"])
def test_limits_from_the_environment_are_checked(variable: str, value: str,
                                                 tmp_path: Path) -> None:
    path = robot(tmp_path, "")
    proc = run_cli_limited(["show", str(path)], env={variable: value})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert line.startswith(f"gzinertia: error: {variable} must be a whole number from 1 to ")
