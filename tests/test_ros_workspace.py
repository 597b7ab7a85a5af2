"""Acceptance (issue 25): a generated ROS workspace audited as CI audits it.

Two packages with ``package.xml``; a robot whose xacro needs an argument (``--xacro-arg``),
includes a macro-only file and a nameless fragment of its own package, and, through
``$(find)``, a fragment of the other package that ``$(find)``s again (nested) and uses a
``package://`` mesh (an STL the test writes). Audited with ``--package-path .`` from the
workspace: the first run exits by its findings only (never 2: no file is unreadable), the
second comes from the cache with the same report. The GitHub Action's audit step does the
same (its own test, run as ``tests/test_audit_ci.py`` runs it, without network).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import test_audit_xacro_args
from conftest import REPO, run_cli
from test_audit_ci import SCHEMA, run_audit_step

from gzinertia.spatial.inertia import gz_tolerance

XACRO = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
HULL_MASS = 50.0
HULL_SIZE = (1.0, 0.5, 0.5)
#: The thrusters' principal moments, kg m^2: they break the triangle inequality on purpose.
THRUSTER_MOMENTS = (0.01, 0.01, 0.03)
#: The files the audit really checked (not served from the cache): the fixture of
#: tests/test_audit_xacro_args.py.
checked = test_audit_xacro_args.checked
ARGS = ["--package-path", ".", "--xacro-arg", f"hull_mass:={HULL_MASS:g}"]


def _box_inertia(mass: float, size: tuple[float, float, float]) -> tuple[float, float, float]:
    """A solid box's principal moments about its centre (closed form)."""
    a, b, c = size
    return (mass / 12 * (b * b + c * c), mass / 12 * (a * a + c * c), mass / 12 * (a * a + b * b))


def _inertia(moments: tuple[float, float, float]) -> str:
    ixx, iyy, izz = moments
    return f'<inertia ixx="{ixx!r}" ixy="0" ixz="0" iyy="{iyy!r}" iyz="0" izz="{izz!r}"/>'


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _package(folder: Path, name: str) -> None:
    _write(folder / "package.xml", f'<?xml version="1.0"?>\n<package format="3">\n'
           f"  <name>{name}</name>\n  <version>0.0.1</version>\n</package>\n")


def write_workspace(ws: Path) -> dict[str, Path]:
    """The workspace under ``ws``; its files by role."""
    import trimesh

    description, parts = ws / "src" / "vehicle_description", ws / "src" / "vehicle_parts"
    _package(description, "vehicle_description")
    _package(parts, "vehicle_parts")
    mesh = parts / "meshes" / "thruster.stl"
    mesh.parent.mkdir(parents=True)
    trimesh.creation.box(extents=(0.2, 0.1, 0.1)).export(mesh)
    hull = _box_inertia(HULL_MASS, HULL_SIZE)
    files = {
        "robot": _write(description / "urdf" / "vehicle.urdf.xacro", (
            f'<?xml version="1.0"?>\n<robot name="vehicle" {XACRO}>\n'
            # $(arg hull_mass) is declared nowhere: only --xacro-arg gives it a value
            '  <xacro:property name="namespace" value="vehicle"/>\n'
            '  <xacro:include filename="$(find vehicle_description)/urdf/hull.xacro"/>\n'
            '  <xacro:hull name="base_link" mass="$(arg hull_mass)"/>\n'
            '  <xacro:include filename="$(find vehicle_description)/urdf/actuators.xacro"/>\n'
            '  <xacro:include filename="$(find vehicle_parts)/urdf/thruster_set.xacro"/>\n'
            "</robot>\n")),
        "macros": _write(description / "urdf" / "hull.xacro", (
            f'<?xml version="1.0"?>\n<robot name="hull" {XACRO}>\n'
            '  <xacro:macro name="hull" params="name mass">\n'
            f'    <link name="${{name}}"><inertial><mass value="${{mass}}"/>{_inertia(hull)}'
            "</inertial>\n"
            f'      <collision><geometry><box size="{" ".join(map(str, HULL_SIZE))}"/>'
            "</geometry></collision>\n"
            "    </link>\n  </xacro:macro>\n</robot>\n")),
        "fragment": _write(description / "urdf" / "actuators.xacro", (
            f'<?xml version="1.0"?>\n<robot {XACRO}>\n'
            '  <joint name="${namespace}/fin_joint" type="revolute"><parent link="base_link"/>'
            '<child link="${namespace}/fin"/><axis xyz="0 0 1"/>'
            '<limit lower="-0.5" upper="0.5" effort="10" velocity="1"/></joint>\n'
            '  <link name="${namespace}/fin"><inertial><mass value="0.5"/>'
            f"{_inertia(_box_inertia(0.5, (0.2, 0.02, 0.1)))}</inertial></link>\n"
            "</robot>\n")),
        "nested": _write(parts / "urdf" / "thruster_set.xacro", (
            f'<?xml version="1.0"?>\n<robot {XACRO}>\n'
            '  <xacro:include filename="$(find vehicle_parts)/urdf/thruster_macro.xacro"/>\n'
            '  <xacro:thruster id="0" y="0.3"/>\n  <xacro:thruster id="1" y="-0.3"/>\n'
            "</robot>\n")),
        "thruster": _write(parts / "urdf" / "thruster_macro.xacro", (
            f'<?xml version="1.0"?>\n<robot name="thruster_macro" {XACRO}>\n'
            '  <xacro:macro name="thruster" params="id y">\n'
            '    <joint name="thruster_${id}_joint" type="continuous"><parent link="base_link"/>'
            '<child link="thruster_${id}"/><origin xyz="-0.5 ${y} 0"/><axis xyz="1 0 0"/>'
            "</joint>\n"
            '    <link name="thruster_${id}">\n'
            f'      <inertial><mass value="1"/>{_inertia(THRUSTER_MOMENTS)}</inertial>\n'
            "      <collision><geometry>"
            '<mesh filename="package://vehicle_parts/meshes/thruster.stl"/></geometry>'
            "</collision>\n    </link>\n  </xacro:macro>\n</robot>\n")),
        "mesh": mesh,
    }
    return files


