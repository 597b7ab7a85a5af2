"""xacro expansion without ROS: the same text as the ``xacro`` command, packages found through
``--package-path``/``ROS_PACKAGE_PATH``/``AMENT_PREFIX_PATH``, errors as one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_xacro_compatibility import XACRO_COMMAND

from gzinertia.errors import SdfError
from gzinertia.urdf import read_urdf_file
from gzinertia.urdf.ros_packages import find_package, resolve_package_uri


def _fake_workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "src"
    desc = ws / "deep" / "my_auv_description"
    (desc / "urdf").mkdir(parents=True)
    (desc / "meshes").mkdir()
    (desc / "package.xml").write_text("<package><name>my_auv</name></package>")
    (desc / "meshes" / "hull.stl").write_text("solid x\nendsolid x\n")
    (desc / "urdf" / "hull.xacro").write_text(
        """<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:macro name="hull" params="mass">
    <link name="hull"><inertial><mass value="${mass}"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="2"/></inertial>
      <collision><geometry><mesh filename="package://my_auv/meshes/hull.stl"/></geometry>
      </collision></link>
  </xacro:macro>
</robot>
"""
    )
    (desc / "urdf" / "auv.urdf.xacro").write_text(
        """<robot name="auv" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="mass" default="10"/>
  <xacro:include filename="$(find my_auv)/urdf/hull.xacro"/>
  <xacro:hull mass="$(arg mass)"/>
