"""Text labels in a picture's view that never cover one another: each label is tried at a few
places around its anchor (a link's centre of mass, a model's G or B), in order, and drawn at
the first where its box, as the renderer measures it, stays inside the view and clear of every
label already placed; a label with no such place is left out and counted, so the picture can
say how many it left out (never silent). At most :data:`MAX_TRIED` labels are tried in a view.

Boxes are measured in display units after the view's limits and aspect are final
(:meth:`~matplotlib.axes.Axes.apply_aspect`), so what is checked is what is drawn: a PNG or
SVG written later at another resolution scales text and view alike. Placed boxes are kept in a
grid of cells one label high, so each try compares with the few boxes near it: the work grows
with the number of labels, not with its square.

Floor: rendering (matplotlib; imported by :mod:`gzinertia.report.plot` only).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform

from gzinertia.record_base import ValueRecord

__all__ = ["MAX_TRIED", "OFFSETS", "Label", "place_labels"]

#: Where a label is tried, in order: its offset from the anchor (points, x right, y up) and
#: its alignment there (horizontal, vertical): above right, below right, above left, below
#: left, right, left, above, below.
OFFSETS: tuple[tuple[float, float, str, str], ...] = (
    (4.0, 4.0, "left", "bottom"),
    (4.0, -4.0, "left", "top"),
    (-4.0, 4.0, "right", "bottom"),
    (-4.0, -4.0, "right", "top"),
    (6.0, 0.0, "left", "center"),
    (-6.0, 0.0, "right", "center"),
    (0.0, 6.0, "center", "bottom"),
    (0.0, -6.0, "center", "top"),
)
#: At most this many labels are tried in one view, in the order given (the most important
#: first); the rest are left out and counted: a view holds a few dozen legible labels, and
#: trying more would cost each of them every place in a full view.
MAX_TRIED = 40
#: Display units kept clear around each placed label's box.
_PAD = 1.0


@dataclass(frozen=True, repr=False, eq=False)
class Label(ValueRecord):
    """A label's text and its anchor in the view's data coordinates (m, on the view's
    horizontal and vertical axes); ``gid`` tags the drawn text (``"label"`` by default)."""

    text: str
    x: float
    y: float
    gid: str = "label"


class _Placed:
    """The boxes placed so far, in a grid of square cells ``cell`` display units wide."""

    def __init__(self, cell: float) -> None:
        self.cell = max(cell, 1.0)
        self.cells: defaultdict[tuple[int, int], list[tuple[float, float, float, float]]] = (
            defaultdict(list)
        )

    def _keys(self, box: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        x0, y0, x1, y1 = (math.floor(v / self.cell) for v in box)
        return [(i, j) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1)]

    def clear(self, box: tuple[float, float, float, float]) -> bool:
        x0, y0, x1, y1 = box
        return not any(
            x0 < b[2] + _PAD and b[0] < x1 + _PAD and y0 < b[3] + _PAD and b[1] < y1 + _PAD
            for key in self._keys(box) for b in self.cells.get(key, ())
        )

    def add(self, box: tuple[float, float, float, float]) -> None:
        for key in self._keys(box):
            self.cells[key].append(box)


def place_labels(ax: Any, labels: Sequence[Label], fontsize: float = 7.0) -> int:
    """Draws each of ``labels`` in the view ``ax`` (a matplotlib ``Axes`` whose artists are
    all added) at the first of :data:`OFFSETS` where it fits, in the order given (put the
    most important first), and returns how many were left out for want of room."""
    if not labels:
        return 0
    ax.get_xlim()  # settles the autoscaled limits before the aspect and the transform are read
    ax.apply_aspect()
    figure = ax.get_figure(root=True)
    renderer = figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    points = figure.dpi / 72.0
    placed = _Placed(2.0 * fontsize * points)
    # one text outside the axes, moved to each place tried and measured there: a label is
    # added to the view once, where it fits (adding and removing tries costs the view's size)
    probe = Text(0.0, 0.0, "", fontsize=fontsize, transform=IdentityTransform(), figure=figure)
    left_out = max(len(labels) - MAX_TRIED, 0)
    for label in labels[:MAX_TRIED]:
        if not (math.isfinite(label.x) and math.isfinite(label.y)):
            left_out += 1
            continue
        x, y = ax.transData.transform((label.x, label.y))
        probe.set_text(label.text)
        for dx, dy, ha, va in OFFSETS:
            probe.set(x=x + dx * points, y=y + dy * points, ha=ha, va=va)
            extent = probe.get_window_extent(renderer)
            box = (extent.x0, extent.y0, extent.x1, extent.y1)
            inside = (frame.x0 <= box[0] and box[2] <= frame.x1
                      and frame.y0 <= box[1] and box[3] <= frame.y1)
            if inside and placed.clear(box):
                placed.add(box)
                ax.annotate(label.text, (label.x, label.y), xytext=(dx, dy),
                            textcoords="offset points", ha=ha, va=va, fontsize=fontsize,
                            zorder=9, gid=label.gid, annotation_clip=False)
                break
        else:
            left_out += 1
    return left_out
