"""``addmass --bem`` on hostile shapes, bounded messages and the exit status of edits the input
prevents (issue 23, items 11, 12 and 13).

11. A cylinder 1e6 m long and 1e-6 m thick killed the process with SIGSEGV inside manifold3d's
    ``refine_to_length``: an edge cut into more than about 46,341 pieces overflows an ``int`` in
    its subdivision, which then recurses without end (whatever the stack size). Shapes the mesher
    cannot take are refused before any native call, one line naming the file, the link and the
    collision, why and what would work; the native meshing runs in a limited child process, so
    a crash there is one line, exit status 2.
12. The BEM on a 1e90 m box names the file and the link; 1,600 boxes no longer give one
    45,000-character line (every list in a message is bounded: :func:`gzinertia.wording.bounded`).
13. An edit the input prevents (a fit that overflows, a degenerate mesh, a mesh over the caps,
    a refused BEM shape) exits 2 with its one line, and nothing is written.

The segmentation fault itself is reproduced only in child processes, never in pytest's.
"""

from __future__ import annotations

import math
import os
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_hostile_files import run_cli_limited, run_limited

from gzinertia.records import Collision, Geometry, SourceRef
from gzinertia.spatial.rotation import Pose
from gzinertia.wording import bounded

pytest.importorskip("capytaine")
pytest.importorskip("manifold3d")

INERTIAL = sdf.inertial(2.0, np.eye(3))
FLAT_STL = (
    b"solid flat\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
    b"endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 1 0 0\nvertex 1 1 0\n"
    b"vertex 0 1 0\nendloop\nendfacet\nendsolid flat\n"
)


def _model(tmp_path: Path, *geometries: str, name: str = "model.sdf") -> Path:
    """A model whose link ``a`` (line 4) holds one collision per geometry (``c``, or ``c0``,
    ``c1``, ... for several), each on its own line from line 5."""
    names = ["c"] if len(geometries) == 1 else [f"c{i}" for i in range(len(geometries))]
    parts = "\n".join(sdf.collision(g, name=n) for g, n in zip(geometries, names, strict=True))
    text = sdf.model(f'<link name="a">{INERTIAL}\n{parts}\n</link>')
    return sdf.write(tmp_path, text, name)


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("gzinertia: error:")]


def _one_error(code: int, stderr: str) -> str:
    """The one ``gzinertia: error:`` line of a run that exited 2, with nothing else on stderr
    that looks like a crash."""
    assert code == 2, stderr[-3000:]
    assert "Traceback" not in stderr and "Fatal Python error" not in stderr, stderr[-3000:]
    errors = _errors(stderr)
    assert len(errors) == 1, stderr[-3000:]
    return errors[0]


NEEDLE = sdf.cylinder_geometry(1e-6, 1e6)


# --- item 11: where the crash comes from --------------------------------------------------------


@pytest.mark.parametrize("stack_kib", [8 * 1024, 64 * 1024])
def test_manifold_refinement_crashes_beyond_its_edge_limit_whatever_the_stack(
    stack_kib: int,
) -> None:
    """Oracle: manifold3d itself, in child processes. A box whose long edge
    ``refine_to_length(1)`` cuts at ``MANIFOLD_EDGE_LIMIT`` points is refined; one more point and
    the process dies of SIGSEGV. An eight-fold larger stack moves nothing: not a deep but bounded
    recursion, an integer overflow (then unbounded recursion). A NaN length crashes it too."""
    from gzinertia.physics.mesh_domain import MANIFOLD_EDGE_LIMIT

    program = """
        import resource, sys
        resource.setrlimit(resource.RLIMIT_STACK, (int(sys.argv[2]) * 1024,) * 2)
        import manifold3d as m3
        box = m3.Manifold.cube([float(sys.argv[1]), 0.01, 0.01], center=True)
        print(box.refine_to_length(float(sys.argv[3])).num_tri())
    """
    limit = MANIFOLD_EDGE_LIMIT
    fine = run_limited(program, str(float(limit)), str(stack_kib), "1.0")
    assert fine.returncode == 0 and int(fine.stdout) > 16 * limit, fine.stderr[-2000:]
    for length, step in ((limit + 1.0, "1.0"), (1.0, "nan")):
        crashed = run_limited(program, str(length), str(stack_kib), step)
        assert crashed.returncode == -11, (length, step, crashed.returncode, crashed.stderr[-500:])


