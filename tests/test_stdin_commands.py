"""``-`` is standard input for every command that takes a model FILE (issues 10, 11, 17).

The oracle is the same command on the file itself, run in the file's folder (so that relative
``<include>`` and mesh URIs, which for standard input resolve against the working directory,
name the same files): an edit of ``-`` writes to stdout, byte for byte, what ``FILE -o OUT``
writes; a read-only command prints what it prints for the file, with the file's name read as
``<stdin>``. The editing commands share one behaviour (``--check`` exits 1 with nothing on
stdout, ``--diff`` names ``<stdin>``, ``--in-place`` is refused in one line), and so does the
reading of standard input (bounded as a file is: an endless stream is not drained).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import trimesh
from conftest import EXAMPLES, run_cli
from sdf_builders import (
    box,
    hydro_plugin,
    include,
    inertial,
    link,
    mesh,
    model,
    model_config,
    nested_model,
    world,
    write,
)

import gzinertia
from gzinertia.sdf.xml import MAX_FILE_BYTES

PACKAGE_ROOT = str(Path(gzinertia.__file__).resolve().parents[1])

BUOYANCY = ('<plugin filename="gz-sim-buoyancy-system" name="gz::sim::systems::Buoyancy">'
            "<uniform_fluid_density>1025</uniform_fluid_density></plugin>")

#: Every command that takes a model FILE, with options that make it do something on
#: :func:`harbour` (the edits each change the file).
EDITS = {
    "addmass": ["addmass", "--ellipsoid", "-l", "rov::hull"],
    "shift": ["shift", "-l", "rov::arm", "--from", "com"],
    "convert": ["convert", "--hydro-to-sdf", "-l", "rov::fin"],
    "hydro": ["hydro", "-l", "rov::hull"],
    "fix": ["fix", "--method", "geometry", "-l", "rov::bad"],
}
READS = {
    "show": ["show", "--json"],
    "audit": ["audit", "--format", "json", "--no-cache"],
    "hydrostatics": ["hydrostatics", "--json"],
    "plot": ["plot", "-l", "rov::*", "-o", "{out}"],
}


def harbour(folder: Path) -> Path:
    """A world with a Buoyancy plugin, a relative include (``parts/float``) and, in model
    ``rov``: ``hull`` (a relative STL mesh), ``arm`` (added mass written about its CoM),
    ``fin`` (a Hydrodynamics plugin's added mass) and ``bad`` (an inertia that breaks the
    triangle inequality)."""
    (folder / "meshes").mkdir(parents=True)
    hull = trimesh.creation.capsule(height=1.2, radius=0.15)
    hull.apply_transform(trimesh.transformations.rotation_matrix(np.pi / 2, (0, 1, 0)))
    hull.export(folder / "meshes" / "hull.stl")
    write(folder / "parts" / "float", model(link("buoy", inertial(5.0, np.eye(3) * 0.1),
                                                  box((0.3, 0.3, 0.3)))))
    (folder / "parts" / "float" / "model.config").write_text(
        model_config(version="1.10", name="float"))
    A = np.diag([2.0, 30.0, 30.0, 0.1, 4.0, 4.0])
    rov = nested_model(
        "rov",
        link("hull", inertial(40.0, np.diag([0.5, 5.0, 5.0])), mesh("meshes/hull.stl")),
        link("arm", inertial(3.0, np.diag([0.02, 0.3, 0.3]), com=(0.4, 0.0, 0.0), A=A),
             box((0.8, 0.1, 0.1)), pose=(0.0, 0.0, 1.0, 0.0, 0.0, 0.0)),
        link("fin", inertial(1.0, np.diag([0.01, 0.02, 0.03])), box((0.2, 0.02, 0.3)),
             pose=(-1.6, 0.0, 0.0, 0.0, 0.0, 0.0)),
        hydro_plugin("fin", {"xDotU": -0.5, "yDotV": -6.0, "zDotW": -1.0}),
        link("bad", inertial(2.0, np.diag([1.0, 1.0, 2.2])), box((0.2, 0.2, 0.2)),
             pose=(1.6, 0.0, 0.0, 0.0, 0.0, 0.0)),
        pose=(0.0, 0.0, -3.0, 0.0, 0.0, 0.0),
    )
    return write(folder, world(BUOYANCY, rov, include("parts/float", "float", (5, 0, 0, 0, 0, 0))),
                 "harbour.sdf")


def gzinertia_cli(
    args: list[str], stdin: bytes | int = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``gzinertia ARGS`` as the console script, with a real standard input (bytes, or a file
    descriptor to read from)."""
    env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    feed: dict[str, object] = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin}
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", "from gzinertia.cli import main; main()", *args],
        cwd=cwd, env=env, capture_output=True, timeout=120, check=False, **feed,
    )


