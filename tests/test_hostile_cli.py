"""Hostile input through every command: one line naming the file and exit status 2, never a
traceback; nothing non-finite or unreadable written and called done; ``--jobs`` capped.

Each case below was a traceback (or a silently wrong file) before: a ``placement_frame`` naming
no frame or ``__model__`` (KeyError), an include name over 255 bytes (OSError ENAMETOOLONG), a
box or sphere of size 1e100 (LinAlgError on an inertia of 1e500), a flat STL (QhullError), a
tetrahedron whose winding needs repair (trimesh needs networkx, then undeclared), ``--semi-axes
1e300,...`` (ValueError), a ``--config`` file that is not UTF-8 (UnicodeDecodeError); ``shift
--from 1e160,0,0`` and ``addmass --center 1e300,0,0`` wrote 21 zeros and said "updated".
"""

# The SDF texts here stay inline: hostile bytes and the lines the errors name are the point.

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLES, REPO, run_cli

from gzinertia.errors import GzInertiaError

#: Every command, with the options that make it run on the file named last.
COMMANDS = {
    "show": ["show"],
    "addmass": ["addmass", "--ellipsoid"],
    "convert": ["convert", "--hydro-to-sdf"],
    "hydro": ["hydro", "-l", "*"],
    "shift": ["shift", "-l", "*", "--from", "com"],
    "plot": ["plot", "-o", "{tmp}/links.png"],
    "hydrostatics": ["hydrostatics", "--json"],
    "audit": ["audit", "--no-cache", "--format", "text"],
    "fix": ["fix", "--method", "geometry", "--all-links", "--move-com"],
}

INERTIAL = (
    "<inertial><mass>2</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia>"
    "<fluid_added_mass><xx>1</xx><yy>2</yy><zz>3</zz><pp>0.1</pp><qq>0.2</qq><rr>0.3</rr>"
    "</fluid_added_mass></inertial>"
)


def model(body: str, attrs: str = "", version: str = "1.10") -> str:
    return f'<sdf version="{version}">\n<model name="m"{attrs}>\n{body}\n</model>\n</sdf>\n'


def link(geometry: str = "<box><size>1 1 1</size></box>", name: str = "a") -> str:
    return (
        f'<link name="{name}">{INERTIAL}<collision name="c"><geometry>{geometry}</geometry>'
        "</collision></link>"
    )


@pytest.fixture(autouse=True)
def _deadline(deadline: None) -> None:
    """Every hostile case finishes within a minute: a hang fails the test (conftest.deadline), not the suite."""


def run_command(
    name: str, file: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str, str]:
    args = [a.format(tmp=file.parent) for a in COMMANDS[name]]
    return run_cli([*args, *extra, str(file)], capsys)


def assert_one_line_error(status: int, err: str, file: Path, expected: str) -> None:
    """Exit 2 and exactly one ``gzinertia: error: FILE...`` line holding ``expected`` (the
    audit reports the file in its text report with status 2 instead)."""
    assert "Traceback" not in err and "internal error" not in err, err
    assert status == 2, err
    errors = [line for line in err.splitlines() if line.startswith("gzinertia: error:")]
    assert len(errors) == 1, err
    assert errors[0].startswith(f"gzinertia: error: {file}"), errors[0]
    assert expected in errors[0], errors[0]


def assert_audit_file_error(status: int, out: str, file: Path, expected: str) -> None:
    assert status == 2, out
    assert "Traceback" not in out and "internal error" not in out, out
    line = next(line for line in out.splitlines() if line.startswith(str(file)))
    assert expected in line, out


def assert_clean_run(status: int, out: str, err: str) -> None:
    """No traceback, no internal error, an ordinary exit status."""
    assert "Traceback" not in err + out and "internal error" not in err + out, err
    assert status in (0, 1, 2), err
    if status == 2:
        assert sum(line.startswith("gzinertia: error:") for line in err.splitlines()) <= 1, err


# --- item 6: placement_frame ------------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_a_placement_frame_naming_no_frame_is_one_error_in_every_command(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "placement.sdf"
    file.write_text(model(link(), ' placement_frame="nope"'))
    status, out, err = run_command(command, file, capsys)
    expected = "placement_frame 'nope' is no frame in the model"
    if command == "audit":
        assert_audit_file_error(status, out, file, expected)
    else:
        assert_one_line_error(status, err, file, expected)