def test_the_needle_of_the_issue_is_refused_before_the_mesher(tmp_path: Path) -> None:
    """The issue's cylinder, 1e6 m long and 1e-6 m thick: one line naming the file, the line of
    the collision, the link and the collision, the aspect ratio and what would work (it
    crashed the process with SIGSEGV)."""
    file = _model(tmp_path, NEEDLE)
    before = file.read_bytes()
    proc = run_cli_limited(["addmass", "--bem", "--no-cache", "--in-place", str(file)])
    line = _one_error(proc.returncode, proc.stderr)
    assert line.startswith(f"gzinertia: error: {file}:5: link 'm::a', collision 'c': "), line
    assert "aspect ratio" in line and "--ellipsoid" in line, line
    assert file.read_bytes() == before


@pytest.mark.parametrize(
    ("geometry", "expected"),
    [
        (sdf.box_geometry((1e90, 1e90, 1e90)), "overflows float64"),
        (sdf.box_geometry((1e25, 1e25, 1e25)), "beyond the 1e+100"),
        (sdf.box_geometry((1e-40, 1e-40, 1e-40)), "below"),
        (sdf.box_geometry((1.0, 1.0, 1e-9)), "aspect ratio"),
        (sdf.cylinder_geometry(0.5, 1e-9), "aspect ratio"),
        (sdf.ellipsoid_geometry((1.0, 1e-5, 1.0)), "aspect ratio"),
    ],
    ids=["1e90-box", "1e25-box", "1e-40-box", "thin-plate", "thin-disk", "thin-ellipsoid"],
)
def test_shapes_the_bem_cannot_take_are_one_line_naming_file_link_and_collision(
    geometry: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 12: the BEM on a 1e90 m box said ``panel size must be positive and finite, got
    nan`` (no file); the others were meshed and solved into numbers no bound holds for."""
    file = _model(tmp_path, geometry)
    status, _, err = run_cli(["addmass", "--bem", "--no-cache", "--check", str(file)], capsys)
    line = _one_error(status, err)
    assert line.startswith(f"gzinertia: error: {file}:5: link 'm::a', collision 'c': "), line
    assert expected in line, line


def test_a_thin_shape_is_solved_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plate 1:20 is within what the BEM takes, but its error estimate is no bound for every
    entry (measured on ellipsoids from 1:30): the run says so, naming the collision."""
    file = _model(tmp_path, sdf.box_geometry((1.0, 0.5, 0.05)))
    status, _, err = run_cli(
        ["addmass", "--bem", "--no-cache", "--quality", "fast", "--check", str(file)], capsys
    )
    assert status == 1 and not _errors(err), err
    (line,) = [ln for ln in err.splitlines() if "aspect ratio" in ln]
    assert line.startswith(f"warning: {file}:5: link 'm::a', collision 'c': its aspect ratio "
                           "is 20"), line


def test_panels_the_mesher_cannot_cut_are_refused_with_the_panel_size_that_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 200 m rod 2 m thick at ``--panel-size 0.001``: its edges would be cut into 200,000
    pieces (past manifold3d's limit) and the surface into about 10⁹ panels. Refused before
    meshing, naming the smallest panel size the BEM can take, which then works."""
    file = _model(tmp_path, sdf.cylinder_geometry(1.0, 200.0))
    status, _, err = run_cli(
        ["addmass", "--bem", "--no-cache", "--panel-size", "0.001", "--check", str(file)], capsys
    )
    line = _one_error(status, err)
    assert line.startswith(f"gzinertia: error: {file}:5: link 'm::a', collision 'c': "), line
    smallest = float(line.split("--panel-size ")[1].split()[0])
    assert 0.001 < smallest < 10.0, line
    status, _, err = run_cli(
        ["addmass", "--bem", "--no-cache", "--panel-size", f"{smallest * 1.05:g}", "--quality",
         "default", "--check", str(file)], capsys
    )
    assert status in (0, 1) and not _errors(err), err


# --- item 11, second layer: native meshing in a limited child ------------------------------------

_CRASH = """
    import ctypes, os, signal, sys
    import gzinertia.physics.surface_mesh as surface_mesh

    how = sys.argv[1]

    def crash(*args, **kwargs):
        if how == "SIGSEGV":
            ctypes.string_at(0)
        elif how == "SIGABRT":
            os.abort()
        elif how == "SIGKILL":  # as the kernel's OOM killer ends a process
            os.kill(os.getpid(), signal.SIGKILL)
        elif how == "memory":
            return bytearray(1 << 42)
        elif how == "hang":
            while True:
                pass
        raise AssertionError(how)

    surface_mesh._united = crash  # the mesher's first native step: in the child only
    from gzinertia.cli import main
    sys.argv = ["gzinertia", *sys.argv[2:]]
    main()
"""


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        ("SIGSEGV", "crashed (SIGSEGV)"),
        ("SIGABRT", "crashed (SIGABRT)"),
        ("SIGKILL", "was killed (SIGKILL"),
        ("memory", "GZINERTIA_MESH_MAX_MEMORY"),
        ("hang", "GZINERTIA_MESH_SECONDS"),
    ],
)
def test_a_crash_in_native_meshing_is_one_line_not_a_dead_process(
    how: str, expected: str, tmp_path: Path
) -> None:
    """The second layer: whatever the pre-checks let through and the native mesher does with
    it (planted here: the mesher's first step crashes, aborts, is killed as by the OOM killer,
    allocates 4 TiB, loops), the command prints one line naming the file and the link, exits 2,
    and leaves the file alone."""
    file = _model(tmp_path, sdf.box_geometry((0.4, 0.3, 0.2)))
    before = file.read_bytes()
    env = {"GZINERTIA_MESH_SECONDS": "1"}
    proc = run_limited(_CRASH, how, "addmass", "--bem", "--no-cache", "--in-place", str(file),
                       env=env)
    line = _one_error(proc.returncode, proc.stderr)
    assert line.startswith(f"gzinertia: error: {file}:5: link 'm::a', collision 'c': "), line
    assert expected in line, line
    assert file.read_bytes() == before


def test_native_meshing_through_the_helper_when_threads_run() -> None:
    """Another thread running (a threaded caller): ``fork`` is unsafe, the meshing goes through
    the helper process; the result is the one the forked child gives, to the last bit."""
    from gzinertia.physics import mesh_sandbox
    from gzinertia.physics.bem import bem_added_mass

    box = Collision("c", Pose(), Geometry("box", size=(0.4, 0.3, 0.2)), SourceRef("m.sdf", 5))
    mesh_sandbox._HELPER.stop()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        helped = bem_added_mass([box], 1000.0, quality="fast", use_cache=False)
    finally:
        stop.set()
        thread.join()
    assert mesh_sandbox._HELPER._proc is not None  # the helper was started and used
    mesh_sandbox._HELPER.stop()
    with pytest.MonkeyPatch.context() as patch:  # as in a process without any thread
        patch.setattr(mesh_sandbox, "process_is_single_threaded", lambda: True)
        forked = bem_added_mass([box], 1000.0, quality="fast", use_cache=False)
    assert mesh_sandbox._HELPER._proc is None  # forked from this process
    assert helped.panels == forked.panels and helped.coarse_panels == forked.coarse_panels
    np.testing.assert_array_equal(helped.A_BBo_B.linear_first(), forked.A_BBo_B.linear_first())


def _threads(pid: int | str) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_native_meshing_never_forks_a_process_whose_native_pools_ran() -> None:
    """manifold3d's worker pool (or OpenMP's team after a Capytaine solve) that ran in this
    process does not exist in a forked child: a child calling into it could wait forever (the
    meshing of a test hung until its wall-clock limit about one run in three, after an oracle
    had used manifold3d in the test process). The meshing then goes through the helper, which
    imports the mesher's libraries without running them: it runs no thread at all between its
    forks (OpenBLAS, loaded with numpy, stops its own idle threads before each fork)."""
    import manifold3d

    from gzinertia.physics import mesh_sandbox
    from gzinertia.physics.bem import bem_added_mass
    from gzinertia.sandbox import process_is_single_threaded

    before = _threads("self")
    (manifold3d.Manifold.cube((1.0, 1.0, 1.0)) + manifold3d.Manifold.sphere(0.7, 48)).to_mesh()
    assert _threads("self") > before or before > 1  # the pool (or another thread) runs here
    assert not process_is_single_threaded()
    mesh_sandbox._HELPER.stop()
    box = Collision("c", Pose(), Geometry("box", size=(0.4, 0.3, 0.2)), SourceRef("m.sdf", 5))
    for _ in range(2):
        bem_added_mass([box], 1000.0, quality="fast", use_cache=False)
    helper = mesh_sandbox._HELPER._proc
    assert helper is not None  # not forked from this process
    assert _threads(helper.pid) == 1  # OpenBLAS parks its own threads at each fork
    mesh_sandbox._HELPER.stop()


def test_the_progress_bars_start_no_thread() -> None:
    """On a terminal, ``addmass --bem`` draws rich bars; rich's refresh thread would make
    forking unsafe for every child the command runs. The bars are redrawn at each event
    instead."""
    import io

    from rich.console import Console

    from gzinertia.report.bem_progress import BarProgress
    from gzinertia.sandbox import fork_is_safe

    bars = BarProgress(Console(file=io.StringIO(), force_terminal=True))
    try:
        bars.link("m::a", 0, 2)
        bars.solve("BEM solve, 2000 panels", 6)
        bars.advance()
        assert fork_is_safe()
    finally:
        bars.close()


# --- scale: the mesher and the solver see the body at unit size ----------------------------------


def _box_and_sphere(scale: float) -> list[Collision]:
    return [
        Collision("c", Pose(np.array([0.3, 0.0, 0.0]) * scale),
                  Geometry("box", size=(1.0 * scale, 0.6 * scale, 0.4 * scale)),
                  SourceRef("m.sdf", 5)),
        Collision("d", Pose(np.array([0.0, 0.2, 0.0]) * scale),
                  Geometry("sphere", radius=0.35 * scale), SourceRef("m.sdf", 6)),
    ]


@pytest.mark.parametrize("scale", [2.0**-70, 2.0**40, 1e-20, 1e-9, 1e30])
def test_the_mesh_of_a_scaled_link_is_the_scaled_mesh(scale: float) -> None:
    """manifold3d's tolerances are absolute: the union of a box and a sphere 1e-20 m across was
    refused as enclosing no volume, at 1e-9 m it had other panels. The mesher works on the link
    scaled to about unit size by a power of two, so the mesh at a power-of-two scale is the unit
    mesh scaled exactly; at any other scale it encloses the same volume and area to round-off
    (its panel count may differ by the few edges whose length is a whole number of panel sizes:
    ``floor`` on either side of it)."""
    from gzinertia.physics.surface_mesh import link_surface

    unit = link_surface(_box_and_sphere(1.0), 0.05)
    scaled = link_surface(_box_and_sphere(scale), 0.05 * scale)
    if math.frexp(scale)[0] == 0.5:
        np.testing.assert_array_equal(scaled.faces, unit.faces)
        np.testing.assert_array_equal(scaled.vertices / scale, unit.vertices)
    assert scaled.volume() / scale**3 == pytest.approx(unit.volume(), rel=1e-12)
    assert scaled.area() / scale**2 == pytest.approx(unit.area(), rel=1e-12)
    assert abs(scaled.panels - unit.panels) <= 0.01 * unit.panels


@pytest.mark.parametrize("scale", [1e-3, 1e-6, 2.0**-40, 1e6])
def test_the_added_mass_of_a_small_body_scales_as_dimensional_analysis_says(scale: float) -> None:
    """Capytaine has absolute thresholds: the same panels 1 mm across gave an added mass 6e-4
    off the unit body's scaled by ρℓ³ (linear), ρℓ⁴ (coupling), ρℓ⁵ (angular), 0.1 mm 16-49 %
    off, 1 µm negative diagonal entries. Oracle: potential flow has no length scale, so the
    solve of the scaled surface is the unit solve scaled: exactly for a power of two, to the
    solve's round-off otherwise (measured: 1e-8 of the largest entry at 1e-3 and 1e6; the
    discretisation error is a million times larger)."""
    from gzinertia.physics.bem_solve import solve_surface
    from gzinertia.physics.panel_surface import Surface
    from gzinertia.physics.surface_mesh import link_surface

    unit = link_surface(_box_and_sphere(1.0), 0.1)
    A1 = solve_surface(unit, 1000.0)
    A = solve_surface(Surface(unit.vertices * scale, unit.faces), 1000.0)
    powers = np.add.outer([3, 3, 3, 4, 4, 4], [0, 0, 0, 1, 1, 1])
    expected = A1 * scale**powers
    if math.frexp(scale)[0] == 0.5:
        np.testing.assert_array_equal(A, expected)
    assert np.max(np.abs(A - expected)) <= 1e-7 * np.max(np.abs(expected))


# --- item 12: messages stay one readable line -----------------------------------------------------


def test_bounded_lists() -> None:
    assert bounded([]) == ""
    assert bounded(["a"]) == "a"
    assert bounded("abc") == "a, b, c"
    assert bounded(range(1600)) == "0, 1, 2 and 1597 more"
    assert bounded(iter(range(5)), shown=1, sep="; ") == "0 and 4 more"


def _boxes(tmp_path: Path, count: int = 1600) -> Path:
    """One link of ``count`` boxes 0.2 m wide on a 0.3 m grid (none touches another)."""
    size = (0.2, 0.2, 0.2)
    geometries = [sdf.box_geometry(size) for _ in range(count)]
    names = [f"c{i}" for i in range(count)]
    parts = "\n".join(
        sdf.collision(g, (0.3 * (i % 40), 0.3 * (i // 40), 0.0, 0.0, 0.0, 0.0), n)
        for i, (g, n) in enumerate(zip(geometries, names, strict=True))
    )
    return sdf.write(tmp_path, sdf.model(f'<link name="a">{INERTIAL}\n{parts}\n</link>'),
                     "a_model_file_with_a_rather_long_name_in_a_folder.sdf")


#: Longer than any message of a fixed length (with this test's long path twice), far shorter
#: than a list of 1,600 places.
MAX_LINE = 1200


@pytest.mark.parametrize(
    "args",
    [
        ["addmass", "--bem", "--no-cache", "--check"],
        ["addmass", "--bem", "--no-cache", "--quality", "fast", "--together", "--check"],
        ["addmass", "--ellipsoid", "--check"],
        ["hydro", "-l", "a", "--check"],
        ["audit", "--no-cache", "--format", "text"],
        ["hydrostatics"],
    ],
    ids=["bem", "bem-together", "ellipsoid", "hydro", "audit", "hydrostatics"],
)
def test_a_link_of_1600_boxes_gives_no_line_longer_than_a_screen(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``addmass --bem`` listed the file and line of every box in its one error line (45,000
    characters here, 80,000 with a longer path); now it names the first few and how many more."""
    file = _boxes(tmp_path)
    status, out, err = run_cli([*args, str(file)], capsys)
    assert "Traceback" not in err, err[-2000:]
    long = [line for line in (out + err).splitlines() if len(line) > MAX_LINE]
    assert not long, [line[:300] for line in long]
    if "--bem" in args:
        line = _one_error(status, err)
        assert "and 1597 more" in line, line
        # each box already has its fewest triangles: fewer shapes, not larger panels, would do
        assert "at a panel size of" in line and "--geometry NAMES" in line, line