def _violates_triangle(moments: tuple[float, float, float]) -> bool:
    """The physics the audit checks: principal moments of a rigid body obey the triangle
    inequality (within gz-math's tolerance)."""
    m = np.sort(np.array(moments))
    return bool(m[0] + m[1] - m[2] < -gz_tolerance(m))


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    ws = tmp_path / "ws"
    files = write_workspace(ws)
    monkeypatch.chdir(ws)
    return files


def _run(capsys: pytest.CaptureFixture[str], cache: Path) -> tuple[int, dict[str, Any]]:
    status, out, _ = run_cli(["audit", "src", "--format", "json", "--cache-dir", str(cache),
                                *ARGS], capsys)
    return status, json.loads(out)


def test_the_workspace_audits_by_its_findings_only(
    workspace: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, report = _run(capsys, tmp_path / "cache")
    files = {Path(f["path"]).name: f for f in report["files"]}
    assert [f for f in report["files"] if f["status"] == "error"] == []
    assert files["vehicle.urdf.xacro"]["status"] == "ok"
    for name in ("hull.xacro", "actuators.xacro", "thruster_set.xacro", "thruster_macro.xacro"):
        assert files[name]["status"] == "skipped", files[name]
        assert "audited through" in files[name]["message"], files[name]
    # the defect the thrusters carry is found, where the macro writes it, once per thruster
    assert _violates_triangle(THRUSTER_MOMENTS)
    assert not _violates_triangle(_box_inertia(HULL_MASS, HULL_SIZE))
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert errors and {Path(f["file"]).name for f in errors} == {"thruster_macro.xacro"}
    assert {f["link"].rsplit("::", 1)[-1] for f in errors} == {"thruster_0", "thruster_1"}
    assert status == 1  # by the findings, not 2


def test_the_argument_is_what_the_robot_needs(
    workspace: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The twin: without ``--xacro-arg`` the robot cannot be expanded (an argument without a
    default), and that is an unreadable file, exit 2."""
    status, out, _ = run_cli(["audit", "src", "--format", "json", "--no-cache",
                              "--package-path", "."], capsys)
    assert status == 2
    (error,) = [f for f in json.loads(out)["files"] if f["status"] == "error"]
    assert error["path"].endswith("vehicle.urdf.xacro") and "hull_mass" in error["message"]


def test_the_second_run_gives_the_same_report(
    workspace: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache"
    first, second = _run(capsys, cache), _run(capsys, cache)
    assert first == second and first[0] == 1


def _robot_checked_again(capsys: pytest.CaptureFixture[str], cache: Path,
                         checked: list[str]) -> list[str]:
    """The robot files the second of two runs checked again (not served from the cache)."""
    _run(capsys, cache)
    checked.clear()
    _run(capsys, cache)
    return [p for p in checked if p.endswith("vehicle.urdf.xacro")]


def test_the_second_run_comes_from_the_cache(
    workspace: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    checked: list[str],
) -> None:
    assert _robot_checked_again(capsys, tmp_path / "cache", checked) == []


def test_without_package_meshes_the_second_run_comes_from_the_cache(
    workspace: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    checked: list[str],
) -> None:
    """The twin of the test above: the same workspace with the thrusters' ``package://`` mesh
    replaced by a box is served from the cache (item 3's bug is the ``package://`` mesh)."""
    macro = workspace["thruster"]
    mesh = '<mesh filename="package://vehicle_parts/meshes/thruster.stl"/>'
    assert mesh in macro.read_text()
    macro.write_text(macro.read_text().replace(mesh, '<box size="0.2 0.1 0.1"/>'))
    assert _robot_checked_again(capsys, tmp_path / "cache", checked) == []


def test_the_github_action_audits_the_workspace_with_a_relative_package_path(
    workspace: dict[str, Path], tmp_path: Path
) -> None:
    """The Action's audit step, run as the CI runner runs it (``tests/test_audit_ci.py``),
    from the workspace with ``--package-path .`` in its ``args``."""
    done, sarif, output = run_audit_step(Path.cwd(), tmp_path, "src", " ".join(ARGS),
                                         GZI_CONFIG="root", PYTHONPATH=str(REPO))
    # the thrusters' defect fails the job (1), nothing is unreadable (2)
    assert output.read_text().split() == ["exit-code=1", "sarif-written=true"]
    import jsonschema

    log = json.loads(sarif.read_text())
    jsonschema.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    assert results and all("thruster_macro.xacro" in json.dumps(r["locations"]) for r in results
                           if r["level"] == "error")
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::")]
    errors = [a for a in annotations if a.startswith("::error")]
    assert errors and all(re.match(r"::error file=src/vehicle_parts/urdf/thruster_macro\.xacro",
                                   a) for a in errors), errors
    assert "unreadable" not in done.stdout
