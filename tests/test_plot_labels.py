"""``plot``'s labels and small links (issue 30: "plot keeps its PNG/SVG output for papers, with
the small-link scaling and labels that do not collide").

* Every label drawn (each model's G and B, each link's name at its centre of mass) stays inside
  its view and covers no other label; a label with no room is left out and the view says how
  many, so drawn plus left out is every label asked for. Oracle: the boxes matplotlib's own
  renderer measures for the drawn text, compared pairwise (no grid, no shortcut).
* A light link's true inertia ellipsoid, smaller than its centre-of-mass mark, is drawn at
  :data:`~gzinertia.report.plot.ELLIPSOID_FLOOR` of the model's extent, shape kept, and the
  legend says so. Oracle: the closed-form equivalent ellipsoid ``a_i² = 5/(2m)·(I_j + I_k -
  I_i)`` and the model's extent from the boxes' sizes and poses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest
import sdf_builders as sdf

from gzinertia.report.plot import (
    ELLIPSOID_CAP,
    ELLIPSOID_FLOOR,
    HydroMarks,
    link_drawing,
    scale_inertia_ellipsoids,
)
from gzinertia.report.plot_figure import figure
from gzinertia.sdf import read_sdf_file

HULL = (0.6, 0.4, 0.3)
LABEL_GIDS = ("label", "link label")


def _crowded(tmp_path: Path, count: int, spacing: float) -> Path:
    """A hull with ``count`` small links in a row ``spacing`` apart beside it."""
    parts = [sdf.link("hull", sdf.inertial(10.0, sdf.box_inertia(10.0, HULL)), sdf.box(HULL))]
    for k in range(count):
        box = (0.02, 0.02, 0.02)
        parts.append(sdf.link(f"thruster_{k:02d}", sdf.inertial(0.2, sdf.box_inertia(0.2, box)),
                              sdf.box(box), pose=(-0.3 + spacing * k, 0.25, 0.0, 0.0, 0.0, 0.0)))
    return sdf.write(tmp_path, sdf.model(*parts, name="rov"))


def _drawn_labels(fig: Any) -> list[tuple[Any, list[Any]]]:
    """Per view: the view and its drawn label texts."""
    return [(ax, [t for t in ax.texts if t.get_gid() in LABEL_GIDS]) for ax in fig.axes]


def _left_out(ax: Any) -> int:
    notes = [t.get_text() for t in ax.texts if t.get_gid() == "labels left out"]
    return int(re.match(r"(\d+) of", notes[0]).group(1)) if notes else 0  # type: ignore[union-attr]


def _figure(path: Path) -> tuple[Any, int]:
    doc = read_sdf_file(path)
    drawings, label = scale_inertia_ellipsoids([link_drawing(lk, lk.X_WB, None)
                                                for lk in doc.links], None)
    G = np.array([0.0, 0.0, 0.0])
    B = np.array([0.0, 0.0, 0.05])
    marks = HydroMarks(centres=(("rov", G, B),), waterline_z=0.5)
    return figure([("rov", drawings)], [marks], label), len(doc.links) + 2


@pytest.mark.parametrize(("count", "spacing"), [(4, 0.2), (24, 0.03), (60, 0.012)])
def test_labels_cover_no_other_label_and_none_is_lost_unsaid(
    tmp_path: Path, count: int, spacing: float
) -> None:
    fig, asked = _figure(_crowded(tmp_path, count, spacing))
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for ax, texts in _drawn_labels(fig):
            frame = ax.get_window_extent(renderer)
            boxes = [t.get_window_extent(renderer) for t in texts]
            for k, a in enumerate(boxes):
                assert frame.x0 <= a.x0 and a.x1 <= frame.x1, (texts[k].get_text(), a, frame)
                assert frame.y0 <= a.y0 and a.y1 <= frame.y1, (texts[k].get_text(), a, frame)
                for m in range(k + 1, len(boxes)):
                    b = boxes[m]
                    overlap_w = min(a.x1, b.x1) - max(a.x0, b.x0)
                    overlap_h = min(a.y1, b.y1) - max(a.y0, b.y0)
                    assert overlap_w <= 0 or overlap_h <= 0, (texts[k].get_text(),
                                                              texts[m].get_text())
            assert len(texts) + _left_out(ax) == asked, (len(texts), _left_out(ax), asked)
        top, side, front = fig.axes
        if count == 4:  # 20 cm apart along x: room for every label where x is drawn
            assert _left_out(top) == 0 and _left_out(side) == 0
        else:  # 24 links 3 cm apart: no room for every name, and each view says so
            assert _left_out(top) > 0 and _left_out(side) > 0
        assert _left_out(front) > 0  # the front view stacks the row on one point
    finally:
        plt.close(fig)


def test_g_and_b_are_labelled_first(tmp_path: Path) -> None:
    fig, _ = _figure(_crowded(tmp_path, 24, 0.03))
    try:
        for _, texts in _drawn_labels(fig):
            names = {t.get_text() for t in texts}
            assert {"G rov", "B rov"} <= names, names
    finally:
        plt.close(fig)


def _true_semi_axes(m: float, I: np.ndarray) -> np.ndarray:
    lam = np.linalg.eigvalsh(I)
    return np.sqrt(5.0 / (2.0 * m) * (lam.sum() - 2.0 * lam))


def test_a_light_link_s_ellipsoid_is_drawn_at_the_floor_shape_kept(tmp_path: Path) -> None:
    sensor_m, sensor_I = 0.005, np.diag([1e-9, 2e-9, 2.5e-9])  # a 5 g sensor, true inertia
    parts = [sdf.link("hull", sdf.inertial(10.0, sdf.box_inertia(10.0, HULL)), sdf.box(HULL)),
             sdf.link("sensor", sdf.inertial(sensor_m, sensor_I), sdf.box((0.01,) * 3),
                      pose=(0.2, 0.0, 0.1, 0.0, 0.0, 0.0))]
    doc = read_sdf_file(sdf.write(tmp_path, sdf.model(*parts, name="rov")))
    extent = max(HULL)  # the hull box spans the model; the sensor lies inside its extent
    true = _true_semi_axes(sensor_m, sensor_I)
    assert true.max() < ELLIPSOID_FLOOR * extent  # the case: smaller than its mark
    scaled, legend = scale_inertia_ellipsoids(
        [link_drawing(lk, lk.X_WB, None) for lk in doc.links], None)
    sensor = next(d for d in scaled if d.name == "rov::sensor")
    assert sensor.inertia_ellipsoid is not None
    drawn = np.sort(np.sqrt(np.linalg.eigvalsh(sensor.inertia_ellipsoid[1])))
    assert drawn.max() == pytest.approx(ELLIPSOID_FLOOR * extent, rel=1e-9)
    assert np.allclose(drawn / drawn.max(), np.sort(true) / true.max(), rtol=1e-9)
    hull = next(d for d in scaled if d.name == "rov::hull")
    assert hull.inertia_ellipsoid is not None
    hull_true = _true_semi_axes(10.0, sdf.box_inertia(10.0, HULL))
    assert hull_true.max() < ELLIPSOID_CAP * extent  # drawn true: between floor and cap
    assert np.allclose(np.sort(np.sqrt(np.linalg.eigvalsh(hull.inertia_ellipsoid[1]))),
                       np.sort(hull_true), rtol=1e-9)
    assert "1 of 2 scaled up to 2 %" in legend, legend
    assert "scaled down" not in legend, legend