def test_an_unknown_link_names_a_few_of_the_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--link`` matching nothing listed every link of the file (500,000 allowed)."""
    links = "\n".join(f'<link name="l{i}">{INERTIAL}</link>' for i in range(2000))
    file = sdf.write(tmp_path, sdf.model(links))
    status, _, err = run_cli(["addmass", "--ellipsoid", "-l", "nope", "--check", str(file)],
                             capsys)
    line = _one_error(status, err)
    assert "m::l0, m::l1, m::l2 and 1997 more" in line and len(line) < MAX_LINE, line


def test_identical_links_are_grouped_in_a_bounded_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The audit's text report names the other links a finding repeats on: all 1,999 of them
    made one 42,000-character line; now the first eight and how many more."""
    bad = sdf.inertial(2.0, np.diag([1.0, 1.0, 5.0]))  # GZI104 on every link
    links = "\n".join(f'<link name="l{i}">{bad}</link>' for i in range(2000))
    file = sdf.write(tmp_path, sdf.model(links))
    status, out, err = run_cli(["audit", "--no-cache", "--format", "text", str(file)], capsys)
    assert status == 1, err
    (line,) = [ln for ln in out.splitlines() if " GZI104 " in ln]
    assert "the same on 1999 more identical links:" in line and "and 1991 more)" in line, line
    assert len(line) < MAX_LINE, line[:300]