@pytest.mark.oracle("sdformat")
def test_placement_frames_read_as_libsdformat_reads_them(tmp_path: Path) -> None:
    """``__model__`` places the model frame itself (identity), a named frame places that frame,
    and a frame that does not exist is an error in both readers."""
    from oracles.sdformat_oracle import read_with_sdformat

    from gzinertia.sdf import read_sdf_file

    def world(placement: str) -> str:
        return (
            '<sdf version="1.9"><world name="w"><model name="m" placement_frame="'
            f'{placement}"><pose>1 2 3 0.1 0.2 0.3</pose>'
            '<frame name="f"><pose>0.5 0 0 0 0 1.2</pose></frame>'
            '<link name="a"><pose>0 0.4 0 0.3 0 0</pose><inertial><mass>1</mass></inertial>'
            "</link></model></world></sdf>"
        )

    files = []
    for name, placement in (("model", "__model__"), ("frame", "f"), ("missing", "nope")):
        files.append(tmp_path / f"{name}.sdf")
        files[-1].write_text(world(placement))
    try:
        theirs = read_with_sdformat(files)
    except RuntimeError as exc:
        pytest.skip(str(exc))
    for file, oracle in zip(files[:2], theirs[:2], strict=True):
        assert not oracle["errors"], oracle["errors"]
        [ours] = read_sdf_file(file).links
        X_WB = np.array(oracle["links"][0]["X_WB"], dtype=float).reshape(4, 4)
        np.testing.assert_allclose(ours.X_WB.matrix(), X_WB, atol=1e-12)
    assert theirs[2]["errors"], "libsdformat accepts a missing placement frame?"
    with pytest.raises(GzInertiaError, match="placement_frame 'nope'"):
        read_sdf_file(files[2])


# --- item 6: include names the system cannot look up -----------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_an_include_name_over_255_bytes_is_reported_not_raised(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = "x" * 300
    file = tmp_path / "include.sdf"
    file.write_text(
        model(
            link()
            + f"<include><uri>{long}</uri></include>"
            + f"<include><uri>model://{long}</uri></include>"
            + f'<link name="b"><collision name="c"><geometry><mesh><uri>{long}.stl</uri>'
            "</mesh></geometry></collision></link>"
        )
    )
    status, out, err = run_command(command, file, capsys)
    assert_clean_run(status, out, err)
    if command in ("show", "audit"):
        assert "File name too long" in out + err


def test_an_include_name_too_long_to_look_up_is_an_unresolved_include(tmp_path: Path) -> None:
    from gzinertia.sdf.includes import UnresolvedIncludeError, resolve_resource, resolve_uri

    including = tmp_path / "m.sdf"
    with pytest.raises(UnresolvedIncludeError, match="File name too long"):
        resolve_uri("y" * 300, including)
    assert resolve_resource("y" * 300 + ".stl", including) is None


# --- item 6: shapes whose solid overflows, flat and unwound meshes ----------------------------


@pytest.mark.parametrize("shape", ["<box><size>1e100 1e100 1e100</size></box>",
                                   "<sphere><radius>1e100</radius></sphere>",
                                   "<cylinder><radius>1e100</radius><length>1e100</length>"
                                   "</cylinder>"])
