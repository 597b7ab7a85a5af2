"""`gzinertia plot`: a picture is written, in the format asked for, with what it should show."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from conftest import EXAMPLES, run_cli


def test_matplotlib_comes_with_the_package() -> None:
    """`pip install .` brings matplotlib (show and the audit suggest `gzinertia plot`); the
    `plot` extra stays as an alias for those who install `gzinertia[plot]`."""
    import re
    import sys

    from conftest import REPO

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}

    assert "matplotlib" in names(project["dependencies"])
    assert "matplotlib" in names(project["optional-dependencies"]["plot"])


def test_cli_start_up_does_not_import_matplotlib() -> None:
    """matplotlib is imported when a picture is drawn, not when the CLI starts (start-up time
    is measured in benchmarks/; this checks the cause)."""
    import subprocess
    import sys

    from conftest import REPO

    program = (
        "import sys\n"
        "from gzinertia.cli import main\n"
        "sys.argv = ['gzinertia', 'plot', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('matplotlib' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True, cwd=REPO)
    assert run.stdout.strip().splitlines()[-1] == "False"


def test_a_broken_install_without_matplotlib_is_one_line(tmp_path: Path) -> None:
    """In a fresh interpreter where ``import matplotlib`` fails (a process that has drawn
    before holds matplotlib's modules already, so the failure is only real in a new one)."""
    import subprocess
    import sys

    out = tmp_path / "hull.png"
    code = ("import sys; sys.modules['matplotlib'] = None; "
            "from gzinertia.cli import main; main()")
    run = subprocess.run(
        [sys.executable, "-c", code, "plot", str(EXAMPLES / "torpedo_auv" / "model.sdf"),
         "--link", "hull", "-o", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    err = run.stderr
    assert run.returncode == 2 and err.count("\n") == 1 and "pip install matplotlib" in err, err
    assert not out.exists()


def test_png_of_one_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hull.png"
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "torpedo_auv" / "model.sdf"), "--link", "hull", "-o", str(out)],
        capsys,
    )
    assert status == 0, err
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000


def test_svg_of_a_whole_model_names_it_and_its_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rov.svg"
    status, _, err = run_cli(["plot", str(EXAMPLES / "box_rov" / "model.sdf"), "-o", str(out)], capsys)
    assert status == 0, err
    text = out.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "world frame" in text and "fluid ellipsoid" in text


def test_unknown_picture_format_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "box_rov" / "model.sdf"), "-o", str(tmp_path / "x.gif")], capsys
    )
    assert status == 2 and "png or .svg" in err


def _graded_world(tmp_path: Path) -> Path:
    """A graded world (water of 1000 kg/m³ below z = 0, nothing above) holding a box link
    yawed by 0.7 rad at height 0.1 m (collision 0.3 m along its x, a 1 m cube) and a link
    rolled by 0.4 rad."""
    plugin = sdf.buoyancy_plugin(default=1000.0, changes=[(0.0, 0.0)])
    inertial = sdf.inertial(300.0, np.eye(3), com=(0.1, 0.2, 0.05))
    box = sdf.box((1, 1, 1), pose=(0.3, 0, 0, 0, 0, 0))
    links = (sdf.link("yawed", inertial, box, pose=(1, 2, 0.1, 0, 0, 0.7)),
             sdf.link("rolled", inertial, box, pose=(4, 0, 0.2, 0.4, 0, 0)))
    text = sdf.world(plugin, sdf.nested_model("m", *links), version="1.10")
    path = tmp_path / "w.sdf"
    path.write_text(text)
    return path


def _marks(fig: object) -> list[dict[str, list[object]]]:
    """Per axes (rows of three views), the artists with each hydrostatics gid."""
    out = []
    for ax in fig.axes:  # type: ignore[attr-defined]
        found: dict[str, list[object]] = {}
        for artist in ax.get_children():
            gid = artist.get_gid() if hasattr(artist, "get_gid") else None
            if gid in ("G", "B", "waterline"):
                found.setdefault(gid, []).append(artist)
        out.append(found)
    return out