# --- item 13: an edit the input prevents exits 2 and writes nothing -------------------------------


def _good_and_bad(tmp_path: Path, bad: str, name: str = "model.sdf") -> Path:
    """Link ``good`` (line 4) with a box, link ``bad`` (line 5) with ``bad`` for its collision."""
    good = sdf.link("good", INERTIAL, sdf.box((0.4, 0.3, 0.2)))
    worse = f'<link name="bad">{INERTIAL}{sdf.collision(bad)}</link>'
    return sdf.write(tmp_path, sdf.model(good, worse), name)


#: Each bad collision and what the line says of it (either phrase: the fits and the mesher
#: word a flat mesh differently).
BAD_INPUTS = {
    "fit-overflows": (sdf.box_geometry((1e100, 1e100, 1e100)), ("overflows float64",)),
    "degenerate-mesh": (sdf.mesh_geometry("flat.stl"), ("is flat", "not closed")),
    "mesh-over-the-caps": (sdf.mesh_geometry("tet.obj"), ("GZINERTIA_MAX_MESH_FACES",)),
}


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=BAD_INPUTS.keys())
@pytest.mark.parametrize(
    "args",
    [["addmass", "--ellipsoid"], ["addmass", "--ellipsoid", "--fit", "mujoco"],
     ["addmass", "--bem", "--no-cache", "--quality", "fast"],
     ["fix", "--method", "geometry", "--all-links"]],
    ids=["ellipsoid", "ellipsoid-mujoco", "bem", "fix"],
)
def test_an_edit_the_input_prevents_exits_2_and_writes_nothing(
    args: list[str], bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The issue's item 13: these printed ``skipped ...`` (or ``not repaired``) and exited 0,
    also with ``no link to write added mass for``. Now one line naming the file and the bad
    link, exit 2, the file untouched (the good link is not written either: a partial edit would
    depend on the order the runs were made in), and ``--check`` after ``--in-place`` says the
    same."""
    geometry, expected = BAD_INPUTS[bad]
    (tmp_path / "flat.stl").write_bytes(FLAT_STL)
    (tmp_path / "tet.obj").write_bytes(
        b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    monkeypatch.setenv("GZINERTIA_MAX_MESH_FACES", "3")
    file = _good_and_bad(tmp_path, geometry)
    before = file.read_bytes()
    lines = []
    for mode in ("--in-place", "--check"):
        status, _, err = run_cli([*args, mode, str(file)], capsys)
        line = _one_error(status, err)
        assert line.startswith(f"gzinertia: error: {file}:5"), line
        assert "'m::bad'" in line and any(e in line for e in expected), line
        assert "no link to write added mass for" not in err and "skipped m::bad" not in err
        lines.append(line)
        assert file.read_bytes() == before
    assert lines[0] == lines[1]


def test_a_refused_bem_shape_beside_a_good_link_writes_nothing(tmp_path: Path) -> None:
    """The refusal of the needle happens before any link is solved (no solve is wasted on the
    good link, which is not written). In a child process: today's code dies of SIGSEGV."""
    file = _good_and_bad(tmp_path, NEEDLE)
    before = file.read_bytes()
    proc = run_cli_limited(["addmass", "--bem", "--no-cache", "--in-place", str(file)])
    err = proc.stderr
    line = _one_error(proc.returncode, err)
    assert "'m::bad'" in line and "aspect ratio" in line, line
    assert "BEM solve" not in err, err
    assert file.read_bytes() == before


def test_an_edit_the_input_prevents_on_urdf_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The URDF path of ``addmass --ellipsoid`` skipped the link the same way."""
    urdf = tmp_path / "robot.urdf"
    urdf.write_text(textwrap.dedent("""\
        <robot name="r">
          <link name="base"><inertial><mass value="2"/>
            <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
            <collision><geometry><box size="1e100 1e100 1e100"/></geometry></collision>
          </link>
        </robot>
    """))
    before = urdf.read_bytes()
    status, _, err = run_cli(["addmass", "--ellipsoid", "--in-place", str(urdf)], capsys)
    line = _one_error(status, err)
    assert line.startswith(f"gzinertia: error: {urdf}") and "overflows float64" in line, line
    assert urdf.read_bytes() == before


def test_links_skipped_for_a_reason_of_policy_still_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not every skip is bad input: a static link and a link without collisions are skipped
    with a line saying why, and the run exits 0 as before."""
    text = sdf.model(
        sdf.link("good", INERTIAL, sdf.box((0.4, 0.3, 0.2))),
        sdf.link("bare", INERTIAL),
    )
    file = sdf.write(tmp_path, text)
    status, _, err = run_cli(["addmass", "--ellipsoid", "--in-place", str(file)], capsys)
    assert status == 0 and "skipped m::bare: no collision geometry to fit" in err, err
    status, _, err = run_cli(["addmass", "--ellipsoid", "--check", str(file)], capsys)
    assert status == 0, err


def test_the_mesher_limits_come_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``GZINERTIA_MESH_SECONDS`` and ``GZINERTIA_MESH_MAX_MEMORY`` are positive whole numbers;
    anything else is one line naming the variable."""
    file = _model(tmp_path, sdf.box_geometry((0.4, 0.3, 0.2)))
    for name in ("GZINERTIA_MESH_SECONDS", "GZINERTIA_MESH_MAX_MEMORY"):
        monkeypatch.setenv(name, "-1")
        status, _, err = run_cli(["addmass", "--bem", "--no-cache", "--check", str(file)],
                                 capsys)
        assert name in _one_error(status, err)
        monkeypatch.delenv(name)


def test_sandbox_outcomes(capfd: pytest.CaptureFixture[str]) -> None:
    """The generic child runner (gzinertia.sandbox): a crash is a signal, not a dead parent, and
    prints nothing (pytest's fault handler, inherited, dumped a traceback to stderr); a hang is
    stopped at the wall-clock limit; the bytes of a good child come back whole."""
    import ctypes
    import time

    from gzinertia.sandbox import ChildLimits, run_forked

    limits = ChildLimits(seconds=1, memory_mib=256)
    capfd.readouterr()
    crashed = run_forked(lambda: bytes(ctypes.string_at(0)), limits, "cpu")
    assert crashed.signal == 11 and crashed.data == b""
    assert capfd.readouterr() == ("", "")
    start = time.monotonic()
    hung = run_forked(lambda: (time.sleep(1000), b"")[1], limits, "cpu")
    assert hung.status is None and time.monotonic() - start < limits.wall_seconds + 2.0
    whole = run_forked(lambda: os.urandom(1 << 22)[:0] + b"x" * (3 << 20), limits, "cpu")
    assert whole.exit_code == 0 and whole.data == b"x" * (3 << 20)