@pytest.mark.parametrize("command", COMMANDS)
def test_shapes_whose_volume_overflows_are_refused_by_every_command(
    command: str, shape: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "huge.sdf"
    file.write_text(model(link(shape)))
    status, out, err = run_command(command, file, capsys)
    assert_clean_run(status, out, err)
    if command == "hydro":
        # hydro's default fit (MuJoCo's per-geom ellipsoid) needs no volume: the overflow shows
        # in the damping terms, which are refused before anything is written.
        expected = "beyond the 1e+100 that SDF values may reach"
        assert_one_line_error(status, err, file, expected)
        status, out, err = run_command(command, file, capsys, "--fit", "volume")
        assert_one_line_error(status, err, file, "overflows float64")


def test_a_shape_whose_second_moment_overflows_is_a_shape_error() -> None:
    """A 1e100 box is below the reader's value limit; its second moment (V·L² ~ 1e500) is not
    a float64. Smaller boxes still agree with the closed form V/12·(b² + c²)."""
    from gzinertia.physics.shapes import ShapeError, solid_properties
    from gzinertia.records import Geometry

    with pytest.raises(ShapeError, match="overflows float64"):
        solid_properties(Geometry("box", size=(1e100, 1e100, 1e100)))
    side = 1e50
    solid = solid_properties(Geometry("box", size=(side, side, side)))
    assert solid.volume == pytest.approx(side**3, rel=1e-15)
    np.testing.assert_allclose(np.diag(solid.G_FFc_F), side**3 / 12 * 2 * side**2, rtol=1e-15)


FLAT_STL = (
    b"solid flat\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
    b"endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\n"
    b"vertex 0 1 0\nendloop\nendfacet\nendsolid flat\n"
)
LINE_STL = (
    b"solid line\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 2 0 0\n"
    b"endloop\nendfacet\nendsolid line\n"
)
#: A closed tetrahedron whose faces are not consistently wound (trimesh must repair it).
UNWOUND_TETRAHEDRON = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n"


@pytest.mark.parametrize("mesh", [FLAT_STL, LINE_STL], ids=["flat", "collinear"])
@pytest.mark.parametrize("command", COMMANDS)
def test_degenerate_meshes_are_refused_by_every_command(
    command: str, mesh: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "flat.stl").write_bytes(mesh)
    file = tmp_path / "flat.sdf"
    file.write_text(model(link("<mesh><uri>flat.stl</uri></mesh>")))
    status, out, err = run_command(command, file, capsys)
    assert_clean_run(status, out, err)
    if command == "hydro":
        assert_one_line_error(status, err, file, "is flat")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_mesh_whose_winding_needs_repair_works_in_every_command(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tet.obj").write_bytes(UNWOUND_TETRAHEDRON)
    file = tmp_path / "tet.sdf"
    file.write_text(model(link("<mesh><uri>tet.obj</uri></mesh>")))
    status, out, err = run_command(command, file, capsys)
    assert_clean_run(status, out, err)
    assert status != 2, err


def test_the_unwound_tetrahedron_is_the_tetrahedron(tmp_path: Path) -> None:
    """Oracle: trimesh's mass properties of the same tetrahedron wound outward by hand, and the
    closed forms V = 1/6, centroid (1/4, 1/4, 1/4); the rewinding is said (before issue 24 it
    was silent: this test asserted no note; the geometry pipeline says every repair)."""
    import trimesh

    from gzinertia.physics.shapes import mesh_solid

    path = tmp_path / "tet.obj"
    path.write_bytes(UNWOUND_TETRAHEDRON)
    solid = mesh_solid(str(path))
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)
    outward = trimesh.Trimesh(vertices, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], process=False)
    assert outward.is_winding_consistent and outward.volume > 0
    assert solid.volume == pytest.approx(1 / 6, rel=1e-14)
    np.testing.assert_allclose(solid.p_FoFc_F, [0.25, 0.25, 0.25], rtol=1e-14)
    np.testing.assert_allclose(solid.G_FFc_F, outward.mass_properties.inertia, atol=1e-15)
    assert solid.approximation is not None and "triangles flipped" in solid.approximation


