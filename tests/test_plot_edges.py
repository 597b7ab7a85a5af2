"""``plot``'s rough edges (issue 25, item 15), and two that show in every command's output.

* The hints ``plot`` prints name only options ``plot --help`` lists (it has no ``--semi-axes``).
* A model's view is not dominated by the inertia ellipsoids of gram-sized links: each is drawn
  at most :data:`~gzinertia.report.plot.ELLIPSOID_CAP` of the model's extent, the legend says
  how many were scaled, and ``--ellipsoid-scale`` chooses (``1``: true size). Oracle: the
  closed-form equivalent ellipsoid ``a_i² = 5/(2m)·(I_j + I_k - I_i)`` and the model's extent
  from the boxes' sizes and poses.
* A mesh of two separate closed pieces (a catamaran's pontoons) is outlined piece by piece, not
  by one convex hull over both. Oracle: the boxes the mesh was made of.
* No ``-0`` in messages; JSON's ``fluid_density`` is the fluid's density exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
import trimesh
from conftest import run_cli

from gzinertia.report.plot import ELLIPSOID_CAP, link_drawing
from gzinertia.sdf import read_sdf_file
from gzinertia.wording import number, vector

HULL = (0.6, 0.4, 0.3)
THRUSTER_MASS = 0.002  # orca4's 2 g thrusters
THRUSTER_I = np.diag([1e-3, 1e-3, 1.5e-3])  # a 1.4 m ellipsoid for 2 g


def _options(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", help_text))


def _plot_help(capsys: pytest.CaptureFixture[str]) -> set[str]:
    code, out, _ = run_cli(["plot", "--help"], capsys)
    assert code == 0
    return _options(out)


@pytest.mark.parametrize(("fit", "link"), [("volume", "base"), ("inertia", "fin"),
                                           ("mujoco", "base")])
def test_every_option_a_hint_names_is_plot_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fit: str, link: str
) -> None:
    text = sdf.model(
        sdf.link("base", sdf.inertial(11.0, np.eye(3))),  # no collision: no volume fit
        sdf.link("fin", sdf.inertial(1.0, np.diag([1.0, 1.0, 3.0])), sdf.box((0.1,) * 3)),
        name="rov",
    )
    path = sdf.write(tmp_path, text)
    code, _, err = run_cli(["plot", str(path), "-o", str(tmp_path / "p.png"), "--fit", fit,
                            "--link", f"rov::{link}"], capsys)
    assert code == 0, err
    assert "no fluid ellipsoid" in err, err
    named = _options(err)
    assert named and named <= _plot_help(capsys), (named, err)


def _orca(tmp_path: Path) -> Path:
    parts = [sdf.link("hull", sdf.inertial(10.0, sdf.box_inertia(10.0, HULL)), sdf.box(HULL))]
    for k in range(6):
        x, y = (-0.25 + 0.1 * k, 0.2 if k % 2 else -0.2)
        parts.append(sdf.link(f"thruster{k}", sdf.inertial(THRUSTER_MASS, THRUSTER_I),
                              sdf.cylinder(0.02, 0.03), pose=(x, y, 0.0, 0.0, 0.0, 0.0)))
        parts.append(sdf.joint(f"j{k}", "hull", f"thruster{k}", type="revolute",
                               axis=(1, 0, 0)))
    return sdf.write(tmp_path, sdf.model(*parts, name="orca4"))


def _true_semi_axes(m: float, I: np.ndarray) -> np.ndarray:
    lam = np.linalg.eigvalsh(I)
    return np.sqrt(5.0 / (2.0 * m) * (lam.sum() - 2.0 * lam))


def test_gram_links_ellipsoids_are_capped_in_the_model_view(tmp_path: Path) -> None:
    from gzinertia.report.plot import scale_inertia_ellipsoids

    doc = read_sdf_file(_orca(tmp_path))
    drawings = [link_drawing(lk, lk.X_WB, None) for lk in doc.links]
    # the model's extent, from the construction: the hull box and the thrusters' cylinders
    extent = max(HULL[0], 0.5 + 0.04, 0.4 + 0.04)
    true = _true_semi_axes(THRUSTER_MASS, THRUSTER_I)
    assert true.max() > ELLIPSOID_CAP * extent  # the case: they would dominate the view
    scaled, legend = scale_inertia_ellipsoids(drawings, None)
    for d in scaled:
        assert d.inertia_ellipsoid is not None
        semi = np.sqrt(np.linalg.eigvalsh(d.inertia_ellipsoid[1]))
        assert semi.max() <= ELLIPSOID_CAP * extent * (1 + 1e-9), (d.name, semi)
    hull = next(d for d in scaled if d.name == "orca4::hull")
    hull_true = _true_semi_axes(10.0, sdf.box_inertia(10.0, HULL))
    assert np.allclose(np.sort(np.sqrt(np.linalg.eigvalsh(hull.inertia_ellipsoid[1]))),
                       np.sort(hull_true), rtol=1e-9)  # a plausible body is drawn true
    assert "6 of 7" in legend and "scaled" in legend, legend
    # --ellipsoid-scale 1: every ellipsoid at its true size
    unscaled, legend = scale_inertia_ellipsoids(drawings, 1.0)
    thruster = next(d for d in unscaled if d.name == "orca4::thruster0")
    assert np.allclose(np.sort(np.sqrt(np.linalg.eigvalsh(thruster.inertia_ellipsoid[1]))),
                       np.sort(true), rtol=1e-9)
    assert "true size" in legend, legend


def test_the_legend_states_the_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import matplotlib.pyplot as plt

    from gzinertia.report.plot import scale_inertia_ellipsoids
    from gzinertia.report.plot_figure import figure

    path = _orca(tmp_path)
    png = tmp_path / "orca.png"
    code, _, err = run_cli(["plot", str(path), "-o", str(png)], capsys)
    assert code == 0, err
    assert "6 of 7 scaled down" in err and "--ellipsoid-scale 1" in err, err
    code, _, err = run_cli(["plot", str(path), "-o", str(png), "--ellipsoid-scale", "0.5"],
                           capsys)
    assert code == 0 and "scaled down" not in err, err
    doc = read_sdf_file(path)
    for scale, words in ((None, "6 of 7 scaled down"), (0.5, "× 0.5"), (1.0, "true size")):
        drawings, label = scale_inertia_ellipsoids(
            [link_drawing(lk, lk.X_WB, None) for lk in doc.links], scale)
        fig = figure([("orca4", drawings)], None, label)
        texts = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
        plt.close(fig)
        assert any(words in t for t in texts), texts
    code, _, err = run_cli(["plot", str(path), "-o", str(png), "--ellipsoid-scale", "-1"],
                           capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--ellipsoid-scale" in err


def test_separate_pieces_of_a_mesh_are_outlined_apart(tmp_path: Path) -> None:
    # a catamaran hull as one STL: two pontoons 1 m apart, nothing between them
    pontoons = [trimesh.creation.box((1.2, 0.2, 0.15)) for _ in range(2)]
    pontoons[0].apply_translation((0.0, -0.5, 0.0))
    pontoons[1].apply_translation((0.0, 0.5, 0.0))
    trimesh.util.concatenate(pontoons).export(tmp_path / "hull.stl")
    text = sdf.model(sdf.link("base", sdf.inertial(30.0, np.diag([3.0, 1.0, 3.5])),
                              sdf.mesh("hull.stl")), name="heron")
    doc = read_sdf_file(sdf.write(tmp_path, text))
    (drawing,) = [link_drawing(lk, lk.X_WB, None) for lk in doc.links]
    assert len(drawing.outlines) == 2
    for outline in drawing.outlines:
        lo, hi = outline.min(axis=0), outline.max(axis=0)
        side = np.sign(lo[1])
        assert np.sign(hi[1]) == side  # not across the gap
        assert np.allclose([lo[1], hi[1]], sorted([side * 0.4, side * 0.6]), atol=1e-9)


def test_numbers_in_messages_never_read_minus_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert number(-0.0) == "0" and vector([-0.0, 0.0, -1.5]) == "(0, 0, -1.5)"
    # GZI107 on a centre of mass written as -0 0 0.5: the message shows the point as 0
    text = sdf.model(sdf.link("b", sdf.inertial(1.0, sdf.box_inertia(1.0, (0.1,) * 3),
                                                com=(-0.0, -0.0, 0.5)), sdf.box((0.1,) * 3)))
    path = sdf.write(tmp_path, text)
    code, out, err = run_cli(["audit", str(path), "--format", "json", "--no-cache"], capsys)
    assert code == 0, err  # GZI107 is a warning
    messages = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "GZI107"]
    minus_zero = re.compile(r"-0(?![.\deE])")
    assert messages and not any(minus_zero.search(m) for m in messages), messages
    assert "(0, 0, 0.5)" in messages[0]


def test_json_fluid_density_is_the_fluid_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # three boxes whose buoyancy, summed and divided back by g·V, was not the density in
    # either fluid (found by a search over generated boxes)
    sizes = [(0.101, 0.226, 0.283), (0.244, 0.314, 0.382), (0.48, 0.178, 0.342)]
    parts = []
    for k, s in enumerate(sizes):
        parts.append(sdf.link(f"l{k}", sdf.inertial(1.0, sdf.box_inertia(1.0, s)), sdf.box(s),
                              pose=(0.7 * k, 0.0, -3.0, 0.0, 0.0, 0.0)))
        if k:
            parts.append(sdf.joint(f"j{k}", "l0", f"l{k}"))
    for rho in (1000.0, 1025.0):
        text = sdf.world(sdf.buoyancy_plugin(rho), sdf.nested_model("m", *parts))
        path = sdf.write(tmp_path, text, "w.sdf")
        code, out, err = run_cli(["hydrostatics", str(path), "--json"], capsys)
        assert code == 0, err
        densities = re.findall(r'"fluid_density": ([^,\n}]+)', out)
        assert densities and all(float(d) == rho for d in densities), densities


def test_the_floating_line_never_reads_minus_zero() -> None:
    """A level hull at rest floats with heave, roll and pitch of -0.0 as often as 0.0 (the
    sign of a zero difference): the line reads +0 for each."""
    from gzinertia.report.hydrostatics import _flotation_lines

    fl = {"floats": True, "z_surface": -0.0, "heave": -0.0, "roll": -0.0, "pitch": -0.0,
          "converged": True, "draft": 0.25, "waterplane_area": 1.0, "KB": 0.125, "KG": 0.1,
          "BM_T": 0.33, "BM_L": 0.33, "GM_T": 0.355, "GM_L": 0.355,
          "tolerance": 1e-9, "tolerance_note": "a polyhedral hull"}
    lines = _flotation_lines(fl, "")
    assert not any(re.search(r"-0(?![.\deE])", line) for line in lines), lines
