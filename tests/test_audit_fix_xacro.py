"""``audit --fix`` expands a xacro file as the audit does: with the settings' and the command
line's xacro arguments and with the environment variables the settings let it read. Before,
the fix expanded without them, failed, and left the file as it was ("--fix left ... as it
was") while the audit of the same file, expanded with them, reported the safe fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import run_cli

# izz 0.0015 % beyond the triangle inequality (1 + 1 >= izz): GZI104 with a safe fix; the mass
# comes from outside the file, so the file expands only with it.
_ROBOT = (
    '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
    "  {declare}\n"
    '  <link name="hull"><inertial><mass value="{mass}"/>\n'
    '    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="2.00003"/></inertial>\n'
    "  </link>\n</robot>\n"
)


def _gzi104(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> bool:
    code, out, err = run_cli(["audit", "--no-cache", "--format", "json", *extra, str(path)],
                             capsys)
    assert code in (0, 1), err
    return any(f["code"] == "GZI104" for f in json.loads(out)["findings"])


@pytest.mark.parametrize("how", ["settings", "command line"])
def test_audit_fix_takes_the_xacro_arguments_the_audit_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    robot = tmp_path / "r.urdf.xacro"
    robot.write_text(_ROBOT.format(declare='<xacro:arg name="mass" default=""/>',
                                   mass="$(arg mass)"))
    extra: tuple[str, ...] = ()
    if how == "settings":
        (tmp_path / "pyproject.toml").write_text(
            '[tool.gzinertia]\n[tool.gzinertia.xacro-args]\n"*" = { mass = "10" }\n')
    else:
        extra = ("--xacro-arg", "mass:=10")
    assert _gzi104(robot, capsys, *extra)
    _, _, err = run_cli(["audit", "--fix", "--no-cache", *extra, str(robot)], capsys)
    assert "left" not in err and "fixed" in err, err
    assert not _gzi104(robot, capsys, *extra)


def test_audit_fix_reads_the_environment_the_settings_allow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    robot = tmp_path / "r.urdf.xacro"
    robot.write_text(_ROBOT.format(declare="", mass="$(env HULL_MASS)"))
    (tmp_path / "pyproject.toml").write_text('[tool.gzinertia]\nxacro-env = ["HULL_MASS"]\n')
    monkeypatch.setenv("HULL_MASS", "10")
    assert _gzi104(robot, capsys)
    _, _, err = run_cli(["audit", "--fix", "--no-cache", str(robot)], capsys)
    assert "left" not in err and "fixed" in err, err
    assert not _gzi104(robot, capsys)