@pytest.fixture(scope="module")
def harbour_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return harbour(tmp_path_factory.mktemp("harbour"))


def run_piped(
    args: list[str], data: bytes | None, cwd: Path, monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> tuple[int, bytes, bytes]:
    """``gzinertia ARGS < data`` in-process, in the folder ``cwd`` (``data=None``: no
    standard input given); returns (status, stdout bytes, stderr bytes)."""
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data or b"")))
    return run_cli(args, capsysbinary)  # type: ignore[arg-type, return-value]


@pytest.mark.parametrize("command", EDITS)
def test_an_edit_of_standard_input_writes_what_the_edit_of_the_file_writes(
    command: str, harbour_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    folder, data, name = harbour_file.parent, harbour_file.read_bytes(), harbour_file.name

    def run(*args: str, stdin: bytes | None = None) -> tuple[int, bytes, bytes]:
        return run_piped([*EDITS[command], *args], stdin, folder, monkeypatch, capsysbinary)

    out = tmp_path / "out.sdf"
    status, _, file_err = run(name, "-o", str(out))
    assert status == 0, file_err
    status, piped, err = run("-", stdin=data)
    assert status == 0, err
    assert piped == out.read_bytes() != data  # the edit did change something
    # what was computed is said on stderr, as for the file (its name read as <stdin>)
    said = file_err.decode().replace(name, "<stdin>").splitlines()
    assert err.decode().splitlines() == [s for s in said if not s.startswith("wrote ")]

    status, stdout, err = run("-", "-o", str(tmp_path / "o2.sdf"), stdin=data)
    assert (status, stdout) == (0, b""), err
    assert (tmp_path / "o2.sdf").read_bytes() == out.read_bytes()
    # -o - : the edited file to stdout, for a file too
    status, stdout, err = run(name, "-o", "-")
    assert (status, stdout) == (0, out.read_bytes()), err
    assert not (folder / "-").exists()

    status, stdout, err = run("-", "--check", stdin=data)
    assert (status, stdout) == (1, b""), err
    assert b"<stdin>: would change" in err
    # --check on the edited text passes: what the filter wrote is what the edit leaves alone
    assert run("-", "--check", stdin=piped)[0] == 0

    status, diff, err = run("-", "--diff", stdin=data)
    file_status, file_diff, _ = run(name, "--diff")
    assert status == file_status == 0, err
    assert diff.startswith(b"--- a/<stdin>\n+++ b/<stdin>\n")
    assert diff == file_diff.replace(name.encode(), b"<stdin>")


def test_an_edit_of_standard_input_is_a_filter_through_real_pipes(harbour_file: Path) -> None:
    """The console script with real pipes: ``addmass - < in > out`` is ``addmass in -o out``."""
    folder = harbour_file.parent
    piped = gzinertia_cli([*EDITS["addmass"], "-"], harbour_file.read_bytes(), folder)
    written = gzinertia_cli([*EDITS["addmass"], harbour_file.name, "--diff"], cwd=folder)
    assert piped.returncode == written.returncode == 0, piped.stderr
    assert piped.stdout != harbour_file.read_bytes()
    again = gzinertia_cli([*EDITS["addmass"], "-", "--diff"], piped.stdout, folder)
    assert (again.returncode, again.stdout) == (0, b"")  # idempotent: nothing left to change


@pytest.mark.parametrize("command", EDITS)
def test_in_place_on_standard_input_is_refused_in_one_line_before_reading_it(
    command: str, harbour_file: Path, monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    # standard input is empty: a command that read it before refusing would say "file is empty"
    status, stdout, err = run_piped([*EDITS[command], "-", "--in-place"], None,
                                    harbour_file.parent, monkeypatch, capsysbinary)
    assert (status, stdout, err.count(b"\n")) == (2, b"", 1), err
    assert err.startswith(b"gzinertia: error: --in-place cannot rewrite standard input")


@pytest.mark.parametrize("command", READS)
def test_a_read_of_standard_input_prints_what_the_read_of_the_file_prints(
    command: str, harbour_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    folder, data, name = harbour_file.parent, harbour_file.read_bytes(), harbour_file.name
    file_args = [a.format(out=tmp_path / "file.png") for a in READS[command]]
    pipe_args = [a.format(out=tmp_path / "pipe.png") for a in READS[command]]
    file_status, file_out, _ = run_piped([*file_args, name], None, folder, monkeypatch,
                                         capsysbinary)
    status, out, err = run_piped([*pipe_args, "-"], data, folder, monkeypatch, capsysbinary)
    assert status == file_status, err
    assert status in (0, 1), err
    if command == "plot":
        assert (tmp_path / "pipe.png").read_bytes() == (tmp_path / "file.png").read_bytes()
        return
    # a command a message suggests names the file, or FILE for standard input (no file to
    # edit: gzinertia.shell.command_line)
    want = json.loads(file_out.decode().replace(f"gzinertia convert {name}",
                                                "gzinertia convert FILE")
                      .replace(name, "<stdin>"))
    got = json.loads(out.decode())
    assert got == want
    if command == "hydrostatics":  # the world's Buoyancy plugin, read from standard input
        assert got["fluid"]["density"] == 1025.0
        assert "<stdin>:" in json.dumps(got["fluid"])
    if command == "audit":
        assert got["files"][0]["path"] == "<stdin>"
    if command == "show":  # the include, relative to the working directory
        assert "float::buoy" in {lk["name"] for lk in got["links"]}


def test_the_audit_of_standard_input_reads_the_world_s_buoyancy_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    """GZI302 (net buoyancy) is judged in the fluid of the world's Buoyancy plugin: for
    standard input too (it was skipped: the plugin was read again from the path)."""
    text = world(
        BUOYANCY.replace("1025", "1000"),
        nested_model("rov", link("body", inertial(80.0, np.eye(3)), box((0.5, 0.5, 0.4))),
                     pose=(0.0, 0.0, -5.0, 0.0, 0.0, 0.0)),
    )
    path = write(tmp_path, text)
    args = ["audit", "--no-cache", "--format", "json"]
    runs = [run_piped([*args, *where], data, tmp_path, monkeypatch, capsysbinary)
            for where, data in (([str(path)], None), (["-"], path.read_bytes()))]
    codes = [[f["code"] for f in json.loads(out)["findings"]] for _, out, _ in runs]
    assert codes[0] == codes[1] == ["GZI302"]


# --- standard input that is not a file's worth of text --------------------------------------
# (malformed, binary, empty, URDF and oversized standard input through every command:
# tests/test_hostile_cli.py::test_hostile_standard_input_is_one_error_in_every_command)

ALL = {**EDITS, **READS}


def _args(command: str, tmp_path: Path) -> list[str]:
    return [a.format(out=tmp_path / "p.png") for a in ALL[command]]


def _one_line(done: subprocess.CompletedProcess[bytes], command: str, expected: str) -> None:
    err = done.stderr.decode()
    assert "Traceback" not in err and "internal error" not in err, err
    if command == "audit":  # the audit reports the file in its report
        report = json.loads(done.stdout)
        assert done.returncode == 2, err
        assert report["files"][0]["path"] == "<stdin>"
        assert expected in report["files"][0]["message"], report
        return
    assert (done.returncode, done.stdout) == (2, b""), err
    assert err.count("\n") == 1 and err.startswith("gzinertia: error: <stdin>"), err
    assert expected in err, err


def _endless_writer() -> subprocess.Popen[bytes]:
    """A process writing XML-looking bytes to a pipe for ever (until the pipe closes)."""
    return subprocess.Popen(
        [sys.executable, "-c",
         "import sys\nchunk = b'<sdf>' + b' ' * 65531\n"
         "try:\n    while True: sys.stdout.buffer.write(chunk)\n"
         "except (BrokenPipeError, OSError):\n    pass\n"],
        stdout=subprocess.PIPE,
    )


@pytest.mark.parametrize("command", ["show", "fix", "addmass", "hydrostatics", "audit"])
def test_an_endless_standard_input_stops_at_the_file_size_limit(
    command: str, tmp_path: Path, deadline: None
) -> None:
    """An endless stream is read up to the file size limit (and one byte), then refused:
    no hang, no memory blow-up (the child runs under a 2 GiB address-space limit)."""
    writer = _endless_writer()
    assert writer.stdout is not None
    try:
        env = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
        limited = (
            "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
            "from gzinertia.cli import main; main()"
        )
        done = subprocess.run(
            [sys.executable, "-c", limited, *_args(command, tmp_path), "-"],
            stdin=writer.stdout, capture_output=True, env=env, cwd=tmp_path, timeout=50,
            check=False,
        )
    finally:
        writer.stdout.close()
        writer.kill()
        writer.wait()
    expected = f"standard input is larger than {MAX_FILE_BYTES // (1 << 20)} MiB"
    _one_line(done, command, expected)


def test_a_terminal_is_refused_instead_of_waiting_for_typing(tmp_path: Path) -> None:
    main_fd, terminal = os.openpty()
    try:
        done = gzinertia_cli(["show", "-"], terminal, tmp_path)
    finally:
        os.close(terminal)
        os.close(main_fd)
    assert done.returncode == 2
    assert done.stderr.decode().startswith("gzinertia: error: <stdin>: standard input is a "
                                            "terminal")


def test_stdin_next_to_other_files_and_libsdformat_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    model_file = EXAMPLES / "defects" / "added_mass_about_com" / "model.sdf"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(model_file.read_bytes())))
    status, _, err = run_cli(["fix", "-", str(model_file)], capsys)
    assert status == 2 and "cannot be combined with other FILEs" in err
    status, _, err = run_cli(["show", "-", "--parser", "sdformat"], capsys)
    assert status == 2 and "reads files only" in err
    status, _, err = run_cli(["fix", "-", "--json"], capsys)
    assert status == 2 and "both print to stdout" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--diff"], "-o - and --diff both print to stdout: choose one"),
        (["--check"], "-o - (stdout) goes without --in-place and --check"),
        (["--in-place"], "give either -o/--output or --in-place, not both"),
    ],
)
def test_output_to_stdout_is_refused_with_what_also_prints_or_writes(
    extra: list[str], message: str, harbour_file: Path, monkeypatch: pytest.MonkeyPatch,
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    for command in EDITS:
        status, stdout, err = run_piped([*EDITS[command], harbour_file.name, "-o", "-", *extra],
                                        None, harbour_file.parent, monkeypatch, capsysbinary)
        assert (status, stdout) == (2, b""), (command, err)
        assert err.decode() == f"gzinertia: error: {message}\n", (command, err)
