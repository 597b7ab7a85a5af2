"""Every command that reads a model takes xacro as ROS does (issue 25 item 5).

One set of model-input options (``-m/--model-path``, ``--package-path``, ``--xacro-arg``,
``--xacro-env``, ``--trust-xacro``: :func:`gzinertia.cli.options.model_input_options`) on
every command. The oracle for a xacro that needs an argument (``simulation:=true``, as the
Heron does) and a ``$(find)``: the same command on the URDF the real ``xacro`` package expands
from it, run here (tests/test_xacro_compatibility.py's command).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from test_xacro_compatibility import _xacro_command

from gzinertia.cli import app
from gzinertia.cli.app import COMMAND_MODULES

OPTIONS = ("--model-path", "--package-path", "--xacro-arg", "--xacro-env", "--trust-xacro")

HULL = """<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="hull_mass" value="$(optenv BOAT_MASS 30)"/>
</robot>
"""

BOAT = """<robot name="boat" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="simulation" default="false"/>
  <xacro:include filename="$(find boat_description)/urdf/hull.xacro"/>
  <xacro:if value="$(arg simulation)">
    <link name="hull">
      <inertial><origin xyz="0 0 0.01"/><mass value="${hull_mass}"/>
        <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial>
      <collision><geometry><box size="1.2 0.6 0.3"/></geometry></collision>
    </link>
  </xacro:if>
  <xacro:unless value="$(arg simulation)"><link name="stub"/></xacro:unless>
</robot>
"""


def boat_package(tmp_path: Path) -> tuple[Path, Path]:
    """(the xacro of package ``boat_description``, its package path) under ``tmp_path``."""
    package = tmp_path / "ws" / "boat_description"
    (package / "urdf").mkdir(parents=True)
    (package / "package.xml").write_text("<package><name>boat_description</name></package>")
    (package / "urdf" / "hull.xacro").write_text(HULL)
    xacro = package / "urdf" / "boat.urdf.xacro"
    xacro.write_text(BOAT)
    return xacro, tmp_path / "ws"


@pytest.fixture
def boat(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(the xacro, its package path, the URDF the xacro package expands with
    ``simulation:=true``)."""
    xacro, _ = boat_package(tmp_path)
    proc = _xacro_command(xacro, tmp_path / "ws", {"simulation": "true"}, {})
    assert proc.returncode == 0, proc.stderr
    urdf = tmp_path / "expanded" / "boat.urdf"
    urdf.parent.mkdir()
    urdf.write_text(proc.stdout)
    return xacro, tmp_path / "ws", urdf


def _args(xacro: Path, ws: Path) -> list[str]:
    return [str(xacro), "--package-path", str(ws), "--xacro-arg", "simulation:=true"]


def test_every_command_that_reads_a_model_has_the_model_input_options() -> None:
    import typer.main

    group = typer.main.get_group(app)
    for name in COMMAND_MODULES:
        arguments = {p.name for p in group.commands[name].params
                     if p.param_type_name == "argument"}
        if not arguments & {"file", "files", "paths"}:
            continue  # reads no model (gzinertia catalogue: the package's own data)
        params = {o for p in group.commands[name].params for o in getattr(p, "opts", [])}
        missing = [o for o in OPTIONS if o not in params]
        assert not missing, (name, missing)


def _values(entries: object) -> object:
    """The JSON of a report without the places (file and line differ: the xacro's lines)."""
    if isinstance(entries, dict):
        return {k: _values(v) for k, v in entries.items() if k not in ("file", "line")}
    if isinstance(entries, list):
        return [_values(v) for v in entries]
    return entries


def _same_report(text: str, xacro: Path, urdf: Path) -> str:
    return text.replace(str(xacro), "FILE").replace(str(urdf), "FILE")


@pytest.mark.parametrize("command", [["show", "--json"], ["hydrostatics", "--json"]])
def test_a_reading_command_reads_the_xacro_as_the_expanded_urdf(
    command: list[str], boat: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    xacro, ws, urdf = boat
    code, out, err = run_cli([*command, *_args(xacro, ws)], capsys)
    assert code == 0, err
    code, expected, err = run_cli([*command, str(urdf)], capsys)
    assert code == 0, err
    ours, theirs = json.loads(out), json.loads(expected)
    key = "links" if "links" in ours else "models"
    assert ours[key] and _values(ours[key]) == _values(theirs[key])
    assert "hull" in json.dumps(ours[key])  # the argument was taken: the hull exists


@pytest.mark.parametrize("command", [
    ["fix", "--check"],
    ["fix", "--method", "geometry", "--check"],
    ["addmass", "--ellipsoid", "--density", "10", "--check"],  # a light fluid: added mass under the hull (GZI506)
])
def test_an_edit_computes_on_the_xacro_what_it_computes_on_the_expanded_urdf(
    command: list[str], boat: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """What the edit computes (its report on stderr) is the same; ``--check`` says the file
    would change for both."""
    xacro, ws, urdf = boat
    code, _, err = run_cli([*command, *_args(xacro, ws)], capsys)
    code_urdf, _, err_urdf = run_cli([*command, str(urdf)], capsys)
    assert code == code_urdf == 1, (err, err_urdf)
    assert "hull" in err
    assert _same_report(err, xacro, urdf) == _same_report(err_urdf, xacro, urdf)


def test_the_xacro_env_and_trust_options_reach_an_edit(
    boat: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--xacro-env BOAT_MASS`` lets the expansion read the variable (60 kg, not the
    default 30 kg): the mass addmass's fit and fix's report are computed for."""
    xacro, ws, _ = boat
    monkeypatch.setenv("BOAT_MASS", "60")
    code, out, err = run_cli(["show", "--json", *_args(xacro, ws), "--xacro-env", "BOAT_MASS"],
                             capsys)
    assert code == 0, err
    assert [lk["mass"] for lk in json.loads(out)["links"]] == [60.0]
    code, out, err = run_cli(["hydrostatics", "--json", *_args(xacro, ws)], capsys)
    assert code == 0, err
    assert '"mass": 30' in out.replace(".0", "")  # not named: the default, as the audit says


@pytest.mark.parametrize("command", [
    ["hydro", "-l", "hull", "--check"],
    ["shift", "-l", "hull", "--from", "com", "--check"],
    ["convert", "--hydro-to-sdf", "--check"],
])
def test_an_sdf_only_edit_takes_the_options_and_says_what_to_do_with_urdf(
    command: list[str], boat: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    xacro, ws, _ = boat
    code, out, err = run_cli([*command[:1], *_args(xacro, ws), *command[1:]], capsys)
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert f"{xacro}: {command[0]} edits SDFormat files only" in line
    assert f"gzinertia expand {xacro} --sdf" in line


def test_a_malformed_xacro_arg_is_one_line_for_every_command(
    boat: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    xacro = boat[0]
    for command in ("hydrostatics", "fix", "addmass", "show"):
        code, _, err = run_cli([command, str(xacro), "--xacro-arg", "simulation"], capsys)
        assert code == 2 and len(err.splitlines()) == 1 and "simulation" in err, (command, err)