def test_every_third_party_import_is_a_declared_runtime_dependency() -> None:
    """Modules gzinertia imports (and networkx, which trimesh imports to repair windings) are in
    ``pyproject.toml``'s runtime dependencies."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = {re.split(r"[<>=!~; \[]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    optional = {"matplotlib"}  # `plot` extra: `gzinertia plot` says how to install it
    # `bem` extra: `addmass --bem`/`--from` say how to install it (tests/test_bem.py)
    optional |= {re.split(r"[<>=!~; \[]", d, maxsplit=1)[0].lower().replace("-", "_")
                 for d in tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
                     "optional-dependencies"]["bem"]}
    imported = {"networkx"}
    for source in (REPO / "gzinertia").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = {m for m in imported if m not in sys.stdlib_module_names} - {"gzinertia"}
    third_party -= {"tomli", "sdformat", "sdformat13", "sdformat14", "sdformat15"}  # optional
    distributions = {"yaml": "pyyaml", "igl": "libigl"}  # import name -> the declared name
    third_party = {distributions.get(m, m) for m in third_party}
    assert third_party - optional <= declared, third_party - optional - declared
    import networkx  # noqa: F401  (installed, as declared)


# --- item 6: CLI options and the config file ---------------------------------------------------


def test_semi_axes_whose_added_mass_overflows_are_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "m.sdf"
    file.write_text(model(link()))
    before = file.read_bytes()
    status, _, err = run_cli(
        ["addmass", "--ellipsoid", "-l", "a", "--semi-axes", "1e300,1e300,1e300", "--in-place",
         str(file)], capsys)
    assert_one_line_error(status, err, file, "overflows float64")
    assert file.read_bytes() == before


def test_a_config_file_that_is_not_utf8_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bad.toml"
    config.write_bytes(b'select = ["GZI1\xff"]\n')
    file = tmp_path / "m.sdf"
    file.write_text(model(link()))
    status, _, err = run_cli(["audit", "--config", str(config), str(file)], capsys)
    assert_one_line_error(status, err, config, "is not UTF-8")


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "audit"])
def test_an_unexpected_exception_is_one_line_naming_the_file(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last resort: a bug (here a KeyError planted in the reader) is one line, exit 2,
    naming the file and asking for a report; GZINERTIA_TRACEBACK=1 shows the traceback."""
    import gzinertia.sdf.element_reader as element_reader

    def planted(*_: object, **__: object) -> None:
        raise KeyError("planted")

    monkeypatch.setattr(element_reader.ElementReader, "finish", planted)
    file = tmp_path / "m.sdf"
    file.write_text(model(link()))
    status, _, err = run_command(command, file, capsys)
    assert status == 2 and "Traceback" not in err, err
    assert err.count("\n") == 1, err
    assert err.startswith(f"gzinertia: error: {file}: internal error, please report (KeyError")
    monkeypatch.setenv("GZINERTIA_TRACEBACK", "1")
    with pytest.raises(KeyError):
        run_command(command, file, capsys)


def test_the_audit_reports_an_unexpected_exception_as_an_internal_error_of_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzinertia.sdf.element_reader as element_reader

    def planted(*_: object, **__: object) -> None:
        raise KeyError("planted")

    monkeypatch.setattr(element_reader.ElementReader, "finish", planted)
    file = tmp_path / "m.sdf"
    file.write_text(model(link()))
    status, out, _ = run_command("audit", file, capsys)
    assert status == 2
    assert f"{file}: internal error, please report (KeyError" in out


def test_the_console_script_never_prints_a_traceback(tmp_path: Path) -> None:
    """Through the installed entry point, in a child process under a timeout and a 2 GB
    address-space limit: every hostile case above is at most one error line."""
    (tmp_path / "flat.stl").write_bytes(FLAT_STL)
    cases = {
        "placement.sdf": model(link(), ' placement_frame="nope"'),
        "huge.sdf": model(link("<sphere><radius>1e100</radius></sphere>")),
        "flat.sdf": model(link("<mesh><uri>flat.stl</uri></mesh>")),
    }
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        proc = subprocess.run(
            [sys.executable, "-c",
             "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30));"
             "from gzinertia.cli import main; sys.argv = sys.argv[1:]; main()",
             "gzinertia", "hydro", "-l", "*", str(tmp_path / name)],
            capture_output=True, text=True, timeout=120, env=env, check=False,
        )
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr and proc.stderr.count("gzinertia: error:") == 1


# --- item 8: nothing non-finite written --------------------------------------------------------


def _with_added_mass(tmp_path: Path) -> Path:
    file = tmp_path / "m.sdf"
    file.write_text(model(link()))
    return file