</robot>
"""
    )
    return ws


def test_find_and_package_uris_resolve_through_the_package_path(tmp_path: Path) -> None:
    ws = _fake_workspace(tmp_path)
    main = ws / "deep" / "my_auv_description" / "urdf" / "auv.urdf.xacro"
    doc = read_urdf_file(main, [ws], xacro_args={"mass": "42.5"})
    [hull] = doc.links
    assert hull.name == "auv::hull" and hull.inertial.mass == 42.5
    [mesh] = hull.collisions
    assert mesh.geometry.mesh_path == str((ws / "deep/my_auv_description/meshes/hull.stl")
                                          .resolve())
    # the default argument, and the package found through ROS_PACKAGE_PATH / AMENT_PREFIX_PATH
    mp = pytest.MonkeyPatch()
    try:
        mp.setenv("ROS_PACKAGE_PATH", str(ws))
        assert read_urdf_file(main).links[0].inertial.mass == 10.0
        mp.delenv("ROS_PACKAGE_PATH")
        share = tmp_path / "install" / "share"
        share.mkdir(parents=True)
        (share / "my_auv").symlink_to(ws / "deep" / "my_auv_description")
        mp.setenv("AMENT_PREFIX_PATH", str(tmp_path / "install"))
        assert find_package("my_auv") == share / "my_auv"
    finally:
        mp.undo()


def test_find_stays_within_the_package_paths(tmp_path: Path) -> None:
    ws = _fake_workspace(tmp_path)
    main = ws / "deep" / "my_auv_description" / "urdf" / "auv.urdf.xacro"
    with pytest.raises(SdfError) as err:
        read_urdf_file(main, [tmp_path / "elsewhere"])
    text = str(err.value)
    assert "\n" not in text and "$(find my_auv)" in text and "auv.urdf.xacro:3:" in text
    # package:// never leaves the package
    assert resolve_package_uri("package://my_auv/../../../etc/passwd", [ws]) is None


def test_xacro_errors_are_one_line_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.xacro"
    bad.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                   '  <link name="${undefined_thing}"/>\n</robot>\n')
    with pytest.raises(SdfError) as err:
        read_urdf_file(bad)
    assert str(err.value).startswith(f"{bad}:2: xacro:") and "\n" not in str(err.value)
    broken = tmp_path / "broken.xacro"
    broken.write_text('<robot name="r">\n  <link name="a">\n</robot>\n')
    with pytest.raises(SdfError) as err:
        read_urdf_file(broken)
    assert str(err.value).startswith(f"{broken}:3: xacro: XML error")


def test_xacro_include_of_a_fifo_is_refused(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.xacro"
    os.mkfifo(fifo)
    main = tmp_path / "main.xacro"
    main.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <xacro:include filename="pipe.xacro"/>\n</robot>\n')
    with pytest.raises(SdfError) as err:
        read_urdf_file(main)
    assert "FIFO" in str(err.value)


def test_hostile_xacro_is_one_line_no_hang(tmp_path: Path) -> None:
    """A macro that calls itself, load_yaml of a device (outside the model's folders) and of a
    FIFO beside the model (not a regular file): refused, one line each."""
    rec = tmp_path / "rec.xacro"
    rec.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                   '  <xacro:macro name="m"><xacro:m/></xacro:macro>\n  <xacro:m/>\n</robot>\n')
    with pytest.raises(SdfError) as err:
        read_urdf_file(rec)
    assert "nest too deeply" in str(err.value) and "\n" not in str(err.value)
    dev = tmp_path / "dev.xacro"
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    dev.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                   "  <xacro:property name=\"y\" value=\"${xacro.load_yaml('zero.yaml')}\"/>\n"
                   '  <link name="${y}"/>\n</robot>\n')
    with pytest.raises(SdfError) as err:
        read_urdf_file(dev)
    assert str(err.value).startswith(f"{dev}:2: xacro: {tmp_path / 'zero.yaml'}: outside the "
                                     "folders xacro may read")
    os.mkfifo(tmp_path / "pipe.yaml")
    dev.write_text(dev.read_text().replace("zero.yaml", "pipe.yaml"))
    with pytest.raises(SdfError) as err:
        read_urdf_file(dev)
    assert str(err.value).startswith(f"{dev}:2: xacro: {tmp_path / 'pipe.yaml'}: is a FIFO")


def _xacro_command(path: Path, ws: Path) -> str:
    """What the ``xacro`` command prints for ``path``, packages found under ``ws``."""
    import os

    script = XACRO_COMMAND
    env = {"PATH": "/usr/bin:/bin", "ROS_PACKAGE_PATH": str(ws),
           "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                          text=True, env=env, timeout=120, check=True)
    return proc.stdout


def _line_of_text(path: Path, needle: str, after: int = 0) -> int:
    """The 1-based line of ``path`` holding ``needle``, the first after line ``after``."""
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if i > after and needle in line)


def test_findings_on_macro_built_links_name_the_macro_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link made by a macro in an included file: the audit names that file and the line of
    ``<inertia>`` inside the macro; ``show`` names the line of ``<link>``; the macro call's
    place is known; the expansion, marks taken out, is the ``xacro`` command's text."""
    import json

    from conftest import run_cli

    from gzinertia.urdf.xacro_expand import expand_xacro_sourced

    ws = _fake_workspace(tmp_path)
    hull = ws / "deep" / "my_auv_description" / "urdf" / "hull.xacro"
    hull.write_text(hull.read_text().replace('iyy="2"', 'iyy="0.1"'))  # violates the triangle
    main = ws / "deep" / "my_auv_description" / "urdf" / "auv.urdf.xacro"
    code, out, _ = run_cli(["audit", "--format", "json", "--package-path", str(ws), str(main)],
                           capsys)
    findings = json.loads(out)["findings"]
    link_line = _line_of_text(hull, '<link name="hull">')
    inertia_line = _line_of_text(hull, "<inertia ", link_line)
    collision_line = _line_of_text(hull, "<collision>", link_line)
    assert inertia_line > link_line > 1
    assert findings and all(Path(f["file"]) == hull for f in findings)
    # the workspace's hull.stl holds no triangles: GZI003 at the <collision> inside the macro
    assert {f["line"] for f in findings if f["code"] != "GZI003"} <= {link_line, inertia_line}
    assert {f["line"] for f in findings if f["code"] == "GZI003"} <= {collision_line}
    assert any(f["line"] == inertia_line for f in findings)
    call = f"{main}:{_line_of_text(main, '<xacro:hull ')}"
    assert all(f["values"]["xacro_call"] == call and f["message"].endswith(f"called at {call})")
               for f in findings)
    assert code == 1  # findings, no error
    doc = read_urdf_file(main, [ws])
    [rec] = doc.links
    assert (Path(rec.source.file), rec.source.line) == (hull, link_line)
    [note] = [n for n in doc.notes if n.code == "xacro-macro-call"]
    assert note.link == rec.name and str(note.source) == call
    assert note.data["written"] == f"{hull}:{link_line}"
    expansion = expand_xacro_sourced(main, None, [ws])
    calls = {call for _, call in expansion.sources.values() if call is not None}
    assert {(Path(f), n) for f, n in calls} == {(main, _line_of_text(main, "<xacro:hull "))}
    assert expansion.text == _xacro_command(main, ws)
    assert "gzinertia-" not in expansion.text


def test_nested_macros_and_xacro_element_keep_their_places(tmp_path: Path) -> None:
    """A macro calling a macro, a block parameter, ``xacro:element`` and ``xacro:if``: every
    link is placed where its ``<link>`` (or ``xacro:element``) is written, and the text is
    the ``xacro`` command's."""
    path = tmp_path / "nested.urdf.xacro"
    path.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:macro name="inner" params="n *body">\n'
        '    <link name="${n}">\n'
        '      <xacro:insert_block name="body"/>\n'
        "    </link>\n"
        "  </xacro:macro>\n"
        '  <xacro:macro name="outer" params="n">\n'
        '    <xacro:inner n="${n}_a">\n'
        '      <inertial><mass value="1"/>\n'
        '        <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>\n'
        "    </xacro:inner>\n"
        '    <xacro:element xacro:name="link" name="${n}_b"/>\n'
        "  </xacro:macro>\n"
        '  <link name="base"/>\n'
        '  <xacro:if value="${1 == 1}">\n'
        '    <xacro:outer n="x"/>\n'
        "  </xacro:if>\n"
        '  <joint name="j1" type="fixed"><parent link="base"/><child link="x_a"/></joint>\n'
        '  <joint name="j2" type="fixed"><parent link="base"/><child link="x_b"/></joint>\n'
        "</robot>\n"
    )
    from gzinertia.urdf.xacro_expand import expand_xacro_sourced

    expansion = expand_xacro_sourced(path)
    assert expansion.text == _xacro_command(path, tmp_path)
    lines = expansion.text.splitlines()
    placed = {}
    for number, (where, _call) in expansion.sources.items():
        import re

        named = re.search(r'<link name="(\w+)"', lines[number - 1])
        if named:
            placed[named.group(1)] = where[1]
    assert placed == {
        "base": _line_of_text(path, '<link name="base"'),
        "x_a": _line_of_text(path, '<link name="${n}">'),
        "x_b": _line_of_text(path, "<xacro:element"),
    }
    inertial = next(n for n, (w, _) in expansion.sources.items() if "<mass" in lines[n - 1])
    assert expansion.sources[inertial][0][1] == _line_of_text(path, "<mass ")


