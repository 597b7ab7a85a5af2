"""Include-only xacro fragments are skipped with why and audited through the files that include
them (issue 25 item 2); editing commands given one say so instead of a false reason (item 14).

A fragment is one of (:mod:`gzinertia.urdf.fragments`):

* a xacro file whose root holds only ``xacro:macro``/``property``/``arg`` definitions (and
  ``xacro:include``s, when its expansion gives no robot): a library of macros;
* a xacro ``<robot>`` without a ``name``: urdfdom loads no robot without one, and
  ``xacro:include`` drops the included root's attributes, so it is only ever included
  (uuv_simulator's ``rexrov_actuators.xacro``);
* a file another audited xacro file includes (its ``filename`` resolved as far as it can be
  without expanding: ``$(find)`` through the package paths, ``$(arg)`` and ``${}`` matching any
  text, as in VRX's ``thruster_layouts/wamv_$(arg thruster_config)_thrusters.xacro``), which
  cannot be read on its own.

Anything else that cannot be read stays an error (exit 2).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import run_cli

from gzinertia.audit.runner import audit

XACRO = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
INERTIA = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'


def _link(name: str, mass: str = "2") -> str:
    return f'<link name="{name}"><inertial><mass value="{mass}"/>{INERTIA}</inertial></link>'


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _vehicle(root: Path) -> dict[str, Path]:
    """A vehicle laid out as uuv_simulator and VRX lay theirs out: a robot file that includes
    a nameless fragment (links using the includer's ``${namespace}``), one of two thruster
    layouts chosen by an argument, and a macro library that includes a package not on the
    path inside a macro only the robot would call."""
    urdf = root / "urdf"
    files = {
        "robot": _write(urdf / "vehicle.urdf.xacro", (
            f'<robot name="vehicle" {XACRO}>\n'
            '  <xacro:arg name="layout" default="h"/>\n'
            '  <xacro:property name="namespace" value="vehicle"/>\n'
            f"  {_link('base_link', '20')}\n"
            '  <xacro:include filename="actuators.xacro"/>\n'
            '  <xacro:include filename="layouts/vehicle_$(arg layout)_thrusters.xacro"/>\n'
            "</robot>\n")),
        # a nameless fragment: ${namespace} is the includer's; a negative mass on line 3
        "actuators": _write(urdf / "actuators.xacro", (
            f"<robot {XACRO}>\n"
            '  <joint name="${namespace}/fin_joint" type="fixed"><parent link="base_link"/>'
            '<child link="${namespace}/fin"/></joint>\n'
            f"  {_link('${namespace}/fin', '-1')}\n"
            "</robot>\n")),
        "layout_h": _write(urdf / "layouts" / "vehicle_h_thrusters.xacro", _layout("h")),
        "layout_t": _write(urdf / "layouts" / "vehicle_t_thrusters.xacro", _layout("t")),
        "library": _write(urdf / "sensors.xacro", (
            f'<robot name="sensors" {XACRO}>\n'
            '  <xacro:include filename="$(find not_in_this_workspace)/urdf/camera.xacro"/>\n'
            '  <xacro:macro name="camera" params="parent"/>\n'
            "</robot>\n")),
    }
    return files


def _layout(kind: str) -> str:
    """A named thruster layout whose joint hangs from the includer's ``base_link``: alone, a
    joint to a link that is not there."""
    return (
        f'<robot name="thrusters_{kind}" {XACRO}>\n'
        f'  <joint name="{kind}_joint" type="fixed"><parent link="base_link"/>'
        f'<child link="{kind}_thruster"/></joint>\n'
        f"  {_link(kind + '_thruster', '1')}\n"
        "</robot>\n"
    )


def _statuses(result: object) -> dict[str, tuple[str, str | None]]:
    return {Path(s.path).name: (s.status, s.message) for s in result.files}  # type: ignore[attr-defined]


def test_fragments_of_a_vehicle_are_skipped_with_why_and_audited_through_the_robot(
    tmp_path: Path,
) -> None:
    files = _vehicle(tmp_path)
    result = audit([str(tmp_path / "urdf")])
    status = _statuses(result)
    assert status["vehicle.urdf.xacro"][0] == "ok"
    for name in ("actuators.xacro", "vehicle_h_thrusters.xacro", "vehicle_t_thrusters.xacro",
                 "sensors.xacro"):
        assert status[name][0] == "skipped", (name, status[name])
    assert "without a name" in str(status["actuators.xacro"][1])
    assert "vehicle.urdf.xacro" in str(status["actuators.xacro"][1])  # audited through it
    for layout in ("vehicle_h_thrusters.xacro", "vehicle_t_thrusters.xacro"):
        message = str(status[layout][1])
        assert "audited through" in message and "vehicle.urdf.xacro" in message, message
        assert "base_link" in message  # what reading it alone ran into is still said
    assert "macro" in str(status["sensors.xacro"][1])
    assert "not_in_this_workspace" in str(status["sensors.xacro"][1])
    # the defect written in the fragment (a negative mass, line 3) is found through the robot,
    # at its place
    at_fragment = [f for f in result.findings if Path(f.file).resolve() == files["actuators"]]
    assert at_fragment and {f.line for f in at_fragment} == {3}
    assert any("mass -1" in f.message for f in at_fragment)


def test_the_cli_exits_by_the_findings_not_2_on_a_tree_with_fragments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _vehicle(tmp_path)
    status, out, _ = run_cli(["audit", str(tmp_path / "urdf"), "--format", "text",
                              "--no-cache"], capsys)
    assert status == 1  # the negative mass (an error), nothing unreadable
    assert "unreadable" not in out and "4 skipped" in out


def test_a_macro_library_without_includes_is_skipped_without_being_expanded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzinertia.urdf.xacro_expand as xacro_expand

    library = _write(tmp_path / "macros.xacro", (
        f'<robot name="lib" {XACRO}>\n  <!-- shared parts -->\n'
        '  <xacro:property name="m" value="2"/>\n  <xacro:arg name="a" default="1"/>\n'
        f'  <xacro:macro name="part" params="name">{_link("${name}")}</xacro:macro>\n'
        "</robot>\n"))

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a macro library was expanded")

    monkeypatch.setattr(xacro_expand, "expand_xacro_sourced", refuse)
    (status,) = audit([str(library)]).files
    assert status.status == "skipped" and "macro" in str(status.message)


@pytest.mark.parametrize("case", ["not xml", "unknown macro", "wildcard include only",
                                  "nameless urdf"])
def test_files_that_are_broken_and_no_fragment_stay_errors(tmp_path: Path, case: str) -> None:
    """The twins: a named robot with links outside any macro that no audited file includes
    (or only an include whose whole file name is an argument, ``$(arg extras)``, names it) is
    a robot; when it cannot be read, it is unreadable. A plain URDF file is never a fragment
    unless a xacro file includes it."""
    robot = f'<robot name="r" {XACRO}>\n  {_link("hull")}\n'
    texts = {
        "not xml": ("broken.urdf.xacro", robot + "  <link name='x'>\n</robot>\n"),
        "unknown macro": ("broken.urdf.xacro", robot + '  <xacro:nowhere a="1"/>\n</robot>\n'),
        "wildcard include only": ("broken.urdf.xacro",
                                  robot + '  <joint name="j" type="fixed"><parent link="gone"/>'
                                  '<child link="hull"/></joint>\n</robot>\n'),
        "nameless urdf": ("broken.urdf", "<robot>\n  " + _link("hull") + "\n</robot>\n"),
    }
    name, text = texts[case]
    broken = _write(tmp_path / "urdf" / name, text)
    _write(tmp_path / "urdf" / "main.urdf.xacro", (
        f'<robot name="main" {XACRO}>\n  <xacro:arg name="extras" default="empty.urdf"/>\n'
        f"  {_link('base')}\n"
        '  <xacro:include filename="$(arg extras)"/>\n</robot>\n'))
    _write(tmp_path / "urdf" / "empty.urdf", "<robot>\n</robot>\n")
    status = _statuses(audit([str(tmp_path / "urdf")]))
    assert status[broken.name][0] == "error", status[broken.name]
    # husky's placeholder: a nameless URDF that main includes by its argument's default
    assert status["empty.urdf"][0] == "skipped", status["empty.urdf"]


def test_a_fragment_is_reported_skipped_in_json_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _vehicle(tmp_path)
    status, out, _ = run_cli(["audit", str(files["actuators"]), "--format", "json",
                              "--no-cache"], capsys)
    (entry,) = json.loads(out)["files"]
    assert status == 0 and entry["status"] == "skipped"
    # named alone, nothing that includes it is audited: said, with what to audit instead
    assert "audit the file that includes it" in entry["message"]


# --- item 14: editing commands given a fragment --------------------------------------------

EDITS = [
    ["fix"],
    ["fix", "--check"],
    ["audit", "--fix", "--no-cache"],
    ["addmass", "--ellipsoid"],
    ["hydro", "--link", "hull"],
    ["shift", "--link", "hull", "--from", "com"],
    ["convert", "--hydro-to-sdf"],
]


@pytest.mark.parametrize("command", EDITS, ids=lambda c: " ".join(c))
@pytest.mark.parametrize("kind", ["library", "nameless"])
def test_an_editing_command_on_a_fragment_says_there_is_nothing_to_edit_there(
    tmp_path: Path, command: list[str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "library":
        text = (f"<robot {XACRO}>\n  <xacro:property name=\"m\" value=\"2\"/>\n"
                f'  <xacro:macro name="hull" params="">{_link("hull")}</xacro:macro>\n</robot>\n')
    else:
        text = f"<robot {XACRO}>\n  {_link('hull')}\n</robot>\n"
    path = _write(tmp_path / "part.xacro", text)
    before = path.read_bytes()
    status, out, err = run_cli([*command, str(path)], capsys)
    assert path.read_bytes() == before
    if command[0] == "audit":  # audit --fix fixes nothing there and lists it skipped
        assert status == 0 and "skipped" in out and "has no name attribute" not in out + err
        return
    assert status == 2, (out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "has no name attribute" not in lines[0] and "not <sdf>" not in lines[0]
    assert str(path) in lines[0] and "nothing to" in lines[0] and "where" in lines[0]