@pytest.mark.parametrize(
    "args",
    [
        ["shift", "-l", "a", "--from", "1e160,0,0"],
        ["shift", "-l", "a", "--from", "1e100,0,0"],  # finite, beyond the 1e100 values may reach
        ["addmass", "--ellipsoid", "-l", "a", "--semi-axes", "1,1,1", "--center", "1e300,0,0"],
        ["addmass", "--ellipsoid", "-l", "a", "--semi-axes", "1,1,1", "--center", "1e200,0,0"],
        ["addmass", "--ellipsoid", "-l", "a", "--semi-axes", "1e40,1e40,1e40"],
    ],
    ids=["shift-1e160", "shift-1e100", "addmass-1e300", "addmass-1e200", "addmass-1e40-axes"],
)
@pytest.mark.parametrize("how", [["--in-place"], ["-o", "{tmp}/out.sdf"]])
def test_an_overflowing_edit_writes_nothing_and_fails(
    args: list[str], how: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = _with_added_mass(tmp_path)
    before = file.read_bytes()
    status, _, err = run_cli([*args, *(h.format(tmp=tmp_path) for h in how), str(file)], capsys)
    assert_one_line_error(status, err, file, "nothing written")
    assert "updated" not in err and "wrote" not in err
    assert file.read_bytes() == before
    assert not (tmp_path / "out.sdf").exists()


def test_the_writer_refuses_values_that_are_not_finite() -> None:
    from gzinertia.edit.links import NonFiniteValueError, format_value

    for x, scale in ((float("inf"), float("inf")), (1.0, float("inf")), (float("nan"), 1.0)):
        with pytest.raises(NonFiniteValueError):
            format_value(x, scale)
    assert format_value(1.0, 1.0) == "1"


def test_reading_back_an_overflowed_matrix_never_matches() -> None:
    """The edit's safety net: all zeros read back for a matrix with an infinite entry used to
    pass (infinite scale); it must not."""
    from gzinertia.edit.verify import WRITE_RTOL
    from gzinertia.edit.verify import same_added_mass as _same_added_mass
    from gzinertia.spatial.added_mass import AddedMass

    def lf(A: np.ndarray) -> AddedMass:
        return AddedMass(A, ordering="linear-first")

    meant = np.diag([np.inf, 1, 1, 1, 1, 1])
    assert not _same_added_mass(lf(np.zeros((6, 6))), lf(meant), WRITE_RTOL)
    assert _same_added_mass(lf(np.eye(6)), lf(np.eye(6) * (1 + 1e-12)), WRITE_RTOL)


def test_moving_added_mass_by_a_huge_offset_raises_overflow() -> None:
    from gzinertia.errors import Float64OverflowError
    from gzinertia.spatial.added_mass import AddedMass

    with pytest.raises(Float64OverflowError):
        AddedMass(np.eye(6), ordering="linear-first").shift([-1e200, 0.0, 0.0], "Bo")
    A = AddedMass(np.eye(6), ordering="linear-first").shift([-1e100, 0.0, 0.0], "Bo")
    assert np.all(np.isfinite(A.linear_first()))


def test_a_successful_edit_reads_back_what_was_computed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The other half of the writer's promise: a large but writable shift reads back equal
    to the exact change of point (spatial.shift) within the ten written digits."""
    from gzinertia.sdf import read_sdf_file
    from gzinertia.spatial.algebra import shift

    file = _with_added_mass(tmp_path)
    [before] = read_sdf_file(file).links
    assert before.inertial.A_BBo_B is not None
    status, _, err = run_cli(["shift", "-l", "a", "--from", "1e40,2e39,0", "--in-place",
                              str(file)], capsys)
    assert status == 0, err
    [after] = read_sdf_file(file).links
    want = shift(before.inertial.A_BBo_B.linear_first(), [-1e40, -2e39, 0.0], "linear-first")
    assert after.inertial.A_BBo_B is not None
    assert np.max(np.abs(after.inertial.A_BBo_B.linear_first() - want)) <= 1e-9 * np.max(np.abs(want))


# --- item 10: --jobs ----------------------------------------------------------------------------


def test_jobs_is_capped_at_the_cpus_and_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 500`` starts no more workers than CPUs available (and at most 64) and says so;
    the run is otherwise the same."""
    import concurrent.futures

    from gzinertia.audit.runner import MAX_JOBS, PARALLEL_MIN_FILES

    started: list[int] = []

    class Pool:  # runs in-process, records the pool size asked for
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)

        def __enter__(self) -> Pool:
            return self

        def __exit__(self, *_: object) -> None:
            pass

        def map(self, fn, items, chunksize=1):  # type: ignore[no-untyped-def]
            return map(fn, items)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    # a one-link model with a finding: the cap and the sameness need no bigger one (0.01 s
    # an audit, box_rov's 0.27 s made the test's 64 audits 17 s)
    text = (EXAMPLES / "defects" / "positive_idotj" / "model.sdf").read_text()
    for i in range(PARALLEL_MIN_FILES):
        (tmp_path / f"m{i}.sdf").write_text(text)
    status, out, err = run_cli(["audit", "--no-cache", "--jobs", "500", str(tmp_path)], capsys)
    cpus = len(os.sched_getaffinity(0))
    assert started == [min(cpus, MAX_JOBS, PARALLEL_MIN_FILES)]
    assert f"--jobs 500 capped to {started[0]}" in err
    status1, out1, _ = run_cli(["audit", "--no-cache", "--jobs", "1", str(tmp_path)], capsys)
    assert (status, out) == (status1, out1)