def test_a_macro_from_another_project_keeps_its_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Project A's robot uses a macro from project B (which B's audit skips: macros only): the
    finding on the link the macro builds is reported, at B's file and line."""
    import json

    from conftest import run_cli

    for project in ("a", "b"):
        (tmp_path / project).mkdir()
        (tmp_path / project / ".gzinertia.toml").write_text('fail-on = "error"\n')
    hull = tmp_path / "b" / "hull.xacro"
    hull.write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:macro name="hull">\n'
        '    <link name="hull"><inertial><mass value="1"/>\n'
        '      <inertia ixx="1" ixy="0" ixz="0" iyy="-1" iyz="0" izz="1"/></inertial></link>\n'
        "  </xacro:macro>\n</robot>\n"
    )
    robot = tmp_path / "a" / "robot.urdf.xacro"
    robot.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:include filename="../b/hull.xacro"/>\n  <xacro:hull/>\n</robot>\n'
    )
    # the hull has no geometry: its inertia not judged (GZI113, info) is beside the point
    code, out, _ = run_cli(["audit", "--format", "json", "--ignore", "GZI113", str(tmp_path)],
                           capsys)
    report = json.loads(out)
    status = {Path(f["path"]).name: f["status"] for f in report["files"]}
    assert status == {"hull.xacro": "skipped", "robot.urdf.xacro": "ok"}
    places = {(Path(f["file"]).resolve(), f["line"]) for f in report["findings"]}
    assert places == {(hull.resolve(), _line_of_text(hull, "<inertia "))}
    assert code == 1  # the finding fails the run