def test_per_link_views_mark_g_b_and_the_waterline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--link`: each link's row marks its centre of mass G (the inertial pose), its centre of
    buoyancy B and the free surface, in the link frame. The yawed cube (closed form): 0.4 m of
    it under water, so B is the wet slab's centre, 0.2 m above the cube's bottom, on the
    collision's axis: (0.3, 0, -0.3) in B; the surface is the plane z_B = -0.1. The rolled
    link: the surface's trace in each view lies on the plane n_B·p = c, n_B = R_WBᵀ·e_z
    (scipy's rotation), c = -z_WBo."""
    import numpy as np
    from scipy.spatial.transform import Rotation

    import gzinertia.report.plot_figure as plot_module

    figures = []
    real_render = plot_module.render

    def keep(rows, out, hydro=None, **labels):  # type: ignore[no-untyped-def]
        figures.append(plot_module.figure(rows, hydro, **labels))
        real_render(rows, out, hydro, **labels)

    monkeypatch.setattr(plot_module, "render", keep)
    out = tmp_path / "links.png"
    path = _graded_world(tmp_path)
    status, _, err = run_cli(["plot", str(path), "--link", "m::*", "-o", str(out)], capsys)
    assert status == 0, err
    (fig,) = figures
    per_axes = _marks(fig)
    assert len(per_axes) == 6  # two rows (yawed, rolled) of three views
    views = ((0, 1), (0, 2), (1, 2))
    G_B = np.array([0.1, 0.2, 0.05])
    B_yawed = np.array([0.3, 0.0, -0.3])
    for k, (i, j) in enumerate(views):
        marks = per_axes[k]
        (g,) = marks["G"]
        (b,) = marks["B"]
        assert np.allclose(g.get_xydata(), [[G_B[i], G_B[j]]], atol=1e-12)
        assert np.allclose(b.get_xydata(), [[B_yawed[i], B_yawed[j]]], atol=1e-12)
        if j != 2:
            assert "waterline" not in marks  # the top view of a level surface
            continue
        (line,) = marks["waterline"]
        for point in (line.get_xy1(), line.get_xy2()):
            assert point[1] == pytest.approx(-0.1, abs=1e-12)
    n_B = Rotation.from_euler("xyz", [0.4, 0.0, 0.0]).as_matrix().T @ [0.0, 0.0, 1.0]
    c = 0.0 - 0.2
    for k, (i, j) in enumerate(views):
        marks = per_axes[3 + k]
        assert len(marks["G"]) == 1 and len(marks["B"]) == 1
        (line,) = marks["waterline"]
        for u, v in (line.get_xy1(), line.get_xy2()):
            p = np.zeros(3)
            p[i], p[j] = u, v
            assert float(n_B @ p) == pytest.approx(c, abs=1e-12)
    for f in figures:
        import matplotlib.pyplot as plt

        plt.close(f)


def test_whole_model_view_marks_the_bodies_g_and_b(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without `--link`: each free body's G and B (the two links have no joint: two bodies), as
    `hydrostatics --json` reports them, and the waterline z = 0 in the side and front views."""
    import json

    import numpy as np

    import gzinertia.report.plot_figure as plot_module

    figures = []
    monkeypatch.setattr(plot_module, "render",
                        lambda rows, out, hydro=None, **labels: figures.append(
                            plot_module.figure(rows, hydro, **labels)))
    path = _graded_world(tmp_path)
    status, _, err = run_cli(["plot", str(path), "-o", str(tmp_path / "m.png")], capsys)
    assert status == 0, err
    status, out, err = run_cli(["hydrostatics", str(path), "--json"], capsys)
    (model,) = json.loads(out)["models"]
    bodies = model["bodies"]
    assert len(bodies) == 2
    for k, (i, j) in enumerate(((0, 1), (0, 2), (1, 2))):
        marks = _marks(figures[0])[k]
        for key, gid in (("p_WG", "G"), ("p_WB", "B")):
            drawn = sorted(tuple(a.get_xydata()[0]) for a in marks[gid])
            assert np.allclose(drawn, sorted((b[key][i], b[key][j]) for b in bodies))
        assert ("waterline" in marks) == (j == 2)


def test_whole_model_view_marks_each_free_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A float and its sinker, no joint between them: two free bodies, each marked at its own
    G and B (spheres: B at their centres, closed form), not one mark for their sum."""
    import gzinertia.report.plot_figure as plot_module

    def sphere(name: str, r: float, z: float) -> str:
        return sdf.link(name, sdf.inertial(10.0, np.eye(3), posed=False),
                        sdf.sphere(r, pose=None), pose=(0, 0, z, 0, 0, 0))

    path = tmp_path / "w.sdf"
    buoy = sdf.nested_model("buoy", sphere("float", 0.3, -1.0), sphere("sinker", 0.1, -3.0))
    path.write_text(sdf.world(sdf.buoyancy_plugin(1000.0), buoy, version="1.10"))
    figures = []
    monkeypatch.setattr(plot_module, "render",
                        lambda rows, out, hydro=None, **labels: figures.append(
                            plot_module.figure(rows, hydro, **labels)))
    status, _, err = run_cli(["plot", str(path), "-o", str(tmp_path / "m.png")], capsys)
    assert status == 0, err
    side = _marks(figures[0])[1]  # x–z
    b_points = sorted(tuple(a.get_xydata()[0]) for a in side["B"])
    assert np.allclose(b_points, [(0.0, -3.0), (0.0, -1.0)], atol=1e-12)
    assert len(side["G"]) == 2