# --- standard input: ``-`` through every command ----------------------------------------------

#: Hostile standard input: (bytes, what the one error line says).
STDIN_CASES = {
    "empty": (b"", "file is empty"),
    "blank": (b" \n\t\n", "file is empty"),
    "malformed": (b'<sdf version="1.10"><model name="m">', "not well-formed XML"),
    "binary": (bytes(range(256)) * 64, "XML"),
    "nul": (b"\x00" * 4096, "XML"),
    "entities": (b'<!DOCTYPE sdf [<!ENTITY a "aaaa">]><sdf version="1.10">&a;</sdf>',
                 "refusing a DTD that declares entities"),
    "urdf": (b'<robot name="r"><link name="a"/></robot>',
             "standard input holds URDF (root element <robot>): pass the file name"),
    "huge": (b"", "standard input is larger than 64 MiB"),  # the limit and a byte: built below
}


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("case", STDIN_CASES)
@pytest.mark.parametrize("command", COMMANDS)
def test_hostile_standard_input_is_one_error_in_every_command(
    command: str, case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``CMD -`` with malformed, binary, empty, oversized or non-SDF standard input: one line
    naming ``<stdin>``, exit 2, nothing on stdout (the audit: the file's error in its report)."""
    from gzinertia.sdf.xml import MAX_FILE_BYTES

    data, expected = STDIN_CASES[case]
    if case == "huge":
        data = b"<sdf>" + b" " * (MAX_FILE_BYTES - 4)
    _stdin(monkeypatch, data)
    status, out, err = run_cli([*(a.format(tmp=tmp_path) for a in COMMANDS[command]), "-"],
                               capsys)
    stdin = Path("<stdin>")
    if command == "audit":
        assert_audit_file_error(status, out, stdin, expected)
    else:
        assert out == "", out
        assert_one_line_error(status, err, stdin, expected)



@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "audit"])
def test_an_unexpected_exception_on_standard_input_names_stdin(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last resort names ``<stdin>`` (the text's name everywhere), not ``-``."""
    import gzinertia.sdf.element_reader as element_reader

    def planted(*_: object, **__: object) -> None:
        raise KeyError("planted")

    monkeypatch.setattr(element_reader.ElementReader, "finish", planted)
    _stdin(monkeypatch, model(link()).encode())
    status, out, err = run_cli([*(a.format(tmp=tmp_path) for a in COMMANDS[command]), "-"],
                               capsys)
    assert (status, out, err.count("\n")) == (2, "", 1), err
    assert err.startswith("gzinertia: error: <stdin>: internal error, please report (KeyError")


@pytest.mark.parametrize("name", ["esc\x1b[31mred.sdf", "bel\x07.sdf", "csi\x9b2J.sdf",
                                  "bidi\u202eFDS.sdf", "nl\n::error file=x::y.sdf"])
def test_an_error_line_shows_control_characters_of_a_file_name_escaped(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file name with terminal controls, C1 controls, bidi overrides or a line break is one
    error line that a terminal or a CI log shows as it is (issue 23 item 12)."""
    path = tmp_path / name
    path.write_text("not xml")
    code, out, err = run_cli(["show", str(path)], capsys)
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert line.isprintable() and "\u202e" not in line and line.startswith("gzinertia: error: ")