def test_links_one_macro_builds_identically_are_one_text_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two calls of one macro build two identical invalid links: one text line at the macro's
    line (with the first call's site) saying the same holds for the other link; JSON keeps
    both findings, each with its own call site."""
    import json

    from conftest import run_cli

    path = tmp_path / "twins.urdf.xacro"
    path.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:macro name="fin" params="n">\n'
        '    <link name="${n}"><inertial><mass value="1"/>\n'
        '      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial></link>\n'
        '    <joint name="${n}_j" type="fixed"><parent link="base"/><child link="${n}"/>\n'
        "    </joint>\n"
        "  </xacro:macro>\n"
        '  <link name="base"><inertial><mass value="5"/>\n'
        '    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>\n'
        '  <xacro:fin n="port"/>\n'
        '  <xacro:fin n="starboard"/>\n'
        '  <gazebo reference="port_j"><disableFixedJointLumping>true</disableFixedJointLumping>'
        "</gazebo>\n"
        '  <gazebo reference="starboard_j"><disableFixedJointLumping>true</disableFixedJointLumping>'
        "</gazebo>\n"
        "</robot>\n"
    )
    audit = ["audit", "--no-cache", "--ignore", "GZI113", str(path)]  # no geometry: not judged
    code, out, _ = run_cli([*audit, "--format", "json"], capsys)
    findings = json.loads(out)["findings"]
    calls = {f["link"]: f["values"]["xacro_call"] for f in findings}
    port, starboard = (_line_of_text(path, f'<xacro:fin n="{n}"') for n in ("port", "starboard"))
    assert calls == {"r::port": f"{path}:{port}", "r::starboard": f"{path}:{starboard}"}
    code, out, _ = run_cli([*audit, "--format", "text"], capsys)
    [line, target, summary] = out.strip().splitlines()
    assert target.startswith("target: ")  # the release and engine judged for (issue 28)
    assert code == 1 and summary.startswith("Found 2 errors")
    inertia = _line_of_text(path, "<inertia ")
    assert line.startswith(f"{path}:{inertia}: ") and "[r::port]" in line
    assert line.endswith("(the same on 1 more identical link: r::starboard)"), line


@pytest.mark.parametrize("how", ["--package-path", "-m", "ROS_PACKAGE_PATH"])
def test_a_relative_package_path_resolves_nested_finds(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``$(find pkg)`` inside a file that ``$(find pkg)`` included, with the package path given
    as ``.`` (issue 25 item 1: xacro joined the relative result to the includer's folder)."""
    from conftest import run_cli

    pkg = tmp_path / "robots" / "pkg"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "robots").mkdir()
    (pkg / "package.xml").write_text("<package><name>pkg</name></package>")
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    (pkg / "urdf" / "base.xacro").write_text(
        f'<robot {ns}><xacro:property name="m" value="2.5"/></robot>\n')
    (pkg / "urdf" / "mid.xacro").write_text(
        f'<robot {ns}><xacro:include filename="$(find pkg)/urdf/base.xacro"/></robot>\n')
    (pkg / "robots" / "r.urdf.xacro").write_text(
        f'<robot name="r" {ns}><xacro:include filename="$(find pkg)/urdf/mid.xacro"/>'
        '<link name="a"><inertial><mass value="${m}"/>'
        '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    args = ["show", "--json", "robots/pkg/robots/r.urdf.xacro"]
    if how == "ROS_PACKAGE_PATH":
        monkeypatch.setenv("ROS_PACKAGE_PATH", ".")
    else:
        args += [how, "."]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    import json

    assert json.loads(out)["links"][0]["mass"] == 2.5
